#!/usr/bin/env bash
# Voice mode's figures for docs/BENCHMARKS.md, with the local models (scripts/setup-models.sh
# tests): CPU while waiting for the wake phrase (quiet, and with speech nearby), and the
# time from the end of a spoken request to the first sound of the reply (no tool, one tool).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
require_cargo
cargo test --locked -p deskmate-cli --test voice_bench -- --ignored --nocapture --test-threads 1
