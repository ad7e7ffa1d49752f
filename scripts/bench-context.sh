#!/usr/bin/env bash
# A context that never overflows, on the default local model: a conversation of 200 turns
# (bench/context.py) over the HTTP API of `deskmate serve`, then "what was the first number
# I asked about?"; reports whether the answer has it, the folds and the turn latency.
# Only the Qwen server runs.
# Usage: scripts/bench-context.sh [--turns N]   (DESKMATE_BIN overrides the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
./scripts/setup-models.sh all
if [ -z "${DESKMATE_BIN:-}" ]; then
  cargo build --release --locked -p deskmate-cli -p deskmate-sandbox
  DESKMATE_BIN="$CARGO_TARGET_DIR/release/deskmate"
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/deskmate-bench-context.XXXXXX")"
trap 'rm -rf "$work"' EXIT
python3 - "$DESKMATE_CACHE/local-models.json" "$work" <<'PY'
import json, os, sys
manifest = json.load(open(sys.argv[1]))
llm = [s for s in manifest["llm"] if s.get("default")][:1]
json.dump({"version": 1, "llm": llm, "asr": []}, open(os.path.join(sys.argv[2], "manifest.json"), "w"))
PY
mkdir -p "$work/data"
python3 bench/context.py "$DESKMATE_BIN" "$work/manifest.json" "$work" "$@"
