"""The host loop (docs/host-loop.md) for Pydantic AI's MCP toolset: `EnvelopeMCPToolset` is an `MCPToolset` whose
tool calls go through `call_tool_with_recovery`, so a failed call reaches the model only when the model can do
something about it. Pydantic AI alone turns every `isError` result into a retry prompt, a permission refusal and
an outage as much as a wrong argument, and reads no code, category or retry-after.

What each answer means is the core's; the toolset only makes the call and tells Pydantic AI the outcome:

- `done`: the result, as `MCPToolset` hands a result to the model;
- `to-model` (what the model must fix: a `<validation_error>`, NOT_FOUND, ...): `ModelRetry` with the envelope,
  the retry prompt asking the model to call again;
- `escalate` (waiting spent, or nothing to retry): `ToolFailed` with the `<partial_result>` record, a failed tool
  result the model reads and reports, with no retry prompt and no retry spent. A transient failure was already
  waited out and called again within the budget, without a model turn.

Needs the `pydantic-ai` extra.

    server = EnvelopeMCPToolset(StdioTransport("python", ["server.py"]))
    agent = Agent(model, toolsets=[server])
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from ._integrations import require

require("pydantic_ai", "mcp_envelope.pydantic_ai", "pydantic-ai")

from fastmcp.client.client import CallToolResult as FastMCPCallToolResult
from mcp_types import CallToolResult
from pydantic_ai.exceptions import ModelRetry, ToolFailed
from pydantic_ai.mcp import MCPToolset, MCPToolsetClient, _app_resource_uri, _map_mcp_call_tool_result
from pydantic_ai.messages import ToolReturnPart
from pydantic_ai.tools import AgentDepsT, RunContext
from pydantic_ai.toolsets.abstract import ToolsetTool

from .envelope import Format
from .host_loop import HostBudget, _sleep, call_tool_with_recovery

__all__ = ["EnvelopeMCPToolset"]


class _Calls:
    """The toolset's own client as the host loop calls it: one `tools/call`, its raw result (`isError` included,
    not raised), a JSON-RPC error raised as the client raises it."""

    def __init__(self, toolset: MCPToolset[Any]) -> None:
        self.toolset = toolset

    async def call_tool(self, name: str, arguments: Mapping[str, Any]) -> CallToolResult:
        async with self.toolset:
            return await self.toolset.client.call_tool_mcp(name, dict(arguments))


def _for_model(result: Mapping[str, Any], *, prefer_structured: bool = False) -> Any:
    """A `CallToolResult` (its wire dict) as `MCPToolset` hands one to the model."""
    sent = CallToolResult.model_validate(result)
    parsed = FastMCPCallToolResult(sent.content, sent.structured_content, sent.meta, is_error=bool(sent.is_error))
    return _map_mcp_call_tool_result(parsed, prefer_structured=prefer_structured)


def _message(name: str, result: Mapping[str, Any]) -> str:
    """The text of an answer for a retry prompt or a failed tool result, worded as `MCPToolset` words a tool
    error; a JSON-RPC error as its message, as `MCPToolset` gives one to the model."""
    if "content" not in result:
        return str(result.get("message", ""))
    content = _for_model(result, prefer_structured=True)
    return ToolReturnPart(tool_name=name, content=content).model_response_str(wrap_if_error=False)


class EnvelopeMCPToolset(MCPToolset[AgentDepsT]):
    """An `MCPToolset` whose tool calls go through the host loop: a transient failure is waited out and called
    again within `budget` (no model turn), what the model can fix reaches it as a retry prompt (`ModelRetry`),
    and what it cannot (`escalate`) as a failed tool result holding the escalation record (`ToolFailed`), with no
    retry prompt. The tool's `tools/list` entry (the toolset's cached listing) goes with every call, so a write
    that is neither read-only nor idempotent is never called twice. `format` is the record's, `sleep` the wait's
    (takes seconds; a test passes one that records). Every other keyword is `MCPToolset`'s; `process_tool_call` and
    `tool_error_behavior` are refused, as the calls and their errors are the host loop's here. A tool Pydantic AI
    runs as a task, or one with an MCP Apps UI, is called as `MCPToolset` calls it."""

    def __init__(
        self, client: MCPToolsetClient, *, budget: HostBudget | None = None, format: Format = "xml",
        sleep: Callable[[float], Awaitable[Any]] = _sleep, **options: Any,
    ) -> None:  # fmt: skip
        for taken in ("process_tool_call", "tool_error_behavior"):
            if taken in options:
                raise TypeError(f"EnvelopeMCPToolset makes the tool calls itself: {taken} is not taken")
        super().__init__(client, **options)
        self.budget = budget
        self.format: Format = format
        self.sleep = sleep

    async def call_tool(
        self, name: str, tool_args: dict[str, Any], ctx: RunContext[Any], tool: ToolsetTool[Any]
    ) -> Any:
        if (tool.tool_def.metadata or {}).get("task") or _app_resource_uri(tool.tool_def) is not None:
            return await super().call_tool(name, tool_args, ctx, tool)
        listed = next((entry for entry in await self.list_tools() if entry.name == name), None)
        outcome = await call_tool_with_recovery(
            _Calls(self), name, tool_args, tool=listed, budget=self.budget, format=self.format, sleep=self.sleep
        )
        if outcome["then"] == "done":
            return _for_model(outcome["result"])
        if outcome["then"] == "to-model":
            raise ModelRetry(_message(name, outcome["result"]))
        raise ToolFailed(_message(name, outcome["result"]))
