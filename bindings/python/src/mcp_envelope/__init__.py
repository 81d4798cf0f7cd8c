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

from typing import TYPE_CHECKING

from ._component import ComponentUnavailable, ToolResult
from .envelope import (
    ToolError,
    call_tool_result,
    call_tool_result_json,
    canonical_codes,
    code_defaults_json,
    decide,
    decide_json,
    defaults_for,
    limits_in_force,
    limits_in_force_json,
    parse_envelope,
    protocol_error,
    protocol_error_json,
    raise_for_error,
    render,
    tool_error,
)
from .errors import EnvelopeError, MalformedEnvelope, SpecError

# The rest of the API is loaded on first use (`__getattr__` below): a process that renders, wraps or reads envelopes
# does not pay for the modules behind the ledger, the idempotency store, recovery, validation, the host loop, the
# contract lock, telemetry or the generated wire types. The type checker reads these imports; `_LAZY` names the
# same modules for the interpreter, and tests/test_api.py holds the two to the same names.
if TYPE_CHECKING:
    from ._state import (
        after_trap_json,
        idempotency_begin_json,
        idempotency_finish_json,
        idempotency_key_json,
        idempotency_store_key,
        ledger_failure_json,
        ledger_key_json,
        ledger_observe_json,
        ledger_store_key,
    )
    from .contract import contract_diff, contract_diff_json, contract_lock, contract_lock_json
    from .envelope import CodeDefaults, Decision, Format, Limits, Locale, ProtocolErrorKind
    from .host_loop import HostBudget, Recovered, call_tool_with_recovery, host_step, host_step_json
    from .ledger import Ledger
    from .recovery import (
        AccessKind,
        ExceptionReport,
        PartialLimits,
        UnknownToolAnswer,
        UnknownToolOption,
        UpstreamReport,
        access_error,
        access_error_json,
        answer_for_revision,
        answer_for_revision_json,
        auth_required,
        empty_result,
        empty_result_json,
        exception_result,
        exception_result_json,
        forbidden,
        handler_result_json,
        idempotency_key_argument,
        partial_limits_in_force,
        partial_limits_in_force_json,
        partial_result,
        partial_result_json,
        render_partial,
        unknown_tool,
        unknown_tool_json,
        upstream_error,
        upstream_error_json,
        user_error,
        user_error_json,
    )
    from .telemetry import span_attributes, span_attributes_json
    from .validation import (
        issues_from_pydantic,
        render_validation,
        render_validation_spec,
        validation_error,
        validation_result_json,
        validation_result_spec,
        validation_spec,
    )
    from .writes import Idempotency, backoff, backoff_json, retry_within
else:
    _LAZY = {  # name: the submodule defining it
        name: module
        for module, names in {
            "_state": "after_trap_json idempotency_begin_json idempotency_finish_json idempotency_key_json "
            "idempotency_store_key ledger_failure_json ledger_key_json ledger_observe_json ledger_store_key",
            "contract": "contract_diff contract_diff_json contract_lock contract_lock_json",
            "envelope": "CodeDefaults Decision Format Limits Locale ProtocolErrorKind",
            "host_loop": "HostBudget Recovered call_tool_with_recovery host_step host_step_json",
            "ledger": "Ledger",
            "recovery": "AccessKind ExceptionReport PartialLimits UnknownToolAnswer UnknownToolOption UpstreamReport "
            "access_error access_error_json answer_for_revision answer_for_revision_json auth_required empty_result "
            "empty_result_json exception_result exception_result_json forbidden handler_result_json "
            "idempotency_key_argument partial_limits_in_force partial_limits_in_force_json partial_result "
            "partial_result_json render_partial unknown_tool unknown_tool_json upstream_error upstream_error_json "
            "user_error user_error_json",
            "telemetry": "span_attributes span_attributes_json",
            "validation": "issues_from_pydantic render_validation render_validation_spec validation_error "
            "validation_result_json validation_result_spec validation_spec",
            "writes": "Idempotency backoff backoff_json retry_within",
        }.items()
        for name in names.split()
    }
    # The submodules `import mcp_envelope` loaded before they were deferred: still attributes of the package.
    _SUBMODULES = {"_wire", *_LAZY.values()} - {"envelope"}

    def __getattr__(name):
        from importlib import import_module

        if name in _SUBMODULES:
            return import_module(f"{__name__}.{name}")
        module = _LAZY.get(name)
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        value = globals()[name] = getattr(import_module(f"{__name__}.{module}"), name)
        return value

    def __dir__():
        return sorted({*globals(), *_LAZY, *_SUBMODULES})


__all__ = [
    "AccessKind", "CodeDefaults", "ComponentUnavailable", "Decision", "EnvelopeError", "ExceptionReport", "Format", "Idempotency", "Ledger",
    "Limits", "Locale", "MalformedEnvelope", "PartialLimits", "ProtocolErrorKind", "SpecError", "ToolError", "ToolResult",
    "UnknownToolAnswer", "UnknownToolOption", "UpstreamReport", "HostBudget", "Recovered", "access_error", "access_error_json", "answer_for_revision", "answer_for_revision_json", "call_tool_with_recovery", "host_step", "host_step_json", "span_attributes", "span_attributes_json", "auth_required", "backoff", "backoff_json", "call_tool_result",
    "call_tool_result_json", "canonical_codes", "contract_diff", "contract_diff_json", "contract_lock", "contract_lock_json", "code_defaults_json", "decide", "decide_json", "defaults_for", "empty_result",
    "empty_result_json", "exception_result", "exception_result_json", "forbidden", "handler_result_json", "idempotency_begin_json", "idempotency_key_argument",
    "after_trap_json", "idempotency_finish_json", "idempotency_key_json", "idempotency_store_key", "issues_from_pydantic",
    "ledger_failure_json", "ledger_key_json", "ledger_observe_json", "ledger_store_key",
    "limits_in_force", "limits_in_force_json", "parse_envelope", "partial_limits_in_force",
    "partial_limits_in_force_json", "partial_result", "partial_result_json", "protocol_error", "protocol_error_json",
    "raise_for_error", "render", "render_partial", "render_validation", "render_validation_spec", "retry_within", "tool_error",
    "unknown_tool", "unknown_tool_json", "upstream_error", "upstream_error_json", "user_error", "user_error_json", "validation_error", "validation_result_json", "validation_result_spec",
    "validation_spec",
]  # fmt: skip
