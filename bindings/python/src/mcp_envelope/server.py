"""The server toolkit around the envelopes: recovery helpers for the usual failures, answers for a stale revision,
the repeat ledger, idempotent writes and the stores that share them between replicas, and backoff for a flaky
upstream (docs/recovery-features.md, docs/state.md). Each name is defined in its own module; this one gathers
them.

    >>> from mcp_envelope.server import forbidden
    >>> print(forbidden("refund", "order A-8812")["content"][0]["text"])
    <tool_error code="FORBIDDEN" severity="error">
      <message>Not permitted: the caller may not refund order A-8812.</message>
      <recovery>Do not retry or probe. Tell the user this needs access they do not have.</recovery>
      <customer_message>You don't have permission to do this. If you need it, ask an administrator for access.</customer_message>
    </tool_error>
"""

from .ledger import Ledger
from .recovery import (
    AccessKind,
    ExceptionReport,
    UnknownToolAnswer,
    UnknownToolOption,
    UpstreamReport,
    access_error,
    answer_for_revision,
    auth_required,
    empty_result,
    exception_result,
    forbidden,
    idempotency_key_argument,
    unknown_tool,
    upstream_error,
    user_error,
)
from .stores import MemoryStore, SharedIdempotency, SharedLedger, StateStore, StoreUnavailable
from .writes import Idempotency, backoff, retry_within

__all__ = [
    "AccessKind", "ExceptionReport", "Idempotency", "Ledger", "MemoryStore", "SharedIdempotency", "SharedLedger",
    "StateStore", "StoreUnavailable", "UnknownToolAnswer", "UnknownToolOption", "UpstreamReport", "access_error",
    "answer_for_revision", "auth_required", "backoff", "empty_result", "exception_result", "forbidden",
    "idempotency_key_argument", "retry_within", "unknown_tool", "upstream_error", "user_error",
]  # fmt: skip
