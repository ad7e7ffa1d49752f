#!/usr/bin/env bash
# Sets everything up, then runs Deskmate. With no arguments it lists the tools and makes
# a few calls through the guard; with arguments it runs `deskmate ARGS…`, e.g.
#   scripts/run.sh call calculator '{"expression": "17% of 2,340"}'
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/setup.sh
. scripts/common.sh
bin="$CARGO_TARGET_DIR/release/deskmate"
if [ $# -gt 0 ]; then
  exec "$bin" "$@"
fi
echo "tools:"
"$bin" tools | python3 -c '
import json, sys
for tool in json.load(sys.stdin):
    print("  %-20s %s / %s" % (tool["id"], tool["name"]["en"], tool["name"]["zh"]))
'
for call in 'calculator {"expression": "17% of 2,340"}' \
            'current_time {"timezone": "Asia/Shanghai"}' \
            'summarize_by_group {"dataset": "ADSL.csv", "variable": "AGE", "group_by": "TRT01A"}' \
            'describe_dataset {"dataset": "../etc/passwd"}'; do
  tool=${call%% *}; args=${call#* }
  echo; echo "\$ deskmate call $tool '$args'"
  "$bin" call "$tool" "$args" || true
done
