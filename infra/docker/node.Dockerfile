# One image for every Node process of the monorepo (services, workers, the
# gateway, the queue board); the compose file and the Kubernetes manifests
# pick the entry point (`node <dir>/dist/<entry>.js`). The web app is built
# into it and served by the gateway, so a browser needs one origin.

# ---- build: every dependency, the Prisma clients, the web bundle, the compiled processes ----
FROM node:22-bookworm-slim AS build
WORKDIR /app
RUN npm install -g npm@11 --no-audit --no-fund
COPY package.json package-lock.json ./
COPY proto/package.json proto/
COPY services/runtime/package.json services/runtime/
COPY infra/testing/package.json infra/testing/
COPY services/auth/package.json services/auth/
COPY services/social-graph/package.json services/social-graph/
COPY services/media/package.json services/media/
COPY services/places/package.json services/places/
COPY services/sessions/package.json services/sessions/
COPY services/messaging/package.json services/messaging/
COPY services/notifications/package.json services/notifications/
COPY services/challenges/package.json services/challenges/
COPY services/queue-board/package.json services/queue-board/
COPY gateway/package.json gateway/
COPY web/package.json web/
RUN npm ci --no-audit --no-fund
COPY . .
# The tree production runs, staged in /out: bundles, migrations, data, config, web/dist.
RUN npm run generate && npm run build:web && npm run build && bash infra/build/stage.sh /out

# ---- production dependencies only: no TypeScript, tsx, Prisma CLI, Vite or test tools ----
FROM node:22-bookworm-slim AS deps
WORKDIR /app
RUN npm install -g npm@11 --no-audit --no-fund
COPY --from=build /out/ ./
COPY infra/build/production-deps.sh /tmp/
RUN bash /tmp/production-deps.sh

# ---- runtime: compiled JavaScript and its dependencies, run as the unprivileged `node` user ----
FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production
# Node's threads each get a glibc malloc arena otherwise; two keep an idle process
# about 10 MB smaller (docs/benchmarks.md, 'Process footprint').
ENV MALLOC_ARENA_MAX=2
# V8's young generation: at most 2 x 4 MiB instead of 2 x 16. V8 grows it to the
# maximum while a process starts and only shrinks it back after a full GC, which
# an idle process may never run: up to 24 MiB more per process, idle or busy. Costs
# about 3 % of a request's CPU in extra scavenges (docs/benchmarks.md, 'Process
# footprint'). Read at start-up only, hence an option here and not in tuneProcess.
ENV NODE_OPTIONS=--max-semi-space-size=4
WORKDIR /app
COPY --from=deps --chown=node:node /app /app
USER node
# `node` itself is PID 1's child of nothing else: SIGTERM from `docker stop` or
# Kubernetes reaches the process, which drains and exits.
CMD ["node", "gateway/dist/server.js"]
