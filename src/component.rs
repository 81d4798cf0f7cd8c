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

    fn code_defaults(code: String) -> Option<String> {
        code::defaults(&code).map(|d| d.to_json())
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

    fn internal_error_result(tool: String, correlation_id: String, format: wit::Format) -> String {
        crate::internal_error_result(&tool, &correlation_id, format_from_wit(format))
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
