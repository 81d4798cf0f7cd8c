//! JSON shared by every reader and writer: the reader (`reader`, `whole`,
//! `value`: serde_json's rules and messages, without serde), objects read
//! without losing anything (keys stay in order; a repeated key is kept so the
//! caller can refuse it), the field readers both spec parsers use, lone
//! surrogate escapes repaired, and the compact writers.

mod reader;
mod value;
mod whole;

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use crate::error::SpecError;
pub(crate) use reader::{Error, Reader, A_JSON_OBJECT, A_MAP, A_SEQUENCE};
pub(crate) use value::Value;

/// The members of a JSON object, in order, repeated keys included, each value
/// as its raw JSON text.
pub(crate) type Members<'a> = Vec<(Cow<'a, str>, Cow<'a, str>)>;

/// The first key that appears more than once.
pub(crate) fn repeated_key<K: AsRef<str>, V>(entries: &[(K, V)]) -> Option<&str> {
    // Specs and issues have a handful of keys: comparing pairs beats hashing.
    if entries.len() <= 16 {
        return entries
            .iter()
            .enumerate()
            .find(|(i, (k, _))| entries[..*i].iter().any(|(earlier, _)| earlier.as_ref() == k.as_ref()))
            .map(|(_, (k, _))| k.as_ref());
    }
    let mut seen = HashSet::with_capacity(entries.len());
    entries.iter().map(|(k, _)| k.as_ref()).find(|k| !seen.insert(*k))
}

/// Reads `text` as one JSON object whose values stay raw, for per-key
/// reading. Callers repair lone surrogates first (see [`repair_lone_surrogates`]).
pub(crate) fn parse_object(text: &str) -> Result<Vec<(Cow<'_, str>, &str)>, Error> {
    Reader::read_all(text, |r| r.map(A_JSON_OBJECT, Reader::raw))
}

/// Reads `text` as one JSON value, whole.
pub(crate) fn parse_value(text: &str) -> Result<Value<'_>, Error> {
    Reader::read_all(text, Reader::value)
}

/// Reads `text` as one JSON value kept raw (any depth), whitespace around it allowed.
pub(crate) fn parse_raw(text: &str) -> Result<&str, Error> {
    Reader::read_all(text, Reader::raw)
}

/// Reads `text` as one JSON string.
pub(crate) fn parse_string(text: &str) -> Result<Cow<'_, str>, Error> {
    Reader::read_all(text, Reader::string)
}

/// The JSON text with each `\uD800`..`\uDFFF` escape that is not half of a
/// surrogate pair replaced by `\uFFFD`. JavaScript's `JSON.stringify` writes a
/// lone surrogate (from text cut in the middle of an emoji) that way, and a
/// Rust string cannot hold one: the error path must render it, not refuse it.
/// Both escapes are six bytes, so byte positions in later messages still hold.
///
/// ```
/// use mcp_envelope::repair_lone_surrogates;
/// assert_eq!(repair_lone_surrogates(r#""a\ud800b""#), r#""a\uFFFDb""#);
/// assert_eq!(repair_lone_surrogates(r#""\ud83d\ude00""#), r#""\ud83d\ude00""#);
/// ```
pub fn repair_lone_surrogates(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let unit_at = |i: usize| -> Option<u16> {
        if bytes.get(i) != Some(&b'\\') || bytes.get(i + 1) != Some(&b'u') {
            return None;
        }
        std::str::from_utf8(bytes.get(i + 2..i + 6)?)
            .ok()
            .and_then(|h| u16::from_str_radix(h, 16).ok())
    };
    let mut out: Option<String> = None;
    let (mut i, mut copied) = (0, 0);
    while i < bytes.len() {
        // A backslash is ASCII: searching from the next character boundary
        // (memchr, not byte by byte) finds the same one.
        while !text.is_char_boundary(i) {
            i += 1;
        }
        match text[i..].find('\\') {
            Some(at) => i += at,
            None => break,
        }
        let lone = match unit_at(i) {
            Some(0xD800..=0xDBFF) if matches!(unit_at(i + 6), Some(0xDC00..=0xDFFF)) => {
                i += 12;
                continue;
            }
            Some(0xD800..=0xDFFF) => true,
            Some(_) => false,
            None => {
                i += 2; // `\"`, `\\` and the like: the escaped byte is not a backslash to look at
                continue;
            }
        };
        if lone {
            let out = out.get_or_insert_with(|| String::with_capacity(text.len()));
            out.push_str(&text[copied..i]);
            out.push_str("\\uFFFD");
            copied = i + 6;
        }
        i += 6;
    }
    match out {
        None => Cow::Borrowed(text),
        Some(mut out) => {
            out.push_str(&text[copied..]);
            Cow::Owned(out)
        }
    }
}

/// "a string", "an array": how error messages name what they got.
pub(crate) fn kind_of(value: &Value) -> &'static str {
    value.kind()
}

/// Names what a JSON text holds from its first character, for "must be an
/// object, not ..." messages when the reader reports a type mismatch.
pub(crate) fn kind_of_text(text: &str, error: &Error) -> Option<&'static str> {
    if !error.is_data() {
        return None;
    }
    match text.trim_start().as_bytes().first()? {
        b'[' => Some("an array"),
        b'"' => Some("a string"),
        b't' | b'f' => Some("a boolean"),
        b'n' => Some("null"),
        b'-' | b'0'..=b'9' => Some("a number"),
        _ => None,
    }
}

/// Appends `text` as a JSON string literal, escaped as serde_json escapes:
/// `"` and `\` with a backslash, the control characters that have a short
/// escape with it, other control characters as `\u00XX` (lower-case hex),
/// everything else (`/` and non-ASCII included) as itself.
pub(crate) fn push_json_string(out: &mut String, text: &str) {
    out.reserve(text.len() + 2);
    out.push('"');
    let bytes = text.as_bytes();
    let (mut i, mut copied) = (0, 0);
    loop {
        i = next_special(bytes, i);
        let Some(&b) = bytes.get(i) else { break };
        out.push_str(&text[copied..i]);
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\r' => out.push_str("\\r"),
            b'\t' => out.push_str("\\t"),
            0x08 => out.push_str("\\b"),
            0x0c => out.push_str("\\f"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.push_str("\\u00");
                out.push(char::from(HEX[usize::from(b >> 4)]));
                out.push(char::from(HEX[usize::from(b & 0xf)]));
            }
        }
        i += 1;
        copied = i;
    }
    out.push_str(&text[copied..]);
    out.push('"');
}

/// The index of the first `"`, `\` or control character at or after `from`
/// (`bytes.len()` if none): where a JSON string needs an escape or ends.
pub(crate) fn next_special(bytes: &[u8], from: usize) -> usize {
    // Eight bytes at a time (as serde_json does): strings are most of the
    // text, and this loop is most of the time spent reading and writing it.
    // A byte's high bit is set in `found` where it is one of the three; the
    // lowest such bit is always exact (a borrow only runs upwards).
    const ONES: u64 = u64::MAX / 255;
    let mut i = from;
    while let Some(chunk) = bytes.get(i..i + 8) {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let chars = u64::from_le_bytes(word);
        let control = chars.wrapping_sub(ONES * 0x20) & !chars;
        let quote = chars ^ (ONES * u64::from(b'"'));
        let quote = quote.wrapping_sub(ONES) & !quote;
        let backslash = chars ^ (ONES * u64::from(b'\\'));
        let backslash = backslash.wrapping_sub(ONES) & !backslash;
        let found = (control | quote | backslash) & (ONES << 7);
        if found != 0 {
            return i + found.trailing_zeros() as usize / 8;
        }
        i += 8;
    }
    while let Some(&b) = bytes.get(i) {
        if b == b'"' || b == b'\\' || b < 0x20 {
            break;
        }
        i += 1;
    }
    i
}

pub(crate) fn push_json_array<S: AsRef<str>>(out: &mut String, items: &[S]) {
    out.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_json_string(out, item.as_ref());
    }
    out.push(']');
}

pub(crate) fn push_json_object<K: AsRef<str>, V: AsRef<str>>(out: &mut String, entries: &[(K, V)]) {
    out.push('{');
    for (i, (key, value)) in entries.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_json_string(out, key.as_ref());
        out.push(':');
        push_json_string(out, value.as_ref());
    }
    out.push('}');
}

// Field readers shared by the error spec, validation spec and delta parsers:
// `what` names the value in the message (`"action"`, `issues[3].path`). It is
// a Display, not a String: a name is built only when a message needs it, not
// once per member read.

/// `issues[3]` + `path` displayed as `issues[3].path`.
pub(crate) struct Member<'a>(pub &'a dyn fmt::Display, pub &'a str);

impl fmt::Display for Member<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0, self.1)
    }
}

/// `issues` + 3 displayed as `issues[3]`.
pub(crate) struct Item<'a>(pub &'a dyn fmt::Display, pub usize);

impl fmt::Display for Item<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[{}]", self.0, self.1)
    }
}

/// A key displayed quoted, as messages name it: `"message"`.
pub(crate) struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

pub(crate) fn fail<T>(message: impl Into<String>) -> Result<T, SpecError> {
    Err(SpecError(message.into()))
}

/// Reads `text` (lone surrogates repaired first) as an object whose values
/// stay raw JSON text, refusing a repeated key.
pub(crate) fn object<'a>(text: &'a str, what: &dyn fmt::Display) -> Result<Members<'a>, SpecError> {
    let members = repaired_object(text, |text, e| match kind_of_text(text, &e) {
        Some(kind) => SpecError(format!("{what} must be a JSON object, not {kind}")),
        None => SpecError(format!("invalid JSON in {what}: {e}")),
    })?;
    if let Some(key) = repeated_key(&members) {
        return fail(format!("{what} has the key {key:?} twice"));
    }
    Ok(members)
}

/// [`parse_object`] after [`repair_lone_surrogates`]; `refused` words a
/// failure, given the text read.
pub(crate) fn repaired_object<E>(text: &str, refused: impl FnOnce(&str, Error) -> E) -> Result<Members<'_>, E> {
    match repair_lone_surrogates(text) {
        Cow::Borrowed(text) => parse_object(text)
            .map(|members| members.into_iter().map(|(k, v)| (k, Cow::Borrowed(v))).collect())
            .map_err(|e| refused(text, e)),
        // Rare (text cut inside an emoji): the members are copied out.
        Cow::Owned(repaired) => parse_object(&repaired)
            .map(|members| {
                members
                    .into_iter()
                    .map(|(k, v)| (Cow::Owned(k.into_owned()), Cow::Owned(v.to_owned())))
                    .collect()
            })
            .map_err(|e| refused(&repaired, e)),
    }
}

pub(crate) fn value<'a>(raw: &'a str, what: &dyn fmt::Display) -> Result<Value<'a>, SpecError> {
    parse_value(raw).map_err(|e| SpecError(format!("invalid JSON in {what}: {e}")))
}

/// The items of an array, each as its raw JSON text.
pub(crate) fn array<'a>(raw: &'a str, what: &dyn fmt::Display) -> Result<Vec<&'a str>, SpecError> {
    items(raw, what, "an array")
}

fn items<'a>(raw: &'a str, what: &dyn fmt::Display, noun: &str) -> Result<Vec<&'a str>, SpecError> {
    Reader::read_all(raw, |r| r.seq(A_SEQUENCE, Reader::raw)).map_err(|e| match kind_of_text(raw, &e) {
        Some(kind) => SpecError(format!("{what} must be {noun}, not {kind}")),
        None if raw.trim_start().starts_with('{') => SpecError(format!("{what} must be {noun}, not an object")),
        None => SpecError(format!("invalid JSON in {what}: {e}")),
    })
}

pub(crate) fn string(raw: &str, what: &dyn fmt::Display) -> Result<String, SpecError> {
    // The common case straight to a String, without building a Value first.
    if raw.starts_with('"') {
        if let Ok(s) = parse_string(raw) {
            return Ok(s.into_owned());
        }
    }
    match value(raw, what)? {
        Value::String(s) => Ok(s.into_owned()),
        other => fail(format!("{what} must be a string, not {}", kind_of(&other))),
    }
}

pub(crate) fn optional_string(raw: &str, what: &dyn fmt::Display) -> Result<Option<String>, SpecError> {
    if is_null(raw) {
        return Ok(None);
    }
    string(raw, what).map(Some)
}

pub(crate) fn boolean(raw: &str, what: &dyn fmt::Display) -> Result<bool, SpecError> {
    match value(raw, what)? {
        Value::Bool(b) => Ok(b),
        other => fail(format!("{what} must be true or false, not {}", kind_of(&other))),
    }
}

pub(crate) fn count(raw: &str, what: &dyn fmt::Display) -> Result<usize, SpecError> {
    match value(raw, what)?.as_u64() {
        Some(n) => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
        None => fail(format!("{what} must be a whole number, 0 or more")),
    }
}

/// A number or a string, as written (bounds, divisors).
pub(crate) fn number_text(raw: &str, what: &dyn fmt::Display) -> Result<String, SpecError> {
    match value(raw, what)? {
        Value::Number(n) => Ok(n.into_owned()),
        Value::String(s) => Ok(s.into_owned()),
        other => fail(format!("{what} must be a number or a string, not {}", kind_of(&other))),
    }
}

/// Whether the member is JSON `null` (an optional key "not set").
pub(crate) fn is_null(raw: &str) -> bool {
    raw.trim() == "null"
}

/// An array of strings; `{what}[i]` names a wrong item.
pub(crate) fn string_list(raw: &str, what: &dyn fmt::Display) -> Result<Vec<String>, SpecError> {
    items(raw, what, "an array of strings")?
        .iter()
        .enumerate()
        .map(|(i, item)| string(item, &Item(what, i)))
        .collect()
}

/// One of a fixed set of names (a severity, a category, an issue code).
pub(crate) fn one_of<T: Copy>(
    raw: &str,
    what: &dyn fmt::Display,
    all: &[T],
    name: fn(T) -> &'static str,
) -> Result<T, SpecError> {
    let names = || all.iter().map(|v| name(*v)).collect::<Vec<_>>().join(", ");
    match value(raw, what)? {
        Value::String(s) => match all.iter().find(|v| name(**v) == s) {
            Some(v) => Ok(*v),
            None => fail(format!("{what} is {s:?}; expected one of: {}", names())),
        },
        other => fail(format!("{what} must be one of: {}; not {}", names(), kind_of(&other))),
    }
}
