#!/usr/bin/env bash
# Autotest wall time against its slowest check (bench/autotest.py), with the local
# SmolLM2-135M and whisper-base servers as sidecars; the figures go in
# docs/BENCHMARKS.md. Usage: scripts/bench-autotest.sh [RUNS]   (DESKMATE_BIN overrides
# the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
runs="${1:-5}"
./scripts/setup-models.sh all
bench_setup autotest
# SmolLM2 as the only (default) LLM, whisper-base as the ASR model.
python3 - "$DESKMATE_CACHE/local-models.json" "$work" <<'PY'
import json, os, sys
manifest = json.load(open(sys.argv[1]))
llm = [dict(s, default=True) for s in manifest["llm"] if "smollm2" in s["id"]][:1]
json.dump({"version": 1, "llm": llm, "asr": manifest["asr"]},
          open(os.path.join(sys.argv[2], "manifest.json"), "w"))
PY
mkdir -p "$work/data/datasets"
cp testdata/cdisc/adsl.csv "$work/data/datasets/"
python3 bench/autotest.py "$DESKMATE_BIN" "$work/manifest.json" "$work" --runs "$runs"
