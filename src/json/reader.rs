//! The JSON reader: serde_json 1.0's parsing rules, its messages and the
//! line and column they give, ported so that every refusal a caller has seen
//! reads the same. Members read as raw text are skipped without recursion (any
//! depth); values read whole stop at serde_json's limit of 128 nested levels.
//!
//! Each `error` is about the byte just consumed and each `peek_error` about
//! the byte about to be read, as in serde_json: that choice is what puts a
//! message one column left or right.

use std::borrow::Cow;
use std::fmt;

/// A reading failure, displayed as serde_json displays it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Error {
    message: Cow<'static, str>,
    /// A type mismatch (serde_json's `Category::Data`) rather than bad syntax.
    data: bool,
    line: usize,
    column: usize,
}

impl Error {
    pub(crate) fn is_data(&self) -> bool {
        self.data
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at line {} column {}", self.message, self.line, self.column)
    }
}

pub(crate) type Result<T> = std::result::Result<T, Error>;

pub(super) const EOF_LIST: &str = "EOF while parsing a list";
pub(super) const EOF_OBJECT: &str = "EOF while parsing an object";
const EOF_STRING: &str = "EOF while parsing a string";
pub(super) const EOF_VALUE: &str = "EOF while parsing a value";
pub(super) const EXPECTED_COLON: &str = "expected `:`";
pub(super) const EXPECTED_LIST_COMMA: &str = "expected `,` or `]`";
pub(super) const EXPECTED_OBJECT_COMMA: &str = "expected `,` or `}`";
const EXPECTED_IDENT: &str = "expected ident";
pub(super) const EXPECTED_VALUE: &str = "expected value";
const INVALID_ESCAPE: &str = "invalid escape";
const INVALID_NUMBER: &str = "invalid number";
const CONTROL_CHARACTER: &str = "control character (\\u0000-\\u001F) found while parsing a string";
pub(super) const KEY_MUST_BE_STRING: &str = "key must be a string";
const LONE_SURROGATE: &str = "lone leading surrogate in hex escape";
pub(super) const TRAILING_COMMA: &str = "trailing comma";
const TRAILING_CHARACTERS: &str = "trailing characters";
const END_OF_HEX_ESCAPE: &str = "unexpected end of hex escape";
pub(super) const RECURSION_LIMIT: &str = "recursion limit exceeded";

/// What a typed read expects, in serde's words.
pub(crate) const A_JSON_OBJECT: &str = "a JSON object";
pub(crate) const A_SEQUENCE: &str = "a sequence";
pub(crate) const A_STRING: &str = "a string";
pub(crate) const A_MAP: &str = "a map";

pub(crate) struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pub(super) index: usize,
    /// Containers that may still be opened while reading whole values.
    pub(super) remaining_depth: u8,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(text: &'a str) -> Self {
        Reader {
            text,
            bytes: text.as_bytes(),
            index: 0,
            remaining_depth: 128,
        }
    }

    /// Reads `text` with `read`, then refuses anything but whitespace after it.
    pub(crate) fn read_all<T>(text: &'a str, read: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        let mut reader = Reader::new(text);
        let value = read(&mut reader)?;
        match reader.whitespace() {
            Some(_) => Err(reader.peek_error(TRAILING_CHARACTERS)),
            None => Ok(value),
        }
    }

    fn position(&self, i: usize) -> (usize, usize) {
        let before = &self.bytes[..i];
        let start_of_line = before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        let line = 1 + before[..start_of_line].iter().filter(|&&b| b == b'\n').count();
        (line, i - start_of_line)
    }

    pub(super) fn at(&self, i: usize, message: impl Into<Cow<'static, str>>, data: bool) -> Error {
        let (line, column) = self.position(i);
        Error {
            message: message.into(),
            data,
            line,
            column,
        }
    }

    /// About the byte just consumed.
    fn error(&self, message: &'static str) -> Error {
        self.at(self.index, message, false)
    }

    /// About the byte about to be read.
    pub(super) fn peek_error(&self, message: &'static str) -> Error {
        self.at(self.bytes.len().min(self.index + 1), message, false)
    }

    pub(super) fn peek(&self) -> Option<u8> {
        self.bytes.get(self.index).copied()
    }

    pub(super) fn peek_or_null(&self) -> u8 {
        self.peek().unwrap_or(0)
    }

    fn next(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.index += 1;
        Some(b)
    }

    /// Skips whitespace; the next byte, not consumed.
    pub(crate) fn whitespace(&mut self) -> Option<u8> {
        while let Some(b' ' | b'\n' | b'\t' | b'\r') = self.peek() {
            self.index += 1;
        }
        self.peek()
    }

    pub(super) fn ident(&mut self, rest: &[u8]) -> Result<()> {
        for expected in rest {
            match self.next() {
                None => return Err(self.error(EOF_VALUE)),
                Some(b) if b != *expected => return Err(self.error(EXPECTED_IDENT)),
                Some(_) => {}
            }
        }
        Ok(())
    }

    // Strings.

    /// Moves to the next `"`, `\` or control character.
    fn skip_to_escape(&mut self) {
        self.index = super::next_special(self.bytes, self.index);
    }

    /// Reads a string whose opening quote was consumed.
    pub(super) fn string_body(&mut self) -> Result<Cow<'a, str>> {
        let mut owned: Option<String> = None;
        let mut start = self.index;
        loop {
            self.skip_to_escape();
            let Some(b) = self.peek() else {
                return Err(self.error(EOF_STRING));
            };
            let text = self.text;
            match b {
                b'"' => {
                    let tail = &text[start..self.index];
                    self.index += 1;
                    return Ok(match owned {
                        None => Cow::Borrowed(tail),
                        Some(mut s) => {
                            s.push_str(tail);
                            Cow::Owned(s)
                        }
                    });
                }
                b'\\' => {
                    let s = owned.get_or_insert_with(String::new);
                    s.push_str(&text[start..self.index]);
                    self.index += 1;
                    self.escape(s)?;
                    start = self.index;
                }
                _ => {
                    self.index += 1;
                    return Err(self.error(CONTROL_CHARACTER));
                }
            }
        }
    }

    fn next_in_string(&mut self) -> Result<u8> {
        self.next().ok_or_else(|| self.error(EOF_STRING))
    }

    fn hex_escape(&mut self) -> Result<u16> {
        let Some(digits) = self.bytes.get(self.index..self.index + 4) else {
            self.index = self.bytes.len();
            return Err(self.error(EOF_STRING));
        };
        self.index += 4;
        let mut n = 0u16;
        for &d in digits {
            let v = match d {
                b'0'..=b'9' => d - b'0',
                b'a'..=b'f' => d - b'a' + 10,
                b'A'..=b'F' => d - b'A' + 10,
                _ => return Err(self.error(INVALID_ESCAPE)),
            };
            n = n << 4 | u16::from(v);
        }
        Ok(n)
    }

    fn escape(&mut self, out: &mut String) -> Result<()> {
        out.push(match self.next_in_string()? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\x08',
            b'f' => '\x0c',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let n = self.hex_escape()?;
                let code = match n {
                    0xDC00..=0xDFFF => return Err(self.error(LONE_SURROGATE)),
                    0xD800..=0xDBFF => {
                        for want in [b'\\', b'u'] {
                            let b = self.peek().ok_or_else(|| self.error(EOF_STRING))?;
                            self.index += 1;
                            if b != want {
                                return Err(self.error(END_OF_HEX_ESCAPE));
                            }
                        }
                        let low = self.hex_escape()?;
                        if !(0xDC00..=0xDFFF).contains(&low) {
                            return Err(self.error(LONE_SURROGATE));
                        }
                        ((u32::from(n) - 0xD800) << 10 | (u32::from(low) - 0xDC00)) + 0x1_0000
                    }
                    n => u32::from(n),
                };
                char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER)
            }
            _ => return Err(self.error(INVALID_ESCAPE)),
        });
        Ok(())
    }

    /// Checks a string whose opening quote was consumed, surrogates unpaired or not.
    fn skip_string_body(&mut self) -> Result<()> {
        loop {
            self.skip_to_escape();
            match self.peek() {
                None => return Err(self.error(EOF_STRING)),
                Some(b'"') => {
                    self.index += 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    self.index += 1;
                    match self.next_in_string()? {
                        b'"' | b'\\' | b'/' | b'b' | b'f' | b'n' | b'r' | b't' => {}
                        b'u' => {
                            self.hex_escape()?;
                        }
                        _ => return Err(self.error(INVALID_ESCAPE)),
                    }
                }
                Some(_) => return Err(self.error(CONTROL_CHARACTER)),
            }
        }
    }

    // Numbers skipped (inside raw values).

    fn skip_integer(&mut self) -> Result<()> {
        match self.next().unwrap_or(0) {
            b'0' => {
                if self.peek_or_null().is_ascii_digit() {
                    return Err(self.peek_error(INVALID_NUMBER));
                }
            }
            b'1'..=b'9' => self.skip_digits(),
            _ => return Err(self.error(INVALID_NUMBER)),
        }
        match self.peek_or_null() {
            b'.' => {
                self.index += 1;
                let from = self.index;
                self.skip_digits();
                if self.index == from {
                    return Err(self.peek_error(INVALID_NUMBER));
                }
                if matches!(self.peek_or_null(), b'e' | b'E') {
                    self.skip_exponent()?;
                }
                Ok(())
            }
            b'e' | b'E' => self.skip_exponent(),
            _ => Ok(()),
        }
    }

    fn skip_digits(&mut self) {
        while self.peek_or_null().is_ascii_digit() {
            self.index += 1;
        }
    }

    fn skip_exponent(&mut self) -> Result<()> {
        self.index += 1;
        if matches!(self.peek_or_null(), b'+' | b'-') {
            self.index += 1;
        }
        if !self.next().unwrap_or(0).is_ascii_digit() {
            return Err(self.error(INVALID_NUMBER));
        }
        self.skip_digits();
        Ok(())
    }

    // Numbers read (whole values): serde_json's `arbitrary_precision` text,
    // which writes an exponent as `e`, `+` included.

    /// The number whose `-`, if any, was consumed; `start` is where it began.
    pub(super) fn number(&mut self, start: usize) -> Result<Cow<'a, str>> {
        let Some(first) = self.next() else {
            return Err(self.error(EOF_VALUE));
        };
        match first {
            b'0' if self.peek_or_null().is_ascii_digit() => return Err(self.peek_error(INVALID_NUMBER)),
            b'0' => {}
            b'1'..=b'9' => self.skip_digits(),
            _ => return Err(self.error(INVALID_NUMBER)),
        }
        if self.peek_or_null() == b'.' {
            self.index += 1;
            let from = self.index;
            self.skip_digits();
            if self.index == from {
                return Err(match self.peek() {
                    Some(_) => self.peek_error(INVALID_NUMBER),
                    None => self.peek_error(EOF_VALUE),
                });
            }
        }
        if !matches!(self.peek_or_null(), b'e' | b'E') {
            return Ok(Cow::Borrowed(&self.text[start..self.index]));
        }
        let mut written = String::with_capacity(self.index - start + 3);
        written.push_str(&self.text[start..self.index]);
        written.push('e');
        self.index += 1;
        match self.peek_or_null() {
            sign @ (b'+' | b'-') => {
                self.index += 1;
                written.push(char::from(sign));
            }
            _ => written.push('+'),
        }
        match self.next() {
            None => return Err(self.error(EOF_VALUE)),
            Some(b) if !b.is_ascii_digit() => return Err(self.error(INVALID_NUMBER)),
            Some(_) => {}
        }
        let from = self.index - 1;
        self.skip_digits();
        written.push_str(&self.text[from..self.index]);
        Ok(Cow::Owned(written))
    }

    // Raw values.

    /// Skips one value without recursion; its text.
    pub(crate) fn raw(&mut self) -> Result<&'a str> {
        self.whitespace();
        let start = self.index;
        self.skip_value()?;
        Ok(&self.text[start..self.index])
    }

    fn skip_value(&mut self) -> Result<()> {
        // The open containers around the value being read, innermost last.
        let mut open: Vec<u8> = Vec::new();
        loop {
            let Some(peek) = self.whitespace() else {
                return Err(self.peek_error(EOF_VALUE));
            };
            let mut accept_comma = true;
            match peek {
                b'n' => {
                    self.index += 1;
                    self.ident(b"ull")?;
                }
                b't' => {
                    self.index += 1;
                    self.ident(b"rue")?;
                }
                b'f' => {
                    self.index += 1;
                    self.ident(b"alse")?;
                }
                b'-' => {
                    self.index += 1;
                    self.skip_integer()?;
                }
                b'0'..=b'9' => self.skip_integer()?,
                b'"' => {
                    self.index += 1;
                    self.skip_string_body()?;
                }
                b'[' | b'{' => {
                    self.index += 1;
                    open.push(peek);
                    accept_comma = false;
                }
                _ => return Err(self.peek_error(EXPECTED_VALUE)),
            }
            // Close what ends here; stop at a comma or the next member.
            loop {
                let Some(&frame) = open.last() else {
                    return Ok(());
                };
                match self.whitespace() {
                    Some(b',') if accept_comma => {
                        self.index += 1;
                        break;
                    }
                    Some(b']') if frame == b'[' => {}
                    Some(b'}') if frame == b'{' => {}
                    Some(_) if accept_comma => {
                        return Err(self.peek_error(if frame == b'[' {
                            EXPECTED_LIST_COMMA
                        } else {
                            EXPECTED_OBJECT_COMMA
                        }))
                    }
                    Some(_) => break,
                    None => return Err(self.peek_error(if frame == b'[' { EOF_LIST } else { EOF_OBJECT })),
                }
                self.index += 1;
                open.pop();
                accept_comma = true;
            }
            if open.last() == Some(&b'{') {
                match self.whitespace() {
                    Some(b'"') => self.index += 1,
                    Some(_) => return Err(self.peek_error(KEY_MUST_BE_STRING)),
                    None => return Err(self.peek_error(EOF_OBJECT)),
                }
                self.skip_string_body()?;
                match self.whitespace() {
                    Some(b':') => self.index += 1,
                    Some(_) => return Err(self.peek_error(EXPECTED_COLON)),
                    None => return Err(self.peek_error(EOF_OBJECT)),
                }
            }
        }
    }
}
