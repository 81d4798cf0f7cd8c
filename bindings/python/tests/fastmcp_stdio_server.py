"""The tools of failing_tools.py on a FastMCP server with EnvelopeMiddleware, masking error details, over stdio:
test_fastmcp.py starts it as a client starts a server. The `mcp_envelope` logger writes to stderr."""

from __future__ import annotations

import logging

from failing_tools import TOOLS
from fastmcp import FastMCP

from mcp_envelope.fastmcp import EnvelopeMiddleware

logging.basicConfig(level=logging.ERROR, format="%(name)s %(message)s")
server = FastMCP("billing", middleware=[EnvelopeMiddleware()], mask_error_details=True)
for tool in TOOLS:
    server.tool(tool)

if __name__ == "__main__":
    server.run("stdio", show_banner=False)
