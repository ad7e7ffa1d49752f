#!/usr/bin/env bash
# Runs a benchmark script that talks to `deskmate serve` (bench/context.py,
# bench/schedules.py): the local models set up, the release build made (DESKMATE_BIN
# overrides it), a work dir with a manifest of only the default local LLM; the script
# gets DESKMATE_BIN MANIFEST WORKDIR and the arguments after its name.
# Usage: scripts/bench-serve.sh bench/SCRIPT.py [ARG...]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
script="$1"
shift
./scripts/setup-models.sh all
bench_setup serve
python3 - "$DESKMATE_CACHE/local-models.json" "$work" <<'PY'
import json, os, sys
manifest = json.load(open(sys.argv[1]))
llm = [s for s in manifest["llm"] if s.get("default")][:1]
json.dump({"version": 1, "llm": llm, "asr": []}, open(os.path.join(sys.argv[2], "manifest.json"), "w"))
PY
mkdir -p "$work/data"
python3 "$script" "$DESKMATE_BIN" "$work/manifest.json" "$work" "$@"
