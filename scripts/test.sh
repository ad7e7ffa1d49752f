#!/usr/bin/env bash
# Runs every test: formatting, lints (warnings are errors), and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
# Each phase's time goes to stderr, so a slow run says where its minutes went.
phase_start=$SECONDS
phase() {
  echo "[test.sh] $1: $((SECONDS - phase_start)) s (total ${SECONDS} s)" >&2
  phase_start=$SECONDS
}
# A C compiler builds the bundled SQLite and ring; python3 runs in the code interpreter's
# sandbox; libpulse-dev and libasound2-dev build the mixer and the speaker (ALSA goes to
# PulseAudio through libasound2-plugins); libclang lets nokhwa generate its V4L2 bindings;
# python3-venv holds the MCP Python SDK the MCP tests use;
# the tests start a real PulseAudio daemon and a
# desktop session (D-Bus, Xvfb, dunst); the desktop app needs WebKitGTK and its tests
# WebKitWebDriver, and xdotool to answer the OS save dialog; the keyring test starts
# gnome-keyring's Secret Service on a private bus and looks at its items with gdbus.
# A no-op when already installed.
apt_install build-essential pkg-config python3 python3-venv libpulse-dev libasound2-dev libasound2-plugins libclang1-14 \
  pulseaudio pulseaudio-utils espeak-ng \
  dbus dbus-x11 xvfb xauth dunst libnotify-bin gnome-keyring libglib2.0-bin \
  "${DESKTOP_PACKAGES[@]}" webkit2gtk-driver x11-apps xdotool
phase "system packages"
require_cargo
prune_target
# The real local servers the tests start: llama-server (built once, cached) with
# SmolLM2-135M and Qwen2.5-Coder-1.5B (the desktop test's chat calls a tool), and
# faster-whisper-server with whisper-base. A no-op when cached. On a cold machine this is
# minutes of downloads and a C++ build: it runs beside the steps below (which do not need
# it) and is waited for before the tests.
models_log="$(mktemp)"
./scripts/setup-models.sh all >"$models_log" 2>&1 &
models_pid=$!
# The MCP peers the MCP tests talk to: the Python SDK, the reference servers, the
# Inspector (pinned in tests/mcp-peers; a no-op when cached).
setup_mcp_peers
phase "MCP peers"
# The UI: its unit tests, then the build the desktop app embeds.
build_ui
(cd ui && npm test --silent)
phase "UI build and tests"
cargo fmt --all -- --check
phase "fmt"
# Clippy's lints run inside the test build: clippy-driver compiles the workspace's own
# crates (as `cargo clippy` does, with -D warnings), so the dependencies are compiled once
# for the tests instead of once more in check mode for clippy. `--all-targets` lints what
# `cargo clippy --all-targets` does (benches and examples too). The run below keeps the
# same wrapper, so it reuses these artifacts.
export RUSTC_WORKSPACE_WRAPPER=clippy-driver
export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
cargo test --workspace --all-targets --locked --no-run
phase "test build with clippy's lints"
if ! wait "$models_pid"; then
  cat "$models_log" >&2
  echo "setup-models.sh failed" >&2
  exit 1
fi
grep -E 'build took|done;' "$models_log" || true
rm -f "$models_log"
phase "local models (waited for)"
# Hermetic: tests never write to the keyring of the person running them; the keyring
# test starts its own Secret Service and asks for it explicitly.
export DESKMATE_SECRET_STORE="${DESKMATE_SECRET_STORE:-file}"
cargo test --workspace --locked
phase "cargo test"
# The fuzz build uses the nightly toolchain, which has no clippy.
unset RUSTC_WORKSPACE_WRAPPER CLIPPY_ARGS
# A short fuzzing smoke run of each target (nightly + cargo-fuzz, installed on first use);
# scripts/fuzz.sh 600 is the long run whose figures are in docs/BENCHMARKS.md. It runs
# beside schemathesis: each fuzz target is one thread and schemathesis about one, so on
# two cores the two phases take the time of the longer instead of their sum.
fuzz_log="$(mktemp)"
./scripts/fuzz.sh 5 >"$fuzz_log" 2>&1 &
fuzz_pid=$!
# The REST API against its own OpenAPI document, by an outside tool (schemathesis, in a
# cached venv): every check, 10 examples per operation, a fixed seed; any failure fails.
./scripts/schemathesis.sh 10 1
phase "schemathesis"
fuzz_ok=0
wait "$fuzz_pid" || fuzz_ok=$?
cat "$fuzz_log"
rm -f "$fuzz_log"
if [ "$fuzz_ok" -ne 0 ]; then
  echo "fuzz smoke failed" >&2
  exit 1
fi
phase "fuzz smoke (the rest, after schemathesis)"
echo "desktop end-to-end screenshots: ${DESKMATE_ARTIFACTS:-$CARGO_TARGET_DIR/tmp/e2e-screenshots}"
