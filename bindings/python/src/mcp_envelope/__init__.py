"""Recoverable MCP tool errors, byte for byte the same as every other host's:
render, wrap and read `<tool_error>` and `<validation_error>` envelopes
through one shared WebAssembly component.

    >>> from mcp_envelope import render
    >>> print(render({"code": "NOT_FOUND", "message": "No invoice with that ID"}))
    <tool_error code="NOT_FOUND" severity="error">
      <message>No invoice with that ID</message>
      <recovery>Check the identifier: look the item up or list the available ones, then call again with a real one.</recovery>
    </tool_error>
"""

from ._component import ComponentUnavailable, internal_error_result_json
from .envelope import CodeDefaults, Format, ProtocolErrorKind, ToolError, call_tool_result, call_tool_result_json
from .envelope import canonical_codes, defaults_for, internal_error_result, parse_envelope, protocol_error
from .envelope import protocol_error_json, raise_for_error, render, tool_error
from .errors import EnvelopeError, MalformedEnvelope, SpecError, new_correlation_id
from .validation import issues_from_pydantic, render_validation, render_validation_spec, validation_error
from .validation import validation_result_json, validation_result_spec, validation_spec

__all__ = [
    "CodeDefaults", "ComponentUnavailable", "EnvelopeError", "Format", "MalformedEnvelope", "ProtocolErrorKind",
    "SpecError", "ToolError", "call_tool_result", "call_tool_result_json", "canonical_codes", "defaults_for",
    "internal_error_result", "internal_error_result_json", "issues_from_pydantic", "new_correlation_id",
    "parse_envelope", "protocol_error", "protocol_error_json", "raise_for_error", "render", "render_validation",
    "render_validation_spec", "tool_error", "validation_error", "validation_result_json", "validation_result_spec",
    "validation_spec",
]  # fmt: skip
