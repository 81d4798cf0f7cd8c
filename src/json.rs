//! JSON shared by every reader and writer: objects read without losing
//! anything (keys stay in order; a repeated key is kept so the caller can
//! refuse it), the field readers both spec parsers use, lone surrogate
//! escapes repaired, and the compact writers.

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;
use std::marker::PhantomData;

use crate::error::SpecError;

/// The members of a JSON object, in order, repeated keys included.
pub(crate) struct Entries<V>(pub Vec<(String, V)>);

impl<'de, V: Deserialize<'de>> Deserialize<'de> for Entries<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(EntriesVisitor(PhantomData))
    }
}

struct EntriesVisitor<V>(PhantomData<V>);

impl<'de, V: Deserialize<'de>> Visitor<'de> for EntriesVisitor<V> {
    type Value = Entries<V>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut entries: Vec<(String, V)> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = map.next_value::<V>()?;
            entries.push((key, value));
        }
        Ok(Entries(entries))
    }
}

/// The first key that appears more than once.
pub(crate) fn repeated_key<V>(entries: &[(String, V)]) -> Option<&str> {
    // Specs and issues have a handful of keys: comparing pairs beats hashing.
    if entries.len() <= 16 {
        return entries
            .iter()
            .enumerate()
            .find(|(i, (k, _))| entries[..*i].iter().any(|(earlier, _)| earlier == k))
            .map(|(_, (k, _))| k.as_str());
    }
    let mut seen = HashSet::with_capacity(entries.len());
    entries.iter().map(|(k, _)| k.as_str()).find(|k| !seen.insert(*k))
}

/// Parses `text` as one JSON object whose values stay raw, for per-key reading.
/// Lone surrogate escapes are repaired first (see [`repair_lone_surrogates`]).
pub(crate) fn parse_object(text: &str) -> Result<Vec<(String, Box<RawValue>)>, serde_json::Error> {
    serde_json::from_str::<Entries<Box<RawValue>>>(&repair_lone_surrogates(text)).map(|e| e.0)
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
        if bytes[i] != b'\\' {
            i += 1;
            continue;
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
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Names what a JSON text holds from its first character, for "must be an
/// object, not ..." messages when serde reports a type mismatch.
pub(crate) fn kind_of_text(text: &str, error: &serde_json::Error) -> Option<&'static str> {
    if error.classify() != serde_json::error::Category::Data {
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

/// Appends `text` as a JSON string literal.
pub(crate) fn push_json_string(out: &mut String, text: &str) {
    // serde_json's string escaping cannot fail when writing into memory.
    out.push_str(&serde_json::to_string(text).unwrap_or_default());
}

pub(crate) fn push_json_array(out: &mut String, items: &[String]) {
    out.push('[');
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_json_string(out, item);
    }
    out.push(']');
}

pub(crate) fn push_json_object(out: &mut String, entries: &[(String, String)]) {
    out.push('{');
    for (i, (key, value)) in entries.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        push_json_string(out, key);
        out.push(':');
        push_json_string(out, value);
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

pub(crate) type Members = Vec<(String, Box<RawValue>)>;

pub(crate) fn fail<T>(message: impl Into<String>) -> Result<T, SpecError> {
    Err(SpecError(message.into()))
}

pub(crate) fn object(text: &str, what: &dyn fmt::Display) -> Result<Members, SpecError> {
    let members = parse_object(text).map_err(|e| match kind_of_text(text, &e) {
        Some(kind) => SpecError(format!("{what} must be a JSON object, not {kind}")),
        None => SpecError(format!("invalid JSON in {what}: {e}")),
    })?;
    if let Some(key) = repeated_key(&members) {
        return fail(format!("{what} has the key {key:?} twice"));
    }
    Ok(members)
}

pub(crate) fn value(raw: &RawValue, what: &dyn fmt::Display) -> Result<Value, SpecError> {
    serde_json::from_str(raw.get()).map_err(|e| SpecError(format!("invalid JSON in {what}: {e}")))
}

pub(crate) fn array(raw: &RawValue, what: &dyn fmt::Display) -> Result<Vec<Box<RawValue>>, SpecError> {
    serde_json::from_str::<Vec<Box<RawValue>>>(raw.get()).map_err(|e| match kind_of_text(raw.get(), &e) {
        Some(kind) => SpecError(format!("{what} must be an array, not {kind}")),
        None if raw.get().trim_start().starts_with('{') => SpecError(format!("{what} must be an array, not an object")),
        None => SpecError(format!("invalid JSON in {what}: {e}")),
    })
}

pub(crate) fn string(raw: &RawValue, what: &dyn fmt::Display) -> Result<String, SpecError> {
    // The common case straight to a String, without building a Value first.
    if raw.get().starts_with('"') {
        if let Ok(s) = serde_json::from_str::<String>(raw.get()) {
            return Ok(s);
        }
    }
    match value(raw, what)? {
        Value::String(s) => Ok(s),
        other => fail(format!("{what} must be a string, not {}", kind_of(&other))),
    }
}

pub(crate) fn optional_string(raw: &RawValue, what: &dyn fmt::Display) -> Result<Option<String>, SpecError> {
    if raw.get().starts_with('"') {
        return string(raw, what).map(Some);
    }
    match value(raw, what)? {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s)),
        other => fail(format!("{what} must be a string, not {}", kind_of(&other))),
    }
}

pub(crate) fn boolean(raw: &RawValue, what: &dyn fmt::Display) -> Result<bool, SpecError> {
    match value(raw, what)? {
        Value::Bool(b) => Ok(b),
        other => fail(format!("{what} must be true or false, not {}", kind_of(&other))),
    }
}

pub(crate) fn count(raw: &RawValue, what: &dyn fmt::Display) -> Result<usize, SpecError> {
    match value(raw, what)?.as_u64() {
        Some(n) => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
        None => fail(format!("{what} must be a whole number, 0 or more")),
    }
}

/// A number or a string, as written (bounds, divisors).
pub(crate) fn number_text(raw: &RawValue, what: &dyn fmt::Display) -> Result<String, SpecError> {
    match value(raw, what)? {
        Value::Number(n) => Ok(n.to_string()),
        Value::String(s) => Ok(s),
        other => fail(format!("{what} must be a number or a string, not {}", kind_of(&other))),
    }
}

/// Whether the member is JSON `null` (an optional key "not set").
pub(crate) fn is_null(raw: &RawValue) -> bool {
    raw.get().trim() == "null"
}

/// An array of strings; `{what}[i]` names a wrong item.
pub(crate) fn string_list(raw: &RawValue, what: &dyn fmt::Display) -> Result<Vec<String>, SpecError> {
    let items =
        serde_json::from_str::<Vec<Box<RawValue>>>(raw.get()).map_err(|e| match kind_of_text(raw.get(), &e) {
            Some(kind) => SpecError(format!("{what} must be an array of strings, not {kind}")),
            None if raw.get().trim_start().starts_with('{') => {
                SpecError(format!("{what} must be an array of strings, not an object"))
            }
            None => SpecError(format!("invalid JSON in {what}: {e}")),
        })?;
    items
        .iter()
        .enumerate()
        .map(|(i, item)| string(item, &Item(what, i)))
        .collect()
}

/// One of a fixed set of names (a severity, a category, an issue code).
pub(crate) fn one_of<T: Copy>(
    raw: &RawValue,
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
