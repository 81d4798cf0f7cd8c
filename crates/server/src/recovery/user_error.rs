//! A framework's own error for the model: FastMCP's `ToolError` in Python,
//! FastMCP's `UserError` in TypeScript, and a thrown value whose structure
//! says its author wrote it (docs/thrown-errors.md). The tool's author wrote
//! its text for the model, so the text is shown, as the framework shows it,
//! but inside an envelope like every other failure: code TOOL_ERROR, the text
//! its message, scrubbed of credentials (`crate::scrub`).
//! A text that already is an envelope (a tool raised `UserError(String(error(..)))`)
//! is sent as it is rather than quoted inside another. Decided here so that
//! both integrations answer alike.

use crate::error::SpecError;
use crate::json::missing;
use crate::read::{read_unwrapped, Reading};
use crate::tool_error::model::ToolError;
use crate::tool_error::render::{call_tool_result, Format};

pub use crate::code::TOOL_ERROR;

/// The error for a framework's error whose text is `message`, scrubbed.
///
/// ```
/// use mcp_envelope::recovery::user_error;
/// let e = user_error("Invoice inv_9 is locked by another refund.");
/// assert_eq!((e.code.as_str(), e.message.as_str()), ("TOOL_ERROR", "Invoice inv_9 is locked by another refund."));
/// ```
pub fn user_error(message: &str) -> ToolError {
    ToolError::new(TOOL_ERROR, crate::scrub::scrub(message))
}

/// The JSON entry point behind `mcp_envelope::raw::user_error`. Read member by
/// member, as `handler-result` reads its request: the same refusals in fewer
/// bytes of component than a derived reader.
#[inline]
pub fn user_error_json(text: &str) -> Result<String, SpecError> {
    let [message, format] = crate::json::two_members(text, "the user-error input", ["message", "format"])?;
    let Some(message) = message
        .map(|raw| crate::json::string(&raw, &crate::json::Quoted("message")))
        .transpose()?
    else {
        return missing("missing \"message\": the text of the framework's error");
    };
    let format = match format {
        None => Format::Xml,
        Some(raw) => {
            let given = crate::json::string(&raw, &crate::json::Quoted("format"))?;
            Format::from_wire(&given)
                .ok_or_else(|| SpecError::invalid(format!("\"format\": unknown value {given:?}")))?
        }
    };
    Ok(user_error_result(&message, format))
}

/// The `CallToolResult` JSON for a framework's error whose text is `message`:
/// a TOOL_ERROR envelope in `format` stating it, or the message itself when
/// it already holds an envelope.
pub fn user_error_result(message: &str, format: Format) -> String {
    if matches!(
        read_unwrapped(message),
        Ok(Reading::ToolError(_) | Reading::ValidationError(_) | Reading::PartialResult(_))
    ) {
        return crate::tool_error::render::text_result(message, true);
    }
    call_tool_result(&user_error(message), format)
}
