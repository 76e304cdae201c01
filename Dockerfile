# Images of the STRM Mining Platform, built from this repository (docker compose build, or docker build .).
#   api    (the default, last stage): the production API serving the built web app. Compiled JavaScript run by
#          plain node, the API's production dependencies only (no tsx, no embedded PostgreSQL, no local
#          chain, no Prisma CLI), as the unprivileged user `node`.
#   local  the development configuration: the API from its sources with the local chain (compiled here, Rust)
#          and its faucet; what `./run start` runs, against the compose file's PostgreSQL and Redis.
# apps/api/test/deploy.test.ts runs the same install and start commands without Docker; scripts/compose/test.sh
# builds and runs the images on a Docker engine (`pnpm test:compose`).
# No `# syntax=` line: the Dockerfile frontend built into the engine's BuildKit (Docker 20.10 and later) reads
# this file, so a build pulls no frontend image.

# The Node.js base of every Node stage (Debian, with a user `node` of uid 1000 and npm). Another base with
# the same, e.g. a mirror's copy or scripts/compose/test.sh's Debian-built stand-in, via --build-arg.
ARG BASE_IMAGE=node:20.20-bookworm-slim
ARG RUST_IMAGE=rust:1.95-bookworm
# Where the `local` image takes the local chain's executable (/usr/local/bin/strm-local-chain) from: the
# `chain` stage below, which compiles it (minutes on 2 cores), or an image that holds one already built.
ARG LOCAL_CHAIN_IMAGE=chain

FROM ${BASE_IMAGE} AS pnpm
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

# The local chain (agave runtime with the mining program, Rust), as `node scripts/cargo.mjs build -p
# strm-local-chain` builds it; OpenSSL vendored (compiled in), so the executable needs no libssl at run time.
FROM ${RUST_IMAGE} AS chain
WORKDIR /src
COPY Cargo.toml Cargo.lock rustfmt.toml ./
COPY vendor ./vendor
COPY programs ./programs
COPY tools ./tools
COPY chain ./chain
RUN cargo build --locked -q -p strm-local-chain \
  && cp target/debug/strm-local-chain /usr/local/bin/strm-local-chain && rm -rf target

FROM ${LOCAL_CHAIN_IMAGE} AS local-chain

FROM pnpm AS local
RUN mkdir -p /var/lib/strm && chown node:node /var/lib/strm
COPY --from=build --chown=node:node /repo /repo
COPY --from=local-chain /usr/local/bin/strm-local-chain /usr/local/bin/strm-local-chain
USER node
WORKDIR /repo/apps/api
# The launcher runs the chain copied above and never builds one (STRM_LOCAL_CHAIN_BINARY).
ENV NODE_ENV=development HOST=0.0.0.0 LOCAL_CHAIN_HOST=0.0.0.0 LOCAL_CHAIN_BUILD=off DATA_DIR=/var/lib/strm STRM_LOCAL_CHAIN_BINARY=/usr/local/bin/strm-local-chain
EXPOSE 3000 8899 8900
CMD ["node", "--import", "tsx", "src/main.ts"]

FROM ${BASE_IMAGE} AS api
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
