"""Recoverable MCP tool errors, byte for byte the same as every other host's:
render, wrap and parse `<tool_error>` and `<validation_error>` envelopes
through one shared WebAssembly component.

    >>> from mcp_envelope import tool_error
    >>> result = tool_error("NOT_FOUND", "No invoice with that ID",
    ...                     available_actions=["billing.list_invoices"])
    >>> result["isError"], result["content"][0]["text"].splitlines()[0]
    (True, '<tool_error code="NOT_FOUND" severity="error">')
"""

from ._component import ComponentUnavailable
from .envelope import (
    CodeDefaults,
    Format,
    ProtocolErrorKind,
    call_tool_result,
    call_tool_result_json,
    canonical_codes,
    defaults_for,
    parse_envelope,
    protocol_error,
    protocol_error_json,
    raise_for_error,
    render,
    tool_error,
)
from .errors import EnvelopeError, MalformedEnvelope, SpecError, ToolError, new_correlation_id
from .validation import (
    ContractDelta,
    ValidationIssue,
    issues_from,
    parse_validation,
    render_validation,
    render_validation_spec,
    validation_error,
    validation_result_json,
    validation_result_spec,
    validation_spec,
)
from ._jsonschema_issues import issues_from_jsonschema
from ._pydantic_issues import issues_from_pydantic

__all__ = [
    "CodeDefaults",
    "ComponentUnavailable",
    "ContractDelta",
    "EnvelopeError",
    "Format",
    "MalformedEnvelope",
    "ProtocolErrorKind",
    "SpecError",
    "ToolError",
    "ValidationIssue",
    "call_tool_result",
    "call_tool_result_json",
    "canonical_codes",
    "defaults_for",
    "issues_from",
    "issues_from_jsonschema",
    "issues_from_pydantic",
    "new_correlation_id",
    "parse_envelope",
    "parse_validation",
    "protocol_error",
    "protocol_error_json",
    "raise_for_error",
    "render",
    "render_validation",
    "render_validation_spec",
    "tool_error",
    "validation_error",
    "validation_result_json",
    "validation_result_spec",
    "validation_spec",
]
