//! What a host does after the component traps, decided here so every host
//! does the same (docs/state.md, "After a trap").
//!
//! A trap (a bug, or memory exhausted) ends the instance it happened in. The
//! component keeps nothing between calls, so the host drops that instance
//! and loses nothing; then it asks a fresh instance `after-trap` what the
//! call that trapped answers, and logs the answer's `log` line:
//!
//! - `{"then":"answer","answer":<text>}`: the call answers `answer`, in its
//!   own output's shape, as if it had returned it. Where the answer is for a
//!   model (an envelope, a `CallToolResult`, a ledger failure) it is an
//!   INTERNAL_ERROR under a fresh correlation id, the trap in the log line
//!   only; an idempotency claim is answered `unavailable` (the write does not
//!   run); a ledger observation sends the result as it is and a finished
//!   write stores nothing (`"finished":"kept"`: the claim stays until it
//!   expires, so the key never runs twice).
//! - `{"then":"call-again","again":<words>}`: the call is made once more on
//!   the fresh instance (a one-off trap costs its caller nothing); if that
//!   traps too, the host raises its own error with `again`'s words. So are
//!   the calls whose answer is data, or a protocol answer whose shape the
//!   request decides (`unknown-tool`, `protocol-error`).

use super::exception::exception_result;
use super::fresh_correlation_id;
use crate::error::SpecError;
use crate::idempotency::unavailable;
use crate::json::push_json_string;
use crate::locale::Locale;
use crate::tool_error::render::Format;

const WHAT: &str = "the after-trap request";

/// What a call that trapped answers instead (see the module documentation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AfterTrap {
    /// The call answers this text, in its own output's shape.
    Answer(String),
    /// The call is made once more; a second trap is raised with these words.
    CallAgain(String),
}

/// The `after-trap` request as written.
/// The calls whose answer goes to a model: after a trap, an INTERNAL_ERROR.
/// `true` where the answer is the envelope text rather than a `CallToolResult`.
const MODEL_FACING: [(&str, bool); 8] = [
    ("render", true),
    ("render-validation", true),
    ("render-partial", true),
    ("call-tool-result", false),
    ("validation-result", false),
    ("partial-result", false),
    ("empty-result", false),
    ("user-error", false),
];

/// Every other export: a call made again is as good as the first.
const CALL_AGAIN: [&str; 21] = [
    "unknown-tool",
    "span-attributes",
    "host-step",
    "answer-for-revision",
    "canonical-codes",
    "code-defaults",
    "limits",
    "protocol-error",
    "upstream-error",
    "access-error",
    "partial-limits",
    "read-envelope",
    "contract-lock",
    "contract-diff",
    "decide",
    "error-of-result",
    "backoff",
    "ledger-key",
    "compare-and-set-script",
    "idempotency-key",
    "idempotency-key-argument",
];

/// What the call `call` answers after trapping with `trap` (the host's own
/// words for it), and the line to log. `random` is host randomness for a
/// fresh correlation id; `tool` and `key` are the tool and idempotency key
/// of the call, where it has them; `format` the form its envelopes take.
///
/// ```
/// use mcp_envelope::recovery::{after_trap, AfterTrap};
/// use mcp_envelope::{Format, Locale};
/// let (then, log) = after_trap("decide", "unreachable", "0123456789abcdef", Format::Xml, Locale::En, "", None).unwrap();
/// assert_eq!(then, AfterTrap::CallAgain("mcp-envelope: decide trapped twice, on a fresh instance too; it was not answered".to_owned()));
/// assert_eq!(log, r#"code=TRAPPED call="decide" then="call-again" trap="unreachable""#);
/// ```
pub fn after_trap(
    call: &str,
    trap: &str,
    random: &str,
    format: Format,
    locale: Locale,
    tool: &str,
    key: Option<&str>,
) -> Result<(AfterTrap, String), SpecError> {
    let short_log = |then: &str| {
        let mut line = String::from("code=TRAPPED call=");
        push_json_string(&mut line, call);
        line.push_str(" then=");
        push_json_string(&mut line, then);
        line.push_str(" trap=");
        push_json_string(&mut line, trap);
        line
    };
    if let Some(&(_, envelope_text)) = MODEL_FACING.iter().find(|(name, _)| *name == call) {
        let report = internal_error(call, trap, random, format, locale, tool)?;
        let answer = if envelope_text {
            crate::tool_error::render::render(&report.error, format)
        } else {
            report.result
        };
        return Ok((AfterTrap::Answer(answer), report.log));
    }
    let answer = match call {
        "exception-result" | "ledger-failure" | "handler-result" => {
            let report = internal_error(call, trap, random, format, locale, tool)?;
            let mut answer = String::from("{\"result\":");
            answer.push_str(&report.result);
            if call == "handler-result" {
                answer.push_str(",\"ledger\":\"observe\"");
            }
            if call != "ledger-failure" {
                answer.push_str(",\"correlationId\":");
                push_json_string(&mut answer, &report.correlation_id);
                answer.push_str(",\"log\":");
                push_json_string(&mut answer, &report.log);
            }
            answer.push('}');
            return Ok((AfterTrap::Answer(answer), report.log));
        }
        "idempotency-begin" => {
            let Some(key) = key else {
                return Err(SpecError::invalid(format!(
                    "{WHAT}: an idempotency-begin that trapped needs \"tool\" and \"key\", for its unavailable answer"
                )));
            };
            let mut answer = String::from("{\"outcome\":\"unavailable\",\"ledger\":\"none\",\"result\":");
            answer.push_str(&unavailable(tool, key, format));
            answer.push('}');
            (answer, short_log("unavailable"))
        }
        "idempotency-finish" => ("{\"finished\":\"kept\"}".to_owned(), short_log("kept")),
        "ledger-observe" => ("{}".to_owned(), short_log("send-as-is")),
        _ if CALL_AGAIN.contains(&call) => {
            let again = format!("mcp-envelope: {call} trapped twice, on a fresh instance too; it was not answered");
            return Ok((AfterTrap::CallAgain(again), short_log("call-again")));
        }
        _ => return Err(SpecError::invalid(format!("{WHAT}: no export is named {call:?}"))),
    };
    Ok((AfterTrap::Answer(answer.0), answer.1))
}

/// The INTERNAL_ERROR a model gets for a call that trapped.
fn internal_error(
    call: &str,
    trap: &str,
    random: &str,
    format: Format,
    locale: Locale,
    tool: &str,
) -> Result<super::ExceptionReport, SpecError> {
    let correlation_id = fresh_correlation_id(random)?;
    let exception = format!("{call} trapped: {trap}");
    Ok(exception_result(tool, &exception, &correlation_id, format, locale))
}

/// The JSON entry point behind `mcp_envelope::raw::after_trap`.
#[inline]
pub fn after_trap_json(text: &str) -> Result<String, SpecError> {
    // Read member by member: fewer bytes of component than a derived reader.
    const KEYS: [&str; 7] = ["call", "trap", "random", "format", "locale", "tool", "key"];
    let found = crate::json::members_of(text, WHAT, &KEYS)?;
    let text_at = |i: usize| {
        crate::json::present(&found[i])
            .map(|raw| crate::json::string(raw, &crate::json::Quoted(KEYS[i])))
            .transpose()
    };
    let mut required = Vec::with_capacity(3);
    for (i, key) in KEYS.iter().enumerate().take(3) {
        match text_at(i)? {
            Some(text) => required.push(text),
            None => return crate::json::missing(format!("{WHAT}: missing field `{key}`")),
        }
    }
    let (call, trap, random) = (&required[0], &required[1], &required[2]);
    let format =
        crate::json::present(&found[3]).map(|raw| crate::json::variant(raw, "format", Format::ALL, Format::from_wire));
    let locale =
        crate::json::present(&found[4]).map(|raw| crate::json::variant(raw, "locale", Locale::ALL, Locale::from_wire));
    let (tool, key) = (text_at(5)?, text_at(6)?);
    let (then, log) = after_trap(
        call,
        trap,
        random,
        format.transpose()?.unwrap_or(Format::Xml),
        locale.transpose()?.unwrap_or(Locale::En),
        tool.as_deref().unwrap_or(""),
        key.as_deref(),
    )?;
    let mut out = String::with_capacity(256);
    match then {
        AfterTrap::Answer(answer) => {
            out.push_str("{\"then\":\"answer\",\"answer\":");
            push_json_string(&mut out, &answer);
        }
        AfterTrap::CallAgain(again) => {
            out.push_str("{\"then\":\"call-again\",\"again\":");
            push_json_string(&mut out, &again);
        }
    }
    out.push_str(",\"log\":");
    push_json_string(&mut out, &log);
    out.push('}');
    Ok(out)
}
