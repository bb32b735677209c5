#!/usr/bin/env bash
# Type-checks every workspace with a tsconfig, and infra/. tsc uses one core, so
# the projects are checked side by side, as many at a time as the machine has
# cores (about half the time of one after another on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/../.."
projects=$(node -e "
  const fs = require('node:fs');
  const dirs = [...require('./package.json').workspaces, 'infra'];
  console.log(dirs.filter((d) => fs.existsSync(d + '/tsconfig.json')).join('\n'));
")
# xargs stops at the first project that fails (exit 255) and tsc has said why.
echo "$projects" | xargs -P "$(nproc)" -I{} sh -c 'node_modules/.bin/tsc -p {} --noEmit || { echo "typecheck: {} failed" >&2; exit 255; }'
echo "typecheck: $(echo "$projects" | wc -l) projects clean"
