"""The agent host's side (docs/host-loop.md), end to end: `call_tool_with_recovery` over the mcp SDK's own `Client`,
against an `EnvelopeMCPServer` whose tools fail as upstreams do. The waits are recorded instead of slept; every answer
crosses the real client and server. The escalation record is the same bytes the TypeScript test expects."""

from __future__ import annotations

from collections import Counter
from typing import Any

import anyio
import pytest
from mcp import Client
from mcp_types import ToolAnnotations

import mcp_envelope as me
from mcp_envelope.agent import Recovered, call_tool_with_recovery
from mcp_envelope.mcp_server import EnvelopeMCPServer
from mcp_envelope.raw import host_step_json

RECORD = """<partial_result severity="error">
  <summary>Obtained 0 of 1 item; 1 failed.</summary>
  <task>call list_invoices: gave up after 3 calls, the most the budget allows</task>
  <failed>
    <failure item="list_invoices" code="RATE_LIMITED" category="transient" retryable="true" retry_after="1 second"/>
  </failed>
  <tried>
    <attempt>call 1: RATE_LIMITED (wait-and-retry), then waited 1000 ms</attempt>
    <attempt>call 2: RATE_LIMITED (wait-and-retry), then waited 1000 ms</attempt>
    <attempt>call 3: RATE_LIMITED (wait-and-retry)</attempt>
  </tried>
  <recovery>The failure is transient, but the retries the host allows are spent: try again later, or tell the user.</recovery>
</partial_result>"""
READ_ONLY = ToolAnnotations(read_only_hint=True)


def billing(calls: Counter[str]) -> EnvelopeMCPServer:
    server = EnvelopeMCPServer("billing")

    @server.tool(annotations=READ_ONLY)
    def get_invoice() -> str:
        """Two timeouts, then the invoice."""
        calls["get_invoice"] += 1
        if calls["get_invoice"] <= 2:
            raise me.ToolError("TIMEOUT", "The billing API did not answer within 10 s.")
        return "inv_1: 120.00 EUR, paid"

    @server.tool(annotations=READ_ONLY)
    def list_invoices() -> str:
        """Rate limited every time, with a stated wait."""
        calls["list_invoices"] += 1
        raise me.ToolError("RATE_LIMITED", "Too many lookups.", retry_after=1)

    @server.tool()
    def refund_order() -> str:
        """A write, neither read-only nor idempotent, that times out."""
        calls["refund_order"] += 1
        raise me.ToolError("TIMEOUT", "The billing API did not answer within 10 s.")

    @server.tool(annotations=READ_ONLY)
    def find_invoice() -> str:
        calls["find_invoice"] += 1
        raise me.ToolError("NOT_FOUND", "No invoice inv_9.", available_actions=["list_invoices"])

    return server


def recovered(name: str, *, listed: bool = True, **options: Any) -> tuple[Recovered, list[float], Counter[str]]:
    calls: Counter[str] = Counter()
    waits: list[float] = []

    async def record(seconds: float) -> None:
        waits.append(seconds)

    async def go() -> Recovered:
        async with Client(billing(calls)) as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            tool = tools.get(name) if listed else None
            return await call_tool_with_recovery(client, name, {}, tool=tool, sleep=record, **options)

    return anyio.run(go), waits, calls


def test_a_transient_failure_is_absorbed_without_a_model_turn():
    outcome, waits, calls = recovered("get_invoice")
    assert outcome["then"] == "done"
    assert outcome["result"]["content"] == [{"type": "text", "text": "inv_1: 120.00 EUR, paid"}]
    assert (waits, calls["get_invoice"]) == ([0.5, 1.0], 3)
    assert outcome["tried"] == [
        {"code": "TIMEOUT", "branch": "wait-and-retry", "waitedMs": 500},
        {"code": "TIMEOUT", "branch": "wait-and-retry", "waitedMs": 1000},
        {"branch": "accept"},
    ]


def test_a_failure_that_lasts_is_escalated_with_the_record_the_core_writes():
    outcome, waits, calls = recovered("list_invoices")
    assert (outcome["then"], waits, calls["list_invoices"]) == ("escalate", [1.0, 1.0], 3)
    assert outcome["result"]["isError"] is True
    assert outcome["result"]["content"][0]["text"] == RECORD


def test_a_write_neither_read_only_nor_idempotent_is_never_retried_blindly():
    outcome, waits, calls = recovered("refund_order")
    assert (outcome["then"], waits, calls["refund_order"]) == ("escalate", [], 1)
    assert "<attempt>call 1: TIMEOUT (verify-before-retry)</attempt>" in outcome["result"]["content"][0]["text"]
    unlisted, waits, calls = recovered("refund_order", listed=False, budget={"maxAttempts": 2})
    assert (unlisted["then"], waits, calls["refund_order"]) == ("escalate", [0.5], 2)


def test_what_only_the_model_can_fix_goes_to_the_model_as_it_came():
    outcome, waits, _ = recovered("find_invoice")
    assert (outcome["then"], waits, outcome["tried"]) == (
        "to-model",
        [],
        [{"code": "NOT_FOUND", "branch": "fix-and-retry"}],
    )
    assert outcome["result"]["content"][0]["text"].startswith('<tool_error code="NOT_FOUND"')


def test_an_unknown_tool_is_the_json_rpc_error_the_server_sent_to_the_model():
    outcome, _, _ = recovered("refund_orders")
    assert outcome["then"] == "to-model"
    assert outcome["result"]["code"] == -32602
    assert outcome["result"]["message"].startswith("Unknown tool: refund_orders. This server's tools: ")


def test_host_step_refuses_a_request_without_the_name_in_the_core_words():
    with pytest.raises(me.SpecError, match='missing "name": the name of the tool called'):
        host_step_json({"result": {"content": []}})
