"""The tools of failing_tools.py on EnvelopeMCPServer (the `mcp` SDK's MCPServer, or FastMCP on its 1.x line) over
stdio: test_mcp_server_lines.py starts it as a client starts a server. The `mcp_envelope` logger writes to stderr."""

from __future__ import annotations

import logging

from failing_tools import TOOLS

from mcp_envelope.mcp_server import EnvelopeMCPServer

logging.basicConfig(level=logging.ERROR, format="%(name)s %(message)s")
server = EnvelopeMCPServer("billing")
for tool in TOOLS:
    server.add_tool(tool)

if __name__ == "__main__":
    server.run("stdio")
