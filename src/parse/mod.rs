//! Reads an envelope back from text, in whichever of the three forms it is.
//!
//! The envelope may sit inside other text (a model's transcript, a log line);
//! the earliest envelope found is read. A `CallToolResult` JSON is unwrapped
//! to its text blocks, joined with a newline. Readers ignore sections they do not know, so
//! envelopes from newer versions still read.

pub(crate) mod json;
mod text;
pub(crate) mod xml;

pub use crate::error::ParseError;
use crate::model::ToolError;

/// Reads the first envelope in `text`.
///
/// ```
/// use mcp_envelope::{parse, render_xml, render_text, ParseError, ToolError};
/// let e = ToolError::new("NOT_FOUND", "No invoice with that ID").detail("requestedId", "inv_1");
/// assert_eq!(parse(&render_xml(&e)), Ok(e.clone()));
/// assert_eq!(parse(&render_text(&e)), Ok(e));
/// assert_eq!(parse("All good."), Err(ParseError::NoEnvelope));
/// ```
pub fn parse(text: &str) -> Result<ToolError, ParseError> {
    parse_envelope(text, true)
}

/// `parse` without unwrapping a `CallToolResult` (the caller did).
pub(crate) fn parse_unwrapped(text: &str) -> Result<ToolError, ParseError> {
    parse_envelope(text, false)
}

fn parse_envelope(text: &str, unwrap_result: bool) -> Result<ToolError, ParseError> {
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') {
        match json::parse_json(trimmed) {
            Err(ParseError::NoEnvelope) => {}
            Ok(json::JsonEnvelope::Error(error)) => return Ok(*error),
            // One level only: a result inside a result is not an envelope.
            Ok(json::JsonEnvelope::ToolResultText(inner)) if unwrap_result => return parse_envelope(&inner, false),
            Ok(json::JsonEnvelope::ToolResultText(_)) => return Err(ParseError::NoEnvelope),
            Err(malformed) => return Err(malformed),
        }
    }
    let xml_at = text.find("<tool_error");
    let text_at = text::find_start(text);
    match (xml_at, text_at) {
        (Some(x), Some(t)) if t < x => text::parse_text(&text[t..]),
        (Some(x), _) => xml::parse_xml(&text[x..]).map_err(|e| shift(e, x)),
        (None, Some(t)) => text::parse_text(&text[t..]),
        (None, None) => Err(ParseError::NoEnvelope),
    }
}

/// The text block of a `CallToolResult` JSON, if `text` is one.
pub(crate) fn tool_result_text(text: &str) -> Option<String> {
    let text = text.trim_start();
    if !text.starts_with('{') {
        return None;
    }
    match json::parse_json(text) {
        Ok(json::JsonEnvelope::ToolResultText(inner)) => Some(inner),
        _ => None,
    }
}

/// Makes a byte position in an error message relative to the whole input.
fn shift(error: ParseError, offset: usize) -> ParseError {
    match error {
        ParseError::Malformed(why) if offset > 0 => {
            ParseError::Malformed(format!("{why} (the envelope starts at byte {offset})"))
        }
        other => other,
    }
}
