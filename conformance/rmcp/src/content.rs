//! What the official suite's server scenarios (@modelcontextprotocol/conformance
//! 0.1.16) ask the tools, resources and prompts to hold, the same values
//! conformance/lib/content.mjs gives the TypeScript servers.

use serde_json::{json, Value};

/// A 1×1 blue pixel as a PNG, base64: image tool content, the image prompt and the binary resource.
pub const PNG_PIXEL: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGOQz38NAAIqAXp4ksuCAAAAAElFTkSuQmCC";

/// Four samples of silence as a WAV file (PCM, mono, 16-bit, 8 kHz), base64.
pub const WAV_SILENCE: &str = "UklGRiwAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQgAAAAAAAAAAAAAAA==";

/// The input schema `json_schema_2020_12_tool` lists, exactly as written: the
/// scenario checks that `$schema`, `$defs` and `additionalProperties` survive
/// into tools/list.
pub fn address_book_entry_schema() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "$defs": {
            "address": {
                "type": "object",
                "properties": {
                    "street": { "type": "string" },
                    "city": { "type": "string" }
                }
            }
        },
        "properties": {
            "name": { "type": "string" },
            "address": { "$ref": "#/$defs/address" }
        },
        "additionalProperties": false
    })
}

/// The form `test_elicitation` asks the user to fill in.
pub fn contact_form() -> Value {
    json!({
        "type": "object",
        "properties": {
            "username": { "type": "string", "description": "User's response" },
            "email": { "type": "string", "description": "User's email address" }
        },
        "required": ["username", "email"]
    })
}

/// SEP-1034: a default for every primitive type a form field may have.
pub fn profile_form_with_defaults() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": { "type": "string", "description": "Full name", "default": "John Doe" },
            "age": { "type": "integer", "description": "Age in years", "default": 30 },
            "score": { "type": "number", "description": "Last score", "default": 95.5 },
            "status": {
                "type": "string",
                "description": "Account status",
                "enum": ["active", "inactive", "pending"],
                "default": "active"
            },
            "verified": { "type": "boolean", "description": "Whether the account is verified", "default": true }
        },
        "required": []
    })
}

/// SEP-1330: the five ways a form field may offer a choice.
pub fn choices_form() -> Value {
    json!({
        "type": "object",
        "properties": {
            "untitledSingle": { "type": "string", "description": "Pick one", "enum": ["option1", "option2", "option3"] },
            "titledSingle": {
                "type": "string",
                "description": "Pick one (titled)",
                "oneOf": [
                    { "const": "value1", "title": "First Option" },
                    { "const": "value2", "title": "Second Option" },
                    { "const": "value3", "title": "Third Option" }
                ]
            },
            "legacyEnum": {
                "type": "string",
                "description": "Pick one (titled the pre-2025-11-25 way)",
                "enum": ["opt1", "opt2", "opt3"],
                "enumNames": ["Option One", "Option Two", "Option Three"]
            },
            "untitledMulti": {
                "type": "array",
                "description": "Pick one to three",
                "minItems": 1,
                "maxItems": 3,
                "items": { "type": "string", "enum": ["option1", "option2", "option3"] }
            },
            "titledMulti": {
                "type": "array",
                "description": "Pick one to three (titled)",
                "minItems": 1,
                "maxItems": 3,
                "items": {
                    "anyOf": [
                        { "const": "value1", "title": "First Choice" },
                        { "const": "value2", "title": "Second Choice" },
                        { "const": "value3", "title": "Third Choice" }
                    ]
                }
            }
        },
        "required": []
    })
}

/// Words `completion/complete` offers for a prompt argument, by prefix.
const CITY_WORDS: [&str; 6] = ["paris", "park", "party", "perth", "porto", "prague"];

pub fn complete_word(prefix: &str) -> Vec<String> {
    let prefix = prefix.to_lowercase();
    CITY_WORDS
        .iter()
        .filter(|word| word.starts_with(&prefix))
        .map(|word| (*word).to_owned())
        .collect()
}
