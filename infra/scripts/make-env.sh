#!/usr/bin/env bash
# Writes .env for docker compose from .env.example on first use, with a random
# value for every secret left blank there. An existing .env is never touched.
set -euo pipefail
cd "$(dirname "$0")/../.."
if [[ -f .env ]]; then exit 0; fi
secret() { node -e "process.stdout.write(require('node:crypto').randomBytes(24).toString('hex'))"; }
# An Ed25519 signing key as a one-element JWK array, quoted for compose's .env.
signing_keys() {
  node -e "const c=require('node:crypto');const k=c.generateKeyPairSync('ed25519').privateKey.export({format:'jwk'});k.kid=new Date().toISOString().slice(0,10)+'-'+c.randomBytes(4).toString('hex');process.stdout.write(\"'\"+JSON.stringify([k])+\"'\")"
}
while IFS= read -r line; do
  case "$line" in
    JWT_SIGNING_KEYS=) echo "${line}$(signing_keys)" ;;
    FILE_URL_SECRET=|UNSUBSCRIBE_SECRET=|POSTGRES_PASSWORD=|MINIO_ROOT_PASSWORD=|GRAFANA_ADMIN_PASSWORD=|QUEUE_BOARD_PASSWORD=) echo "${line}$(secret)" ;;
    *) echo "$line" ;;
  esac
done < .env.example > .env
chmod 600 .env
echo "wrote .env with fresh secrets (Grafana: admin / see GRAFANA_ADMIN_PASSWORD; queue board: operator / see QUEUE_BOARD_PASSWORD)"
