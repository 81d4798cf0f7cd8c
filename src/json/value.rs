//! A JSON value read whole, borrowing from its text where it can. Numbers
//! keep their written digits. An object keeps every member as written; asked
//! for a key it answers as a map would (the last of a repeated key), and it
//! writes itself back as serde_json's `Value` would (each key once, at its
//! first place, with its last value).

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Value<'a> {
    Null,
    Bool(bool),
    /// As serde_json's `arbitrary_precision` keeps it: as written, but an
    /// exponent as `e` with its sign (`1E5` is `1e+5`).
    Number(Cow<'a, str>),
    String(Cow<'a, str>),
    Array(Vec<Value<'a>>),
    Object(Vec<(Cow<'a, str>, Value<'a>)>),
}

impl<'a> Value<'a> {
    /// The same value, owning its text.
    pub(crate) fn into_owned(self) -> Value<'static> {
        let own = |s: Cow<'_, str>| Cow::Owned(s.into_owned());
        match self {
            Value::Null => Value::Null,
            Value::Bool(b) => Value::Bool(b),
            Value::Number(n) => Value::Number(own(n)),
            Value::String(s) => Value::String(own(s)),
            Value::Array(items) => Value::Array(items.into_iter().map(Value::into_owned).collect()),
            Value::Object(members) => {
                Value::Object(members.into_iter().map(|(k, v)| (own(k), v.into_owned())).collect())
            }
        }
    }

    /// The value of `key` in an object.
    pub(crate) fn get(&self, key: &str) -> Option<&Value<'a>> {
        match self {
            Value::Object(members) => members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub(crate) fn as_array(&self) -> Option<&[Value<'a>]> {
        match self {
            Value::Array(items) => Some(items),
            _ => None,
        }
    }

    pub(crate) fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Number(n) => n.parse().ok(),
            _ => None,
        }
    }

    pub(crate) fn is_object(&self) -> bool {
        matches!(self, Value::Object(_))
    }

    /// An object's keys, each once, in the order they first appear.
    pub(crate) fn keys(&self) -> Vec<&str> {
        match self {
            Value::Object(members) => distinct(members).into_iter().map(|(k, _)| k).collect(),
            _ => Vec::new(),
        }
    }

    /// "a string", "an array": how error messages name what they got.
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }

    /// Appends the value as compact JSON.
    pub(crate) fn write(&self, out: &mut String) {
        match self {
            Value::Null => out.push_str("null"),
            Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Value::Number(n) => out.push_str(n),
            Value::String(s) => super::push_json_string(out, s),
            Value::Array(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Value::Object(members) => {
                out.push('{');
                for (i, (key, value)) in distinct(members).into_iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    super::push_json_string(out, key);
                    out.push(':');
                    value.write(out);
                }
                out.push('}');
            }
        }
    }
}

impl fmt::Display for Value<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut out = String::new();
        self.write(&mut out);
        f.write_str(&out)
    }
}

/// Each key once, at its first place, with its last value.
fn distinct<'v, 'a>(members: &'v [(Cow<'a, str>, Value<'a>)]) -> Vec<(&'v str, &'v Value<'a>)> {
    let mut out: Vec<(&str, &Value)> = Vec::with_capacity(members.len());
    if members.len() <= 16 {
        for (key, value) in members {
            match out.iter_mut().find(|(k, _)| *k == key.as_ref()) {
                Some(slot) => slot.1 = value,
                None => out.push((key, value)),
            }
        }
        return out;
    }
    let mut place: HashMap<&str, usize> = HashMap::with_capacity(members.len());
    for (key, value) in members {
        match place.get(key.as_ref()) {
            Some(&i) => out[i].1 = value,
            None => {
                place.insert(key, out.len());
                out.push((key, value));
            }
        }
    }
    out
}
