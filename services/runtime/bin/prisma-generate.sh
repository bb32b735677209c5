#!/bin/sh
# Generates a service's Prisma client offline. `prisma generate` needs no engine,
# but the CLI tries to download the schema engine unless this variable names an
# existing file. Migrations are applied by our own runner (services/runtime/src/db/migrate.ts).
set -e
export PRISMA_SCHEMA_ENGINE_BINARY="${PRISMA_SCHEMA_ENGINE_BINARY:-/bin/sh}"
export PRISMA_HIDE_UPDATE_MESSAGE=1
exec npx --no-install prisma generate "$@"
