//! Reading JSON objects without losing anything: keys stay in order, and a
//! repeated key is kept so the caller can refuse it instead of silently
//! keeping the last value.

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;
use std::collections::HashSet;
use std::fmt;
use std::marker::PhantomData;

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
    let mut seen = HashSet::with_capacity(entries.len());
    entries.iter().map(|(k, _)| k.as_str()).find(|k| !seen.insert(*k))
}

/// Parses `text` as one JSON object whose values stay raw, for per-key reading.
pub(crate) fn parse_object(text: &str) -> Result<Vec<(String, Box<RawValue>)>, serde_json::Error> {
    serde_json::from_str::<Entries<Box<RawValue>>>(text).map(|e| e.0)
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
