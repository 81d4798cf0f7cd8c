//! Runs every shared vector through the BUILT component in wasmtime, through
//! both the typed functions and the JSON string functions, and checks each
//! output byte for byte against the vector and against the native core.

#[path = "../../tests/common/mod.rs"]
mod common;

use common::same;
use common::vectors::{load_all, CaseKind, ParseOutcome};
use host_tests::{format_to_wit, from_wit, kind_to_wit, to_wit, wit, Instance};
use libtest_mimic::{Arguments, Failed, Trial};
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
