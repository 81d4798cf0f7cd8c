//! The calls an audit makes on its own: an unknown tool, and for each tool
//! arguments made invalid from its `inputSchema` (a required field missing,
//! a wrong type, an enum miss, a bound crossed), each expected to come back
//! as something a model can fix.
//!
//! A probe starts from arguments that satisfy the schema as far as a schema
//! can say (an example value per required field) and breaks exactly one
//! field, so a server that validates never runs the tool. Only required
//! fields are broken, except on tools annotated `readOnlyHint: true`: a
//! server that checks nothing could otherwise run a write with the example
//! values around a broken optional field.

use mcp_envelope::decide::Branch;
use mcp_envelope::json_schema;
use serde_json::{json, Map, Value};

/// A tool name no server has.
pub const UNKNOWN_TOOL: &str = "mcp_envelope_audit_no_such_tool";

/// What a call should come back as.
#[derive(Debug, Clone, PartialEq)]
pub struct Expect {
    pub branch: Branch,
    /// The envelope's code, when the plan names one.
    pub code: Option<String>,
}

/// One call to make.
#[derive(Debug, Clone, PartialEq)]
pub struct Call {
    /// What the report calls it: `get_invoice: missing customer`.
    pub name: String,
    pub tool: String,
    pub arguments: Value,
    pub expect: Expect,
}

fn fix(name: String, tool: &str, arguments: Value) -> Call {
    Call {
        name,
        tool: tool.to_owned(),
        arguments,
        expect: Expect {
            branch: Branch::FixAndRetry,
            code: None,
        },
    }
}

/// The unknown-tool call, then each tool's probes, in the server's order.
pub fn probes(tools: &[(String, Value, bool)]) -> Vec<Call> {
    let mut calls = vec![fix("unknown tool".into(), UNKNOWN_TOOL, json!({}))];
    for (tool, schema, read_only) in tools {
        calls.extend(tool_probes(tool, schema, *read_only));
    }
    calls
}

/// The probes of one tool (`read_only`: its `readOnlyHint`). The missing
/// field is the first of `required`; each other probe breaks the first field
/// by name that it can break (the schema's properties as serde_json holds
/// them, sorted), so every server with the same schema gets the same calls.
pub fn tool_probes(tool: &str, schema: &Value, read_only: bool) -> Vec<Call> {
    let root = schema;
    let Some(properties) = resolve(root, schema).get("properties").and_then(Value::as_object) else {
        return Vec::new();
    };
    let required: Vec<&str> = resolve(root, schema)
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let base = example_object(root, properties, &required);
    let breakable: Vec<(&String, &Value)> = properties
        .iter()
        .filter(|(name, _)| read_only || required.contains(&name.as_str()))
        .collect();
    let mut calls = Vec::new();
    let with = |name: &str, value: Value| {
        let mut arguments = base.clone();
        arguments.insert(name.to_owned(), value);
        Value::Object(arguments)
    };
    if let Some(first) = required.first() {
        let mut arguments = base.clone();
        arguments.remove(*first);
        calls.push(fix(format!("{tool}: missing {first}"), tool, Value::Object(arguments)));
    }
    if let Some((name, wrong)) = breakable.iter().find_map(|(n, p)| wrong_type(root, p).map(|w| (*n, w))) {
        calls.push(fix(format!("{tool}: wrong type for {name}"), tool, with(name, wrong)));
    }
    let enum_field = breakable.iter().find(|(_, p)| {
        resolve(root, p)
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|e| e.iter().all(Value::is_string))
    });
    if let Some((name, _)) = enum_field {
        calls.push(fix(
            format!("{tool}: {name} not in its enum"),
            tool,
            with(name, json!("mcp_envelope_audit_not_allowed")),
        ));
    }
    if let Some((name, beyond)) = breakable
        .iter()
        .find_map(|(n, p)| beyond_bound(root, p).map(|b| (*n, b)))
    {
        calls.push(fix(format!("{tool}: {name} past its bound"), tool, with(name, beyond)));
    }
    calls
}

/// The schema a value other than `null` is held to: through local `$ref`s,
/// wrappers and an optional's one non-null branch. A `$ref` that cannot be
/// followed leaves the node holding it, which no probe can break.
fn resolve<'a>(root: &'a Value, node: &'a Value) -> &'a Value {
    json_schema::resolve_non_null(root, node).schema
}

fn type_of(node: &Value) -> Option<&str> {
    match node.get("type")? {
        Value::String(t) => Some(t),
        Value::Array(types) => types.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        _ => None,
    }
}

fn example_object(root: &Value, properties: &Map<String, Value>, required: &[&str]) -> Map<String, Value> {
    required
        .iter()
        .filter_map(|name| properties.get(*name).map(|p| ((*name).to_owned(), example(root, p, 0))))
        .collect()
}

/// A value the schema allows, as far as its keywords say (a `pattern` is
/// not matched: no regex is run here).
fn example(root: &Value, node: &Value, depth: usize) -> Value {
    let node = resolve(root, node);
    if let Some(value) = node
        .get("const")
        .or_else(|| node.get("default").filter(|d| !d.is_null()))
    {
        return value.clone();
    }
    if let Some(first) = node.get("enum").and_then(Value::as_array).and_then(|e| e.first()) {
        return first.clone();
    }
    let number = |integer: bool| {
        let low = node.get("minimum").and_then(Value::as_f64);
        let strict = node.get("exclusiveMinimum").and_then(Value::as_f64);
        let start = match (low, strict) {
            (Some(l), _) => l,
            (None, Some(s)) => s + 1.0,
            (None, None) => 1.0,
        };
        let start = node
            .get("maximum")
            .and_then(Value::as_f64)
            .map_or(start, |m| start.min(m));
        if integer {
            json!(start.ceil() as i64)
        } else {
            json!(start)
        }
    };
    match type_of(node) {
        Some("string") => json!(example_string(node)),
        Some("integer") => number(true),
        Some("number") => number(false),
        Some("boolean") => json!(false),
        Some("array") => {
            let count = node.get("minItems").and_then(Value::as_u64).unwrap_or(0);
            let items = (0..count).map_while(|i| {
                let schema = json_schema::item(node, usize::try_from(i).ok()?).filter(|_| depth < 8)?;
                Some(example(root, schema, depth + 1))
            });
            Value::Array(items.collect())
        }
        Some("object") if depth < 8 => {
            let properties = node
                .get("properties")
                .and_then(Value::as_object)
                .cloned()
                .unwrap_or_default();
            let required: Vec<&str> = node
                .get("required")
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            Value::Object(example_object(root, &properties, &required))
        }
        _ => json!("x"),
    }
}

fn example_string(node: &Value) -> String {
    let by_format = match node.get("format").and_then(Value::as_str) {
        Some("email") => "audit@example.com",
        Some("uri" | "url" | "uri-reference") => "https://example.com/",
        Some("uuid") => "123e4567-e89b-12d3-a456-426614174000",
        Some("date") => "2026-01-01",
        Some("date-time") => "2026-01-01T00:00:00Z",
        Some("time") => "12:00:00",
        _ => "x",
    };
    let least = node.get("minLength").and_then(Value::as_u64).unwrap_or(0) as usize;
    if by_format.chars().count() >= least {
        by_format.to_owned()
    } else {
        "x".repeat(least)
    }
}

/// A value of another type than the field's.
fn wrong_type(root: &Value, node: &Value) -> Option<Value> {
    Some(match type_of(resolve(root, node))? {
        "string" => json!(42),
        "integer" | "number" => json!("not a number"),
        "boolean" => json!("yes"),
        "array" | "object" => json!("x"),
        _ => return None,
    })
}

/// A value just past one of the field's bounds.
fn beyond_bound(root: &Value, node: &Value) -> Option<Value> {
    let node = resolve(root, node);
    let get = |key: &str| node.get(key).and_then(Value::as_f64);
    let integer = type_of(node) == Some("integer");
    let number = |n: f64| if integer { json!(n as i64) } else { json!(n) };
    match type_of(node)? {
        "integer" | "number" => {
            if let Some(max) = get("maximum") {
                Some(number(max + 1.0))
            } else if let Some(max) = get("exclusiveMaximum") {
                Some(number(max))
            } else if let Some(min) = get("minimum") {
                Some(number(min - 1.0))
            } else {
                get("exclusiveMinimum").map(number)
            }
        }
        "string" => match (get("maxLength"), get("minLength")) {
            (Some(max), _) => Some(json!("x".repeat(max as usize + 1))),
            (None, Some(min)) if min >= 1.0 => Some(json!("x".repeat(min as usize - 1))),
            _ => None,
        },
        "array" => get("maxItems").map(|max| {
            let any = json!({});
            let item = |i| example(root, json_schema::item(node, i).unwrap_or(&any), 1);
            Value::Array((0..max as usize + 1).map(item).collect())
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names_and_arguments(calls: &[Call]) -> Vec<(String, String)> {
        calls
            .iter()
            .map(|c| (c.name.clone(), c.arguments.to_string()))
            .collect()
    }

    #[test]
    fn each_probe_breaks_one_required_field_of_otherwise_valid_arguments() {
        let schema = json!({
            "type": "object",
            "properties": {
                "customer": {"type": "string", "format": "email"},
                "amount": {"type": "number", "exclusiveMinimum": 0, "maximum": 10000},
                "currency": {"type": "string", "enum": ["BRL", "USD"]},
                "note": {"type": "string", "maxLength": 20}
            },
            "required": ["customer", "amount", "currency"]
        });
        // Arguments are written with their keys sorted, as serde_json holds them.
        let base = r#""amount":1.0,"currency":"BRL","customer":"audit@example.com""#;
        assert_eq!(
            names_and_arguments(&tool_probes("refund", &schema, false)),
            [
                (
                    "refund: missing customer".into(),
                    r#"{"amount":1.0,"currency":"BRL"}"#.into()
                ),
                (
                    "refund: wrong type for amount".into(),
                    format!("{{{}}}", base.replace("1.0", r#""not a number""#))
                ),
                (
                    "refund: currency not in its enum".into(),
                    format!(
                        "{{{}}}",
                        base.replace(r#""BRL""#, r#""mcp_envelope_audit_not_allowed""#)
                    )
                ),
                (
                    "refund: amount past its bound".into(),
                    format!("{{{}}}", base.replace("1.0", "10001.0"))
                ),
            ]
        );
    }

    #[test]
    fn optional_fields_are_broken_only_on_read_only_tools() {
        let schema = json!({"type": "object", "properties": {"limit": {"type": "integer", "maximum": 50}}});
        assert_eq!(tool_probes("list", &schema, false), []);
        assert_eq!(
            names_and_arguments(&tool_probes("list", &schema, true)),
            [
                (
                    "list: wrong type for limit".into(),
                    r#"{"limit":"not a number"}"#.into()
                ),
                ("list: limit past its bound".into(), r#"{"limit":51}"#.into()),
            ]
        );
    }

    #[test]
    fn examples_follow_refs_optionals_and_bounds() {
        let schema = json!({
            "type": "object",
            "properties": {"line": {"$ref": "#/$defs/Line"}, "id": {"anyOf": [{"type": "string", "minLength": 3}, {"type": "null"}]}},
            "required": ["line", "id"],
            "$defs": {"Line": {"type": "object", "properties": {"qty": {"type": "integer", "minimum": 2}}, "required": ["qty"]}}
        });
        let calls = tool_probes("t", &schema, false);
        assert_eq!(calls[0].arguments, json!({"id": "xxx"}));
        assert_eq!(calls[1].arguments, json!({"line": {"qty": 2}, "id": 42}));
        assert_eq!(probes(&[])[0].tool, UNKNOWN_TOOL);
    }

    #[test]
    fn a_described_ref_wrapped_in_all_of_is_probed_as_its_definition() {
        // pydantic writes a field's description beside an `allOf` of its `$ref`.
        let schema = json!({
            "type": "object",
            "properties": {"currency": {"allOf": [{"$ref": "#/$defs/Currency"}], "description": "ISO code"}},
            "required": ["currency"],
            "$defs": {"Currency": {"type": "string", "enum": ["BRL", "USD"]}}
        });
        assert_eq!(
            names_and_arguments(&tool_probes("t", &schema, false)),
            [
                ("t: missing currency".into(), "{}".into()),
                ("t: wrong type for currency".into(), r#"{"currency":42}"#.into()),
                (
                    "t: currency not in its enum".into(),
                    r#"{"currency":"mcp_envelope_audit_not_allowed"}"#.into()
                ),
            ]
        );
    }

    #[test]
    fn a_tuple_example_holds_each_positions_value() {
        let schema = json!({
            "type": "object",
            "properties": {"point": {"type": "array", "minItems": 2, "prefixItems": [{"type": "integer"}, {"type": "boolean"}]}},
            "required": ["point"]
        });
        assert_eq!(tool_probes("t", &schema, false)[1].arguments, json!({"point": "x"}));
        assert_eq!(example(&schema, &schema["properties"]["point"], 0), json!([1, false]));
    }
}
