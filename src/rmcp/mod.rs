//! Rust MCP servers on [rmcp](https://docs.rs/rmcp) (feature `rmcp`): the
//! core's results and protocol errors as rmcp's types, an error type a
//! `#[tool]` handler returns with `?`, and [`EnvelopeServer`], a
//! `ServerHandler` around any handler that answers every failed tool call
//! with an envelope the model can act on (docs/rmcp.md).
//!
//! ```
//! use mcp_envelope::rmcp::{call_tool_result, protocol_error};
//! use mcp_envelope::{code, Format, ProtocolErrorKind, ToolError};
//!
//! let e = ToolError::new(code::NOT_FOUND, "No invoice with that ID");
//! let result = call_tool_result(&e, Format::Text);
//! assert_eq!(result.is_error, Some(true));
//! let text = &result.content[0].as_text().unwrap().text;
//! assert!(text.starts_with("error_code: NOT_FOUND\nwhat_failed: No invoice with that ID"));
//!
//! let rpc = protocol_error(ProtocolErrorKind::InvalidRequest, "tools/call needs a name", None);
//! assert_eq!((rpc.code.0, rpc.message.as_ref()), (-32600, "tools/call needs a name"));
//! ```
//!
//! What is said stays the core's: every result here is the core's JSON read
//! into rmcp's types, so an rmcp server sends the bytes every other host
//! sends. This module only knows rmcp's shapes and hooks.

mod answer;
#[cfg(feature = "rmcp-client")]
mod client;
mod conversation;
mod handler;
mod idempotency;
mod input_schema;
mod server;
mod task;
mod thrown;
mod tool_call_error;

/// [`EnvelopeServer::unknown_tool`]'s option, the core's own type.
pub use crate::recovery::UnknownToolAnswer;
pub use answer::LogLine;
#[cfg(feature = "rmcp-client")]
pub use client::{call_tool_with_recovery, Recovered, Then};
pub use conversation::{LedgerRequest, CONVERSATION_META_KEY};
pub use idempotency::idempotency_answer;
pub use server::EnvelopeServer;
pub use task::enveloped_task;
pub use tool_call_error::ToolCallError;

use ::rmcp::model::{CallToolResult, ContentBlock, ErrorCode, MetaObject, Tool};
use ::rmcp::ErrorData;

use crate::decide::{decide_for, Branch, Decision};
use crate::error::SpecError;
use crate::read::ResultText;
use crate::tool_error::model::ToolError;
use crate::tool_error::render::{render, Format, ProtocolErrorKind};

/// The `CallToolResult` carrying the error's envelope in `format` as its one
/// text block, as rmcp's type: what [`crate::call_tool_result`] writes
/// (`isError` from the severity, the ToolFailure `_meta` when set).
pub fn call_tool_result(error: &ToolError, format: Format) -> CallToolResult {
    let text = vec![ContentBlock::text(render(error, format))];
    let mut result = if error.is_error() {
        CallToolResult::error(text)
    } else {
        CallToolResult::success(text)
    };
    // As the core's JSON reads: no `resultType` (the revision's answer adds it).
    result.result_type = None;
    if error.tool_failure.is_some() {
        // The metadata object is written once, by the core, and read here.
        let mut member = String::new();
        crate::tool_error::render::push_tool_failure_meta(&mut member, error);
        result.meta = member
            .strip_prefix(",\"_meta\":")
            .and_then(|meta| serde_json::from_str::<MetaObject>(meta).ok());
    }
    result
}

/// What the library reads of an rmcp result ([`ResultText`]), taken from its
/// fields: the repeat ledger watches every result, so no JSON is written.
pub(crate) fn result_text(result: &CallToolResult) -> ResultText {
    let texts = result
        .content
        .iter()
        .filter_map(|block| block.as_text())
        .map(|t| t.text.as_str());
    let tool_failure_meta = result
        .meta
        .as_ref()
        .is_some_and(|meta| meta.0.contains_key(crate::tool_error::render::TOOL_FAILURE_KEY));
    ResultText::new(result.is_error == Some(true), texts, tool_failure_meta)
}

/// Reads any `CallToolResult` JSON the core writes
/// ([`crate::validation::validation_result`], [`crate::recovery::empty_result`],
/// [`crate::partial::partial_call_tool_result`], ...) into rmcp's type.
///
/// ```
/// use mcp_envelope::rmcp::result_from_json;
/// let result = result_from_json(r#"{"content":[{"type":"text","text":"none"}],"isError":false}"#).unwrap();
/// assert_eq!(result.is_error, Some(false));
/// assert!(result_from_json("[]").is_err());
/// ```
pub fn result_from_json(json: &str) -> Result<CallToolResult, SpecError> {
    serde_json::from_str(json).map_err(|e| SpecError::invalid(format!("not a CallToolResult rmcp reads: {e}")))
}

/// What a rule-based client does next on an rmcp result ([`crate::decide`]),
/// knowing the tool called when `tool` is given: its annotations say whether
/// a retry may repeat a write.
///
/// The rules read the result as it travelled (`resultType`, the ToolFailure
/// `_meta`, the text blocks), so rmcp's result is written back as that JSON
/// once here; an agent host decides after a call, not inside one.
///
/// ```
/// use mcp_envelope::decide::Branch;
/// use mcp_envelope::rmcp::{call_tool_result, decide};
/// use mcp_envelope::{code, Format, ToolError};
/// use rmcp::model::{JsonObject, Tool, ToolAnnotations};
///
/// let busy = ToolError::new(code::RATE_LIMITED, "Too many requests").retry_after(30);
/// let result = call_tool_result(&busy, Format::Xml);
/// let decided = decide(&result, None);
/// assert_eq!((decided.branch, decided.wait_seconds), (Branch::WaitAndRetry, Some(30)));
///
/// // A write with MCP's default annotations (neither read-only nor idempotent).
/// let refund = Tool::new("refund", "Refund an order", JsonObject::new());
/// assert_eq!(decide(&result, Some(&refund)).branch, Branch::VerifyBeforeRetry);
/// let lookup = refund.annotate(ToolAnnotations::new().read_only(true));
/// assert_eq!(decide(&result, Some(&lookup)).branch, Branch::WaitAndRetry);
/// ```
pub fn decide(result: &CallToolResult, tool: Option<&Tool>) -> Decision {
    let listing = tool.and_then(|t| serde_json::to_string(t).ok());
    let decided = serde_json::to_string(result)
        .map_err(|e| SpecError::invalid(e.to_string()))
        .and_then(|json| decide_for(&json, listing.as_deref()));
    // rmcp's types always write a result and a listing the rules read; a
    // refusal could only come from a serializer failing, and nothing then
    // says a retry could help.
    decided.unwrap_or(Decision {
        branch: Branch::StopAndTell,
        code: None,
        wait_seconds: None,
        scopes: Vec::new(),
        why: "the result could not be read",
        stated: None,
    })
}

/// The JSON-RPC error, as rmcp's [`ErrorData`]: what [`crate::protocol_error`]
/// writes, the error's JSON form as `data` when one is given. For the
/// request's own faults only (see `render::result`): a tool that ran and
/// failed answers with [`call_tool_result`].
pub fn protocol_error(kind: ProtocolErrorKind, message: &str, data: Option<&ToolError>) -> ErrorData {
    let json = crate::tool_error::render::protocol_error(kind, message, data);
    serde_json::from_str(&json).unwrap_or_else(|_| ErrorData::new(ErrorCode(kind.code()), message.to_owned(), None))
}

/// docs/rmcp.md's example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../../docs/rmcp.md")]
pub struct RmcpDocDoctests;
