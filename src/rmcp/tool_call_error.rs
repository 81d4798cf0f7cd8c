//! The error a `#[tool]` handler returns: `Result<T, ToolCallError>`, a
//! [`ToolError`] turned into one with `?`, sent as an `isError` result
//! carrying the envelope (rmcp's `IntoCallToolResult`), never as a JSON-RPC
//! error the model would not read. A library's failure (an `std::io::Error`,
//! with the `reqwest` feature a `reqwest::Error`) becomes one with `?` too,
//! classified by its structure (thrown.rs).

use std::path::Path;

use ::rmcp::handler::server::tool::IntoCallToolResult;
use ::rmcp::model::{CallToolResponse, CallToolResult};
use ::rmcp::ErrorData;

use super::thrown::Thrown;
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
    /// The form asked for; unset, XML (a library's failure: the server's form).
    format: Option<Format>,
    /// A library's failure, answered by the core when the call is answered.
    thrown: Option<Box<Thrown>>,
}

impl ToolCallError {
    /// The error, rendered as XML.
    pub fn new(error: ToolError) -> Self {
        ToolCallError {
            error: Box::new(error),
            format: None,
            thrown: None,
        }
    }

    /// An io error of a call given `path`, which std's error does not hold:
    /// the code its kind tells (NOT_FOUND, CONFLICT, FORBIDDEN, ...), whose
    /// message names the argument `path` came from, quoting what the model
    /// sent, never the path the server resolved it to (docs/rmcp.md).
    ///
    /// ```
    /// use mcp_envelope::rmcp::ToolCallError;
    ///
    /// fn read_note(path: &str) -> Result<String, ToolCallError> {
    ///     std::fs::read_to_string(path).map_err(|e| ToolCallError::io(e, path))
    /// }
    /// let missing = read_note("/no/such/note.txt").unwrap_err();
    /// assert_eq!(missing.error().code, "NOT_FOUND");
    /// ```
    pub fn io(error: std::io::Error, path: impl AsRef<Path>) -> Self {
        Self::thrown(Thrown::io(&error, Some(path.as_ref()), None))
    }

    /// An io error of a rename or copy from `path` to `destination`: what
    /// already exists, or is not empty, is the destination's argument.
    pub fn io_with_destination(error: std::io::Error, path: impl AsRef<Path>, destination: impl AsRef<Path>) -> Self {
        Self::thrown(Thrown::io(&error, Some(path.as_ref()), Some(destination.as_ref())))
    }

    /// A failure nothing classifies (a parse error, a database error, ...):
    /// INTERNAL_ERROR under a fresh correlation id, its text (which may quote
    /// what it read) to the log line only.
    ///
    /// ```
    /// use mcp_envelope::rmcp::ToolCallError;
    ///
    /// fn port(config: &str) -> Result<u16, ToolCallError> {
    ///     serde_json::from_str(config).map_err(ToolCallError::internal)
    /// }
    /// assert_eq!(port("\"secret\"").unwrap_err().error().code, "INTERNAL_ERROR");
    /// ```
    pub fn internal(error: impl std::fmt::Display) -> Self {
        Self::thrown(Thrown::internal(error.to_string()))
    }

    fn thrown(thrown: Thrown) -> Self {
        ToolCallError {
            error: Box::new(thrown.error_alone()),
            format: None,
            thrown: Some(Box::new(thrown)),
        }
    }

    /// Renders the envelope in `format` instead.
    pub fn format(mut self, format: Format) -> Self {
        self.format = Some(format);
        self
    }

    /// The error it carries. For a library's failure, the error it stands
    /// for on its own: the answer to a call adds the argument its path or URL
    /// came from, the server's locale and a correlation id.
    pub fn error(&self) -> &ToolError {
        &self.error
    }

    /// The `CallToolResult` it is sent as. Returned as a handler's `Err`, rmcp
    /// marks it `isError: true` whatever the severity: return a warning as
    /// `Ok(mcp_envelope::rmcp::call_tool_result(..))` instead. A library's
    /// failure is answered by the core here: inside an
    /// [`EnvelopeServer`](super::EnvelopeServer)'s call, for that call (its
    /// arguments, the server's form, locale and log); outside one, alone,
    /// its log line to `tracing`.
    pub fn into_result(self) -> CallToolResult {
        match &self.thrown {
            Some(thrown) => thrown.result(self.format),
            None => super::call_tool_result(&self.error, self.format.unwrap_or(Format::Xml)),
        }
    }
}

impl From<ToolError> for ToolCallError {
    fn from(error: ToolError) -> Self {
        ToolCallError::new(error)
    }
}

/// An io error by its kind (`ErrorKind::NotFound` is NOT_FOUND, `AlreadyExists`
/// CONFLICT, ...), naming no path: std's error holds none. Give the path
/// with [`ToolCallError::io`] so the message names its argument.
impl From<std::io::Error> for ToolCallError {
    fn from(error: std::io::Error) -> Self {
        Self::thrown(Thrown::io(&error, None, None))
    }
}

/// A reqwest error by its structure (feature `reqwest`): a status error
/// (`error_for_status`) through the core's upstream mapping (429
/// RATE_LIMITED, 404 NOT_FOUND, 5xx UPSTREAM_UNAVAILABLE, ...), a timeout
/// TIMEOUT, a connection that failed UPSTREAM_UNAVAILABLE, each naming the
/// argument its URL came from (scrubbed); anything else INTERNAL_ERROR.
/// reqwest's own text, which holds the URL and its query, goes to the log
/// line only.
#[cfg(feature = "reqwest")]
impl From<reqwest::Error> for ToolCallError {
    fn from(error: reqwest::Error) -> Self {
        Self::thrown(Thrown::reqwest(&error))
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
