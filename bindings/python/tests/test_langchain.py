"""mcp_envelope.langchain end to end: LangChain's own agent (`create_agent`) driven by LangChain's own fake chat model,
over langchain-mcp-adapters' tools, against the demo's billing server over stdio (the mcp SDK 1.x client here, the
server in .venv on 2.x). The model's turns are scripted; every answer crosses the real adapters, client and server.
The waits are recorded instead of slept. Each run against the plain adapters shows what changes."""

from __future__ import annotations

import os
from typing import Any

import anyio
import pytest
from billing_demo import (
    FORBIDDEN,
    FORBIDDEN_RECORD,
    JO,
    NOT_FOUND,
    PYTHON,
    SERVER,
    TIMEOUT,
    TIMEOUT_RECORD,
    TIMEOUT_TRIED,
)
from langchain.agents import create_agent
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_mcp_adapters.interceptors import MCPToolCallRequest
from langchain_mcp_adapters.tools import load_mcp_tools
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.types import CallToolResult, TextContent, Tool
from pydantic import Field

from mcp_envelope.langchain import EndOnEscalation, EnvelopeInterceptor, escalation_of

TOLD = "I could not get that; here is what happened."


class ToolCallingModel(GenericFakeChatModel):
    """LangChain's fake chat model, answering with the scripted messages in turn and keeping what it was shown. The
    fake has no `bind_tools` (an agent binds its tools to the model); the script already holds the tool calls."""

    seen: list[list[BaseMessage]] = Field(default_factory=list)

    def bind_tools(self, tools: Any, **kwargs: Any) -> ToolCallingModel:
        return self

    def _generate(self, messages: list[BaseMessage], *args: Any, **kwargs: Any) -> Any:
        self.seen.append(list(messages))
        return super()._generate(messages, *args, **kwargs)


def run(
    *calls: tuple[str, dict[str, Any]], enveloped: bool = True
) -> tuple[list[BaseMessage], ToolCallingModel, list[float]]:
    """One agent run: the model makes `calls` one turn each, then answers the user. With `enveloped`, the tools go
    through `EnvelopeInterceptor` and the agent has `EndOnEscalation`; without, they are the adapters' own."""
    waits: list[float] = []

    async def record(seconds: float) -> None:
        waits.append(seconds)

    script = [
        AIMessage("", tool_calls=[{"name": name, "args": args, "id": f"call_{n}"}])
        for n, (name, args) in enumerate(calls)
    ]
    model = ToolCallingModel(messages=iter([*script, AIMessage(TOLD)]))

    async def go() -> list[BaseMessage]:
        with open(os.devnull, "w") as quiet:
            server = StdioServerParameters(command=PYTHON, args=[SERVER])
            async with stdio_client(server, errlog=quiet) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                listed = (await session.list_tools()).tools
                interceptors = [EnvelopeInterceptor(listed, sleep=record)] if enveloped else []
                tools = await load_mcp_tools(session, tool_interceptors=interceptors)
                agent = create_agent(model, tools, middleware=[EndOnEscalation()] if enveloped else [])
                state = await agent.ainvoke({"messages": [HumanMessage("What do I owe?")]})
                messages: list[BaseMessage] = state["messages"]
                return messages

    return anyio.run(go), model, waits


def tool_messages(messages: list[BaseMessage]) -> list[ToolMessage]:
    return [message for message in messages if isinstance(message, ToolMessage)]


def test_a_success_goes_back_as_the_tool_result():
    messages, model, waits = run(("get_invoice", {"customer": JO, "invoice_id": "inv_1"}))
    [answer] = tool_messages(messages)
    assert (answer.text, answer.status, answer.tool_call_id) == ("inv_1: 120.00 EUR, paid", "success", "call_0")
    assert (len(model.seen), model.seen[1][-1], messages[-1].text, waits) == (2, answer, TOLD, [])


def test_what_the_model_can_fix_reaches_it_as_the_tool_error_and_it_calls_again():
    messages, model, _ = run(
        ("get_invoice", {"customer": JO, "invoice_id": "inv_404"}), ("list_invoices", {"customer": JO})
    )
    not_found, listed = tool_messages(messages)
    assert (not_found.text, not_found.status, escalation_of(not_found)) == (NOT_FOUND, "error", None)
    assert model.seen[1][-1] is not_found  # the model's next turn sees the envelope, as it came
    assert listed.text == "inv_1: 120.00 EUR, paid\ninv_2: 75.50 EUR, open"
    assert (len(model.seen), messages[-1].text) == (3, TOLD)


def test_a_transient_failure_is_waited_out_without_a_model_turn_and_then_ends_the_run():
    messages, model, waits = run(("get_invoice", {"customer": JO, "invoice_id": "inv_504"}))
    assert waits == [0.5, 1.0]  # three calls, in the one tool call of the model's one turn
    assert len(model.seen) == 1  # and the model is not asked again
    last = messages[-1]
    assert isinstance(last, ToolMessage) and (last.text, last.status, last.name) == (
        TIMEOUT_RECORD,
        "error",
        "get_invoice",
    )
    assert escalation_of(last) == {"content": [{"type": "text", "text": TIMEOUT_RECORD}], "isError": True}
    assert last.artifact["tried"] == TIMEOUT_TRIED


def test_stop_and_tell_ends_the_run_with_the_escalation_record():
    messages, model, waits = run(
        ("list_invoices", {"customer": "blocked@example.com"}), ("get_invoice", {"customer": JO, "invoice_id": "inv_1"})
    )
    assert (len(model.seen), waits) == (1, [])  # the scripted second call is never made
    [record] = tool_messages(messages)
    assert messages[-1] is record and record.tool_call_id == "call_0"
    assert (record.text, record.status) == (FORBIDDEN_RECORD, "error")
    assert escalation_of(record) == {"content": [{"type": "text", "text": FORBIDDEN_RECORD}], "isError": True}
    assert record.artifact["tried"] == [{"code": "FORBIDDEN", "branch": "stop-and-tell"}]


def test_a_thread_that_goes_on_after_an_escalation_asks_the_model_again():
    ended, _, _ = run(("list_invoices", {"customer": "blocked@example.com"}))
    model = ToolCallingModel(messages=iter([AIMessage(TOLD)]))
    agent = create_agent(model, [], middleware=[EndOnEscalation()])
    state = anyio.run(agent.ainvoke, {"messages": [*ended, HumanMessage("Then what can I see?")]})
    assert (len(model.seen), model.seen[0][-1].text, state["messages"][-1].text) == (1, "Then what can I see?", TOLD)


def test_without_the_interceptor_every_failure_goes_back_to_the_model():
    messages, model, _ = run(
        ("list_invoices", {"customer": "blocked@example.com"}),
        ("get_invoice", {"customer": JO, "invoice_id": "inv_504"}),
        enveloped=False,
    )
    forbidden, timeout = tool_messages(messages)
    # The refusal goes to the model, which is asked again; the timeout too, after one call and no wait.
    assert [(m.text, m.status) for m in (forbidden, timeout)] == [(FORBIDDEN, "error"), (TIMEOUT, "error")]
    assert (len(model.seen), model.seen[1][-1], model.seen[2][-1], messages[-1].text) == (3, forbidden, timeout, TOLD)


def test_the_listing_keeps_a_write_from_being_called_twice():
    calls: list[MCPToolCallRequest] = []

    async def handler(request: MCPToolCallRequest) -> CallToolResult:
        calls.append(request)
        return CallToolResult(content=[TextContent(type="text", text=TIMEOUT)], isError=True)

    write = Tool(name="charge", inputSchema={"type": "object"})  # neither read-only nor idempotent
    request = MCPToolCallRequest(name="charge", args={"amount": 5}, server_name="billing")
    answer = anyio.run(EnvelopeInterceptor([write]), request, handler)
    assert isinstance(answer, ToolMessage) and escalation_of(answer) is not None
    assert ([c.args for c in calls], answer.artifact["tried"]) == (
        [{"amount": 5}],
        [{"code": "TIMEOUT", "branch": "verify-before-retry"}],
    )


def test_an_answer_an_inner_interceptor_made_goes_on_unread():
    made = ToolMessage("cached", tool_call_id="call_0")

    async def handler(request: MCPToolCallRequest) -> ToolMessage:
        return made

    request = MCPToolCallRequest(name="get_invoice", args={}, server_name="billing")
    assert anyio.run(EnvelopeInterceptor(), request, handler) is made


def test_the_pydantic_ai_integration_names_its_extra_where_pydantic_ai_is_missing():
    with pytest.raises(ImportError, match=r"pip install 'mcp-envelope\[pydantic-ai\]'"):
        import mcp_envelope.pydantic_ai  # noqa: F401
