# One image for every Node process of the monorepo (services, gateway); the
# compose file picks the entry point. The web app is built into it and served
# by the gateway, so a browser needs one origin.
FROM node:22-bookworm-slim
WORKDIR /app
RUN npm install -g npm@11 --no-audit --no-fund
COPY package.json package-lock.json ./
COPY proto/package.json proto/
COPY services/runtime/package.json services/runtime/
COPY services/auth/package.json services/auth/
COPY services/social-graph/package.json services/social-graph/
COPY services/media/package.json services/media/
COPY services/places/package.json services/places/
COPY services/sessions/package.json services/sessions/
COPY services/messaging/package.json services/messaging/
COPY gateway/package.json gateway/
COPY web/package.json web/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run generate && npm run build:web
ENV NODE_ENV=production
USER node
