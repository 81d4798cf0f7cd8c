//! The command's work: parse the arguments, read the input, call the library
//! and say what happened in one line when it fails.

use crate::args::{Audit, Call, Cli, Command, ContractCommand, ContractDiff, Envelope, Input, Partial, Validate};
use crate::{audit, contract};
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::{CommandFactory, Parser};
use mcp_envelope::partial::to_json_as_stated;
use mcp_envelope::raw;
use mcp_envelope::validation::{self, ValidationOptions};
use mcp_envelope::{call_tool_result, read_envelope, render, spec, ParseError, Reading, SpecError, ToolError};
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
            ContractCommand::Lock(input) => from_json(&input, raw::contract_lock)?,
            ContractCommand::Diff(command) => return contract_diff(command),
        },
        Command::Parse(input) => parse_any(&read(&input)?)?,
        Command::Exception(input) => from_json(&input, raw::exception_result)?,
        Command::Upstream(input) => from_json(&input, raw::upstream_error)?,
        Command::Access(input) => from_json(&input, raw::access_error)?,
        Command::Empty(input) => from_json(&input, raw::empty_result)?,
        Command::Call(Call { export, input }) => {
            let request = read(&input)?;
            // The parser took only names `raw::call` knows.
            match raw::call(&export, &request) {
                Some(answer) => answer.map_err(|e| bad(&input, e))?,
                None => return Err((2, format!("no export {export:?} takes one request"))),
            }
        }
        Command::Partial(Partial { envelope, input }) => from_json(
            &input,
            if envelope {
                raw::render_partial
            } else {
                raw::partial_result
            },
        )?,
    };
    Ok(Outcome::Output(output))
}

/// A clap usage error as one line, built from the error's kind and context
/// (what was wrong, then each suggestion in parentheses) and where to look.
fn usage(e: &clap::Error, args: &[OsString]) -> Failure {
    let mut message = what_was_wrong(e);
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
    for tip in tips(e) {
        message.push_str(&format!(" ({tip})"));
    }
    let help = ["mcp-envelope"]
        .into_iter()
        .chain(named)
        .chain(["--help"])
        .collect::<Vec<_>>()
        .join(" ");
    // One line whatever the values hold: a value given with a line break is shown with a space.
    let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
    (2, format!("{message}; see '{help}'"))
}

/// What was wrong, in clap's words for the error's kind, with the argument
/// and value it names; the kind's generic words when the context is missing.
fn what_was_wrong(e: &clap::Error) -> String {
    let text = |kind| match e.get(kind) {
        Some(ContextValue::String(text)) => Some(text.as_str()),
        _ => None,
    };
    let number = |kind| match e.get(kind) {
        Some(ContextValue::Number(n)) => Some(*n),
        _ => None,
    };
    let (arg, value) = (text(ContextKind::InvalidArg), text(ContextKind::InvalidValue));
    let were = |n: isize| if n > 1 { "were" } else { "was" };
    let said = match e.kind() {
        ErrorKind::InvalidValue => match (arg, value) {
            (Some(arg), Some("")) => Some(format!("a value is required for '{arg}' but none was supplied")),
            (Some(arg), Some(value)) => Some(format!("invalid value '{value}' for '{arg}'")),
            _ => None,
        }
        .map(|said| match e.get(ContextKind::ValidValue) {
            Some(ContextValue::Strings(valid)) if !valid.is_empty() => {
                let valid: Vec<String> = valid.iter().map(|v| escaped(v)).collect();
                format!("{said} [possible values: {}]", valid.join(", "))
            }
            _ => said,
        }),
        ErrorKind::ValueValidation => match (arg, value) {
            (Some(arg), Some(value)) => Some(match std::error::Error::source(e) {
                Some(why) => format!("invalid value '{value}' for '{arg}': {why}"),
                None => format!("invalid value '{value}' for '{arg}'"),
            }),
            _ => None,
        },
        ErrorKind::UnknownArgument => arg.map(|arg| format!("unexpected argument '{arg}' found")),
        ErrorKind::InvalidSubcommand => {
            text(ContextKind::InvalidSubcommand).map(|sub| format!("unrecognized subcommand '{sub}'"))
        }
        ErrorKind::MissingRequiredArgument => match e.get(ContextKind::InvalidArg) {
            Some(ContextValue::Strings(missing)) => Some(format!(
                "the following required arguments were not provided: {}",
                missing.join(" ")
            )),
            _ => None,
        },
        ErrorKind::ArgumentConflict => arg.map(|arg| match e.get(ContextKind::PriorArg) {
            Some(ContextValue::String(prior)) if prior == arg => {
                format!("the argument '{arg}' cannot be used multiple times")
            }
            Some(ContextValue::String(prior)) => format!("the argument '{arg}' cannot be used with '{prior}'"),
            Some(ContextValue::Strings(prior)) => {
                format!("the argument '{arg}' cannot be used with: {}", prior.join(" "))
            }
            _ => format!("the argument '{arg}' cannot be used with one or more of the other specified arguments"),
        }),
        ErrorKind::NoEquals => arg.map(|arg| format!("equal sign is needed when assigning values to '{arg}'")),
        ErrorKind::TooManyValues => match (arg, value) {
            (Some(arg), Some(value)) => Some(format!(
                "unexpected value '{value}' for '{arg}' found; no more were expected"
            )),
            _ => None,
        },
        ErrorKind::TooFewValues => match (
            arg,
            number(ContextKind::ActualNumValues),
            number(ContextKind::MinValues),
        ) {
            (Some(arg), Some(given), Some(min)) => Some(format!(
                "{min} values required by '{arg}'; only {given} {} provided",
                were(given)
            )),
            _ => None,
        },
        ErrorKind::WrongNumberOfValues => match (
            arg,
            number(ContextKind::ActualNumValues),
            number(ContextKind::ExpectedNumValues),
        ) {
            (Some(arg), Some(given), Some(wanted)) => Some(format!(
                "{wanted} values required for '{arg}' but {given} {} provided",
                were(given)
            )),
            _ => None,
        },
        _ => None,
    };
    said.or_else(|| e.kind().as_str().map(str::to_owned))
        .or_else(|| std::error::Error::source(e).map(ToString::to_string))
        .unwrap_or_else(|| "bad usage".to_owned())
}

/// clap's suggestions: a similar subcommand, argument or value, and its tips
/// (how to pass a value that looks like a flag).
fn tips(e: &clap::Error) -> Vec<String> {
    let similar = [
        (ContextKind::SuggestedSubcommand, "subcommand"),
        (ContextKind::SuggestedArg, "argument"),
        (ContextKind::SuggestedValue, "value"),
    ];
    let mut tips: Vec<String> = similar
        .into_iter()
        .filter_map(|(kind, what)| match e.get(kind)? {
            ContextValue::String(one) => Some(format!("a similar {what} exists: '{one}'")),
            ContextValue::Strings(some) if some.len() == 1 => Some(format!("a similar {what} exists: '{}'", some[0])),
            ContextValue::Strings(some) if !some.is_empty() => {
                let quoted: Vec<String> = some.iter().map(|s| format!("'{s}'")).collect();
                Some(format!("some similar {what}s exist: {}", quoted.join(", ")))
            }
            _ => None,
        })
        .collect();
    if let Some(ContextValue::StyledStrs(suggested)) = e.get(ContextKind::Suggested) {
        tips.extend(suggested.iter().map(ToString::to_string));
    }
    tips
}

/// A possible value as clap lists it: quoted when empty or holding a space.
fn escaped(value: &str) -> String {
    if value.is_empty() || value.contains(char::is_whitespace) {
        format!("{value:?}")
    } else {
        value.to_owned()
    }
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
        _ => return raw::render_validation(&text).map_err(|e| bad(&input, e)),
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
        conversation: command.conversation,
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
    let before = read_tools(&lock, &lock_name).map_err(|e| (2, e.into()))?;
    let after = read_tools(&read(&command.input)?, &source_name(&command.input)).map_err(|e| (2, e.into()))?;
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
        // `Reading::None`, or a kind this command does not know yet.
        Ok(_) => Err((1, ParseError::NoEnvelope.to_string())),
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
