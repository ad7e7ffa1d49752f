#!/usr/bin/env bash
# The overhead of a call through Deskmate's MCP server (Streamable HTTP in both eras,
# stdio) against the same call over the REST API (bench/mcp_overhead.py), and the time
# from start to an imported server's tools being offered (bench/mcp_import.py); the figures
# go in docs/BENCHMARKS.md. Usage: scripts/bench-mcp.sh [CALLS]   (DESKMATE_BIN
# overrides the release build)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/common.sh
calls="${1:-200}"
setup_mcp_peers
bench_setup mcp
"$MCP_PEERS/venv/bin/python" bench/mcp_overhead.py "$DESKMATE_BIN" "$work" --calls "$calls"
# Deskmate start → the tools of server-everything (stdio) offered.
import="$(mktemp -d "${TMPDIR:-/tmp}/deskmate-bench-mcp-import.XXXXXX")"
trap 'rm -rf "$work" "$import"' EXIT
python3 bench/mcp_import.py "$DESKMATE_BIN" "$import" "$MCP_PEERS/npm/node_modules/.bin/mcp-server-everything" --runs 5
