//! Specs and entry points' inputs read into structs that declare their JSON
//! shape with serde, refused in serde's words with the path of the key
//! (serde_path_to_error) and without a position for a value of the wrong
//! kind, since each host spaces the JSON it writes differently.
//!
//! Ours: the wording around serde's messages, [`Object`] (a struct read from
//! an object only), [`Count`], and [`given`] (present but not `null`).

use std::fmt;

use serde::de::{DeserializeOwned, Visitor};
use serde::Deserialize;

use super::repair_lone_surrogates;
use crate::error::SpecError;

/// Reads a spec or an entry point's input (lone surrogates repaired first)
/// into `T`, a struct that declares its JSON shape with serde. `what` names
/// the whole input in messages (`the spec`, `the upstream-error input`).
///
/// Refusals are serde's words with the place they are about: bad syntax with
/// its line and column (`invalid JSON in the spec: ... at line 1 column 2`),
/// a value of the wrong kind or an unknown key with its path in the input
/// (`limits.messageChars: invalid type: ...`) and no position, since each host
/// spaces the JSON it writes differently.
pub fn read_input<T: DeserializeOwned>(text: &str, what: &str) -> Result<T, SpecError> {
    read_as(text, what, Shape::Object, false)
}

/// [`read_input`] for one member of a larger input given alone (a `limits`
/// object, `issues[3]`): `name` comes first in every path (`limits.items`).
pub fn read_member<T: DeserializeOwned>(text: &str, name: &str) -> Result<T, SpecError> {
    read_as(text, name, Shape::Object, true)
}

/// [`read_member`] for an array (or `null`): `deltas[0].field`.
pub fn read_list<T: DeserializeOwned>(text: &str, name: &str) -> Result<T, SpecError> {
    read_as(text, name, Shape::Array, true)
}

#[derive(Clone, Copy, PartialEq)]
enum Shape {
    Object,
    Array,
}

fn read_as<T: DeserializeOwned>(text: &str, what: &str, shape: Shape, member: bool) -> Result<T, SpecError> {
    let text = repair_lone_surrogates(text);
    let mut deserializer = serde_json::Deserializer::from_str(&text);
    let value = match shape {
        Shape::Object => serde_path_to_error::deserialize(&mut deserializer).map(|Object(value)| value),
        Shape::Array => serde_path_to_error::deserialize(&mut deserializer),
    }
    .map_err(|e| {
        let path = e.path().to_string();
        refusal(&text, what, shape, member, &path, e.into_inner())
    })?;
    deserializer
        .end()
        .map_err(|e| refusal(&text, what, shape, member, ".", e))?;
    Ok(value)
}

fn refusal(text: &str, what: &str, shape: Shape, member: bool, path: &str, e: serde_json::Error) -> SpecError {
    if e.classify() != serde_json::error::Category::Data {
        return SpecError::not_json(format!("invalid JSON in {what}: {e}"));
    }
    let message = without_position(&e);
    // An unknown key's path ends with the key itself, which the message names.
    let refused = match message.starts_with("missing field") {
        true => SpecError::missing,
        false => SpecError::invalid,
    };
    let last = path.rfind(['.', '[']).map_or(path, |at| &path[at + 1..]);
    let path = match message.starts_with(&format!("unknown field `{last}`")) {
        true => path.rfind(['.', '[']).map_or(".", |at| &path[..at]),
        false => path,
    };
    let path = if path.is_empty() { "." } else { path };
    if path.starts_with('[') && member {
        return refused(format!("{what}{path}: {message}"));
    }
    if path != "." && member {
        return refused(format!("{what}.{path}: {message}"));
    }
    if path != "." {
        return refused(format!("{path}: {message}"));
    }
    let (opener, noun) = match shape {
        Shape::Object => (b'{', "a JSON object"),
        Shape::Array => (b'[', "an array"),
    };
    match text.trim_start().as_bytes().first() {
        Some(b) if *b != opener && !(shape == Shape::Array && *b == b'n') => {
            SpecError::wrong_kind(format!("{what} must be {noun}, not {}", raw_kind(text)))
        }
        _ => refused(format!("{what}: {message}")),
    }
}

/// serde_json's message without its ` at line L column C`.
pub fn without_position(e: &serde_json::Error) -> String {
    let message = e.to_string();
    let position = format!(" at line {} column {}", e.line(), e.column());
    match message.strip_suffix(&position) {
        Some(message) => message.to_owned(),
        None => message,
    }
}

/// A struct read from a JSON object only. serde's derived structs also
/// take an array of their fields in order; for a spec that would let
/// `"limits": [500]` through as a `messageChars` nobody wrote.
#[derive(Debug)]
pub struct Object<T>(pub(crate) T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        T::deserialize(MapOnly(deserializer)).map(Object)
    }
}

/// Reads a struct as a map; the one method a derived struct calls.
struct MapOnly<D>(D);

impl<'de, D: serde::Deserializer<'de>> serde::Deserializer<'de> for MapOnly<D> {
    type Error = D::Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, D::Error> {
        self.0.deserialize_any(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, D::Error> {
        self.0.deserialize_map(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf option unit unit_struct newtype_struct seq tuple
        tuple_struct map enum identifier ignored_any
    }
}

/// `#[serde(default, deserialize_with = "json::given")]`: a key that must not
/// be `null` when present, told apart from a missing one (`None`).
pub fn given<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// A count: a whole number, 0 or more, held at `MAX_COUNT` (`crate::count`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Count(pub usize);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct CountVisitor;
        impl Visitor<'_> for CountVisitor {
            type Value = Count;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a whole number, 0 or more")
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<Count, E> {
                Ok(Count(crate::count::from_u64(v)))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<Count, E> {
                Err(E::invalid_value(serde::de::Unexpected::Signed(v), &self))
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> Result<Count, E> {
                Err(E::invalid_type(serde::de::Unexpected::Float(v), &self))
            }
        }
        deserializer.deserialize_u64(CountVisitor)
    }
}

/// What a raw JSON value holds, in messages' words, from its first byte.
pub fn raw_kind(text: &str) -> &'static str {
    match text.trim_start().as_bytes().first() {
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        Some(b'{') => "an object",
        _ => "a number",
    }
}

/// What serde reads through `Object<T>` is `T`'s object: the same schema.
#[cfg(feature = "schema")]
impl<T: schemars::JsonSchema> schemars::JsonSchema for Object<T> {
    fn inline_schema() -> bool {
        T::inline_schema()
    }
    fn schema_name() -> std::borrow::Cow<'static, str> {
        T::schema_name()
    }
    fn schema_id() -> std::borrow::Cow<'static, str> {
        T::schema_id()
    }
    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        T::json_schema(generator)
    }
}

// A count as the reader takes it: a whole number, 0 or more.
#[cfg(feature = "schema")]
inline_schema!(Count, "Count", { "type": "integer", "minimum": 0 });
