//! The branch a rule-based client takes on a tool result, from the result
//! alone: wait and retry, fix the input and call again, stop and tell the
//! user, or accept the answer. An agent host can act on it without asking
//! the model, and `mcp-envelope audit` grades a server by whether its
//! answers lead there: an envelope is only as good as the branch it picks.
//!
//! The rules, in order:
//! - a success (`isError` not true) is accepted, warnings and partial
//!   results too (what was obtained is an answer);
//! - a `<validation_error>`: fix the input;
//! - a `<tool_error>` marked critical (the repeat ledger's stop): stop;
//! - by the error's effective category and retryable (its own, else its
//!   code's defaults): validation, fix the input if retryable; transient,
//!   wait and retry if retryable; NOT_FOUND, fix the input (look the item
//!   up, then call with a real one); any other business rule, permission or
//!   internal failure, stop; a custom code with no category, wait and retry
//!   if retryable, else stop;
//! - a `<partial_result>` that obtained nothing: wait and retry if any failed
//!   item is retryable, else stop;
//! - an error result with no envelope a rule can read: stop, since nothing
//!   says a retry or another input could help.
//!
//! A JSON-RPC error (`{"code", "message", "data"?}`, alone or as a
//! response's `error`) is decided too, since the specification answers a
//! call of an unknown tool with one: by the envelope its `data` carries (the
//! JSON form), else -32602 (invalid params) is fixed and called again, and
//! any other code stops.

use crate::code::{self, Category};
use crate::error::SpecError;
use crate::json::{parse_value, push_json_string, repaired_object};
use crate::model::{Severity, ToolError};
use crate::read::{read_tool_result, read_unwrapped, Reading};

/// What a rule-based client does next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Branch {
    /// Wait (as long as `retry_after` says, if it says), then make the same call.
    WaitAndRetry,
    /// Change the arguments (or look the right ones up) and call again.
    FixAndRetry,
    /// Do not call again; tell the user what happened.
    StopAndTell,
    /// The result is the answer, even if empty or partial.
    Accept,
}

string_enum!(Branch {
    WaitAndRetry = "wait-and-retry",
    FixAndRetry = "fix-and-retry",
    StopAndTell = "stop-and-tell",
    Accept = "accept"
});

/// The decision on one result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The branch.
    pub branch: Branch,
    /// The code the decision rests on: the envelope's, `VALIDATION_ERROR`,
    /// `PARTIAL_RESULT`; absent for a success or a result with no envelope.
    pub code: Option<String>,
    /// How long to wait before retrying, when the envelope says.
    pub wait_seconds: Option<u32>,
    /// Which rule decided, in a few words.
    pub why: &'static str,
}

fn decision(branch: Branch, code: Option<&str>, why: &'static str) -> Decision {
    Decision {
        branch,
        code: code.map(str::to_owned),
        wait_seconds: None,
        why,
    }
}

/// Decides on a `CallToolResult` JSON. A result that is not one is refused;
/// a broken envelope inside one decides as no envelope.
///
/// ```
/// use mcp_envelope::decide::{decide, Branch};
/// let result = r#"{"content":[{"type":"text","text":"error_code: RATE_LIMITED\nwhat_failed: Slow down\nretryable: true\nretry_after: 30 seconds"}],"isError":true}"#;
/// let d = decide(result).unwrap();
/// assert_eq!((d.branch, d.wait_seconds), (Branch::WaitAndRetry, Some(30)));
/// ```
pub fn decide(result: &str) -> Result<Decision, SpecError> {
    if let Some(error) = protocol_error_of(result) {
        return Ok(on_protocol_error(&error));
    }
    let read = read_tool_result(result, true)?;
    let text = read.text.unwrap_or_default();
    if !read.is_error {
        return Ok(decision(Branch::Accept, None, "a success is the answer"));
    }
    Ok(match read_unwrapped(&text) {
        Ok(Reading::ToolError(error)) => on_tool_error(&error),
        Ok(Reading::ValidationError(_)) => decision(
            Branch::FixAndRetry,
            Some(crate::read::VALIDATION_CODE),
            "invalid arguments: fix the fields named",
        ),
        Ok(Reading::PartialResult(partial)) => {
            let code = Some(crate::partial::PARTIAL_CODE);
            if partial.failed.iter().any(|item| item.is_retryable()) {
                decision(
                    Branch::WaitAndRetry,
                    code,
                    "nothing obtained; a failed item can be retried",
                )
            } else {
                decision(
                    Branch::StopAndTell,
                    code,
                    "nothing obtained; no failed item can be retried",
                )
            }
        }
        Ok(Reading::None) | Err(_) => decision(
            Branch::StopAndTell,
            None,
            "no envelope: nothing says whether a retry or another input can help",
        ),
    })
}

/// A JSON-RPC error's code and its `data` as written.
struct ProtocolErrorRead {
    code: Option<i64>,
    data: Option<String>,
}

/// The JSON-RPC error in `text`: an object with a numeric `code`, a
/// `message` and no `content`, or one under `error`; `None` for anything
/// else, which the `CallToolResult` reader then judges.
fn protocol_error_of(text: &str) -> Option<ProtocolErrorRead> {
    let members = repaired_object(text, |_, _| ()).ok()?;
    let member = |key: &str| members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.to_string());
    if member("content").is_some() {
        return None;
    }
    if let Some(inner) = member("error") {
        return inner
            .trim_start()
            .starts_with('{')
            .then(|| protocol_error_of(&inner))
            .flatten();
    }
    let code = parse_value(&member("code")?).ok()?;
    member("message")?;
    Some(ProtocolErrorRead {
        code: code.as_i64(),
        data: member("data"),
    })
}

/// JSON-RPC's "invalid params": the call itself must change.
const INVALID_PARAMS: i64 = -32602;

fn on_protocol_error(error: &ProtocolErrorRead) -> Decision {
    match error.data.as_deref().map(read_unwrapped) {
        Some(Ok(Reading::ToolError(envelope))) => on_tool_error(&envelope),
        Some(Ok(Reading::ValidationError(_))) => decision(
            Branch::FixAndRetry,
            Some(crate::read::VALIDATION_CODE),
            "invalid arguments: fix the fields named",
        ),
        _ if error.code == Some(INVALID_PARAMS) => decision(
            Branch::FixAndRetry,
            None,
            "invalid params: change the tool name or the arguments",
        ),
        _ => decision(
            Branch::StopAndTell,
            None,
            "a protocol error: nothing says whether a retry or another call can help",
        ),
    }
}

fn on_tool_error(error: &ToolError) -> Decision {
    let code = Some(error.code.as_str());
    let retryable = error.is_retryable();
    let mut decided = if error.severity == Severity::Critical {
        decision(Branch::StopAndTell, code, "critical: stop")
    } else {
        match (error.category_or_default(), retryable) {
            (Some(Category::Validation), true) => decision(Branch::FixAndRetry, code, "validation: fix the input"),
            (Some(Category::Transient), true) => decision(Branch::WaitAndRetry, code, "transient and retryable"),
            (_, _) if error.code == code::NOT_FOUND => decision(
                Branch::FixAndRetry,
                code,
                "not found: look it up, then call with a real one",
            ),
            (None, true) => decision(Branch::WaitAndRetry, code, "retryable"),
            (Some(Category::Validation | Category::Transient) | None, false) => {
                decision(Branch::StopAndTell, code, "not retryable")
            }
            (Some(Category::Business), _) => decision(Branch::StopAndTell, code, "a business rule: tell the user"),
            (Some(Category::Permission), _) => decision(Branch::StopAndTell, code, "not permitted: tell the user"),
            (Some(Category::Internal), _) => decision(Branch::StopAndTell, code, "the server failed: tell the user"),
        }
    };
    if decided.branch == Branch::WaitAndRetry {
        decided.wait_seconds = error.retry_after;
    }
    decided
}

/// `decide` as JSON: `{"branch", "code"?, "waitSeconds"?, "why"}`.
///
/// ```
/// let d = mcp_envelope::decide::decide_json(r#"{"content":[{"type":"text","text":"ENOENT: no such file"}],"isError":true}"#).unwrap();
/// assert_eq!(d, r#"{"branch":"stop-and-tell","why":"no envelope: nothing says whether a retry or another input can help"}"#);
/// ```
pub fn decide_json(result: &str) -> Result<String, SpecError> {
    decide(result).map(|d| d.to_json())
}

impl Decision {
    /// `{"branch", "code"?, "waitSeconds"?, "why"}`, written directly: four
    /// members do not need a serializer of their own in the component.
    pub fn to_json(&self) -> String {
        let mut out = String::from("{\"branch\":");
        push_json_string(&mut out, self.branch.as_str());
        if let Some(code) = &self.code {
            out.push_str(",\"code\":");
            push_json_string(&mut out, code);
        }
        if let Some(seconds) = self.wait_seconds {
            out.push_str(&format!(",\"waitSeconds\":{seconds}"));
        }
        out.push_str(",\"why\":");
        push_json_string(&mut out, self.why);
        out.push('}');
        out
    }
}
