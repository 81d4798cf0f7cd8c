//! A call of a tool the server does not have. The MCP specification
//! (2025-11-25 and 2026-07-28, on `CallToolResult.isError`) says errors in
//! finding the tool are reported as a JSON-RPC error, so that is the answer
//! by default: -32602 whose message names the server's tools (a client that
//! forwards protocol errors to the model gives it something to recover with)
//! and whose `data` is the UNKNOWN_ACTION envelope's JSON form. SEP-2145's
//! `isError: true` result carrying the envelope is an option. Both are
//! decided here once, for every language.

use serde::Deserialize;

use crate::code;
use crate::cut::{capped, Marker};
use crate::error::SpecError;
use crate::json::{given, missing, push_json_string, read_input};
use crate::tool_error::limits::Limits;
use crate::tool_error::model::ToolError;
use crate::tool_error::render::{call_tool_result, protocol_error, Format, ProtocolErrorKind};

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

/// How a server answers a call of a tool it does not have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UnknownToolAnswer {
    /// A JSON-RPC error -32602, as the specification says (the default).
    #[default]
    ProtocolError,
    /// An `isError: true` result carrying the UNKNOWN_ACTION envelope (SEP-2145, a draft).
    ToolResult,
}

string_enum!(UnknownToolAnswer as "UnknownToolAnswerKind" {
    ProtocolError = "protocol-error",
    ToolResult = "tool-result"
});

/// The most characters of the called name a protocol error's message
/// repeats: the name comes from the model and can be anything.
const NAME_CHARS: usize = 100;

/// The JSON-RPC error's message: the spec's own words ("Unknown tool: NAME")
/// and the server's tools, as many as an envelope lists (the rest counted).
///
/// ```
/// use mcp_envelope::recovery::unknown_tool_message;
/// assert_eq!(
///     unknown_tool_message("refund_orders", &["list_invoices", "get_invoice"]),
///     "Unknown tool: refund_orders. This server's tools: list_invoices, get_invoice."
/// );
/// assert_eq!(unknown_tool_message("x", &[] as &[&str]), "Unknown tool: x. This server lists no tools.");
/// ```
pub fn unknown_tool_message<S: AsRef<str>>(tool: &str, tools: &[S]) -> String {
    let name = capped(tool, NAME_CHARS, Marker::ENGLISH);
    if tools.is_empty() {
        return format!("Unknown tool: {name}. This server lists no tools.");
    }
    let shown = Limits::DEFAULT.actions;
    let names: Vec<_> = tools
        .iter()
        .take(shown)
        .map(|t| capped(t.as_ref(), NAME_CHARS, Marker::ENGLISH))
        .collect();
    let more = match tools.len().saturating_sub(shown) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    format!("Unknown tool: {name}. This server's tools: {}{more}.", names.join(", "))
}

/// The answer to a call of `tool` on a server whose tools are `tools`:
/// `{"error": <JSON-RPC error object>}` or `{"result": <CallToolResult>}`.
///
/// ```
/// use mcp_envelope::recovery::{unknown_tool_answer, UnknownToolAnswer};
/// use mcp_envelope::Format;
/// let answer = unknown_tool_answer("refund", &["list_invoices"], UnknownToolAnswer::ProtocolError, Format::Xml);
/// assert!(answer.starts_with(r#"{"error":{"code":-32602,"message":"Unknown tool: refund. This server's tools: list_invoices.","data":{"code":"UNKNOWN_ACTION""#));
/// let result = unknown_tool_answer("refund", &["list_invoices"], UnknownToolAnswer::ToolResult, Format::Text);
/// assert!(result.starts_with(r#"{"result":{"content":[{"type":"text","text":"error_code: UNKNOWN_ACTION"#));
/// ```
pub fn unknown_tool_answer<S: AsRef<str>>(
    tool: &str,
    tools: &[S],
    answer: UnknownToolAnswer,
    format: Format,
) -> String {
    let error = unknown_tool(tool, tools);
    let (key, body) = match answer {
        UnknownToolAnswer::ProtocolError => (
            "error",
            protocol_error(
                ProtocolErrorKind::InvalidParams,
                &unknown_tool_message(tool, tools),
                Some(&error),
            ),
        ),
        UnknownToolAnswer::ToolResult => ("result", call_tool_result(&error, format)),
    };
    let mut out = String::from("{");
    push_json_string(&mut out, key);
    out.push(':');
    out.push_str(&body);
    out.push('}');
    out
}

/// What [`unknown_tool_answer`] writes, member by member, as shapes for the
/// schema alone: the wrappers' `UnknownToolAnswer` (an
/// `UnknownToolErrorAnswer` or an `UnknownToolResultAnswer`).
/// `wire_schema`'s tests validate the shared vectors' answers against them,
/// so they cannot drift from the writer.
#[cfg(feature = "schema")]
#[allow(dead_code)] // never built: their schemas are all they are for
pub(crate) mod output {
    use schemars::JsonSchema;
    use serde_json::{Map, Value};

    /// A JSON-RPC error as the core words it for an unknown tool: -32602, a
    /// short text naming the tools, the envelope in `data`.
    #[derive(JsonSchema)]
    struct UnknownToolError {
        /// -32602, JSON-RPC's invalid params.
        code: i64,
        /// `Unknown tool: NAME.` and the server's tools.
        message: String,
        /// The UNKNOWN_ACTION envelope in its JSON form (code, severity,
        /// errorCategory, isRetryable, reason, recovery, availableActions).
        data: Map<String, Value>,
    }

    /// The JSON-RPC error to answer the `tools/call` request with (`protocol-error`).
    #[derive(JsonSchema)]
    #[doc(hidden)]
    pub struct UnknownToolErrorAnswer {
        /// The error object.
        error: UnknownToolError,
    }

    /// The `isError` result to answer it with (`tool-result`).
    #[derive(JsonSchema)]
    #[doc(hidden)]
    pub struct UnknownToolResultAnswer {
        /// The UNKNOWN_ACTION `CallToolResult`.
        result: Map<String, Value>,
    }

    /// What `unknownTool` gives: the JSON-RPC error to answer with, or the `isError` result.
    #[derive(JsonSchema)]
    #[serde(untagged)]
    #[allow(missing_docs)] // each variant is named after the shape it holds
    #[doc(hidden)]
    pub enum UnknownToolAnswer {
        Error(UnknownToolErrorAnswer),
        Result(UnknownToolResultAnswer),
    }
}

const WHAT: &str = "the unknown-tool input";

/// The `unknown-tool` input as written; with the `schema` feature also the
/// wrappers' `UnknownToolOptions`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "an unknown-tool input object")]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    schemars(
        rename = "UnknownToolOptions",
        description = "The options of `unknownTool`: a call of a tool the server does not have.",
        extend("required" = ["tool", "tools"])
    )
)]
#[doc(hidden)]
pub struct UnknownToolInput {
    /// The tool name the call asked for.
    #[serde(default, deserialize_with = "given")]
    #[cfg_attr(feature = "schema", schemars(with = "String"))]
    tool: Option<String>,
    /// The server's tool names, as its `tools/list` gives them (an empty list is allowed).
    #[serde(default, deserialize_with = "given")]
    #[cfg_attr(feature = "schema", schemars(with = "Vec<String>"))]
    tools: Option<Vec<String>>,
    /// The envelope's form: `xml` (the default), `json` or `text`.
    format: Option<Format>,
    /// How the call is answered: `protocol-error` (the default, as the MCP
    /// specification says) or `tool-result` (SEP-2145's `isError` result).
    answer: Option<UnknownToolAnswer>,
}

/// The JSON entry point behind `mcp_envelope::raw::unknown_tool`.
#[inline]
pub fn unknown_tool_json(text: &str) -> Result<String, SpecError> {
    let input: UnknownToolInput = read_input(text, WHAT)?;
    let Some(tool) = input.tool else {
        return missing("missing \"tool\": the tool name the call asked for");
    };
    let Some(tools) = input.tools else {
        return missing("missing \"tools\": the names of the server's tools, as tools/list gives them");
    };
    let answer = input.answer.unwrap_or_default();
    Ok(unknown_tool_answer(
        &tool,
        &tools,
        answer,
        input.format.unwrap_or(Format::Xml),
    ))
}
