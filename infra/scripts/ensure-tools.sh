#!/usr/bin/env bash
# Installs the machine tools the tests need from Debian's packages, or stops at
# once with the one command that installs them. `make test` (and the tiers it
# runs) call it first, so a newcomer types two commands, not three, and no test
# tier is skipped because a tool is missing.
#
#   chromium                 the browser tests and the bench's first-card figure (playwright-core drives it)
#   fonts-noto-color-emoji   reactions render as emoji in the browser tests and screenshots, not boxes
#   prometheus (+ promtool)  the operations test scrapes the whole stack with it and checks the alert rules
#   docker-compose           the compose test resolves docker-compose.yml with it (no engine needed)
#   haproxy                  the compose test checks the edge's configuration with it
#   (kubectl 1.27+ with kustomize v5 renders deploy/k8s in its test: this kind of machine has it in
#    /usr/bin; Debian's kubernetes-client is 1.20, too old, so it is not installed from here)
#   stress-ng                only on request: the CPU hog of infra/scripts/busy-test.sh
set -euo pipefail

declare -A package_of=(
  [chromium]=chromium
  [emoji-font]=fonts-noto-color-emoji
  [prometheus]=prometheus
  [promtool]=prometheus
  [stress-ng]=stress-ng
  [docker-compose]=docker-compose
  [haproxy]=haproxy
)
present() {
  case "$1" in
    emoji-font) [ -e /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf ] ;;
    chromium) [ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] ;;
    # haproxy lives in /usr/sbin, outside a non-root PATH.
    haproxy) command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] ;;
    # Compose v2 (the docker plugin) serves as well as Debian's docker-compose.
    docker-compose) command -v docker-compose >/dev/null 2>&1 || docker compose version >/dev/null 2>&1 ;;
    *) command -v "$1" >/dev/null 2>&1 ;;
  esac
}

wanted=("$@")
[ ${#wanted[@]} -eq 0 ] && wanted=(chromium emoji-font prometheus promtool docker-compose haproxy)

packages=()
for tool in "${wanted[@]}"; do
  package=${package_of[$tool]:?unknown tool $tool}
  present "$tool" || [[ " ${packages[*]:-} " == *" $package "* ]] || packages+=("$package")
done
[ ${#packages[@]} -eq 0 ] && exit 0

# --no-install-recommends: prometheus would otherwise bring a node exporter and more we do not run.
command_line="apt-get update && apt-get install -y --no-install-recommends ${packages[*]}"
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "tools: installing ${packages[*]} from Debian's packages"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${packages[@]}" >/dev/null
  for tool in "${wanted[@]}"; do
    present "$tool" || { echo "tools: $tool is still missing after installing ${package_of[$tool]}" >&2; exit 1; }
  done
else
  echo "tools: the tests need ${packages[*]}, which this machine lacks. Install them with:" >&2
  echo "  sudo sh -c '$command_line'" >&2
  exit 1
fi
