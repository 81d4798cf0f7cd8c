//! Reads the JSON form (and unwraps a `CallToolResult`).

use super::ParseError;
use crate::code::Category;
use crate::json::{kind_of, leading_raw, members as read_members, parse_value, repaired_object, Value, A_JSON_OBJECT};
use crate::model::{Severity, ToolError};

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
    let object = object.or_else(|e| malformed(e.to_string()))?;
    let members = as_parsed(repaired_object(object, |_, e| e).or_else(|e| malformed(e.to_string()))?);
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
                as_parsed(read_members(raw, A_JSON_OBJECT).or_else(|e| malformed(format!("\"details\": {e}")))?);
            for (k, v) in entries {
                match v {
                    Value::String(s) => error.details.push((k.into_owned(), s)),
                    other => return malformed(format!("\"details\".{k:?} is {}, not a string", kind_of(&other))),
                }
            }
            continue;
        }
        let value = parse_value(raw).or_else(|e| malformed(e.to_string()))?;
        match key.as_ref() {
            "code" => match string(key, value)? {
                // An empty code is no code: the renderer refuses one.
                code if code.is_empty() => return malformed("\"code\" is empty".to_owned()),
                code => error.code = code,
            },
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
                    for (i, item) in items.into_iter().enumerate() {
                        error
                            .available_actions
                            .push(string(&format!("availableActions[{i}]"), item)?);
                    }
                }
                other => return malformed(format!("\"availableActions\" is {}, not an array", kind_of(&other))),
            },
            "contractDeltas" => error.deltas = crate::delta::deltas_from_json(raw).or_else(|e| malformed(e.0))?,
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
    if let Some(key) = super::repeated_detail(&error) {
        return malformed(format!("the detail key {key:?} appears twice"));
    }
    Ok(JsonEnvelope::Error(Box::new(error)))
}

/// The members of a JSON object as a JSON parser keeps them (`JSON.parse`,
/// Python's `json.loads`, serde_json's map): a key given twice once, at its
/// first place, with its last value. So a text reads as the object a host
/// would parse it into, and a repeated key never adds to a list.
pub(crate) fn as_parsed<K: AsRef<str>, V>(members: Vec<(K, V)>) -> Vec<(K, V)> {
    if crate::json::repeated_key(&members).is_none() {
        return members;
    }
    let mut at = std::collections::HashMap::new();
    let mut kept: Vec<(K, V)> = Vec::with_capacity(members.len());
    for (key, value) in members {
        match at.get(key.as_ref()) {
            Some(&i) => kept[i] = (key, value),
            None => {
                at.insert(key.as_ref().to_owned(), kept.len());
                kept.push((key, value));
            }
        }
    }
    kept
}

/// A count of items an envelope left out of a list.
fn count(key: &str, value: &Value) -> Result<usize, ParseError> {
    match value.as_u64().and_then(|n| usize::try_from(n).ok()) {
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
