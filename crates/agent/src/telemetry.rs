//! What an operator's trace says of a tool call's answer: the attributes an
//! integration sets on the call's OpenTelemetry span, so a dashboard counts
//! failures by code, category and retryability, and follows a correlation id
//! from the model's transcript to the log line, without string matching.
//!
//! The MCP semantic conventions say an `isError` result sets `error.type` to
//! `tool_error` and the span's status to ERROR; they define nothing of what
//! the envelope says, so those attributes are this project's, under
//! `mcp_envelope.error.*`. No message, recovery text or exception text is
//! ever an attribute: only the code, the category, whether it is retryable
//! and the correlation id, which are the envelope's own stable values.

use crate::error::SpecError;
use crate::json::{push_json_string, to_json};
use crate::read::{read_tool_result, read_unwrapped, Reading};

/// `error.type` for an `isError` result (MCP semantic conventions).
pub const TOOL_ERROR_TYPE: &str = "tool_error";

/// The attributes for the span of a call that answered `result` (a
/// `CallToolResult` JSON), as `(name, value)` pairs, the values JSON
/// (strings and booleans); none for a result that is not an error.
///
/// ```
/// use mcp_envelope::telemetry::span_attributes;
/// use mcp_envelope::{call_tool_result, Format, ToolError};
/// let result = call_tool_result(&ToolError::new("RATE_LIMITED", "Slow down.").correlation_id("req-7"), Format::Xml);
/// assert_eq!(span_attributes(&result).unwrap(), [
///     ("error.type", r#""tool_error""#.to_owned()),
///     ("mcp_envelope.error.code", r#""RATE_LIMITED""#.to_owned()),
///     ("mcp_envelope.error.category", r#""transient""#.to_owned()),
///     ("mcp_envelope.error.retryable", "true".to_owned()),
///     ("mcp_envelope.error.correlation_id", r#""req-7""#.to_owned()),
/// ]);
/// ```
pub fn span_attributes(result: &str) -> Result<Vec<(&'static str, String)>, SpecError> {
    let read = read_tool_result(result, false)?;
    if !read.is_error {
        return Ok(Vec::new());
    }
    let mut attributes = vec![("error.type", to_json(&TOOL_ERROR_TYPE))];
    let (code, category, retryable, correlation_id) = match read_unwrapped(&read.text) {
        Ok(Reading::ToolError(e)) => (
            Some(e.code.clone()),
            e.category_or_default().map(|c| c.as_str()),
            Some(e.is_retryable()),
            e.correlation_id_text().map(str::to_owned),
        ),
        Ok(Reading::ValidationError(_)) => (
            Some(crate::read::VALIDATION_CODE.to_owned()),
            Some("validation"),
            Some(true),
            None,
        ),
        Ok(Reading::PartialResult(p)) => (
            Some(crate::partial::PARTIAL_CODE.to_owned()),
            None,
            Some(p.any_retryable()),
            p.correlation_id_text().map(str::to_owned),
        ),
        _ => (None, None, None, None),
    };
    if let Some(code) = code {
        attributes.push(("mcp_envelope.error.code", to_json(&code)));
    }
    if let Some(category) = category {
        attributes.push(("mcp_envelope.error.category", to_json(&category)));
    }
    if let Some(retryable) = retryable {
        attributes.push(("mcp_envelope.error.retryable", retryable.to_string()));
    }
    if let Some(id) = correlation_id {
        attributes.push(("mcp_envelope.error.correlation_id", to_json(&id)));
    }
    Ok(attributes)
}

/// The JSON entry point behind `mcp_envelope::raw::span_attributes`.
#[inline]
pub fn span_attributes_json(result: &str) -> Result<String, SpecError> {
    let attributes = span_attributes(result)?;
    let mut out = String::from("{");
    for (i, (name, value)) in attributes.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_json_string(&mut out, name);
        out.push(':');
        out.push_str(value);
    }
    out.push('}');
    Ok(out)
}
