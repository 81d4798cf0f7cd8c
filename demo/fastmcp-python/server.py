"""The demo billing server of demo/billing.md, as a FastMCP author writes it:
a FastMCP 4 server with mcp-envelope's middleware first (EnvelopeMiddleware),
over stdio or with `--http PORT` over Streamable HTTP at
http://127.0.0.1:PORT/mcp, arguments declared with pydantic types, and
mcp-envelope's helpers for every failure, so no envelope is worded here. The
mcp SDK twin is demo/python/server.py; every answer must be its bytes."""

from __future__ import annotations

import itertools
import logging
import os
import sys
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

from fastmcp import Context, FastMCP
from mcp_types import ToolAnnotations
from pydantic import EmailStr, Field

from mcp_envelope import ToolError, ToolResult, partial_result
from mcp_envelope.server import Idempotency, Ledger, empty_result, forbidden, retry_within, upstream_error
from mcp_envelope.stores import SharedIdempotency, SharedLedger
from mcp_envelope.fastmcp import EnvelopeMiddleware, LedgerRequest

log = logging.getLogger("demo-billing")

JO = "jo@example.com"


@dataclass
class Invoice:
    customer: str
    cents: int
    status: str
    refundable_cents: int  # before any refund


# The one customer's invoices, amounts in cents, in listing order.
invoices = {
    "inv_1": Invoice(JO, 12000, "paid", 12000),
    "inv_2": Invoice(JO, 7550, "open", 0),
}


class MemoryBooks:
    """What a refund writes and later calls read, kept in this process. `refund` answers `(True, N)` (the N-th
    refund, "rf_N") or `(False, CENTS)` (refused: what is left, nothing written)."""

    def __init__(self) -> None:
        self.refunded: dict[str, int] = {}
        self.refunds = 0

    async def refund(self, invoice_id: str, cents: int) -> tuple[bool, int]:
        refundable = invoices[invoice_id].refundable_cents - self.refunded.get(invoice_id, 0)
        if cents > refundable:
            return False, refundable
        self.refunded[invoice_id] = self.refunded.get(invoice_id, 0) + cents
        self.refunds += 1
        return True, self.refunds


class RedisBooks:
    """The same books in Redis, shared by every replica: the check and the write are one step on the Redis server,
    demo/books.lua, the script all five servers run."""

    def __init__(self, client: Any) -> None:
        self.script = client.register_script((Path(__file__).resolve().parent.parent / "books.lua").read_text())

    async def refund(self, invoice_id: str, cents: int) -> tuple[bool, int]:
        keys = [f"{{billing-demo}}:refunded:{invoice_id}", "{billing-demo}:refunds"]
        refunded, value = await self.script(keys=keys, args=[invoices[invoice_id].refundable_cents, cents])
        return refunded == 1, int(value)

InvoiceId = Annotated[str, Field(pattern=r"^inv_[a-z0-9]+$")]


def euros(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


def line(invoice_id: str, invoice: Invoice) -> str:
    return f"{invoice_id}: {euros(invoice.cents)} EUR, {invoice.status}"


@dataclass
class Response:
    status: int
    headers: dict[str, str]


class Upstream:
    """The billing API this server fronts, simulated in-process: a response's status and headers, failing as
    demo/billing.md says."""

    @staticmethod
    def list_invoices(customer: str) -> Response:
        return Response(503, {}) if customer == "flaky@example.com" else Response(200, {})

    @staticmethod
    def get_invoice(invoice_id: str, attempt: int = 1) -> Response:
        """Attempt `attempt` (from 1) of one call."""
        if invoice_id == "inv_504":
            return Response(504, {})
        limited = invoice_id == "inv_430" or (invoice_id == "inv_429" and attempt == 1)
        return Response(429, {"Retry-After": "1"}) if limited else Response(200, {})


def upstream_failure(response: Response) -> ToolError:
    """An upstream failure as the helper words it, raised as a tool error (the ledger sees it)."""
    report = upstream_error(response.status, headers=response.headers, service="billing-api")
    log.warning("upstream billing-api answered %s", report["log"]["status"])
    return ToolError.from_spec(report["error"])


def text(body: str) -> ToolResult:
    return ToolResult({"content": [{"type": "text", "text": body}], "isError": False})


def not_found(invoice_id: str, message: str) -> ToolError:
    return ToolError("NOT_FOUND", message, available_actions=["list_invoices"], details={"invoiceId": invoice_id})


# How a call of a tool this server lacks is answered: the MCP specification's JSON-RPC error by default, or
# SEP-2145's isError result with BILLING_UNKNOWN_TOOL=tool-result.
unknown_tool = os.environ.get("BILLING_UNKNOWN_TOOL", "protocol-error")
if unknown_tool not in ("protocol-error", "tool-result"):
    sys.exit(f"BILLING_UNKNOWN_TOOL is {unknown_tool!r}: expected protocol-error or tool-result")
# Where the state lives: this process (the default), or with BILLING_REDIS_URL (redis://HOST:PORT) a Redis every
# replica shares. A refund's key then replays the first outcome on any replica, and the repeat ledger of the
# conversation a call names (the `_meta` key `mcp-envelope/conversation`, else its session) sees a failure repeated
# across them. Either way every answer is the same bytes.
redis_url = os.environ.get("BILLING_REDIS_URL")
idempotency: Idempotency | SharedIdempotency
ledger: Ledger | Callable[[LedgerRequest], SharedLedger | None]
books: MemoryBooks | RedisBooks
if redis_url is None:
    idempotency, ledger, books = Idempotency(), Ledger(stop_after=2), MemoryBooks()
else:
    from redis import Redis as BlockingRedis
    from redis import RedisError
    from redis.asyncio import Redis
    from redis.asyncio.retry import Retry
    from redis.backoff import NoBackoff

    from mcp_envelope.redis import RedisStore

    # The asyncio client connects at its first command, in the server's event loop: a Redis that cannot be reached
    # is found here, with a blocking client, so that the server stops at start as its twins do.
    try:
        with BlockingRedis.from_url(redis_url, socket_timeout=1) as reached:
            reached.ping()
    except RedisError as e:
        sys.exit(f"billing: cannot reach BILLING_REDIS_URL {redis_url}: {e}")
    # A Redis that is down fails at once (one immediate retry, for a connection it closed, and no backoff); one that
    # hangs is cut at the store's timeout (2 s). Either way the refund is answered SERVER_BUSY, not left waiting.
    client = Redis.from_url(redis_url, retry=Retry(NoBackoff(), 1))
    store = RedisStore(client, timeout_ms=2000)

    def conversation_ledger(request: LedgerRequest) -> SharedLedger | None:
        """The repeat ledger of the call's conversation; none for a call in no conversation."""
        return None if request.conversation is None else SharedLedger(store, request.conversation, 2)

    idempotency, ledger, books = SharedIdempotency(store), conversation_ledger, RedisBooks(client)
# One repeat ledger for the whole process: one stdio client, or the sessions of
# the HTTP server (with Redis, the ledger of each call's conversation). The
# middleware goes first, so it answers whatever fails beneath it.
middleware = [EnvelopeMiddleware(ledger=ledger, unknown_tool=unknown_tool)]
# BILLING_ENVELOPE=off serves the same tools without the middleware: the
# conformance suite's plain run, to show the integration costs no check. Their
# failures then reach the client as FastMCP alone answers them.
if os.environ.get("BILLING_ENVELOPE") == "off":
    middleware = []
server = FastMCP("billing", version="1.0.0", middleware=middleware)


@server.tool(annotations=ToolAnnotations(read_only_hint=True), output_schema=None)
async def get_invoice(customer: EmailStr, invoice_id: InvoiceId, ctx: Context) -> str | ToolResult:
    """Get one invoice of a customer."""
    if customer == "blocked@example.com":
        return forbidden("read", f"the invoices of {customer}")
    if invoice_id == "inv_500":
        raise ConnectionError("db connect failed: password=hunter2")
    if invoice_id in ("inv_429", "inv_430"):
        # The waiting is done here, within 2.5 s, not left to the model.
        attempts = itertools.count(1)

        def attempt() -> ToolResult:
            response = Upstream.get_invoice(invoice_id, next(attempts))
            if response.status != 200:
                raise upstream_failure(response)
            return text(line("inv_1", invoices["inv_1"]))

        return await retry_within(attempt, deadline_ms=2500, ctx=ctx)
    response = Upstream.get_invoice(invoice_id)
    if response.status != 200:
        raise upstream_failure(response)
    if invoice_id == "inv_old":
        raise ToolError("DEPRECATED", "inv_old is an archived invoice id; use inv_1 instead.",
                        suggestion="Use invoice_id inv_1 from now on.", severity="warning")  # fmt: skip
    invoice = invoices.get(invoice_id)
    if invoice is None or invoice.customer != customer or customer != JO:
        raise not_found(invoice_id, f"No invoice {invoice_id} for {customer}.")
    return line(invoice_id, invoice)


@server.tool(annotations=ToolAnnotations(read_only_hint=True), output_schema=None)
def list_invoices(customer: EmailStr, status: Literal["open", "paid"] | None = None) -> str | ToolResult:
    """List a customer's invoices."""
    if customer == "blocked@example.com":
        return forbidden("read", f"the invoices of {customer}")
    if customer == "nobody@example.com":
        return empty_result("invoices", query=f"for {customer}")
    if customer == "partial@example.com":
        return partial_result({
            "task": f"invoices for {customer}",
            "obtained": ["inv_7: 10.00 EUR, open"],
            "failed": [{"item": "the 2025 archive", "code": "TIMEOUT", "message": "The archive did not answer in time."}],
        })  # fmt: skip
    response = Upstream.list_invoices(customer)
    if response.status != 200:
        raise upstream_failure(response)
    if customer != JO:
        return empty_result("invoices", query=f"for {customer}")
    found = [(i, inv) for i, inv in invoices.items() if inv.customer == customer and status in (None, inv.status)]
    return "\n".join(line(i, inv) for i, inv in found)


@server.tool(annotations=ToolAnnotations(idempotent_hint=True), output_schema=None)
@idempotency.idempotent()
async def refund_order(
    invoice_id: InvoiceId,
    amount: Annotated[float, Field(gt=0, le=10000)],
    idempotency_key: Annotated[str, Field(min_length=8)],
) -> ToolResult:
    """Refund part or all of an invoice."""
    if invoice_id not in invoices:
        raise ToolError("NOT_FOUND", f"No invoice {invoice_id}.", available_actions=["list_invoices"])
    # To whole cents, half away from zero (amount is positive), as every twin rounds; Decimal holds the float exactly.
    cents = int(Decimal(amount * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))
    refunded, booked = await books.refund(invoice_id, cents)
    if not refunded:
        refundable = euros(booked)
        raise ToolError(
            "REFUND_LIMIT_EXCEEDED", f"Refund of {euros(cents)} exceeds the refundable {refundable} on {invoice_id}.",
            category="business", retryable=False,
            suggestion="Tell the user the most that can be refunded; do not retry with a larger amount.",
            customer_message=f"We can refund at most {refundable} EUR on this invoice.",
        )  # fmt: skip
    return text(f"Refunded {euros(cents)} EUR on {invoice_id} (refund rf_{booked}).")


if __name__ == "__main__":
    if len(sys.argv) == 1:
        server.run("stdio", show_banner=False)
    elif len(sys.argv) == 3 and sys.argv[1] == "--http" and sys.argv[2].isdigit():
        # FastMCP checks Host and Origin (against DNS rebinding) only when asked; "auto" checks them on loopback.
        port = int(sys.argv[2])
        server.run("http", host="127.0.0.1", port=port, path="/mcp", host_origin_protection="auto", show_banner=False)
    else:
        sys.exit("usage: server.py [--http PORT]")
