//! Specs and entry points' inputs read into structs that declare their JSON
//! shape with serde, refused in serde's words with the path of the key
//! (`limits.messageChars`) and without a position for a value of the wrong
//! kind, since each host spaces the JSON it writes differently.
//!
//! Ours: the wording around serde's messages, [`Object`] (a struct read from
//! an object only), [`Count`], [`given`] (present but not `null`), and the
//! path of a refusal. serde_path_to_error would track the path on every read,
//! cloning each key and wrapping every type's reader (a third of a spec's
//! reading time and about 20 KB of the component); a refusal's path is
//! instead found once, by walking the text up to where serde_json stopped.

use std::fmt;

use serde::de::{DeserializeOwned, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;

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
    LATE.with(|late| late.set(None));
    let mut deserializer = serde_json::Deserializer::from_str(&text);
    let value = match shape {
        Shape::Object => Object::<T>::deserialize(&mut deserializer).map(|Object(value)| value),
        Shape::Array => T::deserialize(&mut deserializer),
    }
    .map_err(|e| {
        let path = path_at(
            &text,
            late_stop(&text).unwrap_or_else(|| offset_of(&text, e.line(), e.column())),
        );
        refusal(&text, what, shape, member, &path, e)
    })?;
    deserializer
        .end()
        .map_err(|e| refusal(&text, what, shape, member, ".", e))?;
    Ok(value)
}

thread_local! {
    /// Where the value a reader refused after reading it raw ends, as an
    /// address in the text being read ([`from_raw`]).
    static LATE: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// Reads a value as its raw JSON text and makes a `T` of it with `make`,
/// whose refusal (its message) is about that value. serde_json gives such a
/// refusal the place where the enclosing object or array stopped, which may
/// be past its closing bracket; the value's own end, kept here, is exact.
pub fn from_raw<'de, D, T>(deserializer: D, make: impl FnOnce(&'de str) -> Result<T, String>) -> Result<T, D::Error>
where
    D: serde::Deserializer<'de>,
{
    let raw = <&'de RawValue>::deserialize(deserializer)?.get();
    make(raw).map_err(|why| {
        LATE.with(|late| late.set(Some(raw.as_ptr() as usize + raw.len())));
        serde::de::Error::custom(why)
    })
}

/// The offset in `text` where a value refused by [`from_raw`] ends, when it
/// was read from `text` itself.
fn late_stop(text: &str) -> Option<usize> {
    let end = LATE.with(|late| late.take())?;
    end.checked_sub(text.as_ptr() as usize).filter(|at| *at <= text.len())
}

/// The byte offset of serde_json's `line` and `column` (bytes into the line).
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let start_of_line = match line {
        0 | 1 => 0,
        _ => text
            .match_indices('\n')
            .nth(line - 2)
            .map_or(text.len(), |(at, _)| at + 1),
    };
    (start_of_line + column).min(text.len())
}

/// The path of the value serde_json was reading when it stopped at `stop`:
/// the keys and indices of the members and items open there, spelled
/// `limits.messageChars`, `issues[3].path`, `[0].field`, or `.` for the
/// whole. serde_json stops just after the value it refuses (or the key it
/// refuses, or at the value whose kind is wrong, or after the object that
/// lacks a field), so the member or item open at that place is the one the
/// refusal is about.
fn path_at(text: &str, stop: usize) -> String {
    // Each open container: an object's current key, or an array's current index.
    let mut open: Vec<(bool, Option<String>, Option<usize>)> = Vec::new();
    let mut expect_key = false;
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < stop {
        let byte = bytes[at];
        let value_starts =
            !(matches!(byte, b' ' | b'\n' | b'\t' | b'\r' | b':' | b',' | b'}' | b']') || byte == b'"' && expect_key);
        if value_starts {
            if let Some((false, _, index)) = open.last_mut() {
                *index = Some(index.map_or(0, |i| i + 1));
            }
        }
        match byte {
            b'{' => {
                open.push((true, None, None));
                expect_key = true;
            }
            b'[' => open.push((false, None, None)),
            b'}' | b']' => {
                open.pop();
                expect_key = false;
            }
            b',' => expect_key = matches!(open.last(), Some((true, _, _))),
            b'"' => {
                let end = string_end(bytes, at);
                if expect_key {
                    if let Some((true, key, _)) = open.last_mut() {
                        *key = Some(
                            super::parse_string(&text[at..end]).map_or_else(|_| String::new(), |k| k.into_owned()),
                        );
                    }
                    expect_key = false;
                }
                at = end;
                continue;
            }
            b' ' | b'\n' | b'\t' | b'\r' | b':' => {}
            // A number, `true`, `false` or `null`: one value, to the next delimiter.
            _ => {
                while at < stop && !matches!(bytes[at], b',' | b'}' | b']' | b' ' | b'\n' | b'\t' | b'\r' | b':') {
                    at += 1;
                }
                continue;
            }
        }
        at += 1;
    }
    let mut path = String::new();
    for (is_object, key, index) in &open {
        match (is_object, key, index) {
            (true, Some(key), _) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
            }
            (false, _, Some(index)) => {
                path.push('[');
                path.push_str(&index.to_string());
                path.push(']');
            }
            _ => {}
        }
    }
    path
}

/// Where the JSON string that opens at `at` ends: just after its closing quote.
fn string_end(bytes: &[u8], at: usize) -> usize {
    let mut i = at + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

fn refusal(text: &str, what: &str, shape: Shape, member: bool, path: &str, e: serde_json::Error) -> SpecError {
    if e.classify() != serde_json::error::Category::Data {
        return SpecError::not_json(format!("invalid JSON in {what}: {e}"));
    }
    let message = without_position(&e);
    let refused = match message.starts_with("missing field") {
        true => SpecError::missing,
        false => SpecError::invalid,
    };
    // An unknown or repeated key's path ends with the key itself, which the message names.
    let last = path.rfind(['.', '[']).map_or(path, |at| &path[at + 1..]);
    let names_last = |refusal: &str| message.starts_with(&format!("{refusal} `{last}`"));
    let path = match names_last("unknown field") || names_last("duplicate field") {
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

#[cfg(test)]
mod tests {
    use super::{offset_of, path_at};

    #[test]
    fn a_place_in_the_text_names_the_member_or_item_open_there() {
        let text = r#"{"limits": {"messageChars": "x"}, "issues": [{"path": ["a", -1]}], "k\"ey": 1}"#;
        let after = |token: &str| text.find(token).unwrap() + token.len();
        assert_eq!(path_at(text, after(r#""x""#)), "limits.messageChars");
        assert_eq!(path_at(text, after("{\"messageChars\": \"x\"}")), "limits");
        assert_eq!(path_at(text, after("-1")), "issues[0].path[1]");
        assert_eq!(path_at(text, after(r#""path""#)), "issues[0].path");
        assert_eq!(path_at(text, after(r#""k\"ey": 1"#)), "k\"ey");
        assert_eq!(path_at(text, text.len()), "");
        assert_eq!(path_at("[1, {\"a\": true}]", 14), "[1].a");
        assert_eq!(path_at("[1, {\"a\": true}]", 15), "[1]");
    }

    #[test]
    fn a_line_and_column_is_a_byte_offset() {
        let text = "{\n  \"a\": 1,\n  \"b\": 2\n}";
        assert_eq!(offset_of(text, 1, 1), 1);
        assert_eq!(offset_of(text, 3, 8), text.find("2").unwrap() + 1);
        assert_eq!(offset_of(text, 9, 0), text.len());
    }
}
