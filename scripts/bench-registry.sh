#!/usr/bin/env bash
# Creating many HTTP tools over the API, and a call's latency meanwhile (bench/registry.py).
# Usage: scripts/bench-registry.sh [TOOLS]   (default 1000; DESKMATE_BIN overrides the
# release build)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
bench_setup registry
python3 bench/registry.py "$DESKMATE_BIN" "$work" --tools "${1:-1000}"
