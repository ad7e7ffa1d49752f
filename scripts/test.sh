#!/usr/bin/env bash
# Runs every test: formatting, lints (warnings are errors), and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
# A C compiler builds the bundled SQLite and ring; a no-op when already installed.
apt_install build-essential pkg-config
require_cargo
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo test --workspace --locked
