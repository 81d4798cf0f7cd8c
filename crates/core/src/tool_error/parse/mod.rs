//! Reads an envelope back from text, in whichever of the three forms it is.
//!
//! The envelope may sit inside other text (a model's transcript, a log line);
//! the earliest envelope found is read. A `<tool_error>` tag that only
//! mentions one (in prose, in backticks, never closed) is text, and reading
//! goes on after it; from an envelope's start on, whatever is wrong is
//! malformed (`crate::xml::envelope_start` has the rule). A `CallToolResult`
//! JSON is unwrapped to its text blocks, joined with a newline. Readers
//! ignore sections they do not know, so envelopes from newer versions still
//! read. What they read is a spec the renderer takes: an empty code, or a
//! detail key an XML envelope lists twice, is malformed.

pub(crate) mod json;
mod text;
pub(crate) mod xml;

pub(crate) use text::{envelope_start, text_fields};

pub use crate::error::ParseError;
use crate::tool_error::model::ToolError;

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
    parse_markup(text, markup_from(text))
}

/// What a text opening with `{` holds, as far as tool errors go.
pub(crate) enum JsonText {
    /// Boxed: a `ToolError` is far larger than the other variants.
    ToolError(Box<ToolError>),
    /// A `CallToolResult`: at this level (one already unwrapped) no envelope.
    ToolResult,
    /// Some other JSON, or none at all: an envelope may still follow.
    Other,
}

/// Reads a text opening with `{` as a JSON tool error; a broken one is an error.
pub(crate) fn read_json_text(text: &str) -> Result<JsonText, ParseError> {
    match json::parse_json(text) {
        Ok(json::JsonEnvelope::Error(error)) => Ok(JsonText::ToolError(error)),
        Ok(json::JsonEnvelope::ToolResultText(_)) => Ok(JsonText::ToolResult),
        Err(ParseError::NoEnvelope) => Ok(JsonText::Other),
        Err(malformed) => Err(malformed),
    }
}

/// Where the earliest `<tool_error>` envelope starts (not a mention of the tag).
fn xml_start(text: &str, from: usize) -> Option<usize> {
    find_from(text, from, |t| crate::xml::envelope_start(t, "tool_error"))
}

/// `find` (where an envelope's markup starts) run on `text` from byte
/// `from` on, the position given in `text`.
pub(crate) fn find_from(text: &str, from: usize, find: impl Fn(&str) -> Option<usize>) -> Option<usize> {
    find(&text[from..]).map(|at| at + from)
}

/// Where markup may start to hold an envelope in `text`: just past the JSON
/// object it opens with (after whitespace), else at 0. A JSON object's
/// strings are data, never an envelope: the object is read as a JSON
/// envelope or result before any markup is looked for, and any other JSON (a
/// success's data, an HTML page in a string) holds none. Markup after it (a
/// log line's tail) is read. A text that opens with `{` but is no JSON
/// (`{name} is required`) is text like any other. Each reader's entry point
/// works it out once and passes it to the markup readers.
pub(crate) fn markup_from(text: &str) -> usize {
    let trimmed = text.trim_start();
    if !trimmed.starts_with('{') {
        return 0;
    }
    match crate::json::leading_raw(trimmed) {
        // The raw value is a slice of `trimmed`, itself a slice of `text`.
        Some(Ok(object)) => object.as_ptr() as usize - text.as_ptr() as usize + object.len(),
        _ => 0,
    }
}

/// Where the earliest `error_code:` envelope starts (not a mention).
fn text_start(text: &str, from: usize) -> Option<usize> {
    find_from(text, from, text::find_start)
}

/// Where the earliest `<tool_error>` or `error_code:` envelope starts, from
/// byte `from` (`markup_from`) on.
pub(crate) fn markup_start(text: &str, from: usize) -> Option<usize> {
    match (xml_start(text, from), text_start(text, from)) {
        (Some(x), Some(t)) => Some(x.min(t)),
        (x, t) => x.or(t),
    }
}

/// Reads the earliest envelope in the XML or text form (not JSON), from
/// byte `from` (`markup_from`) on.
pub(crate) fn parse_markup(text: &str, from: usize) -> Result<ToolError, ParseError> {
    match (xml_start(text, from), text_start(text, from)) {
        (Some(x), Some(t)) if t < x => text::parse_text(&text[t..]),
        (Some(x), _) => xml::parse_xml(&text[x..]).map_err(|e| shift(e, x)),
        (None, Some(t)) => text::parse_text(&text[t..]),
        (None, None) => Err(ParseError::NoEnvelope),
    }
}

/// The form of the earliest tool error in `text` (XML when there is none).
pub fn form_of(text: &str) -> crate::tool_error::render::Format {
    use crate::tool_error::render::Format;
    if text.trim_start().starts_with('{') {
        return Format::Json;
    }
    // Not opening with `{`, so markup may start anywhere.
    match (xml_start(text, 0), text_start(text, 0)) {
        (Some(x), Some(t)) if t < x => Format::Text,
        (None, Some(_)) => Format::Text,
        _ => Format::Xml,
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

/// A detail key an XML envelope lists twice: such an envelope is refused, as
/// a spec holding one is, rather than read into an error the renderer
/// refuses. (The JSON and text forms' details are JSON objects, read as a
/// JSON parser reads them: `json::last_of_each`.)
fn repeated_detail(error: &ToolError) -> Option<&str> {
    let kept = json::last_appearances(&error.details)?;
    let first = kept.iter().position(|kept| !kept)?;
    Some(&error.details[first].0)
}

/// Makes a byte position in an error message relative to the whole input.
pub(crate) fn shift(error: ParseError, offset: usize) -> ParseError {
    match error {
        ParseError::Malformed(why) if offset > 0 => {
            ParseError::Malformed(format!("{why} (the envelope starts at byte {offset})"))
        }
        other => other,
    }
}
