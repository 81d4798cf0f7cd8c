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
//! The schema stays raw JSON text and each step reads one level, as the
//! argument lookup does, so any nesting costs a walk down one path.

use std::borrow::Cow;

use serde_json::value::RawValue;

use super::arguments::decimal_index;
use super::model::{Bound, IssueCode, ValidationIssue};
use super::path::PathSegment;
use crate::json::{compact, items_of, parse_object, parse_string, A_SEQUENCE};

/// `$ref`, `allOf` and single-branch `anyOf`/`oneOf` hops followed from one
/// node before giving up: a schema whose references go round in a circle
/// has no node to read, and the issue keeps the validator's words.
const MAX_HOPS: usize = 32;

/// Rewrites each issue's expectation from the sub-schema at its path in
/// `schema` (the tool's `inputSchema`, raw JSON text of an object). An
/// issue whose path the schema does not describe is left as it is.
/// `arguments_given` says whether the issues' sent values were looked up in
/// the call's arguments: then an issue with no sent value is about a field
/// that was not sent, whatever the validator called it.
pub(crate) fn expect_from_schema(issues: &mut Vec<ValidationIssue>, schema: &str, arguments_given: bool) {
    drop_null_branches(issues, schema);
    for issue in issues.iter_mut() {
        if matches!(issue.code, IssueCode::UnrecognizedKeys | IssueCode::InvalidUnion) {
            continue; // about the keys or branches sent, which the schema does not word
        }
        let Some(node) = declared_at(schema, &issue.path).and_then(|raw| resolved(schema, raw)) else {
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
fn drop_null_branches(issues: &mut Vec<ValidationIssue>, schema: &str) {
    let optional: Vec<Vec<PathSegment>> = issues
        .iter()
        .filter(|i| i.code == IssueCode::InvalidUnion)
        .filter(|i| declared_at(schema, &i.path).is_some_and(|raw| is_optional(schema, raw)))
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
/// references and wrappers ([`resolved`]), the last one not.
fn declared_at<'a>(schema: &'a str, path: &[PathSegment]) -> Option<&'a str> {
    let mut declared = schema;
    for segment in path {
        let here = resolved(schema, declared)?;
        declared = child(&parse_object(here).ok()?, segment)?;
    }
    Some(declared)
}

/// Whether a node is an optional: `anyOf`/`oneOf` of `null` and one schema.
fn is_optional(root: &str, node: &str) -> bool {
    let mut here = node;
    for _ in 0..MAX_HOPS {
        let Ok(members) = parse_object(here) else {
            return false;
        };
        let member = |key: &str| members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| *v);
        if let Some(next) = member("$ref")
            .and_then(|r| parse_string(r).ok())
            .and_then(|r| pointer(root, &r))
        {
            here = next;
            continue;
        }
        let Some(list) = member("anyOf").or_else(|| member("oneOf")) else {
            return false;
        };
        let has_null = items_of::<&RawValue>(list, A_SEQUENCE).is_ok_and(|b| b.iter().any(|b| is_null_schema(b.get())));
        return has_null && single(list, true).is_some();
    }
    false
}

fn child<'a>(node: &[(Cow<'_, str>, &'a str)], segment: &PathSegment) -> Option<&'a str> {
    let member = |key: &str| node.iter().rev().find(|(k, _)| k == key).map(|(_, v)| *v);
    let index = match segment {
        PathSegment::Index(i) => usize::try_from(*i).ok(),
        PathSegment::Key(key) => {
            let property = member("properties")
                .and_then(|p| parse_object(p).ok())
                .and_then(|props| props.into_iter().rev().find(|(k, _)| k == key.as_str()).map(|(_, v)| v));
            if let Some(property) = property {
                return Some(property);
            }
            if member("items").is_none() && member("prefixItems").is_none() {
                return member("additionalProperties").filter(|v| v.trim_start().starts_with('{'));
            }
            decimal_index(key) // a JSON Pointer's `0` into an array
        }
    }?;
    let tuple = member("prefixItems").or_else(|| member("items").filter(|v| v.trim_start().starts_with('[')));
    if let Some(tuple) = tuple {
        let items: Vec<&RawValue> = items_of(tuple, A_SEQUENCE).ok()?;
        if let Some(item) = items.get(index) {
            return Some(item.get());
        }
    }
    member("items").filter(|v| v.trim_start().starts_with('{'))
}

/// A node with its wrappers taken off: a local `$ref` (`#/$defs/Invoice`),
/// an `allOf` of one schema (pydantic wraps a described `$ref` so), and an
/// `anyOf`/`oneOf` whose branches are one schema and `null` (an optional
/// field). `None` when it is not an object or the hops never end.
fn resolved<'a>(root: &'a str, node: &'a str) -> Option<&'a str> {
    let mut here = node;
    for _ in 0..MAX_HOPS {
        let members = parse_object(here).ok()?;
        let member = |key: &str| members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| *v);
        let own_words = ["type", "format", "enum", "const", "properties", "items", "pattern"]
            .iter()
            .any(|k| member(k).is_some());
        let next = if let Some(reference) = member("$ref") {
            pointer(root, &parse_string(reference).ok()?)
        } else if own_words {
            None
        } else if let Some(all) = member("allOf") {
            single(all, false)
        } else if let Some(any) = member("anyOf").or_else(|| member("oneOf")) {
            single(any, true)
        } else {
            None
        };
        match next {
            Some(next) => here = next,
            None if member("$ref").is_some() => return None,
            None => return Some(here),
        }
    }
    None
}

/// The one branch of a list of schemas; with `skip_null`, `{"type":"null"}`
/// branches do not count.
fn single(list: &str, skip_null: bool) -> Option<&str> {
    let branches: Vec<&RawValue> = items_of(list, A_SEQUENCE).ok()?;
    let mut kept = branches
        .iter()
        .map(|b| b.get())
        .filter(|b| !(skip_null && is_null_schema(b)));
    match (kept.next(), kept.next()) {
        (Some(only), None) => Some(only),
        _ => None,
    }
}

fn is_null_schema(node: &str) -> bool {
    let Ok(members) = parse_object(node) else {
        return false;
    };
    members.len() == 1 && members[0].0 == "type" && parse_string(members[0].1).is_ok_and(|t| t == "null")
}

/// The node a local reference names: `#` and a JSON Pointer into the root.
fn pointer<'a>(root: &'a str, reference: &str) -> Option<&'a str> {
    let pointer = reference.strip_prefix('#')?;
    let mut here = root;
    for token in pointer.split('/').skip(1) {
        let key = token.replace("~1", "/").replace("~0", "~");
        here = parse_object(here).ok()?.into_iter().rev().find(|(k, _)| *k == key)?.1;
    }
    Some(here)
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
    fn of(node: &str) -> Option<Facts> {
        let members = parse_object(node).ok()?;
        let raw = |key: &str| members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| *v);
        let text = |key: &str| raw(key).and_then(|r| parse_string(r).ok()).map(Cow::into_owned);
        let number = |key: &str| raw(key).map(str::trim).filter(|t| is_number(t)).map(str::to_owned);
        let values = match (raw("enum"), raw("const")) {
            (_, Some(one)) => vec![compact(one)],
            (Some(list), None) => items_of::<&RawValue>(list, A_SEQUENCE)
                .map(|items| items.iter().map(|v| compact(v.get())).collect())
                .unwrap_or_default(),
            (None, None) => Vec::new(),
        };
        let type_name = raw("type").and_then(type_name);
        // schemars writes `format: "int64"`, `"uint32"`, `"double"` on every
        // Rust number: a storage width, not a format a model can send.
        let format = text("format").filter(|_| !matches!(type_name.as_deref(), Some("integer" | "number" | "boolean")));
        Some(Facts {
            type_name,
            format,
            pattern: text("pattern"),
            values,
            lower: number_bound(number("minimum"), raw("exclusiveMinimum"), true),
            upper: number_bound(number("maximum"), raw("exclusiveMaximum"), false),
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
fn type_name(raw: &str) -> Option<String> {
    if let Ok(one) = parse_string(raw) {
        return Some(one.into_owned());
    }
    let names: Vec<&RawValue> = items_of(raw, A_SEQUENCE).ok()?;
    let mut kept = names
        .iter()
        .filter_map(|n| parse_string(n.get()).ok())
        .filter(|n| n != "null");
    match (kept.next(), kept.next()) {
        (Some(only), None) => Some(only.into_owned()),
        _ => None,
    }
}

/// The bound a number must keep: the tighter of `minimum` (inclusive) and a
/// numeric `exclusiveMinimum` (2019-09 and later), or `minimum` made
/// exclusive by draft 4's `"exclusiveMinimum": true`. Likewise for the upper.
fn number_bound(plain: Option<String>, exclusive: Option<&str>, lower: bool) -> Option<Bound> {
    let exclusive = exclusive.map(str::trim);
    let bound = |value: String, inclusive| Bound {
        value,
        inclusive,
        exact: false,
    };
    match (plain, exclusive) {
        (Some(value), Some("true")) => Some(bound(value, false)),
        (plain, Some(e)) if is_number(e) => {
            let strict = bound(e.to_owned(), false);
            match plain {
                Some(value) => {
                    let (p, x) = (value.parse::<f64>().ok(), e.parse::<f64>().ok());
                    let plain_tighter = matches!((p, x), (Some(p), Some(x)) if if lower { p > x } else { p < x });
                    Some(if plain_tighter { bound(value, true) } else { strict })
                }
                None => Some(strict),
            }
        }
        (plain, _) => plain.map(|value| bound(value, true)),
    }
}

/// A JSON number as written (already read as a JSON value, so well-formed).
fn is_number(text: &str) -> bool {
    text.starts_with(|c: char| c == '-' || c.is_ascii_digit())
}
