//! The wire shapes the core reads and writes, as one JSON Schema document
//! (feature `schema`): the JS and Python packages generate their typed
//! shapes from it (ARCHITECTURE.md, "The generated types"). Each shape is
//! the struct serde reads or writes, so the schema says what serde does;
//! schemars derives it.

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::{json, Map, Value};

use crate::backoff::shapes::{Request as BackoffRequest, Step as BackoffStep};
use crate::code::{Category, CodeDefaults, CANONICAL_CODES};
use crate::decide::{Branch, Decision};
use crate::delta::{ContractDelta, DeltaSeverity};
use crate::host_loop::output::HostStep;
use crate::host_loop::{Attempt, Budget};
use crate::idempotency::shapes::{BeginAnswer as IdempotencyBeginAnswer, FinishAnswer as IdempotencyFinishAnswer};
use crate::ledger::shapes::Answer as LedgerAnswer;
use crate::locale::Locale;
use crate::partial::{PartialInput, PartialLimits, PartialLimitsInput, PartialReport};
use crate::read::output::{ErrorOutcome, Reading};
use crate::recovery::{
    AccessInput, AccessKind, EmptyInput, ExceptionInput, ExceptionOutput, UnknownToolAnswer, UnknownToolInput,
    UnknownToolOutput, UpstreamInput, UpstreamOutput,
};
use crate::tool_error::limits::{Limits, LimitsInput};
use crate::tool_error::model::Severity;
use crate::tool_error::render::{Format, ProtocolErrorKind};
use crate::tool_error::spec::SpecInput;
use crate::validation::{IssueCode, ValidationReport};

/// The JSON Schema (2020-12) document of every wire shape, under `$defs` by
/// the names the wrappers give them: `EnvelopeSpec`, `Limits`,
/// `LimitsInForce`, `PartialLimits`, `PartialLimitsInForce`,
/// `ContractDelta`, `CodeDefaults`, `Decision`, `PartialSpec` (its items
/// `PartialFailure`), the recovery helpers' options (`ExceptionOptions`,
/// `UpstreamFailure`, `AccessOptions`, `EmptyResultOptions`,
/// `UnknownToolOptions`), the host loop's `HostBudget`, `HostAttempt` and
/// `HostStep` (`HostRetry`, `HostHandover` or `HostEscalation`),
/// the readings' `ValidationReport` (its `ValidationField`) and
/// `PartialReport` (its `PartialReportFailure`), the readings themselves
/// (`Reading`: `EnvelopeReading`, that is `ToolErrorReading`,
/// `ValidationErrorReading` or `PartialResultReading`, or `NoReading`) and
/// `ErrorOutcome`, the helpers' reports
/// `ExceptionReport` and `UpstreamReport` (its `UpstreamLog` and
/// `RateLimitHeaders`), `UnknownToolAnswer` (`UnknownToolErrorAnswer`, its
/// `UnknownToolError`, or `UnknownToolResultAnswer`), the bounded backoff's
/// `BackoffRequest` and `BackoffStep` (`BackoffWait`, its `BackoffProgress`,
/// or `BackoffResult`), the idempotency store's answers
/// `IdempotencyBeginAnswer` (`IdempotencyRun` or `IdempotencyInstead`) and
/// `IdempotencyFinishAnswer` (`IdempotencyStored` or `IdempotencyNotStored`),
/// the repeat ledger's `LedgerAnswer` (`LedgerStreakSet`,
/// `LedgerStreakDeleted` or `LedgerStreakKept`), and the string enums (`Format`, `Severity`, `Category`, `Locale`,
/// `CanonicalCode`, `ProtocolErrorKind`, `DeltaSeverity`, `AccessKind`,
/// `IssueCode`, `Branch`, `UnknownToolAnswerKind`).
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
        Decision,
        PartialInput,
        ExceptionInput,
        UpstreamInput,
        AccessInput,
        EmptyInput,
        UnknownToolInput,
        Budget,
        Attempt,
        ValidationReport<'static>,
        PartialReport<'static>,
        ExceptionOutput,
        UpstreamOutput,
        Reading,
        ErrorOutcome,
        HostStep,
        UnknownToolOutput,
        Branch,
        UnknownToolAnswer,
        BackoffRequest,
        BackoffStep,
        IdempotencyBeginAnswer,
        IdempotencyFinishAnswer,
        LedgerAnswer,
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
    // A required key (`code` and `message` of a spec, among others) is
    // `#[serde(default)]` only so that its reader tells a missing one apart
    // from `null`: it has no default.
    for schema in defs.values_mut() {
        let required: Vec<String> = schema["required"]
            .as_array()
            .map(|keys| keys.iter().filter_map(|k| k.as_str().map(str::to_owned)).collect())
            .unwrap_or_default();
        for key in required {
            if let Some(property) = schema["properties"][&key].as_object_mut() {
                property.remove("default");
            }
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
    use serde::Deserialize;

    use super::*;

    /// The keys serde's reader names when it refuses an unknown one
    /// (`` expected `a` or `b` ``, `` expected one of `a`, `b`, `c` ``).
    fn accepted_keys(refusal: &str) -> Vec<String> {
        let (_, list) = refusal.split_once("expected ").expect(refusal);
        let list = list.strip_prefix("one of ").unwrap_or(list);
        let mut keys: Vec<String> = list
            .split(", ")
            .flat_map(|k| k.split(" or "))
            .map(|k| k.trim_matches(|c| c == '`' || c == ' ').to_owned())
            .collect();
        keys.sort();
        keys
    }

    /// Every object schema closed, as the generated types read them
    /// (json-schema-to-typescript's `additionalProperties: false`): a key
    /// the schema does not list fails validation.
    fn close(schema: &mut Value) {
        match schema {
            Value::Object(map) => {
                if map.contains_key("properties") && !map.contains_key("additionalProperties") {
                    map.insert("additionalProperties".to_owned(), Value::Bool(false));
                }
                map.values_mut().for_each(close);
            }
            Value::Array(items) => items.iter_mut().for_each(close),
            _ => {}
        }
    }

    /// Why `value` is not a `name` as the schema (closed) says; `Ok` when it is.
    fn conforms(name: &str, value: &Value) -> Result<(), String> {
        let mut schema = wire_schema();
        close(&mut schema);
        schema["$ref"] = json!(format!("#/$defs/{name}"));
        let validator = jsonschema::validator_for(&schema).expect("the wire schema compiles");
        let errors: Vec<String> = validator.iter_errors(value).map(|e| e.to_string()).collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(format!("{value} is not a {name}: {}", errors.join("; ")))
        }
    }

    /// The shared vectors' cases of `call` that give an output, as
    /// `(input, output)`.
    fn call_cases(call: &str) -> Vec<(Value, Value)> {
        let found: Vec<(Value, Value)> = vector_cases(&format!("\"call\": \"{call}\""))
            .into_iter()
            .filter(|case| case["call"] == call && case.get("output").is_some())
            .map(|case| (case["input"].clone(), case["output"].clone()))
            .collect();
        assert!(!found.is_empty(), "no vector calls {call}");
        found
    }

    /// The shared vectors' cases in the files whose text holds `hint`; cases
    /// written with expansions (`$repeat`, `$concat`) are left out, since
    /// their values are not as written.
    fn vector_cases(hint: &str) -> Vec<Value> {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("vectors");
        let mut found = Vec::new();
        for entry in std::fs::read_dir(folder).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "json") || path.ends_with("schema.json") {
                continue;
            }
            let text = std::fs::read_to_string(&path).unwrap();
            if !text.contains(hint) {
                continue;
            }
            // Some cases nest values past serde_json's default depth (the
            // dev-dependency's `unbounded_depth`); some hold lone surrogates,
            // which every host reads as U+FFFD (vectors/README.md).
            let text = crate::json::repair_lone_surrogates(&text);
            let mut reader = serde_json::Deserializer::from_str(&text);
            reader.disable_recursion_limit();
            let groups = Value::deserialize(&mut reader).unwrap();
            for case in groups
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|g| g["cases"].as_array().unwrap())
            {
                let written = case.to_string();
                if !written.contains("\"$repeat\"") && !written.contains("\"$concat\"") {
                    found.push(case.clone());
                }
            }
        }
        found
    }

    /// Each value is a `name`, and together they write every key the
    /// schema lists (a key no case writes is one the writer may not have).
    fn all_conform_and_cover<'a>(name: &str, values: impl IntoIterator<Item = &'a Value>) {
        let mut written = std::collections::BTreeSet::new();
        for value in values {
            conforms(name, value).unwrap();
            written.extend(value.as_object().unwrap().keys().cloned());
        }
        assert_eq!(properties(name), written.into_iter().collect::<Vec<_>>(), "{name}");
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
    fn every_decision_the_vectors_hold_is_a_decision_and_they_write_every_key() {
        let outputs: Vec<Value> = call_cases("decide").into_iter().map(|(_, output)| output).collect();
        all_conform_and_cover("Decision", &outputs);
        let schema = wire_schema();
        assert_eq!(schema["$defs"]["Decision"]["required"], json!(["branch", "why"]));
    }

    /// The inputs of `call`'s vector cases that give an output are each a
    /// `name`, and its keys are exactly those its reader accepts (its
    /// refusal of `refused`, a request with an unknown key, names them).
    fn reader_shape(call: &str, name: &str, refused: Result<String, crate::SpecError>) {
        let refusal = refused.unwrap_err().to_string();
        assert_eq!(properties(name), accepted_keys(&refusal), "{name}");
        for (input, _) in call_cases(call) {
            conforms(name, &input).unwrap();
        }
    }

    #[test]
    fn the_partial_spec_schema_is_what_the_partial_readers_read() {
        use crate::raw;
        reader_shape("render-partial", "PartialSpec", raw::render_partial(r#"{"notAKey":1}"#));
        reader_shape("partial-result", "PartialSpec", raw::partial_result(r#"{"notAKey":1}"#));
        let failed = raw::render_partial(r#"{"obtained":[],"failed":[{"item":"x","code":"X","notAKey":1}]}"#);
        assert_eq!(
            properties("PartialFailure"),
            accepted_keys(&failed.unwrap_err().to_string())
        );
        let schema = wire_schema();
        assert_eq!(
            schema["$defs"]["PartialSpec"]["required"],
            json!(["obtained", "failed"])
        );
        assert_eq!(schema["$defs"]["PartialFailure"]["required"], json!(["item", "code"]));
    }

    #[test]
    fn each_recovery_helpers_options_schema_is_what_its_reader_reads() {
        use crate::raw;
        let unknown = r#"{"notAKey":1}"#;
        reader_shape("exception-result", "ExceptionOptions", raw::exception_result(unknown));
        reader_shape("upstream-error", "UpstreamFailure", raw::upstream_error(unknown));
        reader_shape("access-error", "AccessOptions", raw::access_error(unknown));
        reader_shape("empty-result", "EmptyResultOptions", raw::empty_result(unknown));
        reader_shape("unknown-tool", "UnknownToolOptions", raw::unknown_tool(unknown));
        let defs = &wire_schema()["$defs"];
        for (name, required) in [
            ("ExceptionOptions", json!(["tool", "exception"])),
            ("UpstreamFailure", json!(["status"])),
            ("AccessOptions", json!(["kind"])),
            ("EmptyResultOptions", json!(["what"])),
            ("UnknownToolOptions", json!(["tool", "tools"])),
        ] {
            assert_eq!(defs[name]["required"], required, "{name}");
        }
    }

    #[test]
    fn the_host_loop_schemas_are_what_host_step_reads_and_writes() {
        use crate::raw;
        let request = |extra: &str| raw::host_step(&format!(r#"{{"name":"t","result":{{"content":[]}},{extra}}}"#));
        let budget = request(r#""budget":{"notAKey":1}"#).unwrap_err().to_string();
        assert_eq!(properties("HostBudget"), accepted_keys(&budget));
        let attempt = request(r#""tried":[{"branch":"accept","notAKey":1}]"#)
            .unwrap_err()
            .to_string();
        assert_eq!(properties("HostAttempt"), accepted_keys(&attempt));
        let (mut written, mut steps) = (Vec::new(), Vec::new());
        for (input, output) in call_cases("host-step") {
            if let Some(budget) = input.get("budget") {
                conforms("HostBudget", budget).unwrap();
            }
            written.extend(input["tried"].as_array().into_iter().flatten().cloned());
            written.extend(output["tried"].as_array().unwrap().iter().cloned());
            conforms("HostStep", &output).unwrap();
            steps.push(output);
        }
        all_conform_and_cover("HostAttempt", &written);
        // Each step is taken somewhere, and states every key its shape lists.
        for (then, name) in [
            (&["retry"][..], "HostRetry"),
            (&["done", "to-model"][..], "HostHandover"),
            (&["escalate"][..], "HostEscalation"),
        ] {
            let of_kind: Vec<&Value> = steps.iter().filter(|s| then.iter().any(|t| s["then"] == *t)).collect();
            all_conform_and_cover(name, of_kind);
        }
        assert!(conforms("HostStep", &json!({"then": "retry", "tried": []})).is_err());
    }

    #[test]
    fn every_report_a_reading_holds_is_a_report_and_they_write_every_key() {
        let (mut validations, mut partials) = (Vec::new(), Vec::new());
        for case in vector_cases("\"kind\"") {
            let readings = [&case["reading"], &case["outcome"]["reading"]];
            for reading in readings.into_iter().filter(|r| r.is_object()) {
                validations.extend(reading.get("validation").cloned());
                partials.extend(reading.get("partial").cloned());
            }
            // `validation` and `validation-parse` cases: the envelope JSON `parseValidation` gives.
            if case["kind"] == "validation" || case["kind"] == "validation-parse" {
                validations.extend(case.get("parsed").filter(|p| p.is_object()).cloned());
            }
        }
        // A spec's caps are stated too, though no envelope read back states them.
        let (stated, _) = crate::partial::partial_from_json(
            r#"{"task":"t","obtained":["a"],"failed":[{"item":"b","code":"X","message":"m","category":"transient","retryable":true}],
                "tried":["c"],"recovery":"r","correlationId":"id","limits":{"items":5},
                "omittedObtained":1,"omittedFailed":2,"omittedTried":3}"#,
        )
        .unwrap();
        partials.push(serde_json::from_str(&crate::partial::to_json_as_stated(&stated)).unwrap());
        all_conform_and_cover("ValidationReport", &validations);
        let fields: Vec<Value> = validations
            .iter()
            .flat_map(|v| v["fields"].as_array().unwrap().clone())
            .collect();
        all_conform_and_cover("ValidationField", &fields);
        all_conform_and_cover("PartialReport", &partials);
        let failed: Vec<Value> = partials
            .iter()
            .flat_map(|p| p["failed"].as_array().unwrap().clone())
            .collect();
        all_conform_and_cover("PartialReportFailure", &failed);
        // What a reading states, a spec can say again.
        for partial in &partials {
            conforms("PartialSpec", partial).unwrap();
        }
    }

    #[test]
    fn every_reading_and_outcome_the_vectors_hold_is_one() {
        let (mut readings, mut outcomes) = (Vec::new(), Vec::new());
        for case in vector_cases("\"kind\"") {
            readings.extend(case.get("reading").filter(|r| r.is_object()).cloned());
            outcomes.extend(case.get("outcome").filter(|o| o.is_object()).cloned());
        }
        for reading in readings.iter().chain(outcomes.iter().map(|o| &o["reading"])) {
            conforms("Reading", reading).unwrap();
        }
        all_conform_and_cover("ErrorOutcome", &outcomes);
        // Each kind is read somewhere, and states every key its shape lists.
        for (kind, name) in [
            ("tool_error", "ToolErrorReading"),
            ("validation_error", "ValidationErrorReading"),
            ("partial_result", "PartialResultReading"),
            ("none", "NoReading"),
        ] {
            let of_kind: Vec<&Value> = readings.iter().filter(|r| r["kind"] == kind).collect();
            all_conform_and_cover(name, of_kind);
        }
        // A reading of one kind is no reading of another.
        let none = json!({"kind": "none"});
        assert!(conforms("ToolErrorReading", &none).is_err());
        let mut mislabelled = readings.iter().find(|r| r["kind"] == "tool_error").unwrap().clone();
        mislabelled["kind"] = json!("partial_result");
        assert!(conforms("Reading", &mislabelled).is_err());
    }

    #[test]
    fn every_helper_report_the_vectors_hold_is_one_and_they_write_every_key() {
        let exceptions: Vec<Value> = call_cases("exception-result").into_iter().map(|(_, o)| o).collect();
        all_conform_and_cover("ExceptionReport", &exceptions);
        let upstreams: Vec<Value> = call_cases("upstream-error").into_iter().map(|(_, o)| o).collect();
        all_conform_and_cover("UpstreamReport", &upstreams);
        let logs: Vec<Value> = upstreams.iter().map(|u| u["log"].clone()).collect();
        all_conform_and_cover("UpstreamLog", &logs);
        let limits: Vec<Value> = logs.iter().filter_map(|l| l.get("rateLimit").cloned()).collect();
        all_conform_and_cover("RateLimitHeaders", &limits);
        let answers: Vec<Value> = call_cases("unknown-tool").into_iter().map(|(_, o)| o).collect();
        for answer in &answers {
            conforms("UnknownToolAnswer", answer).unwrap();
        }
        let errors: Vec<&Value> = answers.iter().filter(|a| a.get("error").is_some()).collect();
        all_conform_and_cover("UnknownToolErrorAnswer", errors.iter().copied());
        all_conform_and_cover("UnknownToolError", errors.iter().map(|a| &a["error"]));
        all_conform_and_cover(
            "UnknownToolResultAnswer",
            answers.iter().filter(|a| a.get("result").is_some()),
        );
    }

    #[test]
    fn the_backoff_schemas_are_what_backoff_reads_and_writes() {
        // The reader is hand-written: its refusal of an unknown key lists the keys.
        let refusal = crate::raw::backoff(r#"{"notAKey":1}"#).unwrap_err().to_string();
        let (_, list) = refusal.split_once("the keys are ").expect(&refusal);
        let mut keys: Vec<String> = list.split(", ").map(str::to_owned).collect();
        keys.sort();
        assert_eq!(properties("BackoffRequest"), keys);
        let schema = wire_schema();
        assert_eq!(
            schema["$defs"]["BackoffRequest"]["required"],
            json!(["attempt", "elapsedMs", "deadlineMs", "failure"])
        );
        let (inputs, outputs): (Vec<Value>, Vec<Value>) = call_cases("backoff").into_iter().unzip();
        all_conform_and_cover("BackoffRequest", &inputs);
        for output in &outputs {
            conforms("BackoffStep", output).unwrap();
        }
        // Each step is taken somewhere, and states every key its shape lists.
        let waits: Vec<&Value> = outputs.iter().filter(|o| o.get("waitMs").is_some()).collect();
        all_conform_and_cover("BackoffWait", waits.iter().copied());
        all_conform_and_cover("BackoffProgress", waits.iter().map(|w| &w["progress"]));
        all_conform_and_cover("BackoffResult", outputs.iter().filter(|o| o.get("result").is_some()));
        // A request the reader refuses is none, and a step is one or the other.
        assert!(conforms(
            "BackoffRequest",
            &json!({"attempt": 0, "elapsedMs": 0, "deadlineMs": 1, "failure": {}})
        )
        .is_err());
        assert!(conforms(
            "BackoffRequest",
            &json!({"attempt": 1, "elapsedMs": 0, "deadlineMs": 1, "failure": "X"})
        )
        .is_err());
        assert!(conforms("BackoffStep", &json!({"waitMs": 250})).is_err());
    }

    /// A state step's answers in the shared vectors, and what it answers
    /// after a trap (the after-trap answer's JSON text).
    fn step_answers(call: &str) -> Vec<Value> {
        let trapped = call_cases("after-trap")
            .into_iter()
            .filter(|(input, output)| input["call"] == call && output["then"] == "answer")
            .map(|(_, output)| serde_json::from_str(output["answer"].as_str().unwrap()).unwrap());
        let answered = call_cases(call).into_iter().map(|(_, output)| output);
        answered.chain(trapped).collect()
    }

    #[test]
    fn the_ledger_schema_is_what_its_steps_answer() {
        let failures = step_answers("ledger-failure");
        let observed = step_answers("ledger-observe");
        // A failure always has its result to send.
        assert!(failures.iter().all(|a| a.get("result").is_some()));
        let answers: Vec<&Value> = failures.iter().chain(&observed).collect();
        for answer in &answers {
            conforms("LedgerAnswer", answer).unwrap();
        }
        // Each change of the streak is made somewhere, and states every key its shape lists.
        let of_streak =
            |streak: fn(Option<&Value>) -> bool| answers.iter().copied().filter(move |a| streak(a.get("streak")));
        all_conform_and_cover("LedgerStreakSet", of_streak(|s| s.is_some_and(Value::is_string)));
        all_conform_and_cover("LedgerStreakDeleted", of_streak(|s| s.is_some_and(Value::is_null)));
        all_conform_and_cover("LedgerStreakKept", of_streak(|s| s.is_none()));
        assert!(conforms("LedgerAnswer", &json!({"streak": "{}"})).is_err());
        assert!(conforms("LedgerAnswer", &json!({"result": {}, "streak": null})).is_err());
    }

    #[test]
    fn the_idempotency_schemas_are_what_its_steps_answer() {
        use crate::idempotency::{Begin, Claim, Finish};
        let (begins, finishes) = (step_answers("idempotency-begin"), step_answers("idempotency-finish"));
        assert!(
            begins.iter().any(|a| a["outcome"] == "unavailable") && finishes.iter().any(|a| a["finished"] == "kept")
        );
        for answer in &begins {
            conforms("IdempotencyBeginAnswer", answer).unwrap();
        }
        for answer in &finishes {
            conforms("IdempotencyFinishAnswer", answer).unwrap();
        }
        // Each answer is given somewhere, and states every key its shape lists.
        all_conform_and_cover("IdempotencyRun", begins.iter().filter(|a| a["outcome"] == "run"));
        all_conform_and_cover("IdempotencyInstead", begins.iter().filter(|a| a["outcome"] != "run"));
        all_conform_and_cover(
            "IdempotencyStored",
            finishes.iter().filter(|a| a["finished"] == "stored"),
        );
        all_conform_and_cover(
            "IdempotencyNotStored",
            finishes.iter().filter(|a| a["finished"] != "stored"),
        );
        // A store's own answers (`Begin::to_json`, the `finished` names) in the
        // idempotency vectors: a run's without its claim.
        for case in vector_cases("\"kind\": \"idempotency\"") {
            for step in case["steps"].as_array().into_iter().flatten() {
                if let Some(answer) = step.get("answer").filter(|a| a["outcome"] != "run") {
                    conforms("IdempotencyInstead", answer).unwrap();
                }
                if let Some(finished) = step.get("finished").filter(|f| *f != "stored") {
                    conforms("IdempotencyNotStored", &json!({ "finished": finished })).unwrap();
                }
            }
        }
        // The outcomes are the core's own names, every one of them.
        let defs = &wire_schema()["$defs"];
        let instead: Vec<&str> = [
            Begin::Replay,
            Begin::Reused,
            Begin::InProgress,
            Begin::InvalidKey,
            Begin::Unavailable,
        ]
        .map(|make| make(String::new()).outcome())
        .to_vec();
        assert_eq!(
            defs["IdempotencyInstead"]["properties"]["outcome"]["enum"],
            json!(instead)
        );
        let run = Begin::Run(Claim {
            record: String::new(),
            ttl_ms: 0,
        });
        assert_eq!(defs["IdempotencyRun"]["properties"]["outcome"]["const"], run.outcome());
        let stored = Finish::Stored(Claim {
            record: String::new(),
            ttl_ms: 0,
        });
        assert_eq!(
            defs["IdempotencyStored"]["properties"]["finished"]["const"],
            stored.as_str()
        );
        assert_eq!(
            defs["IdempotencyNotStored"]["properties"]["finished"]["enum"],
            json!([Finish::Released.as_str(), Finish::Absent.as_str(), "kept"])
        );
        // An answer of one kind is no answer of another.
        assert!(conforms("IdempotencyBeginAnswer", &json!({"outcome": "replay"})).is_err());
        assert!(conforms("IdempotencyFinishAnswer", &json!({"finished": "stored"})).is_err());
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
        assert_eq!(defs["Branch"]["enum"], spellings(Branch::ALL));
        assert_eq!(defs["UnknownToolAnswerKind"]["enum"], spellings(UnknownToolAnswer::ALL));
        assert_eq!(defs["CanonicalCode"]["enum"], json!(CANONICAL_CODES));
    }
}
