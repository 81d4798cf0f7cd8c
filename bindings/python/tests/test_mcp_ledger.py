"""The repeat ledger in the real `mcp` SDK: an EnvelopeMCPServer (a ledger per
session, or one shared) and `envelope_errors` on a plain MCPServer, driven by
in-process clients making several calls in one session."""

from __future__ import annotations

import logging
import re
from typing import Annotated

import anyio
from mcp import Client
from mcp.server.mcpserver import Context, MCPServer
from mcp_types import CallToolResult, Implementation
from pydantic import Field

import mcp_envelope as me
from mcp_envelope.mcp_server import EnvelopeMCPServer, LedgerRequest, envelope_errors
from mcp_envelope.server import Ledger, forbidden

NOT_FOUND_XML = (
    '<tool_error code="NOT_FOUND" severity="error">\n'
    "  <message>No invoice inv_9</message>\n"
    "  <recovery>Check the identifier: look the item up or list the available ones, then call again with a real one.</recovery>\n"
    "</tool_error>"
)
REPEAT_XML = (
    '<tool_error code="NOT_FOUND" severity="error">\n'
    "  <message>Nothing has changed since the last attempt: the same failure again (2 in a row).</message>\n"
    "  <recovery>Check the identifier: look the item up or list the available ones, then call again with a real one.</recovery>\n"
    "</tool_error>"
)
STOP_XML = (
    '<tool_error code="NOT_FOUND" severity="critical">\n'
    "  <message>Stop retrying: this call has failed the same way 3 times in a row and nothing has changed.</message>\n"
    "  <recovery>Do not make this call again. Tell the user what failed and that retrying did not help.</recovery>\n"
    "</tool_error>"
)


def invoices(server: MCPServer) -> MCPServer:
    @server.tool()
    def get_invoice(invoice_id: str) -> str:
        """Finds inv_1 only."""
        if invoice_id == "inv_1":
            return "invoice inv_1: 300 USD"
        raise me.ToolError("NOT_FOUND", f"No invoice {invoice_id}")

    @server.tool()
    def charge(amount_cents: Annotated[int, Field(ge=1)]) -> str:
        """Always crashes."""
        raise RuntimeError("the card vault is down")

    @server.tool(structured_output=False)
    def search(query: str) -> str:
        """Warns on "old", fails otherwise."""
        if query == "old":
            raise me.ToolError("DEPRECATED", "search is deprecated; use find").with_severity("warning")
        raise me.ToolError("NOT_FOUND", "No invoice inv_9")

    @server.tool()
    def refund(order_id: str) -> CallToolResult:
        """Returns its own error result."""
        return CallToolResult.model_validate(forbidden("refund", f"order {order_id}"))

    return server


def session(server: MCPServer, *steps: tuple[str, dict], conversation: str = "a") -> list:
    """The results of the calls, in order, made by one client in one session, each naming its conversation in
    the `_meta` key the integrations read."""

    async def go():
        async with Client(server, client_info=Implementation(name="host", version="1")) as client:
            meta = {"mcp-envelope/conversation": conversation}
            return [await client.call_tool(tool, arguments, meta=meta) for tool, arguments in steps]

    return anyio.run(go)


def per_conversation():
    """A ledger per conversation the client names (`LedgerRequest.conversation`); the ledgers it made, by name."""
    ledgers: dict[str, Ledger] = {}

    def ledger_of(request: LedgerRequest) -> Ledger | None:
        if request.conversation is None:
            return None
        assert (
            isinstance(request.context, Context) and request.meta["mcp-envelope/conversation"] == request.conversation
        )
        return ledgers.setdefault(request.conversation, Ledger())

    ledger_of.ledgers = ledgers  # type: ignore[attr-defined]
    return ledger_of


def texts(results: list) -> list[str]:
    return [r.content[0].text for r in results]


MISS = ("get_invoice", {"invoice_id": "inv_9"})
HIT = ("get_invoice", {"invoice_id": "inv_1"})


def test_identical_failures_in_a_session_are_shortened_then_stopped():
    server = invoices(EnvelopeMCPServer("billing", ledger=per_conversation()))
    results = session(server, MISS, MISS, MISS, MISS)
    assert texts(results) == [NOT_FOUND_XML, REPEAT_XML, STOP_XML, STOP_XML.replace("3 times", "4 times")]
    assert [r.is_error for r in results] == [True] * 4


def test_a_success_other_arguments_and_a_new_session_start_over():
    server = invoices(EnvelopeMCPServer("billing", ledger=per_conversation()))
    other = ("get_invoice", {"invoice_id": "inv_8"})
    results = texts(session(server, MISS, MISS, HIT, MISS, other, MISS))
    assert results == [NOT_FOUND_XML, REPEAT_XML, "invoice inv_1: 300 USD", NOT_FOUND_XML,
                       NOT_FOUND_XML.replace("inv_9", "inv_8"), NOT_FOUND_XML]  # fmt: skip
    # Another conversation has its own ledger; this one's goes on.
    assert texts(session(server, MISS, conversation="b")) == [NOT_FOUND_XML]
    assert texts(session(server, MISS)) == [REPEAT_XML]
    assert sorted(server.ledger.ledgers) == ["a", "b"]


def test_a_shared_ledger_over_a_store_answers_as_the_ledger_does():
    """A SharedLedger (its streaks in a store replicas share; here the in-memory one) gives the same bytes, for a
    raised ToolError, a crash and a success between."""
    from mcp_envelope.stores import MemoryStore, SharedLedger

    server = invoices(EnvelopeMCPServer("billing", ledger=SharedLedger(MemoryStore(), "conversation-1")))
    results = texts(session(server, MISS, MISS, MISS, HIT, MISS))
    assert results == [NOT_FOUND_XML, REPEAT_XML, STOP_XML, "invoice inv_1: 300 USD", NOT_FOUND_XML]
    crash = ("charge", {"amount_cents": 100})
    second = session(server, crash, crash)[1]
    assert me.parse_envelope(second)["message"] == (
        "Nothing has changed since the last attempt: the same failure again (2 in a row)."
    )


def test_one_ledger_for_every_call_spans_sessions():
    server = invoices(EnvelopeMCPServer("billing", ledger=Ledger(stop_after=1)))
    assert texts(session(server, MISS)) == [NOT_FOUND_XML]
    assert texts(session(server, MISS)) == [STOP_XML.replace("3 times", "2 times")]


def test_a_crash_repeated_is_shortened_each_quoting_its_own_logged_id(caplog):
    server = invoices(EnvelopeMCPServer("billing", ledger=per_conversation()))
    crash = ("charge", {"amount_cents": 100})
    with caplog.at_level(logging.ERROR, logger="mcp_envelope"):
        first, second, third = session(server, crash, crash, crash)
    ids = [re.search(r'correlationId="(err_[0-9a-f]{12})"', r.getMessage()).group(1) for r in caplog.records]
    assert len(set(ids)) == 3  # each crash is logged under an id of its own
    assert me.parse_envelope(first)["error"]["correlationId"] == ids[0]
    repeat = me.parse_envelope(second)["error"]
    assert repeat["message"] == "Nothing has changed since the last attempt: the same failure again (2 in a row)."
    assert repeat["correlationId"] == ids[1]  # the id this crash was logged under
    stop = me.parse_envelope(third)
    assert (stop["code"], stop["severity"], stop["error"]["correlationId"]) == ("INTERNAL_ERROR", "critical", ids[2])


def test_a_warning_neither_counts_nor_ends_a_streak_and_a_validation_error_leaves_it():
    server = invoices(EnvelopeMCPServer("billing", ledger=per_conversation()))
    fail, warn = ("search", {"query": "x"}), ("search", {"query": "old"})
    results = session(server, fail, warn, fail)
    assert results[1].is_error is False
    assert texts(results)[1].startswith('<tool_error code="DEPRECATED" severity="warning">')
    assert texts(results)[2] == REPEAT_XML  # the warning between did not end the streak
    # A validation error is not a tool error: the ledger leaves it, and the streak, as they are.
    invalid = ("charge", {"amount_cents": 0})
    bad = session(server, invalid, invalid, conversation="b")
    assert texts(bad)[0] == texts(bad)[1] and texts(bad)[0].startswith('<validation_error action="charge">')
    assert texts(session(server, fail, invalid, fail)) == [
        STOP_XML,
        texts(bad)[0],
        STOP_XML.replace("3 times", "4 times"),
    ]


def test_a_returned_error_result_goes_through_the_ledger():
    server = invoices(EnvelopeMCPServer("billing", ledger=per_conversation()))
    first, second = session(server, ("refund", {"order_id": "A-1"}), ("refund", {"order_id": "A-1"}))
    assert first.content[0].text == forbidden("refund", "order A-1")["content"][0]["text"]
    assert me.parse_envelope(second)["message"] == (
        "Nothing has changed since the last attempt: the same failure again (2 in a row)."
    )


def test_without_a_ledger_nothing_is_shortened():
    server = invoices(EnvelopeMCPServer("billing"))
    assert texts(session(server, MISS, MISS, MISS)) == [NOT_FOUND_XML] * 3


def test_the_decorator_takes_a_ledger_on_a_plain_server():
    ledger = Ledger()
    server = MCPServer("plain")

    @server.tool()
    @envelope_errors(ledger=ledger, format="text")
    def lookup(name: str, ctx: Context) -> str:  # the injected Context is no part of the key
        if name == "ok":
            return "found"
        raise me.ToolError("NOT_FOUND", f"No customer {name}")

    step = ("lookup", {"name": "jo"})
    results = texts(session(server, step, step, ("lookup", {"name": "ok"}), step))
    assert (
        results[0]
        == results[3]
        == (
            "error_code: NOT_FOUND\n"
            "what_failed: No customer jo\n"
            "next_action: Check the identifier: look the item up or list the available ones, then call again with a real one.\n"
            "retryable: false"
        )
    )
    assert results[1].startswith("error_code: NOT_FOUND\nwhat_failed: Nothing has changed since the last attempt:")
    assert results[2] == "found"


def test_exceptions_and_validation_errors_in_the_servers_locale():
    server = invoices(EnvelopeMCPServer("billing", locale="pt-BR"))
    crashed, invalid = session(server, ("charge", {"amount_cents": 100}), ("charge", {"amount_cents": 0}))
    error = me.parse_envelope(crashed)["error"]
    assert error["customerMessage"] == (
        f"Algo deu errado do nosso lado. O problema foi registrado com a referência {error['correlationId']}."
    )
    assert "Pequeno demais" in invalid.content[0].text
