//! The validation formatter given arbitrary issues, arguments, input schemas
//! and raw JSON Schema errors: it never panics, and every envelope it
//! renders is well-formed XML (roxmltree, a strict parser) that the
//! validation reader reads back with the same action and no more fields
//! than its cap. Input opening with `{` is a validation spec's JSON (the
//! seeds are the vectors'); anything else is made into one from the words
//! the spec's readers look for.
#![no_main]

use arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use mcp_envelope::limits::cut_text;
use mcp_envelope::validation::{self, parse_validation, render_validation, validation_from_json, validation_result};
use mcp_envelope_fuzz::{delta, json_value, replaced, some_text, text_of};
use serde_json::{json, Map, Value};

/// The members the spec, its issues, ajv's errors and a JSON Schema have,
/// and the values they take.
const WORDS: &[&str] = &[
    // an issue (Zod 4's, flattened)
    "path",
    "code",
    "input",
    "expected",
    "format",
    "pattern",
    "values",
    "minimum",
    "maximum",
    "inclusive",
    "exact",
    "origin",
    "keys",
    "divisor",
    "message",
    "errors",
    "issues",
    "note",
    "params",
    // the issue codes and origins
    "invalid_type",
    "too_small",
    "too_big",
    "invalid_format",
    "not_multiple_of",
    "unrecognized_keys",
    "invalid_union",
    "invalid_key",
    "invalid_element",
    "invalid_value",
    "custom",
    "missing_required",
    "string",
    "number",
    "integer",
    "boolean",
    "object",
    "array",
    "null",
    "date",
    "bigint",
    "set",
    "file",
    // formats
    "email",
    "url",
    "uuid",
    "datetime",
    "date-time",
    "regex",
    "uri",
    "ipv4",
    "time",
    "duration",
    // a raw JSON Schema error (ajv's names)
    "keyword",
    "instancePath",
    "schema",
    "parentSchema",
    "data",
    "missingProperty",
    "additionalProperty",
    "limit",
    "allowedValues",
    "allowedValue",
    "type",
    "comparison",
    // a JSON Schema
    "properties",
    "required",
    "items",
    "enum",
    "const",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
    "multipleOf",
    "uniqueItems",
    "anyOf",
    "oneOf",
    "allOf",
    "$ref",
    "$defs",
    "definitions",
    "additionalProperties",
    "propertyNames",
    "patternProperties",
    "prefixItems",
    "default",
    "description",
    "title",
    "nullable",
    "#/$defs/a",
    "#/properties/a",
    "a",
    "b",
    "0",
    "/a",
    "/a/0",
    "/0",
];

/// A validation spec made from the fuzzer's bytes.
fn spec(u: &mut Unstructured<'_>) -> Result<Value> {
    let mut spec = Map::new();
    spec.insert("action".into(), Value::String(some_text(u)?));
    let issues: Vec<Value> = (0..u.arbitrary_len::<u8>()?.min(8))
        .map(|_| json_value(u, WORDS, 3))
        .collect::<Result<_>>()?;
    spec.insert("issues".into(), Value::Array(issues));
    for key in ["jsonSchemaErrors", "arguments", "inputSchema"] {
        if u.arbitrary()? {
            spec.insert(key.into(), json_value(u, WORDS, 5)?);
        }
    }
    if u.arbitrary()? {
        let deltas: Vec<Value> = (0..u.arbitrary_len::<u8>()?.min(7))
            .map(|_| delta(u).map(|d| serde_json::to_value(d).unwrap_or(Value::Null)))
            .collect::<Result<_>>()?;
        spec.insert("deltas".into(), Value::Array(deltas));
    }
    if u.arbitrary()? {
        spec.insert("maxFields".into(), json!(u.int_in_range(0..=25)?));
    }
    if u.arbitrary()? {
        spec.insert("maxDeltas".into(), json!(u.int_in_range(0..=6)?));
    }
    if u.arbitrary()? {
        spec.insert("locale".into(), json!("pt-BR"));
        spec.insert("localizeSteering".into(), json!(u.arbitrary::<bool>()?));
    }
    Ok(Value::Object(spec))
}

fuzz_target!(|data: &[u8]| {
    let text = if data.first() == Some(&b'{') {
        text_of(data).into_owned()
    } else {
        match spec(&mut Unstructured::new(data)) {
            Ok(value) => value.to_string(),
            Err(_) => return,
        }
    };
    let Ok(spec) = validation_from_json(&text) else {
        return;
    };
    let xml = render_validation(&spec.action, &spec.issues, &spec.deltas, spec.options);
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("not well-formed XML: {e}\n{xml}"));
    assert_eq!(doc.root_element().tag_name().name(), "validation_error", "{xml}");
    let back = parse_validation(&xml).unwrap_or_else(|e| panic!("does not read back: {e}\n{xml}"));
    assert_eq!(
        back.action,
        replaced(&cut_text(&spec.action, validation::FIELD_CHARS)),
        "{xml}"
    );
    assert!(back.fields.len() <= spec.options.max_fields, "{xml}");
    validation_result(&spec);
});
