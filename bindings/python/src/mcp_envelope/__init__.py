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

# Where each name is defined, for type checkers: explicit imports, so mypy (whose star imports would take the
# modules' other public names too) and pyright both hold a caller to the front. tests/test_api.py checks these
# are `__all__` exactly. The interpreter loads a module on the first use of one of its names (`__getattr__`
# below), so `import mcp_envelope` loads nothing yet, and a first render only what rendering needs, not the
# generated wire types, validation or recovery.
if TYPE_CHECKING:
    from ._component import ComponentUnavailable as ComponentUnavailable
    from ._component import ToolResult as ToolResult
    from .envelope import Category as Category
    from .envelope import CodeDefaults as CodeDefaults
    from .envelope import Format as Format
    from .envelope import Limits as Limits
    from .envelope import Locale as Locale
    from .envelope import ProtocolErrorKind as ProtocolErrorKind
    from .envelope import Severity as Severity
    from .envelope import ToolError as ToolError
    from .envelope import call_tool_result as call_tool_result
    from .envelope import canonical_codes as canonical_codes
    from .envelope import defaults_for as defaults_for
    from .envelope import limits_in_force as limits_in_force
    from .envelope import parse_envelope as parse_envelope
    from .envelope import protocol_error as protocol_error
    from .envelope import raise_for_error as raise_for_error
    from .envelope import render as render
    from .envelope import tool_error as tool_error
    from .errors import EnvelopeError as EnvelopeError
    from .errors import MalformedEnvelope as MalformedEnvelope
    from .errors import SpecError as SpecError
    from .recovery import PartialLimits as PartialLimits
    from .recovery import partial_limits_in_force as partial_limits_in_force
    from .recovery import partial_result as partial_result
    from .recovery import render_partial as render_partial
    from .validation import issues_from_pydantic as issues_from_pydantic
    from .validation import render_validation as render_validation
    from .validation import validation_error as validation_error
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
