//! The text form: `key: value` lines, opening with the four answers a model
//! needs (`error_code`, `what_failed`, `next_action`, `retryable`), then a line
//! for each other field that is set.
//!
//! A value spanning several lines continues on lines indented by two spaces,
//! so every line still starts with a key or with the indent. Lists and maps
//! are written as JSON, which keeps names containing commas unambiguous.

use super::capped::{render_capped, Capped};
use super::seconds_text;
use crate::delta::push_deltas_json;
use crate::json::{push_json_array, push_json_object};
use crate::tool_error::model::{Severity, ToolError};
use crate::xml::replace_forbidden;

/// Renders the text form.
///
/// ```
/// use mcp_envelope::{render_text, ToolError};
/// let e = ToolError::new("AMOUNT_ABOVE_REFUNDABLE", "Requested 4500 cents.")
///     .suggest("Retry with amount_cents at or below 3200.")
///     .retryable(true);
/// assert_eq!(
///     render_text(&e),
///     "error_code: AMOUNT_ABOVE_REFUNDABLE\nwhat_failed: Requested 4500 cents.\n\
///      next_action: Retry with amount_cents at or below 3200.\nretryable: true"
/// );
/// ```
pub fn render_text(error: &ToolError) -> String {
    render_capped(error, write)
}

fn write(view: &Capped<'_>) -> String {
    let error = view.error;
    let mut out = String::with_capacity(120 + view.message.kept.len());
    line(&mut out, "error_code", &view.code);
    line(&mut out, "what_failed", &view.message.text());
    if let Some(recovery) = &view.recovery {
        line(&mut out, "next_action", recovery);
    }
    line(
        &mut out,
        "retryable",
        if error.is_retryable() { "true" } else { "false" },
    );
    if error.severity != Severity::Error {
        line(&mut out, "severity", error.severity.as_str());
    }
    if let Some(category) = error.category {
        line(&mut out, "category", category.as_str());
    }
    if !view.actions.is_empty() {
        let mut list = String::new();
        push_json_array(&mut list, &view.actions);
        line(&mut out, "available_actions", &list);
    }
    count(&mut out, "omitted_actions", view.omitted_actions);
    if !view.details.is_empty() {
        let mut map = String::new();
        push_json_object(&mut map, &view.details);
        line(&mut out, "details", &map);
    }
    count(&mut out, "omitted_details", view.omitted_details);
    if let Some(seconds) = error.retry_after {
        line(&mut out, "retry_after", &seconds_text(seconds));
    }
    if let Some(text) = &view.customer_message {
        line(&mut out, "customer_message", &text.text());
    }
    if let Some(id) = &view.correlation_id {
        line(&mut out, "correlation_id", id);
    }
    if !view.deltas.is_empty() {
        let mut list = String::new();
        push_deltas_json(&mut list, &view.deltas.iter().map(|d| &**d).collect::<Vec<_>>());
        line(&mut out, "contract_changes", &list);
    }
    count(&mut out, "omitted_contract_changes", view.omitted_deltas);
    out
}

/// `omitted_actions: N` when anything was left out of a list.
fn count(out: &mut String, key: &str, count: usize) {
    if count > 0 {
        line(out, key, &count.to_string());
    }
}

/// Appends a `key: value` line, the value's further lines indented by two
/// spaces; the partial result's text form writes its lines with it too.
pub(crate) fn line(out: &mut String, key: &str, value: &str) {
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(key);
    out.push_str(": ");
    let value = replace_forbidden(value);
    let mut lines = value.split('\n');
    out.push_str(lines.next().unwrap_or(""));
    for continued in lines {
        out.push_str("\n  ");
        out.push_str(continued);
    }
}
