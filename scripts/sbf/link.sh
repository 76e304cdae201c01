#!/bin/sh
# rustc's linker for the sbpfv3-solana target (set by sbf.sh). Cargo also links every dependency that
# declares a cdylib (solana-zk-sdk does) although only the program's own .so is used; those get an empty
# file, since they are not programs (no entrypoint, writable statics the SBF loader refuses).
# STRM_SBF_LINKER: the sbpf-linker to run; STRM_SBF_PROGRAM: the program's output name (libmining.so).
out=
prev=
for arg in "$@"; do
  [ "$prev" = "-o" ] && out=$arg
  prev=$arg
done
case "$out" in
  */"$STRM_SBF_PROGRAM") exec "$STRM_SBF_LINKER" "$@" ;;
  *) : >"$out" ;;
esac
