"""Recoverable MCP tool errors, byte for byte the same as every other host's:
render, wrap and read `<tool_error>` and `<validation_error>` envelopes
through one shared WebAssembly component.

    >>> from mcp_envelope import render
    >>> print(render({"code": "NOT_FOUND", "message": "No invoice with that ID"}))
    <tool_error code="NOT_FOUND" severity="error">
      <message>No invoice with that ID</message>
      <recovery>Check the identifier: look the item up or list the available ones, then call again with a real one.</recovery>
    </tool_error>

This module holds building, rendering and reading an envelope and their types. The rest has an entry point of its
own: `mcp_envelope.server` (recovery helpers, the ledger, idempotency, stores, backoff), `mcp_envelope.agent` (the
host's side: decide, the host loop, span attributes), `mcp_envelope.contract` (the lockfile and its diff) and
`mcp_envelope.raw` (the JSON twins and the internal steps).
"""

from typing import TYPE_CHECKING

# The front, each name written here only. tests/test_api.py holds it to this exact list.
__all__ = [
    "Category", "CodeDefaults", "ComponentUnavailable", "EnvelopeError", "Format", "Limits", "Locale",
    "MalformedEnvelope", "PartialLimits", "ProtocolErrorKind", "Severity", "SpecError", "ToolError", "ToolResult",
    "call_tool_result", "canonical_codes", "defaults_for", "issues_from_pydantic", "limits_in_force", "parse_envelope",
    "partial_limits_in_force", "partial_result", "protocol_error", "raise_for_error", "render", "render_partial",
    "render_validation", "tool_error", "validation_error",
]  # fmt: skip

# The modules the front's names are defined in. A type checker reads each name's type from them through these
# imports; pyright and `from mcp_envelope import *` keep to `__all__` (mypy takes a star import's other public
# names too, which the interpreter does not have). The interpreter loads a module on the first use of one of its
# names (`__getattr__` below), so `import mcp_envelope` loads nothing yet, and a first render only what rendering
# needs, not the generated wire types, validation or recovery.
if TYPE_CHECKING:
    from ._component import *
    from .envelope import *
    from .errors import *
    from .recovery import *
    from .validation import *
else:
    # In this order: a name's module is the first that has it, so a render loads no more than it needs.
    _SOURCES = ("errors", "_component", "envelope", "validation", "recovery")

    def __getattr__(name):
        if name in __all__:
            from importlib import import_module

            for source in _SOURCES:
                value = getattr(import_module(f"{__name__}.{source}"), name, __getattr__)
                if value is not __getattr__:
                    globals()[name] = value
                    return value
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

    def __dir__():
        return sorted({*globals(), *__all__})
