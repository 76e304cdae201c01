# syntax=docker/dockerfile:1.7
# Images of the STRM Mining Platform, built from this repository (docker compose build, or docker build .).
#   api    (the default, last stage): the production API serving the built web app. Compiled JavaScript run by
#          plain node, the API's production dependencies only (no tsx, no embedded PostgreSQL, no local
#          chain, no Prisma CLI), as the unprivileged user `node`.
#   local  the development configuration: the API from its sources with the local chain (compiled here, Rust)
#          and its faucet; what `./run start` runs, against the compose file's PostgreSQL and Redis.
# apps/api/test/deploy.test.ts runs the same install and start commands without Docker.

ARG NODE_IMAGE=node:20.20-bookworm-slim
ARG RUST_IMAGE=rust:1.95-bookworm

FROM ${NODE_IMAGE} AS pnpm
RUN npm install --global pnpm@10.34.9 && npm cache clean --force
ENV CI=true

# The whole workspace. Dependencies come from the lockfile alone first, so editing sources keeps that layer.
FROM pnpm AS workspace
WORKDIR /repo
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
COPY patches ./patches
RUN pnpm fetch
COPY . .
RUN pnpm install --offline --frozen-lockfile

FROM workspace AS build
ARG PRODUCT_NAME=STRM
RUN pnpm --filter @strm/web build && pnpm --filter @strm/api build

# The API's production dependencies, and nothing else of the workspace.
FROM pnpm AS api-deps
WORKDIR /srv/strm
COPY pnpm-lock.yaml pnpm-workspace.yaml package.json ./
COPY patches ./patches
COPY apps/api/package.json ./apps/api/
RUN pnpm install --prod --frozen-lockfile --filter @strm/api

FROM ${RUST_IMAGE} AS local
COPY --from=pnpm /usr/local/bin/ /usr/local/bin/
COPY --from=pnpm /usr/local/lib/node_modules/ /usr/local/lib/node_modules/
RUN groupadd --gid 1000 node && useradd --uid 1000 --gid node --create-home node \
  && mkdir -p /var/lib/strm && chown node:node /var/lib/strm
COPY --from=build --chown=node:node /repo /repo
USER node
WORKDIR /repo
ENV CARGO_HOME=/home/node/.cargo CARGO_TARGET_DIR=/repo/target
RUN node scripts/cargo.mjs build -q -p strm-local-chain
WORKDIR /repo/apps/api
ENV NODE_ENV=development HOST=0.0.0.0 LOCAL_CHAIN_HOST=0.0.0.0 LOCAL_CHAIN_BUILD=off DATA_DIR=/var/lib/strm
EXPOSE 3000 8899 8900
CMD ["node", "--import", "tsx", "src/main.ts"]

FROM ${NODE_IMAGE} AS api
WORKDIR /srv/strm
COPY --from=api-deps /srv/strm/node_modules ./node_modules
COPY --from=api-deps /srv/strm/apps/api/node_modules ./apps/api/node_modules
COPY --from=api-deps /srv/strm/apps/api/package.json ./apps/api/package.json
COPY --from=build /repo/apps/api/dist ./apps/api/dist
COPY --from=build /repo/apps/api/prisma ./apps/api/prisma
COPY --from=build /repo/apps/web/dist ./web
RUN mkdir -p /var/lib/strm && chown node:node /var/lib/strm
USER node
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 WEB_DIST=/srv/strm/web DATA_DIR=/var/lib/strm
EXPOSE 3000
STOPSIGNAL SIGTERM
CMD ["node", "apps/api/dist/main.js"]
