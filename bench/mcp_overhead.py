"""The cost of a call through Deskmate's MCP server against the same call over the REST
API: one `deskmate serve` (release build), a fresh data dir, `calculator` with
`2+3*4`, N calls each way one after another from the same Python process, per-call
wall time. Prints medians and ratios as JSON (scripts/bench-mcp.sh runs it).

    mcp_overhead.py DESKMATE_BIN WORK_DIR [--calls N]
"""

import argparse
import json
import statistics
import subprocess
import time

import anyio
import httpx2
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client

ARGS = {"expression": "2+3*4"}


async def timed(calls, one):
    times = []
    for _ in range(calls):
        started = time.perf_counter()
        await one()
        times.append((time.perf_counter() - started) * 1000)
    return times


async def mcp_calls(target, mode, calls):
    async with Client(target, mode=mode) as client:
        await client.call_tool("calculator", ARGS)  # the session is set up before timing

        async def one():
            result = await client.call_tool("calculator", ARGS)
            assert not result.is_error, result

        return await timed(calls, one)


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("work")
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    data = f"{args.work}/data"
    server = subprocess.Popen(
        [args.binary, "--data-dir", data, "serve", "--addr", "127.0.0.1:0", "--local-models", "off"],
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        api = server.stdout.readline().strip()
        token = open(f"{data}/api-token").read().strip()
        headers = {"Authorization": f"Bearer {token}"}
        figures = {}
        async with httpx2.AsyncClient(headers=headers, timeout=30) as http:
            await http.post(f"{api}/tools/call", json={"tool": "calculator", "arguments": ARGS})

            async def rest():
                answer = await http.post(f"{api}/tools/call", json={"tool": "calculator", "arguments": ARGS})
                assert answer.json()["ok"], answer.text

            figures["rest"] = await timed(args.calls, rest)
            endpoint = api.replace("/api/v1", "/mcp")
            for mode in ("legacy", "2026-07-28"):
                figures[f"mcp_http_{mode}"] = await mcp_calls(
                    streamable_http_client(endpoint, http_client=http), mode, args.calls)
        server.terminate()
        server.wait(timeout=10)
        for mode in ("legacy", "2026-07-28"):
            # No app running now: `deskmate mcp` serves the data dir itself.
            figures[f"mcp_stdio_{mode}"] = await mcp_calls(
                StdioServerParameters(command=args.binary, args=["--data-dir", data, "mcp"]), mode, args.calls)
        rest = statistics.median(figures["rest"])
        print(json.dumps({
            name: {"median_ms": round(statistics.median(t), 3),
                   "p95_ms": round(sorted(t)[int(len(t) * 0.95) - 1], 3),
                   "vs_rest": round(statistics.median(t) / rest, 2)}
            for name, t in figures.items()
        }, indent=1))
    finally:
        server.kill()


anyio.run(main)
