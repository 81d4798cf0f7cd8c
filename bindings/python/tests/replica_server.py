"""One replica of a write server for test_replicas.py: EnvelopeMCPServer over Streamable HTTP on loopback, its
refund tool made idempotent by SharedIdempotency over Redis, every result going through the SharedLedger of the
conversation the client names, there too. Each write counts itself in Redis (`<run>:writes`), so the test sees how
many ran across every replica.

    replica_server.py PORT REDIS_PORT RUN TTL_SECONDS TIMEOUT_MS
"""

from __future__ import annotations

import asyncio
import logging
import sys

import uvicorn
from redis.asyncio import Redis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

import mcp_envelope as me
from mcp_envelope.mcp_server import EnvelopeMCPServer, LedgerRequest
from mcp_envelope.redis import RedisStore
from mcp_envelope.stores import SharedIdempotency, SharedLedger

logging.getLogger("mcp").setLevel(logging.WARNING)  # the SDK's per-session lines
port, redis_port, run, ttl, timeout_ms = (
    int(sys.argv[1]),
    int(sys.argv[2]),
    sys.argv[3],
    int(sys.argv[4]),
    int(sys.argv[5]),
)
# One immediate retry (a pooled connection Redis closed), no backoff; the socket timeouts are longer than the
# store's, so that what bounds a call is the store's timeout.
redis = Redis(
    host="127.0.0.1", port=redis_port, socket_timeout=5, socket_connect_timeout=5, retry=Retry(NoBackoff(), 1)
)
store = RedisStore(redis, prefix=f"{run}:", timeout_ms=timeout_ms)
shared = SharedIdempotency(store, ttl_seconds=ttl)


def ledger(request: LedgerRequest) -> SharedLedger | None:
    """The ledger of the conversation the client names (else its session's): none for a call in neither."""
    return None if request.conversation is None else SharedLedger(store, request.conversation)


server = EnvelopeMCPServer("billing-replica", ledger=ledger)


@server.tool()
@shared.idempotent()
async def refund_order(order_id: str, amount_cents: int, idempotency_key: str | None = None) -> me.ToolResult:
    writes = await redis.incr(f"{run}:writes")
    await asyncio.sleep(0.3)  # a write that takes a while, so that concurrent calls meet it in flight
    text = f"Refunded {amount_cents} cents on order {order_id} (write {writes}, replica {port})."
    return me.ToolResult({"content": [{"type": "text", "text": text}], "isError": False})


@server.tool()
async def get_invoice(id: str) -> me.ToolResult:
    raise me.ToolError("NOT_FOUND", f"No invoice {id}")


uvicorn.run(server.streamable_http_app(), host="127.0.0.1", port=port, log_level="warning")
