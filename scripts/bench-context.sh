#!/usr/bin/env bash
# A context that never overflows, on the default local model: a conversation of 200 turns
# (bench/context.py) over the HTTP API of `deskmate serve`, then "what was the first number
# I asked about?"; reports whether the answer has it, the folds and the turn latency.
# Only the Qwen server runs.
# Usage: scripts/bench-context.sh [--turns N]   (DESKMATE_BIN overrides the release build)
exec "$(dirname "$0")/bench-serve.sh" bench/context.py "$@"
