//! A [`StateStore`] in Redis (the `redis` feature), for servers that run as
//! replicas. A conditional write is one Lua script ([`COMPARE_AND_SET_SCRIPT`]), so claiming a key is one
//! atomic step on the Redis server; keys expire by Redis's own `PX`. A
//! connection error or a timeout is [`StoreUnavailable`]: the write does not run.

use redis::aio::ConnectionManager;
use redis::Script;

use super::{StateStore, StoreUnavailable, COMPARE_AND_SET_SCRIPT};

/// Records in Redis under `prefix` + the core's store key, through a
/// [`ConnectionManager`] (which reconnects by itself; give it a response
/// timeout so that a Redis that hangs is unavailable rather than a hang).
#[derive(Clone)]
pub struct RedisStore {
    connection: ConnectionManager,
    prefix: String,
    script: Script,
}

impl std::fmt::Debug for RedisStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisStore")
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

impl RedisStore {
    /// A store over `connection`, its keys under `prefix`.
    pub fn new(connection: ConnectionManager, prefix: impl Into<String>) -> RedisStore {
        RedisStore {
            connection,
            prefix: prefix.into(),
            script: Script::new(COMPARE_AND_SET_SCRIPT),
        }
    }
}

fn unavailable(e: redis::RedisError) -> StoreUnavailable {
    StoreUnavailable(format!("redis: {e}"))
}

impl StateStore for RedisStore {
    async fn get(&self, key: &str) -> Result<Option<String>, StoreUnavailable> {
        let mut connection = self.connection.clone();
        redis::cmd("GET")
            .arg(format!("{}{key}", self.prefix))
            .query_async(&mut connection)
            .await
            .map_err(unavailable)
    }

    async fn compare_and_set(
        &self,
        key: &str,
        expected: Option<&str>,
        value: Option<&str>,
        ttl_ms: u64,
    ) -> Result<bool, StoreUnavailable> {
        let mut connection = self.connection.clone();
        let done: i64 = self
            .script
            .key(format!("{}{key}", self.prefix))
            .arg(if expected.is_some() { "1" } else { "0" })
            .arg(expected.unwrap_or_default())
            .arg(if value.is_some() { "1" } else { "0" })
            .arg(value.unwrap_or_default())
            .arg(ttl_ms.max(1))
            .invoke_async(&mut connection)
            .await
            .map_err(unavailable)?;
        Ok(done == 1)
    }
}
