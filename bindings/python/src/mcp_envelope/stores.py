"""Idempotency keys and repeat-ledger streaks held in a store a server's replicas share (docs/state.md): the core decides every step
(`idempotency-begin`, `idempotency-finish`, `ledger-failure`, `ledger-observe`) and writes every record; a store keeps them. A `StateStore` has two
operations, the same in every language: `get`, and `compare_and_set`, which writes (or removes) a key only if it
still holds what the caller read, with an expiry. Claiming a key is that one atomic step, so two replicas racing
on one key run the write once. `MemoryStore` is one process's; `mcp_envelope.redis.RedisStore` is shared.

    >>> import asyncio
    >>> from mcp_envelope.stores import MemoryStore, SharedIdempotency
    >>> store = SharedIdempotency(MemoryStore())
    >>> async def refund():
    ...     return {"content": [{"type": "text", "text": "Refunded"}], "isError": False}
    >>> asyncio.run(store.run("refund_order", "k-1", {"orderId": "A-1"}, refund))["isError"]
    False
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from ._component import ToolResult, check_format, scrub, spec_text, to_json, tool_result
from ._state import step, store_key
from .envelope import Format, ToolError
from .ledger import note_ledger_step, takes_no_ledger_step
from .writes import _as_result, _outcome, _whole, idempotent_tool

# How often a call that lost the race for a key reads it again before answering as if the store were down.
_CLAIM_ATTEMPTS = 3


class StoreUnavailable(Exception):
    """A store could not answer (down, timed out): what a `StateStore` raises, so that the write does not run."""


class StateStore(Protocol):
    """Where records live: text under text keys, each with an expiry."""

    async def get(self, key: str) -> str | None:
        """The text stored under `key`, or None."""
        ...

    async def compare_and_set(self, key: str, expected: str | None, value: str | None, ttl_ms: int) -> bool:
        """Stores `value` under `key` for `ttl_ms` milliseconds (removes the key when `value` is None), only if the
        key holds `expected` now (None: holds nothing); whether it did. One atomic step."""
        ...


class MemoryStore:
    """A `StateStore` in this process's memory: at most `capacity` keys, the first written going first. Its
    operations never await, so each is atomic under asyncio."""

    def __init__(self, capacity: int = 1000) -> None:
        self.capacity = max(1, _whole("capacity", capacity))
        self._records: dict[str, tuple[str, float]] = {}  # key: (text, expiry on the monotonic clock)

    async def get(self, key: str) -> str | None:
        found = self._records.get(key)
        if found is None or found[1] <= time.monotonic():
            return None
        return found[0]

    async def compare_and_set(self, key: str, expected: str | None, value: str | None, ttl_ms: int) -> bool:
        if await self.get(key) != expected:
            return False
        self._records.pop(key, None)
        if value is not None:
            self._records[key] = (value, time.monotonic() + ttl_ms / 1000)
            while len(self._records) > self.capacity:
                del self._records[next(iter(self._records))]
        return True


class SharedIdempotency:
    """An idempotency store whose records live in `store`, shared by every replica that reaches it: a replay on any
    replica gets the first outcome byte for byte, and the write runs once. `begin()` and `finish()` are the steps,
    `run()` does both around a handler, and `idempotent()` makes an MCP tool of it. A store that cannot answer
    never lets the write run: `begin` answers the core's retryable SERVER_BUSY (`"unavailable"`)."""

    def __init__(self, store: StateStore, ttl_seconds: int = 86_400) -> None:
        self.store, self.ttl_seconds = store, _whole("ttl_seconds", ttl_seconds)

    def _request(self, tool: str, key: str, **members: str) -> dict[str, str]:
        return {"tool": json.dumps(tool), "key": json.dumps(key), "ttlSeconds": str(self.ttl_seconds), **members}

    async def begin(
        self, tool: str, key: str, arguments: Any, *, now_ms: int | None = None, format: Format = "xml"
    ) -> dict[str, Any]:
        """`{"outcome": "run", "claim": <record>}` (run the write, then `finish` with the claim), or `{"outcome":
        "replay" | "reused" | "in-progress" | "invalid-key" | "unavailable", "ledger": "none" | "observe", "result":
        <CallToolResult to send>}`, as `Idempotency.begin`."""
        tool, key, form = scrub(tool), scrub(key), check_format(format)
        text = isinstance(arguments, str)
        args = ("argumentsText", json.dumps(scrub(arguments))) if text else ("arguments", to_json(arguments))
        where = store_key("idempotency-key", {"tool": tool, "key": key})
        request = self._request(tool, key, format=json.dumps(form), **{args[0]: args[1]})

        try:
            for _ in range(_CLAIM_ATTEMPTS):
                stored = await self.store.get(where)
                now = str(int(time.time() * 1000) if now_ms is None else now_ms)
                held = {} if stored is None else {"stored": json.dumps(stored)}
                answer = step("idempotency-begin", {**request, "nowMs": now, **held})
                claim = answer.pop("record", None)
                if claim is None:
                    break
                if await self.store.compare_and_set(where, stored, claim, answer.pop("ttlMs")):
                    return note_ledger_step(tool, {"outcome": "run", "claim": claim})
            else:  # the key changed under every read: answer as for a store that cannot be used
                raise StoreUnavailable(f"the key changed under {_CLAIM_ATTEMPTS} reads")
        except StoreUnavailable as down:
            logging.getLogger("mcp_envelope").warning("idempotency store unavailable: %s", down)
            answer = step("idempotency-begin", {**request, "nowMs": "0", "storeFailed": "true"})
        if "result" in answer:
            answer["result"] = tool_result(answer["result"])
        # A replay, the in-progress CONFLICT or SERVER_BUSY is noted so that no ledger counts it.
        return note_ledger_step(tool, answer)

    async def finish(self, tool: str, key: str, claim: str, result: Any, *, now_ms: int | None = None) -> str:
        """Stores the outcome of the call whose `begin` answered run with `claim` (a `CallToolResult` dict or mcp
        model; None when its handler raised): `"stored"`, `"released"` (a retryable failure: the key is free
        again), `"absent"` (the key no longer holds the claim), or `"unstored"` (the store could not answer: the
        claim stays until it expires, so the key answers in-progress and the write never runs twice)."""
        tool, key = scrub(tool), scrub(key)
        where = store_key("idempotency-key", {"tool": tool, "key": key})
        text = "null" if result is None else to_json(_as_result(result))
        now = str(int(time.time() * 1000) if now_ms is None else now_ms)
        request = self._request(tool, key, claim=json.dumps(claim), result=text, nowMs=now)
        answer = step("idempotency-finish", request)
        if answer["finished"] not in ("stored", "released"):
            return str(answer["finished"])
        try:
            written = await self.store.compare_and_set(where, claim, answer.get("record"), answer.get("ttlMs", 1))
        except StoreUnavailable as down:
            logging.getLogger("mcp_envelope").warning("idempotency store unavailable; outcome not stored: %s", down)
            return "unstored"
        return str(answer["finished"]) if written else "absent"

    async def run(
        self, tool: str, key: str, arguments: Any, write: Callable[[], Any], *, format: Format = "xml"
    ) -> ToolResult:
        """`begin`, then `write()` (sync or async, giving a `CallToolResult`; a raised ToolError is its outcome) if
        it says run, then `finish`. Another exception is stored as the unknown outcome and raised on."""
        begun = await self.begin(tool, key, arguments, format=format)
        if begun["outcome"] != "run":
            replayed: ToolResult = begun["result"]
            return replayed
        try:
            result = _as_result(await _outcome(write()))
        except ToolError as error:
            result = error.to_result(format)
        except BaseException:
            await self.finish(tool, key, begun["claim"], None)
            raise
        await self.finish(tool, key, begun["claim"], result)
        return result if isinstance(result, ToolResult) else tool_result(result)

    def idempotent(self, *, tool: str | None = None, key: str | None = None, format: Format = "xml") -> Any:
        """A decorator for an MCP tool function (sync or async) returning a `CallToolResult`, as
        `Idempotency.idempotent`."""
        return idempotent_tool(self.run, tool=tool, key=key, format=format)


class SharedLedger:
    """The repeat ledger of one conversation (`scope`: a session id, or what the host calls a conversation), its
    streaks in `store`, so that a model repeating a failure on alternating replicas still meets the stop.
    `failure()`, `observe()` and `success()` are `Ledger`'s, async. The ledger fails open: when the store cannot
    answer, or keeps changing under it, the failure is sent as itself."""

    def __init__(self, store: StateStore, scope: str, stop_after: int = 2) -> None:
        self.store, self.scope, self.stop_after = store, scope, _whole("stop_after", stop_after)

    async def _step(self, name: str, tool: str, members: dict[str, str], form: str) -> dict[str, Any] | None:
        """One step on `tool`'s streak with the record the store holds, its new record written back only if the
        streak is still the one read; None when the store cannot answer or keeps changing."""
        where = store_key("ledger-key", {"scope": scope_text(self.scope), "tool": scrub(tool)})

        try:
            for _ in range(_CLAIM_ATTEMPTS):
                streak = await self.store.get(where)
                held = {} if streak is None else {"streak": json.dumps(streak)}
                answer = step(name, {**members, "stopAfter": str(self.stop_after), **held})
                if "streak" not in answer:
                    return answer
                if await self.store.compare_and_set(where, streak, answer["streak"], answer.get("ttlMs", 1)):
                    return answer
        except StoreUnavailable as down:
            logging.getLogger("mcp_envelope").warning("ledger store unavailable; the result is sent as it is: %s", down)
        return None

    async def failure(
        self, tool: str, error: ToolError | Mapping[str, Any] | str, *, arguments: Any = None, format: Format = "xml"
    ) -> ToolResult:
        """The `CallToolResult` to send for this failure of `tool`, as `Ledger.failure`."""
        spec = spec_text(error.to_spec() if isinstance(error, ToolError) else error)
        form = check_format(format)
        members = {"spec": spec, "format": json.dumps(form), **_arguments_member(arguments)}
        answer = await self._step("ledger-failure", tool, members, form)
        if answer is None:  # fails open: the failure as itself
            answer = step("ledger-failure", members)
        return tool_result(answer["result"])

    async def observe(self, tool: str, result: Any, *, arguments: Any = None) -> ToolResult | None:
        """None to send a handler's result as it is, or the result to send instead, as `Ledger.observe`."""
        if takes_no_ledger_step(scrub(tool), result):
            return None
        if callable(getattr(result, "model_dump", None)):
            result = result.model_dump(mode="json", by_alias=True, exclude_none=True)
        answer = await self._step(
            "ledger-observe", tool, {"result": spec_text(result), **_arguments_member(arguments)}, "xml"
        )
        return tool_result(answer["result"]) if answer and "result" in answer else None

    async def success(self, tool: str) -> None:
        """A success for `tool`: its streak ends (the ledger fails open when the store cannot answer)."""
        where = store_key("ledger-key", {"scope": scope_text(self.scope), "tool": scrub(tool)})
        try:
            streak = await self.store.get(where)
            if streak is not None:
                await self.store.compare_and_set(where, streak, None, 1)
        except StoreUnavailable as down:
            logging.getLogger("mcp_envelope").warning("ledger store unavailable: %s", down)


def scope_text(scope: str) -> str:
    return scrub(str(scope))


def _arguments_member(arguments: Any) -> dict[str, str]:
    """The call's arguments as a request member: text read by the core, anything else as JSON."""
    if arguments is None:
        return {}
    if isinstance(arguments, str):
        return {"argumentsText": json.dumps(scrub(arguments))}
    return {"arguments": to_json(arguments)}
