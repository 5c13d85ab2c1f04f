# Locadora + Sino: built once, dev dependencies pruned, run by node alone as a non-root user
# (docs/operations/deploy.md). Linted in CI (`npm run lint:docker`); the same image runs every
# role: ROLE=api|ws|worker|all, PORT, and the settings of .env.example as environment variables.
#   docker build -t locadora .
#   docker run -p 3000:3000 -v locadora-data:/data locadora

ARG NODE_VERSION=20.20

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /app
# The manifests first: this layer (the install) is reused while only sources change. Every
# workspace's package.json is needed for `npm ci` (a test checks that each one is listed).
COPY package.json package-lock.json .npmrc ./
COPY apps/console/package.json apps/console/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/db/package.json packages/db/
COPY packages/locadora-api/package.json packages/locadora-api/
COPY packages/locadora-contract/package.json packages/locadora-contract/
COPY packages/login/package.json packages/login/
COPY packages/shared/package.json packages/shared/
COPY packages/sino-client/package.json packages/sino-client/
COPY packages/sino-core/package.json packages/sino-core/
COPY packages/sino-js/package.json packages/sino-js/
COPY packages/sino-providers/package.json packages/sino-providers/
COPY packages/sino-react/package.json packages/sino-react/
RUN npm ci --engine-strict --no-audit --no-fund
COPY . .
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM node:${NODE_VERSION}-bookworm-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
# Owned by root, read-only to the process; only the data folder is its own.
COPY --from=build /app /app
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
# Liveness: /health answers without asking the stores (readiness is /ready, for the proxy).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "apps/server/dist/main.js"]
