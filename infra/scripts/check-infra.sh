#!/usr/bin/env bash
# Checks that Postgres, Redis and NATS (JetStream) answer. With a Docker engine
# present, missing ones are started with docker compose; with --start (CI, a
# fresh machine of ours) they are started as local Debian services; otherwise
# the script names what is missing and how to start it.
set -uo pipefail

PG_HOST=${PG_HOST:-127.0.0.1}; PG_PORT=${PG_PORT:-5432}
REDIS_HOST=${REDIS_HOST:-127.0.0.1}; REDIS_PORT=${REDIS_PORT:-6379}
NATS_HOST=${NATS_HOST:-127.0.0.1}; NATS_PORT=${NATS_PORT:-4222}
START_LOCAL=false
[ "${1:-}" = "--start" ] && START_LOCAL=true

answers() { timeout 2 bash -c "</dev/tcp/$1/$2" 2>/dev/null; }

declare -A hint=(
  [postgres]="pg_ctlcluster --skip-systemctl-redirect \$(ls /etc/postgresql) main start"
  [redis]="redis-server --daemonize yes --bind 127.0.0.1 --port $REDIS_PORT --save '' --appendonly no"
  [nats]="nats-server -a 127.0.0.1 -p $NATS_PORT -js -sd /var/lib/nats-server &"
)

missing() {
  local out=()
  answers "$PG_HOST" "$PG_PORT" || out+=(postgres)
  answers "$REDIS_HOST" "$REDIS_PORT" || out+=(redis)
  answers "$NATS_HOST" "$NATS_PORT" || out+=(nats)
  echo "${out[@]:-}"
}

start_local() {
  case "$1" in
    postgres) pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start ;;
    redis) redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save "" --appendonly no ;;
    nats) mkdir -p /var/lib/nats-server
          start-stop-daemon --start --oknodo --background --exec "$(command -v nats-server)" -- \
            -a 127.0.0.1 -p "$NATS_PORT" -js -sd /var/lib/nats-server -l /var/log/nats-server.log ;;
  esac
}

gone=$(missing)
if [ -n "$gone" ]; then
  if docker info >/dev/null 2>&1; then
    echo "infra: starting $gone with docker compose"
    docker compose up -d $gone
  elif $START_LOCAL; then
    for name in $gone; do echo "infra: starting local $name"; start_local "$name"; done
  fi
  for _ in $(seq 1 30); do
    gone=$(missing); [ -z "$gone" ] && break; sleep 1
  done
fi

if [ -n "$gone" ]; then
  echo "infra: these do not answer: $gone" >&2
  for name in $gone; do echo "  - $name: start it with: ${hint[$name]}" >&2; done
  echo "  (or install Docker and run 'docker compose up -d postgres redis nats minio')" >&2
  exit 1
fi
echo "infra: postgres, redis and nats answer"
