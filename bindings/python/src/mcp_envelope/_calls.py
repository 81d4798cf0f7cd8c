"""The calls into the component that every entry point shares: JSON in, text
out, the component's refusal raised with its exact words, and a trap answered
with INTERNAL_ERROR (logged with its correlation id)."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from . import _component
from ._json import scrub, to_json
from .errors import MalformedEnvelope, SpecError, new_correlation_id

FORMATS = ("xml", "json", "text")

logger = logging.getLogger("mcp_envelope")


def check_format(format: str) -> str:
    if format not in FORMATS:
        raise ValueError(f"unknown format {format!r}: use 'xml', 'json' or 'text'")
    return format


def trapped(trap: _component.ComponentTrap) -> str:
    """Logs a trap; the correlation id of the INTERNAL_ERROR that answers for it."""
    correlation_id = new_correlation_id()
    logger.error("mcp-envelope component trapped (correlation id %s): %s", correlation_id, trap)
    return correlation_id


def call(name: str, *args: Any) -> Any:
    """A call of a function that cannot refuse; after a trap, one more on the fresh instance."""
    runtime = _component.runtime()
    try:
        return runtime.call(name, *args)
    except _component.ComponentTrap as trap:
        trapped(trap)
    try:
        return runtime.call(name, *args)
    except _component.ComponentTrap as again:
        raise _component.ComponentUnavailable(f"the component fails on every call: {again}") from None


def produce(name: str, spec: Mapping[str, Any] | str, format: str | None = None, result: bool = False) -> str:
    """Envelope text (`CallToolResult` JSON when `result`) from a render function; INTERNAL_ERROR after a trap."""
    text = scrub(spec) if isinstance(spec, str) else to_json(spec)
    try:
        ok, value = _component.runtime().call_result(name, *((text,) if format is None else (text, format)))
    except _component.ComponentTrap as trap:
        answer = internal_error_result_json("", trapped(trap), format or "xml")
        return answer if result else str(json.loads(answer)["content"][0]["text"])
    if not ok:
        raise SpecError(value)
    assert value is not None
    return value


def read(name: str, text_or_result: Any) -> str | None:
    """Calls a reader (`read-envelope`, `error-of-result`) with text or a `CallToolResult` as JSON."""
    if isinstance(text_or_result, str):
        text = scrub(text_or_result)
    elif isinstance(text_or_result, Mapping):
        text = to_json(text_or_result)
    elif callable(getattr(text_or_result, "model_dump", None)):  # the mcp SDK's CallToolResult
        text = to_json(text_or_result.model_dump(mode="json", by_alias=True, exclude_none=True))
    else:
        raise TypeError(f"expected text or a CallToolResult, not {type(text_or_result).__name__}")
    try:
        ok, value = _component.runtime().call_result(name, text)
    except _component.ComponentTrap as trap:
        raise MalformedEnvelope(
            f"the envelope reader failed (INTERNAL_ERROR, correlation id {trapped(trap)}); the text was not read"
        ) from None
    if not ok:
        raise MalformedEnvelope(value)
    return value


def internal_error_result_json(tool: str, correlation_id: str, format: str = "xml") -> str:
    """The component's INTERNAL_ERROR `CallToolResult` JSON for `tool`, quoting `correlation_id`."""
    text: str = call("internal-error-result", scrub(tool), scrub(correlation_id), check_format(format))
    return text


