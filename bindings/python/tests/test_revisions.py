"""Answers by negotiated protocol revision (docs/revisions.md), through the `mcp` SDK's and FastMCP's own clients and servers: a
URL elicitation a tool needs reaches a 2026-07-28 client as an `input_required` result, which the client answers
and retries, and a 2025-11-25 client as the error -32042, whichever way the tool asked for it."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from fastmcp import Client as FastMCPClient
from fastmcp import Context as FastMCPContext
from fastmcp import FastMCP
from mcp import Client
from mcp.server.mcpserver import Context
from mcp.shared.exceptions import MCPError, UrlElicitationRequiredError
from mcp_types import ElicitRequestParams, ElicitRequestURLParams, ElicitResult, InputRequiredResult

from mcp_envelope.fastmcp import EnvelopeMiddleware
from mcp_envelope.mcp_server import EnvelopeMCPServer

CONSENT = {
    "mode": "url",
    "message": "Connect your bank account to continue.",
    "url": "https://bank.example/consent?session=7",
    "elicitationId": "bank-consent",
}
# What a 2026-07-28 client is asked: the elicitation without its id, which that revision removed (its key names it).
ASKED = {key: value for key, value in CONSENT.items() if key != "elicitationId"}


def billing() -> EnvelopeMCPServer:
    server = EnvelopeMCPServer("billing")

    @server.tool()
    async def connect_bank(ctx: Context) -> str:
        """Raises the SDK's own URL elicitation error (the 2025-11-25 way) until the client has answered it."""
        if ctx.input_responses:
            return f"connected after {sorted(ctx.input_responses)}"
        raise UrlElicitationRequiredError([ElicitRequestURLParams.model_validate(CONSENT)])

    @server.tool()
    async def link_card(ctx: Context) -> InputRequiredResult | str:
        """Returns an input_required result (the 2026-07-28 way) until the client has answered it."""
        if ctx.input_responses:
            return "linked"
        return InputRequiredResult.model_validate(
            {"inputRequests": {"card": {"method": "elicitation/create", "params": CONSENT | {"elicitationId": "card"}}}}
        )

    return server


def call(mode: str, tool: str) -> tuple[Any, list[dict[str, Any]]]:
    """The result (or the MCPError) of one call made by a client negotiating `mode`, and what the client was asked."""
    asked: list[dict[str, Any]] = []

    async def answer(context: Any, params: ElicitRequestParams) -> ElicitResult:
        asked.append(params.model_dump(by_alias=True, exclude_none=True))
        return ElicitResult(action="accept")

    async def go() -> Any:
        async with Client(billing(), mode=mode, elicitation_callback=answer) as client:
            try:
                return await client.call_tool(tool, {})
            except MCPError as error:
                return error

    return anyio.run(go), asked


def test_a_raised_url_elicitation_reaches_a_2026_client_as_input_required_which_it_answers_and_retries():
    result, asked = call("2026-07-28", "connect_bank")
    assert asked == [ASKED]
    assert result.model_dump(by_alias=True, exclude_none=True)["content"] == [
        {"type": "text", "text": "connected after ['bank-consent']"}
    ]


def test_a_raised_url_elicitation_reaches_a_2025_client_as_the_error_32042():
    error, asked = call("legacy", "connect_bank")
    assert asked == []
    assert isinstance(error, MCPError)
    assert error.error.model_dump(by_alias=True, exclude_none=True) == {
        "code": -32042,
        "message": "URL elicitation required",
        "data": {"elicitations": [CONSENT]},
    }


def test_a_returned_input_required_result_reaches_a_2026_client_as_it_came():
    result, asked = call("2026-07-28", "link_card")
    assert asked == [ASKED]
    assert result.model_dump(by_alias=True, exclude_none=True)["content"] == [{"type": "text", "text": "linked"}]


def test_a_returned_input_required_result_reaches_a_2025_client_as_the_error_32042():
    error, asked = call("legacy", "link_card")
    assert asked == []
    assert isinstance(error, MCPError)
    assert error.error.model_dump(by_alias=True, exclude_none=True) == {
        "code": -32042,
        "message": "URL elicitation required",
        "data": {"elicitations": [CONSENT | {"elicitationId": "card"}]},
    }


@pytest.mark.parametrize("mode", ["2026-07-28", "legacy"])
def test_a_tool_error_is_the_same_envelope_under_both_revisions(mode):
    server = EnvelopeMCPServer("billing")

    @server.tool()
    def refund(order: str) -> str:
        raise ValueError("database password=hunter2 unreachable")

    async def go() -> Any:
        async with Client(server, mode=mode) as client:
            return await client.call_tool("refund", {"order": "A-1"})

    result = anyio.run(go).model_dump(by_alias=True, exclude_none=True)
    assert result["isError"] is True
    text = result["content"][0]["text"]
    assert text.startswith(
        '<tool_error code="INTERNAL_ERROR" severity="error">\n  <message>refund failed with an internal error.</message>'
    )
    assert "hunter2" not in text


def fastmcp_billing() -> FastMCP:
    server = FastMCP("billing", middleware=[EnvelopeMiddleware()])

    @server.tool()
    async def link_card(ctx: FastMCPContext) -> InputRequiredResult | str:
        """Returns an input_required result (FastMCP's way to ask) until the client has answered it."""
        if ctx.input_responses:
            return "linked"
        return InputRequiredResult.model_validate(
            {"inputRequests": {"card": {"method": "elicitation/create", "params": ASKED}}}
        )

    return server


def fastmcp_call(mode: str) -> tuple[Any, list[dict[str, Any]]]:
    asked: list[dict[str, Any]] = []

    async def answer(message: str, response_type: Any, params: Any, context: Any) -> dict[str, Any]:
        asked.append(params.model_dump(by_alias=True, exclude_none=True))
        return {}

    async def go() -> Any:
        async with FastMCPClient(fastmcp_billing(), mode=mode, elicitation_handler=answer) as client:
            try:
                return await client.call_tool("link_card", {})
            except MCPError as error:
                return error

    return anyio.run(go), asked


def test_fastmcp_a_returned_input_required_result_reaches_a_2026_client_as_it_came():
    result, asked = fastmcp_call("2026-07-28")
    assert asked == [ASKED]
    assert result.content[0].text == "linked"


def test_fastmcp_a_returned_url_elicitation_reaches_a_2025_client_as_the_error_32042():
    """FastMCP alone refuses the result on 2025-11-25 with an error naming SEP-2322; 2025-11-25 has -32042 for it,
    its elicitationId the request's key."""
    error, asked = fastmcp_call("legacy")
    assert asked == []
    assert isinstance(error, MCPError)
    assert error.error.model_dump(by_alias=True, exclude_none=True) == {
        "code": -32042,
        "message": "URL elicitation required",
        "data": {"elicitations": [ASKED | {"elicitationId": "card"}]},
    }
