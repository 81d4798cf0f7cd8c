//! The `mcp-envelope` command: renders, wraps and parses envelopes on stdin.

use mcp_envelope::validation::{self, ValidationOptions};
use mcp_envelope::{call_tool_result, parse, render, spec, Format, ParseError};
use std::io::{Read, Write};
use std::process::ExitCode;

const USAGE: &str = "usage: mcp-envelope render [--format xml|json|text] < spec.json
       mcp-envelope result [--format xml|json|text] < spec.json
       mcp-envelope validate --action NAME [--max-fields N] < issues.json
       mcp-envelope parse < envelope.txt";

/// Exit statuses: 0 done, 1 the input holds no envelope (`parse`), 2 bad input or usage.
fn main() -> ExitCode {
    match run(std::env::args().skip(1).collect()) {
        Ok(output) => {
            let mut stdout = std::io::stdout().lock();
            // A closed stdout (`| head`) is not worth a panic.
            let _ = writeln!(stdout, "{output}").and_then(|_| stdout.flush());
            ExitCode::SUCCESS
        }
        Err((status, message)) => {
            eprintln!("mcp-envelope: {message}");
            ExitCode::from(status)
        }
    }
}

type Failure = (u8, String);

fn usage(why: String) -> Failure {
    (2, format!("{why}\n{USAGE}"))
}

/// The `--name value` (or `--name=value`) options a command allows.
fn options(command: &str, args: &[String], allowed: &[&str]) -> Result<Vec<(String, String)>, Failure> {
    let mut found = Vec::new();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let (name, value) = match arg.split_once('=') {
            Some((name, value)) => (name.to_owned(), value.to_owned()),
            None => (
                arg.clone(),
                rest.next()
                    .cloned()
                    .ok_or_else(|| usage(format!("{arg} needs a value")))?,
            ),
        };
        if !allowed.contains(&name.as_str()) {
            return Err(usage(format!("unexpected argument {arg:?} for {command:?}")));
        }
        found.push((name, value));
    }
    Ok(found)
}

fn format_option(found: &[(String, String)]) -> Result<Format, Failure> {
    match found.iter().find(|(n, _)| n == "--format") {
        None => Ok(Format::Xml),
        Some((_, value)) => Format::from_wire(value).ok_or_else(|| usage(format!("unknown format {value:?}"))),
    }
}

fn run(args: Vec<String>) -> Result<String, Failure> {
    let Some((command, rest)) = args.split_first() else {
        return Err(usage("no command given".into()));
    };
    match command.as_str() {
        "render" | "result" => {
            let format = format_option(&options(command, rest, &["--format"])?)?;
            let error = spec::from_json(&read_stdin()?).map_err(|e| (2, format!("stdin: {e}")))?;
            Ok(if command == "render" {
                render(&error, format)
            } else {
                call_tool_result(&error, format)
            })
        }
        "validate" => validate(&options(command, rest, &["--action", "--max-fields"])?),
        "parse" => {
            options(command, rest, &[])?;
            parse_any(&read_stdin()?)
        }
        other => Err(usage(format!("unknown command {other:?}"))),
    }
}

fn validate(found: &[(String, String)]) -> Result<String, Failure> {
    let action = match found.iter().find(|(n, _)| n == "--action") {
        Some((_, action)) if !action.is_empty() => action.clone(),
        Some(_) => return Err(usage("--action must not be empty".into())),
        None => return Err(usage("validate needs --action NAME".into())),
    };
    let mut options = ValidationOptions::default();
    if let Some((_, value)) = found.iter().find(|(n, _)| n == "--max-fields") {
        options.max_fields = value
            .parse()
            .map_err(|_| usage(format!("--max-fields must be a whole number, not {value:?}")))?;
    }
    let (issues, deltas) =
        validation::issues_and_deltas_from_json(&read_stdin()?).map_err(|e| (2, format!("stdin: {e}")))?;
    Ok(validation::render_validation(&action, &issues, &deltas, options))
}

/// A `<tool_error>` (in any form) prints its spec; a `<validation_error>` its fields.
fn parse_any(input: &str) -> Result<String, Failure> {
    match parse(input) {
        Ok(error) => Ok(spec::to_json(&error)),
        Err(ParseError::NoEnvelope) => match validation::parse_validation(input) {
            Ok(envelope) => Ok(validation::envelope_to_json(&envelope)),
            Err(ParseError::NoEnvelope) => Err((1, ParseError::NoEnvelope.to_string())),
            Err(malformed) => Err((2, malformed.to_string())),
        },
        Err(malformed) => Err((2, malformed.to_string())),
    }
}

fn read_stdin() -> Result<String, Failure> {
    let mut bytes = Vec::new();
    std::io::stdin()
        .read_to_end(&mut bytes)
        .map_err(|e| (2, format!("cannot read stdin: {e}")))?;
    String::from_utf8(bytes).map_err(|e| {
        (
            2,
            format!(
                "stdin is not UTF-8: invalid byte at offset {}",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}
