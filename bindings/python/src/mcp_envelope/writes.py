"""The write path and waiting (docs/idempotency-and-backoff.md): an idempotency store whose replay gets the first
outcome, and a bounded retry inside one tool call. The core decides everything an envelope says (what is stored,
the canonical arguments, the refusals, each wait and the terminal envelope); this module gives it names, the
clock, the sleeping and the MCP progress notification.

    >>> from mcp_envelope.server import Idempotency
    >>> with Idempotency() as store:
    ...     store.begin("refund_order", "k-1", {"orderId": "A-1"})["outcome"]
    ...     store.finish("refund_order", "k-1", {"content": [], "isError": False})
    ...     store.begin("refund_order", "k-1", {"orderId": "A-1"})
    'run'
    'stored'
    {'outcome': 'replay', 'ledger': 'none', 'result': {'content': [], 'isError': False}}
"""

from __future__ import annotations

import functools
import json
import os
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

from ._component import ToolResult, call_json, check_format, scrub, to_json, tool_result
from ._state import HostState, step
from .envelope import Format, ToolError
from .ledger import note_ledger_step
from .recovery import idempotency_key_argument

_U32 = 1 << 32
F = TypeVar("F", bound=Callable[..., Any])


def _local_key(tool: str, key: str) -> str:
    """The in-memory store's key for a record: its records live in this process only, so no component call."""
    return json.dumps([tool, key])


def _whole(name: str, value: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < _U32:
        raise ValueError(f"{name} must be a whole number from 0 to {_U32 - 1}, not {value!r}")
    return value


def _as_result(value: Any) -> Any:
    """A handler's outcome as a `CallToolResult` dict: a raised or returned ToolError as its result, the mcp SDK's
    model dumped; a dict as it is."""
    if isinstance(value, ToolError):
        return value.to_result()
    if callable(getattr(value, "model_dump", None)):
        return value.model_dump(mode="json", by_alias=True, exclude_none=True)
    return value


async def _outcome(value: Any) -> Any:
    import inspect  # here, not at import: `import mcp_envelope` loads only what every user needs

    return await value if inspect.isawaitable(value) else value


class Idempotency(HostState):
    """A server's idempotency store: at most `capacity` keys (1,000), each kept `ttl_seconds` (86,400: 24 hours),
    the first claimed evicted first. `begin()` says whether to run a write or what to send instead, `finish()`
    stores its outcome, `run()` does both around a handler, and `idempotent()` makes an MCP tool of it. The core
    decides each step and writes each key's record; this class holds the records in memory, under a lock, so one
    store may serve a server's threads. Close it (or use `with`) to forget them."""

    WHAT = "the idempotency store"

    def __init__(self, capacity: int = 1000, ttl_seconds: int = 86_400) -> None:
        self.capacity, self.ttl_seconds = _whole("capacity", capacity), _whole("ttl_seconds", ttl_seconds)
        super().__init__()

    @staticmethod
    def _now(now_ms: int | None) -> int:
        return int(time.time() * 1000) if now_ms is None else now_ms

    def begin(
        self, tool: str, key: str, arguments: Any, *, now_ms: int | None = None, format: Format = "xml"
    ) -> dict[str, Any]:
        """A call of `tool` with `key` and `arguments` (a dict, or its JSON text): `{"outcome": "run"}`, or
        `{"outcome": "replay" | "reused" | "in-progress" | "invalid-key" | "unavailable", "ledger": "none" |
        "observe", "result": <CallToolResult to send>}` (`"unavailable"` when the component trapped: the write does
        not run unguarded). `"ledger": "none"` (a replay, in-progress, unavailable): no repeat ledger counts the
        result or ends a streak on it when a tool returns it in this call."""
        tool, key, form = scrub(tool), scrub(key), check_format(format)
        where = _local_key(tool, key)
        # Text is read by the core, which refuses text that is not JSON.
        text = isinstance(arguments, str)
        args = ("argumentsText", json.dumps(scrub(arguments))) if text else ("arguments", to_json(arguments))
        request = {
            "tool": json.dumps(tool), "key": json.dumps(key), args[0]: args[1], "nowMs": str(self._now(now_ms)),
            "ttlSeconds": str(self.ttl_seconds), "format": json.dumps(form),
        }  # fmt: skip
        with self._lock:
            records = self._open_records()
            if where in records:
                request["stored"] = json.dumps(records[where])
            # After a trap (logged) the core answers unavailable: the write does not run unguarded.
            answer = step("idempotency-begin", request)
            claim = answer.pop("record", None)
            answer.pop("ttlMs", None)
            if claim is not None:  # nothing runs between reading the key and storing the claim under the lock
                records.pop(where, None)
                records[where] = claim
                while len(records) > max(1, self.capacity):
                    del records[next(iter(records))]
        if "result" in answer:
            answer["result"] = tool_result(answer["result"])
        # A replay, the in-progress CONFLICT or SERVER_BUSY is noted so that no ledger counts it.
        return note_ledger_step(tool, answer)

    def finish(self, tool: str, key: str, result: Any, *, now_ms: int | None = None) -> str:
        """The outcome of a call `begin` let run (a `CallToolResult` dict or mcp model; None when its handler
        raised): `"stored"`, `"released"` (a retryable failure: the key is free again), `"absent"`, or `"kept"` (the
        component trapped: the claim stays until it expires, so the key never runs twice)."""
        text = "null" if result is None else to_json(_as_result(result))
        tool, key = scrub(tool), scrub(key)
        where = _local_key(tool, key)
        with self._lock:
            claim = self._open_records().get(where)
            if claim is None or "result" in json.loads(claim):
                return "absent"
            request = {
                "tool": json.dumps(tool), "key": json.dumps(key), "claim": json.dumps(claim), "result": text,
                "nowMs": str(self._now(now_ms)), "ttlSeconds": str(self.ttl_seconds),
            }  # fmt: skip
            # After a trap (logged) the core answers "kept": the claim stays, so the key answers in-progress until
            # it expires and never runs twice.
            answer = step("idempotency-finish", request)
            if answer["finished"] == "stored":
                self._records[where] = answer["record"]
            elif answer["finished"] == "released":
                del self._records[where]
        finished: str = answer["finished"]
        return finished

    async def run(
        self, tool: str, key: str, arguments: Any, write: Callable[[], Any], *, format: Format = "xml"
    ) -> ToolResult:
        """`begin`, then `write()` (sync or async, giving a `CallToolResult`; a raised ToolError is its outcome) if
        it says run, then `finish`. Another exception is stored as the unknown outcome and raised on."""
        begun = self.begin(tool, key, arguments, format=format)
        if begun["outcome"] != "run":
            replayed: ToolResult = begun["result"]
            return replayed
        try:
            result = _as_result(await _outcome(write()))
        except ToolError as error:
            result = error.to_result(format)
        except BaseException:
            self.finish(tool, key, None)
            raise
        self.finish(tool, key, result)
        return result if isinstance(result, ToolResult) else tool_result(result)

    def idempotent(
        self, *, tool: str | None = None, key: str | None = None, format: Format = "xml"
    ) -> Callable[[F], F]:
        """A decorator for an MCP tool function (sync or async) returning a `CallToolResult` (a ToolResult, such as
        the package's helpers give, or raising a ToolError): the keyword argument `key` (by default
        `idempotency_key`, the name the core gives every language) is the idempotency key; without it the tool runs
        as usual. The arguments compared are the call's keyword arguments less the SDK's
        Context. Put it under `@server.tool()`:

            @server.tool()
            @store.idempotent()
            async def refund_order(order_id: str, amount_cents: int, idempotency_key: str | None = None) -> ToolResult: ...
        """

        return idempotent_tool(self.run, tool=tool, key=key, format=format)

    def __enter__(self) -> Idempotency:
        return self

    def __repr__(self) -> str:
        closed = " (closed)" if self._closed else ""
        return f"Idempotency(capacity={self.capacity}, ttl_seconds={self.ttl_seconds}){closed}"


def idempotent_tool(
    run: Callable[..., Awaitable[ToolResult]], *, tool: str | None, key: str | None, format: Format
) -> Callable[[F], F]:
    """The `idempotent()` decorator of a store whose `run(tool, key, arguments, write, format=...)` is `run`: the
    keyword argument `key` is the idempotency key (without it the tool runs as usual), and the arguments compared
    are the call's keyword arguments less the SDK's Context."""

    argument = idempotency_key_argument() if key is None else key

    def wrap(fn: F) -> F:
        name = tool or fn.__name__

        @functools.wraps(fn)
        async def tool_fn(*args: Any, **kwargs: Any) -> Any:
            given = kwargs.get(argument)
            if given is None:
                return await _outcome(fn(*args, **kwargs))
            arguments = {k: v for k, v in kwargs.items() if not _is_context(v)}
            return await run(name, str(given), arguments, lambda: fn(*args, **kwargs), format=format)

        return tool_fn  # type: ignore[return-value]

    return wrap


def _is_context(value: Any) -> bool:
    """The mcp SDK's Context, which a tool may take and which is no argument the model sent."""
    return callable(getattr(value, "report_progress", None)) and hasattr(value, "request_context")


def backoff_json(request: Any) -> str:
    """`backoff` as the component's exact JSON text (`request`: a dict, or its JSON text)."""
    return call_json("backoff", request)


def backoff(request: Mapping[str, Any] | str) -> dict[str, Any]:
    """The next step of a bounded retry: `{"waitMs", "progress": {"progress", "total", "message"}}` or
    `{"result": <CallToolResult>}`; `request` is `{"attempt", "elapsedMs", "deadlineMs", "failure", "baseMs"?,
    "maxAttempts"?, "random"?}` (docs/idempotency-and-backoff.md)."""
    step: dict[str, Any] = json.loads(backoff_json(request))
    if "result" in step:
        step["result"] = tool_result(step["result"])
    return step


async def retry_within(
    fn: Callable[[], Any | Awaitable[Any]],
    *,
    deadline_ms: int,
    ctx: Any = None,
    base_ms: int | None = None,
    max_attempts: int | None = None,
    jitter: bool = False,
) -> ToolResult:
    """Calls `fn()` (sync or async, giving a `CallToolResult`; a raised ToolError is its outcome) until the core says
    to stop: its result when it succeeds or fails for good, else the terminal envelope (not retryable) once
    `deadline_ms` (from the first attempt, under the client's timeout) or the attempts run out. Before each wait it
    reports progress through `ctx.report_progress` (the mcp SDK's Context: a no-op unless the request asked)."""
    start = time.monotonic()
    attempt = 0
    while True:
        attempt += 1
        try:
            failure = _as_result(await _outcome(fn()))
        except ToolError as error:
            failure = error.to_result()
        request: dict[str, Any] = {
            "attempt": attempt, "elapsedMs": int((time.monotonic() - start) * 1000), "deadlineMs": deadline_ms,
            "failure": failure,
        }  # fmt: skip
        for name, value in (("baseMs", base_ms), ("maxAttempts", max_attempts)):
            if value is not None:
                request[name] = value
        if jitter:
            request["random"] = int.from_bytes(os.urandom(4), "big")
        step = backoff(request)
        if "result" in step:
            result: ToolResult = step["result"]
            return result
        progress = step["progress"]
        if ctx is not None:
            await ctx.report_progress(progress["progress"], progress["total"], progress["message"])
        import asyncio  # here, not at import: asyncio takes most of a bare `import mcp_envelope` otherwise

        await asyncio.sleep(step["waitMs"] / 1000)
