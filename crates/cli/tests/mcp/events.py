"""What a client hears besides answers, over Streamable HTTP (or over stdio, from
`deskmate mcp` forwarding to the running app): progress of a slow call, a cancelled
call, and the tool list changing (a tool created over the REST API while the client is
connected). Prints what it saw as one JSON object for `crates/cli/tests/mcp.rs`.

    events.py --mode legacy|2026-07-28 (--url MCP_URL | --stdio CMD [ARG...]) --api API_URL
              --token T --slow TOOL --hang TOOL --create RESOURCE_JSON
"""

import argparse
import json
import sys
import time

import anyio
import httpx2
import mcp.types as types
from mcp import Client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client


async def main():
    parser = argparse.ArgumentParser()
    for flag in ("--mode", "--api", "--token", "--slow", "--hang", "--create"):
        parser.add_argument(flag, required=True)
    parser.add_argument("--url")
    parser.add_argument("--stdio", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    if bool(args.url) == bool(args.stdio):
        parser.error("give --url or --stdio (last)")
    seen = {"progress": [], "list_changed": False}
    changed = anyio.Event()

    async def on_message(message):
        if isinstance(message, types.ToolListChangedNotification):
            changed.set()

    async def on_progress(progress, total, message):
        seen["progress"].append({"progress": progress, "message": message})

    headers = {"Authorization": f"Bearer {args.token}"}
    http = httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=120))
    async with http:
        if args.url:
            server = streamable_http_client(args.url, http_client=http)
        else:
            server = StdioServerParameters(command=args.stdio[0], args=args.stdio[1:])
        async with Client(server, mode=args.mode, message_handler=on_message) as client:
            result = await client.call_tool(args.slow, {"text": "slow"}, progress_callback=on_progress)
            seen["slow_ok"] = not result.is_error

            started = time.monotonic()
            with anyio.move_on_after(1.5):
                await client.call_tool(args.hang, {"text": "hang"})
            seen["cancelled_after_s"] = round(time.monotonic() - started, 2)

            async def create():
                async with httpx2.AsyncClient(headers=headers) as rest:
                    created = await rest.post(f"{args.api}/tools/resources", json=json.loads(args.create))
                    seen["created"] = created.status_code

            if args.mode == "legacy":
                await create()
                with anyio.move_on_after(10):
                    await changed.wait()
                seen["list_changed"] = changed.is_set()
            else:
                async with client.listen(tools_list_changed=True) as subscription:
                    await create()
                    with anyio.move_on_after(10):
                        async for _event in subscription:
                            seen["list_changed"] = True
                            break
            seen["tools_after"] = [t.name for t in (await client.list_tools(cache_mode="refresh")).tools]
    json.dump(seen, sys.stdout)


anyio.run(main)
