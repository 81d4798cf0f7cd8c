//! The two wire shapes an MCP server sends a failure in: a `CallToolResult`
//! (a tool ran and failed: the model reads it) and a JSON-RPC error object (the
//! request itself was wrong: the client handles it).
//!
//! Which goes where follows the MCP specification 2025-11-25 (SEP-1303): an
//! unknown tool and a request that does not fit `tools/call` are protocol
//! errors; bad arguments, upstream and business failures, and exceptions in a
//! tool's own code are tool results, so the model can correct itself.

use super::{render, render_json, Format};
use crate::json::push_json_string;
use crate::tool_error::model::ToolError;

/// The MCP `CallToolResult` carrying the envelope as its one text block.
/// `isError` follows the severity. There is never a `structuredContent`: a
/// tool's output schema describes its success shape, and an error object
/// that failed it would turn a handled failure into a client-side one.
///
/// ```
/// use mcp_envelope::{call_tool_result, Format, ToolError};
/// let e = ToolError::new("DEPRECATED", "`limit` is deprecated; used `page_size`").warning();
/// let result = call_tool_result(&e, Format::Text);
/// assert!(result.ends_with(r#""isError":false}"#));
/// ```
///
/// With `tool_failure` set (spec key `toolFailure`), an error result also
/// carries the proposed `_meta["io.modelcontextprotocol/toolFailure"]`
/// (see `render::tool_failure`).
pub fn call_tool_result(error: &ToolError, format: Format) -> String {
    let mut out = text_result(&render(error, format), error.is_error());
    if error.tool_failure.is_some() {
        out.pop(); // the closing brace
        super::tool_failure::push_tool_failure_meta(&mut out, error);
        out.push('}');
    }
    out
}

/// `{"content":[{"type":"text","text":..}],"isError":..}` around any envelope text.
pub fn text_result(text: &str, is_error: bool) -> String {
    text_result_with(text, None, is_error)
}

/// [`text_result`] with the tool's `structuredContent` (compact JSON text,
/// any JSON value) between `content` and `isError`.
pub fn text_result_with(text: &str, structured: Option<&str>, is_error: bool) -> String {
    let mut out = String::with_capacity(text.len() + structured.map_or(0, str::len) + 64);
    out.push_str("{\"content\":[{\"type\":\"text\",\"text\":");
    push_json_string(&mut out, text);
    out.push_str("}]");
    if let Some(structured) = structured {
        out.push_str(",\"structuredContent\":");
        out.push_str(structured);
    }
    out.push_str(if is_error {
        ",\"isError\":true}"
    } else {
        ",\"isError\":false}"
    });
    out
}

/// The JSON-RPC 2.0 error codes a protocol error can carry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProtocolErrorKind {
    /// -32700: the request body is not JSON.
    ParseError,
    /// -32600: the JSON is not a valid JSON-RPC request.
    InvalidRequest,
    /// -32601: no such method (for example, `tools/call` on a server without tools).
    MethodNotFound,
    /// -32602: the params do not fit the method: an unknown tool name, or
    /// `tools/call` params that miss `name` or whose `arguments` is not an object.
    InvalidParams,
    /// -32603: the server failed before or around a tool, outside any handler.
    InternalError,
}

string_enum!(ProtocolErrorKind {
    ParseError = "parse-error",
    InvalidRequest = "invalid-request",
    MethodNotFound = "method-not-found",
    InvalidParams = "invalid-params",
    InternalError = "internal-error"
});

impl ProtocolErrorKind {
    /// The JSON-RPC error code.
    pub fn code(self) -> i32 {
        match self {
            ProtocolErrorKind::ParseError => -32700,
            ProtocolErrorKind::InvalidRequest => -32600,
            ProtocolErrorKind::MethodNotFound => -32601,
            ProtocolErrorKind::InvalidParams => -32602,
            ProtocolErrorKind::InternalError => -32603,
        }
    }
}

/// The JSON-RPC error object `{"code":..,"message":..}`, with the error's
/// JSON form as `data` when one is given.
///
/// ```
/// use mcp_envelope::{protocol_error, ProtocolErrorKind};
/// assert_eq!(
///     protocol_error(ProtocolErrorKind::InvalidParams, "Unknown tool: invalid_tool_name", None),
///     r#"{"code":-32602,"message":"Unknown tool: invalid_tool_name"}"#
/// );
/// ```
pub fn protocol_error(kind: ProtocolErrorKind, message: &str, data: Option<&ToolError>) -> String {
    let mut out = format!("{{\"code\":{},\"message\":", kind.code());
    push_json_string(&mut out, message);
    if let Some(error) = data {
        out.push_str(",\"data\":");
        out.push_str(&render_json(error));
    }
    out.push('}');
    out
}
