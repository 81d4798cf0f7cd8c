//! Words each issue's expectation from the tool's published `inputSchema`,
//! the JSON Schema the model read in `tools/list`: Zod, pydantic, ajv,
//! `jsonschema` and serde each describe the same mistake in their own way
//! (pydantic reports a bad `EmailStr` as a `value_error` in its own English,
//! Zod calls an integer field's expected type "number", a missing field may
//! carry no type at all), but the schema says once what was expected. So an
//! issue keeps what the validator found (which field, what kind of problem,
//! what was sent) and takes what was expected from the schema: its type,
//! format, pattern, allowed values and bounds.
//!
//! Written by hand because it reads a few keywords at one instance path and
//! validates nothing: a JSON Schema crate would validate (and bring its own
//! regex engine into the component) to answer a question it does not ask.
//! The walk down the path is `crate::json_schema`'s, shared with the
//! contract diff.

use super::arguments::decimal_index;
use super::model::{Bound, IssueCode, ValidationIssue};
use super::path::PathSegment;
use std::cmp::Ordering;

use crate::json::{compare_numbers, parse_value, Value};
use crate::json_schema::{item, optional_of, property, resolve, resolve_non_null};

/// Rewrites each issue's expectation from the sub-schema at its path in
/// `schema` (the tool's `inputSchema`, raw JSON text of an object). An
/// issue whose path the schema does not describe is left as it is.
/// `arguments_given` says whether the issues' sent values were looked up in
/// the call's arguments: then an issue with no sent value is about a field
/// that was not sent, whatever the validator called it.
pub(crate) fn expect_from_schema(issues: &mut Vec<ValidationIssue>, schema: &str, arguments_given: bool) {
    // Nested past serde_json's depth limit: no schema a model was shown.
    let Ok(schema) = parse_value(schema) else {
        return;
    };
    let schema = &schema;
    drop_null_branches(issues, schema);
    for issue in issues.iter_mut() {
        if matches!(issue.code, IssueCode::UnrecognizedKeys | IssueCode::InvalidUnion) {
            continue; // about the keys or branches sent, which the schema does not word
        }
        let Some(node) = declared_at(schema, &issue.path).and_then(|declared| resolved(schema, declared)) else {
            continue;
        };
        let Some(facts) = Facts::of(node) else {
            continue;
        };
        let not_sent = issue.input.is_none()
            && (arguments_given || matches!(issue.code, IssueCode::MissingRequired | IssueCode::InvalidType));
        if not_sent {
            missing(issue, &facts);
        } else {
            sent(issue, &facts);
        }
    }
}

/// An optional field (an `anyOf`/`oneOf` of one schema and `null`, as
/// pydantic and Zod write `Optional`) that was sent a value failed the one
/// schema. A validator that reports every branch (ajv; `jsonschema`'s
/// context, as the Python package hands it on) also says the value is not
/// `null` and matches no branch: true, and no help to the model. Those two
/// go when the branch's own failure (at the field or inside it) is there to
/// say what was expected.
fn drop_null_branches(issues: &mut Vec<ValidationIssue>, schema: &Value) {
    let is_optional = |declared| {
        let here = resolve(schema, declared);
        here.broken.is_none() && optional_of(here.schema).is_some()
    };
    let optional: Vec<Vec<PathSegment>> = issues
        .iter()
        .filter(|i| i.code == IssueCode::InvalidUnion)
        .filter(|i| declared_at(schema, &i.path).is_some_and(is_optional))
        .map(|i| i.path.clone())
        .collect();
    if optional.is_empty() {
        return;
    }
    let null_branch = |i: &ValidationIssue| i.code == IssueCode::InvalidType && i.expected.as_deref() == Some("null");
    let own_failure = |path: &[PathSegment], issues: &[ValidationIssue]| {
        issues.iter().any(|i| {
            i.path.starts_with(path) && !(i.path == path && (i.code == IssueCode::InvalidUnion || null_branch(i)))
        })
    };
    let answered: Vec<&Vec<PathSegment>> = optional.iter().filter(|p| own_failure(p, issues)).collect();
    issues.retain(|i| {
        let at_optional = answered.iter().any(|p| **p == i.path);
        !(at_optional && (i.code == IssueCode::InvalidUnion || null_branch(i)))
    });
}

/// A field that was not sent: what to send, as specific as the schema says.
fn missing(issue: &mut ValidationIssue, facts: &Facts) {
    let path = std::mem::take(&mut issue.path);
    *issue = ValidationIssue::new(IssueCode::MissingRequired).at(path);
    issue.expected = facts.type_name.clone();
    issue.values = facts.values.clone();
    issue.format = facts.format.clone();
    if issue.format.is_none() && facts.pattern.is_some() {
        issue.format = Some("regex".into());
        issue.pattern = facts.pattern.clone();
    }
}

/// A value that was sent and is wrong: the validator's finding, the schema's expectation.
fn sent(issue: &mut ValidationIssue, facts: &Facts) {
    match issue.code {
        IssueCode::InvalidType | IssueCode::MissingRequired => {
            if facts.type_name.is_some() {
                issue.expected = facts.type_name.clone();
            }
        }
        // pydantic's `EmailStr` and `AnyUrl` fail as `value_error`s: on a
        // field whose schema declares a format, a failed check is that format's.
        IssueCode::InvalidFormat | IssueCode::Custom => {
            if let Some(format) = &facts.format {
                issue.code = IssueCode::InvalidFormat;
                issue.format = Some(format.clone());
                issue.pattern = None;
                issue.message = None;
            } else if let (IssueCode::InvalidFormat, Some(pattern)) = (issue.code, &facts.pattern) {
                issue.format = Some("regex".into());
                issue.pattern = Some(pattern.clone());
            }
        }
        IssueCode::InvalidValue => {
            if !facts.values.is_empty() {
                issue.values = facts.values.clone();
            }
        }
        IssueCode::TooSmall | IssueCode::TooBig => bounds(issue, facts),
        IssueCode::NotMultipleOf => {
            if facts.multiple_of.is_some() {
                issue.divisor = facts.multiple_of.clone();
            }
        }
        IssueCode::UnrecognizedKeys | IssueCode::InvalidUnion | IssueCode::InvalidKey | IssueCode::InvalidElement => {}
    }
}

/// The bound of a `too_small`/`too_big` from the keywords of what the schema
/// measures: characters, items, entries or the number itself.
fn bounds(issue: &mut ValidationIssue, facts: &Facts) {
    let small = issue.code == IssueCode::TooSmall;
    let kind = facts.type_name.as_deref().or(issue.origin.as_deref()).unwrap_or("");
    let (origin, bound) = match (kind, small) {
        ("string", true) => ("string", facts.min_length.as_deref().map(inclusive)),
        ("string", false) => ("string", facts.max_length.as_deref().map(inclusive)),
        ("array", true) => ("array", facts.min_items.as_deref().map(inclusive)),
        ("array", false) => ("array", facts.max_items.as_deref().map(inclusive)),
        ("object", true) => ("object", facts.min_properties.as_deref().map(inclusive)),
        ("object", false) => ("object", facts.max_properties.as_deref().map(inclusive)),
        ("number" | "integer", true) => ("number", facts.lower.clone()),
        ("number" | "integer", false) => ("number", facts.upper.clone()),
        _ => return,
    };
    let Some(bound) = bound else {
        return;
    };
    issue.origin = Some(origin.into());
    if small {
        issue.minimum = Some(bound);
    } else {
        issue.maximum = Some(bound);
    }
}

fn inclusive(value: &str) -> Bound {
    Bound {
        value: value.to_owned(),
        inclusive: true,
        exact: false,
    }
}

/// The sub-schema declared at `path`, as written there: through
/// `properties` (then `additionalProperties`) for a key, `prefixItems`
/// (then `items`) for an index, each node on the way resolved through
/// references, wrappers and optionals ([`resolved`]), the last one not.
fn declared_at<'v>(schema: &'v Value, path: &[PathSegment]) -> Option<&'v Value> {
    let mut declared = schema;
    for segment in path {
        let here = resolved(schema, declared)?;
        declared = match segment {
            PathSegment::Index(i) => item(here, usize::try_from(*i).ok()?),
            // A JSON Pointer's `0` into an array is a key.
            PathSegment::Key(key) => property(here, key).or_else(|| item(here, decimal_index(key)?)),
        }?;
    }
    Some(declared)
}

/// The schema a sent value is held to: `None` when a `$ref` on the way
/// cannot be followed (remote, to nothing, or in a circle), and the issue
/// keeps the validator's words.
fn resolved<'v>(schema: &'v Value, node: &'v Value) -> Option<&'v Value> {
    let here = resolve_non_null(schema, node);
    here.broken.is_none().then_some(here.schema)
}

/// What one schema node says a value must be.
#[derive(Debug, Default)]
struct Facts {
    type_name: Option<String>,
    format: Option<String>,
    pattern: Option<String>,
    /// `enum`'s values, or `const`'s one, each compact JSON text.
    values: Vec<String>,
    lower: Option<Bound>,
    upper: Option<Bound>,
    min_length: Option<String>,
    max_length: Option<String>,
    min_items: Option<String>,
    max_items: Option<String>,
    min_properties: Option<String>,
    max_properties: Option<String>,
    multiple_of: Option<String>,
}

impl Facts {
    /// The facts of a node; `None` when it is no object. A keyword of the
    /// wrong kind (a `format` that is a number) says nothing. The members
    /// are looked up in one pass over the object, raw, rather than through
    /// a derived struct: a schema node's other keywords are many and
    /// ignored, and the component stays smaller without another visitor.
    fn of(node: &Value) -> Option<Facts> {
        node.as_object()?;
        let text = |key: &str| node.get(key).and_then(Value::as_str).map(str::to_owned);
        let number = |key: &str| match node.get(key) {
            Some(Value::Number(n)) => Some(n.as_str().to_owned()),
            _ => None,
        };
        let values = match (node.get("enum"), node.get("const")) {
            (_, Some(one)) => vec![one.to_string()],
            (Some(list), None) => list
                .as_array()
                .map(|items| items.iter().map(Value::to_string).collect())
                .unwrap_or_default(),
            (None, None) => Vec::new(),
        };
        let type_name = node.get("type").and_then(type_name);
        // schemars writes `format: "int64"`, `"uint32"`, `"double"` on every
        // Rust number: a storage width, not a format a model can send.
        let format = text("format").filter(|_| !matches!(type_name.as_deref(), Some("integer" | "number" | "boolean")));
        Some(Facts {
            type_name,
            format,
            pattern: text("pattern"),
            values,
            lower: number_bound(number("minimum"), node.get("exclusiveMinimum"), true),
            upper: number_bound(number("maximum"), node.get("exclusiveMaximum"), false),
            min_length: number("minLength"),
            max_length: number("maxLength"),
            min_items: number("minItems"),
            max_items: number("maxItems"),
            min_properties: number("minProperties"),
            max_properties: number("maxProperties"),
            multiple_of: number("multipleOf"),
        })
    }
}

/// `"integer"`, or the one type of `["integer", "null"]`.
fn type_name(value: &Value) -> Option<String> {
    if let Some(one) = value.as_str() {
        return Some(one.to_owned());
    }
    let mut kept = value
        .as_array()?
        .iter()
        .filter_map(Value::as_str)
        .filter(|n| *n != "null");
    match (kept.next(), kept.next()) {
        (Some(only), None) => Some(only.to_owned()),
        _ => None,
    }
}

/// The bound a number must keep: the tighter of `minimum` (inclusive) and a
/// numeric `exclusiveMinimum` (2019-09 and later), or `minimum` made
/// exclusive by draft 4's `"exclusiveMinimum": true`. Likewise for the upper.
fn number_bound(plain: Option<String>, exclusive: Option<&Value>, lower: bool) -> Option<Bound> {
    let bound = |value: String, inclusive| Bound {
        value,
        inclusive,
        exact: false,
    };
    match (plain, exclusive) {
        (Some(value), Some(Value::Bool(true))) => Some(bound(value, false)),
        (plain, Some(Value::Number(e))) => {
            let strict = bound(e.as_str().to_owned(), false);
            match plain {
                Some(value) => {
                    let tighter = if lower { Ordering::Greater } else { Ordering::Less };
                    let plain_tighter = compare_numbers(&value, e.as_str()) == Some(tighter);
                    Some(if plain_tighter { bound(value, true) } else { strict })
                }
                None => Some(strict),
            }
        }
        (plain, _) => plain.map(|value| bound(value, true)),
    }
}
