//! Reads a partial result back from any of its three forms. The summary and
//! the severity are not read: they follow from the lists and their counts,
//! and are written again from them. Unknown sections, lines and keys are
//! skipped, so newer envelopes still read.

use super::model::{FailedItem, PartialResult};
use crate::code::Category;
use crate::error::ParseError;
use crate::json::{kind_of, leading_raw, parse_value, repaired_object, Value};
use crate::xml::{Event, XmlReader};

/// The line that opens the text form, after the newline that ends the line before.
const TEXT_LINE: &str = "partial_result: ";

/// Reads the first partial result in `text`, in any form, also inside a `CallToolResult`.
///
/// ```
/// use mcp_envelope::partial::{parse_partial, render_partial, FailedItem, PartialResult};
/// use mcp_envelope::Format;
/// let p = PartialResult::new().obtained(["Company A"]).failed(FailedItem::new("Company C", "FORBIDDEN"));
/// for format in Format::ALL {
///     assert_eq!(parse_partial(&render_partial(&p, *format)), Ok(p.clone()));
/// }
/// ```
pub fn parse_partial(text: &str) -> Result<PartialResult, ParseError> {
    let inner = crate::tool_error::parse::tool_result_text(text);
    let text = inner.as_deref().unwrap_or(text);
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') {
        if let Some(partial) = read_json_form(trimmed)? {
            return Ok(partial);
        }
    }
    parse_markup(text, crate::tool_error::parse::markup_from(text))
}

/// Where the earliest `<partial_result>` envelope starts: a mention of the
/// tag is text (`crate::xml::envelope_start` has the rule).
fn xml_start(text: &str, from: usize) -> Option<usize> {
    crate::tool_error::parse::find_from(text, from, |t| crate::xml::envelope_start(t, "partial_result"))
}

/// Where the earliest partial result in the XML or text form starts, from
/// byte `from` (`crate::tool_error::parse::markup_from`) on.
pub(crate) fn markup_start(text: &str, from: usize) -> Option<usize> {
    match (xml_start(text, from), text_start(text, from)) {
        (Some(x), Some(t)) => Some(x.min(t)),
        (x, t) => x.or(t),
    }
}

/// A `partial_result:` line whose lines hold no `failed:` is a mention
/// (`crate::tool_error::parse::envelope_start` has the rule).
fn text_start(text: &str, from: usize) -> Option<usize> {
    crate::tool_error::parse::find_from(text, from, |t| {
        crate::tool_error::parse::envelope_start(t, TEXT_LINE, "failed")
    })
}

/// Reads the earliest partial result in the XML or text form, from byte
/// `from` (`crate::tool_error::parse::markup_from`) on.
pub(crate) fn parse_markup(text: &str, from: usize) -> Result<PartialResult, ParseError> {
    match (xml_start(text, from), text_start(text, from)) {
        (Some(x), Some(t)) if t < x => parse_text(&text[t..]),
        (Some(x), _) => parse_xml(&text[x..]).map_err(|e| crate::tool_error::parse::shift(e, x)),
        (None, Some(t)) => parse_text(&text[t..]),
        (None, None) => Err(ParseError::NoEnvelope),
    }
}

fn malformed<T>(form: &str, why: impl std::fmt::Display) -> Result<T, ParseError> {
    Err(ParseError::Malformed(format!("malformed {form} partial result: {why}")))
}

/// The JSON form, if `text` (starting with `{`) is one: an object whose
/// `kind` is `partial_result`. `None` for any other text.
pub(crate) fn read_json_form(text: &str) -> Result<Option<PartialResult>, ParseError> {
    // Text after the object (a log line's tail) is not part of the envelope.
    let Some(Ok(object)) = leading_raw(text) else {
        return Ok(None);
    };
    let Ok(members) = repaired_object(object, |_, e| e) else {
        return Ok(None);
    };
    // A key given twice is read as a JSON parser reads it, by its last value
    // (the loop below assigns each member in turn, so the last one stays).
    let is_partial = members
        .iter()
        .rev()
        .find(|(k, _)| k == "kind")
        .is_some_and(|(_, raw)| parse_value(raw).is_ok_and(|v| v.as_str() == Some("partial_result")));
    if !is_partial {
        return Ok(None);
    }
    let mut partial = PartialResult::default();
    let mut has_failed = false;
    for (key, raw) in &members {
        let value = parse_value(raw).or_else(|e| malformed("JSON", e))?;
        match key.as_ref() {
            "task" => partial.task = Some(string(key, &value).or_else(|why| malformed("JSON", why))?),
            "obtained" => partial.obtained = strings(key, &value).or_else(|why| malformed("JSON", why))?,
            "omittedObtained" => partial.omitted_obtained = json_count(key, &value)?,
            "failed" => {
                partial.failed = failures(&value).or_else(|why| malformed("JSON", why))?;
                has_failed = true;
            }
            "omittedFailed" => partial.omitted_failed = json_count(key, &value)?,
            "tried" => partial.tried = strings(key, &value).or_else(|why| malformed("JSON", why))?,
            "omittedTried" => partial.omitted_tried = json_count(key, &value)?,
            "recovery" => partial.recovery = Some(string(key, &value).or_else(|why| malformed("JSON", why))?),
            "correlationId" => {
                partial.correlation_id = Some(string(key, &value).or_else(|why| malformed("JSON", why))?)
            }
            _ => {} // kind, severity, summary (written from the lists), or a newer version's field
        }
    }
    if !has_failed {
        return malformed("JSON", "no \"failed\" list");
    }
    Ok(Some(partial))
}

/// A list's count in the JSON form: a whole number.
fn json_count(key: &str, value: &Value) -> Result<usize, ParseError> {
    match value.as_u64().map(crate::count::from_u64) {
        Some(n) => Ok(n),
        None => malformed("JSON", format_args!("{key:?} is {value}, not a count")),
    }
}

/// A list's count in the text form: digits only.
fn text_count(key: &str, value: &str) -> Result<usize, ParseError> {
    match crate::count::from_digits(value) {
        Some(n) => Ok(n),
        None => malformed("text", format_args!("{key} is {value:?}, not a count")),
    }
}

fn string(key: &str, value: &Value) -> Result<String, String> {
    match value {
        Value::String(s) => Ok(s.to_string()),
        other => Err(format!("{key:?} is {}, not a string", kind_of(other))),
    }
}

fn strings(key: &str, value: &Value) -> Result<Vec<String>, String> {
    let Some(items) = value.as_array() else {
        return Err(format!("{key:?} is {}, not an array", kind_of(value)));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| string(&format!("{key}[{i}]"), item))
        .collect()
}

/// The failed items, as the JSON and text forms write them: at least one.
fn failures(value: &Value) -> Result<Vec<FailedItem>, String> {
    let Some(items) = value.as_array() else {
        return Err(format!("\"failed\" is {}, not an array", kind_of(value)));
    };
    if items.is_empty() {
        return Err("\"failed\" lists no failed item".to_owned());
    }
    items.iter().enumerate().map(|(i, item)| failure(i, item)).collect()
}

fn failure(i: usize, value: &Value) -> Result<FailedItem, String> {
    if !value.is_object() {
        return Err(format!("failed[{i}] is {}, not an object", kind_of(value)));
    }
    // An empty item or code names nothing: the renderer refuses one.
    let required = |key: &str| match value.get(key) {
        Some(v) => match string(&format!("failed[{i}].{key}"), v)? {
            text if text.is_empty() => Err(format!("failed[{i}].{key} is empty")),
            text => Ok(text),
        },
        None => Err(format!("failed[{i}] has no {key:?}")),
    };
    let mut failed = FailedItem::new(required("item")?, required("code")?);
    if let Some(v) = value.get("errorCategory") {
        let name = string(&format!("failed[{i}].errorCategory"), v)?;
        failed.category = Some(
            Category::from_wire(&name).ok_or_else(|| format!("failed[{i}] has the unknown errorCategory {name:?}"))?,
        );
    }
    match value.get("isRetryable") {
        Some(Value::Bool(b)) => failed.retryable = Some(*b),
        Some(other) => return Err(format!("failed[{i}].isRetryable is {}, not a boolean", kind_of(other))),
        None => {}
    }
    if let Some(v) = value.get("reason") {
        failed.message = Some(string(&format!("failed[{i}].reason"), v)?);
    }
    if let Some(v) = value.get("retryAfter") {
        match v.as_u64().and_then(|n| u32::try_from(n).ok()) {
            Some(n) => failed.retry_after = Some(n),
            None => return Err(format!("failed[{i}].retryAfter is {v}, not a whole number of seconds")),
        }
    }
    Ok(failed)
}

/// The text form: `key: value` lines from `partial_result:` on, values
/// continued on lines indented by two spaces; it ends at the first line that
/// is neither.
fn parse_text(text: &str) -> Result<PartialResult, ParseError> {
    let fields = crate::tool_error::parse::text_fields(text);
    let mut partial = PartialResult::default();
    let list = |key: &str, value: &str| -> Result<Value, ParseError> {
        match parse_value(value) {
            Ok(v) => Ok(v),
            Err(e) => malformed("text", format_args!("{key}: {e}")),
        }
    };
    for (key, value) in fields {
        match key {
            "task" => partial.task = Some(value),
            "obtained" => partial.obtained = strings(key, &list(key, &value)?).or_else(|why| malformed("text", why))?,
            "omitted_obtained" => partial.omitted_obtained = text_count(key, &value)?,
            "failed" => partial.failed = failures(&list(key, &value)?).or_else(|why| malformed("text", why))?,
            "omitted_failed" => partial.omitted_failed = text_count(key, &value)?,
            "tried" => partial.tried = strings(key, &list(key, &value)?).or_else(|why| malformed("text", why))?,
            "omitted_tried" => partial.omitted_tried = text_count(key, &value)?,
            "next_action" => partial.recovery = Some(value),
            "correlation_id" => partial.correlation_id = Some(value),
            _ => {} // partial_result, severity (written from the lists), or a newer version's field
        }
    }
    Ok(partial)
}

/// The `<partial_result>` envelope.
fn parse_xml(text: &str) -> Result<PartialResult, ParseError> {
    let mut xml = XmlReader::new(text, "<partial_result> envelope");
    let (root, empty) = match xml.next()? {
        Event::Start(start) => (start, false),
        Event::Empty(start) => (start, true),
        _ => return xml.malformed("expected the <partial_result> start tag"),
    };
    if root.name() != "partial_result" {
        return Err(ParseError::NoEnvelope);
    }
    let mut partial = PartialResult::default();
    if empty {
        return xml.malformed("<partial_result> lists no <failure>");
    }
    while let Some((section, empty)) = xml.next_child()? {
        match section.name() {
            "task" => partial.task = Some(xml.text(&section, empty)?),
            "obtained" if !empty => {
                (partial.obtained, partial.omitted_obtained) = items(&mut xml, "item", "more_items")?
            }
            "failed" if !empty => {
                while let Some((item, item_empty)) = xml.next_child()? {
                    match item.name() {
                        "failure" => partial.failed.push(failure_xml(&mut xml, &item, item_empty)?),
                        "more_failures" => {
                            partial.omitted_failed = xml.count_attribute(&item)?;
                            xml.skip(&item, item_empty)?;
                        }
                        _ => xml.skip(&item, item_empty)?,
                    }
                }
            }
            "tried" if !empty => (partial.tried, partial.omitted_tried) = items(&mut xml, "attempt", "more_attempts")?,
            "recovery" => partial.recovery = Some(xml.text(&section, empty)?),
            "correlation_id" => partial.correlation_id = Some(xml.text(&section, empty)?),
            _ => xml.skip(&section, empty)?, // summary (written from the lists), or a newer version's section
        }
    }
    if partial.failed.is_empty() {
        return xml.malformed("<partial_result> lists no <failure>");
    }
    Ok(partial)
}

/// The texts of a list section's `<{name}>` children, and the count of its
/// `<{more}>` child (0 without one); other children are skipped.
fn items(xml: &mut XmlReader<'_>, name: &str, more: &str) -> Result<(Vec<String>, usize), ParseError> {
    let (mut out, mut omitted) = (Vec::new(), 0);
    while let Some((item, empty)) = xml.next_child()? {
        if item.name() == name {
            out.push(xml.text(&item, empty)?);
        } else {
            if item.name() == more {
                omitted = xml.count_attribute(&item)?;
            }
            xml.skip(&item, empty)?;
        }
    }
    Ok((out, omitted))
}

fn failure_xml(xml: &mut XmlReader<'_>, tag: &crate::xml::Tag<'_>, empty: bool) -> Result<FailedItem, ParseError> {
    // An empty item or code names nothing: the renderer refuses one.
    let required = |name: &str| match xml.required_attribute(tag, "failure", name)? {
        text if text.is_empty() => xml.malformed(format_args!("<failure> has an empty {name} attribute")),
        text => Ok(text),
    };
    let mut failed = FailedItem::new(required("item")?, required("code")?);
    if let Some(name) = xml.attribute(tag, "category")? {
        failed.category = match Category::from_wire(&name) {
            Some(c) => Some(c),
            None => return xml.malformed(format_args!("unknown category {name:?}")),
        };
    }
    if let Some(text) = xml.attribute(tag, "retryable")? {
        failed.retryable = match text.as_str() {
            "true" => Some(true),
            "false" => Some(false),
            other => return xml.malformed(format_args!("retryable is {other:?}, not true or false")),
        };
    }
    if let Some(text) = xml.attribute(tag, "retry_after")? {
        failed.retry_after = Some(crate::tool_error::parse::xml::seconds(&text).or_else(|why| xml.malformed(why))?);
    }
    // A failure without a message is written self-closing.
    if !empty {
        failed.message = Some(xml.text(tag, empty)?);
    }
    Ok(failed)
}
