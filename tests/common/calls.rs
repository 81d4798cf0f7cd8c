//! The native core's function for each `call` vector: the kebab-case export
//! name, the input as JSON text, the exact text out or the exact refusal.
//! One row per JSON-in export of the WIT `api`.

pub fn native(name: &str, input: &str) -> Result<String, String> {
    match name {
        "code-defaults" => mcp_envelope::api::code_defaults(input).map_err(String::from),
        "render-partial" => mcp_envelope::api::render_partial(input).map_err(String::from),
        "partial-result" => mcp_envelope::api::partial_result(input).map_err(String::from),
        "partial-limits" => mcp_envelope::api::partial_limits(input).map_err(String::from),
        "upstream-error" => mcp_envelope::api::upstream_error(input).map_err(String::from),
        "exception-result" => mcp_envelope::api::exception_result(input).map_err(String::from),
        "access-error" => mcp_envelope::api::access_error(input).map_err(String::from),
        "empty-result" => mcp_envelope::api::empty_result(input).map_err(String::from),
        "backoff" => mcp_envelope::api::backoff(input).map_err(String::from),
        "decide" => mcp_envelope::api::decide(input).map_err(String::from),
        "unknown-tool" => mcp_envelope::api::unknown_tool(input).map_err(String::from),
        "user-error" => mcp_envelope::api::user_error(input).map_err(String::from),
        "contract-lock" => mcp_envelope::api::contract_lock(input).map_err(String::from),
        "contract-diff" => mcp_envelope::api::contract_diff(input).map_err(String::from),
        "ledger-key" => mcp_envelope::api::ledger_key(input).map_err(String::from),
        "ledger-failure" => mcp_envelope::api::ledger_failure(input).map_err(String::from),
        "ledger-observe" => mcp_envelope::api::ledger_observe(input).map_err(String::from),
        "idempotency-key" => mcp_envelope::api::idempotency_key(input).map_err(String::from),
        "idempotency-begin" => mcp_envelope::api::idempotency_begin(input).map_err(String::from),
        "idempotency-finish" => mcp_envelope::api::idempotency_finish(input).map_err(String::from),
        "limits" => mcp_envelope::api::limits(input).map_err(String::from),
        "answer-for-revision" => mcp_envelope::api::answer_for_revision(input).map_err(String::from),
        "host-step" => mcp_envelope::api::host_step(input).map_err(String::from),
        "span-attributes" => mcp_envelope::api::span_attributes(input).map_err(String::from),
        "after-trap" => mcp_envelope::api::after_trap(input).map_err(String::from),
        "handler-result" => mcp_envelope::api::handler_result(input).map_err(String::from),
        // Takes nothing: the vector's input is null.
        "idempotency-key-argument" => Ok(mcp_envelope::api::idempotency_key_argument()),
        _ => panic!("no native function for the call {name:?}: add a row to tests/common/calls.rs"),
    }
}
