"""test_lowlevel.py's billing server, the one line after its handlers, run over stdio as `mcp-server-sqlite` runs
its low-level Server: test_lowlevel.py starts it as a client starts a server, the folder its notes are read from
as the first argument. The `mcp_envelope` logger writes to stderr."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import anyio
from mcp.server.stdio import stdio_server
from test_lowlevel import billing


async def main(root: Path) -> None:
    server = billing(root)
    async with stdio_server() as (read, write):
        await server.run(read, write, server.create_initialization_options())


if __name__ == "__main__":
    logging.basicConfig(level=logging.ERROR, format="%(name)s %(message)s")
    anyio.run(main, Path(sys.argv[1]))
