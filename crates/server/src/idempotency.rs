//! The idempotency store for a tool's write path: a client-supplied key
//! makes a retried write safe, because a replay is answered with the first
//! call's outcome and the write never runs twice. No well-kept crate keeps
//! MCP `CallToolResult`s under keys with these rules, so they are ours,
//! decided once here for every language:
//!
//! - A key is scoped to its tool, 1 to 255 characters ([`MAX_KEY_CHARS`]);
//!   an empty or longer one is answered with a VALIDATION_ERROR envelope.
//! - The arguments compare by their canonical form (object keys sorted,
//!   compact, numbers in the core's one spelling: [`ToolArguments`]), so `{"a":1,"b":2}` and `{"b":2,"a":1}`
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
//! - A key is kept for `ttl` (default 24 hours) after its outcome was stored
//!   or its call began. Time is the caller's `now_ms`.
//! - A store that cannot be reached never lets the write run: the call is
//!   answered with a retryable SERVER_BUSY envelope saying nothing was
//!   written ([`unavailable`]).
//! - A replay, the in-progress CONFLICT and the store's SERVER_BUSY are no
//!   failure of the call itself, so the repeat ledger neither counts them
//!   nor ends a streak on them ([`Begin::ledger_observes`]): a client that
//!   waits and retries as the CONFLICT says is never told to stop, and a
//!   replay is the first outcome byte for byte. A reused or invalid key is
//!   the call's own mistake and goes through the ledger as any failure.
//!
//! The rules are pure functions of (the key's stored record, the call)
//! returning (what to do, the record to store), so that the keys can live
//! wherever the host keeps state: this module's [`Idempotency`] in memory,
//! or a store shared by a server's replicas. A record is a short JSON text
//! (`{"arguments","expiresAtMs","result"?}`) the host keeps under
//! [`idempotency_key`]. Claiming a key must be one atomic step: the host
//! stores [`begin_step`]'s claim only if the key still holds the record it
//! read (absent, or expired), and calls [`begin_step`] again with what it
//! finds when another call got there first.
//!
//! ```
//! use mcp_envelope::idempotency::{ToolArguments, Begin, Finish, Idempotency};
//! use mcp_envelope::Format;
//!
//! let mut store = Idempotency::default();
//! let args = ToolArguments::from_json(r#"{"order":"A-1","cents":500}"#).unwrap();
//! assert!(matches!(store.begin("refund", "k-1", &args, 0, Format::Xml), Begin::Run(_)));
//! let refunded = r#"{"content":[{"type":"text","text":"Refunded 500 cents"}],"isError":false}"#;
//! assert!(matches!(store.finish("refund", "k-1", Some(refunded), 10), Ok(Finish::Stored(_))));
//! // The replay: the first outcome, and the write does not run again.
//! let same = ToolArguments::from_value(&serde_json::json!({"cents": 500, "order": "A-1"}));
//! let again = store.begin("refund", "k-1", &same, 20, Format::Xml);
//! assert_eq!(again, Begin::Replay(refunded.to_owned()));
//! ```

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, VecDeque};

use crate::code;
use crate::error::SpecError;
use crate::json::{parse_content, push_json_string, read_input, to_json};
use crate::read::{read_tool_result, read_unwrapped, Reading};
use crate::tool_error::limits::MAX_DEPTH;
use crate::tool_error::model::ToolError;
use crate::tool_error::render::{call_tool_result, Format};

/// The longest key accepted, in characters (Stripe's and the IETF draft's bound).
pub const MAX_KEY_CHARS: usize = 255;

/// What a call with a key does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Begin {
    /// A new key: run the write, then report its outcome with
    /// [`Idempotency::finish`] or [`finish_step`]. The claim is the record
    /// that marks the call running; a store keeps it under the key.
    Run(Claim),
    /// The key's stored outcome, the `CallToolResult` JSON exactly as first sent.
    Replay(String),
    /// The key was used for other arguments: this VALIDATION_ERROR result instead.
    Reused(String),
    /// The key's first call is still running: this retryable CONFLICT result instead.
    InProgress(String),
    /// The key is empty or too long: this VALIDATION_ERROR result instead.
    InvalidKey(String),
    /// The store could not be reached: this retryable SERVER_BUSY result
    /// instead; the write did not run.
    Unavailable(String),
}

/// The record a call that runs stores under its key, and for how long.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claim {
    /// The record's text, stored as it is.
    pub record: String,
    /// How long the store keeps it, in milliseconds.
    pub ttl_ms: u64,
}

impl Begin {
    /// The wire name of the outcome.
    pub fn outcome(&self) -> &'static str {
        match self {
            Begin::Run(_) => "run",
            Begin::Replay(_) => "replay",
            Begin::Reused(_) => "reused",
            Begin::InProgress(_) => "in-progress",
            Begin::InvalidKey(_) => "invalid-key",
            Begin::Unavailable(_) => "unavailable",
        }
    }

    /// Whether the result sent instead of running the write goes through the
    /// repeat ledger's `observe` step: only for a reused or invalid key, the
    /// call's own mistake. A replay, the in-progress CONFLICT and the store's
    /// SERVER_BUSY leave the tool's streak as it is (no step): they are no
    /// failure of the call itself. `false` for [`Begin::Run`], whose write's
    /// own result takes the step its outcome names.
    ///
    /// ```
    /// use mcp_envelope::idempotency::{Begin, Idempotency, ToolArguments};
    /// use mcp_envelope::Format;
    /// let mut store = Idempotency::default();
    /// let args = ToolArguments::from_json("{}").unwrap();
    /// store.begin("refund", "k-1", &args, 0, Format::Xml);
    /// let again = store.begin("refund", "k-1", &args, 1, Format::Xml);
    /// assert!(matches!(again, Begin::InProgress(_)) && !again.ledger_observes());
    /// assert!(again.to_json().starts_with(r#"{"outcome":"in-progress","ledger":"none","result":"#));
    /// ```
    pub fn ledger_observes(&self) -> bool {
        ledger_observes(self.outcome())
    }

    /// The result to send instead of running the write; `None` for [`Begin::Run`].
    pub fn result(&self) -> Option<&str> {
        match self {
            Begin::Run(_) => None,
            Begin::Replay(r)
            | Begin::Reused(r)
            | Begin::InProgress(r)
            | Begin::InvalidKey(r)
            | Begin::Unavailable(r) => Some(r),
        }
    }

    /// `{"outcome", "result"?}`, the result as its JSON object: what a
    /// store answers. Written by hand: two members need no serializer of
    /// their own in the component.
    pub fn to_json(&self) -> String {
        self.to_json_with(false)
    }

    /// [`Begin::to_json`], with a run's claim (`"record"`, its text as a JSON
    /// string, and `"ttlMs"`) when `claim` is true: what `idempotency-begin` answers.
    fn to_json_with(&self, claim: bool) -> String {
        let mut out = String::from("{\"outcome\":");
        push_json_string(&mut out, self.outcome());
        if let (Begin::Run(run), true) = (self, claim) {
            push_claim(&mut out, run);
        }
        if let Some(result) = self.result() {
            push_ledger_step(&mut out, self.outcome());
            out.push_str(",\"result\":");
            out.push_str(result);
        }
        out.push('}');
        out
    }
}

/// Whether a result the store sends instead of running the write, by its
/// outcome's wire name ([`Begin::outcome`]), goes through the repeat
/// ledger's `observe` step ([`Begin::ledger_observes`]): only `reused` and
/// `invalid-key`. What a shared store answers in place of a [`Begin`] is
/// told by this name.
pub fn ledger_observes(outcome: &str) -> bool {
    matches!(outcome, "reused" | "invalid-key")
}

/// `,"ledger":"observe"` or `,"ledger":"none"`: the repeat ledger's step for
/// a result sent instead of running the write, as `handler-result` names one.
pub(crate) fn push_ledger_step(out: &mut String, outcome: &str) {
    out.push_str(if ledger_observes(outcome) {
        ",\"ledger\":\"observe\""
    } else {
        ",\"ledger\":\"none\""
    });
}

/// What [`Idempotency::finish`] did with an outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finish {
    /// Kept: a call with the same key replays it. The record replaces the
    /// claim in the store.
    Stored(Claim),
    /// A retryable failure or a validation envelope: the key is free again,
    /// and a retry with it runs.
    Released,
    /// No call with this key was running (never begun, expired or evicted):
    /// nothing to store.
    Absent,
}

impl Finish {
    /// The wire name: `stored`, `released`, `absent`.
    pub fn as_str(&self) -> &'static str {
        match self {
            Finish::Stored(_) => "stored",
            Finish::Released => "released",
            Finish::Absent => "absent",
        }
    }
}

/// A key's record as a store keeps it.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Record {
    /// The arguments' [`digest`].
    arguments: String,
    /// When the store may forget the key (Unix milliseconds).
    expires_at_ms: u64,
    /// The stored `CallToolResult`; absent while the call is running.
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<Box<RawValue>>,
}

impl Record {
    /// The stored record if it is unexpired at `now_ms` (an expired one
    /// frees the key); `Err` for a text that is not a record, which guards
    /// nothing a write could safely run past.
    fn live(stored: Option<&str>, now_ms: u64) -> Result<Option<Record>, ()> {
        let Some(stored) = stored else { return Ok(None) };
        let record: Record = serde_json::from_str(stored).map_err(|_| ())?;
        Ok((record.expires_at_ms > now_ms).then_some(record))
    }

    fn claim(&self, ttl_ms: u64) -> Claim {
        Claim {
            record: serde_json::to_string(self).unwrap_or_default(),
            ttl_ms,
        }
    }
}

/// The store key of `tool`'s idempotency key `key`: the same text in every host.
///
/// ```
/// assert_eq!(mcp_envelope::idempotency::idempotency_key("refund", "k-1"), r#"mcp-envelope/idempotency/["refund","k-1"]"#);
/// ```
pub fn idempotency_key(tool: &str, key: &str) -> String {
    format!(
        "mcp-envelope/idempotency/{}",
        serde_json::to_string(&[tool, key]).unwrap_or_default()
    )
}

/// The JSON entry point behind `mcp_envelope::raw::idempotency_key`: `{"tool", "key"}`.
#[inline]
pub fn idempotency_key_json(request: &str) -> Result<String, SpecError> {
    let [tool, key] = crate::json::required_strings(request, "the idempotency-key request", ["tool", "key"])?;
    Ok(idempotency_key(&tool, &key))
}

fn ttl_ms(ttl_seconds: u32) -> u64 {
    u64::from(ttl_seconds.max(1)) * 1000
}

/// A call of `tool` with `key` and `arguments` at `now_ms`, the
/// key's stored record being `stored` (`None` when the store holds none):
/// [`Begin::Run`] with the claim to store (only if the key still holds
/// `stored`), or the result to send instead; a stored text that is not a
/// record is answered as a store that cannot be read ([`Begin::Unavailable`]). `format` is the form of the
/// envelopes this store words.
pub fn begin_step(
    stored: Option<&str>,
    tool: &str,
    key: &str,
    arguments: &ToolArguments,
    now_ms: u64,
    ttl_seconds: u32,
    format: Format,
) -> Begin {
    let arguments = arguments.digest().to_owned();
    let chars = key.chars().count();
    if chars == 0 || chars > MAX_KEY_CHARS {
        let [message, suggestion] = INVALID_KEY;
        let error = ToolError::new(code::VALIDATION_ERROR, message).suggest(suggestion);
        return Begin::InvalidKey(call_tool_result(&error, format));
    }
    let Ok(live) = Record::live(stored, now_ms) else {
        return Begin::Unavailable(unavailable(tool, key, format));
    };
    let Some(record) = live else {
        let ttl = ttl_ms(ttl_seconds);
        let running = Record {
            arguments,
            expires_at_ms: now_ms.saturating_add(ttl),
            result: None,
        };
        return Begin::Run(running.claim(ttl));
    };
    if record.arguments != arguments {
        let [message, suggestion] = REUSED;
        return Begin::Reused(envelope(tool, key, code::VALIDATION_ERROR, message, suggestion, format));
    }
    match record.result {
        Some(result) => Begin::Replay(result.get().to_owned()),
        None => {
            let [message, suggestion] = IN_PROGRESS;
            Begin::InProgress(envelope(tool, key, code::CONFLICT, message, suggestion, format))
        }
    }
}

/// The outcome of the call whose [`Begin::Run`] stored `claim`: its
/// `CallToolResult` JSON, or `None` when the handler threw (the outcome is
/// unknown). [`Finish::Stored`] with the record to put in the claim's place,
/// or [`Finish::Released`] (remove the claim). The store replaces or removes
/// the key only while it still holds the claim. A result that is not a
/// `CallToolResult`, or a claim this module did not write, is refused.
pub fn finish_step(
    claim: &str,
    tool: &str,
    key: &str,
    result: Option<&str>,
    now_ms: u64,
    ttl_seconds: u32,
) -> Result<Finish, SpecError> {
    let running: Record = match serde_json::from_str(claim) {
        Ok(record @ Record { result: None, .. }) => record,
        _ => return crate::json::fail("the claim is not the record idempotency-begin gave for a call that runs"),
    };
    let stored = match result {
        Some(result) => {
            if !kept(result)? {
                return Ok(Finish::Released);
            }
            crate::json::compact(result)
        }
        None => {
            let [message, suggestion] = UNKNOWN_OUTCOME;
            envelope(tool, key, code::INTERNAL_ERROR, message, suggestion, Format::Xml)
        }
    };
    let ttl = ttl_ms(ttl_seconds);
    let record = Record {
        arguments: running.arguments,
        expires_at_ms: now_ms.saturating_add(ttl),
        result: RawValue::from_string(stored).ok(),
    };
    Ok(Finish::Stored(record.claim(ttl)))
}

/// The answer to a call whose key's store could not be read or written
/// (down, timed out): a retryable SERVER_BUSY saying the write did not run.
///
/// ```
/// use mcp_envelope::idempotency::unavailable;
/// use mcp_envelope::Format;
/// assert!(unavailable("refund", "k-1", Format::Text).contains("error_code: SERVER_BUSY"));
/// ```
pub fn unavailable(tool: &str, key: &str, format: Format) -> String {
    let [message, suggestion] = UNAVAILABLE;
    envelope(tool, key, code::SERVER_BUSY, message, suggestion, format)
}

/// The store in memory; see the module documentation. One per server
/// (keys are the client's, so a replay may come on another session); for
/// servers that run as replicas, keep the records in a shared store instead.
#[derive(Debug, Clone)]
pub struct Idempotency {
    capacity: usize,
    ttl_seconds: u32,
    records: BTreeMap<String, String>,
    /// Store keys, oldest first: the first to go when the store is full.
    order: VecDeque<String>,
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

    /// A store of at most `capacity` keys (when full, the key claimed first
    /// goes first), each kept `ttl_seconds` (0 reads as 1 for both: a store
    /// that keeps nothing protects nothing).
    pub fn new(capacity: u32, ttl_seconds: u32) -> Idempotency {
        Idempotency {
            capacity: capacity.max(1) as usize,
            ttl_seconds: ttl_seconds.max(1),
            records: BTreeMap::new(),
            order: VecDeque::new(),
        }
    }

    /// How many keys are held (running or stored), expired ones included.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// Whether no key is held.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// A call of `tool` with `key` and `arguments` at `now_ms`
    /// ([`begin_step`]); a claim is stored at once.
    pub fn begin(&mut self, tool: &str, key: &str, arguments: &ToolArguments, now_ms: u64, format: Format) -> Begin {
        let store_key = idempotency_key(tool, key);
        let stored = self.records.get(&store_key).map(String::as_str);
        let begun = begin_step(stored, tool, key, arguments, now_ms, self.ttl_seconds, format);
        if let Begin::Run(claim) = &begun {
            if self.records.insert(store_key.clone(), claim.record.clone()).is_some() {
                self.order.retain(|k| *k != store_key);
            }
            self.order.push_back(store_key);
            while self.records.len() > self.capacity {
                if let Some(oldest) = self.order.pop_front() {
                    self.records.remove(&oldest);
                }
            }
        }
        begun
    }

    /// The outcome of the call that `begin` let run ([`finish_step`]);
    /// [`Finish::Absent`] when no call with that key is running (never
    /// begun, finished, or evicted). A result that is not a
    /// `CallToolResult` is refused, and the call stays running.
    pub fn finish(&mut self, tool: &str, key: &str, result: Option<&str>, now_ms: u64) -> Result<Finish, SpecError> {
        let store_key = idempotency_key(tool, key);
        let running = self
            .records
            .get(&store_key)
            .filter(|record| serde_json::from_str::<Record>(record).is_ok_and(|r| r.result.is_none()));
        let Some(claim) = running else {
            return Ok(Finish::Absent);
        };
        let finished = finish_step(claim, tool, key, result, now_ms, self.ttl_seconds)?;
        match &finished {
            Finish::Stored(record) => {
                self.records.insert(store_key, record.record.clone());
            }
            _ => {
                self.records.remove(&store_key);
                self.order.retain(|k| *k != store_key);
            }
        }
        Ok(finished)
    }
}

/// `"record":<text as a JSON string>,"ttlMs":N`, a claim's members in an answer.
fn push_claim(out: &mut String, claim: &Claim) {
    out.push_str(",\"record\":");
    push_json_string(out, &claim.record);
    out.push_str(",\"ttlMs\":");
    out.push_str(&claim.ttl_ms.to_string());
}

/// A call's arguments as the idempotency store and the repeat ledger compare
/// them: by their [`digest`], so object members in any order are the same
/// arguments, and numbers compare in the core's one spelling (`1` and `1.0`
/// are one number).
///
/// ```
/// use mcp_envelope::idempotency::ToolArguments;
/// let held = serde_json::json!({"b": [2], "a": 1});
/// assert_eq!(ToolArguments::from_value(&held), ToolArguments::from_json(r#"{ "a": 1.0, "b": [2] }"#).unwrap());
/// assert!(ToolArguments::from_json("{oops").is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolArguments {
    digest: String,
}

impl ToolArguments {
    /// ToolArguments as JSON text, such as the model's own (numbers as written);
    /// a text that is not JSON is refused.
    pub fn from_json(text: &str) -> Result<ToolArguments, SpecError> {
        Ok(ToolArguments { digest: digest(text)? })
    }

    /// ToolArguments a Rust caller holds: rmcp's `JsonObject` as
    /// `Value::Object`, or any value. Never refused.
    pub fn from_value(value: &serde_json::Value) -> ToolArguments {
        match crate::json::Value::from_serde(value, MAX_DEPTH) {
            Some(value) => ToolArguments::from_canonical(value),
            // Deeper than the core reads: its text, cut there as any text is.
            None => ToolArguments {
                digest: digest_of(&canonical(&value.to_string()).unwrap_or_default()),
            },
        }
    }

    fn from_canonical(value: crate::json::Value) -> ToolArguments {
        ToolArguments {
            digest: digest_of(&to_json(&value.into_canonical())),
        }
    }

    /// An arguments object a Rust caller holds (rmcp's `JsonObject`).
    pub fn from_object(object: &serde_json::Map<String, serde_json::Value>) -> ToolArguments {
        // One level down, so the object itself is not copied into a `Value`.
        let members = object
            .iter()
            .map(|(key, item)| Some((key.clone(), crate::json::Value::from_serde(item, MAX_DEPTH - 1)?)))
            .collect::<Option<crate::json::Map>>();
        match members {
            Some(members) => ToolArguments::from_canonical(crate::json::Value::Object(members)),
            None => ToolArguments::from_value(&serde_json::Value::Object(object.clone())),
        }
    }

    /// The [`digest`]: what a stored record keeps.
    pub fn digest(&self) -> &str {
        &self.digest
    }
}

/// Whether two calls have the same arguments, as a short text: the first
/// 128 bits of the SHA-256 of their [`canonical`] form, in lowercase hex.
/// The idempotency store and the repeat ledger compare arguments by it.
///
/// ```
/// use mcp_envelope::idempotency::digest;
/// assert_eq!(digest(r#"{"a":1,"b":[2]}"#), digest(r#"{ "b": [2], "a": 1 }"#));
/// assert_eq!(digest(r#"{"a":1}"#), digest(r#"{"a":1.0}"#));
/// assert_eq!(digest("{}").unwrap().len(), 32);
/// ```
pub fn digest(arguments: &str) -> Result<String, SpecError> {
    Ok(digest_of(&canonical(arguments)?))
}

fn digest_of(canonical: &str) -> String {
    Sha256::digest(canonical.as_bytes())[..16]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What [`idempotency_begin_json`] and [`idempotency_finish_json`] write,
/// member by member, as shapes for the schema alone: the wrappers'
/// `IdempotencyBeginAnswer` (an `IdempotencyRun` or an `IdempotencyInstead`,
/// told apart by `outcome`) and `IdempotencyFinishAnswer` (an
/// `IdempotencyStored` or an `IdempotencyNotStored`, told apart by
/// `finished`). `wire_schema`'s tests validate the shared vectors' answers
/// against them, and hold their outcomes to [`Begin::outcome`] and
/// [`Finish::as_str`], so they cannot drift from the writers.
#[cfg(feature = "schema")]
#[allow(dead_code)] // never built: their schemas are all they are for
pub mod shapes {
    use schemars::JsonSchema;
    use serde_json::{Map, Value};

    /// A new key: run the write, storing `record` under the key for `ttlMs`
    /// first, then report its outcome with `idempotency-finish`.
    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    #[schemars(rename = "IdempotencyRun")]
    #[doc(hidden)]
    pub struct Run {
        #[schemars(extend("const" = "run"))]
        outcome: String,
        /// The claim: the record that marks the call running, stored as it is.
        record: String,
        /// How long the store keeps the record, in milliseconds.
        ttl_ms: u64,
    }

    /// Do not run the write: send `result` instead. `replay`: the key's
    /// stored outcome, exactly as first sent; `reused`: the key was used for
    /// other arguments (a VALIDATION_ERROR); `in-progress`: the key's first
    /// call is still running (a retryable CONFLICT); `invalid-key`: the key
    /// is empty or too long (a VALIDATION_ERROR); `unavailable`: the store
    /// could not be reached, or the step trapped (a retryable SERVER_BUSY).
    #[derive(JsonSchema)]
    #[schemars(rename = "IdempotencyInstead")]
    #[doc(hidden)]
    pub struct Instead {
        #[schemars(extend("enum" = ["replay", "reused", "in-progress", "invalid-key", "unavailable"]))]
        outcome: String,
        /// The repeat ledger's step for `result`: `observe` for a reused or
        /// invalid key (the call's own mistake); `none` for a replay, the
        /// in-progress CONFLICT and the store's SERVER_BUSY, which are no
        /// failure of the call itself: send `result` without a ledger step,
        /// so the tool's streak is neither counted nor ended.
        #[schemars(extend("enum" = ["observe", "none"]))]
        ledger: String,
        /// The `CallToolResult` to send instead.
        result: Map<String, Value>,
    }

    /// What a call with a key does (`idempotency-begin`).
    #[derive(JsonSchema)]
    #[serde(untagged)]
    #[schemars(rename = "IdempotencyBeginAnswer")]
    #[allow(missing_docs)] // each variant is named after the shape it holds
    pub enum BeginAnswer {
        Run(Run),
        Instead(Instead),
    }

    /// Kept: a call with the same key replays it. `record` replaces the
    /// claim in the store, for `ttlMs`.
    #[derive(JsonSchema)]
    #[serde(rename_all = "camelCase")]
    #[schemars(rename = "IdempotencyStored")]
    #[doc(hidden)]
    pub struct Stored {
        #[schemars(extend("const" = "stored"))]
        finished: String,
        /// The key's record, its outcome in it, stored as it is.
        record: String,
        /// How long the store keeps the record, in milliseconds.
        ttl_ms: u64,
    }

    /// Nothing stored. `released`: a retryable failure or a validation
    /// envelope, the key is free again and a retry with it runs; `absent`:
    /// no call with this key was running (never begun, expired or evicted);
    /// `kept`: the step trapped, so the claim stays until it expires and the
    /// key never runs twice.
    #[derive(JsonSchema)]
    #[schemars(rename = "IdempotencyNotStored")]
    #[doc(hidden)]
    pub struct NotStored {
        #[schemars(extend("enum" = ["released", "absent", "kept"]))]
        finished: String,
    }

    /// What became of a call's outcome (`idempotency-finish`).
    #[derive(JsonSchema)]
    #[serde(untagged)]
    #[schemars(rename = "IdempotencyFinishAnswer")]
    #[allow(missing_docs)] // each variant is named after the shape it holds
    pub enum FinishAnswer {
        Stored(Stored),
        NotStored(NotStored),
    }
}

/// An `idempotency-begin` request as written.
#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    rename_all = "camelCase",
    expecting = "an idempotency-begin request object"
)]
struct BeginRequest {
    tool: String,
    key: String,
    arguments: Option<Box<RawValue>>,
    /// The arguments as the text a host holds (the model's own), read here.
    arguments_text: Option<String>,
    now_ms: u64,
    /// The key's stored record as the store gave it; absent or `null` when none.
    stored: Option<String>,
    /// The store failed (down, timed out): answer without it.
    #[serde(default)]
    store_failed: bool,
    ttl_seconds: Option<u32>,
    format: Option<Format>,
}

/// The JSON entry point behind `mcp_envelope::raw::idempotency_begin`.
#[inline]
pub fn idempotency_begin_json(request: &str) -> Result<String, SpecError> {
    let request: BeginRequest = read_input(request, "the idempotency-begin request")?;
    let format = request.format.unwrap_or(Format::Xml);
    let arguments = match (&request.arguments, &request.arguments_text) {
        (Some(raw), None) => raw.get(),
        (None, Some(text)) => text.as_str(),
        (None, None) => {
            return crate::json::missing(
                "missing \"arguments\": the call's arguments (or \"argumentsText\", their text)",
            )
        }
        _ => return crate::json::fail("give the arguments once: \"arguments\" or \"argumentsText\""),
    };
    let arguments = ToolArguments::from_json(arguments)?;
    if request.store_failed {
        // The key's validity comes first: a broken key is the model's to fix.
        let begun = begin_step(None, &request.tool, &request.key, &arguments, 0, 1, format);
        if let Begin::InvalidKey(_) = begun {
            return Ok(begun.to_json());
        }
        return Ok(Begin::Unavailable(unavailable(&request.tool, &request.key, format)).to_json());
    }
    let ttl_seconds = request.ttl_seconds.unwrap_or(Idempotency::DEFAULT_TTL_SECONDS);
    let begun = begin_step(
        request.stored.as_deref(),
        &request.tool,
        &request.key,
        &arguments,
        request.now_ms,
        ttl_seconds,
        format,
    );
    Ok(begun.to_json_with(true))
}

/// An `idempotency-finish` request as written.
#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    rename_all = "camelCase",
    expecting = "an idempotency-finish request object"
)]
struct FinishRequest {
    tool: String,
    key: String,
    claim: String,
    /// The handler's `CallToolResult`; `null` when it threw.
    result: Option<Box<RawValue>>,
    now_ms: u64,
    ttl_seconds: Option<u32>,
}

/// The JSON entry point behind `mcp_envelope::raw::idempotency_finish`.
#[inline]
pub fn idempotency_finish_json(request: &str) -> Result<String, SpecError> {
    let request: FinishRequest = read_input(request, "the idempotency-finish request")?;
    let ttl_seconds = request.ttl_seconds.unwrap_or(Idempotency::DEFAULT_TTL_SECONDS);
    let result = request.result.as_ref().map(|r| r.get());
    let finished = finish_step(
        &request.claim,
        &request.tool,
        &request.key,
        result,
        request.now_ms,
        ttl_seconds,
    )?;
    let mut out = String::from("{\"finished\":");
    push_json_string(&mut out, finished.as_str());
    if let Finish::Stored(record) = &finished {
        push_claim(&mut out, record);
    }
    out.push('}');
    Ok(out)
}

/// Whether an outcome is kept: everything but a retryable `<tool_error>`
/// and a `<validation_error>`, the two that say no write happened.
fn kept(result: &str) -> Result<bool, SpecError> {
    let read = read_tool_result(result, false)?;
    if !read.is_error {
        return Ok(true);
    }
    Ok(match read_unwrapped(&read.text) {
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
    } else if code == code::SERVER_BUSY {
        error.retry_after = Some(5);
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

/// The store could not be reached.
const UNAVAILABLE: [&str; 2] = [
    "The server could not use its idempotency store, so this call did not run: nothing was written.",
    "Wait 5 seconds, then make the same call with the same key.",
];

/// A handler that threw: what a replay says.
const UNKNOWN_OUTCOME: [&str; 2] = [
    "The first call with this idempotency key failed inside the server before its outcome was known, so it is not run again: the change may or may not have been made.",
    "Do not retry with this key. Check whether the change was made (look it up), then tell the user; use a new key only for a request you know did not happen.",
];

/// The canonical form of a JSON text, compact: the core's one canonical JSON
/// (object keys sorted by code point, each once with its last value, every
/// number in one spelling, strings as serde_json writes them). ToolArguments of any depth are taken, each array or object past
/// `limits::MAX_DEPTH` levels as its cut marker (`"… [N characters cut]"`),
/// so two calls that differ only that deep, in values of the same length,
/// compare as the same arguments.
///
/// ```
/// use mcp_envelope::idempotency::canonical;
/// assert_eq!(canonical(r#"{ "b": [1.0, {"y":2,"x":1e2}], "a": "é" }"#).unwrap(), r#"{"a":"é","b":[1,{"x":100,"y":2}]}"#);
/// assert!(canonical("{oops").unwrap_err().message().starts_with("the arguments are not JSON: "));
/// let deep = format!("{}{}", "[".repeat(5000), "]".repeat(5000));
/// let shown = format!("{}\"… [9872 characters cut]\"{}", "[".repeat(64), "]".repeat(64));
/// assert_eq!(canonical(&deep).unwrap(), shown);
/// ```
pub fn canonical(arguments: &str) -> Result<String, SpecError> {
    let value = parse_content(arguments, MAX_DEPTH)
        .map_err(|e| SpecError::not_json(format!("the arguments are not JSON: {e}")))?;
    Ok(to_json(&value.into_canonical()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> ToolArguments {
        ToolArguments::from_json(text).unwrap()
    }

    const OK: &str = r#"{"content":[{"type":"text","text":"done"}],"isError":false}"#;
    const LIMITED: &str =
        r#"{"content":[{"type":"text","text":"error_code: RATE_LIMITED\nwhat_failed: slow down"}],"isError":true}"#;

    #[test]
    fn a_retryable_failure_frees_the_key() {
        let mut s = Idempotency::default();
        assert!(matches!(s.begin("t", "k", &args("{}"), 0, Format::Xml), Begin::Run(_)));
        assert_eq!(s.finish("t", "k", Some(LIMITED), 1), Ok(Finish::Released));
        assert!(matches!(s.begin("t", "k", &args("{}"), 2, Format::Xml), Begin::Run(_)));
        assert!(matches!(s.finish("t", "k", Some(OK), 3), Ok(Finish::Stored(_))));
        assert_eq!(s.finish("t", "k", Some(OK), 4), Ok(Finish::Absent));
    }

    #[test]
    fn keys_expire_and_the_oldest_goes_first() {
        let mut s = Idempotency::new(2, 1);
        for key in ["a", "b", "c"] {
            assert!(matches!(s.begin("t", key, &args("1"), 0, Format::Xml), Begin::Run(_)));
            s.finish("t", key, Some(OK), 0).unwrap();
        }
        assert_eq!(s.len(), 2);
        // "a" was evicted; running it again evicts "b".
        assert!(matches!(s.begin("t", "a", &args("1"), 10, Format::Xml), Begin::Run(_)));
        assert!(matches!(
            s.begin("t", "c", &args("1"), 999, Format::Xml),
            Begin::Replay(_)
        ));
        assert!(matches!(
            s.begin("t", "c", &args("1"), 1000, Format::Xml),
            Begin::Run(_)
        ));
        // Another tool's key of the same name is another entry.
        assert!(matches!(
            s.begin("u", "b", &args("1"), 1000, Format::Xml),
            Begin::Run(_)
        ));
    }

    #[test]
    fn a_result_that_is_not_one_is_refused_and_the_call_stays_running() {
        let mut s = Idempotency::default();
        s.begin("t", "k", &args("{}"), 0, Format::Xml);
        assert!(s.finish("t", "k", Some("[]"), 0).is_err());
        assert!(matches!(
            s.begin("t", "k", &args("{}"), 0, Format::Xml),
            Begin::InProgress(_)
        ));
    }

    #[test]
    fn a_claim_is_stored_only_where_the_key_is_free() {
        let run = begin_step(None, "t", "k", &args(r#"{"b":1,"a":2}"#), 5, 60, Format::Xml);
        let Begin::Run(claim) = run else { panic!("{run:?}") };
        assert_eq!(claim.ttl_ms, 60_000);
        // Another replica reading the claim: in progress, and after it expires, free.
        let again = begin_step(
            Some(&claim.record),
            "t",
            "k",
            &args(r#"{"a":2,"b":1}"#),
            6,
            60,
            Format::Xml,
        );
        assert!(matches!(again, Begin::InProgress(_)));
        assert!(matches!(
            begin_step(Some(&claim.record), "t", "k", &args("{}"), 60_005, 60, Format::Xml),
            Begin::Run(_)
        ));
        let Finish::Stored(done) = finish_step(&claim.record, "t", "k", Some(OK), 7, 60).unwrap() else {
            panic!()
        };
        let replay = begin_step(
            Some(&done.record),
            "t",
            "k",
            &args(r#"{"a":2,"b":1}"#),
            8,
            60,
            Format::Xml,
        );
        assert_eq!(replay, Begin::Replay(OK.to_owned()));
        assert!(finish_step(&done.record, "t", "k", Some(OK), 9, 60).is_err());
        // A record that is not one of ours guards nothing: the write does not run.
        assert!(matches!(
            begin_step(Some("garbage"), "t", "k", &args("{}"), 0, 60, Format::Xml),
            Begin::Unavailable(_)
        ));
    }
}
