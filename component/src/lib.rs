//! The WebAssembly components' glue: the only crate that knows WIT. Each
//! export calls its twin in `mcp_envelope::raw` (the same name, JSON text in
//! and out); a refusal becomes `err` with the core's message, unchanged.
//!
//! One crate, two worlds (`wit/worlds.wit`, `envelope-only` and `full`): without the `full` feature it
//! builds the envelope component, with it the full one. Only `wasm32` builds
//! hold anything.
#![cfg(target_arch = "wasm32")]

use mcp_envelope::{raw, Format, ProtocolErrorKind};

#[cfg(not(feature = "full"))]
wit_bindgen::generate!({ path: "../wit", world: "envelope-only" });
#[cfg(feature = "full")]
wit_bindgen::generate!({ path: "../wit", world: "full" });

use exports::mcp::envelope::types as wit;

struct Component;

export!(Component);

impl exports::mcp::envelope::envelope::Guest for Component {
    fn canonical_codes() -> Vec<String> {
        raw::canonical_codes()
    }

    fn code_defaults(request: String) -> Result<String, String> {
        raw::code_defaults(&request).map_err(String::from)
    }

    fn limits(request: String) -> Result<String, String> {
        raw::limits(&request).map_err(String::from)
    }

    fn render(spec: String, format: wit::Format) -> Result<String, String> {
        raw::render(&spec, format_from_wit(format)).map_err(String::from)
    }

    fn call_tool_result(spec: String, format: wit::Format) -> Result<String, String> {
        raw::call_tool_result(&spec, format_from_wit(format)).map_err(String::from)
    }

    fn protocol_error(kind: wit::ProtocolErrorKind, message: String, data: Option<String>) -> Result<String, String> {
        raw::protocol_error(kind_from_wit(kind), &message, data.as_deref()).map_err(String::from)
    }

    fn render_partial(request: String) -> Result<String, String> {
        raw::render_partial(&request).map_err(String::from)
    }

    fn partial_result(request: String) -> Result<String, String> {
        raw::partial_result(&request).map_err(String::from)
    }

    fn partial_limits(request: String) -> Result<String, String> {
        raw::partial_limits(&request).map_err(String::from)
    }

    fn render_validation(request: String) -> Result<String, String> {
        raw::render_validation(&request).map_err(String::from)
    }

    fn validation_result(request: String) -> Result<String, String> {
        raw::validation_result(&request).map_err(String::from)
    }

    fn read_envelope(text: String) -> Result<String, String> {
        raw::read_envelope(&text).map_err(|e| e.to_string())
    }

    fn error_of_result(tool_result: String) -> Result<Option<String>, String> {
        raw::error_of_result(&tool_result).map_err(String::from)
    }

    fn after_trap(request: String) -> Result<String, String> {
        raw::after_trap(&request).map_err(String::from)
    }
}

#[cfg(feature = "full")]
impl exports::mcp::envelope::server::Guest for Component {
    fn exception_result(request: String) -> Result<String, String> {
        raw::exception_result(&request).map_err(String::from)
    }

    fn upstream_error(request: String) -> Result<String, String> {
        raw::upstream_error(&request).map_err(String::from)
    }

    fn access_error(request: String) -> Result<String, String> {
        raw::access_error(&request).map_err(String::from)
    }

    fn empty_result(request: String) -> Result<String, String> {
        raw::empty_result(&request).map_err(String::from)
    }

    fn unknown_tool(request: String) -> Result<String, String> {
        raw::unknown_tool(&request).map_err(String::from)
    }

    fn user_error(request: String) -> Result<String, String> {
        raw::user_error(&request).map_err(String::from)
    }

    fn handler_result(request: String) -> Result<String, String> {
        raw::handler_result(&request).map_err(String::from)
    }

    fn idempotency_key_argument() -> String {
        raw::idempotency_key_argument()
    }

    fn answer_for_revision(request: String) -> Result<String, String> {
        raw::answer_for_revision(&request).map_err(String::from)
    }

    fn backoff(request: String) -> Result<String, String> {
        raw::backoff(&request).map_err(String::from)
    }

    fn ledger_key(request: String) -> Result<String, String> {
        raw::ledger_key(&request).map_err(String::from)
    }

    fn ledger_failure(request: String) -> Result<String, String> {
        raw::ledger_failure(&request).map_err(String::from)
    }

    fn ledger_observe(request: String) -> Result<String, String> {
        raw::ledger_observe(&request).map_err(String::from)
    }

    fn compare_and_set_script() -> String {
        raw::compare_and_set_script()
    }

    fn idempotency_key(request: String) -> Result<String, String> {
        raw::idempotency_key(&request).map_err(String::from)
    }

    fn idempotency_begin(request: String) -> Result<String, String> {
        raw::idempotency_begin(&request).map_err(String::from)
    }

    fn idempotency_finish(request: String) -> Result<String, String> {
        raw::idempotency_finish(&request).map_err(String::from)
    }
}

#[cfg(feature = "full")]
impl exports::mcp::envelope::agent::Guest for Component {
    fn decide(request: String) -> Result<String, String> {
        raw::decide(&request).map_err(String::from)
    }

    fn host_step(request: String) -> Result<String, String> {
        raw::host_step(&request).map_err(String::from)
    }

    fn span_attributes(request: String) -> Result<String, String> {
        raw::span_attributes(&request).map_err(String::from)
    }
}

#[cfg(feature = "full")]
impl exports::mcp::envelope::contract::Guest for Component {
    fn contract_lock(request: String) -> Result<String, String> {
        raw::contract_lock(&request).map_err(String::from)
    }

    fn contract_diff(request: String) -> Result<String, String> {
        raw::contract_diff(&request).map_err(String::from)
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
