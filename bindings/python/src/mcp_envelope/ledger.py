"""The repeat ledger: one conversation's memory of each tool's last failure, so
an identical retry is told that nothing has changed and a run of them is told to
stop (docs/repeat-ledger.md). The core decides each step (`ledger-failure`,
`ledger-observe`) from the tool's streak record, which this class holds, under a
lock, so a ledger shared by a server's threads is safe.

    >>> from mcp_envelope import ToolError
    >>> from mcp_envelope.server import Ledger
    >>> with Ledger() as ledger:
    ...     error = ToolError("NOT_FOUND", "No invoice inv_9")
    ...     first, second, third = (ledger.failure("get_invoice", error, arguments={"id": "inv_9"}) for _ in range(3))
    >>> print(second["content"][0]["text"])
    <tool_error code="NOT_FOUND" severity="error">
      <message>Nothing has changed since the last attempt: the same failure again (2 in a row).</message>
      <recovery>Check the identifier: look the item up or list the available ones, then call again with a real one.</recovery>
    </tool_error>
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from contextvars import ContextVar
from typing import Any

from ._component import ToolResult, check_format, scrub, spec_text, to_json, tool_result
from ._state import HostState, step
from .envelope import Format, ToolError

_U32 = 1 << 32

# The result an idempotency store answered with in the call running in this context, when the core named no ledger
# step for it (`"ledger": "none"`: a replay, the in-progress CONFLICT, the store's SERVER_BUSY), as its tool and what
# it says. The SDKs rebuild a tool's result on its way to the ledger, so it is known by its words, not its identity;
# each `begin` sets it anew, so it never outlives the call that set it.
_SENT_INSTEAD: ContextVar[tuple[str, Any] | None] = ContextVar("mcp_envelope_sent_instead", default=None)


def _said(result: Any) -> Any:
    """What a `CallToolResult` (a dict, or the mcp SDK's model) says: whether it is an error, and its blocks' texts."""
    if callable(getattr(result, "model_dump", None)):
        result = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    if not isinstance(result, Mapping) or not isinstance(result.get("content"), list):
        return None
    return result.get("isError") is True, [b.get("text") for b in result["content"] if isinstance(b, Mapping)]


def note_ledger_step(tool: str, answer: dict[str, Any]) -> dict[str, Any]:
    """`answer`, a store's `begin` for `tool`, noted for the ledgers of this call when the core names no ledger step
    for the result it sends instead, so that no ledger counts it or ends a streak on it."""
    noted = answer.get("ledger") == "none" and "result" in answer
    _SENT_INSTEAD.set((tool, _said(answer["result"])) if noted else None)
    return answer


def takes_no_ledger_step(tool: str, result: Any) -> bool:
    """Whether `result` of `tool` is the store's answer noted by `note_ledger_step` in this call (which it consumes):
    a ledger then sends it as it is."""
    noted = _SENT_INSTEAD.get()
    if noted is None or noted != (tool, _said(result)):
        return False
    _SENT_INSTEAD.set(None)
    return True


class Ledger(HostState):
    """One conversation's repeat ledger: `failure()` gives the result to send for a failure of a tool (the error
    itself, then a short "nothing has changed", then past `stop_after` identical ones an envelope telling the
    model to stop), `success()` ends that tool's streak, and `observe()` does either for any result a handler
    produced. Close it (or use `with`) to forget its streaks."""

    WHAT = "the ledger"

    def __init__(self, stop_after: int = 2) -> None:
        if isinstance(stop_after, bool) or not isinstance(stop_after, int) or not 0 <= stop_after < _U32:
            raise ValueError(f"stop_after must be a whole number from 0 to {_U32 - 1}, not {stop_after!r}")
        self.stop_after = stop_after
        super().__init__()

    def failure(
        self, tool: str, error: ToolError | Mapping[str, Any] | str, *, arguments: Any = None, format: Format = "xml"
    ) -> ToolResult:
        """The `CallToolResult` dict (a ToolResult) to send for this failure of `tool`. `error` is a ToolError or an error spec
        (a dict, such as a reading's `"error"`, or its JSON text); `arguments`, the call's arguments as the model
        sent them (a dict, or their JSON text), join the key: other arguments are another failure. SpecError
        when the spec is refused. A trap (logged) answers with its INTERNAL_ERROR and counts nothing."""
        spec = spec_text(error.to_spec() if isinstance(error, ToolError) else error)
        request = {"spec": spec, "format": json.dumps(check_format(format)), **self._arguments(arguments)}
        # After a trap (logged) the core answers INTERNAL_ERROR and leaves the streak as it was.
        answer = self._step("ledger-failure", tool, request)
        return tool_result(answer["result"])

    def observe(self, tool: str, result: Any, *, arguments: Any = None) -> ToolResult | None:
        """Watches a result a handler of `tool` produced, whatever built it (a `CallToolResult` dict, the `mcp`
        SDK's model, or its JSON text): None to send it as it is, or the `CallToolResult` dict to send instead
        for a repeated failure, in the result's own form. The core decides: an error result holding a
        `<tool_error>` is a failure; a success ends the streak; a warning, a `<validation_error>`, a partial
        result or an error without an envelope leave it alone, and so does an idempotency store's replay,
        in-progress CONFLICT or SERVER_BUSY returned in this call. SpecError for what is no `CallToolResult`.
        After a trap (logged) the result is sent as it is and counts nothing: the ledger fails open."""
        if takes_no_ledger_step(scrub(tool), result):
            return None
        if callable(getattr(result, "model_dump", None)):  # the mcp SDK's CallToolResult
            result = result.model_dump(mode="json", by_alias=True, exclude_none=True)
        request = {"result": spec_text(result), **self._arguments(arguments)}
        # After a trap (logged) the core sends the result as it is and leaves the streak (the ledger fails open).
        answer = self._step("ledger-observe", tool, request)
        return tool_result(answer["result"]) if "result" in answer else None

    def _step(self, name: str, tool: str, request: dict[str, str]) -> dict[str, Any]:
        """One step on `tool`'s streak, under the lock: the core's answer, its streak record kept."""
        tool = scrub(tool)
        with self._lock:
            streaks = self._open_records()
            if tool in streaks:
                request["streak"] = json.dumps(streaks[tool])
            answer = step(name, {**request, "stopAfter": str(self.stop_after)})
            if "streak" in answer:
                if answer["streak"] is None:
                    streaks.pop(tool, None)
                else:
                    streaks[tool] = answer["streak"]
        return answer

    @staticmethod
    def _arguments(arguments: Any) -> dict[str, str]:
        """The call's arguments as a request member: as given when JSON text (the model's own), else as JSON."""
        if arguments is None:
            return {}
        if isinstance(arguments, str):  # read by the core, which refuses text that is not JSON
            return {"argumentsText": json.dumps(scrub(arguments))}
        return {"arguments": to_json(arguments)}

    def success(self, tool: str) -> None:
        """A success for `tool`: its streak ends."""
        with self._lock:
            self._open_records().pop(scrub(tool), None)

    def __enter__(self) -> Ledger:
        return self

    def __repr__(self) -> str:
        return f"Ledger(stop_after={self.stop_after}){' (closed)' if self._closed else ''}"
