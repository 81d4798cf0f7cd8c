//! Whole values and typed reads (an object's members, an array's items, a
//! string), with serde's "invalid type" messages when the text holds
//! something else.

use std::borrow::Cow;

use super::reader::{Error, Reader, Result, EOF_LIST, EOF_OBJECT, EOF_VALUE, EXPECTED_COLON};
use super::reader::{A_MAP, A_SEQUENCE, A_STRING, RECURSION_LIMIT, TRAILING_COMMA};
use super::reader::{EXPECTED_LIST_COMMA, EXPECTED_OBJECT_COMMA, EXPECTED_VALUE, KEY_MUST_BE_STRING};
use super::value::Value;

impl<'a> Reader<'a> {
    /// Reads one value, containers included, to serde_json's depth limit.
    pub(crate) fn value(&mut self) -> Result<Value<'a>> {
        let Some(peek) = self.whitespace() else {
            return Err(self.peek_error(EOF_VALUE));
        };
        Ok(match peek {
            b'n' => {
                self.index += 1;
                self.ident(b"ull")?;
                Value::Null
            }
            b't' => {
                self.index += 1;
                self.ident(b"rue")?;
                Value::Bool(true)
            }
            b'f' => {
                self.index += 1;
                self.ident(b"alse")?;
                Value::Bool(false)
            }
            b'-' => {
                self.index += 1;
                Value::Number(self.number(self.index - 1)?)
            }
            b'0'..=b'9' => Value::Number(self.number(self.index)?),
            b'"' => {
                self.index += 1;
                Value::String(self.string_body()?)
            }
            b'[' => Value::Array(self.seq(A_SEQUENCE, Reader::value)?),
            b'{' => Value::Object(self.map(A_MAP, Reader::value)?),
            _ => return Err(self.peek_error(EXPECTED_VALUE)),
        })
    }

    /// Reads a string (serde's `String`).
    pub(crate) fn string(&mut self) -> Result<Cow<'a, str>> {
        match self.whitespace() {
            None => Err(self.peek_error(EOF_VALUE)),
            Some(b'"') => {
                self.index += 1;
                self.string_body()
            }
            Some(_) => Err(self.invalid_type(A_STRING)),
        }
    }

    /// Reads an array, each item with `item`; `expected` names it when it is not one.
    pub(crate) fn seq<T>(
        &mut self,
        expected: &'static str,
        mut item: impl FnMut(&mut Self) -> Result<T>,
    ) -> Result<Vec<T>> {
        match self.whitespace() {
            None => return Err(self.peek_error(EOF_VALUE)),
            Some(b'[') => {}
            Some(_) => return Err(self.invalid_type(expected)),
        }
        self.enter()?;
        let mut items = Vec::new();
        loop {
            match self.whitespace() {
                None => return Err(self.peek_error(EOF_LIST)),
                Some(b']') => break,
                Some(_) if items.is_empty() => {}
                Some(b',') => {
                    self.index += 1;
                    match self.whitespace() {
                        Some(b']') => return Err(self.peek_error(TRAILING_COMMA)),
                        Some(_) => {}
                        None => return Err(self.peek_error(EOF_VALUE)),
                    }
                }
                Some(_) => return Err(self.peek_error(EXPECTED_LIST_COMMA)),
            }
            items.push(item(self)?);
        }
        self.index += 1;
        self.remaining_depth += 1;
        Ok(items)
    }

    /// Reads an object's members in order, repeated keys kept, each value with `value`.
    pub(crate) fn map<T>(
        &mut self,
        expected: &'static str,
        mut value: impl FnMut(&mut Self) -> Result<T>,
    ) -> Result<Vec<(Cow<'a, str>, T)>> {
        match self.whitespace() {
            None => return Err(self.peek_error(EOF_VALUE)),
            Some(b'{') => {}
            Some(_) => return Err(self.invalid_type(expected)),
        }
        self.enter()?;
        let mut members = Vec::new();
        loop {
            match self.whitespace() {
                None => return Err(self.peek_error(EOF_OBJECT)),
                Some(b'}') => break,
                Some(b'"') if members.is_empty() => {}
                Some(_) if members.is_empty() => return Err(self.peek_error(KEY_MUST_BE_STRING)),
                Some(b',') => {
                    self.index += 1;
                    match self.whitespace() {
                        Some(b'"') => {}
                        Some(b'}') => return Err(self.peek_error(TRAILING_COMMA)),
                        Some(_) => return Err(self.peek_error(KEY_MUST_BE_STRING)),
                        None => return Err(self.peek_error(EOF_VALUE)),
                    }
                }
                Some(_) => return Err(self.peek_error(EXPECTED_OBJECT_COMMA)),
            }
            self.index += 1;
            let key = self.string_body()?;
            match self.whitespace() {
                Some(b':') => self.index += 1,
                Some(_) => return Err(self.peek_error(EXPECTED_COLON)),
                None => return Err(self.peek_error(EOF_OBJECT)),
            }
            members.push((key, value(self)?));
        }
        self.index += 1;
        self.remaining_depth += 1;
        Ok(members)
    }

    /// Opens a container at the next byte, within the depth limit.
    fn enter(&mut self) -> Result<()> {
        self.remaining_depth -= 1;
        if self.remaining_depth == 0 {
            return Err(self.peek_error(RECURSION_LIMIT));
        }
        self.index += 1;
        Ok(())
    }

    /// serde's "invalid type" for the value at the next byte, read to its end
    /// (a container is not read: the message is about its first byte).
    fn invalid_type(&mut self, expected: &'static str) -> Error {
        let start = self.index;
        let got: Result<Cow<'static, str>> = match self.peek_or_null() {
            b'n' => {
                self.index += 1;
                self.ident(b"ull").map(|()| "null".into())
            }
            b't' => {
                self.index += 1;
                self.ident(b"rue").map(|()| "boolean `true`".into())
            }
            b'f' => {
                self.index += 1;
                self.ident(b"alse").map(|()| "boolean `false`".into())
            }
            b'-' | b'0'..=b'9' => {
                if self.peek_or_null() == b'-' {
                    self.index += 1;
                }
                self.number(start).map(|n| match (n.parse::<u64>(), n.parse::<i64>()) {
                    (Ok(u), _) if !n.starts_with('-') => format!("integer `{u}`").into(),
                    (_, Ok(i)) if n.starts_with('-') && n != "-0" => format!("integer `{i}`").into(),
                    _ => "number".into(),
                })
            }
            b'"' => {
                self.index += 1;
                self.string_body().map(|s| format!("string {s:?}").into())
            }
            b'[' => Ok("sequence".into()),
            b'{' => Ok("map".into()),
            _ => return self.peek_error(EXPECTED_VALUE),
        };
        match got {
            Ok(got) => self.at(self.index, format!("invalid type: {got}, expected {expected}"), true),
            Err(e) => e,
        }
    }
}
