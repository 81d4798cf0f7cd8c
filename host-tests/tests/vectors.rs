//! Runs every shared vector through the BUILT component in wasmtime, through
//! both the typed functions and the JSON string functions, and checks each
//! output byte for byte against the vector and against the native core.

#[path = "../../tests/common/mod.rs"]
mod common;

use common::same;
use common::vectors::{load_all, CaseKind, ParseOutcome, ValidationOutcome};
use host_tests::{
    delta_to_wit, envelope_from_wit, format_to_wit, from_wit, issue_to_wit, kind_to_wit, options_to_wit, to_wit, wit,
    Instance,
};
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
            let typed = to_wit(&error);
            for (name, want) in &expected {
                let f = format_to_wit(format(name));
                let native_text = native::render(&error, format(name));
                same("native rendering", &native_text, want)?;
                let via_json = i.api.call_render_spec(&mut i.store, &spec_text, f).map_err(trap)?;
                same(
                    &format!("{name} from render-spec"),
                    &via_json.map_err(|e| format!("render-spec refused: {e}"))?,
                    want,
                )?;
                let via_record = i.api.call_render(&mut i.store, &typed, f).map_err(trap)?;
                same(&format!("{name} from render"), &via_record, want)?;

                let want_back = match parsed.get(name) {
                    Some(spec) => spec::from_json(&spec.to_string()).unwrap(),
                    None => error.clone(),
                };
                let back_json = i.api.call_parse_spec(&mut i.store, want).map_err(trap)?;
                let back_json = back_json.map_err(|e| format!("parse-spec refused the {name} rendering: {e}"))?;
                let back_json =
                    back_json.ok_or_else(|| format!("parse-spec found no envelope in the {name} rendering"))?;
                let native_back = native::parse(want).unwrap();
                same("parse-spec output", &back_json, &spec::to_json(&native_back))?;
                if spec::from_json(&back_json).unwrap() != want_back {
                    return Err(format!(
                        "{name} parses back as {back_json}, want {}",
                        spec::to_json(&want_back)
                    ));
                }
                let back_record = i.api.call_parse(&mut i.store, want).map_err(trap)?;
                let back_record =
                    from_wit(back_record.map_err(|e| format!("parse refused the {name} rendering: {e:?}"))?);
                if back_record != want_back {
                    return Err(format!("{name} parses back as {back_record:?}, want {want_back:?}"));
                }
            }
            for (name, want) in &results {
                let f = format_to_wit(format(name));
                let got = i
                    .api
                    .call_call_tool_result_spec(&mut i.store, &spec_text, f)
                    .map_err(trap)?;
                same(
                    &format!("{name} result from call-tool-result-spec"),
                    &got.map_err(|e| e.to_string())?,
                    want,
                )?;
                let got = i.api.call_call_tool_result(&mut i.store, &typed, f).map_err(trap)?;
                same(&format!("{name} result from call-tool-result"), &got, want)?;
            }
            Ok(())
        }
        CaseKind::SpecError { spec: spec_text, error } => {
            for f in [wit::Format::Xml, wit::Format::Text] {
                match i.api.call_render_spec(&mut i.store, &spec_text, f).map_err(trap)? {
                    Ok(text) => return Err(format!("render-spec accepted the spec: {text}")),
                    Err(got) => same("render-spec error", &got, &error)?,
                }
            }
            match i
                .api
                .call_call_tool_result_spec(&mut i.store, &spec_text, wit::Format::Json)
                .map_err(trap)?
            {
                Ok(text) => Err(format!("call-tool-result-spec accepted the spec: {text}")),
                Err(got) => same("call-tool-result-spec error", &got, &error),
            }
        }
        CaseKind::Parse { input, outcome } => {
            let via_json = i.api.call_parse_spec(&mut i.store, &input).map_err(trap)?;
            let via_record = i.api.call_parse(&mut i.store, &input).map_err(trap)?;
            match (via_json, via_record, outcome) {
                (Ok(Some(got)), Ok(record), ParseOutcome::Parsed(want)) => {
                    let want = spec::to_json(&spec::from_json(&want).unwrap());
                    same("parse-spec output", &got, &want)?;
                    same("parse output", &spec::to_json(&from_wit(record)), &want)
                }
                (Ok(None), Err(wit::ParseFailure::NoEnvelope), ParseOutcome::NoEnvelope) => Ok(()),
                (Err(got), Err(wit::ParseFailure::Malformed(got_record)), ParseOutcome::Malformed(want)) => {
                    same("parse-spec error", &got, &want)?;
                    same("parse error", &got_record, &want)
                }
                (json, record, _) => Err(format!(
                    "parse-spec gave {json:?} and parse {record:?}, not what the vector expects"
                )),
            }
        }
        CaseKind::Validation {
            spec: spec_text,
            outcome,
        } => {
            let via_json = i
                .api
                .call_render_validation_spec(&mut i.store, &spec_text)
                .map_err(trap)?;
            let via_result = i
                .api
                .call_validation_result_spec(&mut i.store, &spec_text)
                .map_err(trap)?;
            match outcome {
                ValidationOutcome::Refused(want) => {
                    same(
                        "render-validation-spec error",
                        &via_json.err().ok_or("render-validation-spec accepted the spec")?,
                        &want,
                    )?;
                    same(
                        "validation-result-spec error",
                        &via_result.err().ok_or("validation-result-spec accepted the spec")?,
                        &want,
                    )
                }
                ValidationOutcome::Rendered {
                    expected,
                    result,
                    parsed,
                } => {
                    let spec =
                        validation::validation_from_json(&spec_text).map_err(|e| format!("refused natively: {e}"))?;
                    let native_text =
                        validation::render_validation(&spec.action, &spec.issues, &spec.deltas, spec.options);
                    same("native envelope", &native_text, &expected)?;
                    same(
                        "render-validation-spec",
                        &via_json.map_err(|e| format!("refused: {e}"))?,
                        &expected,
                    )?;
                    let issues: Vec<_> = spec.issues.iter().map(issue_to_wit).collect();
                    let deltas: Vec<_> = spec.deltas.iter().map(delta_to_wit).collect();
                    let options = options_to_wit(spec.options);
                    let typed = i
                        .api
                        .call_render_validation(&mut i.store, &spec.action, &issues, &deltas, options)
                        .map_err(trap)?;
                    same("render-validation", &typed, &expected)?;
                    let via_result = via_result.map_err(|e| format!("refused: {e}"))?;
                    same(
                        "validation-result-spec vs native",
                        &via_result,
                        &validation::validation_result(&spec),
                    )?;
                    if let Some(want) = result {
                        same("validation-result-spec", &via_result, &want)?;
                    }
                    let back = i
                        .api
                        .call_parse_validation_spec(&mut i.store, &expected)
                        .map_err(trap)?;
                    let back = back.map_err(|e| format!("parse-validation-spec refused the envelope: {e}"))?;
                    let back = back.ok_or("parse-validation-spec found no envelope")?;
                    let native_back = validation::parse_validation(&expected).map_err(|e| e.to_string())?;
                    same("parse-validation-spec", &back, &envelope_to_json(&native_back))?;
                    let typed_back = i.api.call_parse_validation(&mut i.store, &expected).map_err(trap)?;
                    let typed_back = envelope_from_wit(typed_back.map_err(|e| format!("{e:?}"))?);
                    same("parse-validation", &envelope_to_json(&typed_back), &back)?;
                    match parsed {
                        Some(want) => same("parsed envelope", &back, &want),
                        None => Ok(()),
                    }
                }
            }
        }
        CaseKind::ValidationParse { input, outcome } => {
            let via_json = i.api.call_parse_validation_spec(&mut i.store, &input).map_err(trap)?;
            let via_record = i.api.call_parse_validation(&mut i.store, &input).map_err(trap)?;
            match (via_json, via_record, outcome) {
                (Ok(Some(got)), Ok(record), ParseOutcome::Parsed(want)) => {
                    same("parse-validation-spec", &got, &want)?;
                    same("parse-validation", &envelope_to_json(&envelope_from_wit(record)), &want)
                }
                (Ok(None), Err(wit::ParseFailure::NoEnvelope), ParseOutcome::NoEnvelope) => Ok(()),
                (Err(got), Err(wit::ParseFailure::Malformed(got_record)), ParseOutcome::Malformed(want)) => {
                    same("parse-validation-spec error", &got, &want)?;
                    same("parse-validation error", &got_record, &want)
                }
                (json, record, _) => Err(format!(
                    "parse-validation-spec gave {json:?} and parse-validation {record:?}"
                )),
            }
        }
        CaseKind::Protocol {
            kind,
            message,
            data,
            expected,
        } => {
            let kind = ProtocolErrorKind::from_wire(&kind).unwrap();
            let data = data.map(|d| to_wit(&spec::from_json(&d).unwrap()));
            let got = i
                .api
                .call_protocol_error(&mut i.store, kind_to_wit(kind), &message, data.as_ref())
                .map_err(trap)?;
            same("JSON-RPC error", &got, &expected)
        }
    }
}
