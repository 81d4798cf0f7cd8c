//! The idempotency store for a tool's write path: a client-supplied key
//! makes a retried write safe, because a replay is answered with the first
//! call's outcome and the write never runs twice. No well-kept crate keeps
//! MCP `CallToolResult`s under keys with these rules, so they are ours,
//! decided once here for every language:
//!
//! - A key is scoped to its tool, 1 to 255 characters ([`MAX_KEY_CHARS`]);
//!   an empty or longer one is answered with a VALIDATION_ERROR envelope.
//! - The arguments compare by their canonical form (object keys sorted,
//!   compact, numbers as written), so `{"a":1,"b":2}` and `{"b":2,"a":1}`
//!   are the same request in every host.
//! - The same key with other arguments is refused with a VALIDATION_ERROR
//!   envelope saying the key belongs to another request (IETF's
//!   Idempotency-Key draft answers it 422); the write does not run.
//! - The same key while its first call is still running is answered with a
//!   retryable CONFLICT envelope, retry after 2 seconds (the draft's 409).
//! - What is stored: a success, a non-retryable error, a partial result and
//!   an error result with no envelope (something may have been written).
//!   Not stored, so a retry with the same key runs: a retryable error
//!   (RATE_LIMITED, TIMEOUT: the write did not happen) and a
//!   `<validation_error>` (the arguments were refused before any write).
//! - A handler that threw leaves the outcome unknown: that is stored too, as
//!   an INTERNAL_ERROR saying the write may or may not have happened, since
//!   running it again could write twice.
//! - The store is bounded: `capacity` keys (default 1,000), each kept for
//!   `ttl` (default 24 hours) after its outcome was stored or its call began;
//!   when full, the oldest entry goes first. Time is the caller's `now_ms`.
//!
//! ```
//! use mcp_envelope::idempotency::{Begin, Finish, Idempotency};
//! use mcp_envelope::Format;
//!
//! let mut store = Idempotency::default();
//! let args = r#"{"order":"A-1","cents":500}"#;
//! assert_eq!(store.begin("refund", "k-1", args, 0, Format::Xml), Ok(Begin::Run));
//! let refunded = r#"{"content":[{"type":"text","text":"Refunded 500 cents"}],"isError":false}"#;
//! assert_eq!(store.finish("refund", "k-1", Some(refunded), 10), Ok(Finish::Stored));
//! // The replay: the first outcome, and the write does not run again.
//! let again = store.begin("refund", "k-1", r#"{"cents":500,"order":"A-1"}"#, 20, Format::Xml).unwrap();
//! assert_eq!(again, Begin::Replay(refunded.to_owned()));
//! ```

use crate::code;
use crate::error::SpecError;
use crate::json::{parse_content, push_json_string, Value};
use crate::model::ToolError;
use crate::read::{read_tool_result, read_unwrapped, Reading};
use crate::render::{call_tool_result, Format};

/// The longest key accepted, in characters (Stripe's and the IETF draft's bound).
pub const MAX_KEY_CHARS: usize = 255;

/// What a call with a key does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Begin {
    /// A new key: run the write, then report its outcome with [`Idempotency::finish`].
    Run,
    /// The key's stored outcome, the `CallToolResult` JSON exactly as first sent.
    Replay(String),
    /// The key was used for other arguments: this VALIDATION_ERROR result instead.
    Reused(String),
    /// The key's first call is still running: this retryable CONFLICT result instead.
    InProgress(String),
    /// The key is empty or too long: this VALIDATION_ERROR result instead.
    InvalidKey(String),
}

impl Begin {
    /// The wire name of the outcome.
    pub fn outcome(&self) -> &'static str {
        match self {
            Begin::Run => "run",
            Begin::Replay(_) => "replay",
            Begin::Reused(_) => "reused",
            Begin::InProgress(_) => "in-progress",
            Begin::InvalidKey(_) => "invalid-key",
        }
    }

    /// The result to send instead of running the write; `None` for [`Begin::Run`].
    pub fn result(&self) -> Option<&str> {
        match self {
            Begin::Run => None,
            Begin::Replay(r) | Begin::Reused(r) | Begin::InProgress(r) | Begin::InvalidKey(r) => Some(r),
        }
    }

    /// `{"outcome", "result"?}`, the result as its JSON object. Written by
    /// hand: two members need no serializer of their own in the component.
    pub fn to_json(&self) -> String {
        let mut out = String::from("{\"outcome\":");
        push_json_string(&mut out, self.outcome());
        if let Some(result) = self.result() {
            out.push_str(",\"result\":");
            out.push_str(result);
        }
        out.push('}');
        out
    }
}

/// What [`Idempotency::finish`] did with an outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finish {
    /// Kept: a call with the same key replays it.
    Stored,
    /// A retryable failure or a validation envelope: the key is free again,
    /// and a retry with it runs.
    Released,
    /// No call with this key was running (never begun, expired or evicted):
    /// nothing to store.
    Absent,
}

impl Finish {
    /// The wire name: `stored`, `released`, `absent`.
    pub fn as_str(self) -> &'static str {
        match self {
            Finish::Stored => "stored",
            Finish::Released => "released",
            Finish::Absent => "absent",
        }
    }
}

#[derive(Debug, Clone)]
struct Entry {
    tool: String,
    key: String,
    /// The arguments' canonical form.
    arguments: String,
    /// When the call began, or when its outcome was stored.
    at_ms: u64,
    /// The stored `CallToolResult`; `None` while the call is running.
    result: Option<String>,
}

/// The store; see the module documentation. One per server (keys are the
/// client's, so a replay may come on another session).
#[derive(Debug, Clone)]
pub struct Idempotency {
    capacity: usize,
    ttl_ms: u64,
    /// Oldest first.
    entries: Vec<Entry>,
}

impl Default for Idempotency {
    fn default() -> Self {
        Idempotency::new(Idempotency::DEFAULT_CAPACITY, Idempotency::DEFAULT_TTL_SECONDS)
    }
}

impl Idempotency {
    /// Keys kept by default.
    pub const DEFAULT_CAPACITY: u32 = 1_000;
    /// How long a key is kept by default: 24 hours.
    pub const DEFAULT_TTL_SECONDS: u32 = 86_400;

    /// A store of at most `capacity` keys, each kept `ttl_seconds`
    /// (0 reads as 1 for both: a store that keeps nothing protects nothing).
    pub fn new(capacity: u32, ttl_seconds: u32) -> Idempotency {
        Idempotency {
            capacity: capacity.max(1) as usize,
            ttl_ms: u64::from(ttl_seconds.max(1)) * 1000,
            entries: Vec::new(),
        }
    }

    /// How many keys are held (running or stored), expired ones included
    /// until the next `begin`.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no key is held.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// A call of `tool` with `key` and `arguments` (JSON text) at `now_ms`:
    /// run it, or the result to send instead (`format` is the form of the
    /// envelopes this store words). Arguments that are not JSON are refused.
    pub fn begin(
        &mut self,
        tool: &str,
        key: &str,
        arguments: &str,
        now_ms: u64,
        format: Format,
    ) -> Result<Begin, SpecError> {
        let arguments = canonical(arguments)?;
        let chars = key.chars().count();
        if chars == 0 || chars > MAX_KEY_CHARS {
            let [message, suggestion] = INVALID_KEY;
            let error = ToolError::new(code::VALIDATION_ERROR, message).suggest(suggestion);
            return Ok(Begin::InvalidKey(call_tool_result(&error, format)));
        }
        let ttl = self.ttl_ms;
        self.entries.retain(|e| now_ms.saturating_sub(e.at_ms) < ttl);
        if let Some(entry) = self.entries.iter().find(|e| e.tool == tool && e.key == key) {
            if entry.arguments != arguments {
                let [message, suggestion] = REUSED;
                return Ok(Begin::Reused(envelope(
                    tool,
                    key,
                    code::VALIDATION_ERROR,
                    message,
                    suggestion,
                    format,
                )));
            }
            return Ok(match &entry.result {
                Some(result) => Begin::Replay(result.clone()),
                None => {
                    let [message, suggestion] = IN_PROGRESS;
                    Begin::InProgress(envelope(tool, key, code::CONFLICT, message, suggestion, format))
                }
            });
        }
        if self.entries.len() >= self.capacity {
            self.entries.remove(0);
        }
        self.entries.push(Entry {
            tool: tool.to_owned(),
            key: key.to_owned(),
            arguments,
            at_ms: now_ms,
            result: None,
        });
        Ok(Begin::Run)
    }

    /// The outcome of the call that `begin` let run: its `CallToolResult`
    /// JSON, or `None` when the handler threw (the outcome is unknown).
    /// A result that is not a `CallToolResult` is refused, and the call stays running.
    pub fn finish(&mut self, tool: &str, key: &str, result: Option<&str>, now_ms: u64) -> Result<Finish, SpecError> {
        let running = self
            .entries
            .iter()
            .position(|e| e.tool == tool && e.key == key && e.result.is_none());
        let stored = match result {
            Some(result) => {
                if !kept(result)? {
                    return Ok(match running {
                        Some(at) => {
                            self.entries.remove(at);
                            Finish::Released
                        }
                        None => Finish::Absent,
                    });
                }
                crate::json::compact(result)
            }
            None => {
                let [message, suggestion] = UNKNOWN_OUTCOME;
                envelope(tool, key, code::INTERNAL_ERROR, message, suggestion, Format::Xml)
            }
        };
        match running.and_then(|at| self.entries.get_mut(at)) {
            Some(entry) => {
                (entry.result, entry.at_ms) = (Some(stored), now_ms);
                Ok(Finish::Stored)
            }
            None => Ok(Finish::Absent),
        }
    }
}

/// Whether an outcome is kept: everything but a retryable `<tool_error>`
/// and a `<validation_error>`, the two that say no write happened.
fn kept(result: &str) -> Result<bool, SpecError> {
    let read = read_tool_result(result, false)?;
    if !read.is_error {
        return Ok(true);
    }
    Ok(match read_unwrapped(&read.text.unwrap_or_default()) {
        Ok(Reading::ToolError(error)) => !error.is_retryable(),
        Ok(Reading::ValidationError(_)) => false,
        _ => true,
    })
}

/// The envelopes this store words, one builder for all (the component's
/// size): the code, what happened, what to do; the tool and key as details.
#[inline(never)]
fn envelope(tool: &str, key: &str, code: &str, message: &str, suggestion: &str, format: Format) -> String {
    let mut error = ToolError::new(code, message)
        .suggest(suggestion)
        .detail("tool", tool)
        .detail("idempotencyKey", key);
    if code == code::CONFLICT {
        // Still running: a short wait and the same call will get the outcome.
        error.category = Some(code::Category::Transient);
        error.retryable = Some(true);
        error.retry_after = Some(2);
    }
    call_tool_result(&error, format)
}

/// An empty key, or one over [`MAX_KEY_CHARS`].
const INVALID_KEY: [&str; 2] = [
    "The idempotency key must be 1 to 255 characters long.",
    "Call again with a key of 1 to 255 characters, unique to this request (a UUID will do).",
];

/// The same key with other arguments.
const REUSED: [&str; 2] = [
    "This idempotency key was already used for a different request: the arguments differ from the first call with it, so this call did not run.",
    "To repeat the first request, send its exact arguments with this key. For a new request, use a new idempotency key.",
];

/// The same key while its first call runs.
const IN_PROGRESS: [&str; 2] = [
    "The first call with this idempotency key is still in progress, so this call did not run.",
    "Wait 2 seconds, then make the same call with the same key: it will return the first call's outcome.",
];

/// A handler that threw: what a replay says.
const UNKNOWN_OUTCOME: [&str; 2] = [
    "The first call with this idempotency key failed inside the server before its outcome was known, so it is not run again: the change may or may not have been made.",
    "Do not retry with this key. Check whether the change was made (look it up), then tell the user; use a new key only for a request you know did not happen.",
];

/// The canonical form of a JSON text: object keys sorted (by code point),
/// each once with its last value, compact, numbers and strings as serde_json
/// writes them. Arguments of any depth are taken, each array or object past
/// `limits::MAX_DEPTH` levels as its cut marker (`"… [N characters cut]"`),
/// so two calls that differ only that deep, in values of the same length,
/// compare as the same arguments.
///
/// ```
/// use mcp_envelope::idempotency::canonical;
/// assert_eq!(canonical(r#"{ "b": [1, {"y":2,"x":1}], "a": "é" }"#).unwrap(), r#"{"a":"é","b":[1,{"x":1,"y":2}]}"#);
/// assert!(canonical("{oops").unwrap_err().0.starts_with("the arguments are not JSON: "));
/// let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
/// let shown = format!("{}\"… [9872 characters cut]\"{}", "[".repeat(64), "]".repeat(64));
/// assert_eq!(canonical(&deep).unwrap(), shown);
/// ```
pub fn canonical(arguments: &str) -> Result<String, SpecError> {
    let value = parse_content(arguments, crate::limits::MAX_DEPTH)
        .map_err(|e| SpecError(format!("the arguments are not JSON: {e}")))?;
    let mut out = String::with_capacity(arguments.len());
    write_canonical(&mut out, &value);
    Ok(out)
}

fn write_canonical(out: &mut String, value: &Value) {
    match value {
        Value::Object(members) => {
            let sorted = sorted_by_key(members.iter().collect());
            out.push('{');
            for (i, (key, member)) in sorted.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                push_json_string(out, key);
                out.push(':');
                write_canonical(out, member);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(out, item);
            }
            out.push(']');
        }
        Value::String(s) => push_json_string(out, s),
        Value::Number(n) => out.push_str(n.as_str()),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Null => out.push_str("null"),
    }
}

/// A merge sort by key, written out: the standard library's sorts would
/// cost the component kilobytes, and an insertion sort would let one huge
/// arguments object take quadratic time.
fn sorted_by_key<'a>(members: Vec<(&'a String, &'a Value)>) -> Vec<(&'a String, &'a Value)> {
    if members.len() <= 1 {
        return members;
    }
    let mut left = members;
    let right = left.split_off(left.len() / 2);
    let (left, right) = (sorted_by_key(left), sorted_by_key(right));
    let mut out = Vec::with_capacity(left.len() + right.len());
    let (mut l, mut r) = (0, 0);
    while l < left.len() || r < right.len() {
        let take_left = r == right.len() || (l < left.len() && left[l].0 <= right[r].0);
        if take_left {
            out.push(left[l]);
            l += 1;
        } else {
            out.push(right[r]);
            r += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const OK: &str = r#"{"content":[{"type":"text","text":"done"}],"isError":false}"#;
    const LIMITED: &str =
        r#"{"content":[{"type":"text","text":"error_code: RATE_LIMITED\nwhat_failed: slow down"}],"isError":true}"#;

    #[test]
    fn a_retryable_failure_frees_the_key() {
        let mut s = Idempotency::default();
        assert_eq!(s.begin("t", "k", "{}", 0, Format::Xml), Ok(Begin::Run));
        assert_eq!(s.finish("t", "k", Some(LIMITED), 1), Ok(Finish::Released));
        assert_eq!(s.begin("t", "k", "{}", 2, Format::Xml), Ok(Begin::Run));
        assert_eq!(s.finish("t", "k", Some(OK), 3), Ok(Finish::Stored));
        assert_eq!(s.finish("t", "k", Some(OK), 4), Ok(Finish::Absent));
    }

    #[test]
    fn keys_expire_and_the_oldest_goes_first() {
        let mut s = Idempotency::new(2, 1);
        for key in ["a", "b", "c"] {
            assert_eq!(s.begin("t", key, "1", 0, Format::Xml), Ok(Begin::Run));
            s.finish("t", key, Some(OK), 0).unwrap();
        }
        assert_eq!(s.len(), 2);
        // "a" was evicted; running it again evicts "b".
        assert_eq!(s.begin("t", "a", "1", 10, Format::Xml), Ok(Begin::Run));
        assert!(matches!(s.begin("t", "c", "1", 999, Format::Xml), Ok(Begin::Replay(_))));
        assert_eq!(s.begin("t", "c", "1", 1000, Format::Xml), Ok(Begin::Run));
        // Another tool's key of the same name is another entry.
        assert_eq!(s.begin("u", "b", "1", 1000, Format::Xml), Ok(Begin::Run));
    }

    #[test]
    fn a_result_that_is_not_one_is_refused_and_the_call_stays_running() {
        let mut s = Idempotency::default();
        s.begin("t", "k", "{}", 0, Format::Xml).unwrap();
        assert!(s.finish("t", "k", Some("[]"), 0).is_err());
        assert!(matches!(
            s.begin("t", "k", "{}", 0, Format::Xml),
            Ok(Begin::InProgress(_))
        ));
    }
}
