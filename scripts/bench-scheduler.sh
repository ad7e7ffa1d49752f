#!/usr/bin/env bash
# The scheduler with 10,000 stored schedules: idle CPU of `deskmate serve` and how late a
# due occurrence is claimed (bench/scheduler.py).
# Usage: scripts/bench-scheduler.sh [--stored N] [--idle SECONDS]   (DESKMATE_BIN overrides the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
if [ -z "${DESKMATE_BIN:-}" ]; then
  cargo build --release --locked -p deskmate-cli -p deskmate-sandbox
  DESKMATE_BIN="$CARGO_TARGET_DIR/release/deskmate"
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/deskmate-bench-scheduler.XXXXXX")"
trap 'rm -rf "$work"' EXIT
python3 bench/scheduler.py "$DESKMATE_BIN" "$work" "$@"
