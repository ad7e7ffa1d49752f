"""A small MCP server (stdio) whose one tool's description is read from a file at start:
rewriting the file and restarting the server changes the tool's definition, which
Deskmate must notice (trust on first use).

    changing_server.py DESCRIPTION_FILE
"""

import sys
from pathlib import Path

from mcp.server.mcpserver import MCPServer

description = Path(sys.argv[1]).read_text().strip()
server = MCPServer("changing-fixture", version="1.0")


@server.tool(description=description)
def greet(name: str) -> str:
    return f"Hello, {name}!"


server.run()
