//! JSON shared by every reader and writer, on serde_json: objects read
//! without losing anything (keys stay in order; a repeated key is kept so the
//! caller can refuse it; values stay raw, `RawValue`, so a member is read
//! only when its key is known and a raw value of any depth is never refused),
//! the field readers the envelope readers use, and the compact writers;
//! `input` reads specs and inputs into structs that declare their shape.
//!
//! What is ours: [`repair_lone_surrogates`] (JavaScript writes a lone
//! surrogate as an escape that no Rust JSON reader accepts) and the messages
//! that name a key; the parsing, its messages and positions are serde_json's.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;

use crate::error::SpecError;
mod compact;
mod input;
mod number;
mod value;
pub use compact::{compact, compact_within};
pub use input::{from_raw, given, raw_kind, read_input, read_list, read_member, without_position, Count, Object};
pub(crate) use number::{approximate_f64, canonical_number, compare_numbers};
pub use value::{sorted_by_text, Map, Number, Value};

/// What a typed read expects, in serde's words.
pub(crate) const A_JSON_OBJECT: &str = "a JSON object";
pub(crate) const A_SEQUENCE: &str = "a sequence";
pub(crate) const A_MAP: &str = "a map";

/// A reading failure, displayed as serde_json displays it.
#[derive(Debug)]
pub struct Error(serde_json::Error);

impl Error {
    /// A type mismatch rather than bad syntax.
    pub(crate) fn is_data(&self) -> bool {
        self.0.classify() == serde_json::error::Category::Data
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The members of a JSON object, in order, repeated keys included, each value
/// as its raw JSON text.
pub type Members<'a> = Vec<(Cow<'a, str>, Cow<'a, str>)>;

/// A string, borrowed from the text unless it had escapes.
pub struct Text<'a>(pub Cow<'a, str>);

impl<'de> Deserialize<'de> for Text<'de> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;
        impl<'de> Visitor<'de> for TextVisitor {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(v)))
            }
        }
        deserializer.deserialize_string(TextVisitor)
    }
}

/// The position in `wire` of the string serde reads, another string refused
/// in serde's words (`unknown variant `pt`, expected `en` or `pt-BR``). In
/// the visitor, so serde_json places the refusal at that string.
#[doc(hidden)]
pub fn wire_variant<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
    wire: &'static [&'static str],
) -> Result<usize, D::Error> {
    struct WireVisitor(&'static [&'static str]);
    impl Visitor<'_> for WireVisitor {
        type Value = usize;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string")
        }
        fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<usize, E> {
            self.0
                .iter()
                .position(|w| *w == text)
                .ok_or_else(|| E::unknown_variant(text, self.0))
        }
    }
    deserializer.deserialize_str(WireVisitor(wire))
}

/// An object's members in order, repeated keys kept, each value read as `T`;
/// `expected` names what it must be (serde's "expected a map").
pub(crate) struct MapOf<T> {
    expected: &'static str,
    item: PhantomData<T>,
}

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for MapOf<T> {
    type Value = Vec<(Cow<'de, str>, T)>;
    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for MapOf<T> {
    type Value = Vec<(Cow<'de, str>, T)>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.expected)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut members = Vec::new();
        while let Some(Text(key)) = map.next_key::<Text<'de>>()? {
            members.push((key, map.next_value::<T>()?));
        }
        Ok(members)
    }
}

/// An array's items, each read as `T`.
pub(crate) struct SeqOf<T> {
    expected: &'static str,
    item: PhantomData<T>,
}

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for SeqOf<T> {
    type Value = Vec<T>;
    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for SeqOf<T> {
    type Value = Vec<T>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.expected)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element::<T>()? {
            items.push(item);
        }
        Ok(items)
    }
}

/// Reads the whole of `text` with `seed`: only whitespace may follow.
pub(crate) fn read_all<'a, S: DeserializeSeed<'a>>(text: &'a str, seed: S) -> Result<S::Value, Error> {
    let mut deserializer = serde_json::Deserializer::from_str(text);
    let value = seed.deserialize(&mut deserializer).map_err(Error)?;
    deserializer.end().map_err(Error)?;
    Ok(value)
}

/// The members of the object `text` holds, each read as `T`.
pub(crate) fn members<'a, T: Deserialize<'a>>(
    text: &'a str,
    expected: &'static str,
) -> Result<Vec<(Cow<'a, str>, T)>, Error> {
    read_all(
        text,
        MapOf {
            expected,
            item: PhantomData,
        },
    )
}

/// The items of the array `text` holds, each read as `T`.
pub(crate) fn items_of<'a, T: Deserialize<'a>>(text: &'a str, expected: &'static str) -> Result<Vec<T>, Error> {
    read_all(
        text,
        SeqOf {
            expected,
            item: PhantomData,
        },
    )
}

/// The first JSON value in `text`, raw, and nothing after it read (a log
/// line's tail is not part of an envelope); `None` when `text` is blank.
pub(crate) fn leading_raw(text: &str) -> Option<Result<&str, Error>> {
    let mut values = serde_json::Deserializer::from_str(text).into_iter::<&RawValue>();
    values.next().map(|read| read.map(RawValue::get).map_err(Error))
}

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
    let members: Vec<(Cow<'_, str>, &RawValue)> = members(text, A_JSON_OBJECT)?;
    Ok(members.into_iter().map(|(k, v)| (k, v.get())).collect())
}

/// Reads `text` as one JSON value, whole (to serde_json's depth limit of 128).
pub fn parse_value(text: &str) -> Result<Value, Error> {
    value::read_value(text)
}

/// Reads content (arguments a model made up) as one JSON value, whole, at
/// any depth: each array or object nested past `max_depth` levels
/// (`limits::MAX_DEPTH`, given by the caller: the caps sit above this module)
/// is read as the cut marker (`"… [N characters cut]"`, [`compact_within`]),
/// so the value is never refused for its depth, and no walk over it recurses
/// deeper than that. Bad syntax is refused with its position in `text`.
pub fn parse_content(text: &str, max_depth: usize) -> Result<Value, Error> {
    let raw = parse_raw(text)?;
    parse_value(&compact_within(raw, max_depth, crate::cut::Marker::ENGLISH))
}

/// Checks that `text` is one JSON value, at any depth (a raw value is read
/// without recursion), and gives it without the whitespace around it.
pub fn parse_raw(text: &str) -> Result<&str, Error> {
    serde_json::from_str::<&RawValue>(text)
        .map(RawValue::get)
        .map_err(Error)
}

/// Reads `text` as one JSON string.
pub fn parse_string(text: &str) -> Result<Cow<'_, str>, Error> {
    serde_json::from_str::<Text<'_>>(text).map(|t| t.0).map_err(Error)
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
/// object, not ..." messages when the reader reports a type mismatch.
pub(crate) fn kind_of_text(text: &str, error: &Error) -> Option<&'static str> {
    let first = text.trim_start().as_bytes().first()?;
    (error.is_data() && *first != b'{').then(|| raw_kind(text))
}

/// Key-value pairs written as a JSON object, in their order (details).
pub(crate) struct Pairs<'a, K, V>(pub(crate) &'a [(K, V)]);

impl<K: AsRef<str>, V: AsRef<str>> serde::Serialize for Pairs<'_, K, V> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in self.0 {
            map.serialize_entry(key.as_ref(), value.as_ref())?;
        }
        map.end()
    }
}

impl<K, V> Pairs<'_, K, V> {
    /// Whether there are none (`skip_serializing_if`).
    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// `#[serde(skip_serializing_if = "json::is_zero")]`: a count of 0 is left out.
pub(crate) fn is_zero(count: &usize) -> bool {
    *count == 0
}

/// `#[serde(skip_serializing_if = "json::is_false")]`: an off switch is left out.
pub(crate) fn is_false(on: &bool) -> bool {
    !*on
}

/// The compact JSON of an output struct. Writing one cannot fail: its
/// values are strings, numbers, booleans and maps with string keys.
pub fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Appends `text` as a JSON string literal, escaped as serde_json escapes it.
pub fn push_json_string(out: &mut String, text: &str) {
    // Writing a `str` cannot fail.
    out.push_str(&serde_json::to_string(text).unwrap_or_default());
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
pub struct Member<'a>(pub &'a dyn fmt::Display, pub &'a str);

impl fmt::Display for Member<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0, self.1)
    }
}

/// A key displayed quoted, as messages name it: `"message"`.
pub struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.0)
    }
}

/// Refuses what a member or the whole holds ([`SpecError::invalid`]).
pub fn fail<T>(message: impl Into<String>) -> Result<T, SpecError> {
    Err(SpecError::invalid(message.into()))
}

/// Refuses a spec that lacks a required member ([`SpecError::missing`]).
pub fn missing<T>(message: impl Into<String>) -> Result<T, SpecError> {
    Err(SpecError::missing(message.into()))
}

/// Reads `text` (lone surrogates repaired first) as an object whose values
/// stay raw JSON text, refusing a repeated key.
pub fn object<'a>(text: &'a str, what: &dyn fmt::Display) -> Result<Members<'a>, SpecError> {
    let members = repaired_object(text, |text, e| match kind_of_text(text, &e) {
        Some(kind) => SpecError::wrong_kind(format!("{what} must be a JSON object, not {kind}")),
        None => SpecError::not_json(format!("invalid JSON in {what}: {e}")),
    })?;
    if let Some(key) = repeated_key(&members) {
        return fail(format!("{what} has the key {key:?} twice"));
    }
    Ok(members)
}

/// Reads an input object whose keys are `keys`: each member's raw JSON text
/// at its key's place (`None` when absent; see [`present`]), another key refused in
/// serde's words, as a derived reader refuses it. For the small inputs, where
/// a derived struct costs the component more bytes than this one reader.
pub fn members_of(text: &str, what: &str, keys: &[&str]) -> Result<Vec<Option<String>>, SpecError> {
    let mut found = vec![None; keys.len()];
    for (key, value) in object(text, &what)? {
        let Some(at) = keys.iter().position(|k| *k == key) else {
            return fail(format!(
                "{what}: unknown field `{key}`, expected {}",
                one_of(keys.iter())
            ));
        };
        found[at] = Some(value.into_owned());
    }
    Ok(found)
}

/// A member [`members_of`] found, unless it is `null` (an optional key "not set").
pub fn present(raw: &Option<String>) -> Option<&str> {
    raw.as_deref().filter(|raw| !is_null(raw))
}

/// What serde says it expected: `` `a` ``, `` `a` or `b` ``, `` one of `a`, `b`, `c` ``.
pub(crate) fn one_of<S: AsRef<str>>(names: impl ExactSizeIterator<Item = S>) -> String {
    let count = names.len();
    let mut expected = String::new();
    for (i, name) in names.enumerate() {
        expected.push_str(match i {
            0 if count > 2 => "one of `",
            0 => "`",
            _ if count == 2 => " or `",
            _ => ", `",
        });
        expected.push_str(name.as_ref());
        expected.push('`');
    }
    expected
}

/// A string enum's member read from its wire spelling, another refused in
/// serde's words (`locale: unknown variant `pt`, expected `en` or `pt-BR``).
pub fn variant<T: Copy + fmt::Display>(
    raw: &str,
    key: &str,
    all: &[T],
    from_wire: fn(&str) -> Option<T>,
) -> Result<T, SpecError> {
    let given = string(raw, &Quoted(key))?;
    from_wire(&given).ok_or_else(|| {
        let wire = one_of(all.iter().map(|v| v.to_string()));
        SpecError::invalid(format!("{key}: unknown variant `{given}`, expected {wire}"))
    })
}

/// [`members_of`] for an input of two keys.
pub fn two_members(text: &str, what: &str, keys: [&str; 2]) -> Result<[Option<String>; 2], SpecError> {
    let found = members_of(text, what, &keys)?;
    Ok([
        present(&found[0]).map(str::to_owned),
        present(&found[1]).map(str::to_owned),
    ])
}

/// [`members_of`] for an input of two required strings, a missing one
/// refused as serde refuses it (`the ledger-key request: missing field `scope``).
pub fn required_strings(text: &str, what: &str, keys: [&str; 2]) -> Result<[String; 2], SpecError> {
    let found = two_members(text, what, keys)?;
    let mut read = [String::new(), String::new()];
    for (i, (key, raw)) in keys.iter().zip(found).enumerate() {
        let Some(raw) = raw else {
            return missing(format!("{what}: missing field `{key}`"));
        };
        read[i] = string(&raw, &Quoted(key))?;
    }
    Ok(read)
}

/// [`parse_object`] after [`repair_lone_surrogates`]; `refused` words a
/// failure, given the text read.
pub fn repaired_object<E>(text: &str, refused: impl FnOnce(&str, Error) -> E) -> Result<Members<'_>, E> {
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

pub fn value(raw: &str, what: &dyn fmt::Display) -> Result<Value, SpecError> {
    parse_value(raw).map_err(|e| SpecError::not_json(format!("invalid JSON in {what}: {e}")))
}

/// The items of an array, each as its raw JSON text.
pub(crate) fn array<'a>(raw: &'a str, what: &dyn fmt::Display) -> Result<Vec<&'a str>, SpecError> {
    items(raw, what, "an array")
}

fn items<'a>(raw: &'a str, what: &dyn fmt::Display, noun: &str) -> Result<Vec<&'a str>, SpecError> {
    let items: Result<Vec<&RawValue>, Error> = items_of(raw, A_SEQUENCE);
    let items = items.map_err(|e| match kind_of_text(raw, &e) {
        Some(kind) => SpecError::wrong_kind(format!("{what} must be {noun}, not {kind}")),
        None if raw.trim_start().starts_with('{') => {
            SpecError::wrong_kind(format!("{what} must be {noun}, not an object"))
        }
        None => SpecError::not_json(format!("invalid JSON in {what}: {e}")),
    })?;
    Ok(items.into_iter().map(RawValue::get).collect())
}

pub fn string(raw: &str, what: &dyn fmt::Display) -> Result<String, SpecError> {
    // The common case straight to a String, without building a Value first.
    if raw.starts_with('"') {
        if let Ok(s) = parse_string(raw) {
            return Ok(s.into_owned());
        }
    }
    match value(raw, what)? {
        Value::String(s) => Ok(s),
        other => fail(format!("{what} must be a string, not {}", kind_of(&other))),
    }
}

pub fn optional_string(raw: &str, what: &dyn fmt::Display) -> Result<Option<String>, SpecError> {
    if is_null(raw) {
        return Ok(None);
    }
    string(raw, what).map(Some)
}

/// Whether the member is JSON `null` (an optional key "not set").
pub fn is_null(raw: &str) -> bool {
    raw.trim() == "null"
}
