"""The agent host's side of a failed tool call (docs/host-loop.md): after each answer the core's `host-step` says
whether the host waits and calls again on its own, hands the answer to the model, returns it, or escalates with the
`<partial_result>` record of what it tried. This module only makes the calls (through any MCP client session with
`call_tool`), sleeps, and keeps the attempts between steps; every rule and every word is the core's."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Literal, TypedDict

from ._component import call
from ._wire import HostAttempt
from ._wire import HostBudget as HostBudget
from .envelope import Format, _json_of

__all__ = ["HostBudget", "Recovered", "call_tool_with_recovery", "host_step", "host_step_json"]


class Recovered(TypedDict):
    """What `call_tool_with_recovery` ends with: `done` (the answer is the outcome), `to-model` (give it to the
    model, which must change the call) or `escalate` (the host could not resolve it; `result` is the record)."""

    then: Literal["done", "to-model", "escalate"]
    result: dict[str, Any]
    tried: list[HostAttempt]


def host_step(
    name: str, result: Any, *, tool: Any = None, tried: Sequence[Mapping[str, Any]] = (),
    budget: HostBudget | None = None, format: Format = "xml",
) -> dict[str, Any]:  # fmt: skip
    """The host's next step after `result` (the answer to a call of the tool `name`: a `CallToolResult` or a JSON-RPC
    error, as a dict, an mcp model or JSON text), as the core decides it: `{"then": "retry", "waitMs", "tried"}`,
    `{"then": "done" | "to-model", "tried"}` or `{"then": "escalate", "result": <the record's CallToolResult>,
    "tried"}`. `tool` is the tool's `tools/list` entry (its annotations say whether a retry is safe); `tried` the
    attempts the previous step gave back."""
    request = "{" + f'"name":{json.dumps(name)},"result":{_json_of(result)},"tried":{json.dumps(list(tried))}'
    if tool is not None:
        request += f',"tool":{_json_of(tool)}'
    if budget is not None:
        request += f',"budget":{json.dumps(budget)}'
    step: dict[str, Any] = json.loads(host_step_json(request + f',"format":{json.dumps(format)}' + "}"))
    return step


def host_step_json(request: Any) -> str:
    """`host-step` for `{"name", "result", "tool"?, "tried"?, "budget"?, "format"?}` (a dict or its JSON text), as
    the component's exact JSON text."""
    text: str = call("host-step", request if isinstance(request, str) else json.dumps(request, ensure_ascii=False))
    return text


async def _sleep(seconds: float) -> None:
    """A sleep in whichever event loop runs: anyio's (the mcp SDK's, asyncio or trio) where installed, else asyncio's."""
    try:
        import anyio
    except ImportError:
        import asyncio

        await asyncio.sleep(seconds)
        return
    await anyio.sleep(seconds)


def _error_of(error: BaseException) -> dict[str, Any] | None:
    """A JSON-RPC error a client raised (the mcp SDK's MCPError, 1.x's McpError: their `error` is the ErrorData), as
    `{"code", "message", "data"?}`; None for any other exception."""
    data = getattr(error, "error", None)
    if data is None or not callable(getattr(data, "model_dump", None)):
        return None
    wire: dict[str, Any] = data.model_dump(mode="json", by_alias=True, exclude_none=True)
    return wire if isinstance(wire.get("code"), int) else None


async def call_tool_with_recovery(
    session: Any, name: str, arguments: Mapping[str, Any] | None = None, *, tool: Any = None,
    budget: HostBudget | None = None, format: Format = "xml", sleep: Callable[[float], Awaitable[Any]] = _sleep,
) -> Recovered:  # fmt: skip
    """Calls the tool `name` through `session` (the mcp SDK's `ClientSession` or `Client`, or anything with an async
    `call_tool(name, arguments)`) and absorbs what the host can without a model turn: a transient failure is waited
    out and called again within the budget, as the answer's retry-after and the tool's annotations (`tool`, its
    `tools/list` entry) allow; a write that is neither read-only nor idempotent is never retried blindly. Ends with
    the answer for the caller (`done`), the answer for the model to fix (`to-model`; a JSON-RPC error as
    `{"code", "message", "data"?}`), or the record to escalate (`escalate`). A failure of the transport itself is
    raised as it came. `sleep` takes seconds."""
    tried: list[HostAttempt] = []
    while True:
        try:
            received = await session.call_tool(name, dict(arguments or {}))
            answer: dict[str, Any] = json.loads(_json_of(received))
        except Exception as error:
            wire = _error_of(error)
            if wire is None:
                raise
            answer = wire
        step = host_step(name, answer, tool=tool, tried=tried, budget=budget, format=format)
        tried = step["tried"]
        if step["then"] == "retry":
            await sleep(step["waitMs"] / 1000)
            continue
        return {
            "then": step["then"],
            "result": step["result"] if step["then"] == "escalate" else answer,
            "tried": tried,
        }
