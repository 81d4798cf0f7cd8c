"""A `StateStore` in Redis (`redis.asyncio`), for servers that run as replicas (docs/state.md). Needs the `redis`
extra. A conditional write is one Lua script, so claiming a key is one atomic step on the Redis server; keys
expire by Redis's own `PX`. A connection error, a timeout, or a call slower than `timeout_ms` is
`StoreUnavailable`: the write does not run.

    from redis.asyncio import Redis
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff
    from mcp_envelope.redis import RedisStore
    from mcp_envelope.stores import SharedIdempotency

    client = Redis(host="127.0.0.1", port=6379, retry=Retry(NoBackoff(), 1))
    store = SharedIdempotency(RedisStore(client, timeout_ms=2000))
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any, TypeVar

from ._integrations import require

require("redis", "mcp_envelope.redis", "redis")

from redis import exceptions as _redis_errors  # noqa: E402

from ._component import call  # noqa: E402
from .stores import StoreUnavailable  # noqa: E402

_T = TypeVar("_T")


class RedisStore:
    """Records in Redis under `prefix` + the core's store key. `client` is a `redis.asyncio.Redis` (or cluster)
    client. A call that takes longer than `timeout_ms` (2,000 ms by default) counts as the store being unavailable,
    whatever the client's own socket timeouts and retries would do: redis-py's default policy retries a refused
    connection three times with backoff, seconds in all, so give the client `retry=Retry(NoBackoff(), 1)` (one
    immediate retry, for a pooled connection that Redis closed) to hear at once that Redis is down."""

    def __init__(self, client: Any, *, prefix: str = "", timeout_ms: int = 2000) -> None:
        if isinstance(timeout_ms, bool) or not isinstance(timeout_ms, int) or timeout_ms < 1:
            raise ValueError(f"timeout_ms must be a whole number of milliseconds, at least 1, not {timeout_ms!r}")
        self.client, self.prefix, self.timeout_ms = client, prefix, timeout_ms
        # The core's conditional write (`compare-and-set-script`), the same text in every language.
        self._script = client.register_script(call("compare-and-set-script"))

    async def _within(self, what: str, work: Awaitable[_T]) -> _T:
        """`work`, or StoreUnavailable when it fails to reach Redis or takes longer than `timeout_ms`."""
        try:
            return await asyncio.wait_for(work, self.timeout_ms / 1000)
        except asyncio.TimeoutError as e:  # the builtin TimeoutError from 3.11 on, asyncio's own before
            raise StoreUnavailable(f"redis: {what} took longer than {self.timeout_ms} ms") from e
        except (_redis_errors.ConnectionError, _redis_errors.TimeoutError) as e:
            raise StoreUnavailable(f"redis: {e}") from e

    async def get(self, key: str) -> str | None:
        value = await self._within("GET", self.client.get(self.prefix + key))
        return value.decode() if isinstance(value, bytes) else value

    async def compare_and_set(self, key: str, expected: str | None, value: str | None, ttl_ms: int) -> bool:
        args = ["0" if expected is None else "1", expected or "", "0" if value is None else "1", value or "",
                str(max(1, int(ttl_ms)))]  # fmt: skip
        return bool(await self._within("the conditional write", self._script(keys=[self.prefix + key], args=args)))
