#!/usr/bin/env bash
# Runs schemathesis (an outside tool that knows only the OpenAPI document) against a
# fresh `deskmate serve`: every operation that finishes in bounded time, every check
# (the few per-operation exceptions, each with its reason, are in
# tests/schemathesis/schemathesis.toml).
#   scripts/schemathesis.sh [EXAMPLES] [SEED]   (defaults: 10 examples, seed 1)
# The test command runs it short; a longer run is `scripts/schemathesis.sh 200 <seed>`.
# Exits non-zero on any failure of any check.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$PWD"
. scripts/common.sh
EXAMPLES="${1:-10}"
SEED="${2:-1}"
VENV="${SCHEMATHESIS_VENV:-$DESKMATE_CACHE/schemathesis-4.32.5}"
# Made in place (a venv's scripts name their own path, so it cannot be moved); the stamp
# is written last, so a half-made venv is made again.
if [ ! -f "$VENV/.complete" ]; then
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install -q schemathesis==4.32.5
  touch "$VENV/.complete"
fi
BIN="$CARGO_TARGET_DIR/debug/deskmate"
[ -x "$BIN" ] || cargo build -q -p deskmate-cli --locked
DATA="$(mktemp -d)"
OUT="$(mktemp)"
cleanup() {
  [ -n "${SERVER:-}" ] && kill "$SERVER" 2>/dev/null && wait "$SERVER" 2>/dev/null
  rm -rf "$DATA" "$OUT"
}
trap cleanup EXIT
# No local model servers: the operations below do not need a model. The MCP servers
# schemathesis adds are started; so that a command it makes up ("0", "dd"…) never runs a
# program of this machine, the server's PATH is an empty folder.
mkdir -p "$DATA/no-programs"
PATH="$DATA/no-programs" "$BIN" --data-dir "$DATA" serve --addr 127.0.0.1:0 --local-models off >"$OUT" 2>"$DATA.log" &
SERVER=$!
for _ in $(seq 100); do
  URL="$(head -n1 "$OUT" 2>/dev/null || true)"
  [ -n "$URL" ] && break
  sleep 0.1
done
[ -n "$URL" ] || { echo "deskmate serve did not start" >&2; cat "$DATA.log" >&2; exit 1; }
TOKEN="$(cat "$DATA/api-token")"
# The banner's URL is the API's (…/api/v1); the document's paths start at the root.
ROOT="${URL%/api/v1}"
# Chat, autotest, eval, voice and the event stream wait on models, devices or the
# person: not in bounded time, so left out. Run from the temporary dir: schemathesis
# keeps a cache in the working directory.
cd "$DATA"
"$VENV/bin/schemathesis" --config-file "$REPO/tests/schemathesis/schemathesis.toml" \
  run "$ROOT/api/v1/openapi.json" \
  --url "$ROOT" \
  -H "Authorization: Bearer $TOKEN" \
  --max-examples "$EXAMPLES" \
  --seed "$SEED" \
  --exclude-path-regex '/api/v1/(chat|tools/autotest|tools/test-message|eval|voice|events|devices/camera)' \
  --no-color
