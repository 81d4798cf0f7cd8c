//! The `mcp-envelope` command: renders, wraps and parses envelopes, and runs
//! the recovery helpers, reading a FILE or standard input.
//!
//! Exit statuses: 0 done, 1 the input holds no envelope (`parse`), 2 bad
//! input or usage. A failure is one line on stderr, `mcp-envelope: ` first,
//! and nothing on stdout; a clap usage error is clap's message flattened to
//! that one line, with a pointer to `--help`.

mod args;
mod audit;
mod contract;
mod run;

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    match run::run(std::env::args_os().collect()) {
        Ok(run::Outcome::Output(output)) => {
            let mut stdout = std::io::stdout().lock();
            // A closed stdout (`| head`) is not worth a panic.
            let _ = writeln!(stdout, "{output}").and_then(|_| stdout.flush());
            ExitCode::SUCCESS
        }
        Ok(run::Outcome::Scored(output, status)) => {
            let mut stdout = std::io::stdout().lock();
            let _ = writeln!(stdout, "{output}").and_then(|_| stdout.flush());
            ExitCode::from(status)
        }
        Ok(run::Outcome::Shown(help)) => {
            // `--help` or `--version`, on stdout.
            let _ = help.print();
            ExitCode::SUCCESS
        }
        Err((status, message)) => {
            eprintln!("mcp-envelope: {message}");
            ExitCode::from(status)
        }
    }
}
