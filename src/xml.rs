//! XML shared by every envelope: escaping that keeps any text well-formed
//! (forbidden characters become U+FFFD, never dropped), and a reader that
//! names the byte position of whatever is wrong.

use crate::error::ParseError;
use quick_xml::escape::resolve_predefined_entity;
use quick_xml::events::{BytesStart, Event};
use quick_xml::{Reader, XmlVersion};

/// Appends `\n{indent}<{name}>{escaped text}</{name}>`.
pub(crate) fn element(out: &mut String, indent: &str, name: &str, text: &str) {
    out.push('\n');
    out.push_str(indent);
    out.push('<');
    out.push_str(name);
    out.push('>');
    escape_content(out, text);
    out.push_str("</");
    out.push_str(name);
    out.push('>');
}

/// Whether XML 1.0 allows the character at all (its `Char` production).
/// Rust strings hold no surrogates, so only C0 controls and U+FFFE/U+FFFF fail.
fn is_xml_char(c: char) -> bool {
    !matches!(c, '\0'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}')
}

/// What stands in for a character XML 1.0 forbids: visible, so nothing vanishes silently.
pub const REPLACEMENT: char = '\u{fffd}';

/// Escapes element content. Only `&` and `<` are escaped, as the specification
/// wants (`>` and quotes stay readable), plus the two cases that would
/// otherwise change the text: `>` after `]]` (the sequence `]]>` is not
/// allowed in content) and CR (which parsers turn into LF).
pub(crate) fn escape_content(out: &mut String, text: &str) {
    if !text
        .chars()
        .any(|c| matches!(c, '&' | '<' | '>' | '\r') || !is_xml_char(c))
    {
        out.push_str(text);
        return;
    }
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' if out.ends_with("]]") => out.push_str("&gt;"),
            '\r' => out.push_str("&#13;"),
            c if !is_xml_char(c) => out.push(REPLACEMENT),
            c => out.push(c),
        }
    }
}

/// Escapes a double-quoted attribute value: also `"`, and the whitespace
/// characters that attribute-value normalization would turn into spaces.
pub(crate) fn escape_attribute(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '"' => out.push_str("&quot;"),
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if !is_xml_char(c) => out.push(REPLACEMENT),
            c => out.push(c),
        }
    }
}

/// Replaces the characters XML 1.0 forbids, as every text renderer does.
pub(crate) fn replace_forbidden(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().all(is_xml_char) {
        std::borrow::Cow::Borrowed(text)
    } else {
        text.chars()
            .map(|c| if is_xml_char(c) { c } else { REPLACEMENT })
            .collect::<String>()
            .into()
    }
}

/// A reader over one envelope; every failure names its byte position.
pub(crate) struct XmlReader<'a> {
    reader: Reader<&'a [u8]>,
    what: &'static str,
}

impl<'a> XmlReader<'a> {
    pub(crate) fn new(text: &'a str, what: &'static str) -> Self {
        XmlReader {
            reader: Reader::from_str(text),
            what,
        }
    }

    pub(crate) fn malformed<T>(&self, why: impl std::fmt::Display) -> Result<T, ParseError> {
        let at = self.reader.buffer_position();
        Err(ParseError::Malformed(format!(
            "malformed {} at byte {at}: {why}",
            self.what
        )))
    }

    pub(crate) fn next(&mut self) -> Result<Event<'a>, ParseError> {
        match self.reader.read_event() {
            Ok(Event::Eof) => self.malformed("the envelope ends before its closing tag"),
            Ok(event) => Ok(event),
            Err(e) => {
                let at = self.reader.error_position();
                Err(ParseError::Malformed(format!(
                    "malformed {} at byte {at}: {e}",
                    self.what
                )))
            }
        }
    }

    /// The next element start (or `None` at the closing tag of the parent),
    /// skipping whitespace, comments and processing instructions between elements.
    pub(crate) fn next_child(&mut self) -> Result<Option<(BytesStart<'a>, bool)>, ParseError> {
        loop {
            match self.next()? {
                Event::Start(start) => return Ok(Some((start, false))),
                Event::Empty(start) => return Ok(Some((start, true))),
                Event::End(_) => return Ok(None),
                Event::Text(t) if t.bytes().all(|b| b.is_ascii_whitespace()) => {}
                Event::Comment(_) | Event::PI(_) => {}
                _ => return self.malformed("text between sections"),
            }
        }
    }

    /// The text of a leaf element whose start tag was just read.
    pub(crate) fn text(&mut self, start: &BytesStart<'_>, empty: bool) -> Result<String, ParseError> {
        let mut out = String::new();
        if empty {
            return Ok(out);
        }
        loop {
            match self.next()? {
                Event::Text(t) => out.push_str(&t.xml10_content()),
                Event::CData(c) => out.push_str(&&*c),
                Event::GeneralRef(r) => match r.resolve_char_ref() {
                    Ok(Some(c)) => out.push(c),
                    Ok(None) => match resolve_predefined_entity(&r) {
                        Some(text) => out.push_str(text),
                        None => return self.malformed(format_args!("unknown entity &{};", &*r)),
                    },
                    Err(e) => return self.malformed(e),
                },
                Event::End(_) => return Ok(out),
                Event::Comment(_) | Event::PI(_) => {}
                _ => {
                    let name = start.name().as_ref().to_owned();
                    return self.malformed(format_args!("an element inside <{name}>, which holds only text"));
                }
            }
        }
    }

    /// Skips the rest of an element whose start tag was just read.
    pub(crate) fn skip(&mut self, start: &BytesStart<'_>, empty: bool) -> Result<(), ParseError> {
        if empty {
            return Ok(());
        }
        match self.reader.read_to_end(start.name()) {
            Ok(_) => Ok(()),
            Err(e) => self.malformed(e),
        }
    }

    /// An attribute's value, unescaped and normalized as XML 1.0 says.
    pub(crate) fn attribute(&self, start: &BytesStart<'_>, name: &str) -> Result<Option<String>, ParseError> {
        for attribute in start.attributes() {
            let attribute = attribute.or_else(|e| self.malformed(e))?;
            if attribute.key.as_ref() == name {
                let value = attribute
                    .normalized_value(XmlVersion::Implicit1_0)
                    .or_else(|e| self.malformed(e))?;
                return Ok(Some(value.into_owned()));
            }
        }
        Ok(None)
    }

    /// An attribute the element must have.
    pub(crate) fn required_attribute(
        &self,
        start: &BytesStart<'_>,
        element: &str,
        name: &str,
    ) -> Result<String, ParseError> {
        match self.attribute(start, name)? {
            Some(value) => Ok(value),
            None => self.malformed(format_args!("<{element}> has no {name} attribute")),
        }
    }

    /// The `count` attribute of a `<more_fields>` or `<more_deltas>` line.
    pub(crate) fn count_attribute(&self, start: &BytesStart<'_>) -> Result<usize, ParseError> {
        let name = start.name().as_ref().to_owned();
        let text = self.required_attribute(start, &name, "count")?;
        text.parse()
            .or_else(|_| self.malformed(format_args!("<{name}> count is {text:?}, not a number")))
    }
}
