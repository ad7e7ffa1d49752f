#!/usr/bin/env bash
# Runs every test: formatting, lints (warnings are errors), and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
require_cargo
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings
cargo test --workspace --locked
