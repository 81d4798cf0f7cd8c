"""The write path and in-call backoff in the real `mcp` SDK: an EnvelopeMCPServer whose refund tool is idempotent
(its write runs once per key) and whose flaky lookup is retried inside the call, driven by a client over memory
streams (JSON-RPC, so the progress is real `notifications/progress`) with a progress callback."""

from __future__ import annotations

import anyio
from mcp import Client
from mcp.client._memory import InMemoryTransport
from mcp.server.mcpserver import Context

import mcp_envelope as me
from mcp_envelope.agent import decide
from mcp_envelope.mcp_server import EnvelopeMCPServer
from mcp_envelope.server import Idempotency, retry_within

REFUNDS: list[tuple[str, int]] = []
CALLS = {"flaky": 0}


def billing() -> EnvelopeMCPServer:
    server = EnvelopeMCPServer("billing")
    store = Idempotency()

    @server.tool()
    @store.idempotent()
    async def refund_order(order_id: str, amount_cents: int, idempotency_key: str | None = None) -> me.ToolResult:
        """Refunds once per key."""
        REFUNDS.append((order_id, amount_cents))
        return me.ToolResult(
            {"content": [{"type": "text", "text": f"Refunded {amount_cents} cents on {order_id}."}], "isError": False}
        )

    def limited() -> me.ToolResult:
        return me.tool_error("RATE_LIMITED", "The payment provider is rate limiting refunds")

    @server.tool()
    async def flaky_lookup(ctx: Context) -> me.ToolResult:
        """Fails twice, then works."""

        def attempt() -> me.ToolResult:
            CALLS["flaky"] += 1
            ok = me.ToolResult({"content": [{"type": "text", "text": "invoice inv_9"}], "isError": False})
            return limited() if CALLS["flaky"] <= 2 else ok

        return await retry_within(attempt, deadline_ms=5000, ctx=ctx, base_ms=10)

    @server.tool()
    async def down_lookup(ctx: Context) -> me.ToolResult:
        """Never works."""
        return await retry_within(limited, deadline_ms=5000, ctx=ctx, base_ms=5, max_attempts=3)

    return server


def calls(server: EnvelopeMCPServer, *steps: tuple[str, dict]) -> tuple[list, list]:
    """The results of the calls over memory streams, and the progress the client saw: (progress, total, message)."""
    seen: list[tuple[float, float | None, str | None]] = []

    async def progress(value: float, total: float | None, message: str | None) -> None:
        seen.append((value, total, message))

    async def go() -> list:
        async with Client(InMemoryTransport(server)) as client:
            return [await client.call_tool(tool, arguments, progress_callback=progress) for tool, arguments in steps]

    return anyio.run(go), seen


def test_a_replay_gets_the_first_outcome_and_the_refund_runs_once() -> None:
    REFUNDS.clear()
    args = {"order_id": "A-8812", "amount_cents": 3200, "idempotency_key": "k-1"}
    (first, again, other, unkeyed), _ = calls(
        billing(), ("refund_order", args), ("refund_order", dict(reversed(list(args.items())))),
        ("refund_order", {**args, "amount_cents": 4500}), ("refund_order", {"order_id": "A-1", "amount_cents": 1}),
    )  # fmt: skip
    assert again.content == first.content and not again.is_error
    assert other.is_error and other.content[0].text.startswith(
        '<tool_error code="VALIDATION_ERROR" severity="error">\n'
        "  <message>This idempotency key was already used for a different request"
    )
    assert REFUNDS == [("A-8812", 3200), ("A-1", 1)]


def test_a_retryable_failure_is_retried_inside_the_call_and_seen_as_progress() -> None:
    CALLS["flaky"] = 0
    (result,), seen = calls(billing(), ("flaky_lookup", {}))
    assert result.content[0].text == "invoice inv_9" and not result.is_error
    assert seen == [
        (1, 4, "Attempt 1 of 4 failed (RATE_LIMITED); retrying in 10 ms."),
        (2, 4, "Attempt 2 of 4 failed (RATE_LIMITED); retrying in 20 ms."),
    ]


def test_when_the_attempts_run_out_the_result_is_terminal() -> None:
    (result,), seen = calls(billing(), ("down_lookup", {}))
    assert len(seen) == 2 and result.is_error
    assert result.content[0].text.startswith(
        '<tool_error code="RATE_LIMITED" severity="error">\n  <message>The payment provider is rate limiting refunds. '
        "3 attempts inside this call failed, within its 5 s budget.</message>\n  <recovery>Do not retry: "
    )
    assert decide(result)["branch"] == "stop-and-tell"
