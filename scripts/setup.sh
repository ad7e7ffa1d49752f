#!/usr/bin/env bash
# Sets Deskmate up on Debian 12: system packages, release builds of `deskmate` and —
# where there is a display (or with DESKMATE_DESKTOP=1) — of the desktop app
# `deskmate-app` with its UI, and a data dir with the sample CDISC dataset (skip it
# with DESKMATE_NO_SAMPLE=1).
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh

apt_install build-essential pkg-config ca-certificates python3 python3-venv libpulse-dev \
  libasound2-dev libasound2-plugins libclang1-14 espeak-ng
require_cargo
# Local models (the default assistant Qwen2.5-Coder-1.5B, SmolLM2-135M, whisper-base) and
# their servers, cached under ~/.cache/deskmate; skip with DESKMATE_NO_LOCAL_MODELS=1.
if [ -z "${DESKMATE_NO_LOCAL_MODELS:-}" ]; then
  ./scripts/setup-models.sh all
fi
# The sandbox helper (deskmate-sandbox) must sit next to deskmate (and deskmate-app).
cargo build --release --locked -p deskmate-cli -p deskmate-sandbox
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] || [ -n "${DESKMATE_DESKTOP:-}" ]; then
  apt_install "${DESKTOP_PACKAGES[@]}"
  build_ui
  cargo build --release --locked -p deskmate-app
  echo "built: $CARGO_TARGET_DIR/release/deskmate-app"
fi
bin="$CARGO_TARGET_DIR/release/deskmate"

data_dir=$("$bin" data-dir)
mkdir -p "$data_dir/datasets"
if [ -z "${DESKMATE_NO_SAMPLE:-}" ] && ! ls "$data_dir/datasets"/*.csv >/dev/null 2>&1; then
  cp testdata/cdisc/adsl.csv "$data_dir/datasets/adsl.csv"
  echo "sample dataset: $data_dir/datasets/adsl.csv (CDISC pilot ADSL)"
fi
echo "built: $bin"
echo "data dir: $data_dir"
