# One image for every Node process of the monorepo (services, workers, the
# gateway, the queue board); the compose file picks the entry point. The web
# app is built into it and served by the gateway, so a browser needs one origin.

# ---- build: every dependency, the Prisma clients, the web bundle ----
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
COPY services/queue-board/package.json services/queue-board/
COPY gateway/package.json gateway/
COPY web/package.json web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run generate && npm run build:web \
  # The browser tests, the web sources and the npm cache are not needed to run.
  && rm -rf web/src web/e2e web/node_modules/.vite /root/.npm

# ---- runtime: the built tree, owned by and run as the unprivileged `node` user ----
FROM node:22-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build --chown=node:node /app /app
USER node
# Processes run TypeScript through tsx's loader in the same node process, so
# SIGTERM from `docker stop` reaches the service and it drains (no npx wrapper).
CMD ["node", "--import", "tsx", "gateway/src/server.ts"]
