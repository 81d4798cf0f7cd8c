//! A call of a tool the server does not have. The MCP specification lets a
//! server answer it as a JSON-RPC error (-32602), but a model never reads a
//! protocol error: its client turns it into SDK-specific text, or into
//! nothing. So every integration answers it as a tool result the model
//! does read, `isError: true`, with an UNKNOWN_ACTION envelope listing the
//! tools it may call instead (the shape the open SEP-2145 proposes); the
//! words are decided here once, for every language.

use serde::Deserialize;

use crate::code;
use crate::error::SpecError;
use crate::json::{fail, given, read_input};
use crate::model::ToolError;
use crate::render::{call_tool_result, Format};

/// The error for a call of `tool` on a server whose tools are `tools`, in
/// the order the server lists them (the cap on actions counts the rest).
///
/// ```
/// use mcp_envelope::recovery::unknown_tool;
/// let e = unknown_tool("refund_orders", &["list_invoices", "get_invoice", "refund_order"]);
/// assert_eq!(e.code, "UNKNOWN_ACTION");
/// assert_eq!(e.message, "No tool named 'refund_orders' on this server.");
/// assert_eq!(e.available_actions, ["list_invoices", "get_invoice", "refund_order"]);
/// ```
pub fn unknown_tool<S: AsRef<str>>(tool: &str, tools: &[S]) -> ToolError {
    let tools: Vec<String> = tools.iter().map(|t| t.as_ref().to_owned()).collect();
    let suggestion = if tools.is_empty() {
        "This server lists no tools: do not call it again; tell the user the tool is not available."
    } else {
        "Call one of the available tools instead, with the arguments its input schema asks for."
    };
    ToolError::new(code::UNKNOWN_ACTION, format!("No tool named '{tool}' on this server."))
        .suggest(suggestion)
        .actions(tools)
}

const WHAT: &str = "the unknown-tool input";

/// The `unknown-tool` input as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "an unknown-tool input object")]
struct UnknownToolInput {
    #[serde(default, deserialize_with = "given")]
    tool: Option<String>,
    #[serde(default, deserialize_with = "given")]
    tools: Option<Vec<String>>,
    format: Option<Format>,
}

/// `unknown-tool`: `{"tool", "tools", "format"?}` to the
/// `CallToolResult` JSON (`isError: true`). `tools` is the server's tool
/// names as its `tools/list` gives them; an empty list is allowed.
///
/// ```
/// use mcp_envelope::recovery::unknown_tool_json;
/// let result = unknown_tool_json(r#"{"tool":"refund_orders","tools":["list_invoices"],"format":"text"}"#).unwrap();
/// assert!(result.starts_with(r#"{"content":[{"type":"text","text":"error_code: UNKNOWN_ACTION\nwhat_failed: No tool named 'refund_orders' on this server."#));
/// ```
pub fn unknown_tool_json(text: &str) -> Result<String, SpecError> {
    let input: UnknownToolInput = read_input(text, WHAT)?;
    let Some(tool) = input.tool else {
        return fail("missing \"tool\": the tool name the call asked for");
    };
    let Some(tools) = input.tools else {
        return fail("missing \"tools\": the names of the server's tools, as tools/list gives them");
    };
    let error = unknown_tool(&tool, &tools);
    Ok(call_tool_result(&error, input.format.unwrap_or(Format::Xml)))
}
