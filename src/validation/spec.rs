//! Validation input as JSON (what the CLI, the vectors and the component's
//! string functions take) and the parsed envelope as JSON.
//!
//! An issue is Zod 4's issue object, flattened: `path`, `code`, `input`,
//! `expected`, `format`, `pattern`, `values`, `minimum`, `maximum`,
//! `inclusive`, `exact`, `origin`, `keys`, `divisor`, `message`. Zod 4's
//! nested `errors`/`issues` and its `note`/`params` are accepted and ignored,
//! so `JSON.stringify(zodError.issues)` feeds it directly.

use super::model::{Bound, ContractDelta, DeltaSeverity, IssueCode, PathSegment, ValidationIssue, ValidationOptions};
use super::parse::ValidationEnvelope;
use crate::json_object::{kind_of, parse_object, repeated_key};
use crate::render::push_json_string;
use crate::spec::SpecError;
use serde_json::value::RawValue;
use serde_json::Value;

/// Everything `render_validation` needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationSpec {
    pub action: String,
    pub issues: Vec<ValidationIssue>,
    pub deltas: Vec<ContractDelta>,
    pub options: ValidationOptions,
}

type Members = Vec<(String, Box<RawValue>)>;

fn fail<T>(message: impl Into<String>) -> Result<T, SpecError> {
    Err(SpecError(message.into()))
}

fn object(text: &str, what: &str) -> Result<Members, SpecError> {
    let members = parse_object(text).map_err(|e| match crate::json_object::kind_of_text(text, &e) {
        Some(kind) => SpecError(format!("{what} must be a JSON object, not {kind}")),
        None => SpecError(format!("invalid JSON in {what}: {e}")),
    })?;
    if let Some(key) = repeated_key(&members) {
        return fail(format!("{what} has the key {key:?} twice"));
    }
    Ok(members)
}

fn value(raw: &RawValue, what: &str) -> Result<Value, SpecError> {
    serde_json::from_str(raw.get()).map_err(|e| SpecError(format!("invalid JSON in {what}: {e}")))
}

fn array(raw: &RawValue, what: &str) -> Result<Vec<Box<RawValue>>, SpecError> {
    serde_json::from_str::<Vec<Box<RawValue>>>(raw.get()).map_err(|e| {
        match crate::json_object::kind_of_text(raw.get(), &e) {
            Some(kind) => SpecError(format!("{what} must be an array, not {kind}")),
            None if raw.get().trim_start().starts_with('{') => {
                SpecError(format!("{what} must be an array, not an object"))
            }
            None => SpecError(format!("invalid JSON in {what}: {e}")),
        }
    })
}

fn string(raw: &RawValue, what: &str) -> Result<String, SpecError> {
    match value(raw, what)? {
        Value::String(s) => Ok(s),
        other => fail(format!("{what} must be a string, not {}", kind_of(&other))),
    }
}

fn optional_string(raw: &RawValue, what: &str) -> Result<Option<String>, SpecError> {
    match value(raw, what)? {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s)),
        other => fail(format!("{what} must be a string, not {}", kind_of(&other))),
    }
}

fn boolean(raw: &RawValue, what: &str) -> Result<bool, SpecError> {
    match value(raw, what)? {
        Value::Bool(b) => Ok(b),
        other => fail(format!("{what} must be true or false, not {}", kind_of(&other))),
    }
}

fn count(raw: &RawValue, what: &str) -> Result<usize, SpecError> {
    match value(raw, what)?.as_u64() {
        Some(n) => Ok(usize::try_from(n).unwrap_or(usize::MAX)),
        None => fail(format!("{what} must be a whole number, 0 or more")),
    }
}

/// A number or a string, as written (bounds, divisors).
fn number_text(raw: &RawValue, what: &str) -> Result<String, SpecError> {
    match value(raw, what)? {
        Value::Number(n) => Ok(n.to_string()),
        Value::String(s) => Ok(s),
        other => fail(format!("{what} must be a number or a string, not {}", kind_of(&other))),
    }
}

/// Reads `{"action", "issues", "deltas"?, "maxFields"?, "maxDeltas"?}`.
pub fn validation_from_json(text: &str) -> Result<ValidationSpec, SpecError> {
    let mut action = None;
    let mut issues = None;
    let mut deltas = Vec::new();
    let mut options = ValidationOptions::default();
    for (key, raw) in object(text, "the validation spec")? {
        match key.as_str() {
            "action" => action = Some(string(&raw, "\"action\"")?),
            "issues" => issues = Some(issues_from_raw(&raw)?),
            "deltas" => deltas = deltas_from_raw(&raw)?,
            "maxFields" => options.max_fields = count(&raw, "\"maxFields\"")?,
            "maxDeltas" => options.max_deltas = count(&raw, "\"maxDeltas\"")?,
            _ => {
                return fail(format!(
                    "unknown key {key:?} in the validation spec (expected one of: action, issues, deltas, maxFields, maxDeltas)"
                ))
            }
        }
    }
    let action = match action {
        Some(a) if !a.is_empty() => a,
        Some(_) => return fail("\"action\" must not be empty"),
        None => return fail("missing \"action\": name the action (or tool) whose arguments failed"),
    };
    let issues = issues.ok_or_else(|| SpecError("missing \"issues\": list what failed".into()))?;
    Ok(ValidationSpec {
        action,
        issues,
        deltas,
        options,
    })
}

/// Reads the CLI's input: `{"issues": [..], "deltas"?: [..]}` or a bare issues array.
pub fn issues_and_deltas_from_json(text: &str) -> Result<(Vec<ValidationIssue>, Vec<ContractDelta>), SpecError> {
    if text.trim_start().starts_with('[') {
        let raw: Box<RawValue> = serde_json::from_str(text).map_err(|e| SpecError(format!("invalid JSON: {e}")))?;
        return Ok((issues_from_raw(&raw)?, Vec::new()));
    }
    let (mut issues, mut deltas) = (None, Vec::new());
    for (key, raw) in object(text, "the input")? {
        match key.as_str() {
            "issues" => issues = Some(issues_from_raw(&raw)?),
            "deltas" => deltas = deltas_from_raw(&raw)?,
            _ => {
                return fail(format!(
                    "unknown key {key:?} (expected \"issues\" and optionally \"deltas\")"
                ))
            }
        }
    }
    Ok((
        issues.ok_or_else(|| SpecError("missing \"issues\": list what failed".into()))?,
        deltas,
    ))
}

fn issues_from_raw(raw: &RawValue) -> Result<Vec<ValidationIssue>, SpecError> {
    array(raw, "\"issues\"")?
        .iter()
        .enumerate()
        .map(|(i, item)| issue(item.get(), &format!("issues[{i}]")))
        .collect()
}

fn deltas_from_raw(raw: &RawValue) -> Result<Vec<ContractDelta>, SpecError> {
    if raw.get() == "null" {
        return Ok(Vec::new());
    }
    array(raw, "\"deltas\"")?
        .iter()
        .enumerate()
        .map(|(i, item)| delta(item.get(), &format!("deltas[{i}]")))
        .collect()
}

/// Reads one issue; `at` names it in errors (`issues[3]`).
pub fn issue(text: &str, at: &str) -> Result<ValidationIssue, SpecError> {
    let members = object(text, at)?;
    let code = match members.iter().find(|(k, _)| k == "code") {
        Some((_, raw)) => {
            let name = string(raw, &format!("{at}.code"))?;
            IssueCode::from_wire(&name).ok_or_else(|| {
                let all: Vec<&str> = IssueCode::ALL.iter().map(|c| c.as_str()).collect();
                SpecError(format!("{at}.code is {name:?}; expected one of: {}", all.join(", ")))
            })?
        }
        None => return fail(format!("{at} has no \"code\"")),
    };
    let mut issue = ValidationIssue::new(code);
    let (mut inclusive, mut exact) = (true, false);
    let (mut minimum, mut maximum) = (None, None);
    for (key, raw) in &members {
        let what = format!("{at}.{key}");
        match key.as_str() {
            "code" | "errors" | "issues" | "note" | "params" => {}
            "path" => issue.path = path(raw, &what)?,
            "input" => issue.input = Some(raw.get().to_owned()),
            "expected" => issue.expected = optional_string(raw, &what)?,
            "format" => issue.format = optional_string(raw, &what)?,
            "pattern" => issue.pattern = optional_string(raw, &what)?,
            "origin" => issue.origin = optional_string(raw, &what)?,
            "message" => issue.message = optional_string(raw, &what)?,
            "values" => issue.values = array(raw, &what)?.iter().map(|v| v.get().to_owned()).collect(),
            "keys" => {
                issue.keys = array(raw, &what)?
                    .iter()
                    .enumerate()
                    .map(|(i, k)| string(k, &format!("{what}[{i}]")))
                    .collect::<Result<_, _>>()?
            }
            "minimum" => minimum = Some(number_text(raw, &what)?),
            "maximum" => maximum = Some(number_text(raw, &what)?),
            "divisor" => issue.divisor = Some(number_text(raw, &what)?),
            "inclusive" => inclusive = boolean(raw, &what)?,
            "exact" => exact = boolean(raw, &what)?,
            _ => return fail(format!("unknown key {key:?} in {at}")),
        }
    }
    issue.minimum = minimum.map(|value| Bound {
        value,
        inclusive,
        exact,
    });
    issue.maximum = maximum.map(|value| Bound {
        value,
        inclusive,
        exact,
    });
    Ok(issue)
}

fn path(raw: &RawValue, what: &str) -> Result<Vec<PathSegment>, SpecError> {
    array(raw, what)?
        .iter()
        .enumerate()
        .map(|(i, segment)| match value(segment, what)? {
            Value::String(key) => Ok(PathSegment::Key(key)),
            Value::Number(n) if n.as_u64().is_some() => Ok(PathSegment::Index(n.as_u64().unwrap_or_default())),
            other => fail(format!(
                "{what}[{i}] must be a key (string) or an index (whole number), not {}",
                describe(&other)
            )),
        })
        .collect()
}

fn describe(value: &Value) -> String {
    match value {
        Value::Number(n) => format!("the number {n}"),
        other => kind_of(other).to_owned(),
    }
}

/// Reads one contract delta; `at` names it in errors.
pub fn delta(text: &str, at: &str) -> Result<ContractDelta, SpecError> {
    let (mut action, mut severity, mut field, mut description, mut before, mut after) =
        (None, None, None, None, None, None);
    for (key, raw) in object(text, at)? {
        let what = format!("{at}.{key}");
        match key.as_str() {
            "action" => action = optional_string(&raw, &what)?,
            "severity" => {
                let name = string(&raw, &what)?;
                severity = Some(DeltaSeverity::from_wire(&name).ok_or_else(|| {
                    SpecError(format!(
                        "{what} is {name:?}; expected one of: BREAKING, RISKY, SAFE, COSMETIC"
                    ))
                })?);
            }
            "field" => field = Some(string(&raw, &what)?),
            "description" => description = Some(string(&raw, &what)?),
            "before" => before = optional_string(&raw, &what)?,
            "after" => after = optional_string(&raw, &what)?,
            _ => {
                return fail(format!(
                    "unknown key {key:?} in {at} (expected: action, severity, field, description, before, after)"
                ))
            }
        }
    }
    Ok(ContractDelta {
        action,
        severity: severity.ok_or_else(|| SpecError(format!("{at} has no \"severity\"")))?,
        field: field.ok_or_else(|| SpecError(format!("{at} has no \"field\"")))?,
        description: description.ok_or_else(|| SpecError(format!("{at} has no \"description\"")))?,
        before,
        after,
    })
}

/// Reads a list of deltas given as a JSON array (the tool error spec's `deltas`).
pub(crate) fn deltas_from_json(text: &str) -> Result<Vec<ContractDelta>, SpecError> {
    let raw: Box<RawValue> =
        serde_json::from_str(text).map_err(|e| SpecError(format!("invalid JSON in \"deltas\": {e}")))?;
    deltas_from_raw(&raw)
}

/// `{"action", "fields": [{"name", "text"}], "omittedFields"?, "deltas": [..], "omittedDeltas"?}`.
pub fn envelope_to_json(envelope: &ValidationEnvelope) -> String {
    let mut out = String::from("{\"action\":");
    push_json_string(&mut out, &envelope.action);
    out.push_str(",\"fields\":[");
    for (i, (name, text)) in envelope.fields.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"name\":");
        push_json_string(&mut out, name);
        out.push_str(",\"text\":");
        push_json_string(&mut out, text);
        out.push('}');
    }
    out.push(']');
    if envelope.omitted_fields > 0 {
        out.push_str(&format!(",\"omittedFields\":{}", envelope.omitted_fields));
    }
    out.push_str(",\"deltas\":");
    super::render::push_deltas_json(&mut out, &envelope.deltas.iter().collect::<Vec<_>>());
    if envelope.omitted_deltas > 0 {
        out.push_str(&format!(",\"omittedDeltas\":{}", envelope.omitted_deltas));
    }
    out.push('}');
    out
}
