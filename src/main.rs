//! The `mcp-envelope` command: renders, wraps and parses envelopes on stdin.

use mcp_envelope::{call_tool_result, parse, render, spec, Format, ParseError};
use std::io::{Read, Write};
use std::process::ExitCode;

const USAGE: &str = "usage: mcp-envelope render [--format xml|json|text] < spec.json
       mcp-envelope result [--format xml|json|text] < spec.json
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

fn run(args: Vec<String>) -> Result<String, (u8, String)> {
    let usage = |why: String| (2, format!("{why}\n{USAGE}"));
    let Some((command, options)) = args.split_first() else {
        return Err(usage("no command given".into()));
    };
    let format = match options {
        [] => Format::Xml,
        [flag, value] if flag == "--format" && command != "parse" => {
            Format::from_wire(value).ok_or_else(|| usage(format!("unknown format {value:?}")))?
        }
        [flag] if flag.starts_with("--format=") && command != "parse" => {
            let value = &flag["--format=".len()..];
            Format::from_wire(value).ok_or_else(|| usage(format!("unknown format {value:?}")))?
        }
        _ => {
            return Err(usage(format!(
                "unexpected arguments for {command:?}: {}",
                options.join(" ")
            )))
        }
    };
    let input = read_stdin()?;
    match command.as_str() {
        "render" => Ok(render(&read_spec(&input)?, format)),
        "result" => Ok(call_tool_result(&read_spec(&input)?, format)),
        "parse" => match parse(&input) {
            Ok(error) => Ok(spec::to_json(&error)),
            Err(ParseError::NoEnvelope) => Err((1, ParseError::NoEnvelope.to_string())),
            Err(malformed) => Err((2, malformed.to_string())),
        },
        other => Err(usage(format!("unknown command {other:?}"))),
    }
}

fn read_stdin() -> Result<String, (u8, String)> {
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

fn read_spec(input: &str) -> Result<mcp_envelope::ToolError, (u8, String)> {
    spec::from_json(input).map_err(|e| (2, format!("stdin: {e}")))
}
