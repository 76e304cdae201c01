#!/usr/bin/env bash
# `pnpm test:compose`: docker-compose.yml and the Dockerfile on a real Docker engine, through the published
# ports, as an operator runs them:
#   1. the images build (docker compose build: the production API and the local-chain image)
#   2. `docker compose up --build` of the production stack, every health check passing; then readiness, a
#      wallet's sign-in, the web app's first page and /metrics with its token
#   3. `docker compose down` then `up`: the data (named volumes) is still there
#   4. `--profile observability`: Prometheus scrapes the API with the rules loaded; the treasury owner's SOL
#      drained on the chain the stack runs on, StrmTreasurySolLow is read firing from Prometheus's API
#   5. `--scale api=2` behind the load balancer of docker-compose.scale.yml: a signed-in client's sockets and
#      calls survive a restart of one instance
#   6. `docker compose -f docker-compose.local-chain.yml up`: a streamer mines on the demo platform end to end
# It prints each step's time and the images' sizes, and leaves nothing running (containers, networks and
# volumes of its compose project are removed; a dockerd it started is stopped). The images stay, as a cache.
#
# Where no image registry is reached (this project's machines), the images compose names are built here from
# Debian's packages, once, and kept in the engine's image store: a Debian trixie base (debootstrap, docker
# import) and on it stand-ins for node:20 (Debian's Node.js 20), postgres (PostgreSQL 17), redis (Redis 8)
# haproxy and prometheus, given to compose through BASE_IMAGE, POSTGRES_IMAGE, REDIS_IMAGE, HAPROXY_IMAGE and
# PROMETHEUS_IMAGE. The local
# chain's executable is this clone's own build (node scripts/cargo.mjs build -p strm-local-chain, seconds
# with a warm target dir), given to the local-chain image as LOCAL_CHAIN_IMAGE; the image's own Rust build
# (the default, LOCAL_CHAIN_IMAGE=chain) needs the rust image, which no registry serves here.
# STRM_COMPOSE_OFFICIAL_IMAGES=1 uses the official images instead, and lets the local-chain image compile
# the chain itself (a machine that reaches Docker Hub: the operator's own path).
#
# Installs what is missing (root, Debian): docker.io (dockerd), Docker Compose v2 (Debian trixie's
# docker-compose package, unpacked into the cache when the docker CLI has no compose plugin), debootstrap.
# Traffic stays on this machine: every port is published on 127.0.0.1, and the containers talk over the
# networks compose creates for the project.
set -euo pipefail
cd "$(dirname "$0")/../.."
ROOT=$PWD
CACHE=${STRM_COMPOSE_CACHE:-$HOME/.cache/strm-compose}
PROJECT=strm-compose-test
WORK=$(mktemp -d /tmp/strm-compose.XXXXXX)
mkdir -p "$CACHE"

export COMPOSE_PROJECT_NAME=$PROJECT
# Ports on 127.0.0.1 that no developer's API (3000/3001) or local chain (8899/8900) uses.
export API_BIND=127.0.0.1
export API_PORT=${STRM_COMPOSE_API_PORT:-13000}
export LOCAL_API_PORT=${STRM_COMPOSE_LOCAL_API_PORT:-13001}
export LOCAL_CHAIN_RPC_PORT=${STRM_COMPOSE_CHAIN_PORT:-18899}
export LOCAL_CHAIN_WS_PORT=$((LOCAL_CHAIN_RPC_PORT + 1))
export PROMETHEUS_PORT=${STRM_COMPOSE_PROMETHEUS_PORT:-19090}
# The production stack's chain service, published for the observability step (scripts/compose/test.compose.yml).
export STRM_COMPOSE_PROD_CHAIN_PORT=${STRM_COMPOSE_PROD_CHAIN_PORT:-18897}
export POSTGRES_PASSWORD=compose-test-password
export REDIS_PASSWORD="compose-test-redis-$(od -An -tx1 -N8 /dev/urandom | tr -d ' \n')"
export STRM_TEST_JWT_SECRET="compose-test-jwt-secret-$(od -An -tx1 -N16 /dev/urandom | tr -d ' \n')"
export STRM_TEST_METRICS_TOKEN="compose-test-metrics-$(od -An -tx1 -N8 /dev/urandom | tr -d ' \n')"
# The observability profile's secret `metrics-token` reads METRICS_TOKEN, as from an operator's .env.
export METRICS_TOKEN=$STRM_TEST_METRICS_TOKEN
export TREASURY_KEYPAIR_FILE=$WORK/treasury-keypair.json
# No BuildKit progress animation in a log.
export BUILDKIT_PROGRESS=plain COMPOSE_PROGRESS=plain

BASE=(-f docker-compose.yml -f scripts/compose/test.compose.yml)
OBSERVED=("${BASE[@]}" --profile observability)
SCALE=("${BASE[@]}" -f docker-compose.scale.yml)
# The development configuration: a project of its own (COMPOSE_PROJECT_NAME would otherwise name both).
LOCAL=(-p "$PROJECT-local" -f docker-compose.local-chain.yml)

# --- timing -------------------------------------------------------------------------------------------------
STEPS=()
step_started=0
step_name=
step() {
  step_end
  step_name=$1
  step_started=$SECONDS
  echo
  echo "=== $step_name"
}
step_end() {
  if [ -n "$step_name" ]; then
    local took=$((SECONDS - step_started))
    echo "--- $step_name: ${took} s"
    STEPS+=("$(printf '%5d s  %s' "$took" "$step_name")")
    step_name=
  fi
}

# --- cleanup: nothing of the test left running --------------------------------------------------------------
DOCKERD_PID=
cleanup() {
  local status=$?
  set +e
  if [ "$status" != 0 ] && [ -n "$step_name" ]; then
    echo "FAILED in: $step_name" >&2
    if docker info >/dev/null 2>&1; then
      docker compose "${SCALE[@]}" --profile observability ps -a 2>/dev/null
      docker compose "${SCALE[@]}" --profile observability logs --no-color --tail 40 2>/dev/null | tail -160
      docker compose "${LOCAL[@]}" ps -a 2>/dev/null
      docker compose "${LOCAL[@]}" logs --no-color --tail 40 2>/dev/null | tail -80
    fi
  fi
  if docker info >/dev/null 2>&1; then
    docker compose "${SCALE[@]}" --profile observability down -v --remove-orphans -t 10 >/dev/null 2>&1
    docker compose "${OBSERVED[@]}" down -v --remove-orphans -t 10 >/dev/null 2>&1
    docker compose "${LOCAL[@]}" down -v --remove-orphans -t 10 >/dev/null 2>&1
  fi
  if [ -n "$DOCKERD_PID" ]; then
    kill "$DOCKERD_PID" 2>/dev/null
    for _ in $(seq 60); do kill -0 "$DOCKERD_PID" 2>/dev/null || break; sleep 0.5; done
    echo "stopped the dockerd this test started (pid $DOCKERD_PID)"
  fi
  rm -rf "$WORK"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A command's output only when it fails.
quiet() {
  local out
  if ! out=$("$@" 2>&1); then
    printf '%s\n' "$out" >&2
    return 1
  fi
}

# BuildKit's plain progress, cut to the steps that ran (not the cached ones) and their time.
build_log() { grep -E '^#[0-9]+ (\[|DONE [0-9.]+s|ERROR)|ERROR|error:' | grep -v -E 'DONE 0\.[0-9]s' || true; }

# --- the engine ---------------------------------------------------------------------------------------------
apt_updated=
apt_install() {
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "needs $* (Debian: apt-get install $*), and installing it needs root on Debian" >&2
    exit 1
  fi
  [ -n "$apt_updated" ] || { apt-get update -qq; apt_updated=1; }
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# Docker Compose v2.24 or later (docker-compose.scale.yml's !reset). Debian bookworm's own docker-compose is
# v1; trixie's package is v2 (one static binary, depending on libc only): it is unpacked into the cache and
# found through DOCKER_CONFIG's cli-plugins, without adding trixie to the system's apt sources.
compose_ok() {
  local v
  v=$(docker compose version --short 2>/dev/null) || return 1
  v=${v#v}
  [ "$(printf '%s\n' 2.24.0 "${v%%-*}" | sort -V | head -1)" = 2.24.0 ]
}
ensure_compose() {
  compose_ok && return
  local plugins=$CACHE/docker-config/cli-plugins
  if [ ! -x "$plugins/docker-compose" ]; then
    echo "Docker Compose v2: Debian trixie's docker-compose package, into $plugins"
    local apt=$WORK/apt
    mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$plugins"
    echo "deb http://deb.debian.org/debian trixie main" >"$apt/sources.list"
    local opts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o Dir::Etc::SourceParts=/dev/null
      -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" -o Dir::State::status=/dev/null
      -o APT::Sandbox::User=root)
    apt-get "${opts[@]}" update -qq
    (cd "$apt" && apt-get "${opts[@]}" download docker-compose >/dev/null)
    dpkg-deb -x "$apt"/docker-compose_*.deb "$apt/root"
    install -m 755 "$apt/root/usr/libexec/docker/cli-plugins/docker-compose" "$plugins/docker-compose"
  fi
  # The user's docker config (registry logins) is not needed: nothing is pulled.
  export DOCKER_CONFIG=$CACHE/docker-config
  compose_ok || { echo "docker compose v2.24+ is not available" >&2; exit 1; }
}

step "engine: docker.io, Docker Compose v2, dockerd"
command -v dockerd >/dev/null 2>&1 || { echo "installing Debian's docker.io"; apt_install docker.io; }
ensure_compose
if ! docker info >/dev/null 2>&1; then
  echo "starting dockerd (nice 10; log: $CACHE/dockerd.log)"
  # Its own process group, so the terminal's Ctrl-C reaches the test, whose cleanup stops it.
  nice -n 10 setsid dockerd >"$CACHE/dockerd.log" 2>&1 &
  DOCKERD_PID=$!
  for _ in $(seq 60); do docker info >/dev/null 2>&1 && break; sleep 1; done
  docker info >/dev/null 2>&1 || { tail -20 "$CACHE/dockerd.log" >&2; exit 1; }
fi
echo "$(docker --version); engine $(docker version --format '{{.Server.Version}}'); $(docker compose version)"

# --- the images compose runs on -----------------------------------------------------------------------------
# A stand-in is rebuilt when its Dockerfile or files change (their hash is the image's label).
build_stand_in() {
  local name=$1 ctx=$WORK/ctx-$1
  mkdir -p "$ctx"
  cp "scripts/compose/images/$name.Dockerfile" "$ctx/Dockerfile"
  cp scripts/compose/images/*.sh "$ctx/"
  # This machine's CA bundle: HTTPS to the package registries may pass an inspecting proxy.
  cp /etc/ssl/certs/ca-certificates.crt "$ctx/host-ca-certificates.crt"
  local hash
  hash=$(cat "$ctx"/* | sha256sum | cut -c1-16)
  if [ "$(docker image inspect -f '{{index .Config.Labels "strm.source"}}' "strm-local/$name:latest" 2>/dev/null)" = "$hash" ]; then
    echo "strm-local/$name: cached"
    return
  fi
  local started=$SECONDS
  quiet env DOCKER_BUILDKIT=0 docker build -q --label "strm.source=$hash" -t "strm-local/$name:latest" "$ctx"
  echo "strm-local/$name: built in $((SECONDS - started)) s"
}

if [ "${STRM_COMPOSE_OFFICIAL_IMAGES:-}" = 1 ]; then
  step "images: the official ones (STRM_COMPOSE_OFFICIAL_IMAGES=1)"
  unset BASE_IMAGE POSTGRES_IMAGE REDIS_IMAGE HAPROXY_IMAGE PROMETHEUS_IMAGE
else
  step "images: local stand-ins from Debian's packages (cached after the first run)"
  if ! docker image inspect strm-local/debian:trixie >/dev/null 2>&1; then
    command -v debootstrap >/dev/null 2>&1 || apt_install debootstrap
    rootfs=$WORK/rootfs
    echo "debootstrap --variant=minbase trixie (a minute or two)"
    nice -n 10 debootstrap --variant=minbase --include=ca-certificates trixie "$rootfs" \
      http://deb.debian.org/debian >"$WORK/debootstrap.log" 2>&1 || { tail -20 "$WORK/debootstrap.log" >&2; exit 1; }
    rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*
    tar -C "$rootfs" -c . | docker import --change 'CMD ["bash"]' - strm-local/debian:trixie >/dev/null
    rm -rf "$rootfs"
    echo "strm-local/debian:trixie: imported"
  else
    echo "strm-local/debian:trixie: cached"
  fi
  for name in node postgres redis haproxy prometheus; do build_stand_in "$name"; done
  export BASE_IMAGE=strm-local/node:latest POSTGRES_IMAGE=strm-local/postgres:latest
  export REDIS_IMAGE=strm-local/redis:latest HAPROXY_IMAGE=strm-local/haproxy:latest
  export PROMETHEUS_IMAGE=strm-local/prometheus:latest
fi

if [ "${STRM_COMPOSE_OFFICIAL_IMAGES:-}" = 1 ]; then
  # The operator's path: the image compiles the chain on the rust image (its `chain` stage).
  unset LOCAL_CHAIN_IMAGE
else
  # This clone's build (OpenSSL linked from the system, which the Debian stand-in base has), instead of
  # compiling agave again in a container, minutes on 2 cores, on a rust image no registry serves here.
  # A STRM_LOCAL_CHAIN_BINARY already set (a prebuilt chain, as scripts/with-local-chain.mjs takes it) is
  # used as it is, and nothing is built (the shared target dir's lock can be held by other clones' builds).
  step "local chain: this clone's build, as the image LOCAL_CHAIN_IMAGE"
  chain_binary=${STRM_LOCAL_CHAIN_BINARY:-}
  if [ -z "$chain_binary" ]; then
    nice -n 10 node scripts/cargo.mjs build -q -p strm-local-chain
    chain_binary=target/local-chain/strm-local-chain
  fi
  echo "  $chain_binary"
  mkdir -p "$WORK/chain"
  cp "$chain_binary" "$WORK/chain/strm-local-chain"
  printf 'FROM scratch\nCOPY strm-local-chain /usr/local/bin/strm-local-chain\n' >"$WORK/chain/Dockerfile"
  quiet env DOCKER_BUILDKIT=0 docker build -q -t strm-local/chain:latest "$WORK/chain"
  export LOCAL_CHAIN_IMAGE=strm-local/chain:latest
fi

# The client side (apps/api/test/compose/client.ts) runs on the workspace's dependencies.
[ -d apps/api/node_modules ] || pnpm install --frozen-lockfile
client() { (cd apps/api && node --import tsx test/compose/client.ts "$@"); }
# The admin (ADMIN_WALLETS) who grants the test's wallets beta access, as an operator's admin does.
export STRM_TEST_ADMIN_KEYPAIR=$WORK/admin-keypair.json
STRM_TEST_ADMIN_WALLET=$(client keygen "$STRM_TEST_ADMIN_KEYPAIR")
export STRM_TEST_ADMIN_WALLET

# --- 1. build ------------------------------------------------------------------------------------------------
step "1. docker compose build (api-local, then api)"
{ nice -n 10 docker compose "${LOCAL[@]}" build api-local && nice -n 10 docker compose "${BASE[@]}" build api; } \
  >"$WORK/build.log" 2>&1 || { tail -60 "$WORK/build.log" >&2; exit 1; }
build_log <"$WORK/build.log" | tail -40

# --- 2. the production stack ---------------------------------------------------------------------------------
step "2. docker compose up --build: the production stack, every health check"
# The production API needs a Solana cluster and its treasury keypair: the test's own `chain` service (the
# local chain, from the local-chain image) stands for the cluster, and its treasury owner is the secret.
quiet docker compose "${BASE[@]}" up -d --wait --wait-timeout 300 chain
for _ in $(seq 120); do
  docker compose "${BASE[@]}" exec -T chain test -s /var/lib/strm/chain/chain.json && break
  sleep 1
done
treasury=$(docker compose "${BASE[@]}" exec -T chain node -p \
  "require('/var/lib/strm/chain/chain.json').keypairs.treasuryOwner")
docker compose "${BASE[@]}" exec -T chain cat "$treasury" >"$TREASURY_KEYPAIR_FILE"
chmod 644 "$TREASURY_KEYPAIR_FILE"
docker compose "${BASE[@]}" up -d --build --wait --wait-timeout 300 >"$WORK/up.log" 2>&1 ||
  { tail -60 "$WORK/up.log" >&2; exit 1; }
build_log <"$WORK/up.log" | tail -10
docker compose "${BASE[@]}" ps --format 'table {{.Service}}\t{{.Status}}\t{{.Ports}}'

step "2. checks through 127.0.0.1:$API_PORT: readiness, sign-in, the web app, /metrics"
client production "http://127.0.0.1:$API_PORT" "$STRM_TEST_METRICS_TOKEN"

# --- 3. volumes ----------------------------------------------------------------------------------------------
step "3. docker compose down, then up: the data is kept"
client remember "http://127.0.0.1:$API_PORT" "$WORK/remembered.json"
docker compose "${BASE[@]}" exec -T redis redis-cli set strm-compose-test marker >/dev/null
quiet docker compose "${BASE[@]}" down -t 30
quiet docker compose "${BASE[@]}" up -d --wait --wait-timeout 300
client persisted "http://127.0.0.1:$API_PORT" "$WORK/remembered.json"
[ "$(docker compose "${BASE[@]}" exec -T redis redis-cli get strm-compose-test)" = marker ] ||
  { echo "FAIL: Redis lost its data over down/up" >&2; exit 1; }
echo "  Redis kept its data (appendonly file in the redis-data volume)"

# --- 4. Prometheus and an alert --------------------------------------------------------------------------------
step "4. --profile observability: Prometheus with the rules; the treasury's SOL drained, an alert firing"
# The shipped rules, each `for:` cut to 10 s so that the alert fires within the test (test.compose.yml mounts
# this copy over deploy/prometheus/strm.rules.yml); expressions and figures unchanged.
export STRM_TEST_RULES_FILE=$WORK/strm.rules.yml
sed -E 's/^( *)for: .*/\1for: 10s/' deploy/prometheus/strm.rules.yml >"$STRM_TEST_RULES_FILE"
chmod 644 "$STRM_TEST_RULES_FILE"
quiet docker compose "${OBSERVED[@]}" up -d --wait --wait-timeout 300 prometheus
docker compose "${OBSERVED[@]}" ps --format 'table {{.Service}}\t{{.Status}}\t{{.Ports}}' prometheus
observe() { (cd apps/api && node --import tsx test/compose/observability.ts "$@"); }
observe drain-sol "http://127.0.0.1:$STRM_COMPOSE_PROD_CHAIN_PORT" "$TREASURY_KEYPAIR_FILE"
observe firing "http://127.0.0.1:$PROMETHEUS_PORT" StrmTreasurySolLow 240
quiet docker compose "${OBSERVED[@]}" rm -s -f -v prometheus

# --- 5. several instances -------------------------------------------------------------------------------------
step "5. --scale api=2 behind the load balancer; one instance restarted under a live session"
quiet docker compose "${SCALE[@]}" up -d --wait --wait-timeout 300 --scale api=2
docker compose "${SCALE[@]}" ps --format 'table {{.Name}}\t{{.Status}}\t{{.Ports}}'
mapfile -t apis < <(docker compose "${SCALE[@]}" ps -q api)
[ "${#apis[@]}" = 2 ] || { echo "FAIL: ${#apis[@]} api instances" >&2; exit 1; }
client ready "http://127.0.0.1:$API_PORT"
client scale "http://127.0.0.1:$API_PORT" "${apis[0]}" 2
echo "  the restarted instance's shutdown, from its log:"
docker logs "${apis[0]}" 2>&1 | grep -E '"msg":"(shutting down|shutdown took too long; exiting|shutdown failed|shutdown step failed|shutdown step slow)"' |
  sed -E 's/^/    /' | cut -c1-300 || true
docker compose "${SCALE[@]}" down -v -t 30

# --- 6. the development project --------------------------------------------------------------------------------
step "6. docker compose -f docker-compose.local-chain.yml up: mining on the demo platform, on its own database"
export LOCAL_ADMIN_WALLETS=$STRM_TEST_ADMIN_WALLET
quiet docker compose "${LOCAL[@]}" up -d --wait --wait-timeout 600
docker compose "${LOCAL[@]}" ps --format 'table {{.Service}}\t{{.Status}}\t{{.Ports}}'
client mine "http://127.0.0.1:$LOCAL_API_PORT" "http://127.0.0.1:$LOCAL_CHAIN_RPC_PORT"

step "clean up"
docker compose "${LOCAL[@]}" down -v --remove-orphans -t 30
step_end

echo
echo "=== images"
docker image ls --format '{{.Repository}}:{{.Tag}}\t{{.Size}}' |
  grep -E '^(strm-api|strm-api-local|strm-local/[a-z]+):' | sort | column -t
echo
echo "=== steps"
printf '%s\n' "${STEPS[@]}"
echo
echo "compose: 6 passed, 0 failed"
