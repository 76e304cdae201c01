#!/bin/bash
# What the official redis image's entrypoint does: own /data, drop to `redis`, and without a config file
# turn protected mode off (the container's network is the boundary).
set -euo pipefail
if [ "${1:-}" = redis-server ] && [ "$(id -u)" = 0 ]; then
  chown -R redis:redis /data
  exec setpriv --reuid=redis --regid=redis --init-groups "$0" "$@"
fi
if [ "${1:-}" = redis-server ] && [[ "${2:-}" != *.conf ]]; then
  shift
  exec redis-server --protected-mode no "$@"
fi
exec "$@"
