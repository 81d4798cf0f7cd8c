//! The repeat ledger: one per server session, it remembers each tool's last
//! failure so an identical retry is answered by a short "nothing has changed"
//! envelope, and a run of them by an envelope telling the model to stop.
//!
//! ```
//! use mcp_envelope::{code, Ledger, ToolError};
//!
//! let mut ledger = Ledger::new(Ledger::DEFAULT_STOP_AFTER);
//! let e = ToolError::new(code::NOT_FOUND, "No invoice inv_9");
//! let first = ledger.failure("get_invoice", &e, None);
//! assert_eq!(first.message, "No invoice inv_9");
//! let second = ledger.failure("get_invoice", &e, None);
//! assert!(second.message.starts_with("Nothing has changed since the last attempt"));
//! let third = ledger.failure("get_invoice", &e, None);
//! assert!(third.message.starts_with("Stop retrying"));
//! ledger.success("get_invoice"); // the streak ends
//! assert_eq!(ledger.failure("get_invoice", &e, None).message, "No invoice inv_9");
//! ```
//!
//! Failures are identical when the tool, the code and (if given) the
//! arguments match, arguments compared as the idempotency store compares
//! them ([`ToolArguments`]): object members in any order are the same
//! arguments, and `1` and `1.0` are one number.
//!
//! The rules are pure functions of (a tool's streak, the failure) returning
//! (what to send, the new streak), so that the streak can live wherever the
//! host keeps state: this module's [`Ledger`] in memory, or a store shared by
//! a server's replicas. A streak is a short JSON record (`{"code","arguments",
//! "count"}`) the host keeps under [`ledger_key`] as the text given.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::collections::BTreeMap;

use crate::error::SpecError;
use crate::idempotency::ToolArguments;
use crate::json::read_input;
use crate::locale::SteeringWords;
use crate::read::{read_unwrapped, Reading, ResultText};
use crate::tool_error::model::{Severity, ToolError, ToolFailureMeta};
use crate::tool_error::render::{call_tool_result, Format};

/// One tool's run of identical failures: the record a store keeps.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Streak {
    code: String,
    /// The arguments' digest; `null` for a failure given without them.
    arguments: Option<String>,
    count: u32,
}

impl Streak {
    /// A stored record; one that is not a streak is no streak (the ledger
    /// fails open: the failure is sent as itself).
    fn read(record: Option<&str>) -> Option<Streak> {
        record.and_then(|text| serde_json::from_str(text).ok())
    }

    fn text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// What a step does to the tool's streak in the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreakChange {
    /// Leave the stored streak as it is.
    Keep,
    /// Store this record (a failure counted).
    Set(String),
    /// Remove the streak (a success ended it).
    Delete,
}

/// Seconds a stored streak is kept after its last failure: a model that
/// comes back to a tool an hour later is not repeating itself.
pub const STREAK_TTL_SECONDS: u32 = 3_600;

/// The store key of `tool`'s streak in the conversation `scope` (a session
/// id, or what the host calls a conversation): the same text in every host.
///
/// ```
/// assert_eq!(mcp_envelope::ledger_key("s-1", "get_invoice"), r#"mcp-envelope/ledger/["s-1","get_invoice"]"#);
/// ```
pub fn ledger_key(scope: &str, tool: &str) -> String {
    format!(
        "mcp-envelope/ledger/{}",
        serde_json::to_string(&[scope, tool]).unwrap_or_default()
    )
}

/// The JSON entry point behind `mcp_envelope::raw::ledger_key`: `{"scope", "tool"}`.
#[inline]
pub fn ledger_key_json(request: &str) -> Result<String, SpecError> {
    let [scope, tool] = crate::json::required_strings(request, "the ledger-key request", ["scope", "tool"])?;
    Ok(ledger_key(&scope, &tool))
}

/// The streak after this failure, and how many identical ones in a row it makes.
fn counted(streak: Option<&str>, code: &str, arguments: Option<&ToolArguments>) -> (u32, StreakChange) {
    let arguments = arguments.map(|a| a.digest().to_owned());
    let count = match Streak::read(streak) {
        Some(s) if s.code == code && s.arguments == arguments => s.count.saturating_add(1),
        _ => 1,
    };
    let record = Streak {
        code: code.to_owned(),
        arguments,
        count,
    };
    (count, StreakChange::Set(record.text()))
}

/// One failure of a tool whose stored streak is `streak`: the error to send
/// (the error itself the first time, a short "nothing has changed" error for
/// an identical failure up to `stop_after`, a critical "stop retrying" error
/// beyond) and the streak to store; a failure given without its
/// `arguments` matches on the code alone. A warning is returned as it is:
/// it rides on a success, so it neither counts nor ends a streak.
pub fn failure_step(
    streak: Option<&str>,
    error: &ToolError,
    arguments: Option<&ToolArguments>,
    stop_after: u32,
) -> (ToolError, StreakChange) {
    if !error.is_error() {
        return (error.clone(), StreakChange::Keep);
    }
    let (count, change) = counted(streak, &error.code, arguments);
    (sent(error, count, stop_after), change)
}

/// What a repeated failure sends instead of the result its handler
/// produced: the shorter error, in the form the handler used.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct Replacement {
    /// The repeat or stop envelope's error.
    pub error: ToolError,
    /// The handler's own form.
    pub format: Format,
}

impl Replacement {
    /// The `CallToolResult` JSON to send.
    pub fn call_tool_result(&self) -> String {
        call_tool_result(&self.error, self.format)
    }
}

/// Watches a result a tool handler produced, the tool's stored streak
/// being `streak`: what an MCP integration calls after every handler,
/// whatever built the result.
///
/// - An error result holding a `<tool_error>` (any form) is a failure: the
///   first of a streak gives `None` (send the result as it is); a repeat
///   or a stop gives the [`Replacement`] to send instead, in the form the
///   handler used, with the ToolFailure metadata if it had some (without
///   `retryNotBefore`: the result does not say what `now` was).
/// - A success ends the tool's streak; a warning rides on a success and
///   leaves it alone, as do a `<validation_error>`, a partial result and an
///   error result without an envelope (nothing says what failed).
pub fn observe_step(
    streak: Option<&str>,
    result: &ResultText,
    arguments: Option<&ToolArguments>,
    stop_after: u32,
) -> (Option<Replacement>, StreakChange) {
    let reading = read_unwrapped(&result.text);
    if !result.is_error {
        let warning = matches!(&reading, Ok(Reading::ToolError(warning)) if !warning.is_error());
        let change = if warning {
            StreakChange::Keep
        } else {
            StreakChange::Delete
        };
        return (None, change);
    }
    let Ok(Reading::ToolError(mut error)) = reading else {
        return (None, StreakChange::Keep);
    };
    let (count, change) = counted(streak, &error.code, arguments);
    if count == 1 {
        return (None, change);
    }
    if result.tool_failure_meta && error.correlation_id_text().is_some() {
        error.tool_failure = Some(ToolFailureMeta::default());
    }
    let replacement = Replacement {
        error: sent(&error, count, stop_after),
        format: crate::tool_error::parse::form_of(&result.text),
    };
    (Some(replacement), change)
}

/// What the n-th identical failure in a row sends.
fn sent(error: &ToolError, count: u32, stop_after: u32) -> ToolError {
    match count {
        1 => error.clone(),
        n if n <= stop_after.max(1) => repeat(error, n),
        n => stop(error, n),
    }
}

/// Remembers each tool's last failure in memory, for one conversation; see
/// the module documentation.
///
/// ```
/// use mcp_envelope::{Ledger, ResultText};
/// let mut ledger = Ledger::new(2);
/// let failed = ResultText::new(true, ["error_code: TIMEOUT\nwhat_failed: Billing is slow\nretryable: true"], false);
/// assert_eq!(ledger.observe("pay", &failed, None), None);
/// let again = ledger.observe("pay", &failed, None).unwrap().call_tool_result();
/// assert!(again.contains("what_failed: Nothing has changed since the last attempt"));
/// ```
#[derive(Debug, Clone)]
pub struct Ledger {
    stop_after: u32,
    /// Each failing tool's streak record.
    streaks: BTreeMap<String, String>,
}

impl Ledger {
    /// Identical failures allowed before the envelope says to stop.
    pub const DEFAULT_STOP_AFTER: u32 = 2;

    /// A ledger whose envelope says to stop at the failure after `stop_after`
    /// identical ones (0 is read as 1: a stop needs one failure before it).
    pub fn new(stop_after: u32) -> Ledger {
        Ledger {
            stop_after: stop_after.max(1),
            streaks: BTreeMap::new(),
        }
    }

    fn apply(&mut self, tool: &str, change: StreakChange) {
        match change {
            StreakChange::Keep => {}
            StreakChange::Set(record) => {
                self.streaks.insert(tool.to_owned(), record);
            }
            StreakChange::Delete => {
                self.streaks.remove(tool);
            }
        }
    }

    /// The error to send for this failure of `tool` ([`failure_step`]).
    pub fn failure(&mut self, tool: &str, error: &ToolError, arguments: Option<&ToolArguments>) -> ToolError {
        let streak = self.streaks.get(tool).map(String::as_str);
        let (sent, change) = failure_step(streak, error, arguments, self.stop_after);
        self.apply(tool, change);
        sent
    }

    /// Watches a result a tool handler produced ([`observe_step`]): `None`
    /// to send it as it is, or what to send instead.
    pub fn observe(
        &mut self,
        tool: &str,
        result: &ResultText,
        arguments: Option<&ToolArguments>,
    ) -> Option<Replacement> {
        let streak = self.streaks.get(tool).map(String::as_str);
        let (sent, change) = observe_step(streak, result, arguments, self.stop_after);
        self.apply(tool, change);
        sent
    }

    /// A success for `tool`: its streak ends.
    pub fn success(&mut self, tool: &str) {
        self.streaks.remove(tool);
    }
}

/// The JSON form of a streak change, as a member of an answer: nothing for
/// [`StreakChange::Keep`], `"streak":<record as a JSON string>,"ttlMs":N` (how
/// long a store keeps it) or `"streak":null`.
fn push_change(out: &mut String, change: &StreakChange) {
    match change {
        StreakChange::Keep => {}
        StreakChange::Set(record) => {
            out.push_str(",\"streak\":");
            crate::json::push_json_string(out, record);
            out.push_str(&format!(",\"ttlMs\":{}", u64::from(STREAK_TTL_SECONDS) * 1000));
        }
        StreakChange::Delete => out.push_str(",\"streak\":null"),
    }
}

/// What [`ledger_failure_json`] and [`ledger_observe_json`] write, member
/// by member, as shapes for the schema alone: the wrappers' `LedgerAnswer`
/// (a `LedgerStreakSet`, `LedgerStreakDeleted` or `LedgerStreakKept`, told
/// apart by `streak`). `wire_schema`'s tests validate the shared vectors'
/// answers against them, so they cannot drift from the writers.
#[cfg(feature = "schema")]
#[allow(dead_code)] // never built: their schemas are all they are for
pub mod shapes {
    use schemars::JsonSchema;
    use serde_json::{Map, Value};

    /// The tool's streak goes on: store `streak` in place of its record, for `ttlMs`.
    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    #[schemars(rename = "LedgerStreakSet")]
    #[doc(hidden)]
    pub struct Set {
        /// The `CallToolResult` to send: always from `ledger-failure`; from
        /// `ledger-observe` only when it replaces the handler's own.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(with = "Map<String, Value>")]
        result: Option<Map<String, Value>>,
        /// The tool's streak record, stored as it is.
        streak: String,
        /// How long the store keeps the record, in milliseconds.
        ttl_ms: u64,
    }

    /// A success ended the tool's streak (`ledger-observe`): delete its
    /// record, and send the handler's result as it is.
    #[derive(JsonSchema)]
    #[schemars(rename = "LedgerStreakDeleted")]
    #[doc(hidden)]
    pub struct Deleted {
        /// `null`: the record goes.
        streak: (),
    }

    /// The tool's streak record stays as it is.
    #[derive(JsonSchema)]
    #[schemars(rename = "LedgerStreakKept")]
    #[doc(hidden)]
    pub struct Kept {
        /// The `CallToolResult` to send: always from `ledger-failure`; from
        /// `ledger-observe` only when it replaces the handler's own.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(with = "Map<String, Value>")]
        result: Option<Map<String, Value>>,
    }

    /// A repeat ledger step's answer (`ledger-failure`, `ledger-observe`):
    /// the result to send, if any, and what becomes of the tool's streak record.
    #[derive(JsonSchema)]
    #[serde(untagged)]
    #[schemars(rename = "LedgerAnswer")]
    #[allow(missing_docs)] // each variant is named after the shape it holds
    pub enum Answer {
        Set(Set),
        Deleted(Deleted),
        Kept(Kept),
    }
}

/// A `ledger-failure` or `ledger-observe` request as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase", expecting = "a ledger request object")]
struct LedgerRequest {
    /// The tool's stored streak record, as the store gave it; absent or `null` when none.
    streak: Option<String>,
    spec: Option<Box<RawValue>>,
    result: Option<Box<RawValue>>,
    arguments: Option<Box<RawValue>>,
    /// The arguments as the text a host holds (the model's own), read here.
    arguments_text: Option<String>,
    stop_after: Option<u32>,
    format: Option<Format>,
}

/// The call's arguments: `arguments` as written, or `argumentsText` (not both).
fn arguments_of(request: &LedgerRequest) -> Result<Option<ToolArguments>, SpecError> {
    let text = match (&request.arguments, &request.arguments_text) {
        (Some(_), Some(_)) => return crate::json::fail("give the arguments once: \"arguments\" or \"argumentsText\""),
        (Some(raw), None) => Some(raw.get()),
        (None, text) => text.as_deref(),
    };
    text.map(ToolArguments::from_json).transpose()
}

/// The JSON entry point behind `mcp_envelope::raw::ledger_failure`.
#[inline]
pub fn ledger_failure_json(request: &str) -> Result<String, SpecError> {
    let request: LedgerRequest = read_input(request, "the ledger-failure request")?;
    if request.result.is_some() {
        return crate::json::fail(
            "unknown key \"result\" in the ledger-failure request: a failure is given as its \"spec\"",
        );
    }
    let Some(spec) = &request.spec else {
        return crate::json::missing("missing \"spec\": the error spec of the failure");
    };
    let error = crate::tool_error::spec::from_json(spec.get())?;
    let arguments = arguments_of(&request)?;
    let stop_after = request.stop_after.unwrap_or(Ledger::DEFAULT_STOP_AFTER);
    let (sent, change) = failure_step(request.streak.as_deref(), &error, arguments.as_ref(), stop_after);
    let mut out = String::from("{\"result\":");
    out.push_str(&call_tool_result(&sent, request.format.unwrap_or(Format::Xml)));
    push_change(&mut out, &change);
    out.push('}');
    Ok(out)
}

/// The JSON entry point behind `mcp_envelope::raw::ledger_observe`.
#[inline]
pub fn ledger_observe_json(request: &str) -> Result<String, SpecError> {
    let request: LedgerRequest = read_input(request, "the ledger-observe request")?;
    if request.spec.is_some() || request.format.is_some() {
        return crate::json::fail(
            "the ledger-observe request takes the handler's \"result\", not a \"spec\" or \"format\" (the repeat keeps the result's form)",
        );
    }
    let Some(result) = &request.result else {
        return crate::json::missing("missing \"result\": the CallToolResult the handler produced");
    };
    let arguments = arguments_of(&request)?;
    let stop_after = request.stop_after.unwrap_or(Ledger::DEFAULT_STOP_AFTER);
    let result = ResultText::from_json(result.get())?;
    let (sent, change) = observe_step(request.streak.as_deref(), &result, arguments.as_ref(), stop_after);
    let mut out = String::from("{");
    if let Some(sent) = sent {
        out.push_str("\"result\":");
        out.push_str(&sent.call_tool_result());
    }
    push_change(&mut out, &change);
    let out = out.replacen("{,", "{", 1);
    Ok(out + "}")
}

/// The short envelope for an identical failure: the code, a plain "nothing
/// has changed", the recovery, and what a retry needs (retry-after,
/// retryable, correlation id). The first envelope, still in the model's
/// context, has the rest (actions, details, customer message).
fn repeat(error: &ToolError, count: u32) -> ToolError {
    let message = (steering_words(error).repeat)(count);
    let mut repeated = successor(error, message, error.recovery());
    repeated.severity = error.severity;
    repeated.category = error.category;
    repeated.retryable = error.retryable;
    repeated.retry_after = error.retry_after;
    repeated.minimal()
}

/// The envelope past the limit: critical, not retryable, telling the model
/// to stop and report to the user.
fn stop(error: &ToolError, count: u32) -> ToolError {
    let words = steering_words(error);
    let message = (words.stop)(count);
    let mut stopped = successor(error, message, Some(words.stop_recovery));
    stopped.severity = Severity::Critical;
    stopped.category = error.category_or_default();
    stopped.retryable = Some(false);
    stopped.minimal()
}

/// A new error about the same failure: its code, correlation id and render
/// settings (locale, caps, ToolFailure request) kept, nothing else.
fn successor(error: &ToolError, message: String, suggestion: Option<&str>) -> ToolError {
    // Field by field: `ToolError` is non-exhaustive outside the core crate.
    let mut next = ToolError::new(error.code.clone(), message);
    next.suggestion = suggestion.map(str::to_owned);
    next.correlation_id = error.correlation_id.clone();
    next.locale = error.locale;
    next.localize_steering = error.localize_steering;
    next.limits = error.limits;
    next.tool_failure = error.tool_failure;
    next
}

/// The repeat and stop lines steer the model: English unless the error asks
/// for its locale there too.
fn steering_words(error: &ToolError) -> &'static SteeringWords {
    &error.locale.steering(error.localize_steering).words().steering
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Option<ToolArguments> {
        Some(ToolArguments::from_json(text).unwrap())
    }

    #[test]
    fn arguments_that_are_not_json_are_refused() {
        let refused =
            ledger_failure_json(r#"{"spec":{"code":"X","message":"m"},"argumentsText":"{oops"}"#).unwrap_err();
        assert!(
            refused.message().starts_with("the arguments are not JSON: "),
            "{refused}"
        );
    }

    #[test]
    fn a_different_failure_or_success_starts_over() {
        let mut ledger = Ledger::new(2);
        let a = ToolError::new("A", "first");
        let b = ToolError::new("B", "second");
        assert_eq!(ledger.failure("t", &a, None), a);
        assert_eq!(ledger.failure("t", &b, None), b);
        assert_ne!(ledger.failure("t", &b, None), b);
        assert_eq!(ledger.failure("t", &a, args("{}").as_ref()), a);
        assert_ne!(ledger.failure("t", &a, args("{}").as_ref()), a);
        assert_eq!(ledger.failure("t", &a, args("{\"x\":1}").as_ref()), a);
        // Another tool has a streak of its own.
        assert_eq!(ledger.failure("u", &a, args("{\"x\":1}").as_ref()), a);
        ledger.success("t");
        assert_eq!(ledger.failure("t", &a, args("{\"x\":1}").as_ref()), a);
    }

    #[test]
    fn a_stored_streak_that_is_not_one_starts_a_new_streak() {
        let e = ToolError::new("A", "first");
        for broken in ["", "{", "[]", r#"{"code":"A","arguments":null,"count":-1}"#] {
            let (sent, change) = failure_step(Some(broken), &e, None, 2);
            assert_eq!(sent, e);
            assert_eq!(
                change,
                StreakChange::Set(r#"{"code":"A","arguments":null,"count":1}"#.into())
            );
        }
    }
}
