//! The `<tool_error>` XML envelope, and the escaping every XML envelope shares.
//!
//! Layout follows the envelope specification: one section per line, two
//! spaces per level, sections only when set, no trailing newline. The
//! extension sections (`category`, `retryable`, `customer_message`,
//! `correlation_id`, `contract_awareness`) come after the specification's
//! own, as elements rather than root attributes, so readers that match the
//! root tag or look up known sections keep working.

use crate::delta::{contract_awareness, shown_deltas, DEFAULT_MAX_DELTAS};
use crate::model::ToolError;
use crate::xml::{element, escape_attribute, escape_content};
use std::fmt::Write;

/// Renders the `<tool_error>` envelope.
///
/// ```
/// use mcp_envelope::{render_xml, ToolError};
/// let e = ToolError::new("ORDER_LOCKED", "Order A-1 is being edited").retryable(true);
/// assert_eq!(
///     render_xml(&e),
///     "<tool_error code=\"ORDER_LOCKED\" severity=\"error\">\n  \
///      <message>Order A-1 is being edited</message>\n  \
///      <retryable>true</retryable>\n</tool_error>"
/// );
/// ```
pub fn render_xml(error: &ToolError) -> String {
    let mut out = String::with_capacity(160 + error.message.len());
    out.push_str("<tool_error code=\"");
    escape_attribute(&mut out, &error.code);
    let _ = write!(out, "\" severity=\"{}\">", error.severity);
    element(&mut out, "  ", "message", &error.message);
    if let Some(recovery) = error.recovery() {
        element(&mut out, "  ", "recovery", recovery);
    }
    if !error.available_actions.is_empty() {
        out.push_str("\n  <available_actions>");
        for action in &error.available_actions {
            element(&mut out, "    ", "action", action);
        }
        out.push_str("\n  </available_actions>");
    }
    if !error.details.is_empty() {
        out.push_str("\n  <details>");
        for (key, value) in &error.details {
            out.push_str("\n    <detail key=\"");
            escape_attribute(&mut out, key);
            out.push_str("\">");
            escape_content(&mut out, value);
            out.push_str("</detail>");
        }
        out.push_str("\n  </details>");
    }
    if let Some(seconds) = error.retry_after {
        element(&mut out, "  ", "retry_after", &crate::render::seconds_text(seconds));
    }
    if let Some(category) = error.category {
        element(&mut out, "  ", "category", category.as_str());
    }
    if let Some(retryable) = error.retryable {
        element(&mut out, "  ", "retryable", if retryable { "true" } else { "false" });
    }
    if let Some(text) = error.customer_message_text() {
        element(&mut out, "  ", "customer_message", text);
    }
    if let Some(id) = error.correlation_id_text() {
        element(&mut out, "  ", "correlation_id", id);
    }
    let deltas = shown_deltas(&error.deltas);
    contract_awareness(&mut out, &deltas, DEFAULT_MAX_DELTAS);
    out.push_str("\n</tool_error>");
    out
}
