//! JSON as the vector files write it: each number as its text and each
//! object's keys in order, so that a case's input reaches the core and its
//! expected output is compared byte for byte as written. serde_json's `Value`
//! keeps both only under features that would also change the library under
//! test (Cargo unifies features), so this tree is built from `RawValue` text.

use serde::de::{MapAccess, Visitor};
use serde::Deserializer as _;
use serde_json::value::RawValue;
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub enum Json {
    Null,
    Bool(bool),
    /// As written.
    Number(String),
    String(String),
    Array(Vec<Json>),
    Object(Object),
}

/// Members in order; a repeated key keeps its first place and its last value.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Object(Vec<(String, Json)>);

impl Object {
    pub fn get(&self, key: &str) -> Option<&Json> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    pub fn remove(&mut self, key: &str) -> Option<Json> {
        let at = self.0.iter().position(|(k, _)| k == key)?;
        Some(self.0.remove(at).1)
    }

    pub fn insert(&mut self, key: String, value: Json) {
        match self.0.iter_mut().find(|(k, _)| *k == key) {
            Some((_, old)) => *old = value,
            None => self.0.push((key, value)),
        }
    }

    pub fn iter(&self) -> impl Iterator<Item = (&String, &Json)> {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

impl IntoIterator for Object {
    type Item = (String, Json);
    type IntoIter = std::vec::IntoIter<(String, Json)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl FromIterator<(String, Json)> for Object {
    fn from_iter<I: IntoIterator<Item = (String, Json)>>(members: I) -> Object {
        let mut object = Object::default();
        for (k, v) in members {
            object.insert(k, v);
        }
        object
    }
}

impl std::ops::Index<&str> for Object {
    type Output = Json;
    fn index(&self, key: &str) -> &Json {
        self.get(key).expect("the key")
    }
}

impl std::ops::Index<&str> for Json {
    type Output = Json;
    fn index(&self, key: &str) -> &Json {
        static NULL: Json = Json::Null;
        self.get(key).unwrap_or(&NULL)
    }
}

/// Compact JSON: keys in order, numbers as written, strings escaped as serde_json escapes them.
impl fmt::Display for Json {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Json::Null => f.write_str("null"),
            Json::Bool(b) => write!(f, "{b}"),
            Json::Number(n) => f.write_str(n),
            Json::String(s) => f.write_str(&serde_json::to_string(s).unwrap()),
            Json::Array(items) => {
                f.write_str("[")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    item.fmt(f)?;
                }
                f.write_str("]")
            }
            Json::Object(object) => {
                f.write_str("{")?;
                for (i, (k, v)) in object.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{}:{v}", serde_json::to_string(k).unwrap())?;
                }
                f.write_str("}")
            }
        }
    }
}

impl Json {
    /// Reads `text`, at any depth; `Err` is serde_json's message.
    pub fn parse(text: &str) -> Result<Json, String> {
        let raw: &RawValue = serde_json::from_str(text).map_err(|e| e.to_string())?;
        Ok(Json::of_raw(raw))
    }

    /// A raw value serde_json has read, so well-formed.
    fn of_raw(raw: &RawValue) -> Json {
        let text = raw.get();
        match text.as_bytes()[0] {
            b'n' => Json::Null,
            b't' => Json::Bool(true),
            b'f' => Json::Bool(false),
            b'"' => Json::String(serde_json::from_str(text).unwrap()),
            b'[' => {
                let items: Vec<&RawValue> = serde_json::from_str(text).unwrap();
                Json::Array(items.into_iter().map(Json::of_raw).collect())
            }
            b'{' => {
                struct Members;
                impl<'de> Visitor<'de> for Members {
                    type Value = Object;
                    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                        f.write_str("an object")
                    }
                    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Object, A::Error> {
                        let mut object = Object::default();
                        while let Some(key) = map.next_key::<String>()? {
                            let value: &RawValue = map.next_value()?;
                            object.insert(key, Json::of_raw(value));
                        }
                        Ok(object)
                    }
                }
                let mut reader = serde_json::Deserializer::from_str(text);
                Json::Object(reader.deserialize_map(Members).unwrap())
            }
            _ => Json::Number(text.to_owned()),
        }
    }

    pub fn get(&self, key: &str) -> Option<&Json> {
        self.as_object()?.get(key)
    }

    pub fn as_object(&self) -> Option<&Object> {
        match self {
            Json::Object(object) => Some(object),
            _ => None,
        }
    }

    pub fn as_array(&self) -> Option<&Vec<Json>> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Json::Number(n) => n.parse().ok(),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }
}
