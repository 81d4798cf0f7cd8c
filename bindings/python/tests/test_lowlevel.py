"""envelope_server on the `mcp` SDK's low-level `Server`, whichever line is installed: 2.x here (.venv), its
handlers given to the constructor; 1.x in .venv-mcp1 (scripts/test-python runs this file in both), its handlers
registered with the `@server.list_tools()` and `@server.call_tool()` decorators as `mcp-server-sqlite` registers
them. The SDK's own client calls a billing server written as such servers are (one `(name, arguments)` function
for every tool, content lists returned), plain and wrapped, the line before the decorators and after them, and
every answer must be the exact text listed here."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from failing_tools import SECRET, answered, sent
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

import mcp_envelope as me
from mcp_envelope.lowlevel import envelope_server
from mcp_envelope.mcp_server import MCP1, EnvelopeMCPServer
from mcp_envelope.server import Ledger, exception_result, unknown_tool

if MCP1:
    from mcp.server.lowlevel import Server
    from mcp.shared.exceptions import McpError as MCPError
    from mcp.shared.memory import create_connected_server_and_client_session as connect
    from mcp.types import CallToolRequest, CallToolResult, ErrorData, TextContent, Tool
else:
    from mcp import Client as connect
    from mcp.server.lowlevel import Server
    from mcp.shared.exceptions import MCPError
    from mcp_types import CallToolRequestParams, CallToolResult, ErrorData, ListToolsResult, TextContent, Tool

STDIO_SERVER = Path(__file__).with_name("lowlevel_stdio_server.py")

# The tools as `tools/list` sends them, each failing one way.
TOOLS: list[dict[str, Any]] = [
    {"name": "read_note", "description": "Reads a note.", "inputSchema": {
        "type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}},
    {"name": "get_invoice", "description": "Raises its author's words.", "inputSchema": {
        "type": "object", "properties": {"invoice_id": {"type": "string"}}, "required": ["invoice_id"]}},
    {"name": "refund", "description": "Refunds an order.", "inputSchema": {
        "type": "object", "required": ["order_id", "amount_cents"], "properties": {
            "order_id": {"type": "string", "minLength": 3}, "amount_cents": {"type": "integer", "minimum": 1}}}},
    {"name": "charge", "description": "Crashes holding a secret.", "inputSchema": {
        "type": "object", "properties": {"amount_cents": {"type": "integer"}}}},
    {"name": "lookup", "description": "Raises the SDK's JSON-RPC error.", "inputSchema": {
        "type": "object", "properties": {"field": {"type": "string"}}}},
    {"name": "refused_refund", "description": "Returns an error result of its own.", "inputSchema": {
        "type": "object", "properties": {}}},
]  # fmt: skip
NAMES = [tool["name"] for tool in TOOLS]

RECOVERY = "<recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>"
NOT_FOUND_RECOVERY = (
    "Check the identifier: look the item up or list the available ones, then call again with a real one."
)

UNKNOWN_ERROR = {
    "code": -32602,
    "message": f"Unknown tool: get_invoices. This server's tools: {', '.join(NAMES)}.",
    "data": {"code": "UNKNOWN_ACTION", "severity": "error", "errorCategory": "validation", "isRetryable": True,
             "reason": "No tool named 'get_invoices' on this server.",
             "recovery": "Call one of the available tools instead, with the arguments its input schema asks for.",
             "availableActions": NAMES},
}  # fmt: skip

REFUSED = {"content": [{"type": "text", "text": "Refunds are closed for today."}], "isError": True}


def text_result(text: str, *, error: bool) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "isError": error}


def envelope(code: str, *lines: str) -> dict[str, Any]:
    """An `isError` result holding the `<tool_error>` of `code` with these inner lines."""
    inner = "".join(f"  {line}\n" for line in lines)
    return text_result(f'<tool_error code="{code}" severity="error">\n{inner}</tool_error>', error=True)


def json_rpc_error(code: int, message: str) -> MCPError:
    """The SDK's exception for a JSON-RPC error, as a handler raises it on the installed line."""
    if MCP1:
        return MCPError(ErrorData(code=code, message=message))
    return MCPError(code, message)


def tool_function(root: Path) -> Any:
    """The author's one function for every tool, as low-level servers write it: content returned, errors raised."""

    async def call_tool(name: str, arguments: dict[str, Any]) -> list[TextContent] | CallToolResult:
        if name == "read_note":
            with open(root / arguments["path"], encoding="utf-8") as note:
                return [TextContent(type="text", text=note.read())]
        if name == "get_invoice":
            raise Exception(f"No invoice {arguments['invoice_id']}; list the invoices first.")
        if name == "refund":
            return [TextContent(type="text", text=f"refunded {arguments['amount_cents']} on {arguments['order_id']}")]
        if name == "charge":
            raise RuntimeError(f"could not open the card vault with {SECRET}")
        if name == "lookup":
            raise json_rpc_error(-32602, f"Unknown invoice field: {arguments.get('field')}")
        if name == "refused_refund":
            return CallToolResult.model_validate(REFUSED)
        raise ValueError(f"Unknown tool: {name}")

    return call_tool


def billing(root: Path, wrap: str | None = "after", **options: Any) -> Any:
    """The billing server, plain (`wrap` None) or with the one line before its handlers are registered or after."""
    answer = tool_function(root)
    if MCP1:
        server: Any = Server("billing")
        if wrap == "before":
            envelope_server(server, **options)

        @server.list_tools()
        async def list_tools() -> list[Tool]:
            return [Tool.model_validate(tool) for tool in TOOLS]

        @server.call_tool()
        async def call_tool(name: str, arguments: dict[str, Any]) -> Any:
            return await answer(name, arguments)

    else:

        async def on_list_tools(ctx: Any, params: Any) -> ListToolsResult:
            return ListToolsResult(tools=[Tool.model_validate(tool) for tool in TOOLS])

        async def on_call_tool(ctx: Any, params: Any) -> CallToolResult:
            value = await answer(params.name, params.arguments or {})
            return value if isinstance(value, CallToolResult) else CallToolResult(content=value)

        if wrap == "before":  # the tools/call handler added after the line, with the SDK's add_request_handler
            server = envelope_server(Server("billing", on_list_tools=on_list_tools), **options)
            server.add_request_handler("tools/call", CallToolRequestParams, on_call_tool)
        else:
            server = Server("billing", on_list_tools=on_list_tools, on_call_tool=on_call_tool)
    if wrap == "after":
        assert envelope_server(server, **options) is server
    return server


async def call(client: Any, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A call's result as the client received it (`sent`), or the JSON-RPC error it raised (`answered`)."""
    try:
        result = await client.call_tool(name, arguments)
    except MCPError as error:
        return answered(error)
    return sent(result.model_dump(mode="json", by_alias=True, exclude_none=True))


def calls(server: Any, *steps: tuple[str, dict[str, Any]]) -> list[dict[str, Any]]:
    async def go() -> list[dict[str, Any]]:
        async with connect(server) as client:
            return [await call(client, name, arguments) for name, arguments in steps]

    return anyio.run(go)


def listed(server: Any) -> dict[str, Any]:
    async def go() -> dict[str, Any]:
        async with connect(server) as client:
            found = await client.list_tools()
            return sent(found.model_dump(mode="json", by_alias=True, exclude_none=True))

    return anyio.run(go)


def correlation_id(result: dict[str, Any]) -> str:
    reading = me.parse_envelope(result)
    assert reading is not None, result
    found: str = reading["error"]["correlationId"]
    return found


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "today.txt").write_text("Call the bank.", encoding="utf-8")
    return tmp_path


WRAPS = ["before", "after"]


@pytest.mark.parametrize("wrap", WRAPS)
def test_an_unknown_tool_is_the_json_rpc_error_naming_the_tools(root, wrap):
    [answer] = calls(billing(root, wrap), ("get_invoices", {}))
    assert answer == {"error": UNKNOWN_ERROR}


def test_as_a_tool_result_an_unknown_tool_is_the_unknown_action_envelope(root):
    [answer] = calls(billing(root, unknown_tool="tool-result"), ("get_invoices", {}))
    assert answer == {"content": [{"type": "text", "text": unknown_tool("get_invoices", NAMES,
                      answer="tool-result")["result"]["content"][0]["text"]}], "isError": True}  # fmt: skip
    assert answer["content"][0]["text"].startswith('<tool_error code="UNKNOWN_ACTION" severity="error">\n')


@pytest.mark.parametrize("wrap", WRAPS)
def test_arguments_failing_the_listed_schema_get_a_validation_error_before_the_handler(root, wrap):
    wrong_type, missing, both = calls(
        billing(root, wrap),
        ("refund", {"order_id": "A-8812", "amount_cents": "300"}),
        ("refund", {"order_id": "A-8812"}),
        ("refund", {"order_id": "A", "amount_cents": 0}),
    )
    assert wrong_type == text_result(
        '<validation_error action="refund">\n'
        "  <field name=\"amount_cents\">Wrong type. You sent: '300'. Expected an integer.</field>\n"
        f"  {RECOVERY}\n"
        "</validation_error>",
        error=True,
    )
    assert missing == text_result(
        '<validation_error action="refund">\n'
        '  <field name="amount_cents">Missing required field. You sent: nothing. Expected an integer.</field>\n'
        f"  {RECOVERY}\n"
        "</validation_error>",
        error=True,
    )
    assert both == text_result(
        '<validation_error action="refund">\n'
        "  <field name=\"order_id\">Too short. You sent: 'A' (1 character). Expected at least 3 characters.</field>\n"
        '  <field name="amount_cents">Too small. You sent: 0. Expected at least 1.</field>\n'
        f"  {RECOVERY}\n"
        "</validation_error>",
        error=True,
    )


@pytest.mark.parametrize("wrap", WRAPS)
def test_what_the_handler_raises_is_read_by_its_structure(root, wrap, caplog):
    with caplog.at_level(logging.ERROR, logger="mcp_envelope"):
        words, missing, crashed = calls(
            billing(root, wrap),
            ("get_invoice", {"invoice_id": "inv_9"}),
            ("read_note", {"path": "notes/missing.txt"}),
            ("charge", {"amount_cents": 100}),
        )
    assert words == envelope("TOOL_ERROR", "<message>No invoice inv_9; list the invoices first.</message>")
    assert missing == envelope(
        "NOT_FOUND",
        '<message>No file or folder exists at path "notes/missing.txt".</message>',
        f"<recovery>{NOT_FOUND_RECOVERY}</recovery>",
        "<customer_message>We couldn't find what you asked for.</customer_message>",
        f"<correlation_id>{correlation_id(missing)}</correlation_id>",
    )
    assert crashed == exception_result("charge", "anything", correlation_id=correlation_id(crashed))["result"]
    assert SECRET not in str([words, missing, crashed])
    [line] = [r.getMessage() for r in caplog.records if correlation_id(crashed) in r.getMessage()]
    assert f"RuntimeError: could not open the card vault with {SECRET}" in line


@pytest.mark.parametrize("wrap", WRAPS)
def test_a_json_rpc_error_the_handler_raises_is_the_cores_rpc_error(root, wrap):
    [answer] = calls(billing(root, wrap), ("lookup", {"field": "colour"}))
    assert answer == envelope(
        "VALIDATION_ERROR",
        "<message>Unknown invoice field: colour</message>",
        "<recovery>Fix the arguments named above and call the tool again.</recovery>",
    )


def test_hidden_thrown_messages_keep_the_authors_words_in_the_log(root, caplog):
    with caplog.at_level(logging.ERROR, logger="mcp_envelope"):
        words, rpc = calls(
            billing(root, thrown_messages="hidden"), ("get_invoice", {"invoice_id": "inv_9"}), ("lookup", {})
        )
    assert words == exception_result("get_invoice", "-", correlation_id=correlation_id(words))["result"]
    assert rpc == exception_result("lookup", "-", correlation_id=correlation_id(rpc))["result"]


@pytest.mark.parametrize("wrap", WRAPS)
def test_what_the_handler_returns_is_sent_as_the_plain_server_sends_it(root, wrap):
    steps = [("refund", {"order_id": "A-8812", "amount_cents": 300}), ("refused_refund", {}),
             ("read_note", {"path": "notes/today.txt"})]  # fmt: skip
    wrapped = calls(billing(root, wrap), *steps)
    assert wrapped == calls(billing(root, None), *steps)
    assert wrapped == [
        text_result("refunded 300 on A-8812", error=False),
        REFUSED,
        text_result("Call the bank.", error=False),
    ]


def test_tools_list_is_the_plain_servers_byte_for_byte(root):
    plain = listed(billing(root, None))
    assert listed(billing(root, "before")) == listed(billing(root, "after")) == plain
    assert [tool["name"] for tool in plain["tools"]] == NAMES


def test_plain_the_sdk_answers_in_its_own_words(root):
    """What the wrapped server replaces: the SDK's own texts, the secret among them (1.x), or one JSON-RPC internal
    error for every failure (2.x), whose low-level server checks no arguments: there the handler ran on a string
    the listed schema refuses."""
    unknown, wrong_type, crashed = calls(
        billing(root, None),
        ("get_invoices", {}),
        ("refund", {"order_id": "A-8812", "amount_cents": "300"}),
        ("charge", {"amount_cents": 100}),
    )
    if MCP1:
        assert unknown == text_result("Unknown tool: get_invoices", error=True)
        assert wrong_type == text_result("Input validation error: '300' is not of type 'integer'", error=True)
        assert crashed == text_result(f"could not open the card vault with {SECRET}", error=True)
    else:  # no input check, and what the handler raised hidden behind one internal error
        assert unknown == crashed == {"error": {"code": -32603, "message": "Internal server error"}}
        assert wrong_type == text_result("refunded 300 on A-8812", error=False)


def test_a_repeated_failure_goes_through_the_ledger(root):
    steps = [("get_invoice", {"invoice_id": "inv_9"})] * 2
    received = calls(billing(root, ledger=Ledger()), *steps)
    first = envelope("TOOL_ERROR", "<message>No invoice inv_9; list the invoices first.</message>")
    with Ledger() as ledger:
        expected = [ledger.observe("get_invoice", first, arguments=steps[0][1]) or first for _ in steps]
    assert received == expected and received[1] != first


def test_what_is_not_a_low_level_server_is_refused_by_name(root):
    with pytest.raises(TypeError) as refused:
        envelope_server(EnvelopeMCPServer("billing"))  # type: ignore[type-var]
    assert str(refused.value) == (
        "envelope_server takes the mcp SDK's low-level Server (mcp.server.lowlevel.Server), not EnvelopeMCPServer: "
        "for MCPServer (FastMCP in mcp 1.x) use mcp_envelope.mcp_server.EnvelopeMCPServer"
    )
    with pytest.raises(ValueError) as twice:
        envelope_server(billing(root))
    assert str(twice.value) == "envelope_server was already called on this server: call it once, with every option"
    with pytest.raises(me.SpecError):
        envelope_server(Server("billing"), unknown_tool="result")  # type: ignore[arg-type]


@pytest.mark.skipif(not MCP1, reason="1.x's request handler map, which a server may fill by hand")
def test_a_handler_put_in_the_map_by_hand_has_what_it_raises_answered(root):
    server = billing(root, None)

    async def handle(request: Any) -> Any:
        raise Exception(f"No invoice {request.params.arguments['invoice_id']}; list the invoices first.")

    server.request_handlers[CallToolRequest] = handle
    envelope_server(server)
    words, unknown = calls(server, ("get_invoice", {"invoice_id": "inv_9"}), ("get_invoices", {}))
    assert words == envelope("TOOL_ERROR", "<message>No invoice inv_9; list the invoices first.</message>")
    assert unknown == {"error": UNKNOWN_ERROR}


def test_envelope_mcp_server_answers_a_raised_json_rpc_error_the_same_way():
    """The same rule under EnvelopeMCPServer, which shares the classifier."""
    server = EnvelopeMCPServer("billing")

    @server.tool()
    def lookup(field: str) -> str:
        raise json_rpc_error(-32602, f"Unknown invoice field: {field}")

    [answer] = calls(server, ("lookup", {"field": "colour"}))
    assert answer == envelope(
        "VALIDATION_ERROR",
        "<message>Unknown invoice field: colour</message>",
        "<recovery>Fix the arguments named above and call the tool again.</recovery>",
    )


def test_over_stdio_failures_are_envelopes_and_the_secret_stays_in_the_log(root, tmp_path):
    """The server run as its own process (lowlevel_stdio_server.py), started by the SDK's own stdio client as a
    host starts a server: the answers are the in-memory ones, and the crash's text is on stderr only."""
    log = tmp_path / "server.log"

    async def go() -> list[dict[str, Any]]:
        params = StdioServerParameters(command=sys.executable, args=[str(STDIO_SERVER), str(root)])
        with log.open("w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                return [
                    await call(session, name, arguments)
                    for name, arguments in [("get_invoices", {}), ("refund", {"order_id": "A-8812"}),
                                            ("get_invoice", {"invoice_id": "inv_9"}), ("charge", {})]
                ]  # fmt: skip

    unknown, missing, words, crashed = anyio.run(go)
    assert unknown == {"error": UNKNOWN_ERROR}
    assert missing["content"][0]["text"].startswith('<validation_error action="refund">\n')
    assert words == envelope("TOOL_ERROR", "<message>No invoice inv_9; list the invoices first.</message>")
    assert crashed == exception_result("charge", "anything", correlation_id=correlation_id(crashed))["result"]
    logged = log.read_text()
    assert f'mcp_envelope code=INTERNAL_ERROR correlationId="{correlation_id(crashed)}" tool="charge"' in logged
    assert f"RuntimeError: could not open the card vault with {SECRET}" in logged
