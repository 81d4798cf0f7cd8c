//! The command's work: parse the arguments, read the input, call the library
//! and say what happened in one line when it fails.

use crate::args::{Audit, Cli, Command, ContractCommand, ContractDiff, Envelope, Input, Partial, Validate};
use crate::{audit, contract};
use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use mcp_envelope::partial::{partial_result_json, render_partial_json, to_json_as_stated};
use mcp_envelope::validation::{self, ValidationOptions};
use mcp_envelope::{
    access_error_json, call_tool_result, empty_result_json, exception_result_json, read_envelope, render, spec,
    upstream_error_json, ParseError, Reading, SpecError, ToolError,
};
use std::ffi::OsString;
use std::io::Read;

/// An exit status and the one line that explains it.
pub type Failure = (u8, String);

/// What a run prints on stdout (followed by one newline), or its failure.
pub enum Outcome {
    Output(String),
    /// Printed like `Output`, then the exit status (an audit below its minimum score).
    Scored(String, u8),
    /// `--help` or `--version`: clap prints it (on stdout) and the exit is 0.
    Shown(clap::Error),
}

/// Runs the command line `args` (the program name first).
pub fn run(args: Vec<OsString>) -> Result<Outcome, Failure> {
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) => {
            return Ok(Outcome::Shown(e))
        }
        Err(e) => return Err(usage(&e, &args)),
    };
    let output = match cli.command {
        Command::Render(Envelope { format, input }) => render(&error_spec(&input)?, format),
        Command::Result(Envelope { format, input }) => call_tool_result(&error_spec(&input)?, format),
        Command::Validate(command) => validate(command)?,
        Command::Audit(command) => return audit(command),
        Command::Contract(command) => match command.command {
            ContractCommand::Lock(input) => from_json(&input, mcp_envelope::contract::lock_json)?,
            ContractCommand::Diff(command) => return contract_diff(command),
        },
        Command::Parse(input) => parse_any(&read(&input)?)?,
        Command::Exception(input) => from_json(&input, exception_result_json)?,
        Command::Upstream(input) => from_json(&input, upstream_error_json)?,
        Command::Access(input) => from_json(&input, access_error_json)?,
        Command::Empty(input) => from_json(&input, empty_result_json)?,
        Command::Partial(Partial { envelope, input }) => from_json(
            &input,
            if envelope {
                render_partial_json
            } else {
                partial_result_json
            },
        )?,
    };
    Ok(Outcome::Output(output))
}

/// A clap usage error as one line: clap's first paragraph (its lines joined),
/// any tip it gives in parentheses, and where to look.
fn usage(e: &clap::Error, args: &[OsString]) -> Failure {
    let rendered = e.render().to_string();
    let mut paragraphs = rendered.split("\n\n").map(str::trim).filter(|p| !p.is_empty());
    let flat = |paragraph: &str| paragraph.split_whitespace().collect::<Vec<_>>().join(" ");
    let first = paragraphs.next().unwrap_or("bad usage");
    let mut message = flat(first.strip_prefix("error: ").unwrap_or(first));
    // The command (and subcommand: `contract diff`) the words name, whose help to point at.
    let words: Vec<&str> = args.iter().skip(1).filter_map(|a| a.to_str()).collect();
    let cli = Cli::command();
    let mut named = Vec::new();
    let mut here = &cli;
    for word in words {
        match here.find_subcommand(word) {
            Some(sub) => {
                named.push(word);
                here = sub;
            }
            None => break,
        }
    }
    if matches!(
        e.kind(),
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        message = match named.last() {
            Some(name) => format!("no {name} command given (commands: {})", subcommand_names(here)),
            None => format!("no command given (commands: {})", subcommand_names(here)),
        };
    }
    for tip in paragraphs.filter_map(|p| p.strip_prefix("tip: ")) {
        message.push_str(&format!(" ({})", flat(tip)));
    }
    let help = ["mcp-envelope"]
        .into_iter()
        .chain(named)
        .chain(["--help"])
        .collect::<Vec<_>>()
        .join(" ");
    (2, format!("{message}; see '{help}'"))
}

/// `render, result, …`: the subcommands of `command`.
fn subcommand_names(command: &clap::Command) -> String {
    let names: Vec<&str> = command
        .get_subcommands()
        .map(|c| c.get_name())
        .filter(|name| *name != "help")
        .collect();
    names.join(", ")
}

fn validate(
    Validate {
        action,
        spec,
        max_fields,
        input,
    }: Validate,
) -> Result<String, Failure> {
    let text = read(&input)?;
    let action = match action {
        Some(action) if !spec => action,
        _ => return validation::render_validation_spec_json(&text).map_err(|e| bad(&input, e)),
    };
    let options = ValidationOptions {
        max_fields,
        ..ValidationOptions::default()
    };
    let (issues, deltas) = validation::issues_and_deltas_from_json(&text).map_err(|e| bad(&input, e))?;
    Ok(validation::render_validation(&action, &issues, &deltas, options))
}

/// Runs an audit; below the minimum score the report still prints, with status 1.
fn audit(command: Audit) -> Result<Outcome, Failure> {
    let plan = match &command.plan {
        Some(path) => Some(std::fs::read_to_string(path).map_err(|e| (2, format!("{}: {e}", path.display())))?),
        None => None,
    };
    let server = if command.url.is_empty() {
        audit::Server::Command(command.command)
    } else {
        audit::Server::Urls(command.url, command.header)
    };
    let spec = audit::Revision::from_wire(&command.spec).ok_or((2, format!("unknown revision {:?}", command.spec)))?;
    let options = audit::Options {
        server,
        spec,
        plan,
        probes: !command.no_probes,
        timeout: std::time::Duration::from_secs(command.timeout),
    };
    let report = audit::run(options).map_err(|e| (2, e))?;
    let output = if command.json {
        report.to_json().to_string()
    } else {
        report.to_table()
    };
    Ok(if report.percent() < command.min_score {
        Outcome::Scored(output, 1)
    } else {
        Outcome::Output(output)
    })
}

/// The deltas from the lockfile to the input's tools; status 1 when one is BREAKING.
fn contract_diff(command: ContractDiff) -> Result<Outcome, Failure> {
    use mcp_envelope::contract::{diff, read_tools};
    use mcp_envelope::delta::DeltaSeverity;
    let lock_name = command.lock.display().to_string();
    let lock = std::fs::read_to_string(&command.lock).map_err(|e| (2, format!("cannot read {lock_name}: {e}")))?;
    let before = read_tools(&lock, &lock_name).map_err(|e| (2, e.0))?;
    let after = read_tools(&read(&command.input)?, &source_name(&command.input)).map_err(|e| (2, e.0))?;
    let deltas = diff(&before, &after);
    let output = if command.format == "text" {
        contract::deltas_text(&deltas)
    } else {
        serde_json::to_string(&deltas).unwrap_or_default()
    };
    Ok(if deltas.iter().any(|d| d.severity == DeltaSeverity::Breaking) {
        Outcome::Scored(output, 1)
    } else {
        Outcome::Output(output)
    })
}

/// A `<tool_error>` (in any form) prints its spec; a `<validation_error>` its fields.
fn parse_any(input: &str) -> Result<String, Failure> {
    match read_envelope(input) {
        Ok(Reading::ToolError(error)) => Ok(spec::to_json(&error)),
        Ok(Reading::ValidationError(envelope)) => Ok(validation::envelope_to_json(&envelope)),
        Ok(Reading::PartialResult(partial)) => Ok(to_json_as_stated(&partial)),
        Ok(Reading::None) => Err((1, ParseError::NoEnvelope.to_string())),
        Err(malformed) => Err((2, malformed.to_string())),
    }
}

fn error_spec(input: &Input) -> Result<ToolError, Failure> {
    spec::from_json(&read(input)?).map_err(|e| bad(input, e))
}

/// One of the library's JSON-in, JSON-out entry points.
fn from_json(input: &Input, entry: fn(&str) -> Result<String, SpecError>) -> Result<String, Failure> {
    entry(&read(input)?).map_err(|e| bad(input, e))
}

/// Refused input, named by where it came from: `stdin: unknown key …`.
fn bad(input: &Input, e: SpecError) -> Failure {
    (2, format!("{}: {e}", source_name(input)))
}

/// `stdin`, or the file's path (quoted when printing it as it is would not
/// keep the message on one line).
fn source_name(input: &Input) -> String {
    match input.file.as_deref().filter(|path| path.as_os_str() != "-") {
        None => "stdin".to_owned(),
        Some(path) => {
            let shown = path.display().to_string();
            if shown.chars().any(char::is_control) {
                format!("{shown:?}")
            } else {
                shown
            }
        }
    }
}

/// The input's text.
fn read(input: &Input) -> Result<String, Failure> {
    let name = source_name(input);
    let mut bytes = Vec::new();
    let result = match input.file.as_deref().filter(|path| path.as_os_str() != "-") {
        None => std::io::stdin().read_to_end(&mut bytes).map(drop),
        Some(path) => std::fs::read(path).map(|read| bytes = read),
    };
    result.map_err(|e| (2, format!("cannot read {name}: {e}")))?;
    String::from_utf8(bytes).map_err(|e| {
        (
            2,
            format!(
                "{name} is not UTF-8: invalid byte at offset {}",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}
