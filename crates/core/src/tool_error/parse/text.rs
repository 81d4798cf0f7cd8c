//! Reads the text form: `key: value` lines from `error_code:` on, values
//! continued on lines indented by two spaces. The envelope ends at the first
//! line that is neither a `key: value` line nor a continuation. An
//! `error_code:` line whose lines hold no `what_failed:` is a mention (a log
//! line, prose), as a `<tool_error>` tag never closed is: reading goes on
//! after it (`envelope_start`).

use super::ParseError;
use crate::code::Category;
use crate::json::{items_of, members, Text, A_JSON_OBJECT, A_SEQUENCE};
use crate::tool_error::model::{Severity, ToolError};

const START: &str = "error_code: ";

/// The byte offset of the first line that opens a text envelope.
pub(super) fn find_start(text: &str) -> Option<usize> {
    envelope_start(text, START, "what_failed")
}

/// The byte offset of the first line that starts with `start` and whose
/// lines (`text_fields`' run of them) hold a `required` field: the tool
/// error's `error_code: ` with `what_failed`, the partial result's
/// `partial_result: ` with `failed`. A start line without it is text, and
/// the search goes on after its run: a later start line inside the same run
/// holds a part of it, so it cannot hold the field either. One pass.
pub(crate) fn envelope_start(text: &str, start: &str, required: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(at) = line_starting(text, start, from) {
        match run_holds(&text[at..], required) {
            Ok(()) => return Some(at),
            Err(end) => from = at + end,
        }
    }
    None
}

/// The first line at or after byte `from` (a line's start) that starts with `start`.
fn line_starting(text: &str, start: &str, from: usize) -> Option<usize> {
    if from == 0 && text.starts_with(start) {
        return Some(0);
    }
    if from >= text.len() {
        return None;
    }
    // From the newline that ends the line before `from` (ASCII: a char boundary).
    let newline = from.saturating_sub(1);
    text[newline..]
        .match_indices('\n')
        .map(|(i, _)| newline + i + 1)
        .find(|&at| text[at..].starts_with(start))
}

/// Whether the run of fields opening `text` holds a `required` line; if not,
/// the byte offset where the run ends (the start of the line that ends it).
fn run_holds(text: &str, required: &str) -> Result<(), usize> {
    let mut end = 0;
    for (line, past) in field_lines(text) {
        if matches!(line, FieldLine::Field(key, _) if key == required) {
            return Ok(());
        }
        end = past;
    }
    Err(end)
}

/// A line of a run of fields.
enum FieldLine<'t> {
    /// `key: value`.
    Field(&'t str, &'t str),
    /// A line indented by two spaces after a field: more of its value.
    Continued(&'t str),
}

/// The run of fields opening `text`, each line with the byte offset just
/// past it: the one rule for where a text envelope ends, which both
/// `text_fields` and `envelope_start` follow. The run ends at the first
/// line that is neither a field nor, after one, a continuation.
fn field_lines(text: &str) -> impl Iterator<Item = (FieldLine<'_>, usize)> {
    let mut lines = text.split('\n');
    let mut offset = 0;
    std::iter::from_fn(move || {
        let line = lines.next()?;
        let field = match line.strip_prefix("  ") {
            Some(continued) if offset > 0 => FieldLine::Continued(continued),
            _ => {
                let (key, value) = split_field(line)?;
                FieldLine::Field(key, value)
            }
        };
        offset = (offset + line.len() + 1).min(text.len());
        Some((field, offset))
    })
}

fn malformed<T>(why: String) -> Result<T, ParseError> {
    Err(ParseError::Malformed(format!("malformed text envelope: {why}")))
}

/// The `key: value` fields of a text-form envelope, a value continued on
/// lines indented by two spaces; they end at the first line that is neither.
/// The tool error's and the partial result's text forms share it.
pub(crate) fn text_fields(text: &str) -> Vec<(&str, String)> {
    let mut fields: Vec<(&str, String)> = Vec::new();
    for (line, _) in field_lines(text) {
        match (line, fields.last_mut()) {
            (FieldLine::Field(key, value), _) => fields.push((key, value.to_owned())),
            (FieldLine::Continued(continued), Some((_, value))) => {
                value.push('\n');
                value.push_str(continued);
            }
            // A continuation comes only after a field (`field_lines`).
            (FieldLine::Continued(_), None) => break,
        }
    }
    fields
}

pub(super) fn parse_text(text: &str) -> Result<ToolError, ParseError> {
    let fields = text_fields(text);
    let mut error = ToolError::default();
    for (key, value) in fields {
        match key {
            "error_code" => error.code = value,
            "what_failed" => error.message = value,
            "next_action" => error.suggestion = Some(value),
            "retryable" => error.retryable = Some(boolean(key, &value)?),
            "severity" => {
                error.severity =
                    Severity::from_wire(&value).map_or_else(|| malformed(format!("unknown severity {value:?}")), Ok)?
            }
            "category" => {
                error.category = Some(
                    Category::from_wire(&value).map_or_else(|| malformed(format!("unknown category {value:?}")), Ok)?,
                )
            }
            "available_actions" => {
                let actions: Vec<Text<'_>> =
                    items_of(&value, A_SEQUENCE).or_else(|e| malformed(format!("available_actions: {e}")))?;
                error.available_actions = actions.into_iter().map(|t| t.0.into_owned()).collect();
            }
            "details" => {
                let entries: Vec<(_, Text<'_>)> =
                    members(&value, A_JSON_OBJECT).or_else(|e| malformed(format!("details: {e}")))?;
                // As a JSON parser reads the object: a key twice, its last value.
                error.details = super::json::last_of_each(
                    entries
                        .into_iter()
                        .map(|(k, v)| (k.into_owned(), v.0.into_owned()))
                        .collect(),
                );
            }
            "retry_after" => error.retry_after = Some(super::xml::seconds(&value).or_else(malformed)?),
            "contract_changes" => {
                error.deltas =
                    crate::delta::deltas_from_json(&value).or_else(|e| malformed(format!("contract_changes: {e}")))?
            }
            "omitted_actions" => error.omitted_actions = count(key, &value)?,
            "omitted_details" => error.omitted_details = count(key, &value)?,
            "omitted_contract_changes" => error.omitted_deltas = count(key, &value)?,
            "customer_message" => error.customer_message = Some(value),
            "correlation_id" => error.correlation_id = Some(value),
            _ => {} // a newer version's field
        }
    }
    // An empty code is no code: the renderer refuses one.
    if error.code.is_empty() {
        return malformed("error_code is empty".to_owned());
    }
    Ok(error)
}

/// `key: value` where the key is lower-case letters and underscores.
fn split_field(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once(": ")?;
    let is_key = !key.is_empty() && key.bytes().all(|b| b.is_ascii_lowercase() || b == b'_');
    is_key.then_some((key, value))
}

/// A count of items an envelope left out of a list: digits, as written.
fn count(key: &str, value: &str) -> Result<usize, ParseError> {
    match crate::count::from_digits(value) {
        Some(n) => Ok(n),
        None => malformed(format!("{key} is {value:?}, not a count")),
    }
}

fn boolean(key: &str, value: &str) -> Result<bool, ParseError> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        other => malformed(format!("{key} is {other:?}, not true or false")),
    }
}
