#!/usr/bin/env bash
# Copies what production runs, and nothing else, from a built checkout into
# TARGET (the image's /app, or a folder to try the production tree locally):
# the compiled bundles, the migrations, the catalogue's data, the gateway's
# config and the built web app. Dependencies come separately from
# `infra/build/production-deps.sh`. Usage: infra/build/stage.sh TARGET
set -euo pipefail
cd "$(dirname "$0")/../.."
target=${1:?usage: stage.sh TARGET}
mkdir -p "$target"
# Every package.json: npm's workspace links and `type: module` need them.
for file in package.json package-lock.json $(node -p "require('./package.json').workspaces.map((w) => w + '/package.json').join(' ')"); do
  mkdir -p "$target/$(dirname "$file")"
  cp "$file" "$target/$file"
done
for dir in services/*/dist gateway/dist infra/ops/dist services/*/prisma/migrations services/runtime/migrations services/places/data gateway/config web/dist; do
  [ -e "$dir" ] || continue
  mkdir -p "$target/$(dirname "$dir")"
  cp -R "$dir" "$target/$dir"
done
# Source maps stay behind: stack traces name functions already (the bundles keep names).
find "$target" -name '*.js.map' -delete
