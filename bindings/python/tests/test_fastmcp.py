"""The real FastMCP 4 server with EnvelopeMiddleware, called by FastMCP's own client in memory and over stdio:
each tool of failing_tools.py, registered as an author registers it (no decorator of ours), must answer the
exact result listed there (the bytes EnvelopeMCPServer sends on both lines of the `mcp` SDK,
test_mcp_server_lines.py), whatever `mask_error_details` says; no failure leaves as a JSON-RPC error but the
unknown tool's, by default."""

from __future__ import annotations

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
from fastmcp import Client, Context, FastMCP
from fastmcp.client.transports import StdioTransport
from fastmcp.exceptions import ToolError as FastMCPToolError
from fastmcp.server.middleware.error_handling import ErrorHandlingMiddleware
from mcp.shared.exceptions import MCPError

import mcp_envelope as me
from mcp_envelope.fastmcp import EnvelopeMiddleware, LedgerRequest, returning_results
from mcp_envelope.server import Ledger, forbidden, unknown_tool

STDIO_SERVER = Path(__file__).with_name("fastmcp_stdio_server.py")


def lock_invoice(invoice_id: str) -> str:
    """Raises FastMCP's own ToolError, its text written for the model."""
    raise FastMCPToolError(f"Invoice {invoice_id} is locked by another refund.")


def server(*middleware: Any, mask: bool = False, tools: list[Any] = TOOLS) -> FastMCP:
    """A FastMCP server with the tools, registered as they are."""
    built = FastMCP("billing", middleware=list(middleware), mask_error_details=mask)
    for tool in tools:
        built.tool(tool)
    return built


def calls(target: Any, *steps: tuple[str, dict[str, Any]]) -> list[Any]:
    """Each call's result as the client received it (`sent`), or the JSON-RPC error the client raised
    (`answered`)."""
    return anyio.run(calling, target, *steps)


async def calling(target: Any, *steps: tuple[str, dict[str, Any]]) -> list[Any]:
    """`calls`, awaited."""
    async with Client(target) as client:
        received: list[Any] = []
        for name, arguments in steps:
            try:
                result = await client.call_tool_mcp(name, arguments)
            except MCPError as error:
                received.append(answered(error))
                continue
            received.append(sent(result.model_dump(mode="json", by_alias=True, exclude_none=True)))
        return received


@pytest.mark.parametrize("mask", [False, True], ids=["unmasked", "masked"])
@pytest.mark.parametrize("beneath", [(), (ErrorHandlingMiddleware(),)], ids=["alone", "over-ErrorHandling"])
def test_every_failure_is_answered_with_its_exact_result(caplog, mask, beneath):
    with caplog.at_level(logging.ERROR, logger="mcp_envelope"):
        received = calls(server(EnvelopeMiddleware(), *beneath, mask=mask), *((t, a) for t, a, _ in CALLS))
    for (tool, arguments, expected), result in zip(CALLS, received, strict=False):
        assert result == expected_result(tool, expected, result), (tool, arguments)
        assert SECRET not in str(result)
    crashed = me.parse_envelope(received[[tool for tool, _, _ in CALLS].index("charge")])["error"]["correlationId"]
    assert f"RuntimeError: could not open the card vault with {SECRET}" in logged_line(caplog.records, crashed)


@pytest.mark.parametrize("mask", [False, True], ids=["unmasked", "masked"])
def test_a_fastmcp_tool_error_is_its_text_under_a_code(mask):
    built = server(EnvelopeMiddleware(), mask=mask, tools=[lock_invoice])
    [result] = calls(built, ("lock_invoice", {"invoice_id": "inv_9"}))
    assert result == LOCKED  # what EnvelopeMCPServer answers the mcp SDK's ToolError with
    assert me.parse_envelope(result)["message"] == LOCKED_MESSAGE


def test_without_the_middleware_fastmcp_sends_the_exception_text_or_a_json_rpc_error():
    """What the middleware replaces, in the pinned FastMCP: exception text unless masked, pydantic's own words,
    and under ErrorHandlingMiddleware JSON-RPC errors the model never reads."""
    steps = [("charge", {"amount_cents": 1}), ("refund", {"order_id": "A"}), ("get_invoices", {})]
    plain = calls(server(), *steps)
    assert plain[0]["content"][0]["text"] == f"Error calling tool 'charge': could not open the card vault with {SECRET}"
    assert plain[1]["content"][0]["text"].startswith("2 validation errors for call[refund]")
    assert plain[2]["content"][0]["text"] == "Unknown tool: 'get_invoices'"
    handled = calls(server(ErrorHandlingMiddleware()), *steps)
    assert [answer["error"]["code"] for answer in handled] == [-32603, -32602, -32001]


def test_an_extra_argument_fastmcp_refuses_is_named():
    """FastMCP lists `additionalProperties: false` and refuses an unknown key; the mcp SDK ignores one."""
    [result] = calls(server(EnvelopeMiddleware()), ("refund", {"order_id": "A-8812", "amount_cents": 1, "note": "x"}))
    assert result["content"][0]["text"] == (
        '<validation_error action="refund">\n'
        "  <field name=\"(arguments)\">Unrecognized key 'note'. You sent: 'note'. Expected only the declared keys; "
        "remove it.</field>\n"
        "  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n"
        "</validation_error>"
    )


def test_good_arguments_reach_the_tool_and_a_success_passes_the_ledger():
    with Ledger() as ledger:
        built = server(EnvelopeMiddleware(ledger=ledger))
        [result] = calls(built, ("refund", {"order_id": "A-8812", "amount_cents": 300}))
    assert result["isError"] is False and result["content"] == [{"type": "text", "text": "refunded 300 on A-8812"}]


@pytest.mark.parametrize("shared", [False, True], ids=["Ledger", "SharedLedger"])
@pytest.mark.parametrize("stop_after", [1, 2])
def test_the_ledger_answers_a_repeated_failure_shorter_then_with_a_stop(stop_after, shared):
    """The same results EnvelopeMCPServer sends (test_mcp_server_lines.py), from a Ledger and from a SharedLedger
    (its streaks in a store replicas share; here the in-memory one)."""
    from mcp_envelope.stores import MemoryStore, SharedLedger

    steps = [("get_invoice", {"invoice_id": "inv_9"})] * 3 + [("lock_invoice", {"invoice_id": "inv_9"})] * 2
    tools = [*TOOLS, lock_invoice]
    chosen = SharedLedger(MemoryStore(), "c", stop_after=stop_after) if shared else Ledger(stop_after=stop_after)
    received = calls(server(EnvelopeMiddleware(ledger=chosen), tools=tools), *steps)
    error = me.ToolError("NOT_FOUND", "No invoice with that ID", available_actions=["billing.list_invoices"],
                         details={"requestedId": "inv_9"})  # fmt: skip
    with Ledger(stop_after=stop_after) as ledger:
        assert received[:3] == [ledger.failure("get_invoice", error, arguments={"invoice_id": "inv_9"}) for _ in "123"]
        locked = me.ToolError("TOOL_ERROR", "Invoice inv_9 is locked by another refund.")
        assert received[3:] == [ledger.failure("lock_invoice", locked, arguments={"invoice_id": "inv_9"}) for _ in "12"]
    assert me.parse_envelope(received[2])["severity"] == "critical"
    assert me.parse_envelope(received[4])["message"].startswith(("Nothing has changed", "Stop retrying"))


def test_a_ledger_chosen_per_call_gets_the_request_with_fastmcps_context():
    seen: list[LedgerRequest] = []

    def choose(request: LedgerRequest) -> Ledger | None:
        seen.append(request)
        return None

    calls(server(EnvelopeMiddleware(ledger=choose)), ("get_invoice", {"invoice_id": "inv_9"}))
    [request] = seen
    assert isinstance(request.context, Context)
    assert request.conversation is None and request.headers is None


def test_a_disabled_tool_is_unknown_and_missing_from_the_list():
    built = server(EnvelopeMiddleware(), tools=TOOLS[:3])
    built.disable(names={"charge"})
    [result] = calls(built, ("charge", {"amount_cents": 1}))
    assert result == unknown_tool("charge", ["get_invoice", "refund"])
    assert result["error"]["message"] == "Unknown tool: charge. This server's tools: get_invoice, refund."


@pytest.mark.parametrize("beneath", [(), (ErrorHandlingMiddleware(),)], ids=["alone", "over-ErrorHandling"])
def test_an_unknown_tool_is_the_json_rpc_error_naming_the_tools_by_default(beneath):
    """The MCP specification's answer (-32602) with the core's message and data, as FastMCP's client raises it:
    the same as EnvelopeMCPServer's (test_mcp_server_lines.py)."""
    [default] = calls(server(EnvelopeMiddleware(), *beneath), ("get_invoices", {}))
    [chosen] = calls(server(EnvelopeMiddleware(unknown_tool="protocol-error")), ("get_invoices", {}))
    assert default == chosen == {"error": UNKNOWN_ERROR}


def test_as_a_tool_result_an_unknown_tool_is_the_unknown_action_envelope_outside_the_ledger():
    with Ledger() as ledger:
        built = server(EnvelopeMiddleware(unknown_tool="tool-result", ledger=ledger))
        received = calls(built, ("get_invoices", {}), ("get_invoices", {}))
    assert received == [{"content": [{"type": "text", "text": UNKNOWN_TEXT}], "isError": True}] * 2


def test_the_unknown_tool_option_is_checked_by_the_core_where_the_middleware_is_made():
    with pytest.raises(me.SpecError) as refused:
        EnvelopeMiddleware(unknown_tool="result")  # type: ignore[arg-type]
    assert str(refused.value) == "answer: unknown variant `result`, expected `protocol-error` or `tool-result`"


def test_without_the_middleware_a_helpers_result_is_sent_as_json_data():
    """What the middleware's transform (ReturnedEnvelopes) changes: FastMCP alone sees a dict and sends it as
    data, and a returned ToolError as its str."""
    steps = [("refund_blocked", {"order_id": "A-8812"}), ("returns_error", {"invoice_id": "inv_9"})]
    blocked, returned = calls(server(), *steps)
    assert blocked["isError"] is False
    assert blocked["structuredContent"] == forbidden("refund", "order A-8812")
    assert returned == {"content": [{"type": "text", "text": '"NOT_FOUND: No invoice inv_9"'}], "isError": False}


def test_a_returned_envelope_is_sent_as_itself_with_or_without_returning_results():
    plain = FastMCP("billing", middleware=[EnvelopeMiddleware()])
    decorated = FastMCP("billing", middleware=[EnvelopeMiddleware()])
    names = ["refund_blocked", "find_nothing", "returns_error", "slow_down"]
    for name in names:
        plain.tool(TOOLS[NAMES.index(name)])
        decorated.tool(returning_results(TOOLS[NAMES.index(name)]))
    steps = [(tool, arguments) for tool, arguments, _ in CALLS if tool in names]
    expected = [result for tool, _, result in CALLS if tool in names]
    assert calls(plain, *steps) == calls(decorated, *steps) == expected


def test_the_middleware_leaves_tools_list_as_it_is():
    async def listed(built: FastMCP) -> list[dict[str, Any]]:
        async with Client(built) as client:
            await client.call_tool_mcp("find_nothing", {"email": "jo@example.com"})  # the transform is added
            return [
                tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in await client.list_tools()
            ]

    assert anyio.run(listed, server(EnvelopeMiddleware())) == anyio.run(listed, server())


def test_over_stdio_every_failure_is_answered_with_its_exact_result(tmp_path):
    """A FastMCP server run as its own process (fastmcp_stdio_server.py, masking error details), as a client
    starts one: the exception's text is in its log on stderr, not in what the model reads."""
    log = tmp_path / "server.log"
    received = calls(StdioTransport(sys.executable, [str(STDIO_SERVER)], log_file=log),
                     *((tool, arguments) for tool, arguments, _ in CALLS))  # fmt: skip
    assert_answered_over_stdio(received, log.read_text())


def test_with_a_lockfile_a_validation_error_tells_what_changed_in_the_tool():
    async def today() -> list[dict[str, Any]]:
        async with Client(server()) as client:
            return [
                tool.model_dump(mode="json", by_alias=True, exclude_none=True) for tool in await client.list_tools()
            ]

    lockfile = locked_yesterday(anyio.run(today))
    (result,) = calls(server(EnvelopeMiddleware(lockfile=lockfile)), ("refund", {"order_id": "ab"}))
    assert result["content"] == [{"type": "text", "text": LOCKED_REFUND_TEXT}]
    assert result["isError"] is True


@pytest.mark.parametrize("option", ["protocol-error", "tool-result"])
def test_over_streamable_http_every_failure_and_the_unknown_tool_are_answered_as_in_memory(option):
    """Served over Streamable HTTP on loopback (FastMCP's own http_app) and called by FastMCP's HTTP client: the
    JSON-RPC error keeps the core's code, message and data."""
    built = server(EnvelopeMiddleware(unknown_tool=option), mask=True)
    steps = [(tool, arguments) for tool, arguments, _ in CALLS]
    received = anyio.run(served_over_http, built.http_app(), lambda url: calling(url, *steps))
    for (tool, arguments, expected), result in zip(CALLS, received, strict=True):
        if tool == "get_invoices" and option == "tool-result":
            expected = {"content": [{"type": "text", "text": UNKNOWN_TEXT}], "isError": True}
        assert result == expected_result(tool, expected, result), (tool, arguments)
