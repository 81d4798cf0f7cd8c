"""The host loop (docs/host-loop.md) for LangChain agents over MCP tools (`langchain-mcp-adapters`): a failed call
reaches the model only when the model can do something about it, and a failure nobody in the run can fix ends the
run with the record of what was tried. The adapters alone hand every `isError` result back to the model as an
error message, a permission refusal and an outage as much as a wrong argument, and read no code, category or
retry-after.

- `EnvelopeInterceptor`, a tool-call interceptor for `langchain-mcp-adapters`, runs each call through
  `call_tool_with_recovery` over the adapters' own handler: a transient failure is waited out and called again
  within the budget, without a model turn; `done` returns the result as the tool's result; `to-model` returns the
  envelope as the tool's error message, for the model to fix its call; `escalate` returns a `ToolMessage` holding
  the `<partial_result>` record (status `error`, the record and the attempts as its `artifact`).
- `EndOnEscalation`, a middleware for `langchain.agents.create_agent`, ends the run before the model's next turn
  when an answer to the model's last tool calls holds such a record: the run's last message is then the record,
  for the caller to tell the user. (LangGraph's `Command(goto=END)` from a tool does not end an agent's loop: the edge
  from the tools back to the model still runs.) Another graph ends where `escalation_of(message)` is not None.

What each answer means is the core's; this module only makes the calls and tells LangChain the outcome. Needs the
`langchain` extra.

    tools = await load_mcp_tools(session, tool_interceptors=[EnvelopeInterceptor((await session.list_tools()).tools)])
    agent = create_agent(model, tools, middleware=[EndOnEscalation()])
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any

from ._integrations import require

require("langchain_mcp_adapters", "mcp_envelope.langchain", "langchain")
require("langchain", "mcp_envelope.langchain", "langchain")

from langchain.agents.middleware import AgentMiddleware, AgentState, hook_config
from langchain_core.messages import AnyMessage, BaseMessage, ToolMessage
from langchain_mcp_adapters.interceptors import MCPToolCallRequest, MCPToolCallResult
from langgraph.runtime import Runtime
from mcp.types import CallToolResult

from .envelope import Format
from .host_loop import HostBudget, _sleep, call_tool_with_recovery

__all__ = ["EndOnEscalation", "EnvelopeInterceptor", "escalation_of"]

Handler = Callable[[MCPToolCallRequest], Awaitable[MCPToolCallResult]]


class _Passed(Exception):
    """An answer from further in that is no `CallToolResult` (an interceptor there made a message or a command):
    the host loop cannot read it, so it goes on as it came."""

    def __init__(self, result: MCPToolCallResult) -> None:
        super().__init__()
        self.result = result


class _Calls:
    """The adapters' handler as the host loop calls it: each call the same request, with the name and arguments
    the loop gives."""

    def __init__(self, request: MCPToolCallRequest, handler: Handler) -> None:
        self.request = request
        self.handler = handler

    async def call_tool(self, name: str, arguments: Mapping[str, Any]) -> CallToolResult:
        result = await self.handler(self.request.override(name=name, args=dict(arguments)))
        if not isinstance(result, CallToolResult):
            raise _Passed(result)
        return result


def _name_of(tool: Any) -> str:
    name = tool.get("name") if isinstance(tool, Mapping) else getattr(tool, "name", None)
    if not isinstance(name, str):
        raise TypeError(f"a tools/list entry has a name: {tool!r}")
    return name


def _texts(result: Mapping[str, Any]) -> str:
    return "\n".join(block["text"] for block in result.get("content", []) if block.get("type") == "text")


def escalation_of(message: BaseMessage) -> dict[str, Any] | None:
    """The escalation record (a `CallToolResult` dict holding the `<partial_result>`) that `message` carries when
    it is the tool message `EnvelopeInterceptor` made for an escalation; None for any other message."""
    artifact = message.artifact if isinstance(message, ToolMessage) else None
    record = artifact.get("escalation") if isinstance(artifact, dict) else None
    return record if isinstance(record, dict) else None


class EnvelopeInterceptor:
    """A `langchain-mcp-adapters` tool-call interceptor (`tool_interceptors=[...]`) that runs each call through the
    host loop. `tools` are the server's `tools/list` entries (the mcp SDK's `Tool`s or their dicts), looked up by
    the called name: a tool's annotations decide whether a retry is safe, so a write that is neither read-only nor
    idempotent is never called twice; a tool not among them is decided from its answer alone. `budget` and `format`
    are the host loop's; `sleep` the wait's (takes seconds; a test passes one that records). Put it last among the
    interceptors, nearest the call: an answer an interceptor further in turned into a message goes on unread."""

    def __init__(
        self, tools: Iterable[Any] = (), *, budget: HostBudget | None = None, format: Format = "xml",
        sleep: Callable[[float], Awaitable[Any]] = _sleep,
    ) -> None:  # fmt: skip
        self.tools = {_name_of(tool): tool for tool in tools}
        self.budget = budget
        self.format: Format = format
        self.sleep = sleep

    async def __call__(self, request: MCPToolCallRequest, handler: Handler) -> MCPToolCallResult:
        try:
            outcome = await call_tool_with_recovery(
                _Calls(request, handler), request.name, request.args, tool=self.tools.get(request.name),
                budget=self.budget, format=self.format, sleep=self.sleep,
            )  # fmt: skip
        except _Passed as passed:
            return passed.result
        result = outcome["result"]
        if outcome["then"] == "escalate":
            return ToolMessage(
                content=_texts(result), tool_call_id=getattr(request.runtime, "tool_call_id", None) or "",
                name=request.name, status="error", artifact={"escalation": result, "tried": outcome["tried"]},
            )  # fmt: skip
        if "content" not in result:
            # A JSON-RPC error for the model (an unknown tool's -32602): its message, as a tool error.
            result = {"content": [{"type": "text", "text": str(result.get("message", ""))}], "isError": True}
        # The adapters send a result as the tool's result, and an isError one as the tool's error message.
        return CallToolResult.model_validate(result)


def _last_answers(messages: Sequence[AnyMessage]) -> list[ToolMessage]:
    """The tool messages the state ends with: the answers to the model's last tool calls (none when a new user
    message follows them, as when a thread goes on after a run that ended)."""
    answers: list[ToolMessage] = []
    for message in reversed(messages):
        if not isinstance(message, ToolMessage):
            break
        answers.append(message)
    return answers


class EndOnEscalation(AgentMiddleware[AgentState[Any], Any, Any]):
    """A `create_agent` middleware that ends the run before the model's next turn when one of the answers to the
    model's last tool calls holds an escalation record (`escalation_of`): the model is not asked again, and the
    run's last message is the record. A thread that goes on with a new user message runs as usual."""

    @hook_config(can_jump_to=["end"])
    def before_model(self, state: AgentState[Any], runtime: Runtime[Any]) -> dict[str, Any] | None:
        ended = any(escalation_of(message) is not None for message in _last_answers(state["messages"]))
        return {"jump_to": "end"} if ended else None

    @hook_config(can_jump_to=["end"])
    async def abefore_model(self, state: AgentState[Any], runtime: Runtime[Any]) -> dict[str, Any] | None:
        return self.before_model(state, runtime)
