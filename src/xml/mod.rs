//! XML shared by every envelope: escaping that keeps any text well-formed
//! (forbidden characters become U+FFFD, never dropped), and a reader that
//! names the byte position of whatever is wrong.
//!
//! The reader is hand-written (it replaced quick-xml 0.42 to make the
//! component smaller) and keeps that reader's behaviour exactly: the same
//! events, the same byte positions (`pos` is quick-xml's `buffer_position`,
//! a failure's `at` its `error_position`) and the same messages, so envelopes
//! read and are refused as before in every host. It is a loop over the input
//! with a stack of open element names: no recursion, whatever the nesting.

use crate::error::ParseError;
use std::collections::HashSet;

mod escape;

pub use escape::REPLACEMENT;
pub(crate) use escape::{element, escape_attribute, escape_content, more_line, replace_forbidden};

/// What the reader found next; the end of input is `None`.
pub(crate) enum Event<'a> {
    Start(Tag<'a>),
    Empty(Tag<'a>),
    End,
    /// Raw text up to the next `<` or `&`.
    Text(&'a str),
    CData(&'a str),
    /// The name between `&` and `;`.
    Ref(&'a str),
    /// A comment or processing instruction: never part of the content.
    Ignored,
    /// An XML declaration or a DOCTYPE, which no envelope holds.
    Other,
}

/// A start or empty-element tag: what lies between `<` and `>` (or `/>`).
#[derive(Clone, Copy)]
pub(crate) struct Tag<'a> {
    content: &'a str,
    name_len: usize,
}

impl<'a> Tag<'a> {
    /// Everything up to the first whitespace, as quick-xml named it.
    pub(crate) fn name(&self) -> &'a str {
        &self.content[..self.name_len]
    }
}

/// A failure while reading: where quick-xml reported it, and its message.
struct Failure {
    at: usize,
    why: String,
}

fn fail<T>(at: usize, why: impl Into<String>) -> Result<T, Failure> {
    Err(Failure { at, why: why.into() })
}

/// quick-xml's message for markup the input ends inside of.
fn unclosed(what: &str) -> String {
    format!("syntax error: {what} not found before end of input")
}

/// XML's whitespace (`is_ascii_whitespace` would also take form feed).
fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// The index of the first byte at or after `from` that `stop` accepts.
fn find(bytes: &[u8], from: usize, stop: impl Fn(u8) -> bool) -> Option<usize> {
    bytes.get(from..)?.iter().position(|&b| stop(b)).map(|i| from + i)
}

/// The `>` ending a tag that starts at `from`, skipping quoted attribute values.
fn tag_end(bytes: &[u8], from: usize) -> Result<usize, &'static str> {
    let mut quote = None;
    for (i, &b) in bytes.iter().enumerate().skip(from) {
        match (quote, b) {
            (None, b'>') => return Ok(i),
            (None, b'"' | b'\'') => quote = Some(b),
            (Some(q), b) if q == b => quote = None,
            _ => {}
        }
    }
    Err(match quote {
        None => "tag not closed: `>`",
        Some(b'"') => "attribute value not closed: `\"`",
        Some(_) => "attribute value not closed: `'`",
    })
}

/// The `>` ending a DOCTYPE that starts at `from`, stepping over quoted
/// literals and the markup of an internal subset as quick-xml did.
fn doctype_end(b: &[u8], mut i: usize) -> Option<usize> {
    loop {
        let j = find(b, i, |c| matches!(c, b'\'' | b'"' | b'[' | b'>'))?;
        match b[j] {
            b'>' => return Some(j),
            b'[' => {
                i = j + 1;
                break;
            }
            quote => i = find(b, j + 1, |c| c == quote)? + 1,
        }
    }
    loop {
        let j = find(b, i, |c| c == b']' || c == b'<')?;
        if b[j] == b']' {
            return find(b, j + 1, |c| c == b'>');
        }
        let m = j + 1; // just after `<`
        let rest = &b[m..];
        let keyword = |k: &[u8]| rest.starts_with(k).then_some(m + k.len());
        i = if rest.starts_with(b"?") {
            // A processing instruction ends at `?>`; the search resumes at its `>`.
            (m + 2..b.len()).find(|&k| b[k] == b'>' && b[k - 1] == b'?')?
        } else if rest.starts_with(b"!--") {
            (m + 3..b.len()).find(|&k| b[k] == b'>' && b[m + 3..k].ends_with(b"--"))? + 1
        } else if let Some(k) = keyword(b"!ELEMENT") {
            find(b, k, |c| c == b'>')? + 1
        } else if let Some(k) = keyword(b"!ENTITY")
            .or_else(|| keyword(b"!ATTLIST"))
            .or_else(|| keyword(b"!NOTATION"))
        {
            tag_end(b, k).ok()?
        } else {
            find(b, m, |c| c == b'>')? + 1
        };
    }
}

/// The five entities XML predefines.
fn predefined(name: &str) -> Option<&'static str> {
    Some(match name {
        "lt" => "<",
        "gt" => ">",
        "amp" => "&",
        "apos" => "'",
        "quot" => "\"",
        _ => return None,
    })
}

/// The character of a reference `&#{num};`. Like quick-xml, any Unicode
/// scalar value except U+0000 is accepted.
fn char_ref(num: &str) -> Result<char, String> {
    let (digits, radix) = match num.strip_prefix('x') {
        Some(hex) => (hex, 16),
        None => (num, 10),
    };
    let why = match digits.as_bytes().first() {
        // `from_str_radix` would take a sign.
        Some(b'+' | b'-') => "unexpected number sign".to_owned(),
        _ => match u32::from_str_radix(digits, radix) {
            Ok(0) => "0x0 character is not permitted in XML".to_owned(),
            Ok(code) => match char::from_u32(code) {
                Some(c) => return Ok(c),
                None => format!("`{code}` is not a valid codepoint"),
            },
            Err(e) => e.to_string(),
        },
    };
    Err(format!("invalid character reference: {why}"))
}

/// Appends what the reference `&{name};` stands for; `false` for an unknown entity.
fn push_reference(out: &mut String, name: &str) -> Result<bool, String> {
    match (name.strip_prefix('#'), predefined(name)) {
        (Some(num), _) => out.push(char_ref(num)?),
        (None, Some(text)) => out.push_str(text),
        (None, None) => return Ok(false),
    }
    Ok(true)
}

/// Appends text with XML 1.0 line ends: CRLF and a lone CR become LF.
fn push_xml10_lines(out: &mut String, text: &str) {
    let mut lines = text.split('\r');
    out.push_str(lines.next().unwrap_or(""));
    for line in lines {
        out.push('\n');
        out.push_str(line.strip_prefix('\n').unwrap_or(line));
    }
}

/// An attribute value normalized as XML 1.0 says: references resolved, each
/// literal tab, LF, CR or CRLF one space.
fn normalize_attribute(value: &str) -> Result<String, String> {
    let b = value.as_bytes();
    let mut out = String::with_capacity(value.len());
    let (mut i, mut copied) = (0, 0);
    while i < b.len() {
        let next = match b[i] {
            b'&' => {
                out.push_str(&value[copied..i]);
                let Some(end) = find(b, i + 1, |c| c == b';') else {
                    let range = i..b.len();
                    return Err(format!(
                        "Error while escaping character at range {range:?}: Cannot find ';' after '&'"
                    ));
                };
                let name = &value[i + 1..end];
                if !push_reference(&mut out, name)? {
                    let range = i + 1..end;
                    return Err(format!("at {range:?}: unrecognized entity `{name}`"));
                }
                end + 1
            }
            b'\t' | b'\n' | b'\r' => {
                out.push_str(&value[copied..i]);
                out.push(' ');
                i + 1 + usize::from(b[i] == b'\r' && b.get(i + 1) == Some(&b'\n'))
            }
            _ => {
                i += 1;
                continue;
            }
        };
        i = next;
        copied = next;
    }
    out.push_str(&value[copied..]);
    Ok(out)
}

/// A reader over one envelope; every failure names its byte position.
pub(crate) struct XmlReader<'a> {
    text: &'a str,
    /// Just after the last event read: where most failures are reported.
    pos: usize,
    /// The names of the open elements, innermost last.
    open: Vec<&'a str>,
    what: &'static str,
}

impl<'a> XmlReader<'a> {
    /// `text` starts at the envelope's `<`, so no byte-order mark precedes it.
    pub(crate) fn new(text: &'a str, what: &'static str) -> Self {
        XmlReader {
            text,
            pos: 0,
            open: Vec::new(),
            what,
        }
    }

    pub(crate) fn malformed<T>(&self, why: impl std::fmt::Display) -> Result<T, ParseError> {
        self.malformed_at(self.pos, why)
    }

    fn malformed_at<T>(&self, at: usize, why: impl std::fmt::Display) -> Result<T, ParseError> {
        let what = self.what;
        Err(ParseError::Malformed(format!("malformed {what} at byte {at}: {why}")))
    }

    pub(crate) fn next(&mut self) -> Result<Event<'a>, ParseError> {
        match self.read_event() {
            Ok(Some(event)) => Ok(event),
            Ok(None) => self.malformed("the envelope ends before its closing tag"),
            Err(failure) => self.malformed_at(failure.at, failure.why),
        }
    }

    /// The next event: quick-xml's tokens, with its positions and checks
    /// (end tags must match; comments' `--` and names are not checked).
    fn read_event(&mut self) -> Result<Option<Event<'a>>, Failure> {
        let (text, bytes, start) = (self.text, self.text.as_bytes(), self.pos);
        match bytes.get(start) {
            None => Ok(None),
            Some(b'<') => self.markup(start).map(Some),
            Some(b'&') => match find(bytes, start + 1, |b| matches!(b, b';' | b'&' | b'<')) {
                Some(end) if bytes[end] == b';' => {
                    self.pos = end + 1;
                    Ok(Some(Event::Ref(&text[start + 1..end])))
                }
                stop => {
                    self.pos = stop.unwrap_or(bytes.len());
                    fail(
                        start,
                        "ill-formed document: entity or character reference not closed: `;` not found before end of input",
                    )
                }
            },
            Some(_) => {
                self.pos = find(bytes, start, |b| b == b'<' || b == b'&').unwrap_or(bytes.len());
                Ok(Some(Event::Text(&text[start..self.pos])))
            }
        }
    }

    /// The markup starting with the `<` at `start`. Failures are reported at
    /// that `<`; `pos` moves past whatever was consumed.
    fn markup(&mut self, start: usize) -> Result<Event<'a>, Failure> {
        let (text, bytes) = (self.text, self.text.as_bytes());
        match bytes.get(start + 1) {
            None => fail(start, unclosed("tag not closed: `>`")),
            Some(b'!') => self.bang(start),
            Some(b'?') => {
                let Some(end) = (start + 2..bytes.len()).find(|&k| bytes[k] == b'>' && bytes[k - 1] == b'?') else {
                    let decl = bytes[start..].starts_with(b"<?xml")
                        && bytes.get(start + 5).is_none_or(|&b| is_space(b) || b == b'?');
                    let what = if decl {
                        "XML declaration"
                    } else {
                        "processing instruction"
                    };
                    return self.cut_off(start, &format!("{what} not closed: `?>`"));
                };
                self.pos = end + 1;
                if end - start < 3 {
                    // `<?>`: its `?` cannot both open and close it.
                    return fail(start, unclosed("processing instruction not closed: `?>`"));
                }
                let content = &bytes[start + 2..end - 1];
                let decl = content.starts_with(b"xml") && content.get(3).is_none_or(|&b| is_space(b));
                Ok(if decl { Event::Other } else { Event::Ignored })
            }
            Some(&second) => {
                let end = match tag_end(bytes, start) {
                    Ok(end) => end,
                    Err(what) => return self.cut_off(start, what),
                };
                self.pos = end + 1;
                if second == b'/' {
                    return self.end_tag(start, &text[start + 2..end]);
                }
                let (content, empty) = match text[start + 1..end].strip_suffix('/') {
                    Some(content) => (content, true),
                    None => (&text[start + 1..end], false),
                };
                let name_len = find(content.as_bytes(), 0, is_space).unwrap_or(content.len());
                let tag = Tag { content, name_len };
                if empty {
                    return Ok(Event::Empty(tag));
                }
                self.open.push(tag.name());
                Ok(Event::Start(tag))
            }
        }
    }

    /// Markup at `start` the input ends inside of: all of it is consumed.
    fn cut_off<T>(&mut self, start: usize, what: &str) -> Result<T, Failure> {
        self.pos = self.text.len();
        fail(start, unclosed(what))
    }

    /// An end tag whose text between `</` and `>` is `content`.
    fn end_tag(&mut self, start: usize, content: &'a str) -> Result<Event<'a>, Failure> {
        // Whitespace may follow the name (an all-whitespace name stays as is).
        let found = match content.as_bytes().iter().rposition(|&b| !is_space(b)) {
            Some(last) => &content[..=last],
            None => content,
        };
        match self.open.pop() {
            Some(expected) if expected == found => Ok(Event::End),
            Some(expected) => fail(
                start,
                format!("ill-formed document: expected `</{expected}>`, but `</{found}>` was found"),
            ),
            None => fail(
                start,
                format!("ill-formed document: close tag `</{found}>` does not match any open tag"),
            ),
        }
    }

    /// `<!`: a comment, a CDATA section or a DOCTYPE.
    fn bang(&mut self, start: usize) -> Result<Event<'a>, Failure> {
        let bytes = self.text.as_bytes();
        let rest = &bytes[start..];
        let (end, kind) = match bytes.get(start + 2) {
            Some(b'-') => (
                // The closing `--` shares no dash with `<!--`: `<!-->` and `<!--->` go on.
                (start + 6..bytes.len()).find(|&k| bytes[k] == b'>' && bytes[..k].ends_with(b"--")),
                "comment not closed: `-->`",
            ),
            Some(b'[') => (
                (start + 3..bytes.len()).find(|&k| bytes[k] == b'>' && bytes[..k].ends_with(b"]]")),
                "CDATA not closed: `]]>`",
            ),
            Some(b'D' | b'd') => (doctype_end(bytes, start), "DOCTYPE not closed: `>`"),
            _ => return fail(start, "syntax error: unknown or missed symbol in markup"),
        };
        let Some(end) = end else {
            return self.cut_off(start, kind);
        };
        self.pos = end + 1;
        let markup = &rest[..end + 1 - start];
        match bytes[start + 2] {
            b'-' if markup.starts_with(b"<!--") => Ok(Event::Ignored),
            b'[' if markup.starts_with(b"<![CDATA[") => Ok(Event::CData(&self.text[start + 9..end - 2])),
            b'D' | b'd' if markup.len() > 9 && markup[..9].eq_ignore_ascii_case(b"<!DOCTYPE") => {
                if markup[9..markup.len() - 1].iter().all(|&b| is_space(b)) {
                    return fail(
                        end,
                        "ill-formed document: `<!DOCTYPE>` declaration does not contain a name of a document type",
                    );
                }
                Ok(Event::Other)
            }
            // Opened like one of them but not spelled as one: quick-xml calls it unclosed.
            _ => fail(start, unclosed(kind)),
        }
    }

    /// The next element start (or `None` at the closing tag of the parent),
    /// skipping whitespace, comments and processing instructions between elements.
    pub(crate) fn next_child(&mut self) -> Result<Option<(Tag<'a>, bool)>, ParseError> {
        loop {
            match self.next()? {
                Event::Start(start) => return Ok(Some((start, false))),
                Event::Empty(start) => return Ok(Some((start, true))),
                Event::End => return Ok(None),
                Event::Text(t) if t.bytes().all(|b| b.is_ascii_whitespace()) => {}
                Event::Ignored => {}
                _ => return self.malformed("text between sections"),
            }
        }
    }

    /// The text of a leaf element whose start tag was just read.
    pub(crate) fn text(&mut self, start: &Tag<'_>, empty: bool) -> Result<String, ParseError> {
        let mut out = String::new();
        if empty {
            return Ok(out);
        }
        loop {
            match self.next()? {
                Event::Text(t) => push_xml10_lines(&mut out, t),
                // CDATA keeps its line ends as written, as quick-xml's reader did.
                Event::CData(c) => out.push_str(c),
                Event::Ref(name) => match push_reference(&mut out, name) {
                    Ok(true) => {}
                    Ok(false) => return self.malformed(format_args!("unknown entity &{name};")),
                    Err(why) => return self.malformed(why),
                },
                Event::End => return Ok(out),
                Event::Ignored => {}
                _ => {
                    let name = start.name();
                    return self.malformed(format_args!("an element inside <{name}>, which holds only text"));
                }
            }
        }
    }

    /// Skips the rest of an element whose start tag was just read (its name
    /// is the innermost open one), reporting failures where reading stopped.
    pub(crate) fn skip(&mut self, start: &Tag<'_>, empty: bool) -> Result<(), ParseError> {
        if empty {
            return Ok(());
        }
        let depth = self.open.len();
        loop {
            match self.read_event() {
                Ok(Some(Event::End)) if self.open.len() < depth => return Ok(()),
                Ok(Some(_)) => {}
                Ok(None) => {
                    let name = start.name();
                    return self.malformed(format_args!(
                        "ill-formed document: start tag not closed: `</{name}>` not found before end of input"
                    ));
                }
                Err(failure) => return self.malformed(failure.why),
            }
        }
    }

    /// An attribute's value, unescaped and normalized as XML 1.0 says.
    pub(crate) fn attribute(&self, start: &Tag<'_>, name: &str) -> Result<Option<String>, ParseError> {
        match raw_attribute(start, name) {
            Ok(Some(raw)) => normalize_attribute(raw).map(Some).or_else(|why| self.malformed(why)),
            Ok(None) => Ok(None),
            Err(why) => self.malformed(why),
        }
    }

    /// An attribute the element must have.
    pub(crate) fn required_attribute(&self, start: &Tag<'_>, element: &str, name: &str) -> Result<String, ParseError> {
        match self.attribute(start, name)? {
            Some(value) => Ok(value),
            None => self.malformed(format_args!("<{element}> has no {name} attribute")),
        }
    }

    /// The `count` attribute of a `<more_fields>` or `<more_deltas>` line.
    pub(crate) fn count_attribute(&self, start: &Tag<'_>) -> Result<usize, ParseError> {
        let name = start.name();
        let text = self.required_attribute(start, name, "count")?;
        text.parse()
            .or_else(|_| self.malformed(format_args!("<{name}> count is {text:?}, not a number")))
    }
}

/// The raw value of the first attribute called `name`. The attributes before
/// it are checked as quick-xml checked them (`key="value"` or `key='value'`,
/// no key twice), positions counted from the byte after `<`.
fn raw_attribute<'a>(tag: &Tag<'a>, name: &str) -> Result<Option<&'a str>, String> {
    let (content, b) = (tag.content, tag.content.as_bytes());
    let mut keys: Vec<(&str, usize)> = Vec::new();
    // Past a few keys a set finds a repeated one without comparing every pair.
    let mut seen: Option<HashSet<&str>> = None;
    let at = |position: usize, why: &str| Err(format!("position {position}: {why}"));
    let mut i = tag.name_len;
    loop {
        let Some(key_start) = find(b, i, |c| !is_space(c)) else {
            return Ok(None);
        };
        // The key's first byte is never its end, even when it is `=`.
        let key_end = find(b, key_start + 1, |c| c == b'=' || is_space(c)).unwrap_or(b.len());
        let eq = find(b, key_end, |c| !is_space(c)).unwrap_or(b.len());
        if b.get(eq) != Some(&b'=') {
            return at(eq, "attribute key must be directly followed by `=` or space");
        }
        let key = &content[key_start..key_end];
        let repeated = if keys.len() < 16 {
            keys.iter().any(|(k, _)| *k == key)
        } else {
            !seen
                .get_or_insert_with(|| keys.iter().map(|(k, _)| *k).collect())
                .insert(key)
        };
        if repeated {
            let first = keys.iter().find(|(k, _)| *k == key).map_or(0, |(_, p)| *p);
            return at(
                key_start,
                &format!("duplicated attribute, previous declaration at position {first}"),
            );
        }
        keys.push((key, key_start));
        let Some(open) = find(b, eq + 1, |c| !is_space(c)) else {
            return at(b.len(), "`=` must be followed by an attribute value");
        };
        let quote = b[open];
        if quote != b'"' && quote != b'\'' {
            return at(open, "attribute value must be enclosed in `\"` or `'`");
        }
        let Some(close) = find(b, open + 1, |c| c == quote) else {
            let why = format!("missing closing quote `{}` in attribute value", quote as char);
            return at(b.len(), &why);
        };
        if key == name {
            return Ok(Some(&content[open + 1..close]));
        }
        i = close + 1;
    }
}
