#!/usr/bin/env bash
# Chat latency with the default local model (bench/chat.py): launch to warm prefix,
# first event of new conversations with the prefix warm (median), and a relaunch that
# restores the saved prefix. Only the Qwen server runs (no other sidecar competes).
# Usage: scripts/bench-chat.sh [ROUNDS]   (DESKMATE_BIN overrides the release build)
#        scripts/bench-chat.sh --many-tools   (the same with 100 HTTP tools: bench/many_tools.py)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
rounds="${1:-1}"
many=0
if [ "$rounds" = "--many-tools" ]; then many=1; rounds=1; fi
./scripts/setup-models.sh all
bench_setup chat
# The manifest with only the default LLM, and its own prompt-cache folder (so the first
# launch evaluates the prefix and the second restores it).
python3 - "$DESKMATE_CACHE/local-models.json" "$work" <<'PY'
import json, os, sys
manifest = json.load(open(sys.argv[1]))
slots = os.path.join(sys.argv[2], "slots")
os.makedirs(slots)
llm = [s for s in manifest["llm"] if s.get("default")][:1]
for server in llm:
    args = server["args"]
    if "--slot-save-path" in args:
        args[args.index("--slot-save-path") + 1] = slots
    server["slot_dir"] = slots
json.dump({"version": 1, "llm": llm, "asr": []}, open(os.path.join(sys.argv[2], "manifest.json"), "w"))
PY
mkdir -p "$work/data/datasets"
cp testdata/cdisc/adsl.csv "$work/data/datasets/"
if [ "$many" = 1 ]; then
  python3 bench/many_tools.py "$DESKMATE_BIN" "$work/manifest.json" "$work"
else
  python3 bench/chat.py "$DESKMATE_BIN" "$work/manifest.json" "$work" --rounds "$rounds"
fi
