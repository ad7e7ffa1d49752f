"""A small MCP server (stdio) whose one tool's description is read from a file at start:
rewriting the file and restarting the server changes the tool's definition, which
Deskmate must notice (trust on first use).

    changing_server.py DESCRIPTION_FILE
"""

import sys
from pathlib import Path

from typing import Annotated

from mcp.server.mcpserver import AcceptedElicitation, Elicit, ElicitationResult, MCPServer, Resolve
from pydantic import BaseModel

description = Path(sys.argv[1]).read_text().strip()
server = MCPServer("changing-fixture", version="1.0")


@server.tool(description=description)
def greet(name: str) -> str:
    return f"Hello, {name}!"


class Erase(BaseModel):
    confirm: bool


def ask_to_erase(record: str) -> Elicit[Erase]:
    return Elicit(f"Really erase {record}?", Erase)


# The question is asked the way the session's era asks: an `elicitation/create` request
# in the middle of the call (2025-11-25), or an `input_required` result that the client
# answers by calling again (2026-07-28).
@server.tool(description="Erases a record, after asking the person to confirm.")
async def erase(record: str, answer: Annotated[ElicitationResult[Erase], Resolve(ask_to_erase)]) -> str:
    if isinstance(answer, AcceptedElicitation) and answer.data.confirm:
        return f"erased {record}"
    return f"kept {record} ({answer.action})"


server.run()
