"""mcp_envelope.pydantic_ai end to end: a Pydantic AI agent driven by Pydantic AI's own `FunctionModel`, over
`EnvelopeMCPToolset`, against the demo's billing server over stdio (FastMCP's client, as `MCPToolset` uses it). The
model's turns are scripted; every answer crosses the real toolset, client and server. The waits are recorded
instead of slept. Each run against the plain `MCPToolset` shows what changes."""

from __future__ import annotations

import os
from typing import Any

import anyio
import pytest
from billing_demo import FORBIDDEN, FORBIDDEN_RECORD, JO, NOT_FOUND, PYTHON, SERVER, TIMEOUT, TIMEOUT_RECORD
from fastmcp import FastMCP
from fastmcp.client.transports import StdioTransport
from pydantic_ai import Agent
from pydantic_ai.mcp import MCPToolset
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

import mcp_envelope as me
from mcp_envelope.fastmcp import EnvelopeMiddleware
from mcp_envelope.pydantic_ai import EnvelopeMCPToolset

TOLD = "I could not get that; here is what happened."


def run(
    *calls: tuple[str, dict[str, Any]], enveloped: bool = True
) -> tuple[list[ModelMessage], list[list[ModelMessage]], list[float]]:
    """One agent run: the model makes `calls` one turn each, then answers the user. Gives the run's messages, what
    the model was shown at each turn, and the waits."""
    script = [
        ModelResponse(parts=[ToolCallPart(name, args, tool_call_id=f"call_{n}")])
        for n, (name, args) in enumerate(calls)
    ]
    script.append(ModelResponse(parts=[TextPart(TOLD)]))
    seen: list[list[ModelMessage]] = []
    waits: list[float] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(list(messages))
        return script[len(seen) - 1]

    async def record(seconds: float) -> None:
        waits.append(seconds)

    async def go() -> list[ModelMessage]:
        with open(os.devnull, "w") as quiet:
            server = StdioTransport(PYTHON, [SERVER], log_file=quiet)
            toolset = EnvelopeMCPToolset(server, sleep=record) if enveloped else MCPToolset(server)
            result = await Agent(FunctionModel(model), toolsets=[toolset]).run("What do I owe?")
            return result.all_messages()

    return anyio.run(go), seen, waits


def returns(messages: list[ModelMessage]) -> list[ToolReturnPart]:
    """The tool results the model was given, in order."""
    parts = [part for message in messages if isinstance(message, ModelRequest) for part in message.parts]
    return [part for part in parts if isinstance(part, ToolReturnPart)]


def test_a_success_goes_back_as_the_tool_result():
    messages, seen, waits = run(("get_invoice", {"customer": JO, "invoice_id": "inv_1"}))
    [answer] = returns(messages)
    assert (answer.content, answer.outcome, answer.retry, waits) == ("inv_1: 120.00 EUR, paid", "success", None, [])
    assert len(seen) == 2


def test_what_the_model_can_fix_reaches_it_as_a_retry_prompt():
    messages, seen, _ = run(
        ("get_invoice", {"customer": JO, "invoice_id": "inv_404"}), ("list_invoices", {"customer": JO})
    )
    not_found, listed = returns(messages)
    assert (not_found.content, not_found.outcome, not_found.tool_call_id) == (NOT_FOUND, "retried", "call_0")
    assert not_found.retry is not None and not_found.retry.cause == "model_retry"
    assert seen[1][-1].parts == [not_found]  # the model's next turn is the retry prompt, the envelope as it came
    assert (listed.content, listed.outcome) == ("inv_1: 120.00 EUR, paid\ninv_2: 75.50 EUR, open", "success")
    assert len(seen) == 3


def test_a_transient_failure_is_waited_out_without_a_model_turn_then_reported_without_a_retry_prompt():
    messages, seen, waits = run(("get_invoice", {"customer": JO, "invoice_id": "inv_504"}))
    assert waits == [0.5, 1.0]  # three calls, in the model's one tool call
    [record] = returns(messages)
    assert (record.content, record.outcome, record.retry) == (TIMEOUT_RECORD, "failed", None)
    assert seen[1][-1].parts == [record] and len(seen) == 2  # the model reads it once, to tell the user


def test_stop_and_tell_comes_back_as_a_failed_result_and_the_model_is_not_asked_to_retry():
    messages, seen, waits = run(("list_invoices", {"customer": "blocked@example.com"}))
    [record] = returns(messages)
    assert (record.content, record.outcome, record.retry, record.tool_call_id) == (
        FORBIDDEN_RECORD,
        "failed",
        None,
        "call_0",
    )
    assert record.model_response_str(wrap_if_error=False) == FORBIDDEN_RECORD
    assert (seen[1][-1].parts, len(seen), waits) == ([record], 2, [])


def test_without_the_toolset_every_failure_is_a_retry_prompt():
    messages, seen, waits = run(("list_invoices", {"customer": "blocked@example.com"}), enveloped=False)
    [forbidden] = returns(messages)
    # The refusal comes back as a retry prompt: the model is asked to fix a call it cannot fix.
    assert (forbidden.content, forbidden.outcome, forbidden.retry is not None) == (FORBIDDEN, "retried", True)
    messages, seen, waits = run(("get_invoice", {"customer": JO, "invoice_id": "inv_504"}), enveloped=False)
    [timeout] = returns(messages)
    # The timeout too, after one call and no wait.
    assert (timeout.content, timeout.outcome, waits, len(seen)) == (TIMEOUT, "retried", [], 2)


def test_the_listing_keeps_a_write_from_being_called_twice():
    server = FastMCP("shop", middleware=[EnvelopeMiddleware()])
    charged: list[float] = []

    @server.tool
    def charge(amount: float) -> str:
        """A write, neither read-only nor idempotent, that times out."""
        charged.append(amount)
        raise me.ToolError("TIMEOUT", "The card processor did not answer within 10 s.")

    turns = iter([ModelResponse(parts=[ToolCallPart("charge", {"amount": 5})]), ModelResponse(parts=[TextPart(TOLD)])])
    agent = Agent(FunctionModel(lambda messages, info: next(turns)), toolsets=[EnvelopeMCPToolset(server)])
    [record] = returns(anyio.run(agent.run, "Charge me.").all_messages())
    assert (charged, record.outcome) == ([5], "failed")
    assert "<attempt>call 1: TIMEOUT (verify-before-retry)</attempt>" in record.content


def test_the_calls_are_the_host_loops():
    for option in ("process_tool_call", "tool_error_behavior"):
        with pytest.raises(TypeError, match=f"EnvelopeMCPToolset makes the tool calls itself: {option} is not taken"):
            EnvelopeMCPToolset(StdioTransport(PYTHON, [SERVER]), **{option: None})


def test_the_langchain_integration_names_its_extra_where_langchain_is_missing():
    with pytest.raises(ImportError, match=r"pip install 'mcp-envelope\[langchain\]'"):
        import mcp_envelope.langchain  # noqa: F401
