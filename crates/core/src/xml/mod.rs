//! XML shared by every envelope: escaping that keeps any text well-formed
//! (forbidden characters become U+FFFD, never dropped; `escape.rs`), and a
//! reader that names the byte position of whatever is wrong.
//!
//! The reader stands on quick-xml: a thin wrapper over its pull parser, whose
//! events, checks (end tags must match, attributes well-formed and not
//! repeated) and error texts it keeps. Ours are the messages around them
//! (`malformed {envelope} at byte {at}: {why}`, and the few failures quick-xml
//! has no word for), which byte position a failure names (quick-xml's
//! `error_position` when `XmlReader::next` meets what it refuses, its
//! `buffer_position`, just after the last event read, for every other
//! failure, those met while skipping an element included), and the helpers
//! that read a leaf element's text and an attribute's value. A pull parser
//! reads in a loop, so no nesting or size of input recurses.

use crate::error::ParseError;
use quick_xml::errors::IllFormedError;
use quick_xml::escape::resolve_predefined_entity;
use quick_xml::events::{BytesCData, BytesRef, BytesStart, BytesText, Event as QuickEvent};
use quick_xml::{Reader, XmlVersion};

mod escape;

pub use escape::REPLACEMENT;
pub(crate) use escape::{element, escape_attribute, escape_content, more_line, replace_forbidden};

/// What the reader found next: quick-xml's events, those no envelope tells
/// apart taken together. The end of input is never one (it is a failure).
pub(crate) enum Event<'a> {
    Start(Tag<'a>),
    Empty(Tag<'a>),
    End,
    /// Raw text up to the next `<` or `&`.
    Text(BytesText<'a>),
    CData(BytesCData<'a>),
    /// A reference: the name between `&` and `;`.
    Ref(BytesRef<'a>),
    /// A comment or processing instruction: never part of the content.
    Ignored,
    /// An XML declaration or a DOCTYPE, which no envelope holds.
    Other,
}

/// A start or empty-element tag, as quick-xml read it.
#[derive(Clone)]
pub(crate) struct Tag<'a>(BytesStart<'a>);

impl Tag<'_> {
    /// Everything up to the first whitespace, as quick-xml names it.
    pub(crate) fn name(&self) -> &str {
        self.0.name().into_inner()
    }
}

/// Where the first `<{root}>` envelope in `text` starts, skipping mentions
/// of the tag. A `<{root}` starts an envelope when it is that element's
/// start tag, closed before any other `<` (no attribute value holds one),
/// and either closes itself or is followed, after any whitespace, by more
/// markup: the first section, a comment. Anything else is a mention, read
/// as text: the tag in prose (`a <tool_error> envelope`, `` `<tool_error>` ``),
/// one whose `>` is missing or comes after another tag, one that ends the
/// text. From an envelope's start on, whatever is wrong is malformed:
/// reading does not go on to a later envelope, which would hide the broken one.
///
/// Each candidate is read up to the next `<` only, so a text of any length
/// and any number of mentions is read once.
pub(crate) fn envelope_start(text: &str, root: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(found) = text[from..].find('<') {
        let at = from + found;
        let rest = &text[at..];
        // The candidate's window: up to the next `<`, where the next one starts.
        let next = rest[1..].find('<').map(|i| i + 1);
        let window = &rest[..next.unwrap_or(rest.len())];
        if window[1..].starts_with(root) && opens_envelope(window, root, next.is_some()) {
            return Some(at);
        }
        from = at + window.len();
    }
    None
}

/// Whether `window` (from a `<` to the next one, or to the end of the text
/// when `more` is false) opens a `<{root}>` envelope, as `envelope_start` says.
fn opens_envelope(window: &str, root: &str, more: bool) -> bool {
    let mut xml = XmlReader::new(window, "");
    match xml.read_event() {
        Ok(Some(Event::Empty(tag))) => tag.name() == root,
        Ok(Some(Event::Start(tag))) if tag.name() == root => {
            let after = &window[xml.reader.buffer_position() as usize..];
            more && after.bytes().all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
        }
        _ => false,
    }
}

/// A reader over one envelope; every failure names its byte position.
pub(crate) struct XmlReader<'a> {
    reader: Reader<&'a [u8]>,
    what: &'static str,
}

impl<'a> XmlReader<'a> {
    /// `text` starts at the envelope's `<`, so no byte-order mark precedes it.
    pub(crate) fn new(text: &'a str, what: &'static str) -> Self {
        XmlReader {
            reader: Reader::from_str(text),
            what,
        }
    }

    /// A failure at the reader's position, just after the last event read.
    pub(crate) fn malformed<T>(&self, why: impl std::fmt::Display) -> Result<T, ParseError> {
        self.malformed_at(self.reader.buffer_position(), why)
    }

    fn malformed_at<T>(&self, at: u64, why: impl std::fmt::Display) -> Result<T, ParseError> {
        let what = self.what;
        Err(ParseError::Malformed(format!("malformed {what} at byte {at}: {why}")))
    }

    pub(crate) fn next(&mut self) -> Result<Event<'a>, ParseError> {
        match self.read_event() {
            Ok(Some(event)) => Ok(event),
            Ok(None) => self.malformed("the envelope ends before its closing tag"),
            Err(e) => self.malformed_at(self.reader.error_position(), e),
        }
    }

    /// quick-xml's next event, `None` at the end of input. Not inlined: its
    /// callers share one copy of quick-xml's parser loop in the component.
    #[inline(never)]
    fn read_event(&mut self) -> Result<Option<Event<'a>>, quick_xml::Error> {
        Ok(Some(match self.reader.read_event()? {
            QuickEvent::Start(start) => Event::Start(Tag(start)),
            QuickEvent::Empty(start) => Event::Empty(Tag(start)),
            QuickEvent::End(_) => Event::End,
            QuickEvent::Text(text) => Event::Text(text),
            QuickEvent::CData(data) => Event::CData(data),
            QuickEvent::GeneralRef(reference) => Event::Ref(reference),
            QuickEvent::Comment(_) | QuickEvent::PI(_) => Event::Ignored,
            QuickEvent::Decl(_) | QuickEvent::DocType(_) => Event::Other,
            QuickEvent::Eof => return Ok(None),
        }))
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

    /// The text of a leaf element whose start tag was just read: XML 1.0 line
    /// ends in its text (CRLF and a lone CR become LF), references resolved,
    /// CDATA as written.
    pub(crate) fn text(&mut self, start: &Tag<'_>, empty: bool) -> Result<String, ParseError> {
        let mut out = String::new();
        if empty {
            return Ok(out);
        }
        loop {
            match self.next()? {
                Event::Text(t) => out.push_str(&t.xml10_content()),
                Event::CData(c) => out.push_str(&c),
                // Any Unicode scalar value but U+0000 is taken, as quick-xml takes it.
                Event::Ref(r) => match r.resolve_char_ref() {
                    Ok(Some(c)) => out.push(c),
                    Ok(None) => match resolve_predefined_entity(&r) {
                        Some(text) => out.push_str(text),
                        None => return self.malformed(format_args!("unknown entity &{};", &*r)),
                    },
                    Err(e) => return self.malformed(e),
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

    /// Skips the rest of an element whose start tag was just read, reporting
    /// failures where reading stopped.
    pub(crate) fn skip(&mut self, start: &Tag<'_>, empty: bool) -> Result<(), ParseError> {
        if empty {
            return Ok(());
        }
        // What quick-xml's `read_to_end` does, over the same `read_event`
        // (`read_to_end` would hold a second copy of the parser loop). End tags
        // are checked to close the innermost open element, so the first one at
        // this depth is this element's.
        let mut depth = 0usize;
        loop {
            match self.read_event() {
                Ok(Some(Event::Start(_))) => depth += 1,
                Ok(Some(Event::End)) if depth == 0 => return Ok(()),
                Ok(Some(Event::End)) => depth -= 1,
                Ok(Some(_)) => {}
                Ok(None) => {
                    let name = start.name().to_owned();
                    return self.malformed(quick_xml::Error::IllFormed(IllFormedError::MissingEndTag(name)));
                }
                Err(e) => return self.malformed(e),
            }
        }
    }

    /// An attribute's value, unescaped and normalized as XML 1.0 says. The
    /// attributes before it are checked as quick-xml checks them.
    pub(crate) fn attribute(&self, start: &Tag<'_>, name: &str) -> Result<Option<String>, ParseError> {
        for attribute in start.0.attributes() {
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
        match crate::count::from_digits(&text) {
            Some(n) => Ok(n),
            None => self.malformed(format_args!("<{name}> count is {text:?}, not a number")),
        }
    }
}
