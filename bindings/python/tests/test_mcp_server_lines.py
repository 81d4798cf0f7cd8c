"""EnvelopeMCPServer on whichever line of the `mcp` SDK is installed: 2.x's MCPServer here (.venv), 1.x's FastMCP
in .venv-mcp1 (scripts/test-python runs this file in both). The SDK's own in-memory client calls each tool of
failing_tools.py, and every answer must be the exact result listed there: the same bytes from both lines, and
from FastMCP (test_fastmcp.py)."""

from __future__ import annotations

import json
import logging
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest
from failing_tools import (
    CALLS,
    LOCKED,
    LOCKED_MESSAGE,
    LOCKED_REFUND_TEXT,
    NAMES,
    SECRET,
    TOOLS,
    UNKNOWN_ERROR,
    UNKNOWN_TEXT,
    answered,
    assert_answered_over_stdio,
    expected_result,
    locked_yesterday,
    logged_line,
    sent,
    served_over_http,
)
from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

import mcp_envelope as me
from mcp_envelope.contract import contract_diff, contract_lock
from mcp_envelope.mcp_server import MCP1, EnvelopeMCPServer, LedgerRequest
from mcp_envelope.server import Ledger, unknown_tool

STDIO_SERVER = Path(__file__).with_name("mcp_stdio_server.py")

if MCP1:
    from importlib.metadata import version

    from mcp.server.fastmcp import FastMCP as SDKServer
    from mcp.server.fastmcp.exceptions import ToolError as SDKToolError
    from mcp.shared.exceptions import McpError as MCPError
    from mcp.shared.memory import create_connected_server_and_client_session as connect
else:
    from mcp import Client as connect
    from mcp.server.mcpserver import MCPServer as SDKServer
    from mcp.server.mcpserver.exceptions import ToolError as SDKToolError
    from mcp.shared.exceptions import MCPError


def test_the_line_under_test_is_the_one_pinned():
    if MCP1:
        assert version("mcp") == "1.30.0" and EnvelopeMCPServer.__mro__[1] is SDKServer
    else:
        assert EnvelopeMCPServer.__mro__[1].__name__ == "MCPServer"


def server(tools: list[Any] = TOOLS, **options: Any) -> EnvelopeMCPServer:
    built = EnvelopeMCPServer("billing", **options)
    for tool in tools:
        built.add_tool(tool)
    return built


async def call(client: Any, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """A call's result as the client received it (`sent`), or the JSON-RPC error it raised (`answered`)."""
    try:
        result = await client.call_tool(name, arguments)
    except MCPError as error:
        return answered(error)
    return sent(result.model_dump(mode="json", by_alias=True, exclude_none=True))


def calls(target: Any, *steps: tuple[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Each call's answer as the client received it (`call`)."""

    async def go() -> list[dict[str, Any]]:
        async with connect(target) as client:
            return [await call(client, name, arguments) for name, arguments in steps]

    return anyio.run(go)


def test_every_failure_is_answered_with_its_exact_result(caplog):
    with caplog.at_level(logging.ERROR, logger="mcp_envelope"):
        received = calls(server(), *((tool, arguments) for tool, arguments, _ in CALLS))
    for (tool, arguments, expected), result in zip(CALLS, received, strict=False):
        assert result == expected_result(tool, expected, result), (tool, arguments)
        assert SECRET not in str(result)
    crashed = me.parse_envelope(received[[tool for tool, _, _ in CALLS].index("charge")])["error"]["correlationId"]
    assert f"RuntimeError: could not open the card vault with {SECRET}" in logged_line(caplog.records, crashed)


def test_a_validation_error_raised_in_the_body_is_no_argument_failure(caplog):
    """1.x wraps a pydantic error of the body as it wraps the argument check's: told apart by the model named."""
    with caplog.at_level(logging.ERROR, logger="mcp_envelope"):
        [result] = calls(server(), ("parse_invoice", {"raw": "x"}))
    line = logged_line(caplog.records, me.parse_envelope(result)["error"]["correlationId"])
    assert "1 validation error for Invoice" in line


def lock_invoice(invoice_id: str) -> str:
    """Raises the SDK's own ToolError, its text written for the model."""
    raise SDKToolError(f"Invoice {invoice_id} is locked by another refund.")


def test_the_sdks_own_tool_error_is_its_text_under_tool_error_as_fastmcps_is(caplog):
    """The SDK's error for the model reads as FastMCP's under EnvelopeMiddleware (test_fastmcp.py: LOCKED), and
    nothing is logged: the author wrote it for the model."""
    with caplog.at_level(logging.INFO, logger="mcp_envelope"):
        [result] = calls(server(tools=[lock_invoice]), ("lock_invoice", {"invoice_id": "inv_9"}))
    assert result == LOCKED
    assert me.parse_envelope(result)["message"] == LOCKED_MESSAGE
    assert caplog.records == []


def test_the_sdks_tool_error_goes_through_the_ledger():
    with Ledger() as ledger:
        received = calls(
            server(tools=[lock_invoice], ledger=Ledger()), *[("lock_invoice", {"invoice_id": "inv_9"})] * 2
        )
        expected = [ledger.observe("lock_invoice", LOCKED, arguments={"invoice_id": "inv_9"}) or LOCKED for _ in "12"]
    assert received == expected and received[1] != LOCKED


def test_a_tool_error_the_sdk_raises_around_a_crash_is_no_text_for_the_model(caplog):
    with caplog.at_level(logging.ERROR, logger="mcp_envelope"):
        [result] = calls(server(), ("charge", {"amount_cents": 1}))
    assert result == expected_result("charge", "INTERNAL_ERROR", result)


def test_good_arguments_reach_the_tool():
    [result] = calls(server(), ("refund", {"order_id": "A-8812", "amount_cents": 300}))
    assert result["isError"] is False and result["content"] == [{"type": "text", "text": "refunded 300 on A-8812"}]


@pytest.mark.parametrize("stop_after", [1, 2])
def test_the_ledger_answers_a_repeated_failure_shorter_then_with_a_stop(stop_after):
    steps = [("get_invoice", {"invoice_id": "inv_9"})] * 3 + [("charge", {"amount_cents": 1})] * 2
    received = calls(server(ledger=Ledger(stop_after=stop_after)), *steps)
    error = me.ToolError("NOT_FOUND", "No invoice with that ID", available_actions=["billing.list_invoices"],
                         details={"requestedId": "inv_9"})  # fmt: skip
    with Ledger(stop_after=stop_after) as ledger:
        assert received[:3] == [ledger.failure("get_invoice", error, arguments={"invoice_id": "inv_9"}) for _ in "123"]
    assert me.parse_envelope(received[2])["severity"] == "critical"
    # An exception's INTERNAL_ERROR quotes a fresh correlation id each time: no repeat to collapse.
    assert [me.parse_envelope(r)["code"] for r in received[3:]] == ["INTERNAL_ERROR"] * 2


def test_a_ledger_chosen_per_call_gets_the_calls_request():
    seen: list[LedgerRequest] = []

    def choose(request: LedgerRequest) -> Ledger | None:
        seen.append(request)
        return None

    calls(server(ledger=choose), ("get_invoice", {"invoice_id": "inv_9"}))
    [request] = seen
    context = request.context
    assert type(context).__name__ == "Context" and context.request_context is not None
    # In process: no session, no headers, no conversation named.
    assert (request.conversation, request.session_id, request.headers) == (None, None, None)


def test_a_ledger_function_that_raises_leaves_the_call_without_a_ledger(caplog):
    def choose(request: LedgerRequest) -> Ledger | None:
        raise RuntimeError("no ledger today")

    with caplog.at_level(logging.WARNING, logger="mcp_envelope"):
        received = calls(server(ledger=choose), *[("get_invoice", {"invoice_id": "inv_9"})] * 3)
    assert len({json.dumps(r) for r in received}) == 1  # never a repeat, never a stop
    assert "the ledger function raised" in caplog.text


def test_an_unknown_tool_is_the_json_rpc_error_naming_the_tools_by_default():
    """The MCP specification's answer (-32602), as the SDK's client raises it: the core's message and data."""
    [default] = calls(server(), ("get_invoices", {}))
    [chosen] = calls(server(unknown_tool="protocol-error", ledger=Ledger()), ("get_invoices", {}))
    assert default == chosen == {"error": UNKNOWN_ERROR}
    assert default == unknown_tool("get_invoices", NAMES)


def test_a_direct_call_of_an_unknown_tool_raises_the_sdks_protocol_error():
    with pytest.raises(MCPError) as raised:
        anyio.run(server().call_tool, "get_invoices", {})
    assert answered(raised.value) == {"error": UNKNOWN_ERROR}


def test_the_unknown_tool_option_is_checked_by_the_core_where_the_server_is_built():
    with pytest.raises(me.SpecError) as refused:
        EnvelopeMCPServer("billing", unknown_tool="result")  # type: ignore[arg-type]
    assert str(refused.value) == "answer: unknown variant `result`, expected `protocol-error` or `tool-result`"


def test_as_a_tool_result_an_unknown_tool_names_the_tools_in_the_servers_format():
    [result] = calls(server(error_format="text", unknown_tool="tool-result"), ("get_invoices", {}))
    assert result["isError"] is True
    assert result["content"][0]["text"] == (
        "error_code: UNKNOWN_ACTION\n"
        "what_failed: No tool named 'get_invoices' on this server.\n"
        "next_action: Call one of the available tools instead, with the arguments its input schema asks for.\n"
        "retryable: true\n"
        f"available_actions: {json.dumps(NAMES, separators=(',', ':'))}"
    )


def test_with_a_lockfile_a_validation_error_tells_what_changed_in_the_tool():
    async def today() -> list[dict[str, Any]]:
        async with connect(server()) as client:
            listed = (await client.list_tools()).model_dump(mode="json", by_alias=True, exclude_none=True)
            return list(listed["tools"])

    lockfile = locked_yesterday(anyio.run(today))
    (result,) = calls(server(lockfile=lockfile), ("refund", {"order_id": "ab"}))
    assert result["content"] == [{"type": "text", "text": LOCKED_REFUND_TEXT}]
    assert result["isError"] is True


def test_a_lockfile_the_core_cannot_read_is_refused_at_start():
    with pytest.raises(me.SpecError) as refused:
        server(lockfile='{"tools": 3}')
    assert str(refused.value) == (
        'the lock has no "tools" array: give a tools/list result, its tools array or a lockfile'
    )


def test_a_running_server_s_tool_list_locks_as_its_json():
    async def listed() -> Any:
        async with connect(server()) as client:
            return await client.list_tools()

    tools = anyio.run(listed)  # the SDK's ListToolsResult, as a client gets it
    as_json = tools.model_dump(mode="json", by_alias=True, exclude_none=True)
    lockfile = contract_lock(tools)
    assert lockfile == contract_lock(as_json)
    assert json.loads(lockfile)["tools"][0]["name"] == "broken_error"  # sorted by name
    assert contract_diff(json.loads(lockfile), tools) == []


def test_over_stdio_every_failure_is_answered_with_its_exact_result(tmp_path):
    """EnvelopeMCPServer run as its own process (mcp_stdio_server.py), the SDK's own stdio client starting it as a
    host starts a server: every answer is the exact result, and the exception's text is in the server's log on
    stderr, never in what the model reads."""
    log = tmp_path / "server.log"

    async def go() -> list[dict[str, Any]]:
        params = StdioServerParameters(command=sys.executable, args=[str(STDIO_SERVER)])
        with log.open("w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                return [await call(session, tool, arguments) for tool, arguments, _ in CALLS]

    received = anyio.run(go)
    assert_answered_over_stdio(received, log.read_text())


@pytest.mark.parametrize("option", ["protocol-error", "tool-result"])
def test_over_streamable_http_an_unknown_tool_is_answered_as_the_option_says(option):
    """Served over Streamable HTTP on loopback and called by the SDK's own HTTP client: by default the JSON-RPC
    error with the core's code, message and data intact; as a tool result, the UNKNOWN_ACTION envelope."""

    async def talk(url: str) -> list[dict[str, Any]]:
        async with streamable_http_client(url) as (read, write, *_), ClientSession(read, write) as session:
            await session.initialize()
            return [await call(session, tool, arguments) for tool, arguments, _ in CALLS]

    received = anyio.run(served_over_http, server(unknown_tool=option).streamable_http_app(), talk)
    for (tool, arguments, expected), result in zip(CALLS, received, strict=True):
        if tool == "get_invoices" and option == "tool-result":
            expected = {"content": [{"type": "text", "text": UNKNOWN_TEXT}], "isError": True}
        assert result == expected_result(tool, expected, result), (tool, arguments)
