//! What a tool handler's outcome becomes: the one place every integration
//! (the TypeScript and Python packages, the rmcp server) learns which result
//! to send for what a handler produced, and which step of the repeat ledger
//! it goes through. An integration only classifies its native values into a
//! [`HandlerOutcome`]; the answer to each kind is decided here.
//!
//! A result a handler returns is sent as it is and needs no answer from here:
//! the integration passes it to the ledger's `observe` (which ends a streak
//! on a success). Everything else comes here:
//!
//! | outcome | result sent | ledger step |
//! |---|---|---|
//! | our error (`ToolError`, a builder) | its envelope, `isError` as its severity says | `failure`, with the error |
//! | arguments failing the tool's own check | the `<validation_error>` | `observe` |
//! | a framework's error for the model | a TOOL_ERROR envelope stating its text, scrubbed | `observe` |
//! | a thrown value its author wrote for the model (a plain `Error`) | the same, or INTERNAL_ERROR when the server hides them | `observe` |
//! | a thrown value whose structure tells its kind (a system error's code, an HTTP status, a timeout) | that kind's code, worded here, under a correlation id; the text to the log | `observe` |
//! | a JSON-RPC error the handler raised (the SDKs' `McpError`) | VALIDATION_ERROR for invalid params, UNKNOWN_ACTION for method not found, INTERNAL_ERROR for an internal error, else as a plain `Error` | `observe` |
//! | an envelope read back and raised again | its text, as it came | `observe` |
//! | an error result raised as it is | that result | `observe` |
//! | anything else raised | INTERNAL_ERROR under a correlation id; the text to the log only | `observe` |
//!
//! An error or validation spec the core refuses, and a raised value that is
//! not an error result, are failures of the tool's own code: INTERNAL_ERROR,
//! the refusal or the value in the log line.

use crate::error::SpecError;
use crate::json::push_json_string;
use crate::locale::Locale;
use crate::recovery::{exception_result, known_error, user_error_result, KnownKind};
use crate::tool_error::model::ToolError;
use crate::tool_error::render::{call_tool_result, text_result, Format};
use crate::validation::{validation_from_json, validation_result, ValidationSpec};

/// The name of the argument a write's idempotency key comes in when the
/// server names no other, in every language (docs/idempotency-and-backoff.md).
pub const IDEMPOTENCY_KEY_ARGUMENT: &str = "idempotency_key";

/// What a tool handler produced, classified by the integration that ran it.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub enum HandlerOutcome<'a> {
    /// Our error, returned or raised.
    Error(&'a ToolError),
    /// Arguments that failed the tool's own check, as issues in the neutral form.
    Validation(&'a ValidationSpec),
    /// A framework's own error for the model (FastMCP's `ToolError` and
    /// `UserError`, the `mcp` SDK's `ToolError`): its text.
    UserError(&'a str),
    /// An envelope read from another tool's result and raised again: its text.
    Envelope(&'a str),
    /// A `CallToolResult` JSON raised as it is.
    Result(&'a str),
    /// A thrown value whose structure says its author wrote its text for the
    /// model (in TypeScript an instance of exactly `Error`, in Python of
    /// exactly `Exception`), and whether the server shows such texts.
    Message {
        /// The thrown value's message.
        text: &'a str,
        /// The server's rule for such texts.
        shown: ThrownMessages,
    },
    /// A thrown value whose structure tells its kind, with the call's
    /// arguments (name, text) so the message can name the one it concerns.
    Known {
        /// What the structure says.
        kind: KnownKind<'a>,
        /// Its text as the host writes it, for the log line only.
        exception: &'a str,
        /// The call's arguments as text (`arguments_as_text`).
        arguments: &'a [(String, String)],
    },
    /// A JSON-RPC error the handler raised for the client (the SDKs'
    /// `McpError`): its code and message. Inside a tool call it is the tool's
    /// failure, so it reaches the model as a result the model can act on.
    RpcError {
        /// The JSON-RPC error code.
        code: i64,
        /// Its message (the TypeScript SDK's `MCP error <code>: ` prefix is dropped).
        message: &'a str,
        /// The server's rule for thrown texts.
        shown: ThrownMessages,
    },
    /// Anything else raised: its text as the host writes it (type, message,
    /// stack), for the log line only.
    Exception(&'a str),
}

/// JSON-RPC's "Invalid params", "Method not found" and "Internal error".
const INVALID_PARAMS: i64 = -32602;
const METHOD_NOT_FOUND: i64 = -32601;
const INTERNAL: i64 = -32603;

/// Whether a thrown value's own words (a [`HandlerOutcome::Message`]) reach
/// the model: `shown` (the default: scrubbed, as TOOL_ERROR) or `hidden`
/// (each such throw an INTERNAL_ERROR, its text in the log only).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ThrownMessages {
    /// Sent as a TOOL_ERROR envelope stating the scrubbed text.
    #[default]
    Shown,
    /// Sent as INTERNAL_ERROR; the text goes to the log only.
    Hidden,
}

string_enum!(ThrownMessages { Shown = "shown", Hidden = "hidden" });

/// The ledger step a handler's result goes through, when the server keeps a
/// repeat ledger.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LedgerStep {
    /// `failure` with the error itself, so a repeat keeps its locale, caps and form.
    Failure,
    /// `observe` with the result sent.
    Observe,
}

/// What to send for a handler's outcome.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct HandlerAnswer {
    /// The `CallToolResult` JSON to send.
    pub result: String,
    /// The ledger step it goes through.
    pub ledger: LedgerStep,
    /// For an INTERNAL_ERROR: the log line holding the correlation id given
    /// and what was raised.
    pub log: Option<String>,
}

/// The answer to `outcome` of a call of `tool`. `correlation_id` is the id an
/// INTERNAL_ERROR quotes (a fresh one: [`crate::recovery::fresh_correlation_id`]).
///
/// ```
/// use mcp_envelope::handler::{handler_answer, HandlerOutcome, LedgerStep};
/// use mcp_envelope::{Format, Locale};
/// let answer = handler_answer("charge", HandlerOutcome::Exception("KeyError: 'password'"), Format::Text, Locale::En, "err_0123456789ab");
/// assert_eq!(answer.ledger, LedgerStep::Observe);
/// assert!(answer.result.contains("err_0123456789ab") && !answer.result.contains("password"));
/// assert_eq!(answer.log.unwrap(), r#"code=INTERNAL_ERROR correlationId="err_0123456789ab" tool="charge" exception="KeyError: 'password'""#);
/// ```
pub fn handler_answer(
    tool: &str,
    outcome: HandlerOutcome<'_>,
    format: Format,
    locale: Locale,
    correlation_id: &str,
) -> HandlerAnswer {
    let sent = |result: String, ledger| HandlerAnswer {
        result,
        ledger,
        log: None,
    };
    match outcome {
        HandlerOutcome::Error(error) => sent(call_tool_result(error, format), LedgerStep::Failure),
        HandlerOutcome::Validation(spec) => sent(validation_result(spec), LedgerStep::Observe),
        HandlerOutcome::UserError(message)
        | HandlerOutcome::Message {
            text: message,
            shown: ThrownMessages::Shown,
        } => sent(user_error_result(message, format), LedgerStep::Observe),
        HandlerOutcome::Message { text, .. } => internal_error(tool, text, format, locale, correlation_id),
        HandlerOutcome::RpcError { code, message, shown } => {
            let words = message
                .strip_prefix("MCP error ")
                .and_then(|rest| rest.split_once(": "))
                .filter(|(named, words)| named.parse() == Ok(code) && !words.is_empty())
                .map_or(message, |(_, words)| words);
            let named = match code {
                INVALID_PARAMS => Some(crate::code::VALIDATION_ERROR),
                METHOD_NOT_FOUND => Some(crate::code::UNKNOWN_ACTION),
                _ => None,
            };
            match (shown, named) {
                // "Internal error" is the server's own crash, as an exception is.
                (ThrownMessages::Hidden, _) | (_, None) if code == INTERNAL => {
                    internal_error(tool, message, format, locale, correlation_id)
                }
                (ThrownMessages::Hidden, _) => internal_error(tool, message, format, locale, correlation_id),
                (ThrownMessages::Shown, Some(named)) => {
                    let error = ToolError::new(named, crate::scrub::scrub(words));
                    sent(call_tool_result(&error, format), LedgerStep::Observe)
                }
                (ThrownMessages::Shown, None) => sent(user_error_result(words, format), LedgerStep::Observe),
            }
        }
        HandlerOutcome::Known {
            kind,
            exception,
            arguments,
        } => match known_error(&kind, arguments, locale) {
            Some(error) => {
                let error = error.correlation_id(correlation_id);
                HandlerAnswer {
                    result: call_tool_result(&error, format),
                    ledger: LedgerStep::Observe,
                    log: Some(crate::recovery::log_line(&error.code, tool, exception, correlation_id)),
                }
            }
            None => internal_error(tool, exception, format, locale, correlation_id),
        },
        HandlerOutcome::Envelope(text) => sent(text_result(text, true), LedgerStep::Observe),
        HandlerOutcome::Result(result) if is_error_result(result) => {
            sent(result.trim().to_owned(), LedgerStep::Observe)
        }
        HandlerOutcome::Result(raised) => {
            let text = String::from("a raised result that is not an error result: ") + raised.trim();
            internal_error(tool, &text, format, locale, correlation_id)
        }
        HandlerOutcome::Exception(text) => internal_error(tool, text, format, locale, correlation_id),
    }
}

fn internal_error(tool: &str, raised: &str, format: Format, locale: Locale, correlation_id: &str) -> HandlerAnswer {
    let report = exception_result(tool, raised, correlation_id, format, locale);
    HandlerAnswer {
        result: report.result,
        ledger: LedgerStep::Observe,
        log: Some(report.log),
    }
}

/// Whether `raw` is a `CallToolResult` with `content` and `isError: true`.
fn is_error_result(raw: &str) -> bool {
    crate::read::read_tool_result(raw, false).is_ok_and(|read| read.is_error)
}

/// The whole request, as a refusal names it.
const WHAT: &str = "the handler-result request";

/// A format's or locale's wire spelling read back, or refused naming it.
fn wire<T>(text: &str, what: &dyn std::fmt::Display, from_wire: fn(&str) -> Option<T>) -> Result<T, SpecError> {
    from_wire(text).ok_or_else(|| SpecError::invalid(format!("{what}: unknown value {text:?}")))
}

/// The refusal of an outcome that is not one member of a known kind.
const ONE_KIND: &str = "\"outcome\" must have one member, naming its kind: \
     error, validation, userError, message, known, rpcError, envelope, result or exception";

/// The call's arguments as (name, text) pairs: each string in them, named by
/// its path (`path`, `edits[0].path`, `options.url`), so a known failure's
/// message can name the argument its path or URL came from.
pub fn arguments_as_text(arguments: &crate::json::Value) -> Vec<(String, String)> {
    use crate::json::Value;
    let mut pairs = Vec::new();
    let mut stack = vec![(String::new(), arguments)];
    while let Some((name, value)) = stack.pop() {
        match value {
            Value::String(text) if !name.is_empty() => pairs.push((name, text.clone())),
            Value::Object(members) => {
                let dot = if name.is_empty() { "" } else { "." };
                let named: Vec<_> = members
                    .iter()
                    .map(|(key, v)| (format!("{name}{dot}{key}"), v))
                    .collect();
                // Reversed onto the stack, so the arguments are met in their order.
                stack.extend(named.into_iter().rev());
            }
            Value::Array(items) => {
                stack.extend(items.iter().enumerate().rev().map(|(i, v)| (format!("{name}[{i}]"), v)))
            }
            _ => {}
        }
    }
    pairs
}

/// A `known` outcome's members, as written: its texts in the order of
/// [`KNOWN_TEXTS`], its flags in the order of [`KNOWN_FLAGS`] (arrays, so
/// one reader serves every member: fewer bytes of component).
#[derive(Default)]
struct KnownInput {
    texts: [Option<String>; 6],
    flags: [bool; 2],
    status: Option<u16>,
}

const KNOWN_TEXTS: [&str; 6] = ["errno", "path", "dest", "retryAfter", "url", "exception"];
const KNOWN_FLAGS: [&str; 2] = ["timeout", "unreachable"];

/// The refusal of a `known` outcome that does not say one kind.
const ONE_KNOWN_KIND: &str =
    "outcome.known must say one kind: \"errno\", \"status\", \"timeout\": true or \"unreachable\": true";

impl KnownInput {
    fn read(raw: &str) -> Result<KnownInput, SpecError> {
        let what = crate::json::Member(&"outcome", "known");
        let mut known = KnownInput::default();
        for (key, value) in crate::json::object(raw, &what)? {
            let member = crate::json::Member(&what, &key);
            if let Some(i) = KNOWN_TEXTS.iter().position(|k| *k == key) {
                known.texts[i] = crate::json::optional_string(&value, &member)?;
            } else if let Some(i) = KNOWN_FLAGS.iter().position(|k| *k == key) {
                known.flags[i] = match value.trim() {
                    "true" => true,
                    "false" | "null" => false,
                    _ => return crate::json::fail(format!("{member} must be true or false")),
                };
            } else if key == "status" {
                known.status = match value.trim() {
                    "null" => None,
                    number => match number.parse::<u16>() {
                        Ok(status) => Some(status),
                        Err(_) => return crate::json::fail(format!("{member} must be an HTTP status, such as 503")),
                    },
                };
            } else {
                return crate::json::fail(format!("{what}: unknown field `{key}`"));
            }
        }
        let said = [
            known.texts[0].is_some(),
            known.status.is_some(),
            known.flags[0],
            known.flags[1],
        ];
        if said.iter().filter(|&&kind| kind).count() != 1 {
            return crate::json::fail(ONE_KNOWN_KIND);
        }
        Ok(known)
    }

    fn kind(&self) -> KnownKind<'_> {
        let [errno, path, dest, retry_after, url, _] = self.texts.each_ref().map(Option::as_deref);
        match (errno, self.status) {
            (Some(errno), _) => KnownKind::System { errno, path, dest },
            (None, Some(status)) => KnownKind::Status {
                status,
                retry_after,
                url,
            },
            _ if self.flags[0] => KnownKind::Timeout { url },
            _ => KnownKind::Unreachable { url },
        }
    }

    /// The exception's text, for the log line.
    fn exception(&self) -> &str {
        self.texts[5].as_deref().unwrap_or_default()
    }
}

/// An `rpcError` outcome, `{"code": <integer>, "message": <text>, "data"?: <any>}`:
/// its code and message. `data` is the client's, never the model's, so it is not read.
struct RpcInput(i64, String);

impl RpcInput {
    fn read(raw: &str) -> Result<RpcInput, SpecError> {
        const WHAT: &str = "\"outcome\".\"rpcError\"";
        let (mut code, mut message) = (None, None);
        for (key, value) in crate::json::object(raw, &WHAT)? {
            match key.as_ref() {
                "code" => match value.trim().parse::<i64>() {
                    Ok(n) => code = Some(n),
                    Err(_) => {
                        return crate::json::fail("\"outcome\".\"rpcError\".code must be an integer, such as -32602")
                    }
                },
                "message" => message = Some(crate::json::string(&value, &crate::json::Member(&WHAT, "message"))?),
                "data" => {}
                _ => return crate::json::fail("\"outcome\".\"rpcError\" takes code, message and data"),
            }
        }
        match (code, message) {
            (Some(code), Some(message)) => Ok(RpcInput(code, message)),
            _ => crate::json::missing("\"outcome\".\"rpcError\" needs \"code\" and \"message\""),
        }
    }
}

/// The JSON entry point behind `mcp_envelope::raw::handler_result`.
#[inline]
pub fn handler_result_json(request: &str) -> Result<String, SpecError> {
    // Read member by member rather than into a derived struct: the same
    // refusals in fewer bytes of component.
    let (mut tool, mut outcome, mut format, mut locale, mut correlation_id, mut random) =
        (None, None, Format::Xml, Locale::En, None, None);
    let (mut arguments, mut shown) = (Vec::new(), ThrownMessages::Shown);
    for (key, value) in crate::json::object(request, &WHAT)? {
        let what = crate::json::Quoted(&key);
        let text = || crate::json::string(&value, &what);
        match key.as_ref() {
            "tool" => tool = Some(text()?),
            "outcome" => outcome = Some(value),
            "format" => format = wire(&text()?, &what, Format::from_wire)?,
            "locale" => locale = wire(&text()?, &what, Locale::from_wire)?,
            "correlationId" => correlation_id = crate::json::optional_string(&value, &what)?,
            "random" => random = crate::json::optional_string(&value, &what)?,
            "arguments" => arguments = arguments_as_text(&crate::json::value(&value, &what)?),
            "thrownMessages" => shown = wire(&text()?, &what, ThrownMessages::from_wire)?,
            _ => return crate::json::fail(String::from("the handler-result request: unknown field `") + &key + "`"),
        }
    }
    let (Some(tool), Some(outcome)) = (tool, outcome) else {
        return crate::json::missing("the handler-result request: \"tool\" and \"outcome\" are required");
    };
    // A spec the core refuses is the tool's own failure: its refusal goes to the log.
    let refused = |why: SpecError| String::from("mcp-envelope refused what the handler gave: ") + why.message();
    // Set in the branch that uses each, so the outcome can borrow it.
    let (error, validation, raised, known, rpc);
    let members = crate::json::object(&outcome, &"\"outcome\"")?;
    let [(kind, value)] = members.as_slice() else {
        return crate::json::fail(ONE_KIND);
    };
    let given;
    let outcome = match kind.as_ref() {
        "error" => match crate::tool_error::spec::from_json(value) {
            Ok(read) => {
                error = read;
                HandlerOutcome::Error(&error)
            }
            Err(why) => {
                raised = refused(why);
                HandlerOutcome::Exception(&raised)
            }
        },
        "validation" => match validation_from_json(value) {
            Ok(read) => {
                validation = read;
                HandlerOutcome::Validation(&validation)
            }
            Err(why) => {
                raised = refused(why);
                HandlerOutcome::Exception(&raised)
            }
        },
        "result" => HandlerOutcome::Result(value),
        "known" => {
            known = KnownInput::read(value)?;
            HandlerOutcome::Known {
                kind: known.kind(),
                exception: known.exception(),
                arguments: &arguments,
            }
        }
        "rpcError" => {
            rpc = RpcInput::read(value)?;
            HandlerOutcome::RpcError {
                code: rpc.0,
                message: &rpc.1,
                shown,
            }
        }
        "userError" | "message" | "envelope" | "exception" => {
            given = crate::json::string(value, &crate::json::Member(&"outcome", kind))?;
            match kind.as_ref() {
                "userError" => HandlerOutcome::UserError(&given),
                "message" => HandlerOutcome::Message { text: &given, shown },
                "envelope" => HandlerOutcome::Envelope(&given),
                _ => HandlerOutcome::Exception(&given),
            }
        }
        _ => return crate::json::fail(ONE_KIND),
    };
    let needs_id = matches!(
        outcome,
        HandlerOutcome::Exception(_)
            | HandlerOutcome::Known { .. }
            | HandlerOutcome::Message {
                shown: ThrownMessages::Hidden,
                ..
            }
            | HandlerOutcome::RpcError {
                shown: ThrownMessages::Hidden,
                ..
            }
            | HandlerOutcome::RpcError { code: INTERNAL, .. }
    ) || matches!(outcome, HandlerOutcome::Result(r) if !is_error_result(r));
    let correlation_id = if needs_id {
        crate::recovery::correlation_id_of(correlation_id, random)?
    } else {
        String::new()
    };
    let answer = handler_answer(&tool, outcome, format, locale, &correlation_id);
    let mut out = String::with_capacity(answer.result.len() + 64);
    out.push_str("{\"result\":");
    out.push_str(&answer.result);
    out.push_str(",\"ledger\":");
    out.push_str(match answer.ledger {
        LedgerStep::Failure => "\"failure\"",
        LedgerStep::Observe => "\"observe\"",
    });
    if let Some(log) = &answer.log {
        out.push_str(",\"correlationId\":");
        push_json_string(&mut out, &correlation_id);
        out.push_str(",\"log\":");
        push_json_string(&mut out, log);
    }
    out.push('}');
    Ok(out)
}
