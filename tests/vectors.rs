//! Runs every shared vector against the native core; each case is one test,
//! named by its descriptions.

mod common;

use common::same;
use common::vectors::{load_all, CaseKind, ParseOutcome};
use libtest_mimic::{Arguments, Failed, Trial};
use mcp_envelope::{call_tool_result, parse, protocol_error, render, spec, Format, ParseError, ProtocolErrorKind};

fn main() {
    let trials = load_all()
        .into_iter()
        .map(|case| Trial::test(case.name, move || run(case.kind).map_err(Failed::from)))
        .collect();
    libtest_mimic::run(&Arguments::from_args(), trials).exit();
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
                let back = parse(want).map_err(|e| format!("{name} rendering does not parse back: {e}"))?;
                let want_back = match parsed.get(name) {
                    Some(spec) => spec::from_json(&spec.to_string()).map_err(|e| format!("parsed.{name}: {e}"))?,
                    None => error.clone(),
                };
                if back != want_back {
                    return Err(format!("{name} parses back as {back:?}, want {want_back:?}"));
                }
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
