"""One channel for every outcome: a result any of the package's helpers made (a
ToolResult) that a tool returns reaches a real `mcp` client as itself, on an
EnvelopeMCPServer and through `envelope_errors` on a plain MCPServer; a call of
a tool the server does not list is the core's answer naming the listed tools, a
JSON-RPC error by default and the UNKNOWN_ACTION result as an option (the same
bytes the JS integration sends, test/mcp.test.mjs)."""

from __future__ import annotations

from typing import Any, Literal

import anyio
import pytest
from mcp import Client
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from pydantic import BaseModel, EmailStr, ValidationError

import mcp_envelope as me
from mcp_envelope.mcp_server import EnvelopeMCPServer, envelope_errors
from mcp_envelope.raw import validation_spec
from mcp_envelope.server import Ledger, auth_required, empty_result, exception_result, forbidden, unknown_tool

# What each tool returns, made by the helper itself: the client must receive exactly this.
RESULTS: dict[str, Any] = {
    "tool_error": lambda: me.tool_error("NOT_FOUND", "No invoice inv_9", available_actions=["billing.list_invoices"]),
    "to_result": lambda: me.ToolError("RATE_LIMITED", "Too many lookups", retry_after=30).to_result(),
    "to_result_json": lambda: me.ToolError("CONFLICT", "Order changed").to_result("json"),
    "empty_result": lambda: empty_result("orders", query="for jo@example.com"),
    "partial_result": lambda: me.partial_result(
        {
            "obtained": ["A: 3 filings"],
            "failed": [{"item": "Company C", "code": "FORBIDDEN"}],
        }
    ),
    "forbidden": lambda: forbidden("refund", "order A-8812"),
    "auth_required": lambda: auth_required(),
    "validation_error": lambda: me.validation_error(
        "refund", [{"path": ["amount_cents"], "code": "too_small", "origin": "number", "minimum": 1, "input": 0}]
    ),
    "unknown_tool": lambda: unknown_tool("refund_orders", ["refund_order"], answer="tool-result")["result"],
    "exception_result": lambda: exception_result("charge", "vault down", correlation_id="req-7")["result"],
    "warning": lambda: me.ToolError("DEPRECATED", "use find", severity="warning").to_result(),
}


def returning(name: str, make: Any, asynchronous: bool) -> Any:
    """A tool function named `name` returning `make()`, annotated `-> me.ToolResult` (no output schema)."""

    def sync_tool() -> me.ToolResult:
        return make()  # type: ignore[no-any-return]

    async def async_tool() -> me.ToolResult:
        return make()  # type: ignore[no-any-return]

    tool = async_tool if asynchronous else sync_tool
    tool.__name__ = name
    return tool


def add_tools(server: MCPServer, wrap: Any = lambda fn: fn) -> MCPServer:
    """One tool per helper, sync and async in turn."""
    for index, (name, make) in enumerate(RESULTS.items()):
        server.add_tool(wrap(returning(name, make, index % 2 == 0)), name=name)
    return server


def calls(server: MCPServer, *steps: tuple[str, dict[str, Any]]) -> list[Any]:
    async def go() -> list[Any]:
        async with Client(server) as client:
            results = []
            for name, arguments in steps:
                try:
                    results.append(await client.call_tool(name, arguments))
                except MCPError as error:
                    results.append(error)
            return results

    return anyio.run(go)


def sent(result: Any) -> dict[str, Any]:
    """A result as the client received it, without what the SDK adds to every result: the serverInfo in its
    `_meta` and the 2026-07-28 protocol's `resultType` ("complete")."""
    wire: dict[str, Any] = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    assert wire.pop("resultType") == "complete"
    meta = {k: v for k, v in wire.pop("_meta", {}).items() if k != "io.modelcontextprotocol/serverInfo"}
    return wire | ({"_meta": meta} if meta else {})


@pytest.mark.parametrize("server", [
    pytest.param(lambda: add_tools(EnvelopeMCPServer("billing")), id="EnvelopeMCPServer"),
    pytest.param(lambda: add_tools(MCPServer("billing"), envelope_errors), id="envelope_errors"),
])  # fmt: skip
def test_every_helper_result_a_tool_returns_is_sent_as_itself(server):
    received = calls(server(), *((name, {}) for name in RESULTS))
    for name, result in zip(RESULTS, received, strict=False):
        expected = RESULTS[name]()
        if name == "exception_result":
            assert isinstance(expected, me.ToolResult)
        assert sent(result) == expected, name
    assert [r.is_error for r in received] == [True, True, True, False, False, True, True, True, True, True, False]


def test_a_helper_result_is_a_tool_result_and_still_a_dict():
    for make in RESULTS.values():
        result = make()
        assert type(result) is me.ToolResult and isinstance(result, dict)
    result = me.tool_error("X", "y")
    assert result == {"content": [{"type": "text", "text": result["content"][0]["text"]}], "isError": True}
    assert type({**result}) is dict  # a dict built anew is plain data again
    with Ledger() as ledger:
        assert type(ledger.failure("t", me.ToolError("X", "y"))) is me.ToolResult
        assert type(ledger.observe("t", result)) is me.ToolResult


def test_the_exact_bytes_a_client_receives_for_a_returned_tool_error():
    server = EnvelopeMCPServer("billing")

    @server.tool()
    def get_invoice(invoice_id: str) -> dict[str, Any]:  # an output schema is listed; an error result skips it
        return me.ToolError("NOT_FOUND", f"No invoice {invoice_id}").to_result()

    [result] = calls(server, ("get_invoice", {"invoice_id": "inv_9"}))
    assert sent(result) == {
        "content": [{"type": "text", "text": (
            '<tool_error code="NOT_FOUND" severity="error">\n'
            "  <message>No invoice inv_9</message>\n"
            "  <recovery>Check the identifier: look the item up or list the available ones, then call again with a "
            "real one.</recovery>\n"
            "</tool_error>"
        )}],
        "isError": True,
    }  # fmt: skip


def test_a_returned_tool_error_is_answered_as_a_raised_one():
    server = EnvelopeMCPServer("billing", ledger=Ledger())
    plain = MCPServer("plain")

    @server.tool()
    def lookup(invoice_id: str) -> me.ToolError:
        return me.ToolError("NOT_FOUND", f"No invoice {invoice_id}")

    @plain.tool()
    @envelope_errors
    def find(invoice_id: str) -> me.ToolError:
        return me.ToolError("NOT_FOUND", f"No invoice {invoice_id}")

    first, second = calls(server, ("lookup", {"invoice_id": "inv_9"}), ("lookup", {"invoice_id": "inv_9"}))
    assert sent(first) == me.ToolError("NOT_FOUND", "No invoice inv_9").to_result()
    assert me.parse_envelope(second)["message"] == (
        "Nothing has changed since the last attempt: the same failure again (2 in a row)."
    )
    [found] = calls(plain, ("find", {"invoice_id": "inv_9"}))
    assert sent(found) == me.ToolError("NOT_FOUND", "No invoice inv_9").to_result()


def test_a_success_result_on_a_tool_with_an_output_schema_carries_its_structured_content():
    server = EnvelopeMCPServer("billing")

    @server.tool()
    def find_orders(email: str) -> dict[str, Any]:
        return empty_result("orders", query=f"for {email}", structured_content={"orders": []})

    [result] = calls(server, ("find_orders", {"email": "jo@example.com"}))
    assert sent(result) == empty_result("orders", query="for jo@example.com", structured_content={"orders": []})


UNKNOWN_XML = (
    '<tool_error code="UNKNOWN_ACTION" severity="error">\n'
    "  <message>No tool named 'refund_orders' on this server.</message>\n"
    "  <recovery>Call one of the available tools instead, with the arguments its input schema asks for.</recovery>\n"
    "  <available_actions>\n"
    "    <action>list_invoices</action>\n"
    "    <action>get_invoice</action>\n"
    "    <action>refund_order</action>\n"
    "  </available_actions>\n"
    "</tool_error>"
)


def billing(server: EnvelopeMCPServer) -> EnvelopeMCPServer:
    for name in ("list_invoices", "get_invoice", "refund_order"):

        def tool() -> str:
            return "ok"

        server.add_tool(tool, name=name)
    return server


def test_an_unknown_tool_is_a_json_rpc_error_naming_the_servers_tools():
    [error] = calls(billing(EnvelopeMCPServer("billing")), ("refund_orders", {"amount_cents": 300}))
    assert isinstance(error, MCPError)
    assert (error.code, error.message) == (
        -32602,
        "Unknown tool: refund_orders. This server's tools: list_invoices, get_invoice, refund_order.",
    )
    assert error.data == {
        "code": "UNKNOWN_ACTION", "severity": "error", "errorCategory": "validation", "isRetryable": True,
        "reason": "No tool named 'refund_orders' on this server.",
        "recovery": "Call one of the available tools instead, with the arguments its input schema asks for.",
        "availableActions": ["list_invoices", "get_invoice", "refund_order"],
    }  # fmt: skip
    wanted = unknown_tool("refund_orders", ["list_invoices", "get_invoice", "refund_order"])
    assert error.error.model_dump(mode="json", exclude_none=True) == wanted["error"]


def test_as_a_tool_result_an_unknown_tool_is_an_unknown_action_result_listing_the_servers_tools():
    server = billing(EnvelopeMCPServer("billing", unknown_tool="tool-result"))
    [result] = calls(server, ("refund_orders", {"amount_cents": 300}))
    assert sent(result) == {"content": [{"type": "text", "text": UNKNOWN_XML}], "isError": True}
    wanted = unknown_tool("refund_orders", ["list_invoices", "get_invoice", "refund_order"], answer="tool-result")
    assert sent(result) == wanted["result"]
    assert me.parse_envelope(result)["retryable"] is True


def test_an_unknown_tool_in_the_servers_format_and_after_a_tool_is_removed():
    server = billing(EnvelopeMCPServer("billing", error_format="text", unknown_tool="tool-result"))
    server.remove_tool("get_invoice")
    [result] = calls(server, ("get_invoice", {}))
    assert result.content[0].text == (
        "error_code: UNKNOWN_ACTION\n"
        "what_failed: No tool named 'get_invoice' on this server.\n"
        "next_action: Call one of the available tools instead, with the arguments its input schema asks for.\n"
        "retryable: true\n"
        'available_actions: ["list_invoices","refund_order"]'
    )


def test_an_unknown_tool_stays_outside_the_ledger():
    server = billing(EnvelopeMCPServer("billing", ledger=Ledger(), unknown_tool="tool-result"))
    results = calls(server, ("refund_orders", {}), ("refund_orders", {}))
    assert [r.content[0].text for r in results] == [UNKNOWN_XML, UNKNOWN_XML]
    errors = calls(billing(EnvelopeMCPServer("billing", ledger=Ledger())), ("refund_orders", {}), ("refund_orders", {}))
    assert errors[0].error == errors[1].error


# The same bytes test/mcp.test.mjs gets from a Zod 4 server with an equal schema: the core words each
# "Expected …" from the JSON Schema tools/list sends.
EQUAL_SCHEMAS_XML = (
    '<validation_error action="place_order">\n'
    "  <field name=\"email\">Invalid email format. You sent: 'nope'. Expected a valid email address.</field>\n"
    "  <field name=\"quantity\">Wrong type. You sent: 'abc'. Expected an integer.</field>\n"
    '  <field name="count">Missing required field. You sent: nothing. Expected an integer.</field>\n'
    "  <field name=\"size\">Not one of the allowed values. You sent: 'XL'. Expected one of: 'S', 'M', 'L'.</field>\n"
    "  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n"
    "</validation_error>"
)


def test_a_validation_failure_is_worded_from_the_input_schema_tools_list_sends():
    server = EnvelopeMCPServer("shop")

    @server.tool()
    def place_order(email: EmailStr, quantity: int, count: int, size: Literal["S", "M", "L"]) -> str:
        return "ok"

    sent_arguments = {"email": "nope", "quantity": "abc", "size": "XL"}

    async def go() -> tuple[Any, Any]:
        async with Client(server) as client:
            [tool] = (await client.list_tools()).tools
            return tool, await client.call_tool("place_order", sent_arguments)

    tool, result = anyio.run(go)
    assert result.is_error is True
    assert result.content[0].text == EQUAL_SCHEMAS_XML

    # Exactly what the listed schema gives: the schema the model read is the one the core got.
    class PlaceOrder(BaseModel):  # the tool's signature as a model: the same pydantic errors
        email: EmailStr
        quantity: int
        count: int
        size: Literal["S", "M", "L"]

    with pytest.raises(ValidationError) as failed:
        PlaceOrder.model_validate(sent_arguments)
    assert sent(result) == me.validation_error("place_order", failed.value, input=sent_arguments,
                                               input_schema=tool.input_schema)  # fmt: skip


def test_validation_spec_puts_the_input_schema_in_as_inputSchema():
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}
    spec = validation_spec("t", [{"path": ["n"], "code": "missing_required"}], input_schema=schema)
    assert spec == {"action": "t", "issues": [{"path": ["n"], "code": "missing_required"}], "inputSchema": schema}
