//! Runs every shared vector through the BUILT component in wasmtime and
//! checks each output byte for byte against the vector and against the
//! native core.

#[path = "../../tests/common/mod.rs"]
mod common;

use common::json::Json;
use common::same;
use common::vectors::{load_all, CaseKind, IdempotencyStep, LedgerStep, ParseOutcome, ValidationOutcome};
use host_tests::{format_to_wit, kind_to_wit, wit, Instance};
use libtest_mimic::{Arguments, Failed, Trial};
use mcp_envelope::validation::{self, envelope_to_json};
use mcp_envelope::{self as native, spec, Format, ProtocolErrorKind};

fn main() {
    host_tests::loaded(); // fail once, clearly, if the component is missing
    let trials = load_all()
        .into_iter()
        .map(|case| Trial::test(case.name, move || run(case.kind).map_err(Failed::from)))
        .collect();
    libtest_mimic::run(&Arguments::from_args(), trials).exit();
}

type Outcome = Result<(), String>;

fn trap(e: wasmtime::Error) -> String {
    format!("the component trapped: {e:?}")
}

fn format(name: &str) -> Format {
    Format::from_wire(name).unwrap()
}

/// `read-envelope` through the component, checked against the native reader.
fn read(i: &mut Instance, text: &str) -> Result<Result<String, String>, String> {
    let got = i.api.call_read_envelope(&mut i.store, text).map_err(trap)?;
    let native = native::read_envelope(text)
        .map(|r| r.to_json())
        .map_err(|e| e.to_string());
    if got != native {
        return Err(format!("read-envelope gave {got:?}, the native core {native:?}"));
    }
    Ok(got)
}

/// The faithful spec of a reading's `error`, as a native error (for equality by meaning).
fn reading_error(reading: &str) -> Result<Option<native::ToolError>, String> {
    let value = Json::parse(reading)?;
    match value.get("error") {
        Some(spec_json) => spec::from_json(&spec_json.to_string())
            .map(Some)
            .map_err(|e| e.to_string()),
        None => Ok(None),
    }
}

fn run(kind: CaseKind) -> Outcome {
    let mut i = Instance::new();
    match kind {
        CaseKind::Render {
            spec: spec_text,
            expected,
            results,
            parsed,
        } => {
            let error = spec::from_json(&spec_text).map_err(|e| format!("spec refused natively: {e}"))?;
            for (name, want) in &expected {
                let f = format_to_wit(format(name));
                let got = i.api.call_render(&mut i.store, &spec_text, f).map_err(trap)?;
                same(&format!("{name} render"), &got?, want)?;
                let reading = read(&mut i, want)?.map_err(|e| format!("{name} does not read back: {e}"))?;
                let back = reading_error(&reading)?.ok_or(format!("{name} reads back as {reading}"))?;
                let want_back = match parsed.get(name) {
                    Some(spec) => spec::from_json(&spec.to_string()).map_err(|e| format!("parsed.{name}: {e}"))?,
                    None => error.clone(),
                };
                if back != want_back {
                    return Err(format!("{name} reads back as {back:?}, want {want_back:?}"));
                }
            }
            for (name, want) in &results {
                let f = format_to_wit(format(name));
                let got = i.api.call_call_tool_result(&mut i.store, &spec_text, f).map_err(trap)?;
                same(&format!("{name} call-tool-result"), &got?, want)?;
            }
            Ok(())
        }
        CaseKind::SpecError { spec: spec_text, error } => {
            for f in [wit::Format::Xml, wit::Format::Text] {
                match i.api.call_render(&mut i.store, &spec_text, f).map_err(trap)? {
                    Ok(text) => return Err(format!("spec accepted, rendered as {text:?}")),
                    Err(got) => same("render refusal", &got, &error)?,
                }
            }
            let got = i
                .api
                .call_call_tool_result(&mut i.store, &spec_text, wit::Format::Json)
                .map_err(trap)?;
            same("call-tool-result refusal", &got.unwrap_err(), &error)
        }
        CaseKind::Parse { input, outcome } => {
            let got = read(&mut i, &input)?;
            match (got, outcome) {
                (Ok(reading), ParseOutcome::Parsed(want)) => {
                    let want = spec::from_json(&want).map_err(|e| format!("parsed: {e}"))?;
                    match reading_error(&reading)? {
                        Some(back) if back == want => Ok(()),
                        _ => Err(format!("reads as {reading}, want {want:?}")),
                    }
                }
                (Ok(reading), ParseOutcome::NoEnvelope) if reading_error(&reading)?.is_none() => Ok(()),
                (Err(got), ParseOutcome::Malformed(want)) => same("malformed message", &got, &want),
                (got, _) => Err(format!("read gave {got:?}, which is not what the vector expects")),
            }
        }
        CaseKind::Validation {
            spec: spec_text,
            outcome,
        } => {
            let rendered = i.api.call_render_validation(&mut i.store, &spec_text).map_err(trap)?;
            let native_text = validation::render_validation_spec_json(&spec_text).map_err(|e| e.to_string());
            if rendered != native_text {
                return Err(format!(
                    "render-validation gave {rendered:?}, the native core {native_text:?}"
                ));
            }
            match outcome {
                ValidationOutcome::Refused(want) => match rendered {
                    Ok(_) => Err(format!("spec accepted, want the error {want:?}")),
                    Err(got) => same("render-validation refusal", &got, &want),
                },
                ValidationOutcome::Rendered {
                    expected,
                    result,
                    parsed,
                } => {
                    same("render-validation", &rendered?, &expected)?;
                    if let Some(result) = result {
                        let got = i.api.call_validation_result(&mut i.store, &spec_text).map_err(trap)?;
                        same("validation-result", &got?, &result)?;
                    }
                    let reading = read(&mut i, &expected)?.map_err(|e| format!("does not read back: {e}"))?;
                    let value = Json::parse(&reading)?;
                    let back = value.get("validation").ok_or(format!("reads back as {reading}"))?;
                    match parsed {
                        Some(want) => same("parsed envelope", &back.to_string(), &want),
                        None => Ok(()),
                    }
                }
            }
        }
        CaseKind::ValidationParse { input, outcome } => {
            let got = read(&mut i, &input)?;
            let validation_of = |reading: &str| -> Option<String> {
                let value = Json::parse(reading).ok()?;
                value.get("validation").map(Json::to_string)
            };
            match (got, outcome) {
                (Ok(reading), ParseOutcome::Parsed(want)) => {
                    same("parsed envelope", &validation_of(&reading).unwrap_or_default(), &want)?;
                    // The same text through the native validation reader.
                    let native = native::validation::parse_validation(&input).map_err(|e| e.to_string())?;
                    same("native parse-validation", &envelope_to_json(&native), &want)
                }
                (Ok(reading), ParseOutcome::NoEnvelope) if validation_of(&reading).is_none() => Ok(()),
                (Err(got), ParseOutcome::Malformed(want)) => same("malformed message", &got, &want),
                (got, _) => Err(format!("read gave {got:?}, which is not what the vector expects")),
            }
        }
        CaseKind::Read { input, outcome } => match (read(&mut i, &input)?, outcome) {
            (Ok(got), ParseOutcome::Parsed(want)) => same("reading", &got, &want),
            (Err(got), ParseOutcome::Malformed(want)) => same("malformed message", &got, &want),
            (got, _) => Err(format!("read gave {got:?}, which is not what the vector expects")),
        },
        CaseKind::ErrorOfResult { result, outcome } => {
            let got = i.api.call_error_of_result(&mut i.store, &result).map_err(trap)?;
            match (got, outcome) {
                (Ok(Some(got)), Some(want)) => same("client outcome", &got, &want),
                (Ok(None), None) => Ok(()),
                (got, want) => Err(format!("error-of-result gave {got:?}, want {want:?}")),
            }
        }
        CaseKind::Call { name, input, outcome } => {
            let got = call(&mut i, &name, &input)?;
            let native = common::calls::native(&name, &input);
            if got != native {
                return Err(format!("{name} gave {got:?}, the native core {native:?}"));
            }
            match (got, outcome) {
                (Ok(got), Ok(want)) => same(&format!("{name} output"), &got, &want),
                (Err(got), Err(want)) => same(&format!("{name} refusal"), &got, &want),
                (got, want) => Err(format!("{name} gave {got:?}, want {want:?}")),
            }
        }
        CaseKind::Ledger { stop_after, steps } => {
            let ledger = i.api.ledger();
            let stop_after = stop_after.unwrap_or(native::Ledger::DEFAULT_STOP_AFTER);
            let handle = ledger.call_constructor(&mut i.store, stop_after).map_err(trap)?;
            for (n, step) in steps.into_iter().enumerate() {
                match step {
                    LedgerStep::Failure {
                        tool,
                        spec,
                        arguments,
                        format: f,
                        result,
                    } => {
                        let got = ledger
                            .call_failure(
                                &mut i.store,
                                handle,
                                &tool,
                                &spec,
                                arguments.as_deref(),
                                format_to_wit(format(&f)),
                            )
                            .map_err(trap)?;
                        same(&format!("step {n} result"), &got?, &result)?;
                    }
                    LedgerStep::Observe {
                        tool,
                        result,
                        arguments,
                        replaced,
                    } => {
                        let got = ledger
                            .call_observe(&mut i.store, handle, &tool, &result, arguments.as_deref())
                            .map_err(trap)??;
                        if got != replaced {
                            return Err(format!("step {n}: observe gave {got:?}, want {replaced:?}"));
                        }
                    }
                    LedgerStep::Success { tool } => ledger.call_success(&mut i.store, handle, &tool).map_err(trap)?,
                }
            }
            handle.resource_drop(&mut i.store).map_err(trap)
        }
        CaseKind::Idempotency {
            capacity,
            ttl_seconds,
            steps,
        } => run_idempotency(&mut i, capacity, ttl_seconds, steps),
        CaseKind::Protocol {
            kind,
            message,
            data,
            expected,
        } => {
            let kind = ProtocolErrorKind::from_wire(&kind).ok_or("unknown protocol error kind")?;
            let got = i
                .api
                .call_protocol_error(&mut i.store, kind_to_wit(kind), &message, data.as_deref())
                .map_err(trap)?;
            same("protocol-error", &got?, &expected)
        }
    }
}

/// The component's export for a `call` vector.
fn call(i: &mut Instance, name: &str, input: &str) -> Result<Result<String, String>, String> {
    let store = &mut i.store;
    match name {
        "code-defaults" => i.api.call_code_defaults(store, input),
        "limits" => i.api.call_limits(store, input),
        "exception-result" => i.api.call_exception_result(store, input),
        "upstream-error" => i.api.call_upstream_error(store, input),
        "access-error" => i.api.call_access_error(store, input),
        "empty-result" => i.api.call_empty_result(store, input),
        "backoff" => i.api.call_backoff(store, input),
        "decide" => i.api.call_decide(store, input),
        "unknown-tool" => i.api.call_unknown_tool(store, input),
        "user-error" => i.api.call_user_error(store, input),
        "contract-lock" => i.api.call_contract_lock(store, input),
        "contract-diff" => i.api.call_contract_diff(store, input),
        "render-partial" => i.api.call_render_partial(store, input),
        "partial-result" => i.api.call_partial_result(store, input),
        "partial-limits" => i.api.call_partial_limits(store, input),
        _ => return Err(format!("no component export for the call {name:?}")),
    }
    .map_err(trap)
}

/// The steps on one `idempotency` resource, each answer checked against the
/// vector and against the native store run beside it.
fn run_idempotency(
    i: &mut Instance,
    capacity: Option<u32>,
    ttl_seconds: Option<u32>,
    steps: Vec<IdempotencyStep>,
) -> Outcome {
    let store = i.api.idempotency();
    let capacity = capacity.unwrap_or(native::Idempotency::DEFAULT_CAPACITY);
    let ttl_seconds = ttl_seconds.unwrap_or(native::Idempotency::DEFAULT_TTL_SECONDS);
    let handle = store
        .call_constructor(&mut i.store, capacity, ttl_seconds)
        .map_err(trap)?;
    let mut beside = native::Idempotency::new(capacity, ttl_seconds);
    for (n, step) in steps.into_iter().enumerate() {
        match step {
            IdempotencyStep::Begin {
                tool,
                key,
                arguments,
                now_ms,
                format: f,
                answer,
            } => {
                let got = store
                    .call_begin(
                        &mut i.store,
                        handle,
                        &tool,
                        &key,
                        &arguments,
                        now_ms,
                        format_to_wit(format(&f)),
                    )
                    .map_err(trap)?;
                let native = beside
                    .begin(&tool, &key, &arguments, now_ms, format(&f))
                    .map(|b| b.to_json());
                if got != native.clone().map_err(|e| e.0) {
                    return Err(format!("step {n}: begin gave {got:?}, the native core {native:?}"));
                }
                same(&format!("step {n} answer"), &got?, &answer)?;
            }
            IdempotencyStep::Finish {
                tool,
                key,
                result,
                now_ms,
                outcome,
            } => {
                let got = store
                    .call_finish(&mut i.store, handle, &tool, &key, result.as_deref(), now_ms)
                    .map_err(trap)?;
                beside.finish(&tool, &key, result.as_deref(), now_ms).ok();
                if got != outcome {
                    return Err(format!("step {n}: finish gave {got:?}, want {outcome:?}"));
                }
            }
        }
    }
    handle.resource_drop(&mut i.store).map_err(trap)
}
