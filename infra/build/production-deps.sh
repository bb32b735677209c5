#!/usr/bin/env bash
# The production dependencies of the processes, installed into the current
# folder from package-lock.json (the image's deps stage; also run by hand to
# measure the tree). `--omit=dev` keeps packages marked devOptional (needed by
# a dev dependency or as an optional peer: the Prisma CLI and its studio,
# TypeScript): nothing at run time imports them, so they are removed after.
set -euo pipefail
workspaces=(proto services/runtime services/auth services/social-graph services/media services/places services/sessions services/messaging services/notifications services/challenges services/queue-board gateway)
npm ci --omit=dev --no-audit --no-fund "${workspaces[@]/#/--workspace=}"
node -e "
  const fs = require('node:fs');
  const { packages } = require('./package-lock.json');
  for (const [path, entry] of Object.entries(packages)) {
    if (path.startsWith('node_modules/') && entry.devOptional) fs.rmSync(path, { recursive: true, force: true });
  }
"
rm -rf ~/.npm/_cacache
