//! Reads the `<tool_error>` envelope with quick-xml.

use super::ParseError;
use crate::model::{Category, Severity, ToolError};
use crate::validation::read_contract_awareness;
use quick_xml::escape::resolve_predefined_entity;
use quick_xml::events::{BytesStart, Event};
use quick_xml::{Reader, XmlVersion};

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
}

/// `30 seconds` or `1 second` back to a number.
pub(crate) fn seconds(text: &str) -> Result<u32, String> {
    let number = text.strip_suffix(" seconds").or_else(|| text.strip_suffix(" second"));
    number
        .and_then(|n| n.parse::<u32>().ok())
        .ok_or_else(|| format!("retry_after is {text:?}, not a number of seconds"))
}

pub(super) fn parse_xml(text: &str) -> Result<ToolError, ParseError> {
    let mut xml = XmlReader::new(text, "<tool_error> envelope");
    let (root, empty) = match xml.next()? {
        Event::Start(start) => (start, false),
        Event::Empty(start) => (start, true),
        _ => return xml.malformed("expected the <tool_error> start tag"),
    };
    if root.name().as_ref() != "tool_error" {
        return Err(ParseError::NoEnvelope);
    }
    let mut error = ToolError::default();
    error.code = match xml.attribute(&root, "code")? {
        Some(code) => code,
        None => return xml.malformed("<tool_error> has no code attribute"),
    };
    if let Some(severity) = xml.attribute(&root, "severity")? {
        error.severity = match Severity::from_wire(&severity) {
            Some(s) => s,
            None => return xml.malformed(format_args!("unknown severity {severity:?}")),
        };
    }
    if empty {
        return xml.malformed("<tool_error> has no <message>");
    }
    let mut has_message = false;
    while let Some((section, empty)) = xml.next_child()? {
        match section.name().as_ref() {
            "message" => {
                error.message = xml.text(&section, empty)?;
                has_message = true;
            }
            "recovery" => error.suggestion = Some(xml.text(&section, empty)?),
            "available_actions" if !empty => {
                while let Some((item, item_empty)) = xml.next_child()? {
                    if item.name().as_ref() == "action" {
                        error.available_actions.push(xml.text(&item, item_empty)?);
                    } else {
                        xml.skip(&item, item_empty)?;
                    }
                }
            }
            "details" if !empty => {
                while let Some((item, item_empty)) = xml.next_child()? {
                    if item.name().as_ref() != "detail" {
                        xml.skip(&item, item_empty)?;
                        continue;
                    }
                    let Some(key) = xml.attribute(&item, "key")? else {
                        return xml.malformed("<detail> has no key attribute");
                    };
                    error.details.push((key, xml.text(&item, item_empty)?));
                }
            }
            "retry_after" => {
                let text = xml.text(&section, empty)?;
                error.retry_after = Some(seconds(&text).or_else(|why| xml.malformed(why))?);
            }
            "category" => {
                let text = xml.text(&section, empty)?;
                error.category = Some(match Category::from_wire(&text) {
                    Some(c) => c,
                    None => return xml.malformed(format_args!("unknown category {text:?}")),
                });
            }
            "retryable" => {
                error.retryable = Some(match xml.text(&section, empty)?.as_str() {
                    "true" => true,
                    "false" => false,
                    other => return xml.malformed(format_args!("retryable is {other:?}, not true or false")),
                });
            }
            "customer_message" => error.customer_message = Some(xml.text(&section, empty)?),
            "correlation_id" => error.correlation_id = Some(xml.text(&section, empty)?),
            "contract_awareness" if !empty => error.deltas = read_contract_awareness(&mut xml)?.0,
            _ => xml.skip(&section, empty)?, // a newer version's section
        }
    }
    if !has_message {
        return xml.malformed("<tool_error> has no <message>");
    }
    Ok(error)
}
