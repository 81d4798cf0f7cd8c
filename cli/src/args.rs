//! What the command accepts, declared for clap: the doc comments here are
//! the `--help` text.

use clap::builder::{NonEmptyStringValueParser, PossibleValuesParser, TypedValueParser};
use clap::{Args, Parser, Subcommand};
use mcp_envelope::validation::ValidationOptions;
use mcp_envelope::Format;
use std::path::PathBuf;

const EXIT_STATUS: &str = "\
Each command reads one input, from FILE or, when FILE is absent or `-`, from
standard input, and prints its output and one newline on standard output.

Exit status: 0 done; 1 `parse` found no envelope; 2 bad input or usage. An
error is one line on standard error, starting `mcp-envelope: `, and nothing
on standard output.";

/// Recoverable error envelopes for MCP tools: renders, wraps and reads back
/// <tool_error>, <validation_error> and <partial_result> envelopes.
#[derive(Debug, Parser)]
#[command(name = "mcp-envelope", version, after_help = EXIT_STATUS, arg_required_else_help = false)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Renders an error spec (JSON) as its envelope.
    ///
    /// The spec is one JSON object with the `toolError` option names:
    /// `code` and `message` required; `suggestion`, `availableActions`,
    /// `details`, `retryAfter`, `severity`, `category`, `retryable`,
    /// `customerMessage`, `correlationId`, `deltas`, `locale`, `limits` and
    /// more (docs/cli.md). Prints the envelope and one newline.
    Render(Envelope),
    /// Renders an error spec (JSON) as an MCP CallToolResult (JSON).
    ///
    /// Reads the spec `render` reads and prints the CallToolResult carrying
    /// its envelope as the one text block, with `isError`.
    Result(Envelope),
    /// Renders validation issues (JSON) as a <validation_error>.
    ///
    /// Reads `{"issues": [..], "deltas": [..]}` or a bare array of issues
    /// (docs/validation.md), or with `--spec` a whole validation spec (its
    /// `inputSchema` too), and prints the envelope and one newline.
    Validate(Validate),
    /// Reads an envelope in any form back to its spec (JSON).
    ///
    /// Reads the earliest envelope (XML, JSON or text form, bare, in a
    /// transcript or inside a CallToolResult): a <tool_error> prints as its
    /// spec, a <validation_error> as `{"action", "fields", "deltas"}`, a
    /// <partial_result> as the spec it states. Exit status 1 when the input
    /// holds no envelope.
    Parse(Input),
    /// Reports an exception in a tool as INTERNAL_ERROR with a correlation id.
    ///
    /// Input: `{"tool", "exception", "correlationId"?, "random"?, "format"?,
    /// "locale"?}`; output: `{"result": CallToolResult, "correlationId",
    /// "log"}`, the exception text in the log line only
    /// (docs/recovery-helpers.md).
    Exception(Input),
    /// Maps an upstream HTTP failure onto an error spec.
    ///
    /// Input: `{"status", "headers"?, "body"?, "now"?, "service"?,
    /// "excerptChars"?, "correlationId"?, "locale"?}`; output: `{"error":
    /// spec, "log": {"status", "body", "retryAfterIgnored"?}}`, the body kept
    /// out of the spec (docs/recovery-helpers.md).
    Upstream(Input),
    /// Words a permission (FORBIDDEN) or sign-in (AUTH_REQUIRED) failure.
    ///
    /// Input: `{"kind": "forbidden"|"auth-required", "action"?, "resource"?,
    /// "correlationId"?, "locale"?}`; output: the error spec
    /// (docs/recovery-helpers.md).
    Access(Input),
    /// Reports a query that matched nothing, as a successful CallToolResult.
    ///
    /// Input: `{"what", "query"?, "suggestion"?, "structuredContent"?,
    /// "locale"?, "localizeSteering"?}`; output: the CallToolResult
    /// (docs/recovery-helpers.md).
    Empty(Input),
    /// Renders a partial-result spec (JSON) as a CallToolResult (JSON).
    ///
    /// Input: `{"obtained": [..], "failed": [{"item", "code", ..}], "task"?,
    /// "tried"?, "recovery"?, "format"?, ..}` (docs/partial-results.md);
    /// output: the CallToolResult carrying the <partial_result> envelope, or
    /// with --envelope the envelope alone, in the spec's `format`.
    Partial(Partial),
    /// Grades the error paths of any MCP server (COMMAND over stdio, or --url).
    ///
    /// A real MCP client starts the server (or reaches it over Streamable
    /// HTTP), lists its tools and calls: an unknown tool; for each tool,
    /// arguments made invalid from its inputSchema (a required field missing,
    /// a wrong type, an enum miss, a bound crossed); and the calls of a fault
    /// plan (`--plan`). Each answer
    /// is graded: its channel, isError, whether it reads as an envelope, leaks
    /// (stack traces, secret-looking text), size, and the branch a rule-based
    /// client takes on it (`decide`) against the right one, and whether it
    /// follows the MCP revision `--spec` names (docs/audit.md). Exit status 1
    /// when the score is below `--min-score`.
    Audit(Audit),
    /// Locks a server's tool list, and tells what changed against the lock.
    ///
    /// `contract lock` writes the lockfile of a tools/list result; `contract
    /// diff --lock LOCKFILE` prints the changes from it to today's list, each
    /// BREAKING, RISKY, SAFE or COSMETIC, and exits 1 when one is BREAKING
    /// (docs/contract-diff.md).
    Contract(Contract),
    /// Calls any export of the library's API that takes one JSON request.
    ///
    /// EXPORT is its name in the WIT interface (`decide`, `ledger-failure`,
    /// `answer-for-revision`, ...); the input is its request and the output
    /// its answer, exactly as every package's JSON function gives them
    /// (docs/component-api.md lists each).
    Call(Call),
}

#[derive(Debug, Args)]
pub struct Call {
    /// The export's WIT name.
    #[arg(value_name = "EXPORT", value_parser = PossibleValuesParser::new(mcp_envelope::raw::request_exports()))]
    pub export: String,
    #[command(flatten)]
    pub input: Input,
}

#[derive(Debug, Args)]
pub struct Contract {
    #[command(subcommand)]
    pub command: ContractCommand,
}

#[derive(Debug, Subcommand)]
pub enum ContractCommand {
    /// Writes the lockfile of a tools/list result (JSON).
    ///
    /// Reads a tools/list result, a JSON-RPC response carrying one, or its
    /// `tools` array, and prints the lockfile: `{"lockfileVersion",
    /// "sha256", "tools"}`, the tools sorted by name, every key sorted, one
    /// spelling for numbers, two-space indents. Commit it beside the server.
    Lock(Input),
    /// Prints what changed from a lockfile to today's tool list.
    ///
    /// Reads today's tools/list result (or its tools array, or another
    /// lockfile) and prints the contract deltas as a JSON array, or with
    /// `--format text` one line each. Exit status 1 when any is BREAKING, 0
    /// otherwise, 2 for bad input: a release gate for CI.
    Diff(ContractDiff),
}

#[derive(Debug, Args)]
pub struct ContractDiff {
    /// The lockfile `contract lock` wrote (or any tools/list result).
    #[arg(long, value_name = "LOCKFILE")]
    pub lock: PathBuf,
    /// `json` (an array of deltas) or `text` (one line each, for people).
    #[arg(long, value_name = "FORMAT", default_value = "json", value_parser = ["json", "text"])]
    pub format: String,
    #[command(flatten)]
    pub input: Input,
}

/// Where the input comes from.
#[derive(Debug, Args)]
pub struct Input {
    /// The input file; absent or `-` reads standard input.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct Envelope {
    /// The envelope's form.
    #[arg(long, value_name = "FORMAT", default_value = "xml", value_parser = format_parser())]
    pub format: Format,
    #[command(flatten)]
    pub input: Input,
}

#[derive(Debug, Args)]
pub struct Validate {
    /// The tool (action) the arguments were for, named in the envelope.
    #[arg(long, value_name = "NAME", value_parser = NonEmptyStringValueParser::new(), required_unless_present = "spec")]
    pub action: Option<String>,
    /// Read a whole validation spec instead: `{"action", "issues" or
    /// "jsonSchemaErrors", "arguments"?, "inputSchema"?, "deltas"?,
    /// "maxFields"?, ...}` (docs/validation.md).
    #[arg(long, conflicts_with_all = ["action", "max_fields"])]
    pub spec: bool,
    /// Fields listed before a <more_fields> line counts the rest.
    #[arg(long, value_name = "N", default_value_t = ValidationOptions::DEFAULT_MAX_FIELDS, allow_negative_numbers = true)]
    pub max_fields: usize,
    #[command(flatten)]
    pub input: Input,
}

#[derive(Debug, Args)]
#[command(group = clap::ArgGroup::new("server").required(true).args(["url", "command"]))]
pub struct Audit {
    /// A remote server's MCP endpoint, spoken to over Streamable HTTP
    /// (`https://example.com/mcp`), instead of a COMMAND. Given more than
    /// once, the replicas of one server: one client each, and the calls sent
    /// round-robin over them (call i to the i-th URL modulo their number,
    /// as a load balancer would), the report naming the replica that
    /// answered each call.
    #[arg(long, value_name = "URL", value_parser = NonEmptyStringValueParser::new())]
    pub url: Vec<String>,
    /// An HTTP header sent with every request to `--url`, such as
    /// `Authorization: Bearer TOKEN` (repeatable). Never printed.
    #[arg(long, value_name = "NAME: VALUE", conflicts_with = "command")]
    pub header: Vec<String>,
    /// Every call names this conversation in its `_meta` (the key
    /// `mcp-envelope/conversation`), from which the integrations' ledger
    /// functions pick its repeat ledger: the calls are one conversation
    /// whichever replica answers them.
    #[arg(long, value_name = "ID", value_parser = NonEmptyStringValueParser::new())]
    pub conversation: Option<String>,
    /// The MCP revision each answer is graded by, and asked for at the
    /// handshake: 2025-11-25 (`initialize`) or 2026-07-28 (`server/discover`,
    /// falling back to `initialize`) (docs/audit.md).
    #[arg(long, value_name = "REVISION", default_value = "2025-11-25", value_parser = ["2025-11-25", "2026-07-28"])]
    pub spec: String,
    /// A fault plan: `{"calls": [{"name", "tool", "arguments", "expect":
    /// {"branch", "code"?}}], "secrets": [..]}` (docs/audit.md).
    #[arg(long, value_name = "FILE")]
    pub plan: Option<PathBuf>,
    /// Only the plan's calls: no unknown-tool or input-schema probes.
    #[arg(long)]
    pub no_probes: bool,
    /// Print the report as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Exit with status 1 when the score (a percent) is below N.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=100))]
    pub min_score: u32,
    /// Seconds to wait for the server to start, and for each call.
    #[arg(long, value_name = "SECS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    pub timeout: u64,
    /// The server's command and its arguments, after `--` (a local server, over stdio).
    #[arg(last = true, value_name = "COMMAND")]
    pub command: Vec<String>,
}

#[derive(Debug, Args)]
pub struct Partial {
    /// Print the envelope alone instead of the CallToolResult.
    #[arg(long)]
    pub envelope: bool,
    #[command(flatten)]
    pub input: Input,
}

/// `xml`, `json` or `text`: the library's own spellings.
fn format_parser() -> impl TypedValueParser<Value = Format> {
    PossibleValuesParser::new(Format::ALL.iter().map(|format| format.as_str()))
        .map(|wire| Format::from_wire(&wire).expect("clap admits only the possible values"))
}
