"""What an operator's trace says of a tool call's answer (docs/telemetry.md): the attributes the core gives for a
`CallToolResult` (`span-attributes`: `error.type` = `tool_error` as the MCP semantic conventions say, and the
envelope's code, category, retryability and correlation id under `mcp_envelope.error.*`, never its text), set on the
active OpenTelemetry span through `opentelemetry-api`. Off unless the application has a tracer: without the API
installed, or with no recording span (the API's default), nothing is done. The `mcp` SDK 2.x opens the `tools/call`
span itself, continuing the trace context a request carries in `params._meta`; the integrations add to it."""

from __future__ import annotations

import importlib
import json
from typing import Any

from ._component import call, spec_text

__all__ = ["record_on_span", "span_attributes", "span_attributes_json"]


def span_attributes(result: Any) -> dict[str, str | bool]:
    """The attributes for the span of a call that answered `result` (a `CallToolResult` dict, mcp model or JSON
    text), as the core gives them: `{}` for a result that is not an error. SpecError for what is not a result."""
    attributes: dict[str, str | bool] = json.loads(span_attributes_json(result))
    return attributes


def span_attributes_json(result: Any) -> str:
    """`span-attributes` for a `CallToolResult` (a dict, mcp model or JSON text), as the component's exact JSON."""
    if callable(getattr(result, "model_dump", None)):
        result = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    text: str = call("span-attributes", spec_text(result))
    return text


def record_on_span(result: Any) -> None:
    """Sets the core's attributes for `result` on the active span, and its status to ERROR, when the result is an
    error and a span is recording; never raises (telemetry must not fail a call)."""
    try:
        # Imported by name: the API is optional (the mcp SDK 2.x depends on it, 1.x does not).
        trace: Any = importlib.import_module("opentelemetry.trace")
    except ImportError:
        return
    try:
        span = trace.get_current_span()
        if not span.is_recording():
            return
        attributes = span_attributes(result)
        if attributes:
            span.set_attributes(attributes)
            span.set_status(trace.StatusCode.ERROR)
    except Exception:  # a result the core cannot read, or a broken exporter: the call goes on
        return
