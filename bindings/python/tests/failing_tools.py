"""The tools every framework's integration test registers, one per way a call fails, and the exact result a
model must read for each: the same for the `mcp` SDK's two lines (test_mcp_server_lines.py) and for FastMCP
(test_fastmcp.py), so those tests prove that every framework sends the same bytes. Plain functions, no
framework imported here."""

from __future__ import annotations

import copy
import re
from typing import Annotated, Any

from pydantic import BaseModel, Field

import mcp_envelope as me
from mcp_envelope.contract import contract_lock
from mcp_envelope.server import empty_result, exception_result, forbidden

SECRET = "vault-password-hunter2"
NOW_MS = 1764374400000


def get_invoice(invoice_id: str) -> str:
    """Raises our ToolError."""
    raise (
        me.ToolError("NOT_FOUND", "No invoice with that ID")
        .with_actions("billing.list_invoices")
        .with_detail("requestedId", invoice_id)
    )


async def charge(amount_cents: int) -> str:
    """Raises an exception holding a secret."""
    raise RuntimeError(f"could not open the card vault with {SECRET}")


def refund(order_id: Annotated[str, Field(min_length=3)], amount_cents: Annotated[int, Field(ge=1)]) -> str:
    """Checks its arguments."""
    return f"refunded {amount_cents} on {order_id}"


class Invoice(BaseModel):
    total_cents: int


def parse_invoice(raw: str) -> str:
    """Fails pydantic's validation in its own body: no argument of the call is wrong."""
    Invoice.model_validate({"total_cents": f"{raw} with {SECRET}"})
    return raw


def broken_error(order_id: str) -> str:
    """Raises a ToolError the component refuses (an empty code)."""
    raise me.ToolError("", f"order {order_id} with {SECRET}")


def slow_down() -> me.ToolResult:  # no output schema: a warning carries no structured content
    """Warns but succeeds."""
    raise me.ToolError("DEPRECATED", "slow_down is deprecated; use throttle").with_severity("warning")


def refund_blocked(order_id: str) -> me.ToolResult:
    """Returns a helper's result."""
    return forbidden("refund", f"order {order_id}")


def find_nothing(email: str) -> me.ToolResult:
    """Returns a success made by a helper."""
    return empty_result("orders", query=f"for {email}")


def returns_error(invoice_id: str) -> me.ToolError:
    """Returns our ToolError rather than raising it."""
    return me.ToolError("NOT_FOUND", f"No invoice {invoice_id}")


def rate_limited(invoice_id: str) -> str:
    """Raises a ToolError asking for the ToolFailure metadata."""
    raise me.ToolError("RATE_LIMITED", "Too many lookups", retry_after=30, correlation_id="req_42").with_tool_failure(
        now=NOW_MS
    )


TOOLS = [get_invoice, charge, refund, parse_invoice, broken_error, slow_down, refund_blocked, find_nothing,
         returns_error, rate_limited]  # fmt: skip
NAMES = [tool.__name__ for tool in TOOLS]

# A call of a tool the server lacks, by default: the JSON-RPC error -32602, its message naming the tools and its
# data the UNKNOWN_ACTION envelope's JSON form (the core's unknown-tool).
UNKNOWN_ERROR = {
    "code": -32602,
    "message": f"Unknown tool: get_invoices. This server's tools: {', '.join(NAMES)}.",
    "data": {"code": "UNKNOWN_ACTION", "severity": "error", "errorCategory": "validation", "isRetryable": True,
             "reason": "No tool named 'get_invoices' on this server.",
             "recovery": "Call one of the available tools instead, with the arguments its input schema asks for.",
             "availableActions": NAMES},
}  # fmt: skip

# The same call under the option `unknown_tool="tool-result"`: that envelope as an isError result.
UNKNOWN_TEXT = (
    '<tool_error code="UNKNOWN_ACTION" severity="error">\n'
    "  <message>No tool named 'get_invoices' on this server.</message>\n"
    "  <recovery>Call one of the available tools instead, with the arguments its input schema asks for.</recovery>\n"
    "  <available_actions>\n"
    + "".join(f"    <action>{name}</action>\n" for name in NAMES)
    + "  </available_actions>\n"
    "</tool_error>"
)  # fmt: skip

# The component's exception_result for the tool, under the correlation id the answer quotes (a random one).
INTERNAL = "INTERNAL_ERROR"

# (tool, arguments, the result the model must read).
CALLS: list[tuple[str, dict[str, Any], dict[str, Any] | str]] = [
    ("get_invoice", {"invoice_id": "inv_9"}, me.ToolError("NOT_FOUND", "No invoice with that ID",
     available_actions=["billing.list_invoices"], details={"requestedId": "inv_9"}).to_result()),
    ("refund", {"order_id": "A", "amount_cents": 0}, {"content": [{"type": "text", "text": (
        '<validation_error action="refund">\n'
        "  <field name=\"order_id\">Too short. You sent: 'A' (1 character). Expected at least 3 characters.</field>\n"
        '  <field name="amount_cents">Too small. You sent: 0. Expected at least 1.</field>\n'
        "  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n"
        "</validation_error>")}], "isError": True}),
    ("refund", {"order_id": "A-8812"}, {"content": [{"type": "text", "text": (
        '<validation_error action="refund">\n'
        '  <field name="amount_cents">Missing required field. You sent: nothing. Expected an integer.</field>\n'
        "  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n"
        "</validation_error>")}], "isError": True}),
    ("charge", {"amount_cents": 100}, INTERNAL),
    ("parse_invoice", {"raw": "x"}, INTERNAL),
    ("broken_error", {"order_id": "A-1"}, INTERNAL),
    ("slow_down", {}, me.ToolError("DEPRECATED", "slow_down is deprecated; use throttle",
                                   severity="warning").to_result()),
    ("refund_blocked", {"order_id": "A-8812"}, forbidden("refund", "order A-8812")),
    ("find_nothing", {"email": "jo@example.com"}, empty_result("orders", query="for jo@example.com")),
    ("returns_error", {"invoice_id": "inv_9"}, me.ToolError("NOT_FOUND", "No invoice inv_9").to_result()),
    ("rate_limited", {"invoice_id": "inv_9"}, me.ToolError("RATE_LIMITED", "Too many lookups", retry_after=30,
     correlation_id="req_42", tool_failure=NOW_MS).to_result()),
    ("get_invoices", {}, {"error": UNKNOWN_ERROR}),
]  # fmt: skip

# A framework's own error for the model (the mcp SDK's ToolError, FastMCP's), raised with this text by a tool
# `lock_invoice` of each framework's test, answered by every integration with the core's user_error: these bytes.
LOCKED_MESSAGE = "Invoice inv_9 is locked by another refund."
LOCKED = {"content": [{"type": "text", "text": (
    '<tool_error code="TOOL_ERROR" severity="error">\n'
    f"  <message>{LOCKED_MESSAGE}</message>\n"
    "</tool_error>")}], "isError": True}  # fmt: skip


def answered(error: Any) -> dict[str, Any]:
    """A JSON-RPC error the client raised (the SDK's MCPError, or McpError in 1.x), as `{"error": {"code",
    "message", "data"}}`: the shape of the core's unknown-tool answer."""
    return {"error": error.error.model_dump(mode="json", exclude_none=True)}


async def served_over_http(app: Any, talk: Any) -> Any:
    """`await talk(url)` while the Starlette app of a server (its Streamable HTTP app) is served by uvicorn on a
    free loopback port: a real HTTP transport, the server's own lifespan included."""
    import socket

    import anyio
    import uvicorn

    listening = socket.socket()
    listening.bind(("127.0.0.1", 0))
    port = listening.getsockname()[1]
    web = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(web.serve, [listening])
        while not web.started:
            await anyio.sleep(0.01)
        try:
            return await talk(f"http://127.0.0.1:{port}/mcp")
        finally:
            web.should_exit = True


def sent(wire: dict[str, Any]) -> dict[str, Any]:
    """A result as the client received it (the SDK model dumped by alias, None left out), without what the
    framework adds to every result: the 2026-07-28 protocol's `resultType` and the serverInfo in `_meta`."""
    wire = dict(wire)
    wire.pop("resultType", None)
    meta = {k: v for k, v in wire.pop("_meta", {}).items() if k != "io.modelcontextprotocol/serverInfo"}
    return wire | ({"_meta": meta} if meta else {})


def expected_result(tool: str, expected: dict[str, Any] | str, received: dict[str, Any]) -> dict[str, Any]:
    """The result a call of `tool` must answer: `expected`, or for INTERNAL the component's exception_result
    under the correlation id `received` quotes, which must be a fresh one (nothing of the exception is in it)."""
    if not isinstance(expected, str):
        return expected
    reading = me.parse_envelope(received)
    assert reading is not None and reading["code"] == expected, received
    correlation_id = reading["error"]["correlationId"]
    assert re.fullmatch(r"err_[0-9a-f]{12}", correlation_id)
    return exception_result(tool, "anything at all", correlation_id=correlation_id)["result"]


def assert_answered_over_stdio(received: list[dict[str, Any]], log: str) -> None:
    """`received`, the answers to CALLS from a server run as its own process, are the exact results, none holds
    the secret, and the server's log on stderr (`log`) holds the exception the model never read."""
    for (tool, arguments, expected), result in zip(CALLS, received, strict=True):
        assert result == expected_result(tool, expected, result), (tool, arguments)
        assert SECRET not in str(result)
    crashed = me.parse_envelope(received[[tool for tool, _, _ in CALLS].index("charge")])["error"]["correlationId"]
    assert f'mcp_envelope code=INTERNAL_ERROR correlationId="{crashed}" tool="charge"' in log
    assert f"RuntimeError: could not open the card vault with {SECRET}" in log


def logged_line(records: list[Any], correlation_id: str) -> str:
    """The one line the `mcp_envelope` logger got for the exception answered under `correlation_id`: the core's
    log line, which alone holds the exception (its traceback, on one line)."""
    [record] = [r for r in records if r.name == "mcp_envelope" and correlation_id in r.getMessage()]
    assert record.correlation_id == correlation_id
    line: str = record.getMessage()
    assert line.startswith(f'code=INTERNAL_ERROR correlationId="{correlation_id}" tool="') and "\n" not in line
    return line


def locked_yesterday(listed: list[dict[str, Any]]) -> str:
    """The lockfile of the contract a model learned yesterday, from today's tools as `tools/list` sends them:
    `refund` then took no `amount_cents`, and an `order_id` of at least 5 characters (so today it has a new
    required field, BREAKING, and a looser order_id, SAFE: the model hears only the first)."""
    tools = copy.deepcopy(listed)
    schema = next(tool for tool in tools if tool["name"] == "refund")["inputSchema"]
    del schema["properties"]["amount_cents"]
    schema["required"] = ["order_id"]
    schema["properties"]["order_id"]["minLength"] = 5
    return contract_lock(tools)


# refund({"order_id": "ab"}) on a server given that lockfile: the same bytes from every integration.
LOCKED_REFUND_TEXT = (
    '<validation_error action="refund">\n'
    "  <field name=\"order_id\">Too short. You sent: 'ab' (2 characters). Expected at least 3 characters.</field>\n"
    '  <field name="amount_cents">Missing required field. You sent: nothing. Expected an integer.</field>\n'
    "  <contract_awareness>\n"
    '    <delta severity="BREAKING" action="refund" field="amount_cents">amount_cents is a new required field</delta>\n'
    "  </contract_awareness>\n"
    "  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n"
    "</validation_error>"
)
