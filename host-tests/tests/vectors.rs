//! Runs every shared vector through the BUILT components in wasmtime and
//! checks each output byte for byte against the vector and against the
//! native core: a case that calls only the `envelope` interface against both
//! the envelope component and the full one, the rest against the full one.

#[path = "../../tests/common/mod.rs"]
mod common;

use common::json::Json;
use common::same;
use common::vectors::{load_all, CaseKind, IdempotencyStep, LedgerStep, ParseOutcome, ValidationOutcome};
use host_tests::{envelope_functions, format_to_wit, kind_to_wit, wit, Instance, Which};
use libtest_mimic::{Arguments, Failed, Trial};
use mcp_envelope::validation::envelope_to_json;
use mcp_envelope::{self as native, spec, Format, ProtocolErrorKind};

fn main() {
    // Fail once, clearly, if a component is missing.
    for which in Which::BOTH {
        host_tests::loaded(which);
    }
    let envelope = envelope_functions();
    let mut trials = Vec::new();
    // Each case's data is moved into its trial: a case run against both
    // components is read twice.
    for (case, again) in load_all().into_iter().zip(load_all()) {
        if envelope_only(&case.kind, &envelope) {
            trials.push(trial(Which::Envelope, again.name, again.kind));
        }
        trials.push(trial(Which::Full, case.name, case.kind));
    }
    libtest_mimic::run(&Arguments::from_args(), trials).exit();
}

fn trial(which: Which, name: String, kind: CaseKind) -> Trial {
    Trial::test(format!("{} [{}]", name, which.file_name()), move || {
        run(Instance::of(which), kind).map_err(Failed::from)
    })
}

/// Whether a case calls only functions of the `envelope` interface, which
/// both components export.
fn envelope_only(kind: &CaseKind, envelope: &[&str]) -> bool {
    match kind {
        CaseKind::Call { name, .. } => envelope.contains(&name.as_str()),
        CaseKind::Ledger { .. } | CaseKind::Idempotency { .. } => false,
        CaseKind::Render { .. }
        | CaseKind::SpecError { .. }
        | CaseKind::Parse { .. }
        | CaseKind::Protocol { .. }
        | CaseKind::Validation { .. }
        | CaseKind::ValidationParse { .. }
        | CaseKind::Read { .. }
        | CaseKind::ErrorOfResult { .. } => true,
    }
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
    let got = i.envelope.call_read_envelope(&mut i.store, text).map_err(trap)?;
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

fn run(mut i: Instance, kind: CaseKind) -> Outcome {
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
                let got = i.envelope.call_render(&mut i.store, &spec_text, f).map_err(trap)?;
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
                let got = i
                    .envelope
                    .call_call_tool_result(&mut i.store, &spec_text, f)
                    .map_err(trap)?;
                same(&format!("{name} call-tool-result"), &got?, want)?;
            }
            Ok(())
        }
        CaseKind::SpecError { spec: spec_text, error } => {
            for f in [wit::Format::Xml, wit::Format::Text] {
                match i.envelope.call_render(&mut i.store, &spec_text, f).map_err(trap)? {
                    Ok(text) => return Err(format!("spec accepted, rendered as {text:?}")),
                    Err(got) => same("render refusal", &got, &error)?,
                }
            }
            let got = i
                .envelope
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
            let rendered = i
                .envelope
                .call_render_validation(&mut i.store, &spec_text)
                .map_err(trap)?;
            let native_text = mcp_envelope::raw::render_validation(&spec_text).map_err(|e| e.to_string());
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
                        let got = i
                            .envelope
                            .call_validation_result(&mut i.store, &spec_text)
                            .map_err(trap)?;
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
            let got = i.envelope.call_error_of_result(&mut i.store, &result).map_err(trap)?;
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
        CaseKind::Ledger { stop_after, steps } => run_ledger(&mut i, stop_after, steps),
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
                .envelope
                .call_protocol_error(&mut i.store, kind_to_wit(kind), &message, data.as_deref())
                .map_err(trap)?;
            same("protocol-error", &got?, &expected)
        }
    }
}

/// The component's export for a `call` vector, found by its WIT name.
fn call(i: &mut Instance, name: &str, input: &str) -> Result<Result<String, String>, String> {
    // Takes nothing: the vector's input is null.
    if name == "idempotency-key-argument" {
        return i
            .server()
            .call_idempotency_key_argument(&mut i.store)
            .map(Ok)
            .map_err(trap);
    }
    match i.call_export(name, input).map_err(trap)? {
        Some(answer) => Ok(answer),
        None => Err(format!("no component export for the call {name:?}")),
    }
}

/// A JSON string's text.
fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

/// A member of an answer: a string's text, `Some(None)` for `null`, `None` when absent.
/// Other values as their text, as written.
fn member(answer: &str, name: &str) -> Option<Option<String>> {
    let members: std::collections::HashMap<String, Box<serde_json::value::RawValue>> =
        serde_json::from_str(answer).ok()?;
    let raw = members.get(name)?.get();
    match raw {
        "null" => Some(None),
        _ if raw.starts_with('"') => serde_json::from_str(raw).ok().map(Some),
        _ => Some(Some(raw.to_owned())),
    }
}

/// The steps on one conversation's ledger, its streaks held here as a host
/// holds them, each step through `ledger-failure` or `ledger-observe`.
fn run_ledger(i: &mut Instance, stop_after: Option<u32>, steps: Vec<LedgerStep>) -> Outcome {
    let stop_after = stop_after.unwrap_or(native::Ledger::DEFAULT_STOP_AFTER);
    let mut streaks = std::collections::BTreeMap::<String, String>::new();
    for (n, step) in steps.into_iter().enumerate() {
        let (tool, request, observe) = match &step {
            LedgerStep::Failure {
                tool,
                spec,
                arguments,
                format: f,
                ..
            } => (
                tool,
                format!(
                    r#"{{"spec":{spec},"arguments":{},"stopAfter":{stop_after},"format":"{f}","streak":{}}}"#,
                    arguments.as_deref().unwrap_or("null"),
                    streaks.get(tool).map_or("null".into(), |s| quoted(s)),
                ),
                false,
            ),
            LedgerStep::Observe {
                tool,
                result,
                arguments,
                ..
            } => (
                tool,
                format!(
                    r#"{{"result":{result},"arguments":{},"stopAfter":{stop_after},"streak":{}}}"#,
                    arguments.as_deref().unwrap_or("null"),
                    streaks.get(tool).map_or("null".into(), |s| quoted(s)),
                ),
                true,
            ),
            LedgerStep::Success { tool } => {
                streaks.remove(tool);
                continue;
            }
        };
        let answer = if observe {
            i.server().call_ledger_observe(&mut i.store, &request)
        } else {
            i.server().call_ledger_failure(&mut i.store, &request)
        }
        .map_err(trap)?
        .map_err(|e| format!("step {n}: refused: {e}"))?;
        let native = if observe {
            native::raw::ledger_observe(&request)
        } else {
            native::raw::ledger_failure(&request)
        };
        if native.as_ref().ok() != Some(&answer) {
            return Err(format!(
                "step {n}: the component gave {answer:?}, the native core {native:?}"
            ));
        }
        match member(&answer, "streak") {
            Some(Some(record)) => {
                streaks.insert(tool.clone(), record);
            }
            Some(None) => {
                streaks.remove(tool);
            }
            None => {}
        }
        let sent = member(&answer, "result").flatten();
        match step {
            LedgerStep::Failure { result, .. } => {
                same(&format!("step {n} result"), &sent.unwrap_or_default(), &result)?
            }
            LedgerStep::Observe { replaced, .. } if sent != replaced => {
                return Err(format!("step {n}: observe gave {sent:?}, want {replaced:?}"))
            }
            _ => {}
        }
    }
    Ok(())
}

/// The steps on one idempotency store, its records held here in memory as
/// a host holds them (at most `capacity`, the first claimed going first),
/// each step through `idempotency-begin` and `idempotency-finish`, checked
/// against the vector and against the native store run beside it.
fn run_idempotency(
    i: &mut Instance,
    capacity: Option<u32>,
    ttl_seconds: Option<u32>,
    steps: Vec<IdempotencyStep>,
) -> Outcome {
    let capacity = capacity.unwrap_or(native::Idempotency::DEFAULT_CAPACITY);
    let ttl_seconds = ttl_seconds.unwrap_or(native::Idempotency::DEFAULT_TTL_SECONDS);
    let mut records = std::collections::BTreeMap::<String, String>::new();
    let mut order = std::collections::VecDeque::<String>::new();
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
                let store_key = native::idempotency::idempotency_key(&tool, &key);
                let request = format!(
                    r#"{{"tool":{},"key":{},"arguments":{arguments},"nowMs":{now_ms},"ttlSeconds":{ttl_seconds},"format":"{f}","stored":{}}}"#,
                    quoted(&tool),
                    quoted(&key),
                    records.get(&store_key).map_or("null".into(), |r| quoted(r)),
                );
                let got = i
                    .server()
                    .call_idempotency_begin(&mut i.store, &request)
                    .map_err(trap)??;
                if let Some(Some(claim)) = member(&got, "record") {
                    if records.insert(store_key.clone(), claim).is_some() {
                        order.retain(|k| *k != store_key);
                    }
                    order.push_back(store_key);
                    while records.len() > capacity.max(1) as usize {
                        if let Some(oldest) = order.pop_front() {
                            records.remove(&oldest);
                        }
                    }
                }
                let native = mcp_envelope::ToolArguments::from_json(&arguments)
                    .map(|arguments| beside.begin(&tool, &key, &arguments, now_ms, format(&f)).to_json())
                    .map_err(String::from)?;
                // What a store answers: the outcome, its ledger step and the result, without the claim.
                let outcome = member(&got, "outcome").flatten().unwrap_or_default();
                let ledger = match member(&got, "ledger").flatten() {
                    Some(step) => format!(r#","ledger":{}"#, quoted(&step)),
                    None => String::new(),
                };
                let answered = match member(&got, "result") {
                    Some(Some(result)) => format!(r#"{{"outcome":{}{ledger},"result":{result}}}"#, quoted(&outcome)),
                    _ => format!(r#"{{"outcome":{}{ledger}}}"#, quoted(&outcome)),
                };
                if answered != native {
                    return Err(format!(
                        "step {n}: begin gave {answered:?}, the native store {native:?}"
                    ));
                }
                same(&format!("step {n} answer"), &answered, &answer)?;
            }
            IdempotencyStep::Finish {
                tool,
                key,
                result,
                now_ms,
                outcome,
            } => {
                let store_key = native::idempotency::idempotency_key(&tool, &key);
                let running = records
                    .get(&store_key)
                    .filter(|r| member(r, "result").is_none())
                    .cloned();
                let native = beside.finish(&tool, &key, result.as_deref(), now_ms);
                let got = match running {
                    None => Ok("absent".to_owned()),
                    Some(claim) => {
                        let request = format!(
                            r#"{{"tool":{},"key":{},"claim":{},"result":{},"nowMs":{now_ms},"ttlSeconds":{ttl_seconds}}}"#,
                            quoted(&tool),
                            quoted(&key),
                            quoted(&claim),
                            result.as_deref().unwrap_or("null"),
                        );
                        let answer = i
                            .server()
                            .call_idempotency_finish(&mut i.store, &request)
                            .map_err(trap)?;
                        answer.map(|answer| {
                            match member(&answer, "record") {
                                Some(Some(record)) => {
                                    records.insert(store_key.clone(), record);
                                }
                                _ => {
                                    records.remove(&store_key);
                                    order.retain(|k| *k != store_key);
                                }
                            }
                            member(&answer, "finished").flatten().unwrap_or_default()
                        })
                    }
                };
                if got
                    != native
                        .as_ref()
                        .map(|f| f.as_str().to_owned())
                        .map_err(|e| e.to_string())
                {
                    return Err(format!("step {n}: finish gave {got:?}, the native store {native:?}"));
                }
                if got != outcome {
                    return Err(format!("step {n}: finish gave {got:?}, want {outcome:?}"));
                }
            }
        }
    }
    Ok(())
}
