//! Validation input as JSON (what the CLI, the vectors and the component's
//! string functions take) and the parsed envelope as JSON.
//!
//! An issue is Zod 4's issue object, flattened: `path`, `code`, `input`,
//! `expected`, `format`, `pattern`, `values`, `minimum`, `maximum`,
//! `inclusive`, `exact`, `origin`, `keys`, `divisor`, `message`. Zod 4's
//! nested `errors`/`issues` and its `note`/`params` are accepted and ignored,
//! so `JSON.stringify(zodError.issues)` feeds it directly.

use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use super::model::{Bound, IssueCode, ValidationIssue, ValidationOptions};
use super::parse::ValidationEnvelope;
use super::path::PathSegment;
use crate::delta::ContractDelta;
use crate::error::SpecError;
use crate::json::{
    fail, given, is_zero, missing, parse_string, raw_kind, read_input, read_list, read_member, to_json, Count, Object,
};
use crate::locale::Locale;

/// Everything `render_validation` needs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationSpec {
    /// The action whose arguments failed, named on the envelope's root.
    pub action: String,
    /// What is wrong with the arguments, one field line each, in order.
    pub issues: Vec<ValidationIssue>,
    /// Contract changes to tell the model about; only those that apply to `action` are shown.
    pub deltas: Vec<ContractDelta>,
    /// The caps and the language the envelope is rendered with.
    pub options: ValidationOptions,
}

/// A validation spec as written.
#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    rename_all = "camelCase",
    expecting = "a validation spec object"
)]
struct ValidationInput {
    #[serde(default, deserialize_with = "given")]
    action: Option<String>,
    issues: Option<Vec<Object<IssueInput>>>,
    json_schema_errors: Option<Box<RawValue>>,
    arguments: Option<Box<RawValue>>,
    input_schema: Option<Box<RawValue>>,
    deltas: Option<Vec<Object<ContractDelta>>>,
    max_fields: Option<Count>,
    max_deltas: Option<Count>,
    locale: Option<Locale>,
    localize_steering: Option<bool>,
}

/// Reads `{"action", "issues"?, "jsonSchemaErrors"?, "arguments"?,
/// "inputSchema"?, "deltas"?, "maxFields"?, "maxDeltas"?, "locale"?,
/// "localizeSteering"?}`: neutral issues, then the issues of raw JSON Schema
/// errors, each given the value sent at its path in `arguments` when it does
/// not carry one, then each given its expectation from the tool's
/// `inputSchema` (the type, format, allowed values and bounds at its path),
/// so every validator's issues on one schema read alike.
#[inline]
pub fn validation_from_json(text: &str) -> Result<ValidationSpec, SpecError> {
    let input: ValidationInput = read_input(text, "the validation spec")?;
    let defaults = ValidationOptions::default();
    let options = ValidationOptions {
        locale: input.locale.unwrap_or(Locale::En),
        localize_steering: input.localize_steering.unwrap_or(false),
        max_fields: input.max_fields.map_or(defaults.max_fields, |c| c.0),
        max_deltas: input.max_deltas.map_or(defaults.max_deltas, |c| c.0),
    };
    let action = match input.action {
        Some(a) if !a.is_empty() => a,
        Some(_) => return fail("\"action\" must not be empty"),
        None => return missing("missing \"action\": name the action (or tool) whose arguments failed"),
    };
    let arguments = input.arguments.as_deref().map(RawValue::get);
    let schema_issues = match &input.json_schema_errors {
        Some(raw) => Some(super::json_schema::issues_from_errors(
            raw.get(),
            arguments,
            options.locale,
        )?),
        None => None,
    };
    let mut issues = match (input.issues, schema_issues) {
        (None, None) => return missing("missing \"issues\": list what failed (or give \"jsonSchemaErrors\")"),
        (issues, schema_issues) => {
            let issues = issues.unwrap_or_default().into_iter().map(|i| i.0.into_issue());
            issues.chain(schema_issues.unwrap_or_default()).collect::<Vec<_>>()
        }
    };
    if let Some(arguments) = arguments {
        super::arguments::fill_sent_values(&mut issues, arguments);
    }
    if let Some(schema) = input.input_schema.as_deref().map(RawValue::get) {
        if !schema.trim_start().starts_with('{') {
            return fail(format!(
                "\"inputSchema\" must be the tool's input schema, a JSON object, not {}",
                raw_kind(schema)
            ));
        }
        super::input_schema::expect_from_schema(&mut issues, schema, arguments.is_some());
    }
    Ok(ValidationSpec {
        action,
        issues,
        deltas: input.deltas.unwrap_or_default().into_iter().map(|d| d.0).collect(),
        options,
    })
}

/// The CLI's input as an object: `{"issues": [..], "deltas"?: [..]}`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "an object with issues")]
struct IssuesAndDeltas {
    #[serde(default, deserialize_with = "given")]
    issues: Option<Vec<Object<IssueInput>>>,
    deltas: Option<Vec<Object<ContractDelta>>>,
}

/// Reads the CLI's input: `{"issues": [..], "deltas"?: [..]}` or a bare issues array.
pub fn issues_and_deltas_from_json(text: &str) -> Result<(Vec<ValidationIssue>, Vec<ContractDelta>), SpecError> {
    let into_issues = |issues: Vec<Object<IssueInput>>| issues.into_iter().map(|i| i.0.into_issue()).collect();
    if text.trim_start().starts_with('[') {
        let issues: Vec<Object<IssueInput>> = read_list(text, "issues")?;
        return Ok((into_issues(issues), Vec::new()));
    }
    let input: IssuesAndDeltas = read_input(text, "the input")?;
    let issues = input
        .issues
        .ok_or_else(|| SpecError::missing("missing \"issues\": list what failed".into()))?;
    Ok((
        into_issues(issues),
        input.deltas.unwrap_or_default().into_iter().map(|d| d.0).collect(),
    ))
}

/// One issue as written: Zod 4's issue object, flattened. Zod's nested
/// `errors`/`issues` and its `note`/`params` are accepted and ignored.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "an issue object")]
struct IssueInput {
    code: IssueCode,
    #[serde(default)]
    path: Vec<Segment>,
    #[serde(default, deserialize_with = "given")]
    input: Option<Box<RawValue>>,
    expected: Option<String>,
    format: Option<String>,
    pattern: Option<String>,
    origin: Option<String>,
    message: Option<String>,
    #[serde(default)]
    values: Vec<Box<RawValue>>,
    #[serde(default)]
    keys: Vec<String>,
    minimum: Option<NumberText>,
    maximum: Option<NumberText>,
    divisor: Option<NumberText>,
    inclusive: Option<bool>,
    exact: Option<bool>,
    #[serde(rename = "errors")]
    _errors: Option<IgnoredAny>,
    #[serde(rename = "issues")]
    _issues: Option<IgnoredAny>,
    #[serde(rename = "note")]
    _note: Option<IgnoredAny>,
    #[serde(rename = "params")]
    _params: Option<IgnoredAny>,
}

impl IssueInput {
    fn into_issue(self) -> ValidationIssue {
        let (inclusive, exact) = (self.inclusive.unwrap_or(true), self.exact.unwrap_or(false));
        let bound = |n: Option<NumberText>| {
            n.map(|value| Bound {
                value: value.0,
                inclusive,
                exact,
            })
        };
        let mut issue = ValidationIssue::new(self.code);
        issue.path = self.path.into_iter().map(|s| s.0).collect();
        // A sent `null` is a value sent; only a missing `input` means none.
        issue.input = self.input.map(|raw| raw.get().to_owned());
        issue.expected = self.expected;
        issue.format = self.format;
        issue.pattern = self.pattern;
        issue.origin = self.origin;
        issue.message = self.message;
        issue.values = self.values.iter().map(|v| v.get().to_owned()).collect();
        issue.keys = self.keys;
        issue.minimum = bound(self.minimum);
        issue.maximum = bound(self.maximum);
        issue.divisor = self.divisor.map(|d| d.0);
        issue
    }
}

/// Reads one issue; `at` names it in errors (`issues[3]`).
pub fn issue(text: &str, at: &str) -> Result<ValidationIssue, SpecError> {
    read_member::<Object<IssueInput>>(text, at).map(|i| i.0.into_issue())
}

/// A step of a path: a key (string) or an index (whole number).
pub(crate) struct Segment(pub(crate) PathSegment);

impl<'de> Deserialize<'de> for Segment {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Read raw: an untagged enum would buffer the value and keep no
        // number's written text.
        crate::json::from_raw(deserializer, |raw| {
            super::path::segment(raw).map(Segment).map_err(|e| e.to_string())
        })
    }
}

/// A bound or divisor: a number as written, or a string.
struct NumberText(String);

impl<'de> Deserialize<'de> for NumberText {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        crate::json::from_raw(deserializer, |text| {
            if let Ok(s) = parse_string(text) {
                return Ok(NumberText(s.into_owned()));
            }
            match text.as_bytes().first() {
                Some(b'-' | b'0'..=b'9') => Ok(NumberText(text.to_owned())),
                _ => Err(format!(
                    "must be a number or a string, not {}",
                    crate::json::raw_kind(text)
                )),
            }
        })
    }
}

/// The parsed envelope's shapes as written, declared once: inside
/// [`envelope_to_json`], which writes them, and with the `schema` feature in
/// [`report`], as the wrappers' `ValidationReport` and `ValidationField`.
/// The writer's own copy stays in its body: hoisted to the module, it builds
/// the component to other bytes, which the schema feature must never change.
macro_rules! validation_report_shapes {
    () => {
        /// One listed field as written.
        #[derive(Serialize)]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[cfg_attr(
            feature = "schema",
            schemars(
                rename = "ValidationField",
                description = "The sent-versus-expected line of one field of a `<validation_error>`."
            )
        )]
        struct Field<'a> {
            /// The field's name, as the envelope gives it.
            name: &'a str,
            /// Its line: what was sent, what was expected.
            text: &'a str,
        }

        /// The parsed envelope as written, in this key order (a count of 0 is left out).
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        #[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
        #[cfg_attr(
            feature = "schema",
            schemars(
                rename = "ValidationReport",
                description = "A `<validation_error>` as read back."
            )
        )]
        pub struct EnvelopeOutput<'a> {
            /// The action whose arguments failed.
            action: &'a str,
            /// One line per field listed.
            fields: Vec<Field<'a>>,
            /// How many more fields failed than the envelope lists.
            #[serde(skip_serializing_if = "is_zero")]
            #[cfg_attr(feature = "schema", serde(default))]
            omitted_fields: usize,
            /// The contract changes the envelope lists.
            deltas: &'a [ContractDelta],
            /// How many more deltas apply than the envelope lists.
            #[serde(skip_serializing_if = "is_zero")]
            #[cfg_attr(feature = "schema", serde(default))]
            omitted_deltas: usize,
        }
    };
}

/// The schema's copy of the writer's shapes (`wire_schema`).
#[cfg(feature = "schema")]
#[allow(dead_code)] // never built: its schema is all it is for
pub(crate) mod report {
    use serde::Serialize;

    use crate::delta::ContractDelta;
    use crate::json::is_zero;

    validation_report_shapes!();
}

/// `{"action", "fields": [{"name", "text"}], "omittedFields"?, "deltas": [..], "omittedDeltas"?}`.
pub fn envelope_to_json(envelope: &ValidationEnvelope) -> String {
    validation_report_shapes!();
    to_json(&EnvelopeOutput {
        action: &envelope.action,
        fields: envelope
            .fields
            .iter()
            .map(|(name, text)| Field { name, text })
            .collect(),
        omitted_fields: envelope.omitted_fields,
        deltas: &envelope.deltas,
        omitted_deltas: envelope.omitted_deltas,
    })
}
