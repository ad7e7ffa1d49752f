#!/usr/bin/env bash
# Sets everything up, then runs Deskmate. With no arguments it opens the desktop app
# where there is a display, and otherwise serves the REST API headless on
# 127.0.0.1:8765 until Ctrl-C; with arguments it runs `deskmate ARGS…`, e.g.
#   scripts/run.sh tools
#   scripts/run.sh call calculator '{"expression": "17% of 2,340"}'
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
. scripts/common.sh
bin="$CARGO_TARGET_DIR/release/deskmate"
if [ $# -gt 0 ]; then
  exec "$bin" "$@"
fi
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "starting the desktop app (data dir: $("$bin" data-dir))"
  exec "$CARGO_TARGET_DIR/release/deskmate-app"
fi
echo "tools:"
"$bin" tools | python3 -c '
import json, sys
for tool in json.load(sys.stdin):
    print("  %-20s %s / %s" % (tool["id"], tool["name"]["en"], tool["name"]["zh"]))
'
echo
echo "try: curl -H \"Authorization: Bearer \$(cat \"$("$bin" data-dir)/api-token\")\" http://127.0.0.1:8765/api/v1/tools/list"
exec "$bin" serve
