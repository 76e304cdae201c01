#!/usr/bin/env bash
# Installs Schemathesis (PyPI, pinned) into a private virtualenv outside the clone, once: a second run
# finds the pinned version there and does nothing. Prints the path of the `st` executable.
#   STRM_SCHEMATHESIS_VENV  where the venv lives (default ~/.cache/strm-schemathesis)
set -euo pipefail
VERSION=4.32.5
VENV="${STRM_SCHEMATHESIS_VENV:-$HOME/.cache/strm-schemathesis}"
if [ -x "$VENV/bin/st" ] && [ "$("$VENV/bin/python" -c 'import importlib.metadata as m; print(m.version("schemathesis"))' 2>/dev/null)" = "$VERSION" ]; then
  echo "$VENV/bin/st"
  exit 0
fi
command -v python3 >/dev/null || { echo "Schemathesis needs python3 (3.10+) with venv" >&2; exit 1; }
rm -rf "$VENV"
python3 -m venv "$VENV" >&2
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "schemathesis==$VERSION" >&2
echo "$VENV/bin/st"
