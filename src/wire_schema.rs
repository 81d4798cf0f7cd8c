//! The wire shapes the core reads and writes, as one JSON Schema document
//! (feature `schema`): the JS and Python packages generate their typed
//! shapes from it (ARCHITECTURE.md, "The generated types"). Each shape is
//! the struct serde reads or writes, so the schema says what serde does;
//! schemars derives it.

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::{json, Map, Value};

use crate::code::{Category, CodeDefaults, CANONICAL_CODES};
use crate::delta::{ContractDelta, DeltaSeverity};
use crate::locale::Locale;
use crate::partial::{PartialLimits, PartialLimitsInput};
use crate::recovery::AccessKind;
use crate::tool_error::limits::{Limits, LimitsInput};
use crate::tool_error::model::Severity;
use crate::tool_error::render::{Format, ProtocolErrorKind};
use crate::tool_error::spec::SpecInput;
use crate::validation::IssueCode;

/// The JSON Schema (2020-12) document of every wire shape, under `$defs` by
/// the names the wrappers give them: `EnvelopeSpec`, `Limits`,
/// `LimitsInForce`, `PartialLimits`, `PartialLimitsInForce`,
/// `ContractDelta`, `CodeDefaults`, and the string enums (`Format`,
/// `Severity`, `Category`, `Locale`, `CanonicalCode`, `ProtocolErrorKind`,
/// `DeltaSeverity`, `AccessKind`, `IssueCode`).
///
/// ```
/// let schema = mcp_envelope::wire_schema();
/// assert_eq!(schema["$defs"]["Format"]["enum"], serde_json::json!(["xml", "json", "text"]));
/// ```
pub fn wire_schema() -> Value {
    let mut generator = SchemaSettings::draft2020_12().for_deserialize().into_generator();
    let mut names = Vec::new();
    let mut add = |name: String| names.push(name);
    macro_rules! shapes {
        ($($ty:ty),*) => {
            $( generator.subschema_for::<$ty>(); add(<$ty as JsonSchema>::schema_name().into_owned()); )*
        };
    }
    shapes!(
        SpecInput,
        LimitsInput,
        Limits,
        PartialLimitsInput,
        PartialLimits,
        ContractDelta,
        CodeDefaults,
        Format,
        Severity,
        Category,
        Locale,
        ProtocolErrorKind,
        DeltaSeverity,
        AccessKind,
        IssueCode
    );
    let mut defs: Map<String, Value> = generator.take_definitions(true);
    // `code` and `message` are `#[serde(default)]` only so that the reader
    // tells a missing one apart from `null`: required, with no default.
    for key in ["code", "message"] {
        if let Some(property) = defs["EnvelopeSpec"]["properties"][key].as_object_mut() {
            property.remove("default");
        }
    }
    // Every shape is a definition of its own, by its wrapper name, never a
    // second copy numbered by schemars.
    for name in &names {
        assert!(defs.contains_key(name), "{name} is not a definition of its own");
    }
    // The canonical codes are constants, not an enum: their schema is their list.
    defs.insert(
        "CanonicalCode".to_owned(),
        json!({
            "description": "The 17 canonical codes; any other non-empty string is a custom code.",
            "type": "string",
            "enum": CANONICAL_CODES,
        }),
    );
    // Each definition titled by its name: generators name the type of a
    // `$ref` after its title (json-schema-to-typescript inlines untitled ones).
    for (name, schema) in defs.iter_mut() {
        if let Some(schema) = schema.as_object_mut() {
            schema.insert("title".to_owned(), Value::String(name.clone()));
        }
    }
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "WireShapes",
        "description": "The shapes the mcp-envelope core reads and writes, generated from its Rust structs: the wrappers' types are generated from this document.",
        "$defs": defs,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys serde's reader names when it refuses an unknown one.
    fn accepted_keys(refusal: &str) -> Vec<String> {
        let (_, list) = refusal.split_once("expected one of ").expect(refusal);
        let mut keys: Vec<String> = list
            .split(", ")
            .map(|k| k.trim_matches(|c| c == '`' || c == ' ').to_owned())
            .collect();
        keys.sort();
        keys
    }

    fn properties(name: &str) -> Vec<String> {
        let schema = wire_schema();
        let mut keys: Vec<String> = schema["$defs"][name]["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        keys.sort();
        keys
    }

    #[test]
    fn the_spec_schema_has_exactly_the_keys_the_spec_reader_accepts() {
        let refusal = crate::spec::from_json(r#"{"code":"X","message":"m","notAKey":1}"#)
            .unwrap_err()
            .to_string();
        assert_eq!(properties("EnvelopeSpec"), accepted_keys(&refusal));
        let schema = wire_schema();
        assert_eq!(schema["$defs"]["EnvelopeSpec"]["required"], json!(["code", "message"]));
        assert_eq!(schema["$defs"]["EnvelopeSpec"]["additionalProperties"], json!(false));
    }

    #[test]
    fn every_optional_spec_key_takes_null_as_not_set() {
        let schema = wire_schema();
        for key in properties("EnvelopeSpec") {
            if key == "code" || key == "message" {
                continue;
            }
            let text = format!(r#"{{"code":"X","message":"m","{key}":null}}"#);
            let read = crate::spec::from_json(&text).map(|e| crate::spec::to_json(&e));
            assert_eq!(read, Ok(r#"{"code":"X","message":"m"}"#.to_owned()), "{key}");
            let property = &schema["$defs"]["EnvelopeSpec"]["properties"][&key];
            assert!(property.to_string().contains("\"null\""), "{key}: {property}");
        }
    }

    #[test]
    fn the_limits_schemas_have_exactly_the_keys_their_readers_accept() {
        let refusal = Limits::from_json(r#"{"notAKey":1}"#).unwrap_err().to_string();
        assert_eq!(properties("Limits"), accepted_keys(&refusal));
        assert_eq!(properties("LimitsInForce"), accepted_keys(&refusal));
        let refusal = PartialLimits::from_json(r#"{"notAKey":1}"#).unwrap_err().to_string();
        assert_eq!(properties("PartialLimits"), accepted_keys(&refusal));
        assert_eq!(properties("PartialLimitsInForce"), accepted_keys(&refusal));
    }

    #[test]
    fn the_delta_schema_has_exactly_the_keys_the_delta_reader_accepts() {
        let refusal = crate::spec::from_json(r#"{"code":"X","message":"m","deltas":[{"notAKey":1}]}"#)
            .unwrap_err()
            .to_string();
        assert_eq!(properties("ContractDelta"), accepted_keys(&refusal));
    }

    #[test]
    fn the_code_defaults_schema_has_the_keys_the_export_writes() {
        let written: serde_json::Map<String, Value> =
            serde_json::from_str(&crate::code::defaults(crate::code::NOT_FOUND).unwrap().to_json()).unwrap();
        let mut keys: Vec<String> = written.keys().cloned().collect();
        keys.sort();
        assert_eq!(properties("CodeDefaults"), keys);
    }

    #[test]
    fn each_string_enum_lists_every_wire_spelling() {
        fn spellings<T: Copy + std::fmt::Display>(all: &[T]) -> Value {
            all.iter().map(|v| v.to_string()).collect()
        }
        let defs = &wire_schema()["$defs"];
        assert_eq!(defs["Format"]["enum"], spellings(Format::ALL));
        assert_eq!(defs["Severity"]["enum"], spellings(Severity::ALL));
        assert_eq!(defs["Category"]["enum"], spellings(Category::ALL));
        assert_eq!(defs["Locale"]["enum"], spellings(Locale::ALL));
        assert_eq!(defs["ProtocolErrorKind"]["enum"], spellings(ProtocolErrorKind::ALL));
        assert_eq!(defs["DeltaSeverity"]["enum"], spellings(DeltaSeverity::ALL));
        assert_eq!(defs["AccessKind"]["enum"], spellings(AccessKind::ALL));
        assert_eq!(defs["IssueCode"]["enum"], spellings(IssueCode::ALL));
        assert_eq!(defs["CanonicalCode"]["enum"], json!(CANONICAL_CODES));
    }
}
