//! Runs every shared vector against the native core; each case is one test,
//! named by its descriptions.

mod common;

use common::same;
use common::vectors::{load_all, CaseKind, IdempotencyStep, LedgerStep, ParseOutcome, ValidationOutcome};
use libtest_mimic::{Arguments, Failed, Trial};
use mcp_envelope::limits::cut_text;
use mcp_envelope::partial;
use mcp_envelope::validation::{self, envelope_to_json, parse_validation, validation_from_json, validation_result};
use mcp_envelope::{
    call_tool_result, error_of_result, parse, protocol_error, read_envelope, render, spec, Format, Idempotency, Ledger,
    ParseError, ProtocolErrorKind, ResultText, ToolArguments,
};

fn main() {
    let trials = load_all()
        .into_iter()
        .map(|case| Trial::test(case.name, move || run(case.kind).map_err(Failed::from)))
        .collect();
    libtest_mimic::run(&Arguments::from_args(), trials).exit();
}

/// A partial result's envelope read back renders the same bytes under the
/// spec's limits, in its format: caps cut once.
fn partial_renders_again(input: &str, envelope: &str) -> Result<(), String> {
    let (spec, format) = partial::partial_from_json(input).map_err(String::from)?;
    let mut back = partial::parse_partial(envelope).map_err(|e| format!("the envelope does not read back: {e}"))?;
    back.limits = spec.limits;
    same(
        "render-partial of the envelope read back",
        &partial::render_partial(&back, format),
        envelope,
    )
}

fn format(name: &str) -> Format {
    Format::from_wire(name).unwrap_or_else(|| panic!("unknown format {name:?} in a vector"))
}

fn run(kind: CaseKind) -> Result<(), String> {
    match kind {
        CaseKind::Render {
            spec: spec_text,
            expected,
            results,
            parsed,
        } => {
            let error = spec::from_json(&spec_text).map_err(|e| format!("spec refused: {e}"))?;
            for (name, want) in &expected {
                let f = format(name);
                same(&format!("{name} rendering"), &render(&error, f), want)?;
                let mut back = parse(want).map_err(|e| format!("{name} rendering does not parse back: {e}"))?;
                let want_back = match parsed.get(name) {
                    Some(spec) => spec::from_json(&spec.to_string()).map_err(|e| format!("parsed.{name}: {e}"))?,
                    None => error.clone(),
                };
                if back != want_back {
                    return Err(format!("{name} parses back as {back:?}, want {want_back:?}"));
                }
                // Every envelope reads back to an error that renders the same
                // bytes under the same limits and marker language: caps cut once.
                back.limits = error.limits;
                back.locale = error.locale;
                back.localize_steering = error.localize_steering;
                same(
                    &format!("{name} rendering of the parsed envelope"),
                    &render(&back, f),
                    want,
                )?;
            }
            for (name, want) in &results {
                same(
                    &format!("{name} CallToolResult"),
                    &call_tool_result(&error, format(name)),
                    want,
                )?;
            }
            Ok(())
        }
        CaseKind::SpecError { spec: spec_text, error } => match spec::from_json(&spec_text) {
            Ok(e) => Err(format!("spec accepted as {e:?}, want the error {error:?}")),
            Err(got) => same("spec error", &got.to_string(), &error),
        },
        CaseKind::Parse { input, outcome } => match (parse(&input), outcome) {
            (Ok(got), ParseOutcome::Parsed(want)) => {
                let want = spec::from_json(&want).map_err(|e| format!("parsed: {e}"))?;
                if got != want {
                    return Err(format!("parsed as {got:?}, want {want:?}"));
                }
                same("parsed spec", &spec::to_json(&got), &spec::to_json(&want))
            }
            (Err(ParseError::NoEnvelope), ParseOutcome::NoEnvelope) => Ok(()),
            (Err(ParseError::Malformed(got)), ParseOutcome::Malformed(want)) => same("malformed message", &got, &want),
            (got, _) => Err(format!("parse gave {got:?}, which is not what the vector expects")),
        },
        CaseKind::Validation { spec, outcome } => match (validation_from_json(&spec), outcome) {
            (
                Ok(spec),
                ValidationOutcome::Rendered {
                    expected,
                    result,
                    parsed,
                },
            ) => {
                let text = validation::render_validation(&spec.action, &spec.issues, &spec.deltas, spec.options);
                same("validation envelope", &text, &expected)?;
                if let Some(result) = result {
                    same("validation CallToolResult", &validation_result(&spec), &result)?;
                }
                let back = parse_validation(&expected).map_err(|e| format!("the envelope does not parse back: {e}"))?;
                if back.action != cut_text(&spec.action, validation::FIELD_CHARS) {
                    return Err(format!("parsed action {:?}, want {:?}", back.action, spec.action));
                }
                let listed = spec.issues.iter().take(spec.options.max_fields);
                let want: Vec<(String, String)> = listed
                    .map(|i| (i.field_name(), validation::field_text_in(i, spec.options.locale)))
                    .collect();
                if back.fields != want {
                    return Err(format!("parsed fields {:?}, want {want:?}", back.fields));
                }
                let recovery = validation::validation_recovery(spec.options);
                if back.recovery != recovery {
                    return Err(format!("parsed recovery {:?}, want {recovery:?}", back.recovery));
                }
                match parsed {
                    Some(want) => same("parsed envelope", &envelope_to_json(&back), &want),
                    None => Ok(()),
                }
            }
            (Err(got), ValidationOutcome::Refused(want)) => same("validation spec error", &got.to_string(), &want),
            (Ok(_), ValidationOutcome::Refused(want)) => Err(format!("spec accepted, want the error {want:?}")),
            (Err(got), ValidationOutcome::Rendered { .. }) => Err(format!("spec refused: {got}")),
        },
        CaseKind::ValidationParse { input, outcome } => match (parse_validation(&input), outcome) {
            (Ok(got), ParseOutcome::Parsed(want)) => same("parsed envelope", &envelope_to_json(&got), &want),
            (Err(ParseError::NoEnvelope), ParseOutcome::NoEnvelope) => Ok(()),
            (Err(ParseError::Malformed(got)), ParseOutcome::Malformed(want)) => same("malformed message", &got, &want),
            (got, _) => Err(format!("parse gave {got:?}, which is not what the vector expects")),
        },
        CaseKind::Read { input, outcome } => match (read_envelope(&input), outcome) {
            (Ok(reading), ParseOutcome::Parsed(want)) => same("reading", &reading.to_json(), &want),
            (Err(ParseError::Malformed(got)), ParseOutcome::Malformed(want)) => same("malformed message", &got, &want),
            (got, _) => Err(format!("read gave {got:?}, which is not what the vector expects")),
        },
        CaseKind::ErrorOfResult { result, outcome } => match (error_of_result(&result), outcome) {
            (Ok(Some(got)), Some(want)) => same("client outcome", &got.to_json(), &want),
            (Ok(None), None) => Ok(()),
            (got, want) => Err(format!("error-of-result gave {got:?}, want {want:?}")),
        },
        CaseKind::Call { name, input, outcome } => {
            let got = common::calls::native(&name, &input);
            match (got, outcome) {
                (Ok(got), Ok(want)) if name == "render-partial" => {
                    same(&format!("{name} output"), &got, &want)?;
                    partial_renders_again(&input, &want)
                }
                (Ok(got), Ok(want)) => same(&format!("{name} output"), &got, &want),
                (Err(got), Err(want)) => same(&format!("{name} refusal"), &got, &want),
                (got, want) => Err(format!("{name} gave {got:?}, want {want:?}")),
            }
        }
        CaseKind::Ledger { stop_after, steps } => {
            let mut ledger = Ledger::new(stop_after.unwrap_or(Ledger::DEFAULT_STOP_AFTER));
            for (i, step) in steps.into_iter().enumerate() {
                match step {
                    LedgerStep::Failure {
                        tool,
                        spec: spec_text,
                        arguments,
                        format: f,
                        result,
                    } => {
                        let error = spec::from_json(&spec_text).map_err(|e| format!("step {i}: spec refused: {e}"))?;
                        let arguments = arguments
                            .as_deref()
                            .map(ToolArguments::from_json)
                            .transpose()
                            .map_err(|e| format!("step {i}: refused: {e}"))?;
                        let sent = ledger.failure(&tool, &error, arguments.as_ref());
                        same(
                            &format!("step {i} result"),
                            &call_tool_result(&sent, format(&f)),
                            &result,
                        )?;
                    }
                    LedgerStep::Observe {
                        tool,
                        result,
                        arguments,
                        replaced,
                    } => {
                        let arguments = arguments
                            .as_deref()
                            .map(ToolArguments::from_json)
                            .transpose()
                            .map_err(|e| format!("step {i}: refused: {e}"))?;
                        let read = ResultText::from_json(&result).map_err(|e| format!("step {i}: refused: {e}"))?;
                        let got = ledger
                            .observe(&tool, &read, arguments.as_ref())
                            .map(|replaced| replaced.call_tool_result());
                        if got != replaced {
                            return Err(format!("step {i}: observe gave {got:?}, want {replaced:?}"));
                        }
                    }
                    LedgerStep::Success { tool } => ledger.success(&tool),
                }
            }
            Ok(())
        }
        CaseKind::Idempotency {
            capacity,
            ttl_seconds,
            steps,
        } => run_idempotency(capacity, ttl_seconds, steps),
        CaseKind::Protocol {
            kind,
            message,
            data,
            expected,
        } => {
            let kind = ProtocolErrorKind::from_wire(&kind).ok_or("unknown protocol error kind")?;
            let data = data
                .map(|d| spec::from_json(&d))
                .transpose()
                .map_err(|e| format!("data: {e}"))?;
            same(
                "JSON-RPC error",
                &protocol_error(kind, &message, data.as_ref()),
                &expected,
            )
        }
    }
}

/// The steps on one store; each answer exactly as the vector states it.
fn run_idempotency(capacity: Option<u32>, ttl_seconds: Option<u32>, steps: Vec<IdempotencyStep>) -> Result<(), String> {
    let mut store = Idempotency::new(
        capacity.unwrap_or(Idempotency::DEFAULT_CAPACITY),
        ttl_seconds.unwrap_or(Idempotency::DEFAULT_TTL_SECONDS),
    );
    for (i, step) in steps.into_iter().enumerate() {
        match step {
            IdempotencyStep::Begin {
                tool,
                key,
                arguments,
                now_ms,
                format: f,
                answer,
            } => {
                let arguments = ToolArguments::from_json(&arguments).map_err(|e| format!("step {i}: refused: {e}"))?;
                let got = store.begin(&tool, &key, &arguments, now_ms, format(&f));
                same(&format!("step {i} answer"), &got.to_json(), &answer)?;
            }
            IdempotencyStep::Finish {
                tool,
                key,
                result,
                now_ms,
                outcome,
            } => {
                let got = store
                    .finish(&tool, &key, result.as_deref(), now_ms)
                    .map(|f| f.as_str().to_owned())
                    .map_err(String::from);
                if got != outcome {
                    return Err(format!("step {i}: finish gave {got:?}, want {outcome:?}"));
                }
            }
        }
    }
    Ok(())
}
