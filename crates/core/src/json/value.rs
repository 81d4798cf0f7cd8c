//! A whole JSON value that keeps what was written: each number as its text
//! (`1.10`, `1e400` and a 30-digit id stay as they are) and each object's
//! members in their order, a repeated key keeping its first place and its
//! last value.
//!
//! Ours: serde_json's `Value` does this only under its `arbitrary_precision`
//! and `preserve_order` features, and Cargo would turn those on for every
//! crate in a user's build, changing what their own serde code does. This
//! one is built from raw text serde_json has already read (`RawValue`), with
//! no recursion, so serde_json still owns the syntax and its messages.

use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::compact::{Kind, Tokens};
use super::{parse_string, Error};

/// A JSON value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Value>),
    Object(Map),
}

/// A JSON number, exactly as written.
#[derive(Debug, Clone, PartialEq)]
pub struct Number(String);

impl Number {
    /// A number from text the caller knows is a JSON number.
    pub fn from_json_text(text: String) -> Number {
        Number(text)
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub(crate) fn as_u64(&self) -> Option<u64> {
        self.0.parse().ok()
    }

    pub(crate) fn as_i64(&self) -> Option<i64> {
        self.0.parse().ok()
    }

    /// The nearest `f64`; `None` past its range (`1e400`).
    pub fn as_f64(&self) -> Option<f64> {
        super::approximate_f64(&self.0)
    }

    /// How this number's exact value compares with `other`'s.
    pub fn compare(&self, other: &Number) -> Option<std::cmp::Ordering> {
        super::compare_numbers(&self.0, &other.0)
    }
}

impl fmt::Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An object's members in order, each key once.
#[derive(Debug, Clone, Default)]
pub struct Map(Vec<(String, Value)>);

/// Equal when they hold the same members, in any order (as JSON objects are).
impl PartialEq for Map {
    fn eq(&self, other: &Map) -> bool {
        self.len() == other.len() && self.iter().all(|(k, v)| other.get(k) == Some(v))
    }
}

impl Map {
    pub fn new() -> Map {
        Map(Vec::new())
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// Sets `key`: in its place when present, else last.
    pub fn insert(&mut self, key: String, value: Value) -> Option<Value> {
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some((_, old)) => Some(std::mem::replace(old, value)),
            None => {
                self.0.push((key, value));
                None
            }
        }
    }

    /// Takes `key` out; the last member moves into its place.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        let at = self.0.iter().position(|(k, _)| k == key)?;
        Some(self.0.swap_remove(at).1)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl Iterator<Item = &Value> {
        self.0.iter().map(|(_, v)| v)
    }
}

impl IntoIterator for Map {
    type Item = (String, Value);
    type IntoIter = std::vec::IntoIter<(String, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<'a> IntoIterator for &'a Map {
    type Item = (&'a String, &'a Value);
    type IntoIter =
        std::iter::Map<std::slice::Iter<'a, (String, Value)>, fn(&'a (String, Value)) -> (&'a String, &'a Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

impl FromIterator<(String, Value)> for Map {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(members: I) -> Map {
        Map::from_members(members.into_iter().collect())
    }
}

impl Map {
    /// The members in order, a repeated key in its first place with its last
    /// value. In time linear in the members: an object a model made up may
    /// hold a great many keys.
    fn from_members(members: Vec<(String, Value)>) -> Map {
        let mut seen = HashSet::with_capacity(members.len());
        if members.iter().all(|(key, _)| seen.insert(key.as_str())) {
            return Map(members);
        }
        let mut first_at: HashMap<String, usize> = HashMap::with_capacity(members.len());
        let mut kept: Vec<(String, Value)> = Vec::with_capacity(members.len());
        for (key, value) in members {
            match first_at.get(&key) {
                Some(&at) => kept[at].1 = value,
                None => {
                    first_at.insert(key.clone(), kept.len());
                    kept.push((key, value));
                }
            }
        }
        Map(kept)
    }
}

impl From<u64> for Value {
    fn from(n: u64) -> Value {
        Value::Number(Number(n.to_string()))
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(s)
    }
}

/// `items` in the code-point order of `text(item)`, equal texts kept in
/// order. Every canonical list (an object's keys, a contract's tools) is
/// sorted here, by one std sort over positions: one instantiation of it in
/// the component rather than one per element type, each of which costs
/// kilobytes.
pub fn sorted_by_text<T>(items: Vec<T>, text: impl Fn(&T) -> &str) -> Vec<T> {
    let texts: Vec<&str> = items.iter().map(&text).collect();
    let order = order_of(&texts);
    let mut slots: Vec<Option<T>> = items.into_iter().map(Some).collect();
    order.into_iter().filter_map(|at| slots[at].take()).collect()
}

/// The positions of `texts` in code-point order, equal ones in order.
#[inline(never)]
fn order_of(texts: &[&str]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..texts.len()).collect();
    order.sort_unstable_by(|&a, &b| texts[a].cmp(texts[b]).then(a.cmp(&b)));
    order
}

impl Value {
    /// A value a Rust caller holds as serde_json's, down to `max_depth`
    /// levels; `None` past it (the caller reads its text instead, where a
    /// deeper part is cut with a marker). A number is its serde_json spelling.
    pub fn from_serde(value: &serde_json::Value, max_depth: usize) -> Option<Value> {
        Some(match value {
            serde_json::Value::Null => Value::Null,
            serde_json::Value::Bool(b) => Value::Bool(*b),
            serde_json::Value::Number(n) => Value::Number(Number(n.to_string())),
            serde_json::Value::String(s) => Value::String(s.clone()),
            serde_json::Value::Array(items) => Value::Array(
                items
                    .iter()
                    .map(|item| Value::from_serde(item, max_depth.checked_sub(1)?))
                    .collect::<Option<_>>()?,
            ),
            serde_json::Value::Object(members) => Value::Object(Map(members
                .iter()
                .map(|(key, item)| Some((key.clone(), Value::from_serde(item, max_depth.checked_sub(1)?)?)))
                .collect::<Option<_>>()?)),
        })
    }
}

impl Value {
    /// The one canonical form of a JSON value: every object's keys sorted by
    /// code point, every number in the core's one spelling (`1.0` and `1`,
    /// `1e2` and `100` are one number). The contract lockfile is written in
    /// it, and two calls have the same arguments (the idempotency store, the
    /// repeat ledger) when theirs are the same in it.
    pub fn into_canonical(self) -> Value {
        match self {
            Value::Object(map) => {
                let members = map
                    .into_iter()
                    .map(|(key, value)| (key, value.into_canonical()))
                    .collect();
                Value::Object(Map(sorted_by_text(members, |(key, _)| key)))
            }
            Value::Array(items) => Value::Array(items.into_iter().map(Value::into_canonical).collect()),
            Value::Number(number) => Value::Number(Number(super::canonical_number(&number.0).into_owned())),
            other => other,
        }
    }

    /// An object's member.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_object()?.get(key)
    }

    pub fn as_object(&self) -> Option<&Map> {
        match self {
            Value::Object(map) => Some(map),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&Vec<Value>> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_bool(&self) -> Option<bool> {
        match self {
            Value::Bool(b) => Some(*b),
            _ => None,
        }
    }

    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Number(n) => n.as_u64(),
            _ => None,
        }
    }

    pub fn as_i64(&self) -> Option<i64> {
        match self {
            Value::Number(n) => n.as_i64(),
            _ => None,
        }
    }

    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Number(n) => n.as_f64(),
            _ => None,
        }
    }

    pub fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Value::Null)
    }

    /// The value `raw` holds: JSON text serde_json has already read, so
    /// well-formed. `None` when it nests arrays and objects deeper than
    /// `max_depth`, or holds a string no Rust string can (a lone surrogate).
    pub(crate) fn from_read_text(raw: &str, max_depth: usize) -> Option<Value> {
        enum Open {
            Array(Vec<Value>),
            Object(Vec<(String, Value)>, Option<String>),
        }
        let mut open: Vec<Open> = Vec::new();
        let mut done: Option<Value> = None;
        let mut place = |open: &mut Vec<Open>, value: Value| match open.last_mut() {
            None => done = Some(value),
            Some(Open::Array(items)) => items.push(value),
            Some(Open::Object(members, key)) => {
                if let Some(key) = key.take() {
                    members.push((key, value));
                }
            }
        };
        for token in (Tokens { raw, at: 0 }) {
            match token.kind {
                Kind::Open if open.len() == max_depth => return None,
                Kind::Open if token.text == "[" => open.push(Open::Array(Vec::new())),
                Kind::Open => open.push(Open::Object(Vec::new(), None)),
                Kind::Close => {
                    let value = match open.pop()? {
                        Open::Array(items) => Value::Array(items),
                        Open::Object(members, _) => Value::Object(Map::from_members(members)),
                    };
                    place(&mut open, value);
                }
                Kind::Str => {
                    let text = parse_string(token.text).ok()?.into_owned();
                    match open.last_mut() {
                        Some(Open::Object(_, key @ None)) => *key = Some(text),
                        _ => place(&mut open, Value::String(text)),
                    }
                }
                // Numbers and literals, with the commas and colons between.
                Kind::Other => {
                    for word in token.text.split([',', ':']).filter(|w| !w.is_empty()) {
                        let value = match word {
                            "null" => Value::Null,
                            "true" => Value::Bool(true),
                            "false" => Value::Bool(false),
                            number => Value::Number(Number(number.to_owned())),
                        };
                        place(&mut open, value);
                    }
                }
            }
        }
        done
    }
}

/// How deep serde_json reads a whole value before it refuses one.
pub(crate) const MAX_DEPTH: usize = 127;

/// Reads `text` as one JSON value, whole, to serde_json's depth limit, with
/// serde_json's messages and positions for what it refuses.
pub(crate) fn read_value(text: &str) -> Result<Value, Error> {
    let raw = super::parse_raw(text)?;
    match Value::from_read_text(raw, MAX_DEPTH) {
        Some(value) => Ok(value),
        // Too deep, or a lone surrogate: serde_json's own reading says where.
        None => Err(Error(match serde_json::from_str::<serde_json::Value>(text) {
            Err(e) => e,
            Ok(_) => serde::de::Error::custom("recursion limit exceeded"),
        })),
    }
}

/// Written as compact JSON, as serde_json writes a value.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&super::to_json(self))
    }
}

impl Serialize for Value {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Null => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            // As written: serde_json writes a raw value's text unchanged.
            Value::Number(n) => RawValue::from_string(n.0.clone())
                .map_err(serde::ser::Error::custom)?
                .serialize(serializer),
            Value::String(s) => serializer.serialize_str(s),
            Value::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(item)?;
                }
                seq.end()
            }
            Value::Object(map) => {
                let mut out = serializer.serialize_map(Some(map.len()))?;
                for (key, value) in map {
                    out.serialize_entry(key, value)?;
                }
                out.end()
            }
        }
    }
}

/// Read through its raw text, so that numbers keep theirs.
impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        super::from_raw(deserializer, |raw| {
            Value::from_read_text(raw, MAX_DEPTH).ok_or_else(|| match serde_json::from_str::<serde_json::Value>(raw) {
                Err(e) => e.to_string(),
                Ok(_) => "recursion limit exceeded".to_owned(),
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_and_key_order_stay_as_written() {
        let text = r#"{"z":1.10,"a":[1e400,-0,123456789012345678901234567890],"m":{"b":true,"a":null}}"#;
        let value = read_value(text).unwrap();
        assert_eq!(value.to_string(), text);
        let first = value.get("a").and_then(Value::as_array).and_then(|a| a.first());
        assert_eq!(first.and_then(Value::as_f64), None);
        assert_eq!(value.get("m").and_then(|m| m.get("b")), Some(&Value::Bool(true)));
    }

    #[test]
    fn a_repeated_key_keeps_its_first_place_and_its_last_value() {
        let few = read_value(r#"{"a":1,"b":2,"a":3}"#).unwrap();
        assert_eq!(few.to_string(), r#"{"a":3,"b":2}"#);
        let many: Vec<String> = (0..100)
            .map(|i| format!(r#""k{i}":{i}"#))
            .chain([r#""k0":"last""#.into()])
            .collect();
        let many = read_value(&format!("{{{}}}", many.join(","))).unwrap();
        assert_eq!(many.as_object().map(Map::len), Some(100));
        assert_eq!(
            many.as_object().and_then(|m| m.keys().next()).map(String::as_str),
            Some("k0")
        );
        assert_eq!(many.get("k0").and_then(Value::as_str), Some("last"));
    }

    #[test]
    fn objects_are_equal_in_any_order() {
        assert_eq!(
            read_value(r#"{"a":1,"b":[2]}"#).unwrap(),
            read_value(r#"{"b":[2],"a":1}"#).unwrap()
        );
        assert_ne!(read_value(r#"{"a":1.0}"#).unwrap(), read_value(r#"{"a":1}"#).unwrap());
    }

    #[test]
    fn too_deep_is_refused_as_serde_json_refuses_it() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let ours = read_value(&deep).unwrap_err().to_string();
        let theirs = serde_json::from_str::<serde_json::Value>(&deep)
            .unwrap_err()
            .to_string();
        assert_eq!(ours, theirs);
        // The same limit: as deep as serde_json reads, and one more refused.
        let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert!(read_value(&nested(MAX_DEPTH)).is_ok());
        assert!(serde_json::from_str::<serde_json::Value>(&nested(MAX_DEPTH)).is_ok());
        assert!(read_value(&nested(MAX_DEPTH + 1)).is_err());
        assert!(serde_json::from_str::<serde_json::Value>(&nested(MAX_DEPTH + 1)).is_err());
    }
}
