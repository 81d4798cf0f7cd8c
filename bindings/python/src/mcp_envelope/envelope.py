"""Render, wrap and read `<tool_error>` envelopes through the shared component,
so a Python server sends the same bytes as every other host."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, Literal, TypedDict, get_args

from ._component import call, internal_error_result_json, produce, read, scrub, to_json
from .errors import EnvelopeError

Format = Literal["xml", "json", "text"]
ProtocolErrorKind = Literal["parse-error", "invalid-request", "method-not-found", "invalid-params", "internal-error"]
PROTOCOL_ERROR_KINDS: tuple[str, ...] = get_args(ProtocolErrorKind)
Severity = Literal["error", "critical", "warning"]
Category = Literal["transient", "validation", "business", "permission", "internal"]


class CodeDefaults(TypedDict):
    """What a canonical code implies when the error does not say (`code-defaults`)."""

    category: Category
    retryable: bool
    recovery: str


def render(spec: Mapping[str, Any] | str, format: Format = "xml") -> str:
    """The envelope for an error spec (the CLI's JSON object, as a dict or JSON text); SpecError when refused."""
    return produce("render", spec, format)


def call_tool_result(spec: Mapping[str, Any] | str, format: Format = "xml") -> dict[str, Any]:
    """The MCP `CallToolResult` (as a dict) carrying the envelope of a spec."""
    result: dict[str, Any] = json.loads(call_tool_result_json(spec, format))
    return result


def call_tool_result_json(spec: Mapping[str, Any] | str, format: Format = "xml") -> str:
    """`call_tool_result` as the component's exact JSON text."""
    return produce("call-tool-result", spec, format, result=True)


def internal_error_result(tool: str, correlation_id: str, format: Format = "xml") -> dict[str, Any]:
    """The `CallToolResult` of an INTERNAL_ERROR in `tool`, quoting `correlation_id` and nothing of the cause."""
    result: dict[str, Any] = json.loads(internal_error_result_json(tool, correlation_id, format))
    return result


def protocol_error(kind: ProtocolErrorKind, message: str, data: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A JSON-RPC error object (for a request that is itself wrong); `data`, an error spec, goes in its JSON form."""
    error: dict[str, Any] = json.loads(protocol_error_json(kind, message, data))
    return error


def protocol_error_json(kind: ProtocolErrorKind, message: str, data: Mapping[str, Any] | None = None) -> str:
    """`protocol_error` as the component's exact JSON text; after a trap, JSON-RPC's own -32603 "Internal error"."""
    if kind not in PROTOCOL_ERROR_KINDS:
        raise ValueError(f"unknown protocol error kind {kind!r}: use one of {', '.join(PROTOCOL_ERROR_KINDS)}")
    data_text = None if data is None else to_json(data)
    text: str = call(
        "protocol-error", kind, scrub(message), data_text,
        on_trap=lambda _: call("protocol-error", "internal-error", "Internal error", None),
    )  # fmt: skip
    return text


def canonical_codes() -> list[str]:
    """The 17 canonical codes, in the seed's order."""
    return list(call("canonical-codes"))


def defaults_for(code: str) -> CodeDefaults | None:
    """`{"category", "retryable", "recovery"}` of a canonical code; None for a custom one."""
    found = call("code-defaults", scrub(code))
    return None if found is None else json.loads(found)


def parse_envelope(text_or_result: Any) -> dict[str, Any] | None:
    """The reading of the earliest envelope in a text or `CallToolResult` (dict or mcp model), None when there is
    none: `{"kind", "code", "message", "severity", "category", "retryable", "recovery"}` plus `"error"` (the spec)
    or `"validation"`. MalformedEnvelope for a broken envelope."""
    reading: dict[str, Any] = json.loads(read("read-envelope", text_or_result) or "null")
    return None if reading["kind"] == "none" else reading


def raise_for_error(result: Any) -> Any:
    """Returns a `CallToolResult` (dict, mcp model or JSON text) unless `isError` is true; then raises EnvelopeError."""
    outcome = read("error-of-result", result, refused=ValueError)  # refused: not a CallToolResult at all
    if outcome is None:
        return result
    raise EnvelopeError(json.loads(outcome))


def tool_error(code: str, message: str, *, format: Format = "xml", **fields: Any) -> dict[str, Any]:
    """The `CallToolResult` dict for one error, to return from a tool; `fields` are `ToolError`'s keywords.

    >>> tool_error("RATE_LIMITED", "Too many lookups", retry_after=30)["isError"]
    True
    """
    return ToolError(code, message, **fields).to_result(format)


class ToolError(Exception):
    """An error a tool raises (or returns) for the model to recover from; the message is model-facing.

    The keywords are the spec's fields in snake_case; each `with_*` method sets
    one and returns the same error, so they chain. An object or array detail
    value is shown as its compact JSON.

    >>> ToolError("NOT_FOUND", "No invoice with that ID").with_actions("billing.list_invoices").to_spec()
    {'code': 'NOT_FOUND', 'message': 'No invoice with that ID', 'availableActions': ['billing.list_invoices']}
    """

    def __init__(
        self, code: str, message: str, *, suggestion: str | None = None,
        available_actions: Iterable[str] | None = None, details: Mapping[str, Any] | None = None,
        retry_after: float | None = None, severity: Severity = "error", category: Category | None = None,
        retryable: bool | None = None, customer_message: str | None = None, correlation_id: str | None = None,
        deltas: Iterable[Mapping[str, Any]] | None = None,
    ) -> None:  # fmt: skip
        super().__init__(message)
        self.code, self.message, self.suggestion, self.retry_after = code, message, suggestion, retry_after
        self.available_actions: list[str] = list(available_actions or ())
        self.details: dict[str, Any] = dict(details or {})
        self.severity, self.category, self.retryable = severity, category, retryable
        self.customer_message, self.correlation_id = customer_message, correlation_id
        self.deltas: list[dict[str, Any]] = [dict(d) for d in deltas or ()]

    def __repr__(self) -> str:
        return f"ToolError({self.code!r}, {self.message!r})"

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def _set(self, **fields: Any) -> ToolError:
        self.__dict__.update(fields)
        return self

    def with_suggestion(self, suggestion: str) -> ToolError:
        """What the model should do next (the `<recovery>`); the code's default otherwise."""
        return self._set(suggestion=suggestion)

    def with_actions(self, *actions: str) -> ToolError:
        return self._set(available_actions=[*self.available_actions, *actions])

    def with_detail(self, key: str, value: Any) -> ToolError:
        """Sets one detail; a key set again keeps its place."""
        return self._set(details={**self.details, key: value})

    def with_details(self, details: Mapping[str, Any]) -> ToolError:
        return self._set(details={**self.details, **details})

    def with_retry_after(self, seconds: float) -> ToolError:
        return self._set(retry_after=seconds)

    def with_severity(self, severity: Severity) -> ToolError:
        """`warning` gives a result with `isError: false`: guidance on a call that succeeded."""
        return self._set(severity=severity)

    def with_category(self, category: Category) -> ToolError:
        return self._set(category=category)

    def with_retryable(self, retryable: bool) -> ToolError:
        return self._set(retryable=retryable)

    def with_customer_message(self, text: str) -> ToolError:
        return self._set(customer_message=text)

    def with_correlation_id(self, correlation_id: str) -> ToolError:
        return self._set(correlation_id=correlation_id)

    def with_deltas(self, *deltas: Mapping[str, Any]) -> ToolError:
        """Adds contract changes; the BREAKING and RISKY ones become a `<contract_awareness>` section."""
        return self._set(deltas=[*self.deltas, *(dict(d) for d in deltas)])

    def to_spec(self) -> dict[str, Any]:
        """The camelCase spec dict, ready for `render()`; unset fields are left out."""
        fields = {
            "suggestion": self.suggestion, "availableActions": self.available_actions, "details": self.details,
            "retryAfter": self.retry_after, "severity": None if self.severity == "error" else self.severity,
            "category": self.category, "retryable": self.retryable, "customerMessage": self.customer_message,
            "correlationId": self.correlation_id, "deltas": self.deltas,
        }  # fmt: skip
        return {"code": self.code, "message": self.message} | {k: v for k, v in fields.items() if v not in (None, [], {})}

    def render(self, format: Format = "xml") -> str:
        return render(self.to_spec(), format)

    def to_result(self, format: Format = "xml") -> dict[str, Any]:
        """The `CallToolResult` dict carrying the envelope."""
        return call_tool_result(self.to_spec(), format)
