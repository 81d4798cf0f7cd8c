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

from ._component import call  # noqa: E402
from .stores import StoreUnavailable  # noqa: E402


class RedisStore:
    """Records in Redis under `prefix` + the core's store key. `client` is a `redis.asyncio.Redis` (or cluster)
    client; give it a `socket_timeout` so that a Redis that hangs is unavailable rather than a hang."""

    def __init__(self, client: Any, *, prefix: str = "") -> None:
        self.client, self.prefix = client, prefix
        # The core's conditional write (`compare-and-set-script`), the same text in every language.
        self._script = client.register_script(call("compare-and-set-script"))

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
