//! Idempotency keys and repeat-ledger streaks held in a store a server's
//! replicas share (docs/state.md). The core decides every step ([`begin_step`],
//! [`finish_step`], [`failure_step`], [`observe_step`]) and writes every record; a [`StateStore`] keeps them. A
//! store has two operations, the same in every language: `get`, and
//! `compare_and_set`, which writes (or removes) a key only if it still holds
//! what the caller read, with an expiry. Claiming a key is that one atomic
//! step, so two replicas racing on one key run the write once.
//! [`MemoryStore`] is one process's; `RedisStore` (the `redis` feature) is
//! shared.
//!
//! ```
//! use mcp_envelope::idempotency::ToolArguments;
//! use mcp_envelope::stores::{MemoryStore, SharedBegin, SharedIdempotency};
//! use mcp_envelope::Format;
//!
//! let shared = SharedIdempotency::new(MemoryStore::default(), 86_400);
//! # futures_lite_block_on(async {
//! let args = ToolArguments::from_json(r#"{"orderId":"A-1"}"#).unwrap();
//! let SharedBegin::Run(claim) = shared.begin("refund_order", "k-1", &args, 0, Format::Xml).await else { panic!() };
//! let refunded = r#"{"content":[{"type":"text","text":"Refunded"}],"isError":false}"#;
//! shared.finish("refund_order", "k-1", &claim, Some(refunded), 5).await.unwrap();
//! let again = shared.begin("refund_order", "k-1", &args, 9, Format::Xml).await;
//! assert_eq!(again, SharedBegin::Send("replay", refunded.to_owned()));
//! # });
//! # fn futures_lite_block_on<F: std::future::Future>(f: F) -> F::Output {
//! #     let waker = std::task::Waker::noop();
//! #     let mut cx = std::task::Context::from_waker(&waker);
//! #     let mut f = std::pin::pin!(f);
//! #     loop { if let std::task::Poll::Ready(out) = f.as_mut().poll(&mut cx) { return out; } }
//! # }
//! ```

#[cfg(all(feature = "redis", not(target_arch = "wasm32")))]
mod redis;
#[cfg(all(feature = "redis", not(target_arch = "wasm32")))]
pub use self::redis::RedisStore;

use std::collections::{BTreeMap, VecDeque};
use std::fmt;
use std::future::Future;
use std::sync::Mutex;
use std::time::Instant;

use crate::error::SpecError;
use crate::idempotency::{begin_step, finish_step, idempotency_key, unavailable, Begin, Finish, ToolArguments};
use crate::ledger::{failure_step, ledger_key, observe_step, Replacement, StreakChange, STREAK_TTL_SECONDS};
use crate::read::ResultText;
use crate::tool_error::model::ToolError;
use crate::tool_error::render::Format;

/// The conditional write as a Lua script for Redis and the stores that speak
/// its scripting (Valkey, KeyDB): `KEYS[1]` the key; `ARGV` whether a value is
/// expected (`"1"`/`"0"`), the expected value, whether to write (`"1"`) or
/// remove (`"0"`), the value, its expiry in milliseconds; it answers 1 when it
/// wrote. One script, run atomically by the server, so claiming a key is one
/// step. The same text in every language: the packages take it from the
/// component (`compare-and-set-script`).
pub const COMPARE_AND_SET_SCRIPT: &str = "local current = redis.call('GET', KEYS[1])
if ARGV[1] == '1' then
  if current ~= ARGV[2] then return 0 end
elseif current then
  return 0
end
if ARGV[3] == '1' then
  redis.call('SET', KEYS[1], ARGV[4], 'PX', ARGV[5])
else
  redis.call('DEL', KEYS[1])
end
return 1
";

/// The `_meta` key a client names its conversation with, from which the
/// integrations read the scope of a [`SharedLedger`] on a transport without
/// sessions (docs/state.md): the same in every language. It stays outside
/// the `io.modelcontextprotocol/` prefix, which the MCP specification
/// reserves.
pub const CONVERSATION_META_KEY: &str = "mcp-envelope/conversation";

/// A store could not answer (down, timed out): the write does not run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoreUnavailable(pub String);

impl fmt::Display for StoreUnavailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the store is unavailable: {}", self.0)
    }
}

impl std::error::Error for StoreUnavailable {}

/// Where records live: text under text keys, each with an expiry.
pub trait StateStore: Send + Sync {
    /// The text stored under `key`, if any.
    fn get(&self, key: &str) -> impl Future<Output = Result<Option<String>, StoreUnavailable>> + Send;

    /// Stores `value` under `key` for `ttl_ms` milliseconds (removes the key
    /// when `value` is `None`), only if the key holds `expected` now (`None`:
    /// holds nothing); whether it did. One atomic step.
    fn compare_and_set(
        &self,
        key: &str,
        expected: Option<&str>,
        value: Option<&str>,
        ttl_ms: u64,
    ) -> impl Future<Output = Result<bool, StoreUnavailable>> + Send;
}

/// One store for several holders (a [`SharedIdempotency`] and a
/// [`SharedLedger`] over one connection, or servers in one process).
impl<S: StateStore> StateStore for std::sync::Arc<S> {
    fn get(&self, key: &str) -> impl Future<Output = Result<Option<String>, StoreUnavailable>> + Send {
        S::get(self, key)
    }

    fn compare_and_set(
        &self,
        key: &str,
        expected: Option<&str>,
        value: Option<&str>,
        ttl_ms: u64,
    ) -> impl Future<Output = Result<bool, StoreUnavailable>> + Send {
        S::compare_and_set(self, key, expected, value, ttl_ms)
    }
}

/// A [`StateStore`] in this process's memory, behind a lock: at most
/// `capacity` keys, the first written going first.
#[derive(Debug)]
pub struct MemoryStore {
    capacity: usize,
    records: Mutex<Records>,
}

/// Each key's value and expiry, and the keys in the order they were first written.
type Records = (BTreeMap<String, (String, Instant)>, VecDeque<String>);

impl Default for MemoryStore {
    fn default() -> Self {
        MemoryStore::new(1_000)
    }
}

impl MemoryStore {
    /// A store of at most `capacity` keys (0 reads as 1).
    pub fn new(capacity: usize) -> MemoryStore {
        MemoryStore {
            capacity: capacity.max(1),
            records: Mutex::new((BTreeMap::new(), VecDeque::new())),
        }
    }

    fn current(records: &BTreeMap<String, (String, Instant)>, key: &str) -> Option<String> {
        records
            .get(key)
            .filter(|(_, expires)| *expires > Instant::now())
            .map(|(text, _)| text.clone())
    }
}

impl StateStore for MemoryStore {
    async fn get(&self, key: &str) -> Result<Option<String>, StoreUnavailable> {
        let guard = self.records.lock().unwrap_or_else(|p| p.into_inner());
        Ok(MemoryStore::current(&guard.0, key))
    }

    async fn compare_and_set(
        &self,
        key: &str,
        expected: Option<&str>,
        value: Option<&str>,
        ttl_ms: u64,
    ) -> Result<bool, StoreUnavailable> {
        let mut guard = self.records.lock().unwrap_or_else(|p| p.into_inner());
        let (records, order) = &mut *guard;
        if MemoryStore::current(records, key).as_deref() != expected {
            return Ok(false);
        }
        records.remove(key);
        order.retain(|k| k != key);
        if let Some(value) = value {
            let expires = Instant::now() + std::time::Duration::from_millis(ttl_ms);
            records.insert(key.to_owned(), (value.to_owned(), expires));
            order.push_back(key.to_owned());
            while records.len() > self.capacity {
                let Some(oldest) = order.pop_front() else { break };
                records.remove(&oldest);
            }
        }
        Ok(true)
    }
}

/// What [`SharedIdempotency::begin`] answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SharedBegin {
    /// Run the write, then [`SharedIdempotency::finish`] with this claim.
    Run(String),
    /// Send this `CallToolResult` JSON instead; the outcome's wire name
    /// (`replay`, `reused`, `in-progress`, `invalid-key`, `unavailable`) first.
    Send(&'static str, String),
}

/// What [`SharedIdempotency::finish`] did with an outcome.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SharedFinish {
    /// Stored in the claim's place: a replay gets it.
    Stored,
    /// A retryable failure: the claim removed, the key free again.
    Released,
    /// The key no longer held the claim (it expired and was claimed again).
    Absent,
    /// The store could not answer: the claim stays until it expires, so the
    /// key answers in-progress and the write never runs twice.
    Unstored,
}

/// How often a call that lost the race for a key reads it again before
/// answering as if the store were down.
const CLAIM_ATTEMPTS: usize = 3;

/// An idempotency store whose records live in a [`StateStore`], shared by
/// every replica that reaches it; see the module documentation.
#[derive(Debug)]
pub struct SharedIdempotency<S> {
    store: S,
    ttl_seconds: u32,
}

impl<S: StateStore> SharedIdempotency<S> {
    /// Keys kept `ttl_seconds` (0 reads as 1) in `store`.
    pub fn new(store: S, ttl_seconds: u32) -> SharedIdempotency<S> {
        SharedIdempotency { store, ttl_seconds }
    }

    /// The store.
    pub fn store(&self) -> &S {
        &self.store
    }

    /// A call of `tool` with `key` and `arguments` at `now_ms`: run it, or
    /// the result to send instead. A store that cannot answer gets the
    /// core's retryable SERVER_BUSY: the write does not run.
    pub async fn begin(
        &self,
        tool: &str,
        key: &str,
        arguments: &ToolArguments,
        now_ms: u64,
        format: Format,
    ) -> SharedBegin {
        let at = idempotency_key(tool, key);
        for _ in 0..CLAIM_ATTEMPTS {
            let Ok(stored) = self.store.get(&at).await else { break };
            let begun = begin_step(
                stored.as_deref(),
                tool,
                key,
                arguments,
                now_ms,
                self.ttl_seconds,
                format,
            );
            let Begin::Run(claim) = begun else {
                return SharedBegin::Send(begun.outcome(), begun.result().unwrap_or_default().to_owned());
            };
            match self
                .store
                .compare_and_set(&at, stored.as_deref(), Some(&claim.record), claim.ttl_ms)
                .await
            {
                Ok(true) => return SharedBegin::Run(claim.record),
                Ok(false) => continue,
                Err(_) => break,
            }
        }
        // A broken key is the model's to fix even when the store is down.
        let checked = begin_step(None, tool, key, arguments, 0, 1, format);
        if let Begin::InvalidKey(result) = checked {
            return SharedBegin::Send("invalid-key", result);
        }
        SharedBegin::Send("unavailable", unavailable(tool, key, format))
    }

    /// The outcome of the call whose `begin` answered run with `claim`: its
    /// `CallToolResult` JSON, or `None` when the handler panicked or failed.
    pub async fn finish(
        &self,
        tool: &str,
        key: &str,
        claim: &str,
        result: Option<&str>,
        now_ms: u64,
    ) -> Result<SharedFinish, SpecError> {
        let at = idempotency_key(tool, key);
        let (value, ttl_ms, finished) = match finish_step(claim, tool, key, result, now_ms, self.ttl_seconds)? {
            Finish::Stored(record) => (Some(record.record), record.ttl_ms, SharedFinish::Stored),
            _ => (None, 1, SharedFinish::Released),
        };
        Ok(
            match self
                .store
                .compare_and_set(&at, Some(claim), value.as_deref(), ttl_ms)
                .await
            {
                Ok(true) => finished,
                Ok(false) => SharedFinish::Absent,
                Err(_) => SharedFinish::Unstored,
            },
        )
    }
}

/// The repeat ledger of one conversation (`scope`: a session id, or what the
/// host calls a conversation), its streaks in a [`StateStore`], so that a
/// model repeating a failure on alternating replicas still meets the stop.
/// The ledger fails open: when the store cannot answer, or keeps changing
/// under it, the failure is sent as itself.
#[derive(Debug)]
pub struct SharedLedger<S> {
    store: S,
    scope: String,
    stop_after: u32,
}

impl<S: StateStore> SharedLedger<S> {
    /// The conversation `scope`'s ledger in `store`, saying stop after `stop_after` identical failures.
    pub fn new(store: S, scope: impl Into<String>, stop_after: u32) -> SharedLedger<S> {
        SharedLedger {
            store,
            scope: scope.into(),
            stop_after,
        }
    }

    /// One step on `tool`'s streak with the record the store holds, written
    /// back only while the streak is still the one read; `None` when the
    /// store cannot answer or keeps changing.
    async fn step<T>(&self, tool: &str, step: impl Fn(Option<&str>) -> (T, StreakChange)) -> Option<T> {
        let at = ledger_key(&self.scope, tool);
        for _ in 0..CLAIM_ATTEMPTS {
            let Ok(streak) = self.store.get(&at).await else {
                return None;
            };
            let (sent, change) = step(streak.as_deref());
            let written = match &change {
                StreakChange::Keep => return Some(sent),
                StreakChange::Set(record) => {
                    let ttl_ms = u64::from(STREAK_TTL_SECONDS) * 1000;
                    self.store
                        .compare_and_set(&at, streak.as_deref(), Some(record), ttl_ms)
                        .await
                }
                StreakChange::Delete => self.store.compare_and_set(&at, streak.as_deref(), None, 1).await,
            };
            match written {
                Ok(true) => return Some(sent),
                Ok(false) => continue,
                Err(_) => return None,
            }
        }
        None
    }

    /// The error to send for this failure of `tool` ([`crate::ledger::failure_step`]).
    pub async fn failure(&self, tool: &str, error: &ToolError, arguments: Option<&ToolArguments>) -> ToolError {
        let stop_after = self.stop_after;
        let sent = self
            .step(tool, |streak| failure_step(streak, error, arguments, stop_after))
            .await;
        sent.unwrap_or_else(|| failure_step(None, error, arguments, stop_after).0)
    }

    /// `None` to send a handler's result as it is, or what to send instead
    /// ([`crate::ledger::observe_step`]).
    pub async fn observe(
        &self,
        tool: &str,
        result: &ResultText,
        arguments: Option<&ToolArguments>,
    ) -> Option<Replacement> {
        let stop_after = self.stop_after;
        self.step(tool, |streak| observe_step(streak, result, arguments, stop_after))
            .await
            .flatten()
    }

    /// A success for `tool`: its streak ends (nothing happens when the store cannot answer).
    pub async fn success(&self, tool: &str) {
        let at = ledger_key(&self.scope, tool);
        if let Ok(Some(streak)) = self.store.get(&at).await {
            let _ = self.store.compare_and_set(&at, Some(&streak), None, 1).await;
        }
    }
}
