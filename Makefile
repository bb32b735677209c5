# The verbs an operator or a newcomer types. `make dev` runs the product,
# `make test` proves it; both install what they need first.
SHELL := /bin/bash
.DEFAULT_GOAL := help
export PRISMA_HIDE_UPDATE_MESSAGE := 1

NODE_STAMP := node_modules/.install-stamp

.PHONY: help install generate build infra tools dev seed test typecheck test-integration e2e test-faults test-security soak build-web backup restore up down logs bench bench-smoke bench-load footprint clean

help:
	@echo "make dev    - install, migrate, seed demo data, start every service, the gateway and the web app (REPLICAS=2: two copies of each)"
	@echo "make test   - typecheck, integration tests (real Postgres, Redis, NATS) and browser tests"
	@echo "make e2e    - only the browser tests"
	@echo "make test-faults / test-security - the fault-injection / attack tests alone (figures: docs/reliability.md)"
	@echo "make soak   - 10 minutes of mixed traffic with faults (SOAK_SECONDS to change)"
	@echo "make up     - the whole stack in Docker, with Prometheus, Grafana and the queue board (writes .env on first use); make down stops it"
	@echo "make bench  - benchmarks against the local servers, with the machine they ran on (BENCH_SCALE=community: on 100,000 people)"
	@echo "make bench-load - load the 100,000-person community data set (hoptrack_*_community: about 30 min, 18 GB; BENCH_SCALE=community make bench copies it)"

$(NODE_STAMP): package-lock.json package.json */package.json services/*/package.json infra/testing/package.json
	npm ci --no-audit --no-fund
	@touch $@

install: $(NODE_STAMP) generate

# Each service's Prisma client, regenerated only when its schema (or the installed
# Prisma) changed: a stamp beside the client, so `make test` after `make dev` skips it.
PRISMA_SERVICES := $(patsubst services/%/prisma/schema.prisma,%,$(wildcard services/*/prisma/schema.prisma))
PRISMA_STAMPS := $(foreach s,$(PRISMA_SERVICES),services/$(s)/src/generated/.stamp)

generate: $(PRISMA_STAMPS)

# Every process compiled to JavaScript (infra/build/build.ts, about a second):
# production, compose, the benchmark and the tests run `node <dir>/dist/...`.
build: install
	npm run build --silent

# The tests and the benchmark start the compiled processes, as production does (infra/testing/processes.ts).
test-integration e2e test-faults soak test-security bench bench-smoke: export RUN_FROM := dist

services/%/src/generated/.stamp: services/%/prisma/schema.prisma $(NODE_STAMP)
	npm run generate --silent -w @hoptrack/$*
	@touch $@

infra:
	@bash infra/scripts/check-infra.sh $(if $(CI),--start,)

# Debian's chromium, the emoji font and prometheus: installed when missing (as root),
# else the one command that installs them, and a stop (infra/scripts/ensure-tools.sh).
tools:
	@bash infra/scripts/ensure-tools.sh

# NODE_ENV: unset means production (docs/configuration.md); the development stack and its seed opt in.
seed: install infra
	NODE_ENV=development npm run seed --silent

# REPLICAS=2 starts two copies of every service and worker behind the gateway.
dev: install infra seed
	NODE_ENV=development npm run dev --silent

typecheck: install
	npm run typecheck --silent

build-web: install
	npm run build:web --silent

test-integration: install build infra tools
	npx vitest run --project integration --project two-copy

e2e: install build infra build-web tools
	npx vitest run --project e2e

test: tools typecheck test-integration e2e bench-smoke

# The fault and attack tests: the slow tier (infra/faults, which make test leaves out to stay
# inside CI's 30 minutes), then the fault rows make test runs too; figures in docs/reliability.md.
test-faults: install build infra tools
	npx vitest run --project faults
	npx vitest run --project integration --project two-copy infra/reliability services/runtime/test/outbox-faults.test.ts services/auth/test/crash-loop.test.ts services/sessions/test/worker-crash.test.ts services/media/test/worker.test.ts

# Every service database, the object store and the streams into one folder, and back into an
# empty system, the erasure ledger re-applied (docs/operations.md, 'Back up and restore').
BACKUP_DIR ?= backups/$(shell date -u +%Y%m%dT%H%M%SZ)
backup: build
	node infra/ops/dist/backup.js backup $(BACKUP_DIR)

restore: build
	@test -n "$(BACKUP)" || { echo "make restore BACKUP=<folder made by make backup>"; exit 64; }
	node infra/ops/dist/backup.js restore $(BACKUP)

# The documented soak: 10 minutes of mixed traffic with faults (make test runs 45 s of it).
soak: install build infra tools
	SOAK_SECONDS=$${SOAK_SECONDS:-600} npx vitest run --project two-copy infra/reliability/soak.test.ts

test-security: install build infra build-web tools
	npx vitest run --project integration infra/security services/runtime/test/tokens.test.ts
	npx vitest run --project e2e web/e2e/injection.test.ts

.env: .env.example
	@bash infra/scripts/make-env.sh

up: .env
	docker compose up --build -d
	@echo "Hoptrack: http://localhost:$${GATEWAY_PORT:-8080}  Grafana: http://localhost:3000  Prometheus: http://localhost:9090  Queues: http://localhost:4020/queues"

down:
	docker compose down

logs:
	docker compose logs -f

# Every benchmark beside its reference (about 15 minutes); writes bench/results/<date>.json and the table in docs/benchmarks.md.
bench: install build infra build-web tools
	npx tsx infra/bench/run.ts

# The community data set (100,000 people, median 100 friends, a year of sessions) loaded into
# hoptrack_*_community and its counts checked: about 30 minutes and 18 GB (docs/benchmarks.md,
# 'A community-sized data set'). `make bench BENCH_SCALE=community` copies it for each run.
bench-load: install build infra
	npx tsx infra/bench/load.ts

# Idle memory and cold start of every process, compiled beside tsx (docs/benchmarks.md, 'Process footprint'); about 5 minutes.
footprint: install build infra
	npx tsx infra/bench/footprint.ts

# The same harness on a tiny data set with 1-second steps: checks it still works (no thresholds); make test runs it.
bench-smoke: install build infra build-web tools
	npx tsx infra/bench/run.ts --smoke

clean:
	rm -rf node_modules */node_modules services/*/node_modules web/dist services/*/src/generated services/*/dist gateway/dist infra/ops/dist
