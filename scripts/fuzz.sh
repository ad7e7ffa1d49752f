#!/usr/bin/env bash
# Fuzzes Deskmate's parsers with cargo-fuzz (libFuzzer, nightly toolchain): the guard's
# steps 1–4 on the real specs, the SSE parser with the tool-call assembler, call
# extraction from text, the calculator, the CSV dataset loader. Each target runs SECONDS
# (default 20: CI's smoke run) from the committed seeds in fuzz/seeds/<target> plus the
# corpus kept in ~/.cache/deskmate/fuzz/<target>; a crash stops the run with the input
# saved in fuzz/artifacts/<target>/. Prints executions per second per target.
# A run of under a minute per target (CI's smoke run) builds the targets unoptimized and
# without AddressSanitizer — a third of the build time of the sanitized release build on
# a cold machine, and seconds of fuzzing are not about speed; the long run builds those.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]   e.g. scripts/fuzz.sh 600 (the long run)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
seconds="${1:-20}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(guard_prepare sse_assemble extract_calls calculator csv_dataset)
fi
rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
# The fuzz crate has its own lockfile and target folder (sanitizer builds).
export CARGO_TARGET_DIR="$DESKMATE_CACHE/fuzz-target"
if [ "$seconds" -lt 60 ]; then
  build=(--dev --sanitizer none)
else
  build=()
fi
cargo +nightly fuzz build --fuzz-dir fuzz "${build[@]}"
for target in "${targets[@]}"; do
  corpus="$DESKMATE_CACHE/fuzz/$target"
  mkdir -p "$corpus" "fuzz/artifacts/$target"
  log="$(mktemp)"
  if ! cargo +nightly fuzz run --fuzz-dir fuzz "${build[@]}" "$target" "$corpus" "fuzz/seeds/$target" -- \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="fuzz/artifacts/$target/" >"$log" 2>&1; then
    tail -40 "$log"
    echo "fuzz: $target found a crash (input in fuzz/artifacts/$target/)" >&2
    exit 1
  fi
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  echo "fuzz: $target: $runs executions in ${seconds} s ($rate/s), no crash"
  rm -f "$log"
done
