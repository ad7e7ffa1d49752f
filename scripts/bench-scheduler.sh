#!/usr/bin/env bash
# The scheduler with 10,000 stored schedules: idle CPU of `deskmate serve` and how late a
# due occurrence is claimed (bench/scheduler.py).
# Usage: scripts/bench-scheduler.sh [--stored N] [--idle SECONDS]   (DESKMATE_BIN overrides the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
bench_setup scheduler
python3 bench/scheduler.py "$DESKMATE_BIN" "$work" "$@"
