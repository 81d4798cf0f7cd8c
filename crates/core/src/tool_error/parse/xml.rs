//! Reads the `<tool_error>` envelope.

use crate::code::Category;
use crate::delta::read_contract_awareness;
use crate::error::ParseError;
use crate::tool_error::model::{Severity, ToolError};
use crate::xml::{Event, XmlReader};

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
    if root.name() != "tool_error" {
        return Err(ParseError::NoEnvelope);
    }
    let code = match xml.attribute(&root, "code")? {
        // An empty code is no code: the renderer refuses one.
        Some(code) if code.is_empty() => return xml.malformed("<tool_error> has an empty code attribute"),
        Some(code) => code,
        None => return xml.malformed("<tool_error> has no code attribute"),
    };
    let mut error = ToolError {
        code,
        ..Default::default()
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
        match section.name() {
            "message" => {
                error.message = xml.text(&section, empty)?;
                has_message = true;
            }
            "recovery" => error.suggestion = Some(xml.text(&section, empty)?),
            "available_actions" if !empty => {
                while let Some((item, item_empty)) = xml.next_child()? {
                    match item.name() {
                        "action" => error.available_actions.push(xml.text(&item, item_empty)?),
                        "more_actions" => {
                            error.omitted_actions = xml.count_attribute(&item)?;
                            xml.skip(&item, item_empty)?;
                        }
                        _ => xml.skip(&item, item_empty)?,
                    }
                }
            }
            "details" if !empty => {
                while let Some((item, item_empty)) = xml.next_child()? {
                    if item.name() == "more_details" {
                        error.omitted_details = xml.count_attribute(&item)?;
                    }
                    if item.name() != "detail" {
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
            "contract_awareness" if !empty => (error.deltas, error.omitted_deltas) = read_contract_awareness(&mut xml)?,
            _ => xml.skip(&section, empty)?, // a newer version's section
        }
    }
    if !has_message {
        return xml.malformed("<tool_error> has no <message>");
    }
    if let Some(key) = super::repeated_detail(&error) {
        return xml.malformed(format_args!("the detail key {key:?} appears twice"));
    }
    Ok(error)
}
