//! The WebAssembly component's glue: the only module that knows WIT. Each
//! export reads its JSON text with the core's readers and calls the core;
//! a refusal becomes `err` with the core's message, unchanged.

use crate::validation::{render_validation_spec_json, validation_from_json, validation_result};
use crate::{code, spec, Format, ProtocolErrorKind, Reading};

wit_bindgen::generate!({ path: "wit", world: "envelope" });

use exports::mcp::envelope::api::Guest;
use exports::mcp::envelope::types as wit;

struct Component;

export!(Component);

impl Guest for Component {
    fn canonical_codes() -> Vec<String> {
        code::CANONICAL_CODES.iter().map(|c| c.to_string()).collect()
    }

    fn code_defaults(request: String) -> Result<String, String> {
        code::code_defaults_json(&request).map_err(|e| e.0)
    }

    fn limits(request: String) -> Result<String, String> {
        crate::limits::limits_json(&request).map_err(|e| e.0)
    }

    fn render(spec: String, format: wit::Format) -> Result<String, String> {
        let error = spec::from_json(&spec).map_err(|e| e.0)?;
        Ok(crate::render(&error, format_from_wit(format)))
    }

    fn call_tool_result(spec: String, format: wit::Format) -> Result<String, String> {
        let error = spec::from_json(&spec).map_err(|e| e.0)?;
        Ok(crate::call_tool_result(&error, format_from_wit(format)))
    }

    fn protocol_error(kind: wit::ProtocolErrorKind, message: String, data: Option<String>) -> Result<String, String> {
        let data = data.map(|spec| spec::from_json(&spec)).transpose().map_err(|e| e.0)?;
        Ok(crate::protocol_error(kind_from_wit(kind), &message, data.as_ref()))
    }

    fn exception_result(spec: String) -> Result<String, String> {
        crate::recovery::exception_result_json(&spec).map_err(|e| e.0)
    }

    fn upstream_error(spec: String) -> Result<String, String> {
        crate::recovery::upstream_error_json(&spec).map_err(|e| e.0)
    }

    fn access_error(spec: String) -> Result<String, String> {
        crate::recovery::access_error_json(&spec).map_err(|e| e.0)
    }

    fn empty_result(spec: String) -> Result<String, String> {
        crate::recovery::empty_result_json(&spec).map_err(|e| e.0)
    }

    fn user_error(request: String) -> Result<String, String> {
        crate::recovery::user_error_json(&request).map_err(|e| e.0)
    }

    fn handler_result(request: String) -> Result<String, String> {
        crate::handler::handler_result_json(&request).map_err(|e| e.0)
    }

    fn idempotency_key_argument() -> String {
        crate::handler::IDEMPOTENCY_KEY_ARGUMENT.to_owned()
    }

    fn contract_lock(tools: String) -> Result<String, String> {
        crate::contract::lock_json(&tools).map_err(|e| e.0)
    }

    fn contract_diff(request: String) -> Result<String, String> {
        crate::contract::diff_json(&request).map_err(|e| e.0)
    }

    fn decide(request: String) -> Result<String, String> {
        crate::decide::decide_json(&request).map_err(|e| e.0)
    }

    fn answer_for_revision(request: String) -> Result<String, String> {
        crate::revision::answer_for_revision_json(&request).map_err(|e| e.0)
    }

    fn host_step(request: String) -> Result<String, String> {
        crate::host_loop::host_step_json(&request).map_err(|e| e.0)
    }

    fn span_attributes(tool_result: String) -> Result<String, String> {
        crate::telemetry::span_attributes_json(&tool_result).map_err(|e| e.0)
    }

    fn backoff(request: String) -> Result<String, String> {
        crate::backoff::backoff_json(&request).map_err(|e| e.0)
    }

    fn unknown_tool(request: String) -> Result<String, String> {
        crate::recovery::unknown_tool_json(&request).map_err(|e| e.0)
    }

    fn render_partial(spec: String) -> Result<String, String> {
        crate::partial::render_partial_json(&spec).map_err(|e| e.0)
    }

    fn partial_result(spec: String) -> Result<String, String> {
        crate::partial::partial_result_json(&spec).map_err(|e| e.0)
    }

    fn partial_limits(request: String) -> Result<String, String> {
        crate::partial::partial_limits_json(&request).map_err(|e| e.0)
    }

    fn render_validation(spec: String) -> Result<String, String> {
        render_validation_spec_json(&spec).map_err(|e| e.0)
    }

    fn validation_result(spec: String) -> Result<String, String> {
        let spec = validation_from_json(&spec).map_err(|e| e.0)?;
        Ok(validation_result(&spec))
    }

    fn read_envelope(text: String) -> Result<String, String> {
        crate::read_envelope(&text)
            .map(|r: Reading| r.to_json())
            .map_err(|e| e.to_string())
    }

    fn ledger_key(request: String) -> Result<String, String> {
        crate::ledger::ledger_key_json(&request).map_err(|e| e.0)
    }

    fn ledger_failure(request: String) -> Result<String, String> {
        crate::ledger::ledger_failure_json(&request).map_err(|e| e.0)
    }

    fn ledger_observe(request: String) -> Result<String, String> {
        crate::ledger::ledger_observe_json(&request).map_err(|e| e.0)
    }

    fn compare_and_set_script() -> String {
        crate::stores::COMPARE_AND_SET_SCRIPT.to_owned()
    }

    fn idempotency_key(request: String) -> Result<String, String> {
        crate::idempotency::idempotency_key_json(&request).map_err(|e| e.0)
    }

    fn idempotency_begin(request: String) -> Result<String, String> {
        crate::idempotency::idempotency_begin_json(&request).map_err(|e| e.0)
    }

    fn idempotency_finish(request: String) -> Result<String, String> {
        crate::idempotency::idempotency_finish_json(&request).map_err(|e| e.0)
    }

    fn after_trap(request: String) -> Result<String, String> {
        crate::recovery::after_trap_json(&request).map_err(|e| e.0)
    }

    fn error_of_result(tool_result: String) -> Result<Option<String>, String> {
        crate::error_of_result(&tool_result)
            .map(|outcome| outcome.map(|o| o.to_json()))
            .map_err(|e| e.0)
    }
}

fn format_from_wit(format: wit::Format) -> Format {
    match format {
        wit::Format::Xml => Format::Xml,
        wit::Format::Json => Format::Json,
        wit::Format::Text => Format::Text,
    }
}

fn kind_from_wit(kind: wit::ProtocolErrorKind) -> ProtocolErrorKind {
    match kind {
        wit::ProtocolErrorKind::ParseError => ProtocolErrorKind::ParseError,
        wit::ProtocolErrorKind::InvalidRequest => ProtocolErrorKind::InvalidRequest,
        wit::ProtocolErrorKind::MethodNotFound => ProtocolErrorKind::MethodNotFound,
        wit::ProtocolErrorKind::InvalidParams => ProtocolErrorKind::InvalidParams,
        wit::ProtocolErrorKind::InternalError => ProtocolErrorKind::InternalError,
    }
}
