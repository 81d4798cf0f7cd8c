//! A call's arguments checked against the tool's published input schema with
//! the `jsonschema` crate, whose errors are handed to the core raw, in ajv's
//! member names (`keyword`, `path`, `params`, `schema`, `parentSchema`,
//! `data`, `message`). This is only the native extraction of a validator's
//! errors, as the JS and Python packages do for ajv and `jsonschema`: the
//! words of the `<validation_error>` are the core's (validation/json_schema.rs).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use ::rmcp::model::{CallToolResult, JsonObject, Tool};
use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::paths::{Location, LocationSegment};
use jsonschema::{ValidationError, Validator};
use serde_json::{json, Map, Value};

use crate::delta::ContractDelta;
use crate::validation::{validation_from_json, validation_result};

/// What checking a call's arguments found.
pub(crate) enum ArgumentCheck {
    /// They fit the schema: the handler is called.
    Valid,
    /// They do not: what failed, to be worded (with the contract's deltas,
    /// when there is a lockfile) as the `<validation_error>` result the model gets.
    Invalid(Failure),
    /// They could not be checked (a schema jsonschema refuses, a spec the core
    /// refuses): the handler is called and decides; the reason is for the log.
    Unchecked(String),
}

/// Arguments that failed a tool's input schema: the validation spec, without
/// the contract's deltas, which are looked up only for failed calls.
pub(crate) struct Failure(Value);

impl Failure {
    /// The `<validation_error>` result, listing the BREAKING and RISKY
    /// `deltas` of the tool (the core picks them); or why the core refused it.
    pub(crate) fn result(mut self, deltas: &[ContractDelta]) -> Result<CallToolResult, String> {
        self.0["deltas"] = json!(deltas);
        let spec = validation_from_json(&self.0.to_string())
            .map_err(|refused| format!("the validation spec was refused: {}", refused))?;
        super::result_from_json(&validation_result(&spec)).map_err(String::from)
    }
}

/// Each tool's compiled validator, kept while its schema stays the same.
#[derive(Default)]
pub(crate) struct InputSchemas {
    compiled: Mutex<HashMap<String, Compiled>>,
}

struct Compiled {
    schema: Arc<JsonObject>,
    /// The validator, or why jsonschema refused the schema.
    validator: Result<Arc<Validator>, String>,
}

impl InputSchemas {
    /// Checks `arguments` (absent: an empty object, as rmcp's `Parameters`
    /// reads them) against `tool`'s input schema, once.
    pub(crate) fn check(&self, tool: &Tool, arguments: Option<&JsonObject>) -> ArgumentCheck {
        let validator = match self.validator(tool) {
            Ok(validator) => validator,
            Err(why) => return ArgumentCheck::Unchecked(why),
        };
        let arguments = Value::Object(arguments.cloned().unwrap_or_default());
        let mut failed = validator.iter_errors(&arguments).peekable();
        if failed.peek().is_none() {
            return ArgumentCheck::Valid;
        }
        // The schema as a Value only on failure: the raw errors quote it.
        let schema = Value::Object((*tool.input_schema).clone());
        let mut errors = Vec::new();
        for error in failed {
            push_raw_errors(&mut errors, &error, &schema);
        }
        in_property_order(&mut errors, &schema);
        // The schema words each line's "Expected …" (validation/input_schema.rs).
        ArgumentCheck::Invalid(Failure(json!({
            "action": tool.name,
            "jsonSchemaErrors": errors,
            "arguments": arguments,
            "inputSchema": schema,
        })))
    }

    fn validator(&self, tool: &Tool) -> Result<Arc<Validator>, String> {
        // A panic elsewhere while the lock was held leaves the map whole: keep using it.
        let mut compiled = self.compiled.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some(known) = compiled.get(tool.name.as_ref()) {
            if Arc::ptr_eq(&known.schema, &tool.input_schema) || known.schema == tool.input_schema {
                return known.validator.clone();
            }
        }
        let schema = Value::Object((*tool.input_schema).clone());
        // A tool's `format` is part of the contract the model reads, so it is
        // asserted (JSON Schema 2020-12 only annotates it by default); formats
        // jsonschema does not know, such as schemars' `uint32`, stay ignored.
        let validator = jsonschema::options()
            .should_validate_formats(true)
            .build(&schema)
            .map(Arc::new)
            .map_err(|e| format!("jsonschema refused the input schema of {}: {e}", tool.name));
        compiled.insert(
            tool.name.to_string(),
            Compiled {
                schema: Arc::clone(&tool.input_schema),
                validator: validator.clone(),
            },
        );
        validator
    }
}

/// The errors in the order of the root schema's `properties` as rmcp holds
/// them, as ajv and Python's `jsonschema` report them: jsonschema walks
/// properties in an order of its own. Errors at the root come first; the
/// sort is stable, so one property's errors keep the validator's order.
fn in_property_order(errors: &mut [Value], schema: &Value) {
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return;
    };
    let order: Vec<&String> = properties.keys().collect();
    errors.sort_by_key(|error| match error["path"].get(0) {
        None => 0,
        Some(Value::String(key)) => 1 + order.iter().position(|p| *p == key).unwrap_or(order.len()),
        Some(_) => 1 + order.len(),
    });
}

/// One jsonschema error as ajv reports it with `allErrors`: one raw error
/// per unexpected key of an `additionalProperties` failure, and an
/// `anyOf`/`oneOf` failure followed by its branches' errors (as the Python
/// package hands on `jsonschema`'s `context`), so the core reads them alike.
fn push_raw_errors(raw_errors: &mut Vec<Value>, error: &ValidationError<'_>, schema: &Value) {
    let kind = error.kind();
    let keyword = kind.keyword();
    let parent = parent_schema(schema, error.schema_path());
    let raw = |params: Value| {
        let mut raw = Map::new();
        raw.insert("keyword".into(), Value::from(keyword));
        raw.insert("path".into(), instance_path(error.instance_path()));
        raw.insert("params".into(), params);
        if let Some(parent) = parent {
            if let Some(value) = parent.get(keyword) {
                raw.insert("schema".into(), value.clone());
            }
            raw.insert("parentSchema".into(), parent.clone());
        }
        raw.insert("data".into(), error.instance().clone().into_owned());
        raw.insert("message".into(), Value::from(error.to_string()));
        Value::Object(raw)
    };
    match kind {
        ValidationErrorKind::AdditionalProperties { unexpected } => {
            raw_errors.extend(unexpected.iter().map(|key| raw(json!({ "additionalProperty": key }))));
        }
        ValidationErrorKind::AnyOf { context } | ValidationErrorKind::OneOfNotValid { context } => {
            raw_errors.push(raw(json!({})));
            for branch_error in context.iter().flatten() {
                push_raw_errors(raw_errors, branch_error, schema);
            }
        }
        _ => raw_errors.push(raw(params(kind))),
    }
}

/// ajv's `params` for each keyword the core reads; `{}` for the others,
/// which the core words from `message` (its `custom` line).
fn params(kind: &ValidationErrorKind) -> Value {
    match kind {
        ValidationErrorKind::Required { property } => json!({ "missingProperty": property }),
        ValidationErrorKind::Type { kind } => json!({ "type": type_names(kind) }),
        ValidationErrorKind::MinLength { limit }
        | ValidationErrorKind::MaxLength { limit }
        | ValidationErrorKind::MinItems { limit }
        | ValidationErrorKind::MaxItems { limit }
        | ValidationErrorKind::MinProperties { limit }
        | ValidationErrorKind::MaxProperties { limit } => json!({ "limit": limit }),
        ValidationErrorKind::Minimum { limit }
        | ValidationErrorKind::Maximum { limit }
        | ValidationErrorKind::ExclusiveMinimum { limit }
        | ValidationErrorKind::ExclusiveMaximum { limit } => json!({ "limit": limit }),
        ValidationErrorKind::MultipleOf { multiple_of } => json!({ "multipleOf": multiple_of }),
        ValidationErrorKind::Pattern { pattern } => json!({ "pattern": pattern }),
        ValidationErrorKind::Format { format } => json!({ "format": format }),
        ValidationErrorKind::Enum { options } => json!({ "allowedValues": options.as_ref() }),
        ValidationErrorKind::Constant { expected_value } => json!({ "allowedValue": expected_value.as_ref() }),
        ValidationErrorKind::PropertyNames { error } => json!({ "propertyName": error.instance().as_ref() }),
        _ => json!({}),
    }
}

/// `"string"`, or `["string", "null"]` for several.
fn type_names(kind: &TypeKind) -> Value {
    match kind {
        TypeKind::Single(one) => Value::from(one.as_str()),
        TypeKind::Multiple(set) => Value::Array(set.iter().map(|t| Value::from(t.as_str())).collect()),
    }
}

/// The path as keys and indices, which a JSON pointer cannot tell apart.
fn instance_path(location: &Location) -> Value {
    Value::Array(
        location
            .iter()
            .map(|segment| match segment {
                LocationSegment::Property(key) => Value::from(key.as_ref()),
                LocationSegment::Index(index) => Value::from(index),
            })
            .collect(),
    )
}

/// The schema object holding the failed keyword. jsonschema's schema path is
/// canonical (no `$ref` steps), so it resolves from the root as a pointer.
fn parent_schema<'a>(schema: &'a Value, keyword_at: &Location) -> Option<&'a Value> {
    let pointer = keyword_at.as_str();
    let parent = &pointer[..pointer.rfind('/')?];
    schema.pointer(parent).filter(|found| found.is_object())
}
