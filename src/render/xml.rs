//! The `<tool_error>` XML envelope, and the escaping every XML envelope shares.
//!
//! Layout follows the envelope specification: one section per line, two
//! spaces per level, sections only when set, no trailing newline. The
//! extension sections (`category`, `retryable`, `customer_message`,
//! `correlation_id`, `contract_awareness`) come after the specification's
//! own, as elements rather than root attributes, so readers that match the
//! root tag or look up known sections keep working.

use crate::model::ToolError;
use crate::validation::{contract_awareness, shown_deltas, ValidationOptions};
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
    contract_awareness(&mut out, &deltas, ValidationOptions::DEFAULT_MAX_DELTAS);
    out.push_str("\n</tool_error>");
    out
}

/// Appends `\n{indent}<{name}>{escaped text}</{name}>`.
pub(crate) fn element(out: &mut String, indent: &str, name: &str, text: &str) {
    out.push('\n');
    out.push_str(indent);
    out.push('<');
    out.push_str(name);
    out.push('>');
    escape_content(out, text);
    out.push_str("</");
    out.push_str(name);
    out.push('>');
}

/// Whether XML 1.0 allows the character at all (its `Char` production).
/// Rust strings hold no surrogates, so only C0 controls and U+FFFE/U+FFFF fail.
fn is_xml_char(c: char) -> bool {
    !matches!(c, '\0'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}')
}

/// What stands in for a character XML 1.0 forbids: visible, so nothing vanishes silently.
pub const REPLACEMENT: char = '\u{fffd}';

/// Escapes element content. Only `&` and `<` are escaped, as the specification
/// wants (`>` and quotes stay readable), plus the two cases that would
/// otherwise change the text: `>` after `]]` (the sequence `]]>` is not
/// allowed in content) and CR (which parsers turn into LF).
pub(crate) fn escape_content(out: &mut String, text: &str) {
    if !text
        .chars()
        .any(|c| matches!(c, '&' | '<' | '>' | '\r') || !is_xml_char(c))
    {
        out.push_str(text);
        return;
    }
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' if out.ends_with("]]") => out.push_str("&gt;"),
            '\r' => out.push_str("&#13;"),
            c if !is_xml_char(c) => out.push(REPLACEMENT),
            c => out.push(c),
        }
    }
}

/// Escapes a double-quoted attribute value: also `"`, and the whitespace
/// characters that attribute-value normalization would turn into spaces.
pub(crate) fn escape_attribute(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '"' => out.push_str("&quot;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if !is_xml_char(c) => out.push(REPLACEMENT),
            c => out.push(c),
        }
    }
}

/// Replaces the characters XML 1.0 forbids, as every text renderer does.
pub(crate) fn replace_forbidden(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().all(is_xml_char) {
        std::borrow::Cow::Borrowed(text)
    } else {
        text.chars()
            .map(|c| if is_xml_char(c) { c } else { REPLACEMENT })
            .collect::<String>()
            .into()
    }
}
