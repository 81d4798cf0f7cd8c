//! The error spec as JSON: what the CLI reads, the vectors hold and the
//! component's string functions take. Keys are the seed's `toolError` option
//! names plus the extension fields; an unknown key is an error.
//!
//! ```
//! use mcp_envelope::{spec, render_xml};
//! let e = spec::from_json(r#"{"code":"NOT_FOUND","message":"No invoice with that ID"}"#).unwrap();
//! assert!(render_xml(&e).contains("<message>No invoice with that ID</message>"));
//! assert_eq!(spec::to_json(&e), r#"{"code":"NOT_FOUND","message":"No invoice with that ID"}"#);
//! ```

use crate::code::Category;
use crate::json::{
    boolean, compact, fail, is_null, kind_of, kind_of_text, members, one_of, optional_string, parse_string,
    push_json_array, push_json_object, push_json_string, repaired_object, repeated_key, string, string_list, value,
    Quoted, Value, A_JSON_OBJECT,
};
use crate::limits::Limits;
use crate::locale::Locale;
use crate::model::{Severity, ToolError, ToolFailureMeta};
use serde_json::value::RawValue;

pub use crate::error::SpecError;

/// The keys a spec may have, in the order `to_json` writes them.
pub const KEYS: [&str; 19] = [
    "code",
    "message",
    "suggestion",
    "availableActions",
    "omittedActions",
    "details",
    "omittedDetails",
    "retryAfter",
    "severity",
    "category",
    "retryable",
    "customerMessage",
    "correlationId",
    "deltas",
    "omittedDeltas",
    "locale",
    "localizeSteering",
    "limits",
    "toolFailure",
];

/// Reads a spec. `null` for an optional key means "not set".
pub fn from_json(text: &str) -> Result<ToolError, SpecError> {
    let members = repaired_object(text, |text, e| match kind_of_text(text, &e) {
        Some(kind) => SpecError(format!("the spec must be a JSON object, not {kind}")),
        None => SpecError(format!("invalid spec JSON: {e}")),
    })?;
    if let Some(key) = repeated_key(&members) {
        return fail(format!("the key {key:?} appears twice"));
    }
    let mut error = ToolError::default();
    let (mut has_code, mut has_message) = (false, false);
    for (key, raw) in members {
        let what = Quoted(&key);
        match key.as_ref() {
            "code" => {
                error.code = string(&raw, &what)?;
                if error.code.is_empty() {
                    return fail("\"code\" must not be empty");
                }
                has_code = true;
            }
            "message" => {
                error.message = string(&raw, &what)?;
                has_message = true;
            }
            "suggestion" => error.suggestion = optional_string(&raw, &what)?,
            "availableActions" if is_null(&raw) => error.available_actions = Vec::new(),
            "availableActions" => error.available_actions = string_list(&raw, &what)?,
            "omittedActions" => error.omitted_actions = omitted(&raw, &what)?,
            "details" => error.details = details(&raw)?,
            "omittedDetails" => error.omitted_details = omitted(&raw, &what)?,
            "retryAfter" => error.retry_after = retry_after(value(&raw, &what)?)?,
            "severity" if is_null(&raw) => error.severity = Severity::Error,
            "severity" => error.severity = one_of(&raw, &what, Severity::ALL, Severity::as_str)?,
            "category" if is_null(&raw) => error.category = None,
            "category" => error.category = Some(one_of(&raw, &what, Category::ALL, Category::as_str)?),
            "retryable" if is_null(&raw) => error.retryable = None,
            "retryable" => error.retryable = Some(boolean(&raw, &what)?),
            "customerMessage" => error.customer_message = optional_string(&raw, &what)?,
            "correlationId" => error.correlation_id = optional_string(&raw, &what)?,
            "deltas" => error.deltas = crate::delta::deltas_from_json(&raw)?,
            "omittedDeltas" => error.omitted_deltas = omitted(&raw, &what)?,
            "locale" if is_null(&raw) => error.locale = Locale::En,
            "locale" => error.locale = one_of(&raw, &what, Locale::ALL, Locale::as_str)?,
            "localizeSteering" if is_null(&raw) => error.localize_steering = false,
            "localizeSteering" => error.localize_steering = boolean(&raw, &what)?,
            "limits" if is_null(&raw) => error.limits = None,
            "limits" => error.limits = Some(Limits::from_json(&raw)?),
            "toolFailure" => error.tool_failure = tool_failure(&raw)?,
            _ => return fail(format!("unknown key {key:?} (expected one of: {})", KEYS.join(", "))),
        }
    }
    if !has_code {
        return fail("missing \"code\": every error needs a code, canonical or custom");
    }
    if !has_message {
        return fail("missing \"message\": say what failed");
    }
    if error.tool_failure.is_some() && error.correlation_id_text().is_none() {
        return fail("\"toolFailure\" needs a \"correlationId\": the proposal requires one, to match the failure with the server's log");
    }
    Ok(error)
}

/// Writes the smallest spec that renders the same envelope: defaults left out.
pub fn to_json(error: &ToolError) -> String {
    to_json_as_stated(&error.minimal())
}

/// Writes every field that is set, even one equal to its code's default: what
/// an envelope read back states (`read_envelope`'s faithful spec).
pub fn to_json_as_stated(e: &ToolError) -> String {
    let mut out = String::from("{\"code\":");
    push_json_string(&mut out, &e.code);
    out.push_str(",\"message\":");
    push_json_string(&mut out, &e.message);
    if let Some(s) = &e.suggestion {
        out.push_str(",\"suggestion\":");
        push_json_string(&mut out, s);
    }
    if !e.available_actions.is_empty() {
        out.push_str(",\"availableActions\":");
        push_json_array(&mut out, &e.available_actions);
    }
    push_count(&mut out, "omittedActions", e.omitted_actions);
    if !e.details.is_empty() {
        out.push_str(",\"details\":");
        push_json_object(&mut out, &e.details);
    }
    push_count(&mut out, "omittedDetails", e.omitted_details);
    if let Some(seconds) = e.retry_after {
        out.push_str(&format!(",\"retryAfter\":{seconds}"));
    }
    if e.severity != Severity::Error {
        out.push_str(&format!(",\"severity\":\"{}\"", e.severity));
    }
    if let Some(category) = e.category {
        out.push_str(&format!(",\"category\":\"{category}\""));
    }
    if let Some(retryable) = e.retryable {
        out.push_str(&format!(",\"retryable\":{retryable}"));
    }
    if let Some(text) = &e.customer_message {
        out.push_str(",\"customerMessage\":");
        push_json_string(&mut out, text);
    }
    if let Some(id) = &e.correlation_id {
        out.push_str(",\"correlationId\":");
        push_json_string(&mut out, id);
    }
    if !e.deltas.is_empty() {
        out.push_str(",\"deltas\":");
        crate::delta::push_deltas_json(&mut out, &e.deltas.iter().collect::<Vec<_>>());
    }
    push_count(&mut out, "omittedDeltas", e.omitted_deltas);
    if e.locale != Locale::En {
        out.push_str(&format!(",\"locale\":\"{}\"", e.locale));
    }
    if e.localize_steering {
        out.push_str(",\"localizeSteering\":true");
    }
    if let Some(limits) = &e.limits {
        out.push_str(",\"limits\":");
        out.push_str(&limits.to_json());
    }
    match e.tool_failure {
        Some(ToolFailureMeta { now_ms: Some(now) }) => out.push_str(&format!(",\"toolFailure\":{{\"now\":{now}}}")),
        Some(ToolFailureMeta { now_ms: None }) => out.push_str(",\"toolFailure\":true"),
        None => {}
    }
    out.push('}');
    out
}

/// `,"name":N` when N is not 0.
fn push_count(out: &mut String, name: &str, count: usize) {
    if count > 0 {
        out.push_str(&format!(",\"{name}\":{count}"));
    }
}

/// How many items an envelope left out of a list beyond those given: a whole
/// number; `null` is 0.
pub(crate) fn omitted(raw: &str, what: &dyn std::fmt::Display) -> Result<usize, SpecError> {
    if is_null(raw) {
        return Ok(0);
    }
    crate::json::count(raw, what)
}

/// Detail values are shown as text: a string as itself, a number with its
/// written digits (so `12345678901234567890` stays exact), a boolean or `null`
/// as its word, and an object or array as its compact JSON, so whatever a host
/// holds in its details reaches the model rather than failing the error path.
fn details(raw: &str) -> Result<Vec<(String, String)>, SpecError> {
    if raw == "null" {
        return Ok(Vec::new());
    }
    let entries: Vec<(_, &RawValue)> = members(raw, A_JSON_OBJECT).map_err(|e| match kind_of_text(raw, &e) {
        Some(kind) => SpecError(format!("\"details\" must be an object, not {kind}")),
        None => SpecError(format!("invalid spec JSON in \"details\": {e}")),
    })?;
    if let Some(key) = repeated_key(&entries) {
        return fail(format!("\"details\" has the key {key:?} twice"));
    }
    Ok(entries
        .into_iter()
        .map(|(key, value)| {
            let raw = value.get();
            let text = match parse_string(raw) {
                Ok(text) => text.into_owned(),
                Err(_) => compact(raw),
            };
            (key.into_owned(), text)
        })
        .collect())
}

/// Seconds, rounded up to a whole second (a model told to wait 1.5 s must not
/// come back after 1); negative or beyond `u32::MAX` (136 years) is refused.
fn retry_after(value: Value) -> Result<Option<u32>, SpecError> {
    let seconds = match value {
        Value::Null => return Ok(None),
        Value::Number(n) => n.as_str().parse::<f64>().ok().filter(|s| s.is_finite()),
        other => {
            return fail(format!(
                "\"retryAfter\" must be a number of seconds, not {}",
                kind_of(&other)
            ))
        }
    };
    match seconds {
        Some(s) if s < 0.0 => fail("\"retryAfter\" must not be negative"),
        Some(s) if s.ceil() <= f64::from(u32::MAX) => Ok(Some(s.ceil() as u32)),
        // The number is not echoed: each host's JSON writer spells it differently.
        _ => fail(format!(
            "\"retryAfter\" is too large: the most it can be is {} seconds (about 136 years)",
            u32::MAX
        )),
    }
}

/// `true`, `false`/`null` (off), or `{"now": epoch milliseconds}`.
fn tool_failure(raw: &str) -> Result<Option<ToolFailureMeta>, SpecError> {
    let what = Quoted("toolFailure");
    match value(raw, &what)? {
        Value::Null | Value::Bool(false) => Ok(None),
        Value::Bool(true) => Ok(Some(ToolFailureMeta::default())),
        Value::Object(_) => {
            let mut meta = ToolFailureMeta::default();
            for (key, raw) in crate::json::object(raw, &what)? {
                match key.as_ref() {
                    "now" if is_null(&raw) => meta.now_ms = None,
                    // u64, not `count`: epoch milliseconds overflow a wasm32 usize.
                    "now" => match value(&raw, &what)?.as_u64() {
                        Some(ms) => meta.now_ms = Some(ms),
                        None => return fail("toolFailure.now must be Unix epoch milliseconds, a whole number"),
                    },
                    _ => return fail(format!("unknown key {key:?} in \"toolFailure\" (expected: now)")),
                }
            }
            Ok(Some(meta))
        }
        other => fail(format!(
            "\"toolFailure\" must be true, false or {{\"now\": milliseconds}}, not {}",
            kind_of(&other)
        )),
    }
}
