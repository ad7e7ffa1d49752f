#!/usr/bin/env bash
# The wake phrase's figures for docs/BENCHMARKS.md: detection on 40 generated utterances
# per language (4 voices and rates, noise mixed in) and false wakes on about ten minutes
# of ordinary speech, through the local whisper server (scripts/setup-models.sh tests).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
require_cargo
# WAKE_BENCH_ROUNDS (1–7, default 7) sets how many rounds of the ordinary sentences are said.
cargo test --locked -p deskmate-cli --test wake_bench -- --ignored --nocapture
