#!/usr/bin/env bash
# Builds the desktop app's Debian package with the npm Tauri CLI: the UI, the release
# binaries, and a .deb holding deskmate-app (the window), deskmate (the CLI) and
# deskmate-sandbox (the code interpreter's helper, which must sit next to them).
# Prints the .deb's path. Install it with: sudo apt install ./Deskmate_*.deb
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
apt_install build-essential pkg-config python3 libpulse-dev libasound2-dev libclang1-14 "${DESKTOP_PACKAGES[@]}"
require_cargo
build_ui
cargo build --release --locked -p deskmate-cli -p deskmate-sandbox
triple=$(rustc -vV | sed -n 's/^host: //p')
mkdir -p src-tauri/binaries
for bin in deskmate deskmate-sandbox; do
  cp "$CARGO_TARGET_DIR/release/$bin" "src-tauri/binaries/$bin-$triple"
done
(cd src-tauri && ../ui/node_modules/.bin/tauri build --ci --bundles deb --config tauri.bundle.json)
ls -1 "$CARGO_TARGET_DIR"/release/bundle/deb/*.deb
