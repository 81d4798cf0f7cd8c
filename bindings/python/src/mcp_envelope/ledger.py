"""The repeat ledger: one conversation's memory of each tool's last failure, so
an identical retry is told that nothing has changed and a run of them is told to
stop (docs/repeat-ledger.md). The memory is the core's `ledger` resource; a
resource lives in one store, so each Ledger has a store and instance of its own
and a lock, and a ledger shared by a server's threads is safe.

    >>> from mcp_envelope import Ledger, ToolError
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

from collections.abc import Mapping
from typing import Any

from ._component import ComponentTrap, ToolResult, check_format, scrub, spec_text, to_json
from ._component import tool_result, trap_report
from ._resource import ComponentResource
from .envelope import Format, ToolError
from .errors import SpecError

_U32 = 1 << 32


class Ledger(ComponentResource):
    """One conversation's repeat ledger: `failure()` gives the result to send for a failure of a tool (the error
    itself, then a short "nothing has changed", then past `stop_after` identical ones an envelope telling the
    model to stop), `success()` ends that tool's streak, and `observe()` does either for any result a handler
    produced. Close it (or use `with`) to free its store early."""

    RESOURCE = "ledger"
    WHAT = "the ledger"

    def __init__(self, stop_after: int = 2) -> None:
        if isinstance(stop_after, bool) or not isinstance(stop_after, int) or not 0 <= stop_after < _U32:
            raise ValueError(f"stop_after must be a whole number from 0 to {_U32 - 1}, not {stop_after!r}")
        self.stop_after = stop_after
        super().__init__(stop_after)

    def failure(
        self, tool: str, error: ToolError | Mapping[str, Any] | str, *, arguments: Any = None, format: Format = "xml"
    ) -> ToolResult:
        """The `CallToolResult` dict (a ToolResult) to send for this failure of `tool`. `error` is a ToolError or an error spec
        (a dict, such as a reading's `"error"`, or its JSON text); `arguments`, the call's arguments as the model
        sent them (a dict, or their JSON text), join the key: other arguments are another failure. SpecError
        when the spec is refused. After a trap the ledger starts afresh (its memory is lost, and logged) and
        this failure is its first."""
        spec = spec_text(error.to_spec() if isinstance(error, ToolError) else error)
        params = (scrub(tool), spec, self._arguments(arguments), check_format(format))
        outcome = self._retrying("failure", params, format)
        if isinstance(outcome, dict):  # this failure itself trapped: its INTERNAL_ERROR instead
            answer: ToolResult = outcome["result"]
            return answer
        if outcome.tag != "ok":
            raise SpecError(outcome.payload)
        return tool_result(outcome.payload)

    def observe(self, tool: str, result: Any, *, arguments: Any = None) -> ToolResult | None:
        """Watches a result a handler of `tool` produced, whatever built it (a `CallToolResult` dict, the `mcp`
        SDK's model, or its JSON text): None to send it as it is, or the `CallToolResult` dict to send instead
        for a repeated failure, in the result's own form. The core decides: an error result holding a
        `<tool_error>` is a failure; a success ends the streak; a warning, a `<validation_error>`, a partial
        result or an error without an envelope leave it alone. SpecError for what is no `CallToolResult`.
        After a trap the ledger starts afresh (its memory lost, and logged) and watches this result as its
        first; if that traps too, the result is sent as it is."""
        if callable(getattr(result, "model_dump", None)):  # the mcp SDK's CallToolResult
            result = result.model_dump(mode="json", by_alias=True, exclude_none=True)
        params = (scrub(tool), spec_text(result), self._arguments(arguments))
        outcome = self._retrying("observe", params)
        if isinstance(outcome, dict):  # this result itself trapped: sent as it is
            return None
        if outcome.tag != "ok":
            raise SpecError(outcome.payload)
        return None if outcome.payload is None else tool_result(outcome.payload)

    def _retrying(self, method: str, params: tuple[Any, ...], format: str = "xml") -> Any:
        """The method's outcome, under the lock. After a trap (logged) the fresh ledger takes the call as its
        first; if that traps too, the trap's report (a dict with the INTERNAL_ERROR `"result"`) instead."""
        with self._lock:
            try:
                return self._call(method, *params)
            except ComponentTrap as trap:
                trap_report(trap, format)  # logged; the fresh ledger takes this call as its first
            try:
                return self._call(method, *params)
            except ComponentTrap as again:
                return trap_report(again, format)

    @staticmethod
    def _arguments(arguments: Any) -> str | None:
        """The call's arguments as JSON text: as given when text (the model's own), else as JSON."""
        if arguments is None:
            return None
        return scrub(arguments) if isinstance(arguments, str) else to_json(arguments)

    def success(self, tool: str) -> None:
        """A success for `tool`: its streak ends."""
        with self._lock:
            try:
                self._call("success", scrub(tool))
            except ComponentTrap as trap:  # the fresh ledger has no streak to end
                trap_report(trap)

    def __enter__(self) -> Ledger:
        return self

    def __repr__(self) -> str:
        return f"Ledger(stop_after={self.stop_after}){' (closed)' if self._closed else ''}"
