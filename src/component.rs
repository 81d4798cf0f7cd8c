//! The WebAssembly component's glue: the only module that knows WIT. It
//! converts between the generated types and the core's, and nothing else.

use crate::{code, spec, Category, Format, ParseError, ProtocolErrorKind, Severity, ToolError};

wit_bindgen::generate!({ path: "wit", world: "envelope" });

use exports::mcp::envelope::api::Guest;
use exports::mcp::envelope::types as wit;

struct Component;

export!(Component);

impl Guest for Component {
    fn canonical_codes() -> Vec<String> {
        code::CANONICAL_CODES.iter().map(|c| c.to_string()).collect()
    }

    fn defaults_for(code: String) -> Option<wit::CodeDefaults> {
        code::defaults(&code).map(|d| wit::CodeDefaults {
            category: category_to_wit(d.category),
            retryable: d.retryable,
            recovery: d.recovery.to_owned(),
        })
    }

    fn render(error: wit::ToolError, format: wit::Format) -> String {
        crate::render(&from_wit(error), format_from_wit(format))
    }

    fn call_tool_result(error: wit::ToolError, format: wit::Format) -> String {
        crate::call_tool_result(&from_wit(error), format_from_wit(format))
    }

    fn protocol_error(kind: wit::ProtocolErrorKind, message: String, data: Option<wit::ToolError>) -> String {
        let data = data.map(from_wit);
        crate::protocol_error(kind_from_wit(kind), &message, data.as_ref())
    }

    fn parse(text: String) -> Result<wit::ToolError, wit::ParseFailure> {
        match crate::parse(&text) {
            Ok(error) => Ok(to_wit(error)),
            Err(ParseError::NoEnvelope) => Err(wit::ParseFailure::NoEnvelope),
            Err(ParseError::Malformed(why)) => Err(wit::ParseFailure::Malformed(why)),
        }
    }

    fn render_spec(spec: String, format: wit::Format) -> Result<String, String> {
        let error = spec::from_json(&spec).map_err(|e| e.to_string())?;
        Ok(crate::render(&error, format_from_wit(format)))
    }

    fn call_tool_result_spec(spec: String, format: wit::Format) -> Result<String, String> {
        let error = spec::from_json(&spec).map_err(|e| e.to_string())?;
        Ok(crate::call_tool_result(&error, format_from_wit(format)))
    }

    fn parse_spec(text: String) -> Result<Option<String>, String> {
        match crate::parse(&text) {
            Ok(error) => Ok(Some(spec::to_json(&error))),
            Err(ParseError::NoEnvelope) => Ok(None),
            Err(ParseError::Malformed(why)) => Err(why),
        }
    }
}

fn from_wit(e: wit::ToolError) -> ToolError {
    ToolError {
        code: e.code,
        message: e.message,
        suggestion: e.suggestion,
        available_actions: e.available_actions,
        details: e.details.into_iter().map(|d| (d.key, d.value)).collect(),
        retry_after: e.retry_after,
        severity: match e.severity {
            wit::Severity::Error => Severity::Error,
            wit::Severity::Critical => Severity::Critical,
            wit::Severity::Warning => Severity::Warning,
        },
        category: e.category.map(|c| match c {
            wit::Category::Transient => Category::Transient,
            wit::Category::Validation => Category::Validation,
            wit::Category::Business => Category::Business,
            wit::Category::Permission => Category::Permission,
            wit::Category::Internal => Category::Internal,
        }),
        retryable: e.retryable,
        customer_message: e.customer_message,
        correlation_id: e.correlation_id,
    }
}

fn to_wit(e: ToolError) -> wit::ToolError {
    wit::ToolError {
        code: e.code,
        message: e.message,
        suggestion: e.suggestion,
        available_actions: e.available_actions,
        details: e
            .details
            .into_iter()
            .map(|(key, value)| wit::Detail { key, value })
            .collect(),
        retry_after: e.retry_after,
        severity: match e.severity {
            Severity::Error => wit::Severity::Error,
            Severity::Critical => wit::Severity::Critical,
            Severity::Warning => wit::Severity::Warning,
        },
        category: e.category.map(category_to_wit),
        retryable: e.retryable,
        customer_message: e.customer_message,
        correlation_id: e.correlation_id,
    }
}

fn category_to_wit(c: Category) -> wit::Category {
    match c {
        Category::Transient => wit::Category::Transient,
        Category::Validation => wit::Category::Validation,
        Category::Business => wit::Category::Business,
        Category::Permission => wit::Category::Permission,
        Category::Internal => wit::Category::Internal,
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
