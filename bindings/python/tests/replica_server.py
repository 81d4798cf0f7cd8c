"""One replica of a write server for test_replicas.py: EnvelopeMCPServer over Streamable HTTP on loopback, its
refund tool made idempotent by SharedIdempotency over Redis, its get_invoice failing through a SharedLedger there. Each write counts itself in Redis (`<run>:writes`),
so the test sees how many ran across every replica.

    replica_server.py PORT REDIS_PORT RUN TTL_SECONDS
"""

from __future__ import annotations

import asyncio
import logging
import sys

import uvicorn
from redis.asyncio import Redis

import mcp_envelope as me
from mcp_envelope.mcp_server import EnvelopeMCPServer
from mcp_envelope.redis import RedisStore
from mcp_envelope.stores import SharedIdempotency, SharedLedger

logging.getLogger("mcp").setLevel(logging.WARNING)  # the SDK's per-session lines
port, redis_port, run, ttl = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
redis = Redis(host="127.0.0.1", port=redis_port, socket_timeout=1, socket_connect_timeout=1)
store = RedisStore(redis, prefix=f"{run}:")
shared = SharedIdempotency(store, ttl_seconds=ttl)
# Every call of the test is one conversation; a server picks the scope from its own idea of one.
ledger = SharedLedger(store, "conversation-1")
server = EnvelopeMCPServer("billing-replica")


@server.tool()
@shared.idempotent()
async def refund_order(order_id: str, amount_cents: int, idempotency_key: str | None = None) -> me.ToolResult:
    writes = await redis.incr(f"{run}:writes")
    await asyncio.sleep(0.3)  # a write that takes a while, so that concurrent calls meet it in flight
    text = f"Refunded {amount_cents} cents on order {order_id} (write {writes}, replica {port})."
    return me.ToolResult({"content": [{"type": "text", "text": text}], "isError": False})


@server.tool()
async def get_invoice(id: str) -> me.ToolResult:
    return await ledger.failure("get_invoice", me.ToolError("NOT_FOUND", f"No invoice {id}"), arguments={"id": id})


uvicorn.run(server.streamable_http_app(), host="127.0.0.1", port=port, log_level="warning")
