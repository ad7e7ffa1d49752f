#!/usr/bin/env bash
# Overhead of one trivial code_interpreter run (`1+1`): in-process through the runner
# against bare Python (median of 60 alternating rounds), and end to end through the CLI
# (`deskmate call code_interpreter`, hyperfine) against `deskmate call calculator`.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
apt_install hyperfine python3
require_cargo
cargo bench --locked -p deskmate-sandbox --bench trivial_run
cargo build --release --locked -p deskmate-cli -p deskmate-sandbox
bin="$CARGO_TARGET_DIR/release/deskmate"
data=$(mktemp -d)
trap 'rm -rf "$data"' EXIT
"$bin" --data-dir "$data" tools >/dev/null
hyperfine -N --warmup 3 --runs 30 \
  "$bin --data-dir $data call calculator '{\"expression\": \"1+1\"}'" \
  "$bin --data-dir $data call code_interpreter '{\"code\": \"1+1\"}'"
