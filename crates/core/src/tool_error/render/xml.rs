//! The `<tool_error>` XML envelope, and the escaping every XML envelope shares.
//!
//! Layout follows the envelope specification: one section per line, two
//! spaces per level, sections only when set, no trailing newline. The
//! extension sections (`category`, `retryable`, `customer_message`,
//! `correlation_id`, `contract_awareness`) come after the specification's
//! own, as elements rather than root attributes, so readers that match the
//! root tag or look up known sections keep working.

use super::capped::{render_capped, Capped};
use crate::delta::{contract_awareness, ContractDelta};
use crate::tool_error::model::ToolError;
use crate::xml::{element, escape_attribute, escape_content, more_line};
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
    render_capped(error, write)
}

fn write(view: &Capped<'_>) -> String {
    let error = view.error;
    let mut out = String::with_capacity(160 + view.message.kept.len());
    out.push_str("<tool_error code=\"");
    escape_attribute(&mut out, &view.code);
    let _ = write!(out, "\" severity=\"{}\">", error.severity);
    element(&mut out, "  ", "message", &view.message.text());
    if let Some(recovery) = &view.recovery {
        element(&mut out, "  ", "recovery", recovery);
    }
    if !view.actions.is_empty() || view.omitted_actions > 0 {
        out.push_str("\n  <available_actions>");
        for action in &view.actions {
            element(&mut out, "    ", "action", action);
        }
        more_line(
            &mut out,
            "    ",
            "more_actions",
            view.omitted_actions,
            view.actions.is_empty(),
            ("action", "actions"),
        );
        out.push_str("\n  </available_actions>");
    }
    if !view.details.is_empty() || view.omitted_details > 0 {
        out.push_str("\n  <details>");
        for (key, value) in &view.details {
            out.push_str("\n    <detail key=\"");
            escape_attribute(&mut out, key);
            out.push_str("\">");
            escape_content(&mut out, value);
            out.push_str("</detail>");
        }
        more_line(
            &mut out,
            "    ",
            "more_details",
            view.omitted_details,
            view.details.is_empty(),
            ("detail", "details"),
        );
        out.push_str("\n  </details>");
    }
    if let Some(seconds) = error.retry_after {
        element(
            &mut out,
            "  ",
            "retry_after",
            &crate::tool_error::render::seconds_text(seconds),
        );
    }
    if let Some(category) = error.category {
        element(&mut out, "  ", "category", category.as_str());
    }
    if let Some(retryable) = error.retryable {
        element(&mut out, "  ", "retryable", if retryable { "true" } else { "false" });
    }
    if let Some(text) = &view.customer_message {
        element(&mut out, "  ", "customer_message", &text.text());
    }
    if let Some(id) = &view.correlation_id {
        element(&mut out, "  ", "correlation_id", id);
    }
    let deltas: Vec<&ContractDelta> = view.deltas.iter().map(|d| &**d).collect();
    contract_awareness(&mut out, &deltas, view.omitted_deltas);
    out.push_str("\n</tool_error>");
    out
}
