//! The JSON form: one object with seed 003's names (`errorCategory`,
//! `isRetryable`, `reason`, `customerMessage`) plus every other field set.
//!
//! Unlike the XML and text forms it always states the effective category and
//! retryability, since they are the point of this form. JSON escaping is
//! lossless, so no character is replaced.

use super::capped::{render_capped, Capped};
use crate::delta::push_deltas_json;
use crate::json::{push_json_array, push_json_object, push_json_string};
use crate::model::ToolError;

/// Renders the JSON form, compact, keys in a fixed order.
///
/// ```
/// use mcp_envelope::{code, render_json, ToolError};
/// let e = ToolError::new(code::RATE_LIMITED, "Too many requests").retry_after(30);
/// assert_eq!(
///     render_json(&e),
///     r#"{"code":"RATE_LIMITED","severity":"error","errorCategory":"transient","isRetryable":true,"reason":"Too many requests","recovery":"Wait for the retry-after period, then make the same call again.","retryAfter":30}"#
/// );
/// ```
pub fn render_json(error: &ToolError) -> String {
    render_capped(error, write)
}

fn write(view: &Capped<'_>) -> String {
    let error = view.error;
    let mut out = String::with_capacity(200 + view.message.kept.len());
    out.push_str("{\"code\":");
    push_json_string(&mut out, &view.code);
    out.push_str(",\"severity\":\"");
    out.push_str(error.severity.as_str());
    out.push('"');
    if let Some(category) = error.category_or_default() {
        out.push_str(",\"errorCategory\":\"");
        out.push_str(category.as_str());
        out.push('"');
    }
    out.push_str(if error.is_retryable() {
        ",\"isRetryable\":true"
    } else {
        ",\"isRetryable\":false"
    });
    out.push_str(",\"reason\":");
    push_json_string(&mut out, &view.message.text());
    if let Some(recovery) = &view.recovery {
        out.push_str(",\"recovery\":");
        push_json_string(&mut out, recovery);
    }
    if !view.actions.is_empty() {
        out.push_str(",\"availableActions\":");
        push_json_array(&mut out, &view.actions);
    }
    count(&mut out, "omittedActions", view.omitted_actions);
    if !view.details.is_empty() {
        out.push_str(",\"details\":");
        push_json_object(&mut out, &view.details);
    }
    count(&mut out, "omittedDetails", view.omitted_details);
    if let Some(seconds) = error.retry_after {
        out.push_str(",\"retryAfter\":");
        out.push_str(&seconds.to_string());
    }
    if let Some(text) = &view.customer_message {
        out.push_str(",\"customerMessage\":");
        push_json_string(&mut out, &text.text());
    }
    if let Some(id) = &view.correlation_id {
        out.push_str(",\"correlationId\":");
        push_json_string(&mut out, id);
    }
    if !view.deltas.is_empty() {
        out.push_str(",\"contractDeltas\":");
        push_deltas_json(&mut out, &view.deltas.iter().map(|d| &**d).collect::<Vec<_>>());
    }
    count(&mut out, "omittedDeltas", view.omitted_deltas);
    out.push('}');
    out
}

/// `,"name":N` when anything was left out of a list.
fn count(out: &mut String, name: &str, count: usize) {
    if count > 0 {
        out.push_str(&format!(",\"{name}\":{count}"));
    }
}
