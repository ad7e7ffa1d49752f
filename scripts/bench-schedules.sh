#!/usr/bin/env bash
# How often the default local model fills the schedule tool right, on 20 phrasings per
# language (bench/schedule_phrasings.jsonl, judged by bench/schedules.py with the facts
# written in each case). Only the Qwen server runs.
# Usage: scripts/bench-schedules.sh [--only en|zh] [--limit N]   (DESKMATE_BIN overrides the release build)
exec "$(dirname "$0")/bench-serve.sh" bench/schedules.py "$@"
