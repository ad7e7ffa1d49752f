#!/usr/bin/env bash
# Desktop app benchmark: launch to interactive (median of 5) and PSS after 30 s idle of
# the release build of deskmate-app, side by side with an empty Tauri app (bench/
# empty-tauri, same Tauri version) built in the same run. Local models off (the model
# servers are separate processes and are not part of either figure).
# Usage: scripts/bench-desktop.sh [RUNS] [IDLE_SECONDS]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
runs="${1:-5}"
idle="${2:-30}"
apt_install "${DESKTOP_PACKAGES[@]}" webkit2gtk-driver xvfb dbus
build_ui
cargo build --release --locked -p deskmate-app
cargo build --release --locked --manifest-path bench/empty-tauri/Cargo.toml
# Deskmate is interactive when the chat input is rendered and the UI's connection to the
# service answers; the empty app when its page is there.
deskmate_js='const done = arguments[0];
  if (!document.querySelector("#chat-input") || !window.__DESKMATE__) { done(false); return; }
  fetch(window.__DESKMATE__.base + "/tools/health").then(r => done(r.ok), () => done(false));'
empty_js='arguments[0](!!document.querySelector("#ready"));'
python3 bench/desktop.py deskmate-app "$CARGO_TARGET_DIR/release/deskmate-app" "$deskmate_js" --runs "$runs" --idle "$idle"
python3 bench/desktop.py empty-tauri "$CARGO_TARGET_DIR/release/empty-tauri" "$empty_js" --runs "$runs" --idle "$idle"
