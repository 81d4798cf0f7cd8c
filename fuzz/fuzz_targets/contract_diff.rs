//! The contract diff given arbitrary pairs of tool lists: it never panics,
//! a list diffed against itself has no changes, a lockfile locks to itself,
//! and a list diffed against its own lockfile has no changes either. Input
//! opening with `{` is a `contract-diff` input's JSON (`{"lock", "tools"}`,
//! the seeds are the vectors'); anything else is made into two tool lists
//! from the words the schema walk looks for.
#![no_main]

use arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use mcp_envelope::contract::{diff, read_tools, tools_of};
use mcp_envelope::raw::{contract_diff, contract_lock};
use mcp_envelope_fuzz::{json_value, text_of};
use serde_json::{json, Value};

/// What a tool and its JSON Schemas hold, and the values they take.
const WORDS: &[&str] = &[
    "name",
    "description",
    "title",
    "inputSchema",
    "outputSchema",
    "annotations",
    "readOnlyHint",
    "destructiveHint",
    "idempotentHint",
    "openWorldHint",
    "type",
    "properties",
    "required",
    "items",
    "enum",
    "const",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "multipleOf",
    "format",
    "pattern",
    "default",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "$ref",
    "$defs",
    "definitions",
    "additionalProperties",
    "patternProperties",
    "prefixItems",
    "nullable",
    "uniqueItems",
    "string",
    "number",
    "integer",
    "boolean",
    "object",
    "array",
    "null",
    "#/$defs/a",
    "#/$defs/b",
    "#",
    "#/properties/a",
    "a",
    "b",
    "tools",
    "result",
    "lockfileVersion",
    "sha256",
    "email",
];

/// A tool list: tools with names from a few, so that the two lists share some.
fn tools(u: &mut Unstructured<'_>) -> Result<Value> {
    let mut list = Vec::new();
    for _ in 0..u.arbitrary_len::<u8>()?.min(5) {
        let mut tool = match json_value(u, WORDS, 6)? {
            Value::Object(members) => members,
            _ => Default::default(),
        };
        tool.insert("name".into(), json!(*u.choose(&["a", "b", "c", "refund_order"])?));
        if u.int_in_range(0u8..=3)? > 0 {
            tool.insert("inputSchema".into(), json_value(u, WORDS, 6)?);
        }
        list.push(Value::Object(tool));
    }
    Ok(Value::Array(list))
}

fuzz_target!(|data: &[u8]| {
    let (lock, now) = if data.first() == Some(&b'{') {
        let text = text_of(data);
        let _ = contract_diff(&text);
        match serde_json::from_str::<Value>(&text) {
            Ok(Value::Object(mut input)) => (input.remove("lock"), input.remove("tools")),
            _ => return,
        }
    } else {
        let mut u = Unstructured::new(data);
        match (tools(&mut u), tools(&mut u)) {
            (Ok(a), Ok(b)) => (Some(a), Some(b)),
            _ => return,
        }
    };
    let _ = contract_diff(&json!({"lock": lock, "tools": now}).to_string());
    for list in [lock, now].into_iter().flatten() {
        let Ok(tools) = tools_of(list.clone(), "the list") else {
            continue;
        };
        assert!(diff(&tools, &tools).is_empty(), "a list differs from itself: {list}");
        let locked = contract_lock(&list.to_string()).unwrap_or_else(|e| panic!("{list} does not lock: {e}"));
        let relocked = contract_lock(&locked).unwrap_or_else(|e| panic!("the lockfile does not read: {e}\n{locked}"));
        assert_eq!(relocked, locked, "a lockfile does not lock to itself");
        // Read as the core reads it: its numbers exactly as the lock spells them.
        let from_lock =
            read_tools(&locked, "the lockfile").unwrap_or_else(|e| panic!("the lockfile does not read: {e}"));
        assert!(
            diff(&from_lock, &tools).is_empty(),
            "a list differs from its lockfile: {list}"
        );
    }
});
