#!/usr/bin/env bash
# Median latency of a volume change and of a text prompt shown, on real OS components:
# PulseAudio with a null sink and a desktop session (D-Bus, Xvfb, dunst), started here.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
apt_install pulseaudio pulseaudio-utils dbus xvfb xauth dunst libpulse-dev libasound2-dev
require_cargo
run=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$run"; }
trap cleanup EXIT
printf 'load-module module-native-protocol-unix\nload-module module-null-sink sink_name=ci_sink\nset-default-sink ci_sink\n' >"$run/ci.pa"
XDG_RUNTIME_DIR="$run" HOME="$run" pulseaudio -n -F "$run/ci.pa" --daemonize=no --exit-idle-time=-1 --disallow-exit >/dev/null 2>&1 &
pids+=($!)
export PULSE_SERVER="unix:$run/pulse/native"
dbus-daemon --session --nofork --nopidfile --address="unix:path=$run/bus" >/dev/null 2>&1 &
pids+=($!)
export DBUS_SESSION_BUS_ADDRESS="unix:path=$run/bus"
display=":$((200 + $$ % 50))"
Xvfb "$display" -screen 0 640x480x24 -nolisten tcp >/dev/null 2>&1 &
pids+=($!)
export DISPLAY="$display"
for _ in $(seq 100); do pactl info >/dev/null 2>&1 && [ -S "$run/bus" ] && break; sleep 0.1; done
XDG_RUNTIME_DIR="$run" HOME="$run" dunst >/dev/null 2>&1 &
pids+=($!)
for _ in $(seq 100); do dunstctl is-paused >/dev/null 2>&1 && break; sleep 0.1; done
cargo bench --locked -p deskmate-devices --bench devices
