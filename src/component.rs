//! The WebAssembly component's glue: the only module that knows WIT. Each
//! export calls its twin in `api.rs` (the same name, JSON text in and out);
//! a refusal becomes `err` with the core's message, unchanged.

use crate::{api, Format, ProtocolErrorKind};

wit_bindgen::generate!({ path: "wit", world: "envelope" });

use exports::mcp::envelope::api::Guest;
use exports::mcp::envelope::types as wit;

struct Component;

export!(Component);

impl Guest for Component {
    fn canonical_codes() -> Vec<String> {
        api::canonical_codes()
    }

    fn render(spec: String, format: wit::Format) -> Result<String, String> {
        api::render(&spec, format_from_wit(format)).map_err(String::from)
    }

    fn call_tool_result(spec: String, format: wit::Format) -> Result<String, String> {
        api::call_tool_result(&spec, format_from_wit(format)).map_err(String::from)
    }

    fn protocol_error(kind: wit::ProtocolErrorKind, message: String, data: Option<String>) -> Result<String, String> {
        api::protocol_error(kind_from_wit(kind), &message, data.as_deref()).map_err(String::from)
    }

    fn read_envelope(text: String) -> Result<String, String> {
        api::read_envelope(&text).map_err(|e| e.to_string())
    }

    fn error_of_result(tool_result: String) -> Result<Option<String>, String> {
        api::error_of_result(&tool_result).map_err(String::from)
    }

    fn idempotency_key_argument() -> String {
        api::idempotency_key_argument()
    }

    fn compare_and_set_script() -> String {
        api::compare_and_set_script()
    }

    fn code_defaults(request: String) -> Result<String, String> {
        api::code_defaults(&request).map_err(String::from)
    }

    fn limits(request: String) -> Result<String, String> {
        api::limits(&request).map_err(String::from)
    }

    fn exception_result(request: String) -> Result<String, String> {
        api::exception_result(&request).map_err(String::from)
    }

    fn upstream_error(request: String) -> Result<String, String> {
        api::upstream_error(&request).map_err(String::from)
    }

    fn access_error(request: String) -> Result<String, String> {
        api::access_error(&request).map_err(String::from)
    }

    fn empty_result(request: String) -> Result<String, String> {
        api::empty_result(&request).map_err(String::from)
    }

    fn unknown_tool(request: String) -> Result<String, String> {
        api::unknown_tool(&request).map_err(String::from)
    }

    fn user_error(request: String) -> Result<String, String> {
        api::user_error(&request).map_err(String::from)
    }

    fn handler_result(request: String) -> Result<String, String> {
        api::handler_result(&request).map_err(String::from)
    }

    fn render_partial(request: String) -> Result<String, String> {
        api::render_partial(&request).map_err(String::from)
    }

    fn partial_result(request: String) -> Result<String, String> {
        api::partial_result(&request).map_err(String::from)
    }

    fn partial_limits(request: String) -> Result<String, String> {
        api::partial_limits(&request).map_err(String::from)
    }

    fn render_validation(request: String) -> Result<String, String> {
        api::render_validation(&request).map_err(String::from)
    }

    fn validation_result(request: String) -> Result<String, String> {
        api::validation_result(&request).map_err(String::from)
    }

    fn contract_lock(request: String) -> Result<String, String> {
        api::contract_lock(&request).map_err(String::from)
    }

    fn contract_diff(request: String) -> Result<String, String> {
        api::contract_diff(&request).map_err(String::from)
    }

    fn decide(request: String) -> Result<String, String> {
        api::decide(&request).map_err(String::from)
    }

    fn answer_for_revision(request: String) -> Result<String, String> {
        api::answer_for_revision(&request).map_err(String::from)
    }

    fn host_step(request: String) -> Result<String, String> {
        api::host_step(&request).map_err(String::from)
    }

    fn span_attributes(request: String) -> Result<String, String> {
        api::span_attributes(&request).map_err(String::from)
    }

    fn backoff(request: String) -> Result<String, String> {
        api::backoff(&request).map_err(String::from)
    }

    fn ledger_key(request: String) -> Result<String, String> {
        api::ledger_key(&request).map_err(String::from)
    }

    fn ledger_failure(request: String) -> Result<String, String> {
        api::ledger_failure(&request).map_err(String::from)
    }

    fn ledger_observe(request: String) -> Result<String, String> {
        api::ledger_observe(&request).map_err(String::from)
    }

    fn idempotency_key(request: String) -> Result<String, String> {
        api::idempotency_key(&request).map_err(String::from)
    }

    fn idempotency_begin(request: String) -> Result<String, String> {
        api::idempotency_begin(&request).map_err(String::from)
    }

    fn idempotency_finish(request: String) -> Result<String, String> {
        api::idempotency_finish(&request).map_err(String::from)
    }

    fn after_trap(request: String) -> Result<String, String> {
        api::after_trap(&request).map_err(String::from)
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
