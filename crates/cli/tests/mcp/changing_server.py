"""A small MCP server (stdio) whose one tool's description is read from a file at start:
rewriting the file and restarting the server changes the tool's definition, which
Deskmate must notice (trust on first use).

    changing_server.py DESCRIPTION_FILE
"""

import sys
from pathlib import Path

from mcp.server.mcpserver import Context, MCPServer
from pydantic import BaseModel

description = Path(sys.argv[1]).read_text().strip()
server = MCPServer("changing-fixture", version="1.0")


@server.tool(description=description)
def greet(name: str) -> str:
    return f"Hello, {name}!"


class Erase(BaseModel):
    confirm: bool


@server.tool(description="Erases a record, after asking the person to confirm.")
async def erase(record: str, ctx: Context) -> str:
    answer = await ctx.elicit(f"Really erase {record}?", Erase)
    if answer.action == "accept" and answer.data.confirm:
        return f"erased {record}"
    return f"kept {record} ({answer.action})"


server.run()
