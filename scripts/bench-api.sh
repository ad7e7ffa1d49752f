#!/usr/bin/env bash
# API benchmark: wrk at 64 connections on loopback against `deskmate serve` (release)
# and its FastAPI twin (bench/fastapi_twin.py under uvicorn, 2 workers — the machine's
# core count), GET /api/v1/tools/list and POST /api/v1/tools/call (calculator), in the
# same run. Prints requests/s and latency percentiles for each.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
apt_install wrk python3-venv
venv="$DESKMATE_CACHE/bench-api-venv"
if [ ! -x "$venv/bin/uvicorn" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet 'fastapi==0.165.0' 'uvicorn==0.54.0' 'jsonschema==4.26.0'
fi
cargo build --release --locked -p deskmate-cli --quiet
bin="$CARGO_TARGET_DIR/release/deskmate"
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
DURATION="${DURATION:-15s}"
export TOKEN="bench-$(date +%s)"

"$bin" --data-dir "$work/data" tools > "$work/specs.json"
DESKMATE_API_TOKEN="$TOKEN" "$bin" --data-dir "$work/data" serve --addr 127.0.0.1:18765 > "$work/serve.out" 2>/dev/null &
pids+=($!)
(cd bench && DESKMATE_SPECS="$work/specs.json" DESKMATE_TOKEN="$TOKEN" \
  "$venv/bin/uvicorn" fastapi_twin:app --host 127.0.0.1 --port 18766 --workers 2 --log-level warning) &
pids+=($!)
for port in 18765 18766; do
  for _ in $(seq 1 100); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
done

run() { # name url script
  wrk -t2 -c64 -d2s -s "bench/$3" "$2" > /dev/null   # warm-up
  wrk -t2 -c64 -d"$DURATION" --latency -s "bench/$3" "$2" > "$work/$1.txt"
  python3 - "$1" "$work/$1.txt" <<'PY'
import re, sys
name, text = sys.argv[1], open(sys.argv[2]).read()
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
def ms(label):
    m = re.search(rf"\s{label}\s+([\d.]+)(us|ms|s)\b", text)
    if not m: return float("nan")
    v, unit = float(m.group(1)), m.group(2)
    return v / 1000 if unit == "us" else v * 1000 if unit == "s" else v
non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
errors = re.search(r"Socket errors: (.*)", text)
print(f"{name:22s} {rps:10.0f} req/s   p50 {ms('50%'):7.2f} ms   p99 {ms('99%'):7.2f} ms"
      + (f"   non-2xx {non2xx.group(1)}" if non2xx else "") + (f"   socket errors: {errors.group(1)}" if errors else ""))
PY
}
echo "wrk -t2 -c64 -d$DURATION, loopback; deskmate $(git rev-parse --short HEAD), $(nproc) cores"
run deskmate_list    http://127.0.0.1:18765/api/v1/tools/list wrk_get.lua
run fastapi_list     http://127.0.0.1:18766/api/v1/tools/list wrk_get.lua
run deskmate_call    http://127.0.0.1:18765/api/v1/tools/call wrk_post_call.lua
run fastapi_call     http://127.0.0.1:18766/api/v1/tools/call wrk_post_call.lua
