#!/usr/bin/env bash
# The suite as a person runs it: `make test` on a busy machine, timed, with its
# result appended to a log. docs/testing.md records what it printed.
#
#   infra/scripts/busy-test.sh dev   `make dev` running beside it (its stack, Vite, the demo data)
#   infra/scripts/busy-test.sh hog   stress-ng keeping both cores busy for the whole run (bounded in time)
#   infra/scripts/busy-test.sh both  the two at once
#
# Writes the full output to .tmp/busy-<mode>-<time>.log (make dev's to .tmp/dev-<time>.log) and one line per run to .tmp/busy-runs.txt.
set -uo pipefail
cd "$(dirname "$0")/../.."
mode=${1:?usage: busy-test.sh dev|hog|both}
mkdir -p .tmp
stamp=$(date -u +%Y%m%dT%H%M%SZ)
log=.tmp/busy-$mode-$stamp.log
pids=()
cleanup() {
  for pid in "${pids[@]:-}"; do [ -n "$pid" ] && kill -TERM -- "-$pid" 2>/dev/null; done
  wait 2>/dev/null
}
trap cleanup EXIT

if [ "$mode" = dev ] || [ "$mode" = both ]; then
  # Its own process group, so the cleanup stops the whole stack.
  setsid make dev > ".tmp/dev-$stamp.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 1 600); do
    curl -fsS "http://127.0.0.1:${GATEWAY_PORT:-8080}/readyz" >/dev/null 2>&1 && grep -q 'Hoptrack is running' ".tmp/dev-$stamp.log" && break
    sleep 1
  done
  grep -q 'Hoptrack is running' ".tmp/dev-$stamp.log" || { echo "make dev did not come up; see .tmp/dev-$stamp.log" >&2; exit 1; }
fi
if [ "$mode" = hog ] || [ "$mode" = both ]; then
  bash infra/scripts/ensure-tools.sh stress-ng
  # Bounded: it stops by itself after an hour even if this script is killed.
  setsid stress-ng --cpu "$(nproc)" --timeout 3600s --quiet &
  pids+=($!)
fi

start=$(date +%s)
make test > "$log" 2>&1
code=$?
seconds=$(( $(date +%s) - start ))
summary=$(sed 's/\x1b\[[0-9;]*m//g' "$log" | grep -E '^ +(Test Files|Tests) ' | tr -s ' ' | paste -sd';' -)
line="$stamp mode=$mode exit=$code minutes=$(awk "BEGIN{printf \"%.1f\", $seconds/60}") load1=$(cut -d' ' -f1 /proc/loadavg) $summary"
echo "$line" | tee -a .tmp/busy-runs.txt
exit $code
