//! Reads the JSON form (and unwraps a `CallToolResult`).

use super::ParseError;
use crate::code::Category;
use crate::json::{kind_of, leading_raw, members as read_members, parse_value, repaired_object, Value, A_JSON_OBJECT};
use crate::tool_error::model::{Severity, ToolError};

pub(super) enum JsonEnvelope {
    /// Boxed: a `ToolError` is far larger than the text variant.
    Error(Box<ToolError>),
    /// A `CallToolResult`: its text blocks, joined, to be parsed in turn
    /// (empty when it has none).
    ToolResultText(String),
}

fn malformed<T>(why: String) -> Result<T, ParseError> {
    Err(ParseError::Malformed(format!("malformed JSON envelope: {why}")))
}

pub(super) fn parse_json(text: &str) -> Result<JsonEnvelope, ParseError> {
    // Text after the object (a log line's tail) is not part of the envelope.
    // The text starts with `{`, which ends itself: nothing after it is checked.
    let Some(object) = leading_raw(text) else {
        return Err(ParseError::NoEnvelope);
    };
    let object = match object {
        Ok(object) => object,
        // `{` and then a key is JSON, and broken (an envelope cut short).
        // Anything else (`{name} is required`) is text, and markup may follow.
        Err(e) if text[1..].trim_start().starts_with('"') => return malformed(e.to_string()),
        Err(_) => return Err(ParseError::NoEnvelope),
    };
    // A key given twice is read as a JSON parser (`JSON.parse`, `json.loads`,
    // serde_json) reads it, by its last value: each member below is assigned
    // in turn, never added to what an earlier one gave.
    let members = repaired_object(object, |_, e| e).or_else(|e| malformed(e.to_string()))?;
    let has = |key: &str| members.iter().any(|(k, _)| k == key);
    if has("content") && !has("reason") {
        return tool_result_text(&members);
    }
    if !(has("code") && has("reason")) {
        return Err(ParseError::NoEnvelope);
    }
    let mut error = ToolError::default();
    for (key, raw) in &members {
        if key == "details" {
            let entries: Vec<(_, Value)> =
                read_members(raw, A_JSON_OBJECT).or_else(|e| malformed(format!("\"details\": {e}")))?;
            let mut details = Vec::with_capacity(entries.len());
            for (k, v) in entries {
                match v {
                    Value::String(s) => details.push((k.into_owned(), s)),
                    other => return malformed(format!("\"details\".{k:?} is {}, not a string", kind_of(&other))),
                }
            }
            error.details = last_of_each(details);
            continue;
        }
        let value = parse_value(raw).or_else(|e| malformed(e.to_string()))?;
        match key.as_ref() {
            "code" => error.code = string(key, value)?,
            "reason" => error.message = string(key, value)?,
            "recovery" => error.suggestion = Some(string(key, value)?),
            "customerMessage" => error.customer_message = Some(string(key, value)?),
            "correlationId" => error.correlation_id = Some(string(key, value)?),
            "severity" => {
                let name = string(key, value)?;
                error.severity =
                    Severity::from_wire(&name).map_or_else(|| malformed(format!("unknown severity {name:?}")), Ok)?;
            }
            "errorCategory" => {
                let name = string(key, value)?;
                error.category = Some(
                    Category::from_wire(&name)
                        .map_or_else(|| malformed(format!("unknown errorCategory {name:?}")), Ok)?,
                );
            }
            "isRetryable" => match value {
                Value::Bool(b) => error.retryable = Some(b),
                other => return malformed(format!("\"isRetryable\" is {}, not a boolean", kind_of(&other))),
            },
            "availableActions" => match value {
                Value::Array(items) => {
                    let mut actions = Vec::with_capacity(items.len());
                    for (i, item) in items.into_iter().enumerate() {
                        actions.push(string(&format!("availableActions[{i}]"), item)?);
                    }
                    error.available_actions = actions;
                }
                other => return malformed(format!("\"availableActions\" is {}, not an array", kind_of(&other))),
            },
            "contractDeltas" => error.deltas = crate::delta::deltas_from_json(raw).or_else(|e| malformed(e.into()))?,
            "omittedActions" => error.omitted_actions = count(key, &value)?,
            "omittedDetails" => error.omitted_details = count(key, &value)?,
            "omittedDeltas" => error.omitted_deltas = count(key, &value)?,
            "retryAfter" => match value.as_u64().and_then(|n| u32::try_from(n).ok()) {
                Some(n) => error.retry_after = Some(n),
                None => return malformed(format!("\"retryAfter\" is {value}, not a whole number of seconds")),
            },
            _ => {} // a newer version's field
        }
    }
    // An empty code is no code: the renderer refuses one.
    if error.code.is_empty() {
        return malformed("\"code\" is empty".to_owned());
    }
    Ok(JsonEnvelope::Error(Box::new(error)))
}

/// Details as a JSON parser (`JSON.parse`, `json.loads`, serde_json) reads
/// a details object: a key given twice counts once, with its last value. It
/// stays where it last appears (a parser keeps where it first appeared; the
/// order of details is all that could tell, and only when a key repeats).
pub(super) fn last_of_each(mut details: Vec<(String, String)>) -> Vec<(String, String)> {
    if let Some(kept) = last_appearances(&details) {
        let mut at = 0;
        details.retain(|_| {
            at += 1;
            kept[at - 1]
        });
    }
    details
}

/// For each detail, whether no later one has its key; `None` when no key
/// appears twice.
pub(super) fn last_appearances(details: &[(String, String)]) -> Option<Vec<bool>> {
    let mut seen = std::collections::HashSet::with_capacity(details.len());
    let mut kept: Vec<bool> = details.iter().rev().map(|(key, _)| seen.insert(key.as_str())).collect();
    if kept.iter().all(|k| *k) {
        return None;
    }
    kept.reverse();
    Some(kept)
}

/// A count of items an envelope left out of a list.
fn count(key: &str, value: &Value) -> Result<usize, ParseError> {
    match value.as_u64().map(crate::count::from_u64) {
        Some(n) => Ok(n),
        None => malformed(format!("{key:?} is {value}, not a count")),
    }
}

fn string(key: &str, value: Value) -> Result<String, ParseError> {
    match value {
        Value::String(s) => Ok(s),
        other => malformed(format!("{key:?} is {}, not a string", kind_of(&other))),
    }
}

fn tool_result_text(members: &crate::json::Members<'_>) -> Result<JsonEnvelope, ParseError> {
    let content = members
        .iter()
        .rev()
        .find(|(k, _)| k == "content")
        .map_or("null", |(_, v)| v.as_ref());
    let blocks = parse_value(content).or_else(|e| malformed(e.to_string()))?;
    // A result with no text block holds no envelope: its JSON is not read
    // again as a transcript, where a string's markup could pass for one.
    Ok(JsonEnvelope::ToolResultText(
        joined_text_blocks(&blocks).unwrap_or_default(),
    ))
}

/// The text blocks of a `CallToolResult`'s `content`, joined with a newline
/// (an envelope may follow a block of partial output); `None` when there is none.
pub(crate) fn joined_text_blocks(content: &Value) -> Option<String> {
    let texts: Vec<&str> = content
        .as_array()
        .into_iter()
        .flatten()
        .filter(|block| block.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|block| block.get("text").and_then(Value::as_str))
        .collect();
    (!texts.is_empty()).then(|| texts.join("\n"))
}
