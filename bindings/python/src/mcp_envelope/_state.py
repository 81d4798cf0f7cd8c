"""State the host holds for the core's pure steps: the repeat ledger's streaks
and the idempotency store's records, each the text the core wrote, kept under
the store key the core names. A lock makes one holder safe for a server's
threads; the component keeps nothing between calls, so a trap loses nothing."""

from __future__ import annotations

import _thread
import json
from types import TracebackType
from typing import Any, ClassVar

from ._component import call, call_json, to_json


def step(name: str, members: dict[str, str]) -> dict[str, Any]:
    """One pure step (`ledger-failure`, `idempotency-begin`, ...) on a request whose members are given as JSON
    text (so that arguments keep their numbers as written): its answer as a dict; SpecError with the core's
    words for a refusal. After a trap the core's `after-trap` answers in the step's own shape: an INTERNAL_ERROR
    for a failure, `unavailable` for a claim, nothing to store for an observation or a finish."""
    request = "{" + ",".join(f"{json.dumps(member)}:{text}" for member, text in members.items()) + "}"
    answer: dict[str, Any] = json.loads(call(name, request))
    return answer


def store_key(name: str, request: dict[str, str]) -> str:
    """The store key the core names (`ledger-key`, `idempotency-key`)."""
    key: str = call(name, to_json(request))
    return key


def ledger_store_key(scope: str, tool: str) -> str:
    """The store key of `tool`'s streak in the conversation `scope` (a session id, or what the host calls one)."""
    return store_key("ledger-key", {"scope": scope, "tool": tool})


def idempotency_store_key(tool: str, key: str) -> str:
    """The store key of `tool`'s idempotency key `key`."""
    return store_key("idempotency-key", {"tool": tool, "key": key})


def ledger_key_json(request: Any) -> str:
    """`ledger-key`: `{"scope", "tool"}` (a dict, or its JSON text) to the store key (plain text)."""
    return call_json("ledger-key", request)


def ledger_failure_json(request: Any) -> str:
    """`ledger-failure`: `{"spec", "streak"?, "arguments"?, "stopAfter"?, "format"?}` to `{"result", "streak"?}`."""
    return call_json("ledger-failure", request)


def ledger_observe_json(request: Any) -> str:
    """`ledger-observe`: `{"result", "streak"?, "arguments"?, "stopAfter"?}` to `{"result"?, "streak"?}`."""
    return call_json("ledger-observe", request)


def idempotency_key_json(request: Any) -> str:
    """`idempotency-key`: `{"tool", "key"}` to the store key (plain text)."""
    return call_json("idempotency-key", request)


def idempotency_begin_json(request: Any) -> str:
    """`idempotency-begin`: `{"tool", "key", "arguments", "nowMs", "stored"?, ...}` to `{"outcome", ...}`."""
    return call_json("idempotency-begin", request)


def idempotency_finish_json(request: Any) -> str:
    """`idempotency-finish`: `{"tool", "key", "claim", "result", "nowMs", "ttlSeconds"?}` to `{"finished", ...}`."""
    return call_json("idempotency-finish", request)


class HostState:
    """A lock and the records: `close()` (or leaving a `with`) forgets them, and later calls raise ValueError."""

    WHAT: ClassVar[str]  # in messages: "the ledger"

    def __init__(self) -> None:
        self._lock = _thread.allocate_lock()
        self._records: dict[str, str] = {}
        self._closed = False

    def _open_records(self) -> dict[str, str]:
        """The records, for a caller holding the lock; ValueError once closed."""
        if self._closed:
            raise ValueError(f"{self.WHAT} is closed")
        return self._records

    def close(self) -> None:
        """Forgets every record; later calls raise ValueError. Closing twice is harmless."""
        with self._lock:
            self._closed = True
            self._records.clear()

    def __enter__(self) -> Any:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()


def after_trap_json(request: Any) -> str:
    """`after-trap`: `{"call", "trap", "random", "format"?, "locale"?, "tool"?, "key"?}` to `{"then", "answer"?,
    "again"?, "log"}`: what a call that trapped answers (docs/state.md, "After a trap")."""
    return call_json("after-trap", request)
