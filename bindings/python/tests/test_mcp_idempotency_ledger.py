"""The repeat ledger and the idempotency store together in the real `mcp` SDK: a client that retries exactly as the
in-progress CONFLICT says (the same call, the same key, while the first call still runs) is never told to stop by
the ledger, the write runs once, and the stored outcome replays byte for byte in the same session. The in-memory
stores and the shared ones over a MemoryStore give the same bytes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp.client._memory import InMemoryTransport

import mcp_envelope as me
from mcp_envelope.mcp_server import EnvelopeMCPServer
from mcp_envelope.server import Idempotency, Ledger
from mcp_envelope.stores import MemoryStore, SharedIdempotency, SharedLedger

ARGS = {"order_id": "A-8812", "amount_cents": 3200, "idempotency_key": "refund-A-8812-1"}

IN_PROGRESS = {
    "content": [{"type": "text", "text": (
        '<tool_error code="CONFLICT" severity="error">\n'
        "  <message>The first call with this idempotency key is still in progress, so this call did not run.</message>\n"
        "  <recovery>Wait 2 seconds, then make the same call with the same key: it will return the first call's"
        " outcome.</recovery>\n"
        "  <details>\n"
        '    <detail key="tool">refund_order</detail>\n'
        '    <detail key="idempotencyKey">refund-A-8812-1</detail>\n'
        "  </details>\n"
        "  <retry_after>2 seconds</retry_after>\n"
        "  <category>transient</category>\n"
        "  <retryable>true</retryable>\n"
        "</tool_error>"
    )}],
    "isError": True,
}  # fmt: skip

# The write's outcome: a business refusal, not retryable, so it is stored and replayed.
REFUSED = {
    "content": [{"type": "text", "text": (
        '<tool_error code="REFUND_WINDOW_CLOSED" severity="error">\n'
        "  <message>Order A-8812 was paid 120 days ago; refunds close after 90.</message>\n"
        "  <category>business</category>\n"
        "  <retryable>false</retryable>\n"
        "</tool_error>"
    )}],
    "isError": True,
}  # fmt: skip

STOP = (
    '<tool_error code="NOT_FOUND" severity="critical">\n'
    "  <message>Stop retrying: this call has failed the same way 3 times in a row and nothing has changed.</message>\n"
    "  <recovery>Do not make this call again. Tell the user what failed and that retrying did not help.</recovery>\n"
    "</tool_error>"
)

STATE: list[tuple[str, Callable[[], Any], Callable[[], Any]]] = [
    ("memory", Idempotency, Ledger),
    ("shared", lambda: SharedIdempotency(MemoryStore()), lambda: SharedLedger(MemoryStore(), "session-1")),
]


def sent(result: Any) -> dict[str, Any]:
    """What the tool said: the result's content and isError (the SDK adds its own `_meta` and `resultType`)."""
    dumped = result.model_dump(mode="json", by_alias=True, exclude_none=True)
    return {"content": dumped["content"], "isError": dumped["isError"]}


@pytest.mark.parametrize(("kind", "make_store", "make_ledger"), STATE, ids=[kind for kind, _, _ in STATE])
def test_retrying_as_the_conflict_says_never_meets_the_stop(
    kind: str, make_store: Callable[[], Any], make_ledger: Callable[[], Any]
) -> None:
    server = EnvelopeMCPServer("billing", ledger=make_ledger())
    store = make_store()
    writes: list[str] = []
    released = anyio.Event()

    @server.tool()
    @store.idempotent()
    async def refund_order(order_id: str, amount_cents: int, idempotency_key: str) -> me.ToolResult:
        """Refunds once per key."""
        writes.append(order_id)
        await released.wait()
        error = me.ToolError("REFUND_WINDOW_CLOSED", f"Order {order_id} was paid 120 days ago; refunds close after 90.")
        return error.with_category("business").with_retryable(False).to_result()

    @server.tool()
    async def get_invoice(id: str) -> me.ToolResult:
        """Never finds one."""
        return me.tool_error("NOT_FOUND", f"No invoice {id}")

    async def go() -> None:
        async with Client(InMemoryTransport(server)) as client:
            # The ledger is on: the third identical failure of a call is told to stop.
            lookups = [await client.call_tool("get_invoice", {"id": "inv_9"}) for _ in range(3)]
            assert lookups[2].content[0].text == STOP  # type: ignore[union-attr]
            first: list[Any] = []

            async def call_first() -> None:
                first.append(await client.call_tool("refund_order", ARGS))

            async with anyio.create_task_group() as tasks:
                tasks.start_soon(call_first)
                while not writes:
                    await anyio.sleep(0.001)
                # While the first call runs: five retries, each the same CONFLICT, none told to stop.
                for _ in range(5):
                    assert sent(await client.call_tool("refund_order", ARGS)) == IN_PROGRESS
                released.set()
            assert sent(first[0]) == REFUSED
            # The stored outcome, replayed: the first call's bytes each time, never "Nothing has changed".
            for _ in range(3):
                replay = await client.call_tool("refund_order", ARGS)
                assert replay.model_dump_json(by_alias=True, exclude_none=True) == first[0].model_dump_json(
                    by_alias=True, exclude_none=True
                )

    anyio.run(go)
    assert writes == ["A-8812"]
