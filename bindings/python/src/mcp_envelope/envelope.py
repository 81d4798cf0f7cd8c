"""Render, wrap and read `<tool_error>` envelopes through the shared component,
so a Python server sends the same bytes as every other host.

    >>> from mcp_envelope import render
    >>> print(render({"code": "NOT_FOUND", "message": "No invoice with that ID"}))
    <tool_error code="NOT_FOUND" severity="error">
      <message>No invoice with that ID</message>
      <recovery>Check the identifier: look the item up or list the available ones, then call again with a real one.</recovery>
    </tool_error>
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from . import _component
from .errors import (
    Category,
    DetailValue,
    EnvelopeError,
    MalformedEnvelope,
    Severity,
    SpecError,
    build_spec,
    internal_error_spec,
    new_correlation_id,
)

Format = Literal["xml", "json", "text"]
FORMATS: tuple[str, ...] = ("xml", "json", "text")
ProtocolErrorKind = Literal["parse-error", "invalid-request", "method-not-found", "invalid-params", "internal-error"]
PROTOCOL_ERROR_KINDS: tuple[str, ...] = (
    "parse-error",
    "invalid-request",
    "method-not-found",
    "invalid-params",
    "internal-error",
)

logger = logging.getLogger("mcp_envelope")


# Built once: json.dumps with options makes a new encoder on every call.
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def to_json(value: Any) -> str:
    """Compact JSON, non-ASCII kept, as the component reads it (error positions count in this text)."""
    try:
        return _ENCODER.encode(value)
    except (TypeError, ValueError) as e:
        raise SpecError(f"the spec is not JSON: {e}") from None


def check_format(format: str) -> str:
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r}: use 'xml', 'json' or 'text'")
    return format


def spec_text(spec: Mapping[str, Any] | str) -> str:
    """The spec as JSON text; a str is taken as JSON text already.

    Anything else JSON can hold is passed on, so the component refuses a
    non-object with the same message as the CLI.
    """
    if isinstance(spec, str):
        return spec
    return to_json(spec)


def _trapped(trap: _component.ComponentTrap) -> str:
    """Logs a trap and returns the correlation id of the INTERNAL_ERROR that replaces the output."""
    correlation_id = new_correlation_id()
    logger.error("mcp-envelope component trapped (correlation id %s): %s", correlation_id, trap)
    return correlation_id


def _call_spec_function(name: str, spec: Mapping[str, Any] | str, format: str) -> str:
    check_format(format)
    text = spec_text(spec)
    runtime = _component.runtime()
    try:
        ok, value = runtime.call_string(name, text, format)
    except _component.ComponentTrap as trap:
        # The instance is rebuilt already; this call answers INTERNAL_ERROR.
        fallback = to_json(internal_error_spec(_trapped(trap)))
        try:
            ok, value = runtime.call_string(name, fallback, format)
        except _component.ComponentTrap as again:
            raise _component.ComponentUnavailable(f"the component fails on every call: {again}") from None
    if not ok:
        raise SpecError(value)
    assert value is not None
    return value


def render(spec: Mapping[str, Any] | str, format: Format = "xml") -> str:
    """The envelope for an error spec (the CLI's camelCase JSON object), in `xml`, `json` or `text`.

    Raises SpecError, with the component's exact message, for a spec it refuses.
    """
    return _call_spec_function("render-spec", spec, format)


def call_tool_result(spec: Mapping[str, Any] | str, format: Format = "xml") -> dict[str, Any]:
    """The MCP `CallToolResult` (as a dict) carrying the envelope of a spec."""
    result: dict[str, Any] = json.loads(call_tool_result_json(spec, format))
    return result


def call_tool_result_json(spec: Mapping[str, Any] | str, format: Format = "xml") -> str:
    """`call_tool_result` as the component's exact JSON text."""
    return _call_spec_function("call-tool-result-spec", spec, format)


def tool_error(
    code: str,
    message: str,
    *,
    suggestion: str | None = None,
    available_actions: Iterable[str] | None = None,
    details: Mapping[str, DetailValue] | None = None,
    retry_after: float | None = None,
    severity: Severity = "error",
    category: Category | None = None,
    retryable: bool | None = None,
    customer_message: str | None = None,
    correlation_id: str | None = None,
    deltas: Iterable[Mapping[str, Any]] | None = None,
    format: Format = "xml",
) -> dict[str, Any]:
    """The `CallToolResult` dict for one error, to return from a tool.

    >>> tool_error("RATE_LIMITED", "Too many lookups", retry_after=30)["isError"]
    True
    """
    spec = build_spec(
        code,
        message,
        suggestion=suggestion,
        available_actions=available_actions,
        details=details,
        retry_after=retry_after,
        severity=severity,
        category=category,
        retryable=retryable,
        customer_message=customer_message,
        correlation_id=correlation_id,
        deltas=deltas,
    )
    return call_tool_result(spec, format)


def envelope_text(text_or_result: Any) -> str:
    """The text to search for an envelope: a str as is, a `CallToolResult` (dict or mcp model) as its JSON."""
    if isinstance(text_or_result, str):
        return text_or_result
    if isinstance(text_or_result, Mapping):
        return to_json(text_or_result)
    dump = getattr(text_or_result, "model_dump", None)
    if callable(dump):  # an mcp / pydantic CallToolResult
        return to_json(dump(mode="json", by_alias=True, exclude_none=True))
    raise TypeError(f"parse_envelope takes text or a CallToolResult, not {type(text_or_result).__name__}")


def parse_envelope(text_or_result: Any) -> dict[str, Any] | None:
    """The spec of the first envelope in a text or `CallToolResult`; None when there is none.

    Reads all three forms. Raises MalformedEnvelope for a broken one.
    """
    text = envelope_text(text_or_result)
    try:
        ok, value = _component.runtime().call_string("parse-spec", text)
    except _component.ComponentTrap as trap:
        raise MalformedEnvelope(
            f"the envelope reader failed (INTERNAL_ERROR, correlation id {_trapped(trap)}); the text was not read"
        ) from None
    if not ok:
        raise MalformedEnvelope(value)
    return None if value is None else json.loads(value)


def _is_error_result(result: Any) -> bool:
    if isinstance(result, Mapping):
        return bool(result.get("isError"))
    return bool(getattr(result, "is_error", False) or getattr(result, "isError", False))


def raise_for_error(result: Any) -> Any:
    """Returns `result` unless it is an error result (`isError: true`); then raises EnvelopeError.

    A `<tool_error>` gives its code and fields. A `<validation_error>` gives
    code `VALIDATION_ERROR`, one `name: text` line per field as the message,
    and the parsed envelope as `validation`. Any other error result gives
    code `UNKNOWN_ERROR` with the result's text as the message.
    """
    from .validation import parse_validation  # validation builds on this module

    if not _is_error_result(result):
        return result
    spec = parse_envelope(result)
    validation = None
    if spec is None:
        validation = parse_validation(result)
        if validation is not None:
            lines = [f"{f['name']}: {f['text']}" for f in validation["fields"]]
            spec = {"code": "VALIDATION_ERROR", "message": "\n".join(lines)}
        else:
            spec = {"code": "UNKNOWN_ERROR", "message": _result_text(result)}
    defaults = defaults_for(spec["code"])
    recovery = spec.get("suggestion") or (defaults.recovery if defaults else None)
    retryable = spec.get("retryable", defaults.retryable if defaults else False)
    category = spec.get("category", defaults.category if defaults else None)
    raise EnvelopeError(spec, recovery=recovery, retryable=retryable, category=category, validation=validation)


def _result_text(result: Any) -> str:
    content = result.get("content", []) if isinstance(result, Mapping) else getattr(result, "content", [])
    parts = []
    for block in content or ():
        text = block.get("text") if isinstance(block, Mapping) else getattr(block, "text", None)
        if isinstance(text, str):
            parts.append(text)
    return "\n".join(parts)


def protocol_error(
    kind: ProtocolErrorKind, message: str, data: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A JSON-RPC error object (for a request that is itself wrong); `data` is an error spec, sent in its JSON form."""
    error: dict[str, Any] = json.loads(protocol_error_json(kind, message, data))
    return error


def protocol_error_json(kind: ProtocolErrorKind, message: str, data: Mapping[str, Any] | None = None) -> str:
    """`protocol_error` as the component's exact JSON text."""
    if kind not in PROTOCOL_ERROR_KINDS:
        raise ValueError(f"unknown protocol error kind {kind!r}: use one of {', '.join(PROTOCOL_ERROR_KINDS)}")
    runtime = _component.runtime()
    record = None
    try:
        if data is not None:
            # The typed record, lossless: render the spec's JSON form and read it back.
            json_form = render(data, "json")
            parsed = runtime.call_typed("parse", json_form)
            if not hasattr(parsed, "code"):
                raise SpecError(f"the data spec could not be read back: {parsed}")
            record = parsed
        text: str = runtime.call_typed("protocol-error", kind, message, record)
    except _component.ComponentTrap as trap:
        _trapped(trap)
        text = runtime.call_typed("protocol-error", "internal-error", "Internal error", None)
    return text


@dataclass(frozen=True)
class CodeDefaults:
    """What a canonical code implies when the error does not say."""

    category: Category
    retryable: bool
    recovery: str


def _call_typed(name: str, *params: Any) -> Any:
    """A typed call for the small fixed queries: after a trap, one retry on the fresh instance."""
    runtime = _component.runtime()
    try:
        return runtime.call_typed(name, *params)
    except _component.ComponentTrap as trap:
        _trapped(trap)
    try:
        return runtime.call_typed(name, *params)
    except _component.ComponentTrap as again:
        raise _component.ComponentUnavailable(f"the component fails on every call: {again}") from None


_canonical: tuple[str, ...] | None = None
_defaults: dict[str, CodeDefaults | None] = {}


def canonical_codes() -> list[str]:
    """The 17 canonical codes, in the seed's order."""
    global _canonical
    if _canonical is None:
        _canonical = tuple(_call_typed("canonical-codes"))
    return list(_canonical)


def defaults_for(code: str) -> CodeDefaults | None:
    """The defaults of a canonical code; None for a custom one."""
    if code not in _defaults:
        if code not in canonical_codes():
            return None  # custom codes have no defaults; not cached, so the cache stays small
        record = _call_typed("defaults-for", code)
        _defaults[code] = (
            None if record is None else CodeDefaults(record.category, record.retryable, record.recovery)
        )
    return _defaults[code]
