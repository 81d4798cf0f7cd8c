//! The error a `#[tool]` handler returns: `Result<T, ToolCallError>`, a
//! [`ToolError`] turned into one with `?`, sent as an `isError` result
//! carrying the envelope (rmcp's `IntoCallToolResult`), never as a JSON-RPC
//! error the model would not read.

use ::rmcp::handler::server::tool::IntoCallToolResult;
use ::rmcp::model::{CallToolResponse, CallToolResult};
use ::rmcp::ErrorData;

use crate::tool_error::model::ToolError;
use crate::tool_error::render::Format;

/// A tool's failure as the model reads it: the error and the envelope form
/// it is rendered in (XML unless set).
///
/// ```
/// use mcp_envelope::rmcp::ToolCallError;
/// use mcp_envelope::{code, Format, ToolError};
///
/// fn find(id: &str) -> Result<String, ToolError> {
///     Err(ToolError::new(code::NOT_FOUND, format!("No invoice {id}")))
/// }
/// // A `#[tool]` fn returns `Result<_, ToolCallError>` and uses `?` on a ToolError.
/// fn get_invoice(id: &str) -> Result<String, ToolCallError> {
///     Ok(find(id)?)
/// }
/// let failure = get_invoice("inv_1").unwrap_err().format(Format::Text);
/// let result = failure.into_result();
/// assert_eq!(result.is_error, Some(true));
/// assert!(result.content[0].as_text().unwrap().text.starts_with("error_code: NOT_FOUND\n"));
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCallError {
    // Boxed: a ToolError is some 300 bytes, and every `Result<T, Self>` of a
    // handler would carry them (clippy's `result_large_err`).
    error: Box<ToolError>,
    format: Format,
}

impl ToolCallError {
    /// The error, rendered as XML.
    pub fn new(error: ToolError) -> Self {
        ToolCallError {
            error: Box::new(error),
            format: Format::Xml,
        }
    }

    /// Renders the envelope in `format` instead.
    pub fn format(mut self, format: Format) -> Self {
        self.format = format;
        self
    }

    /// The error it carries.
    pub fn error(&self) -> &ToolError {
        &self.error
    }

    /// The `CallToolResult` it is sent as. Returned as a handler's `Err`, rmcp
    /// marks it `isError: true` whatever the severity: return a warning as
    /// `Ok(mcp_envelope::rmcp::call_tool_result(..))` instead.
    pub fn into_result(self) -> CallToolResult {
        super::call_tool_result(&self.error, self.format)
    }
}

impl From<ToolError> for ToolCallError {
    fn from(error: ToolError) -> Self {
        ToolCallError::new(error)
    }
}

/// `CODE: message`, for logs; the model reads the envelope.
impl std::fmt::Display for ToolCallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.error.code, self.error.message)
    }
}

impl std::error::Error for ToolCallError {}

/// The result carrying the envelope; never a protocol error.
impl IntoCallToolResult for ToolCallError {
    fn into_call_tool_result(self) -> Result<CallToolResponse, ErrorData> {
        Ok(self.into_result().into())
    }
}
