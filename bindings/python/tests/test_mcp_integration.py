"""The real `mcp` SDK: an EnvelopeMCPServer and a client session connected
in-process (memory streams), calling tools that fail in each way."""

from __future__ import annotations

import json
import logging
import re
from typing import Annotated

import anyio
import pytest
from mcp import Client
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from pydantic import Field

import mcp_envelope as me
from mcp_envelope.mcp_server import EnvelopeMCPServer, envelope_errors
from mcp_envelope.server import exception_result

SECRET = "vault-password-hunter2"


def billing_server() -> EnvelopeMCPServer:
    server = EnvelopeMCPServer("billing")

    @server.tool()
    def get_invoice(invoice_id: str) -> str:
        """Looks an invoice up."""
        raise (
            me.ToolError("NOT_FOUND", "No invoice with that ID")
            .with_actions("billing.list_invoices")
            .with_detail("requestedId", invoice_id)
        )

    @server.tool()
    async def charge(amount_cents: int) -> str:
        """Charges a card."""
        raise RuntimeError(f"could not open the card vault with {SECRET}")

    @server.tool()
    def broken_error(order_id: str) -> str:
        """Raises a ToolError the component refuses (an empty code)."""
        raise me.ToolError("", f"order {order_id} with {SECRET}")

    @server.tool()
    def refund(
        order_id: Annotated[str, Field(min_length=3)],
        amount_cents: Annotated[int, Field(ge=1)],
    ) -> str:
        """Refunds an order."""
        return f"refunded {amount_cents} on {order_id}"

    # A warning result carries no structured content, so the tool declares none.
    @server.tool(structured_output=False)
    def slow_down() -> str:
        """Warns but succeeds."""
        raise me.ToolError("DEPRECATED", "slow_down is deprecated; use throttle").with_severity("warning")

    return server


def call(server, tool: str, arguments: dict):
    """The result, or the MCPError the client raised (caught inside the session, so it is not wrapped)."""

    async def go():
        async with Client(server) as client:
            try:
                return await client.call_tool(tool, arguments)
            except MCPError as error:
                return error

    return anyio.run(go)


def error_of(result) -> dict:
    """The error spec the component reads back from a result."""
    reading = me.parse_envelope(result)
    assert reading is not None and reading["kind"] == "tool_error", reading
    return reading["error"]


def wire_result(result) -> dict:
    return result.model_dump(mode="json", by_alias=True, exclude_none=True)


def wire(result) -> str:
    """Everything the model could see of a result."""
    return json.dumps(result.model_dump(mode="json", by_alias=True))


def test_a_raised_tool_error_becomes_its_envelope():
    result = call(billing_server(), "get_invoice", {"invoice_id": "inv_9"})
    assert result.is_error is True
    assert result.content[0].text == (
        '<tool_error code="NOT_FOUND" severity="error">\n'
        "  <message>No invoice with that ID</message>\n"
        "  <recovery>Check the identifier: look the item up or list the available ones, then call again with a real one.</recovery>\n"
        "  <available_actions>\n"
        "    <action>billing.list_invoices</action>\n"
        "  </available_actions>\n"
        "  <details>\n"
        '    <detail key="requestedId">inv_9</detail>\n'
        "  </details>\n"
        "</tool_error>"
    )
    assert error_of(result) == {
        "code": "NOT_FOUND",
        "message": "No invoice with that ID",
        "suggestion": "Check the identifier: look the item up or list the available ones, then call again with a real one.",
        "availableActions": ["billing.list_invoices"],
        "details": {"requestedId": "inv_9"},
    }


def test_any_other_exception_is_internal_error_and_the_secret_stays_in_the_log(caplog):
    with caplog.at_level(logging.ERROR, logger="mcp_envelope"):
        result = call(billing_server(), "charge", {"amount_cents": 100})
    assert result.is_error is True
    assert SECRET not in wire(result)
    spec = error_of(result)
    assert spec["code"] == "INTERNAL_ERROR"
    assert spec["message"] == "charge failed with an internal error."
    assert re.fullmatch(r"err_[0-9a-f]{12}", spec["correlationId"])
    assert (
        spec["customerMessage"]
        == f"Something went wrong on our side. It was recorded under the reference {spec['correlationId']}."
    )
    # The component's exception result, byte for byte: nothing of the exception is in it.
    assert {k: wire_result(result)[k] for k in ("content", "isError")} == exception_result(
        "charge", "anything at all", correlation_id=spec["correlationId"]
    )["result"]
    with pytest.raises(me.EnvelopeError) as raised:
        me.raise_for_error(result)
    assert raised.value.retryable is False
    assert raised.value.recovery.startswith("Do not retry blindly")
    # The core's one log line: the id, the tool, the traceback (as a JSON string) with the secret.
    [record] = [r for r in caplog.records if r.name == "mcp_envelope"]
    line = record.getMessage()
    assert line.startswith(
        f'code=INTERNAL_ERROR correlationId="{spec["correlationId"]}" tool="charge" exception="Traceback'
    )
    assert "\n" not in line and f"RuntimeError: could not open the card vault with {SECRET}" in line
    assert record.correlation_id == spec["correlationId"]


def test_a_warning_is_a_successful_result_with_guidance():
    result = call(billing_server(), "slow_down", {})
    assert result.is_error is False
    assert error_of(result) == {
        "code": "DEPRECATED",
        "message": "slow_down is deprecated; use throttle",
        "severity": "warning",
        "suggestion": "Use the replacement named in the message and call again.",
    }
    assert me.raise_for_error(result) is result


def test_good_arguments_still_reach_the_tool():
    result = call(billing_server(), "refund", {"order_id": "A-8812", "amount_cents": 300})
    assert result.is_error is False
    assert result.content[0].text == "refunded 300 on A-8812"


def test_bad_arguments_become_a_validation_error():
    result = call(billing_server(), "refund", {"order_id": "A", "amount_cents": 0, "note": "x"})
    assert result.is_error is True
    text = result.content[0].text
    assert text.startswith('<validation_error action="refund">\n')
    assert text.endswith(
        "  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n"
        "</validation_error>"
    )
    parsed = me.parse_envelope(result)["validation"]
    assert parsed["action"] == "refund"
    names = [f["name"] for f in parsed["fields"]]
    assert "order_id" in names and "amount_cents" in names
    # The same lines as the neutral issues give.
    expected = me.parse_envelope(
        me.render_validation(
            "refund",
            [
                {"path": ["order_id"], "code": "too_small", "origin": "string", "minimum": 3, "input": "A"},
                {"path": ["amount_cents"], "code": "too_small", "origin": "number", "minimum": 1, "input": 0},
            ],
        )
    )["validation"]
    assert [f for f in parsed["fields"] if f["name"] in ("order_id", "amount_cents")] == expected["fields"]
    assert "pydantic" not in text and "validation errors for" not in text


def test_an_unknown_tool_is_the_json_rpc_error_the_specification_names_with_the_tools():
    error = call(billing_server(), "get_invoices", {})
    assert isinstance(error, MCPError)
    assert error.code == -32602
    assert (
        error.message
        == "Unknown tool: get_invoices. This server's tools: get_invoice, charge, broken_error, refund, slow_down."
    )
    assert error.data["code"] == "UNKNOWN_ACTION"
    assert error.data["availableActions"] == ["get_invoice", "charge", "broken_error", "refund", "slow_down"]


def test_as_a_tool_result_an_unknown_tool_is_an_unknown_action_envelope():
    server = billing_server()
    server.unknown_tool = "tool-result"
    result = call(server, "get_invoices", {})
    assert result.is_error is True
    assert result.content[0].text == (
        '<tool_error code="UNKNOWN_ACTION" severity="error">\n'
        "  <message>No tool named 'get_invoices' on this server.</message>\n"
        "  <recovery>Call one of the available tools instead, with the arguments its input schema asks for.</recovery>\n"
        "  <available_actions>\n"
        "    <action>get_invoice</action>\n"
        "    <action>charge</action>\n"
        "    <action>broken_error</action>\n"
        "    <action>refund</action>\n"
        "    <action>slow_down</action>\n"
        "  </available_actions>\n"
        "</tool_error>"
    )


def test_the_decorator_works_on_a_plain_mcp_server(caplog):
    server = MCPServer("plain")

    @server.tool()
    @envelope_errors
    def lookup(name: str) -> str:
        if name == "busy":
            raise me.ToolError("SERVER_BUSY", "Queue full").with_retry_after(5)
        raise KeyError(SECRET)

    @server.tool()
    @envelope_errors(format="text")
    async def lookup_async(name: str) -> str:
        raise me.ToolError("TIMEOUT", "Upstream took too long")

    busy = call(server, "lookup", {"name": "busy"})
    assert busy.is_error is True
    recovery = me.defaults_for("SERVER_BUSY")["recovery"]  # the faithful spec states the shown recovery
    assert error_of(busy) == {"code": "SERVER_BUSY", "message": "Queue full", "suggestion": recovery, "retryAfter": 5}
    with caplog.at_level(logging.ERROR, logger="mcp_envelope"):
        crashed = call(server, "lookup", {"name": "x"})
    assert SECRET not in wire(crashed)
    assert error_of(crashed)["code"] == "INTERNAL_ERROR"
    assert error_of(crashed)["message"] == "lookup failed with an internal error."
    timed_out = call(server, "lookup_async", {"name": "x"})
    assert timed_out.content[0].text == (
        "error_code: TIMEOUT\n"
        "what_failed: Upstream took too long\n"
        "next_action: Retry once after a short wait; if it times out again, tell the user the service is slow.\n"
        "retryable: true"
    )


def test_the_tool_schema_is_unchanged_by_the_decorator():
    server = MCPServer("plain")

    @server.tool()
    @envelope_errors
    def lookup(name: str, limit: int = 10) -> str:
        return name

    async def listing():
        async with Client(server) as client:
            return await client.list_tools()

    [tool] = anyio.run(listing).tools
    assert tool.input_schema["properties"]["limit"] == {"default": 10, "title": "Limit", "type": "integer"}
    assert tool.input_schema["required"] == ["name"]


def test_a_tool_error_the_component_refuses_is_internal_error(caplog):
    with caplog.at_level(logging.ERROR, logger="mcp_envelope"):
        result = call(billing_server(), "broken_error", {"order_id": "A-1"})
    assert result.is_error is True
    assert SECRET not in wire(result)
    spec = error_of(result)
    assert spec["code"] == "INTERNAL_ERROR"
    [record] = [r for r in caplog.records if r.name == "mcp_envelope"]
    assert spec["correlationId"] in record.getMessage()
    # The core words the refusal, the same in every language (vectors/handler-results.json).
    assert 'exception="mcp-envelope refused what the handler gave: \\"code\\" must not be empty"' in record.getMessage()
