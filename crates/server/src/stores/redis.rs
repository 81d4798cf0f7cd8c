//! A [`StateStore`] in Redis (the `redis` feature), for servers that run as
//! replicas. A conditional write is one Lua script ([`COMPARE_AND_SET_SCRIPT`]), so claiming a key is one
//! atomic step on the Redis server; keys expire by Redis's own `PX`. A
//! connection error, a timeout, or a call slower than the store's timeout is
//! [`StoreUnavailable`]: the write does not run.

use std::future::Future;
use std::time::Duration;

use redis::aio::ConnectionManager;
use redis::Script;

use super::{StateStore, StoreUnavailable, COMPARE_AND_SET_SCRIPT};

/// Records in Redis under `prefix` + the core's store key, through a
/// [`ConnectionManager`] (which reconnects by itself). A call that takes
/// longer than [`RedisStore::timeout`] (2 seconds unless set) counts as the
/// store being unavailable, whatever the manager's own response timeout and
/// reconnection retries would do, so a Redis that hangs is never a hang.
#[derive(Clone)]
pub struct RedisStore {
    connection: ConnectionManager,
    prefix: String,
    script: Script,
    timeout: Duration,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("prefix", &self.prefix)
            .field("timeout", &self.timeout)
            .finish_non_exhaustive()
    }
}

impl RedisStore {
    /// How long a call may take unless [`RedisStore::timeout`] says otherwise,
    /// the same as the JS and Python stores' `timeoutMs` / `timeout_ms`.
    pub const DEFAULT_TIMEOUT: Duration = Duration::from_millis(2_000);

    /// A store over `connection`, its keys under `prefix`.
    pub fn new(connection: ConnectionManager, prefix: impl Into<String>) -> RedisStore {
        RedisStore {
            connection,
            prefix: prefix.into(),
            script: Script::new(COMPARE_AND_SET_SCRIPT),
            timeout: Self::DEFAULT_TIMEOUT,
        }
    }

    /// How long a call may take before the store counts as unavailable (at
    /// least a millisecond: a store given no time at all is never available).
    pub fn timeout(mut self, timeout: Duration) -> RedisStore {
        self.timeout = timeout.max(Duration::from_millis(1));
        self
    }

    /// `work`, or [`StoreUnavailable`] when it fails or outlasts the timeout.
    async fn within<T>(
        &self,
        what: &str,
        work: impl Future<Output = redis::RedisResult<T>>,
    ) -> Result<T, StoreUnavailable> {
        match tokio::time::timeout(self.timeout, work).await {
            Ok(done) => done.map_err(|e| StoreUnavailable(format!("redis: {e}"))),
            Err(_) => Err(StoreUnavailable(format!(
                "redis: {what} took longer than {} ms",
                self.timeout.as_millis()
            ))),
        }
    }
}

impl StateStore for RedisStore {
    async fn get(&self, key: &str) -> Result<Option<String>, StoreUnavailable> {
        let mut connection = self.connection.clone();
        let key = format!("{}{key}", self.prefix);
        self.within("GET", redis::cmd("GET").arg(key).query_async(&mut connection))
            .await
    }

    async fn compare_and_set(
        &self,
        key: &str,
        expected: Option<&str>,
        value: Option<&str>,
        ttl_ms: u64,
    ) -> Result<bool, StoreUnavailable> {
        let mut connection = self.connection.clone();
        let mut invocation = self.script.key(format!("{}{key}", self.prefix));
        invocation
            .arg(if expected.is_some() { "1" } else { "0" })
            .arg(expected.unwrap_or_default())
            .arg(if value.is_some() { "1" } else { "0" })
            .arg(value.unwrap_or_default())
            .arg(ttl_ms.max(1));
        let done: i64 = self
            .within("the conditional write", invocation.invoke_async(&mut connection))
            .await?;
        Ok(done == 1)
    }
}
