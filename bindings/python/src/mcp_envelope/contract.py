"""Contract changes (docs/contract-diff.md): the lockfile of a server's tool list, and what changed from it to
today's list, each change classified by the core as BREAKING, RISKY, SAFE or COSMETIC, in the shape a spec's
`deltas` take. A tool list is any form the core reads, as parsed JSON: a `tools/list` result (`{"tools":
[...]}`), a JSON-RPC response carrying one, its `tools` array, or a lockfile (`json.load(open("tools.lock.json"))`);
the mcp SDK's `ListToolsResult` is taken as its JSON."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from ._component import call_json

__all__ = ["LockedContract", "contract_diff", "contract_lock"]

# A tools/list result, its tools array, a lockfile, or the SDK's ListToolsResult.
ToolList = Any


def _as_json(tools: ToolList) -> Any:
    if callable(getattr(tools, "model_dump", None)):  # the mcp SDK's ListToolsResult
        return tools.model_dump(mode="json", by_alias=True, exclude_none=True)
    return tools


def contract_lock(tools: ToolList) -> str:
    """The lockfile's text for a tool list: the tools sorted by name, every key sorted, one spelling for numbers,
    two-space indents, and the SHA-256 of the canonical tools; a `str` is the list's (or a lockfile's) JSON text.
    SpecError when the list is not one."""
    return contract_lock_json(_as_json(tools))


def contract_lock_json(tools: Any) -> str:
    """`contract-lock` for a tool list (a dict or list, or its JSON text), as the component's exact text."""
    return call_json("contract-lock", tools)


def contract_diff(lock: ToolList, tools: ToolList) -> list[dict[str, Any]]:
    """What changed from `lock` (the tools a model learned) to `tools` (today's): a list of deltas, each
    `{"severity", "action", "field", "description", "before"?, "after"?}`. SpecError for a list that is not one,
    or a lockfile edited by hand."""
    request = {"lock": _as_json(lock), "tools": _as_json(tools)}
    deltas: list[dict[str, Any]] = json.loads(contract_diff_json(request))
    return deltas


def contract_diff_json(request: Any) -> str:
    """`contract-diff` for `{"lock", "tools"}` (a dict or its JSON text), as the component's exact JSON text."""
    return call_json("contract-diff", request)


def listed(tools: Iterable[Any]) -> list[Any]:
    """Tools as `tools/list` sends them, as JSON: an SDK `Tool` dumped by its wire names, FastMCP's `Tool` through
    its `to_mcp_tool()`, a dict as it is."""
    out = []
    for tool in tools:
        if callable(getattr(tool, "to_mcp_tool", None)):
            tool = tool.to_mcp_tool()
        out.append(_as_json(tool))
    return out


class LockedContract:
    """An integration's lockfile (its text, or the parsed JSON), read at start, and the deltas from it to the tools
    the server lists, computed once, at the first call that needs them. A lockfile the core cannot read is refused
    here (SpecError), as a programmer's mistake."""

    def __init__(self, lockfile: ToolList) -> None:
        self.lock = json.loads(lockfile) if isinstance(lockfile, (str, bytes)) else _as_json(lockfile)
        contract_diff(self.lock, [])  # refuses an unreadable lock now, not at the first failed call
        self._deltas: list[dict[str, Any]] | None = None

    async def deltas(self, list_tools: Callable[[], Awaitable[Iterable[Any]]]) -> list[dict[str, Any]]:
        """The deltas to the tools `list_tools()` gives (once; the core keeps the failing tool's BREAKING and RISKY
        ones when an envelope shows them)."""
        if self._deltas is None:
            self._deltas = contract_diff(self.lock, listed(await list_tools()))
        return self._deltas
