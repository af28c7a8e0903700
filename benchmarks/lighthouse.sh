#!/usr/bin/env bash
# Lighthouse 12 on the pages of the screenshot tour (see benchmarks/lighthouse.py):
#   benchmarks/lighthouse.sh [--langs es,en,eu] [--pages home,board] [--out FILE]
# Lighthouse comes from the npm registry into a temporary directory (LIGHTHOUSE_DIR to
# reuse one), never into the checkout; Chromium is /usr/bin/chromium (CHROME_PATH).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
DIR="${LIGHTHOUSE_DIR:-$(mktemp -d -t muscore-lighthouse-npm-XXXXXX)}"
if [ ! -x "$DIR/node_modules/.bin/lighthouse" ]; then
  npm install --prefix "$DIR" --no-audit --no-fund --silent lighthouse@12 >&2
fi
export LIGHTHOUSE="$DIR/node_modules/.bin/lighthouse"
export CHROME_PATH="${CHROME_PATH:-/usr/bin/chromium}"
exec "$ROOT/.venv/bin/python" "$ROOT/benchmarks/lighthouse.py" "$@"
