"""The component's exports as JSON text in, JSON text out: the twins of the idiomatic functions (`..._json`, and
`..._spec` for a whole validation spec), and the steps the server toolkit and the integrations are built from
(the ledger's and the idempotency store's keys and steps, `handler_result_json`, `after_trap_json`). For a host
that already holds JSON, and for the shared test vectors (docs/component-api.md)."""

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
from .contract import contract_diff_json, contract_lock_json
from .envelope import call_tool_result_json, code_defaults_json, decide_json, limits_in_force_json, protocol_error_json
from .host_loop import host_step_json
from .recovery import (
    access_error_json,
    answer_for_revision_json,
    empty_result_json,
    exception_result_json,
    handler_result_json,
    partial_limits_in_force_json,
    partial_result_json,
    unknown_tool_json,
    upstream_error_json,
    user_error_json,
)
from .telemetry import span_attributes_json
from .validation import render_validation_spec, validation_result_json, validation_result_spec, validation_spec
from .writes import backoff_json

__all__ = [
    "access_error_json", "after_trap_json", "answer_for_revision_json", "backoff_json", "call_tool_result_json",
    "code_defaults_json", "contract_diff_json", "contract_lock_json", "decide_json", "empty_result_json",
    "exception_result_json", "handler_result_json", "host_step_json", "idempotency_begin_json",
    "idempotency_finish_json", "idempotency_key_json", "idempotency_store_key", "ledger_failure_json",
    "ledger_key_json", "ledger_observe_json", "ledger_store_key", "limits_in_force_json",
    "partial_limits_in_force_json", "partial_result_json", "protocol_error_json", "render_validation_spec",
    "span_attributes_json", "unknown_tool_json", "upstream_error_json", "user_error_json", "validation_result_json",
    "validation_result_spec", "validation_spec",
]  # fmt: skip
