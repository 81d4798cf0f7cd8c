"""Serves the `mcp` SDK's reference server for the conformance suite (examples/servers/everything-server, which
ships in the SDK's sdist) over Streamable HTTP at http://127.0.0.1:PORT/mcp, as it is (`plain`) or with
`EnvelopeMCPServer` in place of the SDK's `MCPServer` (`wrapped`), and prints one line, `listening`, on stdout
once it accepts connections.

    serve_everything.py plain|wrapped PORT

The sdist is downloaded once into conformance/.cache/python-sdk (gitignored) by pip, pinned by version and hash
(everything-server.txt); its hash is checked again on every start. The server's code is never committed here: it
is extracted from the sdist on every start, into a folder per mode. The wrapped copy differs from the plain one
by the one line a user adds to their server, inserted after the SDK's own import of `MCPServer`:

    from mcp_envelope.mcp_server import EnvelopeMCPServer as MCPServer

A copy of the file is edited rather than the SDK's class replaced in memory (`mcp.server.mcpserver.MCPServer =
...` before the import): that is the change a user makes, it touches nothing else in the process, and it fails
loudly here if the server no longer imports `MCPServer` that way.
"""

from __future__ import annotations

import hashlib
import io
import re
import shutil
import socket
import subprocess
import sys
import tarfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
PINNED = HERE / "everything-server.txt"
CACHE = HERE.parent / ".cache" / "python-sdk"
SERVER = "examples/servers/everything-server/mcp_everything_server/"
# The SDK's import of its server class, and the line the wrapped copy adds after it.
SDK_IMPORT = re.compile(r"^from mcp\.server\.mcpserver import [^\n]*\bMCPServer\b[^\n]*\n", re.MULTILINE)
ONE_LINE = "from mcp_envelope.mcp_server import EnvelopeMCPServer as MCPServer\n"


def pinned() -> tuple[str, str]:
    """The pinned version and sha256 of the sdist, read from everything-server.txt."""
    text = PINNED.read_text()
    found = re.search(r"^mcp==(\S+) --hash=sha256:([0-9a-f]{64})$", text, re.MULTILINE)
    if found is None:
        sys.exit(f"{PINNED}: no line 'mcp==VERSION --hash=sha256:HASH'")
    return found.group(1), found.group(2)


def sdist() -> Path:
    """The pinned sdist in the cache, downloaded by pip (which checks its hash) when missing; its hash checked."""
    version, sha256 = pinned()
    archive = CACHE / f"mcp-{version}.tar.gz"
    if not archive.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        command = [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
                   "--no-binary", ":all:", "--require-hashes", "-r", str(PINNED), "-d", str(CACHE)]  # fmt: skip
        subprocess.run(command, check=True, stdout=sys.stderr)
    digest = hashlib.sha256(archive.read_bytes()).hexdigest()
    if digest != sha256:
        archive.unlink()
        sys.exit(f"{archive}: sha256 {digest}, not the pinned {sha256}; removed, run again to download it anew")
    return archive


def extract(archive: Path, mode: str) -> Path:
    """The everything-server's package, extracted afresh into the cache folder of `mode`, with the one line
    added for `wrapped`; the folder to put on sys.path."""
    root = CACHE / mode
    shutil.rmtree(root, ignore_errors=True)
    package = root / "mcp_everything_server"
    package.mkdir(parents=True)
    prefix = archive.name.removesuffix(".tar.gz") + "/" + SERVER
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            if member.isfile() and member.name.startswith(prefix) and "/" not in member.name[len(prefix):]:
                source = tar.extractfile(member)
                assert source is not None
                (package / member.name[len(prefix):]).write_bytes(source.read())
    server = package / "server.py"
    if mode == "wrapped":
        text = server.read_text()
        imports = list(SDK_IMPORT.finditer(text))
        if len(imports) != 1:
            sys.exit(f"{server}: expected one import of MCPServer from mcp.server.mcpserver, found {len(imports)}")
        server.write_text(text[: imports[0].end()] + ONE_LINE + text[imports[0].end() :])
    return root


def announce_when_listening(port: int, stdout: io.TextIOBase) -> None:
    """Prints `listening` on the real stdout once the port accepts a connection."""
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            time.sleep(0.05)
    stdout.write("listening\n")
    stdout.flush()


def main() -> None:
    if len(sys.argv) != 3 or sys.argv[1] not in ("plain", "wrapped") or not sys.argv[2].isdigit():
        sys.exit("usage: serve_everything.py plain|wrapped PORT")
    mode, port = sys.argv[1], int(sys.argv[2])
    folder = extract(sdist(), mode)
    sys.path.insert(0, str(folder))
    # Only `listening` goes to stdout: uvicorn's access log, which it writes to sys.stdout, goes to stderr.
    stdout = sys.stdout
    sys.stdout = sys.stderr
    from mcp_everything_server.server import main as serve  # the server as its package's own CLI runs it

    threading.Thread(target=announce_when_listening, args=(port, stdout), daemon=True).start()
    serve(["--port", str(port), "--log-level", "WARNING"], standalone_mode=False)


if __name__ == "__main__":
    main()
