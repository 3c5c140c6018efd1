#!/usr/bin/env bash
# One command: a Python 3.10 environment for the Mephisto task in tasks/mephisto/.venv.
# Mephisto 1.1.1 does not import on Python 3.11 and pins old websockets/rich, so it never
# shares the server's environment; it talks to the avd server over HTTP only.
# Usage: tasks/mephisto/install.sh [python3.10 executable]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
python="${1:-}"
if [ -z "$python" ]; then
  for candidate in python3.10 "$HOME/.pyenv/versions/3.10"*/bin/python /usr/bin/python3.10; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import sys; assert sys.version_info[:2] == (3, 10)' 2>/dev/null; then
      python="$candidate"
      break
    fi
  done
fi
if [ -z "$python" ]; then
  echo "No Python 3.10 found; pass one: $0 /path/to/python3.10" >&2
  exit 1
fi
"$python" -m venv "$here/.venv"
"$here/.venv/bin/pip" install --quiet --upgrade pip
"$here/.venv/bin/pip" install --quiet -r "$here/requirements.txt"
# detoxify (and with it torch) is left out on purpose: Mephisto uses it only when present.
"$here/.venv/bin/pip" install --quiet --no-deps "mephisto==1.1.1"
"$here/.venv/bin/python" -c "import mephisto.operations.operator, avd_mephisto.blueprint" 2>/dev/null \
  || (cd "$here" && "$here/.venv/bin/python" -c "import mephisto.operations.operator, avd_mephisto.blueprint")
echo "Mephisto task environment ready: $here/.venv (python: $("$here/.venv/bin/python" --version))"
