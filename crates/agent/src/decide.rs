//! The branch a rule-based client takes on a tool result, from the result
//! alone: wait and retry, fix the input and call again, stop and tell the
//! user, or accept the answer. An agent host can act on it without asking
//! the model, and `mcp-envelope audit` grades a server by whether its
//! answers lead there: an envelope is only as good as the branch it picks.
//!
//! The rules, in order:
//! - a 2026-07-28 result whose `resultType` is `input_required`: provide
//!   input (the host asks the user or the client, not the model); `task`:
//!   poll the task, then decide on its result;
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
//!   item is retryable (as long as the longest retry-after of those items
//!   states), else stop;
//! - INSUFFICIENT_SCOPE (an upstream's Bearer `insufficient_scope`): step
//!   up, the host authorizing again with the scopes named;
//! - an error result with no envelope a rule can read: by its SEP-3313
//!   `toolFailure` metadata when it has some (`reliability` and retryable:
//!   wait and retry; `capability` with `invalid_input` or
//!   `resource_not_found`: fix the input; anything else: stop), else stop,
//!   since nothing says a retry or another input could help.
//!
//! Given the tool's `tools/list` entry ([`decide_for`]), a retry follows
//! SEP-3313's client rule: a failure may be retried automatically only when
//! the tool's annotations permit it. A wait-and-retry of a tool that is
//! neither read-only nor idempotent (MCP's defaults: neither) becomes
//! verify-before-retry: the write may have happened, so the host checks
//! before it calls again.
//!
//! A JSON-RPC error (`{"code", "message", "data"?}`, alone or as a
//! response's `error`) is decided too, since the specification answers a
//! call of an unknown tool with one: by the envelope its `data` carries (the
//! JSON form), else -32602 (invalid params) is fixed and called again, and
//! any other code stops.

use crate::code::{self, Category};
use crate::error::SpecError;
use crate::json::{parse_value, push_json_string, repaired_object, Members, Value};
use crate::read::{read_tool_result, read_unwrapped, Reading};
use crate::tool_error::model::{Severity, ToolError};

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
    /// Retryable, but the tool is neither read-only nor idempotent: check
    /// whether the write happened before calling again, never blindly.
    VerifyBeforeRetry,
    /// The call needs scopes the authorization lacks: the host authorizes
    /// again asking for them, then makes the same call.
    StepUp,
    /// The server asks for input (2026-07-28 `input_required`): the host
    /// asks the user or the client, not the model, then calls again.
    ProvideInput,
    /// The call runs as a task: poll it to its end, then decide on its result.
    PollTask,
}

string_enum!(Branch {
    WaitAndRetry = "wait-and-retry",
    FixAndRetry = "fix-and-retry",
    StopAndTell = "stop-and-tell",
    Accept = "accept",
    VerifyBeforeRetry = "verify-before-retry",
    StepUp = "step-up",
    ProvideInput = "provide-input",
    PollTask = "poll-task"
});

/// The decision on one result.
///
/// With the `schema` feature it is also the wrappers' `Decision`: the
/// attributes under `schema` say what [`Decision::to_json`] writes (an
/// absent code, wait or scope list is left out, never `null`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(
    feature = "schema",
    serde(rename_all = "camelCase"),
    schemars(description = "What a rule-based client does next on a result (`decide`).")
)]
pub struct Decision {
    /// What the client does next.
    pub branch: Branch,
    /// The code the decision rests on: the envelope's, `VALIDATION_ERROR`,
    /// `PARTIAL_RESULT`; absent for a success or a result with no envelope.
    #[cfg_attr(
        feature = "schema",
        serde(default, skip_serializing_if = "Option::is_none"),
        schemars(with = "String")
    )]
    pub code: Option<String>,
    /// How long to wait before retrying, when the envelope says.
    #[cfg_attr(
        feature = "schema",
        serde(default, skip_serializing_if = "Option::is_none"),
        schemars(with = "u32")
    )]
    pub wait_seconds: Option<u32>,
    /// The scopes a step-up asks for, as the failure names them.
    #[cfg_attr(feature = "schema", serde(default, skip_serializing_if = "Vec::is_empty"))]
    pub scopes: Vec<String>,
    /// Which rule decided, in a few words.
    pub why: &'static str,
    /// What the answer stated of its failure (its envelope's, in a result
    /// or a JSON-RPC error's `data`, else its ToolFailure metadata's), which
    /// the host loop's escalation record keeps in place of the code's
    /// defaults; not written by `to_json`.
    #[cfg_attr(feature = "schema", schemars(skip))]
    pub stated: Option<Stated>,
}

/// The category, retryability and retry-after a failed answer stated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stated {
    /// Its category: the envelope's effective one, or the ToolFailure class's
    /// (`reliability` transient, `governance` permission, else none).
    pub category: Option<Category>,
    /// Whether another call can succeed, as it said.
    pub retryable: bool,
    /// The seconds to wait its envelope's `retry_after` states. The
    /// ToolFailure metadata states none: its `retryNotBefore` is a moment,
    /// which only the host's clock could turn into a wait.
    pub retry_after: Option<u32>,
}

fn decision(branch: Branch, code: Option<&str>, why: &'static str) -> Decision {
    Decision {
        branch,
        code: code.map(str::to_owned),
        wait_seconds: None,
        scopes: Vec::new(),
        why,
        stated: None,
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
    // The result's members, read once for the rules that look at them before
    // the `CallToolResult` reader (which refuses what is no result).
    let members = repaired_object(result, |_, _| ()).unwrap_or_default();
    if let Some(error) = protocol_error_in(&members) {
        return Ok(on_protocol_error(&error));
    }
    if let Some(decided) = by_result_type(&members) {
        return decided;
    }
    let read = read_tool_result(result, true)?;
    let text = read.text;
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
            if partial.any_retryable() {
                let mut wait = decision(
                    Branch::WaitAndRetry,
                    code,
                    "nothing obtained; a failed item can be retried",
                );
                // The call retries every retryable item: wait as long as the longest of them asks.
                let retryable = partial.failed.iter().filter(|item| item.is_retryable());
                wait.wait_seconds = retryable.filter_map(|item| item.retry_after).max();
                wait
            } else {
                decision(
                    Branch::StopAndTell,
                    code,
                    "nothing obtained; no failed item can be retried",
                )
            }
        }
        // No envelope, a broken one, or a kind this crate does not know (`Reading` is non-exhaustive).
        _ => match tool_failure_of(&members) {
            Some(decided) => decided,
            None => decision(
                Branch::StopAndTell,
                None,
                "no envelope: nothing says whether a retry or another input can help",
            ),
        },
    })
}

/// [`decide`], knowing the tool called: `tool` is its `tools/list` entry
/// (JSON), whose `annotations` say whether a retry is safe (SEP-3313's
/// client rule). A wait-and-retry of a tool neither read-only nor
/// idempotent is verify-before-retry. An entry that is not an object, or
/// whose hints are not booleans, is refused.
///
/// ```
/// use mcp_envelope::decide::{decide_for, Branch};
/// let timeout = r#"{"content":[{"type":"text","text":"error_code: TIMEOUT\nwhat_failed: The bank did not answer\nretryable: true"}],"isError":true}"#;
/// let refund = r#"{"name":"refund_order","annotations":{"destructiveHint":false}}"#;
/// assert_eq!(decide_for(timeout, Some(refund)).unwrap().branch, Branch::VerifyBeforeRetry);
/// let lookup = r#"{"name":"get_invoice","annotations":{"readOnlyHint":true}}"#;
/// assert_eq!(decide_for(timeout, Some(lookup)).unwrap().branch, Branch::WaitAndRetry);
/// ```
pub fn decide_for(result: &str, tool: Option<&str>) -> Result<Decision, SpecError> {
    let repeatable = tool.map(retry_is_safe).transpose()?;
    let mut decided = decide(result)?;
    if decided.branch == Branch::WaitAndRetry && repeatable == Some(false) {
        decided.branch = Branch::VerifyBeforeRetry;
        decided.why = "retryable, but the tool is neither read-only nor idempotent: a retry may repeat a write";
    }
    Ok(decided)
}

/// Whether a tool's annotations let a client repeat a call: read-only, or
/// idempotent. Absent hints are MCP's defaults (neither).
fn retry_is_safe(tool: &str) -> Result<bool, SpecError> {
    let refused = |why: &str| {
        Err(SpecError::invalid(format!(
            "the tool must be its tools/list entry: {why}"
        )))
    };
    let Ok(Value::Object(entry)) = parse_value(tool) else {
        return refused("a JSON object");
    };
    let annotations = match entry.get("annotations") {
        None | Some(Value::Null) => return Ok(false),
        Some(Value::Object(annotations)) => annotations,
        Some(_) => return refused("\"annotations\" is an object"),
    };
    let hint = |name: &str| match annotations.get(name) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(set)) => Ok(*set),
        Some(_) => Err(SpecError::invalid(format!(
            "the tool must be its tools/list entry: \"annotations.{name}\" is true or false"
        ))),
    };
    Ok(hint("readOnlyHint")? || hint("idempotentHint")?)
}

/// A 2026-07-28 result that is not a tool's outcome yet (input required, a
/// task), or a task's state as `tasks/get` answers it (the tasks extension,
/// SEP-2663: `completed` holds the call's `result`, whatever its `isError`;
/// `failed` a JSON-RPC `error`, which the caller has already read).
fn by_result_type(members: &Members<'_>) -> Option<Result<Decision, SpecError>> {
    let member = |key: &str| member_of(members, key);
    let text_of = |key: &str| member(key).and_then(|v| parse_value(&v).ok()?.as_str().map(str::to_owned));
    let branch = |branch, why| Some(Ok(decision(branch, None, why)));
    let input_required = "input required: the host asks the user or the client, then calls again with the answers";
    match text_of("resultType").as_deref() {
        Some("input_required") => return branch(Branch::ProvideInput, input_required),
        Some("task") => {
            return branch(
                Branch::PollTask,
                "a task: poll it until it ends, then decide on its result",
            )
        }
        _ => {}
    }
    member("taskId")?;
    match text_of("status")?.as_str() {
        "completed" => Some(match member("result") {
            Some(inner) => decide(&inner),
            None => Err(SpecError::missing("a completed task must hold its \"result\"".into())),
        }),
        "working" => branch(Branch::PollTask, "the task is still working: poll it again"),
        "input_required" => branch(Branch::ProvideInput, input_required),
        "cancelled" => branch(Branch::StopAndTell, "the task was cancelled"),
        _ => None,
    }
}

/// An error result without an envelope, by its SEP-3313 `toolFailure` metadata.
fn tool_failure_of(members: &Members<'_>) -> Option<Decision> {
    let meta = parse_value(&member_of(members, "_meta")?).ok()?;
    let failure = meta.get(crate::tool_error::render::TOOL_FAILURE_KEY)?;
    let code = failure.get("code").and_then(Value::as_str);
    let retryable = failure.get("retryable").and_then(Value::as_bool) == Some(true);
    let class = failure.get("class").and_then(Value::as_str)?;
    let mut decided = match (class, code) {
        ("reliability", _) if retryable => decision(Branch::WaitAndRetry, code, "toolFailure: reliability, retryable"),
        ("capability", Some("invalid_input" | "resource_not_found")) => {
            decision(Branch::FixAndRetry, code, "toolFailure: the input must change")
        }
        (_, _) => decision(Branch::StopAndTell, code, "toolFailure: no automatic retry"),
    };
    // The classes as our categories render them (tool_failure.rs); `capability` names none.
    let category = match class {
        "reliability" => Some(Category::Transient),
        "governance" => Some(Category::Permission),
        _ => None,
    };
    decided.stated = Some(Stated {
        category,
        retryable,
        retry_after: None,
    });
    Some(decided)
}

/// The last value given for `key` (a key given twice counts as `JSON.parse` reads it), as written.
fn member_of(members: &Members<'_>, key: &str) -> Option<String> {
    members.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v.to_string())
}

/// A JSON-RPC error's code and its `data` as written.
struct ProtocolErrorRead {
    code: Option<i64>,
    data: Option<String>,
}

/// The JSON-RPC error in `text`: an object with a numeric `code`, a
/// `message` and no `content`, or one under `error`; `None` for anything
/// else, which the `CallToolResult` reader then judges.
fn protocol_error_in(members: &Members<'_>) -> Option<ProtocolErrorRead> {
    let member = |key: &str| member_of(members, key);
    if member("content").is_some() {
        return None;
    }
    if let Some(inner) = member("error") {
        let inner = repaired_object(&inner, |_, _| ()).ok()?;
        return protocol_error_in(&inner);
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
/// The rate-limit error of the draft SEP-3304 (`data.retryAfterMs`, milliseconds):
/// the server as a whole is rate limiting the client.
const RATE_LIMITED_ERROR: i64 = -32023;

fn on_protocol_error(error: &ProtocolErrorRead) -> Decision {
    match error.data.as_deref().map(read_unwrapped) {
        Some(Ok(Reading::ToolError(envelope))) => on_tool_error(&envelope),
        Some(Ok(Reading::ValidationError(_))) => decision(
            Branch::FixAndRetry,
            Some(crate::read::VALIDATION_CODE),
            "invalid arguments: fix the fields named",
        ),
        _ if error.code == Some(RATE_LIMITED_ERROR) => {
            let mut wait = decision(
                Branch::WaitAndRetry,
                None,
                "rate limited: wait, then make the same call",
            );
            let data = error.data.as_deref().and_then(|d| parse_value(d).ok());
            let after_ms = data
                .as_ref()
                .and_then(|d| d.get("retryAfterMs"))
                .and_then(Value::as_u64);
            wait.wait_seconds = after_ms.map(|ms| u32::try_from(ms.div_ceil(1000)).unwrap_or(u32::MAX));
            wait
        }
        // 2025-11-25's URL elicitation (2026-07-28 sends it as an input_required result).
        _ if error.code == Some(crate::code::URL_ELICITATION_REQUIRED) => decision(
            Branch::ProvideInput,
            None,
            "a URL elicitation is required: the host has the user open the URL, then calls again",
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
    } else if error.code == crate::code::INSUFFICIENT_SCOPE {
        let mut step_up = decision(
            Branch::StepUp,
            code,
            "insufficient scope: authorize again with the scopes named",
        );
        step_up.scopes = error
            .details
            .iter()
            .filter(|(key, _)| key == crate::code::SCOPES_DETAIL)
            .flat_map(|(_, scopes)| scopes.split_whitespace().map(str::to_owned))
            .collect();
        step_up
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
    decided.stated = Some(Stated {
        category: error.category_or_default(),
        retryable,
        retry_after: error.retry_after,
    });
    decided
}

/// The JSON entry point behind `mcp_envelope::raw::decide`.
#[inline]
pub fn decide_json(request: &str) -> Result<String, SpecError> {
    let members = repaired_object(request, |_, e| {
        SpecError::invalid(format!("the decide request must be {{\"result\", \"tool\"?}}: {e}"))
    })?;
    let mut result = None;
    let mut tool = None;
    for (key, value) in &members {
        match key.as_ref() {
            "result" => result = Some(value.as_ref()),
            "tool" if value.as_ref() != "null" => tool = Some(value.as_ref()),
            "tool" => tool = None,
            other => {
                return Err(SpecError::invalid(format!(
                    "the decide request: unknown member {other:?}, expected \"result\" or \"tool\""
                )))
            }
        }
    }
    let Some(result) = result else {
        return Err(SpecError::missing(
            "the decide request: missing \"result\", the CallToolResult (or JSON-RPC error) to decide on".into(),
        ));
    };
    decide_for(result, tool).map(|d| d.to_json())
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
        if !self.scopes.is_empty() {
            out.push_str(",\"scopes\":[");
            for (i, scope) in self.scopes.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_json_string(&mut out, scope);
            }
            out.push(']');
        }
        out.push_str(",\"why\":");
        push_json_string(&mut out, self.why);
        out.push('}');
        out
    }
}
