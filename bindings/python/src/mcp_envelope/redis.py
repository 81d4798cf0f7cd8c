"""A `StateStore` in Redis (`redis.asyncio`), for servers that run as replicas (docs/state.md). Needs the `redis`
extra. A conditional write is one Lua script, so claiming a key is one atomic step on the Redis server; keys
expire by Redis's own `PX`. A connection or timeout error is `StoreUnavailable`: the write does not run.

    from redis.asyncio import Redis
    from mcp_envelope.redis import RedisStore
    from mcp_envelope.stores import SharedIdempotency

    store = SharedIdempotency(RedisStore(Redis(host="127.0.0.1", port=6379)))
"""

from __future__ import annotations

from typing import Any

from ._integrations import require

require("redis", "mcp_envelope.redis", "redis")

from redis import exceptions as _redis_errors  # noqa: E402

from .stores import StoreUnavailable  # noqa: E402

# KEYS[1]; ARGV: whether a value is expected ("1"/"0"), the expected value, whether to write ("1") or remove
# ("0"), the value, its expiry in milliseconds.
_COMPARE_AND_SET = """
local current = redis.call('GET', KEYS[1])
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
"""


class RedisStore:
    """Records in Redis under `prefix` + the core's store key. `client` is a `redis.asyncio.Redis` (or cluster)
    client; give it a `socket_timeout` so that a Redis that hangs is unavailable rather than a hang."""

    def __init__(self, client: Any, *, prefix: str = "") -> None:
        self.client, self.prefix = client, prefix
        self._script = client.register_script(_COMPARE_AND_SET)

    async def get(self, key: str) -> str | None:
        try:
            value = await self.client.get(self.prefix + key)
        except (_redis_errors.ConnectionError, _redis_errors.TimeoutError) as e:
            raise StoreUnavailable(f"redis: {e}") from e
        return value.decode() if isinstance(value, bytes) else value

    async def compare_and_set(self, key: str, expected: str | None, value: str | None, ttl_ms: int) -> bool:
        args = ["0" if expected is None else "1", expected or "", "0" if value is None else "1", value or "",
                str(max(1, int(ttl_ms)))]  # fmt: skip
        try:
            return bool(await self._script(keys=[self.prefix + key], args=args))
        except (_redis_errors.ConnectionError, _redis_errors.TimeoutError) as e:
            raise StoreUnavailable(f"redis: {e}") from e
