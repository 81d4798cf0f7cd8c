//! Validation input as JSON (what the CLI, the vectors and the component's
//! string functions take) and the parsed envelope as JSON.
//!
//! An issue is Zod 4's issue object, flattened: `path`, `code`, `input`,
//! `expected`, `format`, `pattern`, `values`, `minimum`, `maximum`,
//! `inclusive`, `exact`, `origin`, `keys`, `divisor`, `message`. Zod 4's
//! nested `errors`/`issues` and its `note`/`params` are accepted and ignored,
//! so `JSON.stringify(zodError.issues)` feeds it directly.

use super::model::{Bound, IssueCode, ValidationIssue, ValidationOptions};
use super::parse::ValidationEnvelope;
use super::path::read_path;
use crate::delta::{deltas_from_raw, push_deltas_json, ContractDelta};
use crate::error::SpecError;
use crate::json::{
    array, boolean, count, fail, is_null, number_text, object, one_of, optional_string, push_json_string, string,
    string_list, Member,
};
use crate::locale::Locale;

/// Everything `render_validation` needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationSpec {
    pub action: String,
    pub issues: Vec<ValidationIssue>,
    pub deltas: Vec<ContractDelta>,
    pub options: ValidationOptions,
}

/// Reads `{"action", "issues"?, "jsonSchemaErrors"?, "arguments"?, "deltas"?,
/// "maxFields"?, "maxDeltas"?, "locale"?, "localizeSteering"?}`: neutral
/// issues, then the issues of raw JSON Schema errors, each given the value
/// sent at its path in `arguments` when it does not carry one.
pub fn validation_from_json(text: &str) -> Result<ValidationSpec, SpecError> {
    let members = object(text, &"the validation spec")?;
    let arguments = members.iter().find(|(k, _)| k == "arguments").map(|(_, raw)| &**raw);
    let mut options = ValidationOptions::default();
    // Read first: the JSON Schema reader words the issues it makes up itself.
    if let Some((_, raw)) = members.iter().find(|(k, _)| k == "locale") {
        options.locale = locale(raw)?;
    }
    let mut action = None;
    let (mut issues, mut schema_issues) = (None, None);
    let mut deltas = Vec::new();
    for (key, raw) in &members {
        match key.as_ref() {
            "action" => action = Some(string(raw, &"\"action\"")?),
            "issues" => issues = Some(issues_from_raw(raw)?),
            "jsonSchemaErrors" => {
                schema_issues = Some(super::json_schema::issues_from_errors(raw, arguments, options.locale)?)
            }
            "arguments" | "locale" => {}
            "deltas" => deltas = deltas_from_raw(raw)?,
            "maxFields" => options.max_fields = count(raw, &"\"maxFields\"")?,
            "maxDeltas" => options.max_deltas = count(raw, &"\"maxDeltas\"")?,
            "localizeSteering" if is_null(raw) => options.localize_steering = false,
            "localizeSteering" => options.localize_steering = boolean(raw, &"\"localizeSteering\"")?,
            _ => {
                return fail(format!(
                    "unknown key {key:?} in the validation spec (expected one of: action, issues, jsonSchemaErrors, arguments, deltas, maxFields, maxDeltas, locale, localizeSteering)"
                ))
            }
        }
    }
    let action = match action {
        Some(a) if !a.is_empty() => a,
        Some(_) => return fail("\"action\" must not be empty"),
        None => return fail("missing \"action\": name the action (or tool) whose arguments failed"),
    };
    let mut issues = match (issues, schema_issues) {
        (None, None) => return fail("missing \"issues\": list what failed (or give \"jsonSchemaErrors\")"),
        (issues, schema_issues) => [issues.unwrap_or_default(), schema_issues.unwrap_or_default()].concat(),
    };
    if let Some(arguments) = arguments {
        super::arguments::fill_sent_values(&mut issues, arguments);
    }
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
        let raw = crate::json::parse_raw(text).map_err(|e| SpecError(format!("invalid JSON: {e}")))?;
        return Ok((issues_from_raw(raw)?, Vec::new()));
    }
    let (mut issues, mut deltas) = (None, Vec::new());
    for (key, raw) in object(text, &"the input")? {
        match key.as_ref() {
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

/// `"en"` or `"pt-BR"`, spelled exactly; `null` is English, as in the error spec.
fn locale(raw: &str) -> Result<Locale, SpecError> {
    if is_null(raw) {
        return Ok(Locale::En);
    }
    one_of(raw, &"\"locale\"", Locale::ALL, Locale::as_str)
}

fn issues_from_raw(raw: &str) -> Result<Vec<ValidationIssue>, SpecError> {
    array(raw, &"\"issues\"")?
        .iter()
        .enumerate()
        .map(|(i, item)| issue(item, &format!("issues[{i}]")))
        .collect()
}

/// Reads one issue; `at` names it in errors (`issues[3]`).
pub fn issue(text: &str, at: &str) -> Result<ValidationIssue, SpecError> {
    let members = object(text, &at)?;
    let code = match members.iter().find(|(k, _)| k == "code") {
        Some((_, raw)) => one_of(raw, &Member(&at, "code"), IssueCode::ALL, IssueCode::as_str)?,
        None => return fail(format!("{at} has no \"code\"")),
    };
    let mut issue = ValidationIssue::new(code);
    let (mut inclusive, mut exact) = (true, false);
    let (mut minimum, mut maximum) = (None, None);
    for (key, raw) in &members {
        let what = Member(&at, key);
        match key.as_ref() {
            "code" | "errors" | "issues" | "note" | "params" => {}
            "path" => issue.path = read_path(raw, &what)?,
            "input" => issue.input = Some(raw.to_string()),
            "expected" => issue.expected = optional_string(raw, &what)?,
            "format" => issue.format = optional_string(raw, &what)?,
            "pattern" => issue.pattern = optional_string(raw, &what)?,
            "origin" => issue.origin = optional_string(raw, &what)?,
            "message" => issue.message = optional_string(raw, &what)?,
            "values" => issue.values = array(raw, &what)?.iter().map(|v| (*v).to_owned()).collect(),
            "keys" => issue.keys = string_list(raw, &what)?,
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
    push_deltas_json(&mut out, &envelope.deltas.iter().collect::<Vec<_>>());
    if envelope.omitted_deltas > 0 {
        out.push_str(&format!(",\"omittedDeltas\":{}", envelope.omitted_deltas));
    }
    out.push('}');
    out
}
