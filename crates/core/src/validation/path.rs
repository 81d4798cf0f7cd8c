//! How the envelope names a field: `items[0].name`, with keys that would be
//! ambiguous (containing `.`, `[`, `]`, quotes, spaces or nothing at all)
//! written as `['a.b']` (a quote or backslash in the key gets a backslash),
//! and the arguments object itself as `(arguments)`.

use crate::cut::{capped, Marker};
use crate::error::SpecError;
use crate::json::{array, parse_string, raw_kind};

/// One step of a path into the arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSegment {
    /// An object key, by name.
    Key(String),
    /// An array index, counted from 0.
    Index(u64),
}

/// The name of the whole arguments object, for issues at the root. It cannot
/// collide with a field: a key `(arguments)` is written `['(arguments)']`.
pub const ROOT_NAME: &str = "(arguments)";

/// At most `FIELD_CHARS` characters, the cut marked.
///
/// ```
/// use mcp_envelope::validation::{field_name, PathSegment::{Index, Key}};
/// assert_eq!(field_name(&[Key("items".into()), Index(0), Key("sku".into())]), "items[0].sku");
/// assert_eq!(field_name(&[Key("meta".into()), Key("a.b".into())]), "meta['a.b']");
/// assert_eq!(field_name(&[]), "(arguments)");
/// ```
pub fn field_name(path: &[PathSegment]) -> String {
    let name = uncapped_field_name(path);
    match capped(&name, super::FIELD_CHARS, Marker::ENGLISH) {
        std::borrow::Cow::Borrowed(_) => name,
        std::borrow::Cow::Owned(cut) => cut,
    }
}

fn uncapped_field_name(path: &[PathSegment]) -> String {
    if path.is_empty() {
        return ROOT_NAME.to_owned();
    }
    let mut out = String::new();
    for segment in path {
        match segment {
            PathSegment::Index(i) => {
                out.push('[');
                out.push_str(&i.to_string());
                out.push(']');
            }
            PathSegment::Key(key) => push_key(&mut out, key),
        }
    }
    out
}

/// Appends one key to a field name: `.key` (no dot first), or `['a.b']`
/// for a key that would be ambiguous.
pub fn push_key(out: &mut String, key: &str) {
    if is_plain_key(key) {
        if !out.is_empty() {
            out.push('.');
        }
        out.push_str(key);
        return;
    }
    // Single quotes keep the attribute free of &quot; noise.
    out.push_str("['");
    for c in key.chars() {
        if matches!(c, '\'' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out.push_str("']");
}

/// A key that reads unambiguously without quotes.
fn is_plain_key(key: &str) -> bool {
    !key.is_empty()
        && !key.starts_with('(')
        && key
            .chars()
            .all(|c| !matches!(c, '.' | '[' | ']' | '"' | '\'' | '\\') && !c.is_whitespace() && !c.is_control())
}

/// Reads a path: an array of keys (strings) and indices (whole numbers).
pub(crate) fn read_path(raw: &str, what: &dyn std::fmt::Display) -> Result<Vec<PathSegment>, SpecError> {
    array(raw, what)?
        .iter()
        .enumerate()
        .map(|(i, raw)| segment(raw).map_err(|why| SpecError::invalid(format!("{what}[{i}] {why}"))))
        .collect()
}

/// One step of a path from its raw JSON (already read, so well-formed): a
/// string is a key, a whole number an index; anything else is refused with
/// what it is (the words every path reader uses).
pub(crate) fn segment(raw: &str) -> Result<PathSegment, String> {
    // By the first byte: a refused parse builds an error, and most paths hold indices.
    if raw.starts_with('"') {
        if let Ok(key) = parse_string(raw) {
            return Ok(PathSegment::Key(key.into_owned()));
        }
    }
    if let Ok(index) = raw.parse::<u64>() {
        return Ok(PathSegment::Index(index));
    }
    let got = match raw.as_bytes().first() {
        Some(b'-' | b'0'..=b'9') => format!("the number {raw}"),
        _ => raw_kind(raw).to_owned(),
    };
    Err(format!("must be a key (string) or an index (whole number), not {got}"))
}
