//! The three forms of a partial result, laid out like the `<tool_error>`
//! envelope's: the summary first, then each section only when set, in a
//! fixed order (task, obtained, failed, tried, recovery, correlation id).
//!
//! Every failed item states its code, its effective category (when its code
//! has one or the caller set one) and whether it is retryable, so the
//! coordinator never needs the code table. The summary and the severity are
//! written by the core from the counts.

use super::model::{FailedItem, PartialResult};
use crate::json::{push_json_array, push_json_string};
use crate::render::{push_text_line, Format};
use crate::xml::{element, escape_attribute, escape_content};

/// Renders the partial result in the given format.
pub fn render_partial(partial: &PartialResult, format: Format) -> String {
    match format {
        Format::Xml => render_partial_xml(partial),
        Format::Json => render_partial_json_form(partial),
        Format::Text => render_partial_text(partial),
    }
}

/// The `<partial_result>` envelope: one section per line, two spaces per
/// level, content escaped on `&` and `<` only, no trailing newline.
///
/// ```
/// use mcp_envelope::partial::{render_partial_xml, FailedItem, PartialResult};
/// let p = PartialResult::new()
///     .obtained(["Company A: 10-K 2024"])
///     .failed(FailedItem::new("Company C", "FORBIDDEN"))
///     .recovery("Ask for access to company C's filings.");
/// assert_eq!(
///     render_partial_xml(&p),
///     "<partial_result severity=\"warning\">\n  \
///      <summary>Obtained 1 of 2 items; 1 failed.</summary>\n  \
///      <obtained>\n    <item>Company A: 10-K 2024</item>\n  </obtained>\n  \
///      <failed>\n    <failure item=\"Company C\" code=\"FORBIDDEN\" category=\"permission\" retryable=\"false\"/>\n  </failed>\n  \
///      <recovery>Ask for access to company C's filings.</recovery>\n\
///      </partial_result>"
/// );
/// ```
pub fn render_partial_xml(partial: &PartialResult) -> String {
    let mut out = String::with_capacity(400);
    out.push_str("<partial_result severity=\"");
    out.push_str(partial.severity().as_str());
    out.push_str("\">");
    element(&mut out, "  ", "summary", &partial.summary());
    if let Some(task) = partial.task_text() {
        element(&mut out, "  ", "task", task);
    }
    if !partial.obtained.is_empty() {
        out.push_str("\n  <obtained>");
        for line in &partial.obtained {
            element(&mut out, "    ", "item", line);
        }
        out.push_str("\n  </obtained>");
    }
    out.push_str("\n  <failed>");
    for failed in &partial.failed {
        push_failure_xml(&mut out, failed);
    }
    out.push_str("\n  </failed>");
    if !partial.tried.is_empty() {
        out.push_str("\n  <tried>");
        for line in &partial.tried {
            element(&mut out, "    ", "attempt", line);
        }
        out.push_str("\n  </tried>");
    }
    element(&mut out, "  ", "recovery", partial.recovery_text());
    if let Some(id) = partial.correlation_id_text() {
        element(&mut out, "  ", "correlation_id", id);
    }
    out.push_str("\n</partial_result>");
    out
}

/// `<failure item=".." code=".." category=".." retryable="..">message</failure>`,
/// self-closing without a message.
fn push_failure_xml(out: &mut String, failed: &FailedItem) {
    out.push_str("\n    <failure item=\"");
    escape_attribute(out, &failed.item);
    out.push_str("\" code=\"");
    escape_attribute(out, &failed.code);
    if let Some(category) = failed.category_or_default() {
        out.push_str("\" category=\"");
        out.push_str(category.as_str());
    }
    out.push_str(if failed.is_retryable() {
        "\" retryable=\"true\""
    } else {
        "\" retryable=\"false\""
    });
    match failed.message_text() {
        Some(message) => {
            out.push('>');
            escape_content(out, message);
            out.push_str("</failure>");
        }
        None => out.push_str("/>"),
    }
}

/// The JSON form: one object opening with `"kind":"partial_result"`, failed
/// items in seed 003's names (`errorCategory`, `isRetryable`, `reason`).
/// `obtained` and `failed` are always there, so the shape is fixed.
///
/// ```
/// use mcp_envelope::partial::{render_partial_json_form, FailedItem, PartialResult};
/// let p = PartialResult::new().failed(FailedItem::new("Company C", "TIMEOUT").message("No answer in 30 s"));
/// assert!(render_partial_json_form(&p).starts_with(
///     r#"{"kind":"partial_result","severity":"error","summary":"Obtained 0 of 1 item; 1 failed.","obtained":[],"failed":[{"item":"Company C","code":"TIMEOUT","errorCategory":"transient","isRetryable":true,"reason":"No answer in 30 s"}],"#
/// ));
/// ```
pub fn render_partial_json_form(partial: &PartialResult) -> String {
    let mut out = String::with_capacity(400);
    out.push_str("{\"kind\":\"partial_result\",\"severity\":\"");
    out.push_str(partial.severity().as_str());
    out.push_str("\",\"summary\":");
    push_json_string(&mut out, &partial.summary());
    if let Some(task) = partial.task_text() {
        out.push_str(",\"task\":");
        push_json_string(&mut out, task);
    }
    out.push_str(",\"obtained\":");
    push_json_array(&mut out, &partial.obtained);
    out.push_str(",\"failed\":");
    push_failures_json(&mut out, &partial.failed);
    if !partial.tried.is_empty() {
        out.push_str(",\"tried\":");
        push_json_array(&mut out, &partial.tried);
    }
    out.push_str(",\"recovery\":");
    push_json_string(&mut out, partial.recovery_text());
    if let Some(id) = partial.correlation_id_text() {
        out.push_str(",\"correlationId\":");
        push_json_string(&mut out, id);
    }
    out.push('}');
    out
}

/// The failed items as a JSON array, as the JSON and text forms both write them.
fn push_failures_json(out: &mut String, failures: &[FailedItem]) {
    out.push('[');
    for (i, failed) in failures.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"item\":");
        push_json_string(out, &failed.item);
        out.push_str(",\"code\":");
        push_json_string(out, &failed.code);
        if let Some(category) = failed.category_or_default() {
            out.push_str(",\"errorCategory\":\"");
            out.push_str(category.as_str());
            out.push('"');
        }
        out.push_str(if failed.is_retryable() {
            ",\"isRetryable\":true"
        } else {
            ",\"isRetryable\":false"
        });
        if let Some(message) = failed.message_text() {
            out.push_str(",\"reason\":");
            push_json_string(out, message);
        }
        out.push('}');
    }
    out.push(']');
}

/// The text form: `key: value` lines opening with `partial_result:` and the
/// summary; lists as JSON arrays (the failed items as in the JSON form), a
/// value spanning lines continued on lines indented by two spaces.
///
/// ```
/// use mcp_envelope::partial::{render_partial_text, FailedItem, PartialResult};
/// let p = PartialResult::new()
///     .obtained(["Company A: 10-K 2024"])
///     .failed(FailedItem::new("Company C", "FILING_SEALED").retryable(false));
/// assert_eq!(
///     render_partial_text(&p).lines().take(4).collect::<Vec<_>>(),
///     [
///         "partial_result: Obtained 1 of 2 items; 1 failed.",
///         "severity: warning",
///         r#"obtained: ["Company A: 10-K 2024"]"#,
///         r#"failed: [{"item":"Company C","code":"FILING_SEALED","isRetryable":false}]"#,
///     ]
/// );
/// ```
pub fn render_partial_text(partial: &PartialResult) -> String {
    let mut out = String::with_capacity(400);
    push_text_line(&mut out, "partial_result", &partial.summary());
    push_text_line(&mut out, "severity", partial.severity().as_str());
    if let Some(task) = partial.task_text() {
        push_text_line(&mut out, "task", task);
    }
    let mut list = String::new();
    if !partial.obtained.is_empty() {
        push_json_array(&mut list, &partial.obtained);
        push_text_line(&mut out, "obtained", &list);
    }
    list.clear();
    push_failures_json(&mut list, &partial.failed);
    push_text_line(&mut out, "failed", &list);
    if !partial.tried.is_empty() {
        list.clear();
        push_json_array(&mut list, &partial.tried);
        push_text_line(&mut out, "tried", &list);
    }
    push_text_line(&mut out, "next_action", partial.recovery_text());
    if let Some(id) = partial.correlation_id_text() {
        push_text_line(&mut out, "correlation_id", id);
    }
    out
}
