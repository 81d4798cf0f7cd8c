//! Raw JSON Schema validator errors (ajv's, and Python `jsonschema`'s in
//! ajv's member names) onto neutral issues. The two validators share JSON
//! Schema's keyword vocabulary, so one reader serves both and their
//! envelopes agree with each other and with Zod's. The mapping table is in
//! docs/component-api.md.

use super::arguments::{decimal_index, is_array_at};
use super::model::{Bound, IssueCode, ValidationIssue};
use super::path::PathSegment;
use crate::error::SpecError;
use crate::json::{array, members, missing, object, parse_object, parse_value, Error, Value, A_MAP};
use crate::locale::Locale;
use std::borrow::Cow;

/// Format names validators use for the neutral ones the templates know.
fn format_name(format: &str) -> &str {
    match format {
        "date-time" => "datetime",
        "uri" | "uri-reference" | "iri" | "iri-reference" => "url",
        other => other,
    }
}

/// One raw error, its members read.
struct RawError<'a> {
    keyword: String,
    path: Vec<PathSegment>,
    /// An object; empty when absent or unreadable.
    params: Value,
    schema: Option<Value>,
    /// An object, if any.
    parent: Option<Value>,
    data: Option<Cow<'a, str>>,
    message: Option<String>,
}

impl<'a> RawError<'a> {
    /// `params[name]`, else the keyword's own value in the schema.
    fn param(&self, name: &str) -> Option<&Value> {
        self.params.get(name).or(self.schema.as_ref())
    }

    /// The declared `type` of a property, from the schema holding the keyword.
    fn property_type(&self, property: &str) -> Option<String> {
        let declared = self.parent.as_ref()?.get("properties")?.get(property)?.get("type")?;
        first_type(declared)
    }

    fn issue(&self, code: IssueCode) -> ValidationIssue {
        let mut issue = ValidationIssue::new(code).at(self.path.clone());
        issue.message = self.message.clone();
        if !matches!(self.keyword.as_str(), "required" | "additionalProperties") {
            issue.input = self.data.as_ref().map(|d| d.to_string());
        }
        issue
    }
}

/// The first type of a `type` value (`"string"`, `["null", "integer"]`, ajv's
/// `"string,null"`), skipping `null`: rarely what the model meant to send.
fn first_type(value: &Value) -> Option<String> {
    let names: Vec<String> = match value {
        Value::String(s) => s.split(',').map(str::to_owned).collect(),
        Value::Array(items) => items.iter().filter_map(Value::as_str).map(str::to_owned).collect(),
        _ => return None,
    };
    names.iter().find(|t| *t != "null").or(names.first()).cloned()
}

fn bound_text(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::Number(n) => Some(n.to_string()),
        Value::String(s) => Some(s.to_string()),
        _ => None,
    }
}

/// Reads `jsonSchemaErrors` into issues, in the root schema's property order
/// when it is known (ajv reports `required` and `additionalProperties` first,
/// Zod in declaration order: sorted, the same failures give the same envelope).
pub(crate) fn issues_from_errors(
    raw: &str,
    arguments: Option<&str>,
    locale: Locale,
) -> Result<Vec<ValidationIssue>, SpecError> {
    let errors = array(raw, &"\"jsonSchemaErrors\"")?
        .iter()
        .enumerate()
        .map(|(i, item)| read_error(item, &format!("jsonSchemaErrors[{i}]"), arguments))
        .collect::<Result<Vec<_>, _>>()?;
    let mut issues: Vec<ValidationIssue> = Vec::new();
    // Missing properties already reported per object, for validators that
    // report each one as its own `required` error without naming it.
    let mut reported_missing: Vec<(Vec<PathSegment>, String)> = Vec::new();
    for error in &errors {
        match error.keyword.as_str() {
            "required" => {
                let named = error
                    .params
                    .get("missingProperty")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                let next = named.or_else(|| next_missing(error, &reported_missing));
                if let Some(property) = next {
                    reported_missing.push((error.path.clone(), property.clone()));
                    let mut issue = error.issue(IssueCode::MissingRequired);
                    issue.path.push(PathSegment::Key(property.clone()));
                    issue.expected = error.property_type(&property);
                    issues.push(issue);
                }
            }
            "additionalProperties" => {
                let keys: Vec<String> = match error.params.get("additionalProperty").and_then(Value::as_str) {
                    Some(key) => vec![key.to_owned()],
                    None => extra_keys(error),
                };
                // ajv reports each extra key apart; Zod together: one issue per object either way.
                let same_object = issues
                    .iter_mut()
                    .find(|i| i.code == IssueCode::UnrecognizedKeys && i.path == error.path);
                match same_object {
                    Some(issue) => issue.keys.extend(keys),
                    None => {
                        let mut issue = error.issue(IssueCode::UnrecognizedKeys);
                        issue.keys = keys;
                        issues.push(issue);
                    }
                }
            }
            _ => issues.push(keyword_issue(error, locale)),
        }
    }
    // A schema from Zod states a named `format` and the pattern behind it;
    // the model needs only the format.
    let named_format_paths: Vec<Vec<PathSegment>> = issues
        .iter()
        .filter(|i| i.code == IssueCode::InvalidFormat && i.format.as_deref() != Some("regex"))
        .map(|i| i.path.clone())
        .collect();
    issues.retain(|i| {
        !(i.code == IssueCode::InvalidFormat
            && i.format.as_deref() == Some("regex")
            && named_format_paths.contains(&i.path))
    });
    if let Some(order) = root_property_order(&errors) {
        let rank = |issue: &ValidationIssue| match issue.path.first() {
            None => order.len() + 1,
            Some(PathSegment::Key(key)) => order.iter().position(|p| p == key).unwrap_or(order.len()),
            Some(PathSegment::Index(_)) => order.len(),
        };
        // Within one property, its elements' issues come before its own (as
        // Zod reports them: elements are checked before the array's size);
        // otherwise the sort is stable and keeps the validator's order.
        // Buckets rather than a sort: stable, and no sort routine in the component.
        let mut buckets: Vec<Vec<ValidationIssue>> = vec![Vec::new(); order.len() + 2];
        for issue in issues.drain(..) {
            buckets[rank(&issue)].push(issue);
        }
        for mut bucket in buckets {
            while let Some(deepest) = bucket.iter().map(|i| i.path.len()).max() {
                let (first, rest) = bucket.into_iter().partition(|i| i.path.len() == deepest);
                issues.extend::<Vec<ValidationIssue>>(first);
                bucket = rest;
            }
        }
    }
    Ok(issues)
}

fn keyword_issue(error: &RawError<'_>, locale: Locale) -> ValidationIssue {
    let keyword = error.keyword.as_str();
    match keyword {
        "type" => {
            let mut issue = error.issue(IssueCode::InvalidType);
            issue.expected = error.param("type").and_then(first_type);
            issue
        }
        "minLength" | "maxLength" | "minItems" | "maxItems" | "minProperties" | "maxProperties" | "minimum"
        | "maximum" | "exclusiveMinimum" | "exclusiveMaximum" => {
            let small = keyword.starts_with("min") || keyword == "exclusiveMinimum";
            let origin = if keyword.ends_with("Length") {
                "string"
            } else if keyword.ends_with("Items") {
                "array"
            } else if keyword.ends_with("Properties") {
                "object"
            } else {
                "number"
            };
            // Draft 4 writes `exclusiveMinimum: true` beside `minimum`.
            let draft4_flag = if small { "exclusiveMinimum" } else { "exclusiveMaximum" };
            let draft4_exclusive = matches!(keyword, "minimum" | "maximum")
                && error.parent.as_ref().and_then(|p| p.get(draft4_flag)) == Some(&Value::Bool(true));
            let bound = bound_text(error.param("limit")).map(|value| Bound {
                value,
                inclusive: !(keyword.starts_with("exclusive") || draft4_exclusive),
                exact: false,
            });
            let mut issue = error.issue(if small { IssueCode::TooSmall } else { IssueCode::TooBig });
            issue.origin = Some(origin.to_owned());
            if small {
                issue.minimum = bound;
            } else {
                issue.maximum = bound;
            }
            issue
        }
        "multipleOf" => {
            let mut issue = error.issue(IssueCode::NotMultipleOf);
            issue.divisor = bound_text(error.param("multipleOf"));
            issue
        }
        "pattern" => {
            let mut issue = error.issue(IssueCode::InvalidFormat).format("regex");
            issue.pattern = error.param("pattern").and_then(Value::as_str).map(str::to_owned);
            issue
        }
        "format" => {
            let format = error.param("format").and_then(Value::as_str).unwrap_or("");
            error.issue(IssueCode::InvalidFormat).format(format_name(format))
        }
        "enum" | "const" => {
            let values = match (
                keyword,
                error.param(if keyword == "enum" {
                    "allowedValues"
                } else {
                    "allowedValue"
                }),
            ) {
                ("enum", Some(Value::Array(items))) => items.iter().map(Value::to_string).collect(),
                ("const", Some(value)) => vec![value.to_string()],
                _ => Vec::new(),
            };
            let mut issue = error.issue(IssueCode::InvalidValue);
            issue.values = values;
            issue
        }
        "anyOf" | "oneOf" => error.issue(IssueCode::InvalidUnion),
        "propertyNames" => error.issue(IssueCode::InvalidKey),
        "uniqueItems" => {
            let mut issue = error.issue(IssueCode::Custom);
            issue.message = Some(locale.words().field.duplicate_items.to_owned());
            issue
        }
        _ => error.issue(IssueCode::Custom),
    }
}

/// The next property of a `required` list missing from the object that has
/// not been reported yet (Python's `jsonschema` reports one error per
/// property without naming it apart from its English message).
fn next_missing(error: &RawError<'_>, reported: &[(Vec<PathSegment>, String)]) -> Option<String> {
    let present = object_keys(error.data.as_deref());
    let required = error.schema.as_ref()?.as_array()?;
    required
        .iter()
        .filter_map(Value::as_str)
        .find(|p| !present.iter().any(|k| k == p) && !reported.iter().any(|(path, q)| *path == error.path && q == p))
        .map(str::to_owned)
}

/// Keys of the object not declared in `properties` (patterns in
/// `patternProperties` are not evaluated: the core has no regex engine).
fn extra_keys(error: &RawError<'_>) -> Vec<String> {
    let declared = error
        .parent
        .as_ref()
        .and_then(|p| p.get("properties"))
        .filter(|d| d.is_object());
    object_keys(error.data.as_deref())
        .into_iter()
        .filter(|k| declared.is_none_or(|d| d.get(k).is_none()))
        .collect()
}

fn object_keys(data: Option<&str>) -> Vec<String> {
    data.and_then(|d| parse_object(d).ok())
        .map(|members| members.into_iter().map(|(k, _)| k.into_owned()).collect())
        .unwrap_or_default()
}

/// The property order of the root schema, from an error at the root that carries it.
fn root_property_order(errors: &[RawError<'_>]) -> Option<Vec<String>> {
    errors.iter().filter(|e| e.path.is_empty()).find_map(|e| {
        let properties = e.parent.as_ref()?.get("properties")?;
        properties.is_object().then(|| {
            properties
                .as_object()
                .into_iter()
                .flat_map(|m| m.keys().cloned())
                .collect()
        })
    })
}

/// A member read with `read`.
fn member_value(member: &str, read: fn(&str) -> Result<Value, Error>) -> Option<Value> {
    read(member).ok()
}

/// An object, each key once with its last value and at its first place.
fn map(text: &str) -> Result<Value, Error> {
    let members: Vec<(_, Value)> = members(text, A_MAP)?;
    Ok(Value::Object(
        members.into_iter().map(|(k, v)| (k.into_owned(), v)).collect(),
    ))
}

fn read_error<'a>(raw: &'a str, at: &str, arguments: Option<&str>) -> Result<RawError<'a>, SpecError> {
    let mut error = RawError {
        keyword: String::new(),
        path: Vec::new(),
        params: Value::Object(Default::default()),
        schema: None,
        parent: None,
        data: None,
        message: None,
    };
    let mut has_keyword = false;
    for (key, member) in object(raw, &at)? {
        let what = crate::json::Member(&at, &key);
        // Metadata a validator adds beyond these (schemaPath, plugins' own) is ignored.
        match key.as_ref() {
            "keyword" => {
                error.keyword = crate::json::string(&member, &what)?;
                has_keyword = true;
            }
            "instancePath" => {
                let pointer = crate::json::string(&member, &what)?;
                error.path = pointer_path(&pointer, arguments);
            }
            "path" => error.path = super::path::read_path(&member, &what)?,
            // Each is optional metadata: one a JSON parser cannot hold (a
            // schema nested past its depth limit) is left out, not refused.
            "params" => error.params = member_value(&member, map).unwrap_or(Value::Object(Default::default())),
            "schema" => error.schema = member_value(&member, parse_value),
            "parentSchema" => error.parent = member_value(&member, map),
            "data" => error.data = Some(member),
            "message" => error.message = crate::json::optional_string(&member, &what)?,
            _ => {}
        }
    }
    if !has_keyword {
        return missing(format!("{at} has no \"keyword\""));
    }
    Ok(error)
}

/// The path of a JSON pointer (`/items/0/sku`). A pointer does not say whether
/// `0` is an index or a key: an index where the arguments hold an array there,
/// and where no arguments are given, an index when it is a plain number.
fn pointer_path(pointer: &str, arguments: Option<&str>) -> Vec<PathSegment> {
    let mut path = Vec::new();
    if pointer.is_empty() {
        return path;
    }
    for encoded in pointer.strip_prefix('/').unwrap_or(pointer).split('/') {
        let segment = encoded.replace("~1", "/").replace("~0", "~");
        let is_index = match (decimal_index(&segment), arguments) {
            (None, _) => false,
            (Some(_), Some(arguments)) => is_array_at(arguments, &path),
            (Some(_), None) => true,
        };
        path.push(match (is_index, decimal_index(&segment)) {
            (true, Some(i)) => PathSegment::Index(i as u64),
            _ => PathSegment::Key(segment),
        });
    }
    path
}
