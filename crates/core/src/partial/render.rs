//! The three forms of a partial result, laid out like the `<tool_error>`
//! envelope's: the summary first, then each section only when set, in a
//! fixed order (task, obtained, failed, tried, recovery, correlation id).
//!
//! Every failed item states its code, its effective category (when its code
//! has one or the caller set one), whether it is retryable and, when the
//! caller set one, its retry-after, so the coordinator never needs the code
//! table. The summary and the severity are
//! written by the core from the counts.
//!
//! Every form is capped (`capped`, docs/size-caps.md): each writer here
//! writes what the capped view shows, and a list's entries beyond it are
//! counted, last in the list's section (XML), after the list (JSON, text).

use super::capped::{render_capped, Shown, ShownFailure, Writer};
use super::model::PartialResult;
use crate::json::{push_json_array, push_json_string};
use crate::tool_error::render::{push_text_line, seconds_text, Format};
use crate::xml::{element, escape_attribute, escape_content, more_line};

const XML: Writer = Writer {
    envelope: write_xml,
    failure: push_failure_xml,
};
const JSON: Writer = Writer {
    envelope: write_json,
    failure: push_failure_json,
};
// The text form writes its failed items as the JSON form does.
const TEXT: Writer = Writer {
    envelope: write_text,
    failure: push_failure_json,
};

/// Renders the partial result in the given format, under its limits.
///
/// ```
/// use mcp_envelope::partial::{render_partial, FailedItem, PartialLimits, PartialResult};
/// use mcp_envelope::Format;
/// let p = PartialResult::new()
///     .obtained(["A", "B", "C"])
///     .failed(FailedItem::new("Company C", "FORBIDDEN"))
///     .limits(PartialLimits { items: 2, ..PartialLimits::DEFAULT });
/// assert!(render_partial(&p, Format::Xml).contains(
///     "<item>B</item>\n    <more_items count=\"1\">1 more obtained item is not listed.</more_items>"
/// ));
/// assert!(render_partial(&p, Format::Json).contains(r#""obtained":["A","B"],"omittedObtained":1,"#));
/// ```
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
    render_capped(partial, &XML)
}

fn write_xml(view: &Shown<'_>) -> String {
    let mut out = String::with_capacity(400);
    out.push_str("<partial_result severity=\"");
    out.push_str(view.severity.as_str());
    out.push_str("\">");
    element(&mut out, "  ", "summary", &view.summary);
    if let Some(task) = &view.task {
        element(&mut out, "  ", "task", &task.text());
    }
    let obtained = (view.obtained.listed(), view.obtained.omitted());
    if !obtained.0.is_empty() || obtained.1 > 0 {
        out.push_str("\n  <obtained>");
        for line in obtained.0 {
            element(&mut out, "    ", "item", line);
        }
        let nouns = ("obtained item", "obtained items");
        more_line(&mut out, "    ", "more_items", obtained.1, obtained.0.is_empty(), nouns);
        out.push_str("\n  </obtained>");
    }
    out.push_str("\n  <failed>");
    for failed in view.failed.listed() {
        push_failure_xml(&mut out, failed);
    }
    let (listed, omitted) = (view.failed.listed(), view.failed.omitted());
    let nouns = ("failed item", "failed items");
    more_line(&mut out, "    ", "more_failures", omitted, listed.is_empty(), nouns);
    out.push_str("\n  </failed>");
    let tried = (view.tried.listed(), view.tried.omitted());
    if !tried.0.is_empty() || tried.1 > 0 {
        out.push_str("\n  <tried>");
        for line in tried.0 {
            element(&mut out, "    ", "attempt", line);
        }
        more_line(
            &mut out,
            "    ",
            "more_attempts",
            tried.1,
            tried.0.is_empty(),
            ("attempt", "attempts"),
        );
        out.push_str("\n  </tried>");
    }
    element(&mut out, "  ", "recovery", &view.recovery);
    if let Some(id) = &view.correlation_id {
        element(&mut out, "  ", "correlation_id", id);
    }
    out.push_str("\n</partial_result>");
    out
}

/// `<failure item=".." code=".." category=".." retryable=".." retry_after="30 seconds">message</failure>`,
/// self-closing without a message; the retry-after in the words of
/// `<tool_error>`'s `<retry_after>`.
fn push_failure_xml(out: &mut String, failed: &ShownFailure<'_>) {
    out.push_str("\n    <failure item=\"");
    escape_attribute(out, &failed.item);
    out.push_str("\" code=\"");
    escape_attribute(out, &failed.code);
    if let Some(category) = failed.category {
        out.push_str("\" category=\"");
        out.push_str(category.as_str());
    }
    out.push_str(if failed.retryable {
        "\" retryable=\"true\""
    } else {
        "\" retryable=\"false\""
    });
    if let Some(seconds) = failed.retry_after {
        out.push_str(" retry_after=\"");
        out.push_str(&seconds_text(seconds));
        out.push('"');
    }
    match &failed.message {
        Some(message) => {
            out.push('>');
            escape_content(out, &message.text());
            out.push_str("</failure>");
        }
        None => out.push_str("/>"),
    }
}

/// The JSON form: one object opening with `"kind":"partial_result"`, failed
/// items in the names of `<tool_error>`'s JSON form (`errorCategory`, `isRetryable`, `reason`, `retryAfter`).
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
    render_capped(partial, &JSON)
}

fn write_json(view: &Shown<'_>) -> String {
    let mut out = String::with_capacity(400);
    out.push_str("{\"kind\":\"partial_result\",\"severity\":\"");
    out.push_str(view.severity.as_str());
    out.push_str("\",\"summary\":");
    push_json_string(&mut out, &view.summary);
    if let Some(task) = &view.task {
        out.push_str(",\"task\":");
        push_json_string(&mut out, &task.text());
    }
    out.push_str(",\"obtained\":");
    push_json_array(&mut out, view.obtained.listed());
    push_count(&mut out, "omittedObtained", view.obtained.omitted());
    out.push_str(",\"failed\":");
    push_failures_json(&mut out, view.failed.listed());
    push_count(&mut out, "omittedFailed", view.failed.omitted());
    if !view.tried.listed().is_empty() {
        out.push_str(",\"tried\":");
        push_json_array(&mut out, view.tried.listed());
    }
    push_count(&mut out, "omittedTried", view.tried.omitted());
    out.push_str(",\"recovery\":");
    push_json_string(&mut out, &view.recovery);
    if let Some(id) = &view.correlation_id {
        out.push_str(",\"correlationId\":");
        push_json_string(&mut out, id);
    }
    out.push('}');
    out
}

/// The failed items as a JSON array, as the JSON and text forms both write them.
fn push_failures_json(out: &mut String, failures: &[ShownFailure<'_>]) {
    out.push('[');
    for (i, failed) in failures.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_failure_json(out, failed);
    }
    out.push(']');
}

/// One failed item as a JSON object, in the names of `<tool_error>`'s JSON form.
fn push_failure_json(out: &mut String, failed: &ShownFailure<'_>) {
    out.push_str("{\"item\":");
    push_json_string(out, &failed.item);
    out.push_str(",\"code\":");
    push_json_string(out, &failed.code);
    if let Some(category) = failed.category {
        out.push_str(",\"errorCategory\":\"");
        out.push_str(category.as_str());
        out.push('"');
    }
    out.push_str(if failed.retryable {
        ",\"isRetryable\":true"
    } else {
        ",\"isRetryable\":false"
    });
    if let Some(message) = &failed.message {
        out.push_str(",\"reason\":");
        push_json_string(out, &message.text());
    }
    if let Some(seconds) = failed.retry_after {
        out.push_str(&format!(",\"retryAfter\":{seconds}"));
    }
    out.push('}');
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
    render_capped(partial, &TEXT)
}

fn write_text(view: &Shown<'_>) -> String {
    let mut out = String::with_capacity(400);
    push_text_line(&mut out, "partial_result", &view.summary);
    push_text_line(&mut out, "severity", view.severity.as_str());
    if let Some(task) = &view.task {
        push_text_line(&mut out, "task", &task.text());
    }
    let mut list = String::new();
    if !view.obtained.listed().is_empty() {
        push_json_array(&mut list, view.obtained.listed());
        push_text_line(&mut out, "obtained", &list);
    }
    count_line(&mut out, "omitted_obtained", view.obtained.omitted());
    list.clear();
    push_failures_json(&mut list, view.failed.listed());
    push_text_line(&mut out, "failed", &list);
    count_line(&mut out, "omitted_failed", view.failed.omitted());
    if !view.tried.listed().is_empty() {
        list.clear();
        push_json_array(&mut list, view.tried.listed());
        push_text_line(&mut out, "tried", &list);
    }
    count_line(&mut out, "omitted_tried", view.tried.omitted());
    push_text_line(&mut out, "next_action", &view.recovery);
    if let Some(id) = &view.correlation_id {
        push_text_line(&mut out, "correlation_id", id);
    }
    out
}

/// `omitted_obtained: N` when anything was left out of a list.
fn count_line(out: &mut String, key: &str, count: usize) {
    if count > 0 {
        push_text_line(out, key, &count.to_string());
    }
}

/// `,"name":N` when N is not 0.
fn push_count(out: &mut String, name: &str, count: usize) {
    if count > 0 {
        out.push_str(&format!(",\"{name}\":{count}"));
    }
}
