"""An MCP client (the official Python SDK) that walks Deskmate's server through its
contract and prints what it saw as one JSON object; `crates/cli/tests/mcp.rs` judges it.

    client.py --mode legacy|2026-07-28|auto (--stdio CMD [ARG...] | --url URL --token T)
              [--ask TOOL ARGS_JSON] [--never TOOL ARGS_JSON] [--replay TOOL ARGS_JSON]

--ask: called twice; the client's elicitation answers approve the first time and
decline the second (a server that confirms through its own dialog ignores them).
--replay: called twice with the same `deskmate/idem_key` in `_meta`.
--always: each tool called twice; every elicitation is approved, with "remember":
"always" where the question offers it (`elicited_remember` lists whether it did).
"""

import argparse
import json
import sys

import anyio
import httpx2
import mcp.types as types
from mcp import Client, MCPError, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client


def shape(result):
    return {
        "is_error": bool(result.is_error),
        "text": "\n".join(c.text for c in result.content if getattr(c, "text", None) is not None),
        "structured": result.structured_content,
    }


async def call(client, seen, key, name, arguments, meta=None):
    try:
        seen.setdefault(key, []).append(shape(await client.call_tool(name, arguments, meta=meta)))
    except MCPError as e:
        seen.setdefault(key, []).append({"protocol_error": {"code": e.code, "message": e.message}})


async def walk(target, args):
    answers = iter([True, False])
    elicited = []
    offered_remember = []

    async def on_elicit(context, params):
        elicited.append(params.message)
        remember = params.requested_schema.get("properties", {}).get("remember")
        # An enum's values: plain (`enum`) or titled (`oneOf` of `const`s).
        values = None if remember is None else remember.get("enum") or [
            choice["const"] for choice in remember.get("oneOf", [])]
        offered_remember.append(values)
        if args.always:
            content = {"approve": True}
            if values and "always" in values:
                content["remember"] = "always"
            return types.ElicitResult(action="accept", content=content)
        return types.ElicitResult(action="accept", content={"approve": next(answers, False)})

    seen = {}
    async with Client(target, mode=args.mode, elicitation_callback=on_elicit,
                      client_info=types.Implementation(name="deskmate-test-client", version="1.0")) as client:
        seen["era"] = client.protocol_version
        listed = await client.list_tools()
        seen["tools"] = [
            {"name": t.name, "title": t.title, "schema": t.input_schema,
             "annotations": t.annotations.model_dump(by_alias=True, exclude_none=True) if t.annotations else None}
            for t in listed.tools
        ]
        await call(client, seen, "ok", "calculator", {"expression": "2+3*4"})
        await call(client, seen, "invalid", "calculator", {"expresion": "2+3*4"})
        await call(client, seen, "unknown", "no_such_tool", {})
        if args.never:
            await call(client, seen, "never", args.never[0], json.loads(args.never[1]))
        if args.ask:
            for _ in range(2):
                await call(client, seen, "ask", args.ask[0], json.loads(args.ask[1]))
        for name, arguments in args.always or []:
            for _ in range(2):
                await call(client, seen, "always", name, json.loads(arguments))
        if args.replay:
            for _ in range(2):
                await call(client, seen, "replay", args.replay[0], json.loads(args.replay[1]),
                           meta={"deskmate/idem_key": "mcp-replay-1"})
    seen["elicited"] = elicited
    seen["elicited_remember"] = offered_remember
    return seen


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", required=True)
    parser.add_argument("--url")
    parser.add_argument("--token")
    parser.add_argument("--ask", nargs=2)
    parser.add_argument("--never", nargs=2)
    parser.add_argument("--replay", nargs=2)
    parser.add_argument("--always", nargs=2, action="append")
    parser.add_argument("--stdio", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    if args.stdio:
        seen = await walk(StdioServerParameters(command=args.stdio[0], args=args.stdio[1:]), args)
    else:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {args.token}"},
                                  timeout=httpx2.Timeout(30, read=120))
        async with http:
            seen = await walk(streamable_http_client(args.url, http_client=http), args)
    json.dump(seen, sys.stdout)


anyio.run(main)
