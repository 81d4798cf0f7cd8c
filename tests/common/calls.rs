//! The native core's function for each `call` vector: the kebab-case export
//! name, the input as JSON text, the exact text out or the exact refusal.
//! One row per JSON-in export of the WIT `api`.

pub fn native(name: &str, input: &str) -> Result<String, String> {
    match name {
        "code-defaults" => mcp_envelope::code::code_defaults_json(input).map_err(|e| e.0),
        "render-partial" => mcp_envelope::partial::render_partial_json(input).map_err(|e| e.0),
        "partial-result" => mcp_envelope::partial::partial_result_json(input).map_err(|e| e.0),
        "partial-limits" => mcp_envelope::partial::partial_limits_json(input).map_err(|e| e.0),
        "upstream-error" => mcp_envelope::upstream_error_json(input).map_err(|e| e.0),
        "exception-result" => mcp_envelope::exception_result_json(input).map_err(|e| e.0),
        "access-error" => mcp_envelope::access_error_json(input).map_err(|e| e.0),
        "empty-result" => mcp_envelope::empty_result_json(input).map_err(|e| e.0),
        "backoff" => mcp_envelope::backoff::backoff_json(input).map_err(|e| e.0),
        "decide" => mcp_envelope::decide::decide_json(input).map_err(|e| e.0),
        "unknown-tool" => mcp_envelope::unknown_tool_json(input).map_err(|e| e.0),
        "user-error" => mcp_envelope::recovery::user_error_json(input).map_err(|e| e.0),
        "contract-lock" => mcp_envelope::contract::lock_json(input).map_err(|e| e.0),
        "contract-diff" => mcp_envelope::contract::diff_json(input).map_err(|e| e.0),
        "ledger-key" => mcp_envelope::ledger::ledger_key_json(input).map_err(|e| e.0),
        "ledger-failure" => mcp_envelope::ledger::ledger_failure_json(input).map_err(|e| e.0),
        "ledger-observe" => mcp_envelope::ledger::ledger_observe_json(input).map_err(|e| e.0),
        "idempotency-key" => mcp_envelope::idempotency::idempotency_key_json(input).map_err(|e| e.0),
        "idempotency-begin" => mcp_envelope::idempotency::idempotency_begin_json(input).map_err(|e| e.0),
        "idempotency-finish" => mcp_envelope::idempotency::idempotency_finish_json(input).map_err(|e| e.0),
        "limits" => mcp_envelope::limits::limits_json(input).map_err(|e| e.0),
        "answer-for-revision" => mcp_envelope::revision::answer_for_revision_json(input).map_err(|e| e.0),
        "host-step" => mcp_envelope::host_loop::host_step_json(input).map_err(|e| e.0),
        "span-attributes" => mcp_envelope::telemetry::span_attributes_json(input).map_err(|e| e.0),
        "after-trap" => mcp_envelope::recovery::after_trap_json(input).map_err(|e| e.0),
        "handler-result" => mcp_envelope::handler::handler_result_json(input).map_err(|e| e.0),
        // Takes nothing: the vector's input is null.
        "idempotency-key-argument" => Ok(mcp_envelope::handler::IDEMPOTENCY_KEY_ARGUMENT.to_owned()),
        _ => panic!("no native function for the call {name:?}: add a row to tests/common/calls.rs"),
    }
}
