"""What a tool raised, classified by its structure (docs/python-integrations.md, "What a raised exception
becomes"): a real `EnvelopeMCPServer` (and FastMCP's middleware) called through the framework's own in-memory
client. First the rows one by one, with their exact texts; then the leak corpus: errors raised by real libraries
(SQLAlchemy over sqlite, requests, httpx, aiohttp, urllib, psycopg, json, open()) against loopback servers this
file starts, each answered with the most specific code its structure allows and no secret in anything the model
reads. No library is mocked and no text is written by hand in place of a library's."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import threading
import urllib.request
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import aiohttp
import anyio
import httpx
import psycopg
import pytest
import requests
import sqlalchemy
from failing_tools import sent
from fastmcp import Client as FastMCPClient
from fastmcp import FastMCP

import mcp_envelope as me
from mcp_envelope.fastmcp import EnvelopeMiddleware
from mcp_envelope.mcp_server import MCP1, EnvelopeMCPServer
from mcp_envelope.server import exception_result

if MCP1:
    from mcp.shared.memory import create_connected_server_and_client_session as connect
else:
    from mcp import Client as connect

# Each library's blocking step is bounded: no corpus call waits longer than this.
TIMEOUT_S = 0.5

# The recoveries and customer words the core gives each code, as the exact texts below quote them.
NOT_FOUND_RECOVERY = (
    "Check the identifier: look the item up or list the available ones, then call again with a real one."
)
NOT_FOUND_WORDS = "We couldn't find what you asked for."


def envelope(code: str, *lines: str) -> dict[str, Any]:
    """An `isError` result holding the `<tool_error>` of `code` with these inner lines."""
    inner = "".join(f"  {line}\n" for line in lines)
    return {"content": [{"type": "text", "text": f'<tool_error code="{code}" severity="error">\n{inner}</tool_error>'}],
            "isError": True}  # fmt: skip


def correlation_id(result: dict[str, Any]) -> str:
    """The correlation id an answer quotes (a fresh random one: the expected texts take it from the answer)."""
    reading = me.parse_envelope(result)
    assert reading is not None, result
    found: str = reading["error"]["correlationId"]
    return found


def internal(tool: str, result: dict[str, Any]) -> dict[str, Any]:
    """The INTERNAL_ERROR the core answers any exception of `tool` with, under the id `result` quotes."""
    return dict(exception_result(tool, "anything", correlation_id=correlation_id(result))["result"])


def code_of(result: dict[str, Any]) -> str | None:
    reading = me.parse_envelope(result)
    return None if reading is None else str(reading["code"])


def call_all(server: Any, steps: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """Each call's result as the SDK's client received it."""

    async def go() -> list[dict[str, Any]]:
        async with connect(server) as client:
            received = []
            for name, arguments in steps:
                result = await client.call_tool(name, arguments)
                received.append(sent(result.model_dump(mode="json", by_alias=True, exclude_none=True)))
            return received

    return anyio.run(go)


def served(tools: list[Callable[..., Any]], **options: Any) -> EnvelopeMCPServer:
    server = EnvelopeMCPServer("files", **options)
    for tool in tools:
        server.add_tool(tool)
    return server


# ---- the rows, one by one, with their exact texts ----


def file_tools(root: Path) -> list[Callable[..., Any]]:
    """A small file server over `root`: the path each tool takes is relative to it, as a model sends one."""

    def read_note(path: str) -> str:
        """Reads a note."""
        with open(root / path, encoding="utf-8") as note:
            return note.read()

    def make_folder(path: str) -> str:
        """Makes a folder."""
        os.mkdir(root / path)
        return "made"

    def refuse(invoice_id: str) -> str:
        """Raises its author's own words for the model."""
        raise Exception(f"Invoice {invoice_id} is archived; ask for a current one.")

    def parse_amount(amount: str) -> str:
        """Raises a ValueError: a kind of failure the code ran into, its text for a programmer."""
        return str(int(amount))

    return [read_note, make_folder, refuse, parse_amount]


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "notes").mkdir()
    return tmp_path


def test_each_row_answers_its_exact_text(root, caplog):
    steps = [
        ("refuse", {"invoice_id": "inv_9"}),
        ("read_note", {"path": "notes/missing.txt"}),
        ("make_folder", {"path": "notes"}),
        ("read_note", {"path": "notes"}),
        ("parse_amount", {"amount": "twelve"}),
    ]
    with caplog.at_level(logging.ERROR, logger="mcp_envelope"):
        words, missing, exists, folder, value = call_all(served(file_tools(root)), steps)
    assert words == envelope("TOOL_ERROR", "<message>Invoice inv_9 is archived; ask for a current one.</message>")
    assert missing == envelope(
        "NOT_FOUND",
        '<message>No file or folder exists at path "notes/missing.txt".</message>',
        f"<recovery>{NOT_FOUND_RECOVERY}</recovery>",
        f"<customer_message>{NOT_FOUND_WORDS}</customer_message>",
        f"<correlation_id>{correlation_id(missing)}</correlation_id>",
    )
    assert exists == envelope(
        "CONFLICT",
        '<message>Something already exists at path "notes".</message>',
        "<recovery>Read the current state again, then decide whether the change still applies.</recovery>",
        f"<correlation_id>{correlation_id(exists)}</correlation_id>",
    )
    assert folder == envelope(
        "VALIDATION_ERROR",
        '<message>A folder is at path "notes", where this call needs a file.</message>',
        "<recovery>Fix the arguments named above and call the tool again.</recovery>",
        f"<correlation_id>{correlation_id(folder)}</correlation_id>",
    )
    assert value == internal("parse_amount", value)
    # The server's resolved path, which the model never reads, is in the log line with the errno.
    logged = [r.getMessage() for r in caplog.records if correlation_id(missing) in r.getMessage()]
    assert logged[0].startswith(f'code=NOT_FOUND correlationId="{correlation_id(missing)}" tool="read_note"')
    assert str(root / "notes/missing.txt") in logged[0] and "FileNotFoundError" in logged[0]
    assert str(root) not in json.dumps([missing, exists, folder])


def test_hidden_thrown_messages_make_the_authors_words_an_internal_error(root, caplog):
    with caplog.at_level(logging.ERROR, logger="mcp_envelope"):
        [hidden] = call_all(served(file_tools(root), thrown_messages="hidden"), [("refuse", {"invoice_id": "inv_9"})])
    assert hidden == internal("refuse", hidden)
    [record] = [r for r in caplog.records if correlation_id(hidden) in r.getMessage()]
    assert record.getMessage() == (
        f'code=INTERNAL_ERROR correlationId="{correlation_id(hidden)}" tool="refuse" '
        'exception="Invoice inv_9 is archived; ask for a current one."'
    )
    assert record.exc_info is not None  # where it was raised, which the words alone do not say


def test_a_wrong_thrown_messages_option_stops_the_server_where_it_is_made():
    with pytest.raises(me.SpecError, match=r"^thrown_messages takes 'shown' or 'hidden', not 'strict' "):
        EnvelopeMCPServer("files", thrown_messages="strict")  # type: ignore[arg-type]
    with pytest.raises(me.SpecError, match="not 'quiet'"):
        EnvelopeMiddleware(thrown_messages="quiet")  # type: ignore[arg-type]


def test_fastmcps_middleware_answers_the_same_bytes(root):
    """FastMCP wraps what the tool raised in its own ToolError (masked or not); the middleware answers the original."""
    steps = [("refuse", {"invoice_id": "inv_9"}), ("read_note", {"path": "notes/missing.txt"})]

    async def go(server: FastMCP) -> list[dict[str, Any]]:
        async with FastMCPClient(server) as client:
            return [
                sent((await client.call_tool_mcp(name, arguments)).model_dump(mode="json", by_alias=True,
                                                                             exclude_none=True))
                for name, arguments in steps
            ]  # fmt: skip

    for options, mask in (({}, True), ({"thrown_messages": "hidden"}, False)):
        server = FastMCP("files", middleware=[EnvelopeMiddleware(**options)], mask_error_details=mask)
        for tool in file_tools(root):
            server.tool(tool)
        words, missing = anyio.run(go, server)
        if options:
            assert words == internal("refuse", words)
        else:
            assert words == call_all(served(file_tools(root)), steps[:1])[0]
        assert code_of(missing) == "NOT_FOUND" and 'path "notes/missing.txt"' in missing["content"][0]["text"]


# ---- the leak corpus ----

API_KEY = "sk-live-4f9a2b7c1d"
SSN = "078-05-1120"
PG_PASSWORD = "pg-Pa55-w0rd-91"


class Upstream(BaseHTTPRequestHandler):
    """A loopback HTTP service: /limited is 429 asking to wait 7 seconds, /private 401, /forbidden 403, /missing
    404, /down 503, anything else 200."""

    STATUS = {"/limited": 429, "/private": 401, "/forbidden": 403, "/missing": 404, "/down": 503}

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        status = self.STATUS.get(self.path.split("?")[0], 200)
        body = f"status {status} for {self.path}".encode()  # the request's key echoed back, as services do
        self.send_response(status)
        if status == 429:
            self.send_header("Retry-After", "7")
        if status == 401:
            self.send_header("WWW-Authenticate", 'Bearer realm="api"')
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def upstream() -> Iterator[str]:
    """The base URL of the loopback service, served from a thread for this module's tests."""
    service = ThreadingHTTPServer(("127.0.0.1", 0), Upstream)
    thread = threading.Thread(target=service.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{service.server_address[1]}"
    service.shutdown()
    service.server_close()


@pytest.fixture(scope="module")
def silent() -> Iterator[str]:
    """The base URL of a loopback port that takes connections (the kernel's backlog) and never answers."""
    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    listening.listen(16)
    yield f"http://127.0.0.1:{listening.getsockname()[1]}"
    listening.close()


@pytest.fixture(scope="module")
def closed_port() -> int:
    """A loopback port nothing listens on: connections to it are refused."""
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port: int = probe.getsockname()[1]
    probe.close()
    return port


def corpus(upstream: str, silent: str, closed: int) -> list[tuple[str, str, Callable[..., Any], dict[str, Any], str, list[str]]]:  # fmt: skip
    """(library, error, tool, arguments, the code the answer must carry, the secrets it must not hold). Each tool
    makes its library raise for real; the secrets are in what the library raised (its text, its URL, its row)."""
    refused = f"http://127.0.0.1:{closed}/v1/items?api_key={API_KEY}"

    def add_user(email: str) -> str:
        """A UNIQUE violation whose statement parameters hold another column's secret."""
        engine = sqlalchemy.create_engine("sqlite://")
        with engine.begin() as db:
            db.execute(sqlalchemy.text("CREATE TABLE users (email TEXT UNIQUE, ssn TEXT)"))
            insert = sqlalchemy.text("INSERT INTO users (email, ssn) VALUES (:email, :ssn)")
            db.execute(insert, {"email": email, "ssn": SSN})
            db.execute(insert, {"email": email, "ssn": SSN})
        return "added"

    def requests_refused() -> str:
        return requests.get(refused, timeout=TIMEOUT_S).text

    def httpx_refused() -> str:
        return httpx.get(refused, timeout=TIMEOUT_S).text

    async def aiohttp_refused() -> str:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=TIMEOUT_S)) as session:
            async with session.get(refused) as response:
                return await response.text()

    def requests_get(url: str) -> str:
        response = requests.get(url, timeout=TIMEOUT_S)
        response.raise_for_status()
        return response.text

    def httpx_get(url: str) -> str:
        return httpx.get(url, timeout=TIMEOUT_S).raise_for_status().text

    def httpx_private() -> str:
        return httpx.get(f"{upstream}/private?api_key={API_KEY}", timeout=TIMEOUT_S).raise_for_status().text

    async def aiohttp_get(url: str) -> str:
        async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=TIMEOUT_S)) as session:
            async with session.get(url, raise_for_status=True) as response:
                return await response.text()

    def urllib_forbidden() -> str:
        with urllib.request.urlopen(f"{upstream}/forbidden?api_key={API_KEY}", timeout=TIMEOUT_S) as response:
            return str(response.read())

    def report(dsn_host: str) -> str:
        with psycopg.connect(f"host={dsn_host} port={closed} dbname=app user=admin password={PG_PASSWORD} "
                             f"connect_timeout=2"):  # fmt: skip
            return "connected"

    def parse_settings() -> str:
        return str(json.loads(f'{{"token": "{API_KEY}", oops}}'))

    def sync() -> str:
        raise Exception(f"GET https://bot:hunter2@api.example.com/?token=abc failed with {API_KEY}")

    def load_config() -> str:
        with open(f"/srv/keys/{API_KEY}/config.json", encoding="utf-8") as config:
            return config.read()

    def lookup_key(name: str) -> str:
        return {"billing": API_KEY}[f"{name} with {API_KEY}"]

    keyed = f"?api_key={API_KEY}"
    return [
        ("SQLAlchemy (sqlite)", "IntegrityError, UNIQUE", add_user, {"email": "jo@example.com"}, "INTERNAL_ERROR", [SSN]),
        ("requests", "ConnectionError, refused", requests_refused, {}, "UPSTREAM_UNAVAILABLE", [API_KEY, f"127.0.0.1:{closed}"]),
        ("httpx", "ConnectError, refused", httpx_refused, {}, "UPSTREAM_UNAVAILABLE", [API_KEY, f"127.0.0.1:{closed}"]),
        ("aiohttp", "ClientConnectorError, refused", aiohttp_refused, {}, "UPSTREAM_UNAVAILABLE", [API_KEY, f"127.0.0.1:{closed}"]),
        ("requests", "HTTPError 429, Retry-After: 7", requests_get, {"url": f"{upstream}/limited{keyed}"}, "RATE_LIMITED", [API_KEY]),
        ("httpx", "HTTPStatusError 429, Retry-After: 7", httpx_get, {"url": f"{upstream}/limited{keyed}"}, "RATE_LIMITED", [API_KEY]),
        ("httpx", "HTTPStatusError 401", httpx_private, {}, "AUTH_REQUIRED", [API_KEY, upstream]),
        ("requests", "HTTPError 404", requests_get, {"url": f"{upstream}/missing{keyed}"}, "NOT_FOUND", [API_KEY]),
        ("aiohttp", "ClientResponseError 503", aiohttp_get, {"url": f"{upstream}/down{keyed}"}, "UPSTREAM_UNAVAILABLE", [API_KEY]),
        ("urllib", "HTTPError 403", urllib_forbidden, {}, "FORBIDDEN", [API_KEY, upstream]),
        ("httpx", "ReadTimeout, silent server", httpx_get, {"url": f"{silent}/slow{keyed}"}, "TIMEOUT", [API_KEY]),
        ("requests", "ReadTimeout, silent server", requests_get, {"url": f"{silent}/slow{keyed}"}, "TIMEOUT", [API_KEY]),
        ("aiohttp", "timeout, silent server", aiohttp_get, {"url": f"{silent}/slow{keyed}"}, "TIMEOUT", [API_KEY]),
        ("psycopg", "OperationalError, refused", report, {"dsn_host": "127.0.0.1"}, "INTERNAL_ERROR", [PG_PASSWORD, f"port {closed}"]),
        ("json", "JSONDecodeError", parse_settings, {}, "INTERNAL_ERROR", [API_KEY]),
        ("builtins", "Exception, the author's words", sync, {}, "TOOL_ERROR", ["hunter2", "token=abc", API_KEY]),
        ("open()", "FileNotFoundError, not an argument", load_config, {}, "NOT_FOUND", [API_KEY, "/srv/keys"]),
        ("builtins", "KeyError", lookup_key, {"name": "billing"}, "INTERNAL_ERROR", [API_KEY]),
    ]  # fmt: skip


def test_the_leak_corpus_leaks_no_secret_and_answers_the_most_specific_code(upstream, silent, closed_port, capsys):
    cases = corpus(upstream, silent, closed_port)
    server = served(list({tool.__name__: tool for _, _, tool, _, _, _ in cases}.values()))
    received = call_all(server, [(tool.__name__, arguments) for _, _, tool, arguments, _, _ in cases])
    rows, leaked, checked = [], [], 0
    for (library, error, tool, _, code, secrets), result in zip(cases, received, strict=True):
        read = json.dumps(result)  # everything the model reads: content, structured content, _meta
        found = [secret for secret in secrets if secret in read]
        checked += len(secrets)
        leaked += [(tool.__name__, secret) for secret in found]
        rows.append((library, error, code_of(result), "yes" if found else "no"))
        assert code_of(result) == code, (library, error, result)
        assert result["isError"] is True
    with capsys.disabled():
        print("\n| library | error | code answered | leaked? |\n|---|---|---|---|")
        for row in rows:
            print("| " + " | ".join(str(cell) for cell in row) + " |")
        print(f"leak corpus: {len(leaked)} of {checked} secrets leaked")
    assert leaked == []
    by_tool = {tool.__name__ + json.dumps(arguments): result for (_, _, tool, arguments, _, _), result in
               zip(cases, received, strict=True)}  # fmt: skip
    text = {key: result["content"][0]["text"] for key, result in by_tool.items()}
    # The author's words, their credentials scrubbed by the core.
    assert text["sync{}"] == (
        '<tool_error code="TOOL_ERROR" severity="error">\n'
        "  <message>GET https://[redacted]@api.example.com/?token=[redacted] failed with [redacted]</message>\n"
        "</tool_error>"
    )
    # The wait the service asked for, and the argument the URL came from, its key scrubbed.
    limited = text["requests_get" + json.dumps({"url": f"{upstream}/limited?api_key={API_KEY}"})]
    assert "<retry_after>7 seconds</retry_after>" in limited
    assert f'url "{upstream}/limited?api_key=[redacted]"' in limited
    missing = text["requests_get" + json.dumps({"url": f"{upstream}/missing?api_key={API_KEY}"})]
    assert f'<message>The service at url "{upstream}/missing?api_key=[redacted]" reported' in missing
    # A missing file no argument named: the core says so without the path.
    assert "<message>A file or folder this call needs does not exist.</message>" in text["load_config{}"]


def test_classification_reads_structure_only_and_imports_no_library():
    """A library the program never imported is never imported to check an exception (a subprocess, so this
    module's own imports do not count)."""
    import subprocess
    import sys

    script = (
        "import sys, errno\n"
        "from mcp_envelope._thrown import known_kind, author_words\n"
        "print(known_kind(FileNotFoundError(errno.ENOENT, 'No such file', 'a.txt')),"
        " known_kind(PermissionError('no errno')), known_kind(ValueError('ENOENT')),"
        " author_words(Exception('ENOENT: a.txt')), author_words(Exception({'k': 'v'})),"
        " author_words(RuntimeError('x')))\n"
        "print(sorted(m for m in ('httpx', 'httpx2', 'requests', 'aiohttp', 'psycopg', 'sqlalchemy')"
        " if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout == (
        "{'errno': 'ENOENT', 'path': 'a.txt'} {'errno': 'EACCES'} None ENOENT: a.txt None None\n[]\n"
    )


def test_a_timeout_of_asyncio_is_a_timeout():
    async def wait_briefly() -> str:
        await asyncio.wait_for(asyncio.sleep(1), timeout=0.01)
        return "done"

    [result] = call_all(served([wait_briefly]), [("wait_briefly", {})])
    assert code_of(result) == "TIMEOUT"


def test_envelope_errors_reads_the_same_structure_on_one_tool(root):
    """The per-tool decorator, called directly: the arguments are the call's keyword arguments."""
    from mcp_envelope.mcp_server import envelope_errors

    read_note, _, refuse, _ = file_tools(root)
    shown = sent(envelope_errors(refuse)(invoice_id="inv_9").model_dump(mode="json", by_alias=True, exclude_none=True))
    assert shown == envelope("TOOL_ERROR", "<message>Invoice inv_9 is archived; ask for a current one.</message>")
    hidden = envelope_errors(refuse, thrown_messages="hidden")(invoice_id="inv_9")
    assert code_of(hidden.model_dump(mode="json", by_alias=True, exclude_none=True)) == "INTERNAL_ERROR"
    missing = envelope_errors(read_note)(path="notes/missing.txt").model_dump(mode="json", by_alias=True)
    assert '<message>No file or folder exists at path "notes/missing.txt".</message>' in missing["content"][0]["text"]
    with pytest.raises(me.SpecError, match="not 'loud'"):
        envelope_errors(refuse, thrown_messages="loud")  # type: ignore[arg-type]
