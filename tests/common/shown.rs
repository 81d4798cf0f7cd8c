//! What an envelope shows of an error, for the property tests and the fuzz
//! targets (fuzz/src/lib.rs includes this file): its texts, the characters
//! every renderer replaces, and whether an envelope shows the error whole,
//! the one case where it must read back as that error.

use mcp_envelope::{render, Format, Limits, ToolError};

/// The texts of an error an envelope shows, for the caps.
pub fn texts(e: &ToolError) -> Vec<&str> {
    let mut texts = vec![e.code.as_str(), e.message.as_str()];
    texts.extend(e.recovery());
    texts.extend(e.customer_message_text());
    texts.extend(e.correlation_id_text());
    texts.extend(e.available_actions.iter().map(String::as_str));
    texts.extend(e.details.iter().flat_map(|(k, v)| [k.as_str(), v.as_str()]));
    for d in e.listed_deltas().0 {
        texts.extend([d.field.as_str(), d.description.as_str()]);
        texts.extend(d.action.as_deref());
        texts.extend(d.before.as_deref());
        texts.extend(d.after.as_deref());
    }
    texts
}

/// A character every renderer replaces with U+FFFD (XML 1.0 forbids it).
pub fn is_forbidden(c: char) -> bool {
    matches!(c, '\0'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}')
}

/// `text` as the XML form writes it: each forbidden character U+FFFD.
#[allow(dead_code)] // the fuzz targets use it; the property tests do not
pub fn replaced(text: &str) -> String {
    text.chars()
        .map(|c| if is_forbidden(c) { mcp_envelope::REPLACEMENT } else { c })
        .collect()
}

/// Whether the envelope of `e` in `format` shows `e` whole: no text cut, no
/// list capped, no character replaced. Only then must it read back as `e`.
pub fn shown_whole(e: &ToolError, format: Format) -> bool {
    let limits = e.limits_or_default();
    // Rendered without the total cap: when that fits the total, no step of
    // the total cap ran (docs/size-caps.md).
    let mut uncapped = e.clone();
    uncapped.limits = Some(Limits {
        envelope_chars: usize::MAX,
        ..limits
    });
    texts(e)
        .iter()
        .all(|t| t.chars().count() <= limits.message_chars && !t.chars().any(is_forbidden))
        && e.available_actions.len() <= limits.actions
        && e.details.len() <= limits.details
        && render(&uncapped, format).chars().count() <= limits.envelope_chars
}
