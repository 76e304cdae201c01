#!/usr/bin/env bash
# Builds the mining program as an SBPF v3 `target/deploy/mining.so` from the package registries alone
# (Debian's archive and crates.io), for machines where Solana's platform-tools cannot be downloaded.
# The route and why each piece is pinned: scripts/sbf/README.md (summarised in docs/program.md#the-sbf-build).
#
#   scripts/sbf/sbf.sh setup    set up the toolchain (idempotent; cached in ~/.cache/strm-sbf)
#   scripts/sbf/sbf.sh build    set up if needed, then build target/deploy/mining.so (default)
#   scripts/sbf/sbf.sh status   exit 0 when the toolchain is set up, 1 otherwise (prints nothing)
#   scripts/sbf/sbf.sh rust     set up Debian's rustc and cargo 1.97.1 (for agave 4.x) in the same cache
#   scripts/sbf/sbf.sh rust-status   exit 0 when they are set up
#   scripts/sbf/sbf.sh engine   set them up if needed, then build the local chain's SBF engine (chain/svm)
#
# Nothing global changes: the apt configuration, the Debian root, the copy of the Rust sysroot and the
# linker all live under $STRM_SBF_CACHE. Needs root (debootstrap, chroot) on a Debian-like host with apt.
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CACHE=${STRM_SBF_CACHE:-$HOME/.cache/strm-sbf}
TARGET_DIR=${CARGO_TARGET_DIR:-$HOME/.cache/strm-target}

# Pinned versions: each must match the others (see README.md beside this script).
RUST_VERSION=1.95.0
RUST_SRC_DEB=rust-src
RUST_SRC_VERSION=1.95.0+dfsg1-2~bpo13+1
RUST_SRC_SUITE=trixie-backports
LLVM_DEB=llvm-23-dev
LLVM_VERSION=1:23.1.4-2
LLVM_SUITE=sid
DEBOOTSTRAP_VERSION=1.0.128+nmu2+deb12u2
DEBOOTSTRAP_SUITE=bookworm
# Debian's rustc and cargo for the local chain on agave 4.x (which needs rustc >= 1.97.1), in the sid root.
DEBIAN_RUST_VERSION=1.97.1+dfsg1-1
DEBIAN_RUST_SUITE=sid
SBPF_LINKER_VERSION=0.2.6
BPF_LINKER_VERSION=0.13.0
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

LOGS=$CACHE/logs
mkdir -p "$CACHE" "$LOGS"

die() {
  echo "sbf: $*" >&2
  exit 1
}

# Each step prints one line: what it does, how long it took (or that it was already done), and on failure
# the end of its log. A step is done when its stamp holds the same key (versions and patch contents).
step() {
  local name=$1 key=$2 expected=$3 fn=$4
  local stamp=$CACHE/stamps/$name
  mkdir -p "$CACHE/stamps"
  if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$key" ]; then
    printf 'sbf: %-48s already done\n' "$name"
    return
  fi
  printf 'sbf: %-48s (first run about %s) … ' "$name" "$expected"
  local start=$SECONDS log=$LOGS/$name.log
  if ( "$fn" ) >"$log" 2>&1; then
    echo "$key" >"$stamp"
    echo "done in $((SECONDS - start)) s"
  else
    echo "FAILED after $((SECONDS - start)) s"
    echo "---- last lines of $log ----" >&2
    tail -n 25 "$log" >&2
    # A step names the missing pinned package itself; repeat that line last so it is what one reads.
    grep -h '^sbf: ' "$log" >&2 || true
    exit 1
  fi
}

hash_of() { cat "$@" | sha256sum | cut -c1-16; }

# The Debian mirror the machine's own apt uses (overridable), so no host is written into this script.
debian_mirror() {
  if [ -n "${STRM_SBF_DEBIAN_MIRROR:-}" ]; then
    echo "$STRM_SBF_DEBIAN_MIRROR"
    return
  fi
  local uri
  uri=$(
    {
      grep -hs '^URIs:' /etc/apt/sources.list.d/*.sources | awk '{print $2}'
      grep -hs '^deb ' /etc/apt/sources.list /etc/apt/sources.list.d/*.list | sed -E 's/\[[^]]*\]//' | awk '{print $2}'
    } | grep -E '/debian/?$' | head -n1
  )
  [ -n "$uri" ] || die "no Debian mirror found in /etc/apt; set STRM_SBF_DEBIAN_MIRROR (e.g. the URI of a Debian archive)"
  echo "${uri%/}"
}

# ---- a private apt: its own sources, lists and cache; the machine's apt state is never touched ----
APT_DIR=$CACHE/apt
apt_private() { APT_CONFIG=$APT_DIR/apt.conf "$@"; }

setup_apt() {
  local mirror
  mirror=$(debian_mirror)
  rm -rf "$APT_DIR"
  mkdir -p "$APT_DIR"/{lists/partial,archives/partial,cache,etc/apt.conf.d,etc/preferences.d,etc/sources.list.d}
  : >"$APT_DIR/status"
  # sid's Release may be older than its Valid-Until on a mirror snapshot: the signature is still checked.
  cat >"$APT_DIR/etc/sources.list" <<EOF
deb [signed-by=$KEYRING check-valid-until=no] $mirror $RUST_SRC_SUITE main
deb [signed-by=$KEYRING check-valid-until=no] $mirror $LLVM_SUITE main
deb [signed-by=$KEYRING check-valid-until=no] $mirror $DEBOOTSTRAP_SUITE main
EOF
  cat >"$APT_DIR/apt.conf" <<EOF
Dir::Etc "$APT_DIR/etc";
Dir::Etc::SourceList "$APT_DIR/etc/sources.list";
Dir::Etc::SourceParts "$APT_DIR/etc/sources.list.d";
Dir::Etc::Parts "$APT_DIR/etc/apt.conf.d";
Dir::Etc::PreferencesParts "$APT_DIR/etc/preferences.d";
Dir::State "$APT_DIR";
Dir::State::Lists "$APT_DIR/lists";
Dir::State::status "$APT_DIR/status";
Dir::Cache "$APT_DIR/cache";
Dir::Cache::Archives "$APT_DIR/archives";
APT::Architecture "amd64";
EOF
  echo "mirror: $mirror"
  apt_private apt-get update
  # Every pinned Debian package must still be in its suite; say which one is not.
  local pin
  for pin in "$RUST_SRC_DEB=$RUST_SRC_VERSION" "$LLVM_DEB=$LLVM_VERSION" "debootstrap=$DEBOOTSTRAP_VERSION" \
    "rustc=$DEBIAN_RUST_VERSION" "cargo=$DEBIAN_RUST_VERSION"; do
    # (apt-cache show exits 0 for a version it does not have; madison lists the versions there are.)
    local available
    available=$(apt_private apt-cache madison "${pin%%=*}" | awk '{print $3}')
    if ! grep -qxF "${pin#*=}" <<<"$available"; then
      echo "sbf: the Debian archive no longer has ${pin%%=*} ${pin#*=}, to which this toolchain is pinned (available: $(paste -sd' ' <<<"$available"))"
      exit 1
    fi
  done
}

# ---- the Rust standard library source, from Debian's rust-src, in a copy of the toolchain's sysroot ----
SYSROOT=$CACHE/rust-$RUST_VERSION
HOST_SYSROOT=

check_rustc() {
  local version
  version=$(rustc --version | awk '{print $2}')
  [ "$version" = "$RUST_VERSION" ] ||
    die "the standard library source is pinned to rustc $RUST_VERSION (Debian's $RUST_SRC_DEB $RUST_SRC_VERSION), but rustc is $version"
  HOST_SYSROOT=$(rustc --print sysroot)
}

setup_sysroot() {
  local work=$CACHE/tmp/rust-src
  rm -rf "$work" "$SYSROOT"
  mkdir -p "$work"
  (cd "$work" && apt_private apt-get download "$RUST_SRC_DEB=$RUST_SRC_VERSION") || {
    echo "sbf: could not download $RUST_SRC_DEB $RUST_SRC_VERSION from $RUST_SRC_SUITE"
    exit 1
  }
  dpkg-deb -x "$work"/"$RUST_SRC_DEB"_*.deb "$work/root"
  local library=$work/root/usr/src/rustc-$RUST_VERSION/library
  [ -f "$library/Cargo.lock" ] || die "$RUST_SRC_DEB $RUST_SRC_VERSION has no usr/src/rustc-$RUST_VERSION/library"
  # The toolchain's bin/ and lib/ (hard links when on the same filesystem): rustc finds its sysroot from
  # its own path, so this rustc sees the library below and the machine's toolchain stays as it was.
  mkdir -p "$SYSROOT"
  cp -al "$HOST_SYSROOT/bin" "$HOST_SYSROOT/lib" "$SYSROOT/" 2>/dev/null ||
    cp -a "$HOST_SYSROOT/bin" "$HOST_SYSROOT/lib" "$SYSROOT/"
  rm -rf "$SYSROOT/lib/rustlib/src"
  mkdir -p "$SYSROOT/lib/rustlib/src/rust"
  cp -a "$library" "$SYSROOT/lib/rustlib/src/rust/library"
  (cd "$SYSROOT/lib/rustlib/src/rust" && patch -p1 --no-backup-if-mismatch <"$HERE/std-$RUST_VERSION-solana.patch")
  # Cargo does not track the standard library's source for -Zbuild-std: a new one means a clean build.
  rm -rf "$TARGET_DIR/sbf"
  rm -rf "$work"
}

# ---- a minimal Debian sid root with LLVM 23, in which the linker is built and from which it runs ----
SID=$CACHE/sid

setup_sid() {
  local work=$CACHE/tmp/debootstrap
  rm -rf "$work" "$SID"
  mkdir -p "$work"
  (cd "$work" && apt_private apt-get download "debootstrap=$DEBOOTSTRAP_VERSION")
  dpkg-deb -x "$work"/debootstrap_*.deb "$work/root"
  DEBOOTSTRAP_DIR=$work/root/usr/share/debootstrap "$work/root/usr/sbin/debootstrap" \
    --variant=minbase --keyring="$KEYRING" --include="$LLVM_DEB,gcc,libc6-dev" \
    "$LLVM_SUITE" "$SID" "$(debian_mirror)"
  local got
  got=$(chroot "$SID" dpkg-query -W -f '${Version}' "$LLVM_DEB")
  [ "$got" = "$LLVM_VERSION" ] || {
    echo "sbf: $LLVM_SUITE installed $LLVM_DEB $got, but this toolchain is pinned to $LLVM_VERSION"
    exit 1
  }
  # The root is only a library and compiler store: drop apt's downloaded packages.
  rm -rf "$SID"/var/cache/apt/archives/*.deb "$work"
}

# ---- sbpf-linker over a patched bpf-linker, built with the host's cargo inside the sid root ----
LINKER_SRC=$CACHE/linker-src
LINKER_BIN=$CACHE/bin/sbpf-linker

# Mounts into the sid root, undone in reverse order whatever happens to the build.
SID_MOUNTS=""
sid_bind() {
  mkdir -p "$2"
  mount --bind "$1" "$2"
  SID_MOUNTS="$2 $SID_MOUNTS"
}
sid_unmount() {
  local m
  for m in $SID_MOUNTS; do umount "$m" || umount -l "$m"; done
  SID_MOUNTS=""
}

setup_linker() {
  rm -rf "$LINKER_SRC"
  mkdir -p "$LINKER_SRC/fetch/src"
  # The crates, by their registry versions; cargo fetches them into its own cache.
  cat >"$LINKER_SRC/fetch/Cargo.toml" <<EOF
[package]
name = "strm-sbf-fetch"
version = "0.0.0"
edition = "2021"
publish = false
[dependencies]
sbpf-linker = "=$SBPF_LINKER_VERSION"
bpf-linker = { version = "=$BPF_LINKER_VERSION", default-features = false }
EOF
  : >"$LINKER_SRC/fetch/src/lib.rs"
  (cd "$LINKER_SRC/fetch" && cargo fetch --target x86_64-unknown-linux-gnu) || {
    echo "sbf: crates.io did not provide sbpf-linker $SBPF_LINKER_VERSION and bpf-linker $BPF_LINKER_VERSION"
    exit 1
  }
  local registry
  registry=$(dirname "$(find "${CARGO_HOME:-$HOME/.cargo}/registry/src" -maxdepth 2 -type d -name "sbpf-linker-$SBPF_LINKER_VERSION" | head -n1)")
  cp -a "$registry/sbpf-linker-$SBPF_LINKER_VERSION" "$LINKER_SRC/sbpf-linker"
  cp -a "$registry/bpf-linker-$BPF_LINKER_VERSION" "$LINKER_SRC/bpf-linker"
  (cd "$LINKER_SRC/bpf-linker" && patch -p1 --no-backup-if-mismatch <"$HERE/bpf-linker-$BPF_LINKER_VERSION.patch")
  # Build with the machine's rustc, not the nightly the crate names; use the patched bpf-linker.
  rm -f "$LINKER_SRC/sbpf-linker/rust-toolchain.toml"
  printf '\n[patch.crates-io]\nbpf-linker = { path = "../bpf-linker" }\n' >>"$LINKER_SRC/sbpf-linker/Cargo.toml"
  # The dependencies at the versions of sbpf-linker's own Cargo.lock, fetched on the host.
  (cd "$LINKER_SRC/sbpf-linker" && cargo fetch --target x86_64-unknown-linux-gnu)

  # Host toolchain and cargo cache, bind-mounted into the sid root, so the linker links against sid's LLVM.
  local cargo_home=${CARGO_HOME:-$HOME/.cargo}
  trap sid_unmount EXIT
  sid_bind /proc "$SID/proc"
  sid_bind /dev "$SID/dev"
  sid_bind "$HOST_SYSROOT" "$SID/opt/rust"
  sid_bind "$cargo_home" "$SID/opt/cargo-home"
  sid_bind "$LINKER_SRC" "$SID/opt/src"
  chroot "$SID" /usr/bin/env -i PATH=/opt/rust/bin:/usr/bin:/bin HOME=/root CARGO_HOME=/opt/cargo-home \
    RUSTC=/opt/rust/bin/rustc LLVM_PREFIX=/usr/lib/llvm-23 CARGO_TARGET_DIR=/opt/src/target \
    /opt/rust/bin/cargo build --offline --release --manifest-path /opt/src/sbpf-linker/Cargo.toml \
    --no-default-features --features bpf-linker/llvm-23 --bin sbpf-linker
  sid_unmount
  trap - EXIT

  # The host runs it through sid's loader and libraries (it needs sid's newer glibc and libLLVM 23).
  mkdir -p "$CACHE/bin"
  cp "$LINKER_SRC/target/release/sbpf-linker" "$CACHE/bin/sbpf-linker.elf"
  cat >"$LINKER_BIN" <<EOF
#!/bin/sh
exec "$SID/lib64/ld-linux-x86-64.so.2" --library-path "$SID/usr/lib/llvm-23/lib:$SID/usr/lib/x86_64-linux-gnu" "$CACHE/bin/sbpf-linker.elf" "\$@"
EOF
  chmod +x "$LINKER_BIN"
  "$LINKER_BIN" --version
  rm -rf "$LINKER_SRC/target/release/build" "$LINKER_SRC/target/release/deps" "$LINKER_SRC/target/release/incremental"
}

# ---- Debian's rustc and cargo, installed into the sid root and run from the host through sid's loader ----
# The local chain on agave 4.x needs rustc >= 1.97.1; the machine's stays as it is. What they build is
# linked by the host's cc against the host's libc, so it runs on the host as any other build does.
DEBIAN_RUST=$CACHE/rust-debian-${DEBIAN_RUST_VERSION%%+*}

setup_debian_rust() {
  local work=$CACHE/tmp/debian-rust
  rm -rf "$work" "$DEBIAN_RUST" "$SID/tmp/debian-rust"
  mkdir -p "$work/partial"
  # What the sid root lacks for them, resolved against that root's own package status.
  apt_private apt-get install -y --download-only --no-install-recommends \
    -o Dir::State::status="$SID/var/lib/dpkg/status" -o Dir::Cache::Archives="$work" \
    -o APT::Default-Release="$DEBIAN_RUST_SUITE" "rustc=$DEBIAN_RUST_VERSION" "cargo=$DEBIAN_RUST_VERSION" || {
    echo "sbf: could not download rustc and cargo $DEBIAN_RUST_VERSION from $DEBIAN_RUST_SUITE"
    exit 1
  }
  mv "$work" "$SID/tmp/debian-rust"
  chroot "$SID" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin sh -c 'dpkg -i /tmp/debian-rust/*.deb'
  rm -rf "$SID/tmp/debian-rust"
  local pkg got
  for pkg in rustc cargo; do
    got=$(chroot "$SID" dpkg-query -W -f '${Version}' "$pkg")
    [ "$got" = "$DEBIAN_RUST_VERSION" ] || {
      echo "sbf: $DEBIAN_RUST_SUITE installed $pkg $got, but the local chain's toolchain is pinned to $DEBIAN_RUST_VERSION"
      exit 1
    }
  done
  mkdir -p "$DEBIAN_RUST/bin"
  local libs="$SID/usr/lib/x86_64-linux-gnu:$SID/lib/x86_64-linux-gnu"
  cat >"$DEBIAN_RUST/bin/rustc" <<EOF
#!/bin/sh
exec "$SID/lib64/ld-linux-x86-64.so.2" --library-path "$libs" "$SID/usr/bin/rustc" --sysroot "$SID/usr" "\$@"
EOF
  cat >"$DEBIAN_RUST/bin/cargo" <<EOF
#!/bin/sh
export RUSTC="$DEBIAN_RUST/bin/rustc"
exec "$SID/lib64/ld-linux-x86-64.so.2" --library-path "$libs" "$SID/usr/bin/cargo" "\$@"
EOF
  chmod +x "$DEBIAN_RUST/bin/rustc" "$DEBIAN_RUST/bin/cargo"
  "$DEBIAN_RUST/bin/rustc" --version
  "$DEBIAN_RUST/bin/cargo" --version
}

# Debian's rustc and cargo alone (the local chain on agave 4.x), without the SBF program's steps.
setup_rust() {
  [ "$(id -u)" = 0 ] || die "setting up Debian's rustc needs root (debootstrap and chroot)"
  command -v apt-get >/dev/null || die "setting up Debian's rustc needs apt-get (a Debian-like host)"
  step apt "$(debian_mirror) $RUST_SRC_VERSION $LLVM_VERSION $DEBOOTSTRAP_VERSION $DEBIAN_RUST_VERSION" "10 s" setup_apt
  step "debian $LLVM_SUITE root with $LLVM_DEB $LLVM_VERSION" "$LLVM_VERSION" "1 min" setup_sid
  step "rustc and cargo $DEBIAN_RUST_VERSION ($DEBIAN_RUST_SUITE)" "$DEBIAN_RUST_VERSION-$LLVM_VERSION" "1 min" setup_debian_rust
}

setup() {
  [ "$(id -u)" = 0 ] || die "setting up the SBF toolchain needs root (debootstrap and chroot)"
  command -v apt-get >/dev/null || die "setting up the SBF toolchain needs apt-get (a Debian-like host)"
  check_rustc
  step apt "$(debian_mirror) $RUST_SRC_VERSION $LLVM_VERSION $DEBOOTSTRAP_VERSION $DEBIAN_RUST_VERSION" "10 s" setup_apt
  step "rust-src $RUST_SRC_VERSION" "$RUST_SRC_VERSION-$HOST_SYSROOT-$(hash_of "$HERE/std-$RUST_VERSION-solana.patch")" "30 s" setup_sysroot
  step "debian $LLVM_SUITE root with $LLVM_DEB $LLVM_VERSION" "$LLVM_VERSION" "1 min" setup_sid
  step "sbpf-linker $SBPF_LINKER_VERSION (bpf-linker $BPF_LINKER_VERSION)" \
    "$SBPF_LINKER_VERSION-$BPF_LINKER_VERSION-$LLVM_VERSION-$(hash_of "$HERE/bpf-linker-$BPF_LINKER_VERSION.patch")" "1.5 min" setup_linker
}

is_set_up() {
  [ -x "$LINKER_BIN" ] && [ -d "$SYSROOT/lib/rustlib/src/rust/library" ] && [ -x "$SID/lib64/ld-linux-x86-64.so.2" ]
}

# ---- the program: std and the program as LLVM bitcode for target sbpfv3-solana, linked by sbpf-linker ----
build() {
  setup
  # The target spec and the linker script from a folder named by their contents rather than from this clone: cargo
  # keys every crate's build on the target spec's path and the linker's, so each new clone (CI's) would otherwise
  # compile all 153 crates again (about a minute) instead of reusing the last build.
  local specs
  specs=$CACHE/target-spec/$(cat "$HERE/sbpfv3-solana.json" "$HERE/link.sh" | sha256sum | cut -c1-16)
  if [ ! -x "$specs/link.sh" ]; then
    mkdir -p "$specs.tmp.$$" && cp "$HERE/sbpfv3-solana.json" "$HERE/link.sh" "$specs.tmp.$$/" &&
      { mv -T "$specs.tmp.$$" "$specs" 2>/dev/null || rm -rf "$specs.tmp.$$"; }
  fi
  local target_json=$specs/sbpfv3-solana.json
  local out=$TARGET_DIR/sbf
  local start=$SECONDS
  printf 'sbf: %-48s (first run about 2.5 min, then seconds) … ' "build programs/mining"
  local log=$LOGS/build.log
  if (
    cd "$ROOT"
    export RUSTC="$SYSROOT/bin/rustc" RUSTC_BOOTSTRAP=1 RUSTC_BOOTSTRAP_SYNTHETIC_TARGET=1
    export CARGO_TARGET_DIR="$out"
    export CARGO_TARGET_SBPFV3_SOLANA_LINKER="$specs/link.sh" STRM_SBF_LINKER="$LINKER_BIN" STRM_SBF_PROGRAM=libmining.so
    # Code generation happens in the linker (LLVM 23), so the LLVM options go to it. SBPF v3 is
    # BPF cpu v4 without the instructions Solana's VM does not have.
    local llvm_args=--bpf-stack-size=4096,--bpf-max-stores-per-memfunc=5,--disable-gotox,--disable-ldsx,--disable-movsx,--disable-bswap,--disable-gotol
    CARGO_ENCODED_RUSTFLAGS=$(
      printf '%s\x1f' -C relocation-model=static -C target-cpu=v4 -C target-feature=+allows-misaligned-mem-access \
        -C link-arg=--arch=v3 -C link-arg=--deploy=false -C "link-arg=--llvm-args=$llvm_args" | sed 's/\x1f$//'
    )
    export CARGO_ENCODED_RUSTFLAGS
    # -Zchecksum-freshness: the workspace's crates are fresh by their contents, not their files' times, so a new
    # clone of the same sources (CI's) reuses the last build instead of compiling the program again (50 s).
    "$SYSROOT/bin/cargo" build --release -p mining --lib --target "$target_json" \
      -Zjson-target-spec -Zbuild-std=std,panic_abort -Zchecksum-freshness
  ) >"$log" 2>&1; then
    mkdir -p "$ROOT/target/deploy"
    # Replaced whole (a rename), never rewritten in place under a chain that is loading it.
    cmp -s "$out/sbpfv3-solana/release/libmining.so" "$ROOT/target/deploy/mining.so" ||
      { cp "$out/sbpfv3-solana/release/libmining.so" "$ROOT/target/deploy/mining.so.new" &&
        mv -f "$ROOT/target/deploy/mining.so.new" "$ROOT/target/deploy/mining.so"; }
    echo "done in $((SECONDS - start)) s: target/deploy/mining.so ($(stat -c %s "$ROOT/target/deploy/mining.so") bytes)"
  else
    echo "FAILED after $((SECONDS - start)) s"
    echo "---- last lines of $log ----" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
}

# ---- the local chain's SBF engine, strm-svm (chain/svm: LiteSVM over agave 4.3), with Debian's cargo, in
# a target dir of its own (another cargo, another agave); chain/ts/sbf.ts runs it from there ----
rust_is_set_up() { [ -x "$DEBIAN_RUST/bin/cargo" ] && [ -x "$SID/usr/bin/cargo" ]; }

engine() {
  rust_is_set_up || setup_rust
  local start=$SECONDS log=$LOGS/engine.log
  printf 'sbf: %-48s (first run about 7 min on 2 idle cores, then seconds) … ' "build the SBF engine chain/svm"
  if CARGO_TARGET_DIR=$HOME/.cache/strm-target/agave4 "$DEBIAN_RUST/bin/cargo" build --release --locked \
    --manifest-path "$ROOT/chain/svm/Cargo.toml" >"$log" 2>&1; then
    echo "done in $((SECONDS - start)) s ($(grep -c '^ *Compiling ' "$log") crates compiled)"
  else
    echo "FAILED after $((SECONDS - start)) s; the end of $log:" >&2
    tail -n 40 "$log" >&2
    exit 1
  fi
}

case "${1:-build}" in
  setup) setup ;;
  build) build ;;
  status) is_set_up ;;
  rust) setup_rust ;;
  rust-status) rust_is_set_up ;;
  engine) engine ;;
  *)
    echo "usage: scripts/sbf/sbf.sh [setup | build | status | rust | rust-status | engine]" >&2
    exit 2
    ;;
esac
