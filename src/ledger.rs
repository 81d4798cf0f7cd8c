//! The repeat ledger: one per server session, it remembers each tool's last
//! failure so an identical retry is answered by a short "nothing has changed"
//! envelope, and a run of them by an envelope telling the model to stop.
//!
//! ```
//! use mcp_envelope::{code, Ledger, ToolError};
//!
//! let mut ledger = Ledger::new(Ledger::DEFAULT_STOP_AFTER);
//! let e = ToolError::new(code::NOT_FOUND, "No invoice inv_9");
//! let first = ledger.failure("get_invoice", &e, None).unwrap();
//! assert_eq!(first.message, "No invoice inv_9");
//! let second = ledger.failure("get_invoice", &e, None).unwrap();
//! assert!(second.message.starts_with("Nothing has changed since the last attempt"));
//! let third = ledger.failure("get_invoice", &e, None).unwrap();
//! assert!(third.message.starts_with("Stop retrying"));
//! ledger.success("get_invoice"); // the streak ends
//! assert_eq!(ledger.failure("get_invoice", &e, None).unwrap().message, "No invoice inv_9");
//! ```
//!
//! Failures are identical when the tool, the code and (if given) the
//! arguments' fingerprint match. The fingerprint is computed here, so every
//! host keys alike: object members in any order give the same fingerprint;
//! numbers count as written (`1` and `1.0` differ).

use crate::error::SpecError;
use crate::json::{parse_content, Value};
use crate::locale::Locale;
use crate::model::{Severity, ToolError, ToolFailureMeta};
use crate::read::{read_tool_result, read_unwrapped, Reading};
use crate::render::call_tool_result;

/// One tool's run of identical failures.
#[derive(Debug, Clone)]
struct Streak {
    tool: String,
    code: String,
    fingerprint: Option<u64>,
    count: u32,
}

/// Remembers each tool's last failure; see the module documentation.
#[derive(Debug, Clone)]
pub struct Ledger {
    stop_after: u32,
    streaks: Vec<Streak>,
}

impl Ledger {
    /// Identical failures allowed before the envelope says to stop.
    pub const DEFAULT_STOP_AFTER: u32 = 2;

    /// A ledger whose envelope says to stop at the failure after `stop_after`
    /// identical ones (0 is read as 1: a stop needs one failure before it).
    pub fn new(stop_after: u32) -> Ledger {
        Ledger {
            stop_after: stop_after.max(1),
            streaks: Vec::new(),
        }
    }

    /// The error to send for this failure of `tool`: the error itself the
    /// first time; a short "nothing has changed" error for an identical
    /// failure up to the limit; a critical "stop retrying" error beyond it.
    /// `arguments` is the call's arguments as JSON text (refused when it is
    /// not JSON). A warning is returned as it is: it rides on a success, so
    /// it neither counts nor ends a streak.
    pub fn failure(&mut self, tool: &str, error: &ToolError, arguments: Option<&str>) -> Result<ToolError, SpecError> {
        let fingerprint = arguments.map(fingerprint).transpose()?;
        if !error.is_error() {
            return Ok(error.clone());
        }
        let count = self.count(tool, error, fingerprint);
        Ok(self.sent(error, count))
    }

    /// What the n-th identical failure in a row sends.
    fn sent(&self, error: &ToolError, count: u32) -> ToolError {
        match count {
            1 => error.clone(),
            n if n <= self.stop_after => repeat(error, n),
            n => stop(error, n),
        }
    }

    /// Records a failure; how many identical ones in a row that makes.
    fn count(&mut self, tool: &str, error: &ToolError, fingerprint: Option<u64>) -> u32 {
        match self.streaks.iter_mut().find(|s| s.tool == tool) {
            Some(s) if s.code == error.code && s.fingerprint == fingerprint => {
                s.count = s.count.saturating_add(1);
                s.count
            }
            Some(s) => {
                (s.code, s.fingerprint, s.count) = (error.code.clone(), fingerprint, 1);
                1
            }
            None => {
                self.streaks.push(Streak {
                    tool: tool.to_owned(),
                    code: error.code.clone(),
                    fingerprint,
                    count: 1,
                });
                1
            }
        }
    }

    /// Watches a result a tool handler produced (`CallToolResult` JSON): what
    /// an MCP integration calls after every handler, whatever built the result.
    ///
    /// - An error result holding a `<tool_error>` (any form) is a failure: the
    ///   first of a streak gives `None` (send the result as it is); a repeat
    ///   or a stop gives the `CallToolResult` JSON to send instead, in the
    ///   form the handler used, with the ToolFailure metadata if it had some
    ///   (without `retryNotBefore`: the result does not say what `now` was).
    /// - A success ends the tool's streak; a warning rides on a success and
    ///   leaves it alone, as do a `<validation_error>`, a partial result and an
    ///   error result without an envelope (nothing says what failed).
    ///
    /// A text that is not a `CallToolResult` is refused.
    ///
    /// ```
    /// use mcp_envelope::Ledger;
    /// let mut ledger = Ledger::new(2);
    /// let failed = r#"{"content":[{"type":"text","text":"error_code: TIMEOUT\nwhat_failed: Billing is slow\nretryable: true"}],"isError":true}"#;
    /// assert_eq!(ledger.observe("pay", failed, None), Ok(None));
    /// let again = ledger.observe("pay", failed, None).unwrap().unwrap();
    /// assert!(again.contains("what_failed: Nothing has changed since the last attempt"));
    /// ```
    pub fn observe(&mut self, tool: &str, result: &str, arguments: Option<&str>) -> Result<Option<String>, SpecError> {
        let fingerprint = arguments.map(fingerprint).transpose()?;
        // The result is read once: whether it failed, its text, its `_meta`.
        let read = read_tool_result(result, true)?;
        let text = read.text.unwrap_or_default();
        let reading = read_unwrapped(&text);
        if !read.is_error {
            if !matches!(&reading, Ok(Reading::ToolError(warning)) if !warning.is_error()) {
                self.success(tool);
            }
            return Ok(None);
        }
        let Ok(Reading::ToolError(mut error)) = reading else {
            return Ok(None);
        };
        let count = self.count(tool, &error, fingerprint);
        if count == 1 {
            return Ok(None);
        }
        if read.tool_failure_meta && error.correlation_id_text().is_some() {
            error.tool_failure = Some(ToolFailureMeta::default());
        }
        let form = crate::parse::form_of(&text);
        Ok(Some(call_tool_result(&self.sent(&error, count), form)))
    }

    /// A success for `tool`: its streak ends.
    pub fn success(&mut self, tool: &str) {
        self.streaks.retain(|s| s.tool != tool);
    }
}

/// The short envelope for an identical failure: the code, a plain "nothing
/// has changed", the recovery, and what a retry needs (retry-after,
/// retryable, correlation id). The first envelope, still in the model's
/// context, has the rest (actions, details, customer message).
fn repeat(error: &ToolError, count: u32) -> ToolError {
    let message = match steering_locale(error) {
        Locale::PtBr => format!("Nada mudou desde a última tentativa: a mesma falha de novo ({count} seguidas)."),
        Locale::En => format!("Nothing has changed since the last attempt: the same failure again ({count} in a row)."),
    };
    ToolError {
        severity: error.severity,
        category: error.category,
        retryable: error.retryable,
        retry_after: error.retry_after,
        ..successor(error, message, error.recovery())
    }
    .minimal()
}

/// The envelope past the limit: critical, not retryable, telling the model
/// to stop and report to the user.
fn stop(error: &ToolError, count: u32) -> ToolError {
    let (message, suggestion) = match steering_locale(error) {
        Locale::PtBr => (
            format!("Pare de tentar: esta chamada falhou do mesmo jeito {count} vezes seguidas e nada mudou."),
            "Não faça esta chamada de novo. Diga ao usuário o que falhou e que tentar de novo não ajudou.",
        ),
        Locale::En => (
            format!("Stop retrying: this call has failed the same way {count} times in a row and nothing has changed."),
            "Do not make this call again. Tell the user what failed and that retrying did not help.",
        ),
    };
    ToolError {
        severity: Severity::Critical,
        category: error.category_or_default(),
        retryable: Some(false),
        ..successor(error, message, Some(suggestion))
    }
    .minimal()
}

/// A new error about the same failure: its code, correlation id and render
/// settings (locale, caps, ToolFailure request) kept, nothing else.
fn successor(error: &ToolError, message: String, suggestion: Option<&str>) -> ToolError {
    ToolError {
        code: error.code.clone(),
        message,
        suggestion: suggestion.map(str::to_owned),
        correlation_id: error.correlation_id.clone(),
        locale: error.locale,
        localize_steering: error.localize_steering,
        limits: error.limits,
        tool_failure: error.tool_failure,
        ..Default::default()
    }
}

/// The repeat and stop lines steer the model: English unless the error asks
/// for its locale there too.
fn steering_locale(error: &ToolError) -> Locale {
    if error.localize_steering {
        error.locale
    } else {
        Locale::En
    }
}

/// A 64-bit fingerprint of a JSON value that ignores the order of object
/// members (each member is hashed on its own and the hashes summed), so no
/// host needs to sort keys the same way. Arguments of any depth are taken,
/// each array or object past `limits::MAX_DEPTH` levels as its cut marker
/// (its length), as an envelope would show it: calls that differ only that
/// deep count as the same call.
pub fn fingerprint(arguments: &str) -> Result<u64, SpecError> {
    let value = parse_content(arguments, crate::limits::MAX_DEPTH)
        .map_err(|e| SpecError(format!("the arguments are not JSON: {e}")))?;
    Ok(hash_value(&value))
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

fn fnv(mut hash: u64, bytes: &[u8]) -> u64 {
    for byte in bytes {
        hash = (hash ^ u64::from(*byte)).wrapping_mul(FNV_PRIME);
    }
    hash
}

/// Spreads the bits so that summing member hashes does not cancel out.
fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

fn hash_value(value: &Value) -> u64 {
    match value {
        Value::Null => fnv(FNV_OFFSET, b"n"),
        Value::Bool(b) => fnv(FNV_OFFSET, if *b { b"t" } else { b"f" }),
        Value::Number(n) => fnv(fnv(FNV_OFFSET, b"#"), n.as_str().as_bytes()),
        Value::String(s) => fnv(fnv(FNV_OFFSET, b"\""), s.as_bytes()),
        Value::Array(items) => items.iter().fold(fnv(FNV_OFFSET, b"["), |hash, item| {
            fnv(hash, &hash_value(item).to_le_bytes())
        }),
        Value::Object(members) => {
            // Each key once with its last value, as a map reads the object.
            let sum = members.iter().fold(0u64, |sum, (key, member)| {
                let member = fnv(
                    fnv(fnv(fnv(FNV_OFFSET, b"\""), key.as_bytes()), b":"),
                    &hash_value(member).to_le_bytes(),
                );
                sum.wrapping_add(mix(member))
            });
            fnv(fnv(FNV_OFFSET, b"{"), &sum.to_le_bytes())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn member_order_does_not_change_the_fingerprint() {
        let a = fingerprint(r#"{"id":"inv_9","page":{"size":10,"from":2}}"#).unwrap();
        let b = fingerprint(r#"{"page":{"from":2,"size":10},"id":"inv_9"}"#).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, fingerprint(r#"{"id":"inv_8","page":{"size":10,"from":2}}"#).unwrap());
        assert_ne!(fingerprint("[1,2]").unwrap(), fingerprint("[2,1]").unwrap());
        assert_ne!(
            fingerprint(r#"{"a":1,"b":1}"#).unwrap(),
            fingerprint(r#"{"a":2,"b":2}"#).unwrap()
        );
        assert_ne!(fingerprint("1").unwrap(), fingerprint("\"1\"").unwrap());
    }

    #[test]
    fn arguments_of_any_depth_are_taken_the_same_past_the_depth_limit() {
        let nested = |n: usize, leaf: &str| format!("{}{leaf}{}", "[".repeat(n), "]".repeat(n));
        let deep = fingerprint(&nested(100_000, "1")).unwrap();
        assert_eq!(deep, fingerprint(&nested(100_000, "2")).unwrap());
        assert_ne!(deep, fingerprint(&nested(100_000, "10")).unwrap());
        assert_ne!(
            fingerprint(&nested(64, "1")).unwrap(),
            fingerprint(&nested(64, "2")).unwrap()
        );
    }

    #[test]
    fn arguments_that_are_not_json_are_refused() {
        let mut ledger = Ledger::new(2);
        let e = ToolError::new("X", "m");
        let refused = ledger.failure("t", &e, Some("{oops")).unwrap_err();
        assert!(refused.0.starts_with("the arguments are not JSON: "), "{refused}");
    }

    #[test]
    fn a_different_failure_or_success_starts_over() {
        let mut ledger = Ledger::new(2);
        let a = ToolError::new("A", "first");
        let b = ToolError::new("B", "second");
        assert_eq!(ledger.failure("t", &a, None).unwrap(), a);
        assert_eq!(ledger.failure("t", &b, None).unwrap(), b);
        assert_ne!(ledger.failure("t", &b, None).unwrap(), b);
        assert_eq!(ledger.failure("t", &a, Some("{}")).unwrap(), a);
        assert_ne!(ledger.failure("t", &a, Some("{}")).unwrap(), a);
        assert_eq!(ledger.failure("t", &a, Some("{\"x\":1}")).unwrap(), a);
        // Another tool has a streak of its own.
        assert_eq!(ledger.failure("u", &a, Some("{\"x\":1}")).unwrap(), a);
        ledger.success("t");
        assert_eq!(ledger.failure("t", &a, Some("{\"x\":1}")).unwrap(), a);
    }
}
