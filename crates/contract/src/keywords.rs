//! What the schema walk reads off one JSON Schema node: its wrappers
//! taken off (`crate::json_schema`), its `anyOf`/`oneOf` branches, the
//! types and values it accepts, its required fields, the bounding keywords
//! (`RULES`) and the words each is told in.

use std::cmp::Ordering;

use crate::json::Value;
use crate::json_schema;

/// A missing schema: any value (every keyword lookup on it finds nothing).
pub(super) static ANY: Value = Value::Null;

/// A node with its wrappers taken off ([`json_schema::resolve`]), and the
/// last reference followed. A `$ref` that cannot be followed stays on the
/// node, for the diff to report.
pub(super) fn resolve<'v>(root: &'v Value, node: &'v Value) -> (&'v Value, Option<&'v str>) {
    let resolved = json_schema::resolve(root, node);
    (resolved.schema, resolved.via)
}

pub(super) fn has_reference(node: &Value) -> bool {
    match node {
        Value::Object(o) => o.contains_key("$ref") || o.values().any(has_reference),
        Value::Array(items) => items.iter().any(has_reference),
        _ => false,
    }
}

/// The schemas a node accepts as alternatives: its `anyOf`/`oneOf`
/// branches, each resolved and themselves flattened once, or the node.
pub(super) fn branches<'v>(root: &'v Value, node: &'v Value) -> Vec<&'v Value> {
    let list = node
        .get("anyOf")
        .or_else(|| node.get("oneOf"))
        .and_then(Value::as_array);
    let Some(list) = list.filter(|_| node.get("type").is_none()) else {
        return vec![node];
    };
    let mut out = Vec::new();
    for branch in list {
        let (branch, _) = resolve(root, branch);
        match branch
            .get("anyOf")
            .or_else(|| branch.get("oneOf"))
            .and_then(Value::as_array)
        {
            Some(inner) => out.extend(inner.iter().map(|b| resolve(root, b).0)),
            None => out.push(branch),
        }
    }
    out
}

/// The types a schema accepts: its `type`, else what its keywords imply
/// (`properties`: an object, `items`: an array, `enum`: its values' kinds);
/// `None` for any type.
pub(super) fn types_of(node: &Value) -> Option<Types<'_>> {
    match node.get("type") {
        Some(Value::String(one)) => return Some(type_set([one.as_str()])),
        Some(Value::Array(list)) => return Some(type_set(list.iter().filter_map(Value::as_str))),
        _ => {}
    }
    if ["properties", "additionalProperties", "required"]
        .iter()
        .any(|k| node.get(k).is_some())
    {
        return Some(type_set(["object"]));
    }
    if node.get("items").is_some() || node.get("prefixItems").is_some() {
        return Some(type_set(["array"]));
    }
    values_of(node).map(|values| type_set(values.into_iter().map(json_kind)))
}

/// Type names, each once, in the order the envelope writes them (`null`
/// last, names it does not know before it, as first met), so that equal
/// sets are equal lists.
pub(super) type Types<'v> = Vec<&'v str>;

const TYPE_ORDER: [&str; 6] = ["string", "integer", "number", "boolean", "object", "array"];

pub(super) fn type_set<'v>(names: impl IntoIterator<Item = &'v str>) -> Types<'v> {
    let names: Vec<&str> = names.into_iter().collect();
    let mut set: Types = TYPE_ORDER.iter().copied().filter(|t| names.contains(t)).collect();
    for name in &names {
        if !TYPE_ORDER.contains(name) && *name != "null" && !set.contains(name) {
            set.push(name);
        }
    }
    if names.contains(&"null") {
        set.push("null");
    }
    set
}

pub(super) fn json_kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.to_string().bytes().all(|b| b.is_ascii_digit() || b == b'-') => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// `enum`'s values, or `const`'s one.
pub(super) fn values_of(node: &Value) -> Option<Vec<&Value>> {
    if let Some(one) = node.get("const") {
        return Some(vec![one]);
    }
    node.get("enum")
        .and_then(Value::as_array)
        .map(|list| list.iter().collect())
}

pub(super) fn required_of(node: &Value) -> Vec<&str> {
    node.get("required")
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// Type names (already in their order), each written by `word`.
pub(super) fn type_list(types: &[&str], joint: &str, word: impl Fn(&str) -> &str) -> String {
    types.iter().map(|t| word(t)).collect::<Vec<_>>().join(joint)
}

pub(super) fn with_article(name: &str) -> &str {
    match name {
        "string" => "a string",
        "integer" => "an integer",
        "number" => "a number",
        "boolean" => "a boolean",
        "object" => "an object",
        "array" => "an array",
        other => other,
    }
}

/// What a branch accepts, in words: its types, or its values, or its JSON.
pub(super) fn branch_words(branch: &Value) -> String {
    if let Some(values) = values_of(branch) {
        return value_list(&values);
    }
    match types_of(branch) {
        Some(types) if !types.is_empty() => type_list(&types, " or ", with_article),
        _ => branch.to_string(),
    }
}

/// Values as compact JSON, comma-separated: `"EUR", "USD"`.
pub(super) fn value_list(values: &[&Value]) -> String {
    values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ")
}

/// One keyword that bounds a value, and how the envelope words it.
pub(super) struct Rule {
    key: &'static str,
    /// Whether a greater value is tighter (a lower bound) or looser.
    lower: bool,
    /// `be` or `have`, before the words.
    pub(super) verb: &'static str,
    /// The words before the value (`at most`), and after it (`characters`).
    before: &'static str,
    unit: (&'static str, &'static str),
    /// What the field no longer has when the keyword goes.
    pub(super) noun: &'static str,
}

pub(super) const fn rule(
    key: &'static str,
    lower: bool,
    verb: &'static str,
    before: &'static str,
    unit: (&'static str, &'static str),
    noun: &'static str,
) -> Rule {
    Rule {
        key,
        lower,
        verb,
        before,
        unit,
        noun,
    }
}

const NO_UNIT: (&str, &str) = ("", "");
pub(super) const RULES: [Rule; 13] = [
    rule("minimum", true, "be", "at least", NO_UNIT, "a minimum"),
    rule(
        "exclusiveMinimum",
        true,
        "be",
        "more than",
        NO_UNIT,
        "an exclusive minimum",
    ),
    rule("maximum", false, "be", "at most", NO_UNIT, "a maximum"),
    rule(
        "exclusiveMaximum",
        false,
        "be",
        "less than",
        NO_UNIT,
        "an exclusive maximum",
    ),
    rule(
        "minLength",
        true,
        "have",
        "at least",
        (" character", " characters"),
        "a minimum length",
    ),
    rule(
        "maxLength",
        false,
        "have",
        "at most",
        (" character", " characters"),
        "a maximum length",
    ),
    rule(
        "minItems",
        true,
        "have",
        "at least",
        (" item", " items"),
        "a minimum number of items",
    ),
    rule(
        "maxItems",
        false,
        "have",
        "at most",
        (" item", " items"),
        "a maximum number of items",
    ),
    rule(
        "minProperties",
        true,
        "have",
        "at least",
        (" entry", " entries"),
        "a minimum number of entries",
    ),
    rule(
        "maxProperties",
        false,
        "have",
        "at most",
        (" entry", " entries"),
        "a maximum number of entries",
    ),
    rule(
        "multipleOf",
        true,
        "be",
        "a multiple of",
        NO_UNIT,
        "to be a multiple of anything",
    ),
    rule("pattern", true, "match", "the pattern", NO_UNIT, "a pattern"),
    rule("format", true, "have", "the format", NO_UNIT, "a format"),
];

impl Rule {
    /// The keyword's value; schemars' `format: int64` on a number is a
    /// storage width, not a rule, and a draft-4 `exclusiveMinimum: true` is
    /// read with its `minimum`.
    pub(super) fn read<'v>(&self, node: &'v Value) -> Option<&'v Value> {
        let value = node.get(self.key)?;
        let numeric_type = matches!(
            node.get("type").and_then(Value::as_str),
            Some("integer" | "number" | "boolean")
        );
        match value {
            Value::Bool(_) => None,
            _ if self.key == "format" && numeric_type => None,
            _ => Some(value),
        }
    }

    pub(super) fn words(&self, value: &Value) -> String {
        let text = value.as_str().map_or_else(|| value.to_string(), str::to_owned);
        let unit = if text == "1" { self.unit.0 } else { self.unit.1 };
        format!("{} {text}{unit}", self.before)
    }

    /// Whether `new` allows less than `old`: a higher lower bound, a lower
    /// upper one; a changed pattern, format or divisor always counts as tighter.
    pub(super) fn tighter(&self, old: &Value, new: &Value) -> bool {
        let order = match (old, new) {
            (Value::Number(old), Value::Number(new)) => new.compare(old),
            _ => None,
        };
        match (order, self.key) {
            (_, "multipleOf" | "pattern" | "format") => true,
            (Some(order), _) => order == if self.lower { Ordering::Greater } else { Ordering::Less },
            _ => true,
        }
    }
}
