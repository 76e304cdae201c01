#!/usr/bin/env bash
# Builds the reference validator, strm-agave-validator (chain/agave: agave's solana-test-validator from
# crates.io), and the mining.so it loads at genesis (scripts/sbf/sbf.sh build).
#
#   scripts/agave/build.sh          build both (the validator's first build is ~21 min on 2 idle cores)
#   scripts/agave/build.sh path     print the validator binary's path
#   scripts/agave/build.sh status   exit 0 when the binary is there (prints nothing)
#
# Its target directory is outside the clone (~/.cache/strm-agave-target) so CI and later runs reuse it. The
# Debian packages its native crates build against are installed first when missing (as root with apt-get),
# or named in the error (docs/chain.md#the-reference-validator).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
TARGET_DIR=${STRM_AGAVE_TARGET_DIR:-$HOME/.cache/strm-agave-target}
BINARY=${STRM_AGAVE_VALIDATOR_BINARY:-$TARGET_DIR/release/strm-agave-validator}

# What the -sys crates build or link: bindgen's libclang, protobuf's protoc, cmake, libudev (hidapi),
# OpenSSL, and RocksDB (linked instead of its ~400 C++ files being compiled).
PACKAGES=(clang libclang-dev protobuf-compiler cmake pkg-config libudev-dev libssl-dev librocksdb-dev)

ensure_packages() {
  local missing=() package
  for package in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
  done
  [ ${#missing[@]} -eq 0 ] && return
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "agave: installing Debian's ${missing[*]} for the validator's build…"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${missing[@]}" >/dev/null
  else
    echo "agave: the validator's build needs Debian's ${missing[*]}: apt-get install ${missing[*]}" >&2
    exit 1
  fi
}

case "${1:-build}" in
  path) echo "$BINARY" ;;
  status) [ -x "$BINARY" ] ;;
  build)
    # A prebuilt validator needs none of them; elsewhere they are checked before the minutes of mining.so's.
    if [ -z "${STRM_AGAVE_VALIDATOR_BINARY:-}" ] && command -v dpkg-query >/dev/null 2>&1; then ensure_packages; fi
    bash "$ROOT/scripts/sbf/sbf.sh" build
    if [ -n "${STRM_AGAVE_VALIDATOR_BINARY:-}" ]; then exit 0; fi
    start=$SECONDS
    echo "agave: building strm-agave-validator (cold: ~21 min on 2 idle cores; log above on failure)…"
    # OpenSSL from Debian (libssl-dev) rather than compiled from source for secp256r1's `openssl-vendored`, as
    # the local chain does: the same OpenSSL 3 API, minutes less of a cold build.
    export OPENSSL_NO_VENDOR=1
    # RocksDB's ~400 C++ files are most of a cold build on 2 busy cores: with Debian's librocksdb-dev (7.8)
    # installed it is linked instead (every C function agave's ledger calls exists there; docs/chain.md#the-reference-validator).
    if [ -z "${ROCKSDB_LIB_DIR:-}" ] && [ -e /usr/lib/x86_64-linux-gnu/librocksdb.so ]; then
      export ROCKSDB_LIB_DIR=/usr/lib/x86_64-linux-gnu
    fi
    CARGO_TARGET_DIR=$TARGET_DIR nice -n 10 cargo build --release --locked -q \
      --manifest-path "$ROOT/chain/agave/Cargo.toml"
    echo "agave: strm-agave-validator built in $((SECONDS - start)) s: $BINARY"
    ;;
  *)
    echo "usage: scripts/agave/build.sh [build|path|status]" >&2
    exit 2
    ;;
esac
