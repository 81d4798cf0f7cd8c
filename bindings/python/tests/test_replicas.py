"""Two replicas of one server, separate processes over Streamable HTTP, sharing one Redis (Debian's
`redis-server`, started here on loopback with an append-only file, so what it acknowledged survives a restart):
the same idempotency key sent to both at once runs the write once, a replay on either gets the first outcome
byte for byte, keys expire as configured, each conversation the client names keeps its own repeat streak across
replicas, and a Redis that is down or hangs gets the core's retryable SERVER_BUSY within the store's timeout, with
nothing written and nothing acknowledged lost."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

pytest.importorskip("redis")
if shutil.which("redis-server") is None:  # scripts/setup installs it; a bare checkout may lack it
    pytest.skip("redis-server is not installed (scripts/setup installs it)", allow_module_level=True)

from redis import Redis  # noqa: E402
from redis.exceptions import BusyLoadingError  # noqa: E402

TTL_SECONDS = 60  # the replicas' key expiry; the expiry test starts them with a short one
SHORT_TTL_SECONDS = 3
CALLS = 20
# The replicas' RedisStore timeout (their client's socket timeouts are longer), and what a call over loopback may
# take beyond it.
STORE_TIMEOUT = 0.5
MARGIN = 0.4
CONVERSATION_KEY = "mcp-envelope/conversation"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the process on port {port} exited with {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listened on port {port} within 30 s")


class RedisServer:
    def __init__(self, folder: Path) -> None:
        self.folder, self.port, self.process = folder, free_port(), None

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.folder),
             "--appendonly", "yes", "--appendfsync", "always", "--save", ""],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_for(self.port, self.process)
        # Until it has loaded its data, Redis answers every command with LOADING.
        probe = Redis(port=self.port)
        try:
            for _ in range(600):
                try:
                    probe.ping()
                    break
                except BusyLoadingError:
                    time.sleep(0.05)
        finally:
            probe.close()

    def stop(self) -> None:
        assert self.process is not None
        self.process.kill()  # not a clean shutdown: only what was fsynced survives
        self.process.wait()

    def signal(self, number: int) -> None:
        assert self.process is not None
        os.kill(self.process.pid, number)


@pytest.fixture()
def cluster(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[RedisServer, list[str], Redis, str]]:
    ttl = getattr(request, "param", TTL_SECONDS)
    redis = RedisServer(tmp_path)
    redis.start()
    run = f"run-{time.monotonic_ns()}"
    server = Path(__file__).with_name("replica_server.py")
    ports = [free_port(), free_port()]
    timeout_ms = str(int(STORE_TIMEOUT * 1000))
    replicas = [
        subprocess.Popen([sys.executable, str(server), str(port), str(redis.port), run, str(ttl), timeout_ms])
        for port in ports
    ]
    try:
        for port, replica in zip(ports, replicas, strict=True):
            wait_for(port, replica)
        yield redis, [f"http://127.0.0.1:{port}/mcp" for port in ports], Redis(port=redis.port), run
    finally:
        for replica in replicas:
            replica.kill()
            replica.wait()
        redis.stop()


async def call(url: str, arguments: dict[str, Any], tool: str = "refund_order") -> dict[str, Any]:
    return (await call_timed(url, arguments, tool))[0]


async def call_timed(
    url: str, arguments: dict[str, Any], tool: str = "refund_order", conversation: str | None = None
) -> tuple[dict[str, Any], float]:
    """The call's result in `conversation` (the `_meta` key the replicas read), when given, and how many seconds
    the `tools/call` took (the session's start left out)."""
    meta = None if conversation is None else {CONVERSATION_KEY: conversation}
    async with streamable_http_client(url) as (read, write, *_), ClientSession(read, write) as session:
        await session.initialize()
        started = time.monotonic()
        result = await session.call_tool(tool, arguments, meta=meta)
        took = time.monotonic() - started
        return result.model_dump(mode="json", by_alias=True, exclude_none=True, include={"content", "is_error"}), took


def invoice_in(url: str, conversation: str | None) -> str:
    """The envelope `get_invoice` of inv_9 gets in `conversation` on `url`."""
    return text(anyio.run(call_timed, url, {"id": "inv_9"}, "get_invoice", conversation)[0])


def server_busy(key: str) -> dict[str, Any]:
    """The exact result a call with `key` gets while the store is down."""
    envelope = (
        '<tool_error code="SERVER_BUSY" severity="error">\n'
        "  <message>The server could not use its idempotency store, so this call did not run: nothing was written."
        "</message>\n"
        "  <recovery>Wait 5 seconds, then make the same call with the same key.</recovery>\n"
        "  <details>\n"
        '    <detail key="tool">refund_order</detail>\n'
        f'    <detail key="idempotencyKey">{key}</detail>\n'
        "  </details>\n"
        "  <retry_after>5 seconds</retry_after>\n"
        "</tool_error>"
    )
    return {"content": [{"type": "text", "text": envelope}], "isError": True}


async def concurrently(calls: list[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    answers: list[dict[str, Any]] = [{}] * len(calls)

    async def one(i: int, url: str, arguments: dict[str, Any]) -> None:
        answers[i] = await call(url, arguments)

    async with anyio.create_task_group() as tasks:
        for i, (url, arguments) in enumerate(calls):
            tasks.start_soon(one, i, url, arguments)
    return answers


REFUND = {"order_id": "A-8812", "amount_cents": 3200, "idempotency_key": "refund-A-8812-1"}


def text(answer: dict[str, Any]) -> str:
    return str(answer["content"][0]["text"])


def test_one_key_sent_to_two_replicas_at_once_writes_once_and_replays_everywhere(cluster) -> None:
    _, urls, redis, run = cluster
    answers = anyio.run(concurrently, [(urls[i % 2], REFUND) for i in range(CALLS)])
    assert int(redis.get(f"{run}:writes")) == 1
    first = [a for a in answers if not a["isError"]]
    busy = [a for a in answers if a["isError"]]
    # Every call either got the one outcome or was told the first call is still running, to wait and call again.
    assert first and all(a == first[0] for a in first), answers
    assert all(text(a).startswith('<tool_error code="CONFLICT"') and "<retry_after>2 seconds</retry_after>" in text(a)
               for a in busy), busy  # fmt: skip
    assert text(first[0]).startswith("Refunded 3200 cents on order A-8812 (write 1, replica ")
    # A replay on either replica, later: the first outcome byte for byte, and still one write.
    replays = anyio.run(concurrently, [(url, REFUND) for url in urls])
    assert replays == [first[0], first[0]]
    assert int(redis.get(f"{run}:writes")) == 1
    print(f"\n{CALLS} concurrent calls: {len(first)} answered with the outcome, {len(busy)} in progress; 1 write")
    # The same key with other arguments, on either replica: refused, nothing written.
    other = anyio.run(call, urls[1], {**REFUND, "amount_cents": 4500})
    assert text(other).startswith('<tool_error code="VALIDATION_ERROR"') and "different request" in text(other)
    assert int(redis.get(f"{run}:writes")) == 1


FIRST = "<message>No invoice inv_9</message>"
REPEAT = "<message>Nothing has changed since the last attempt: the same failure again (2 in a row).</message>"
STOP = ('<tool_error code="NOT_FOUND" severity="critical">\n  <message>Stop retrying: this call has failed the same '
        "way 3 times in a row")  # fmt: skip


def test_a_failure_repeated_on_alternating_replicas_reaches_the_ledgers_stop(cluster) -> None:
    _, urls, _, _ = cluster
    answers = [invoice_in(urls[i % 2], "conversation-1") for i in range(3)]
    assert FIRST in answers[0]
    assert REPEAT in answers[1]
    assert answers[2].startswith(STOP)


def test_each_conversation_keeps_its_own_streak_across_replicas(cluster) -> None:
    _, urls, _, _ = cluster
    # Two conversations interleaved, each on alternating replicas: each its own streak.
    steps = [(0, "conversation-a"), (1, "conversation-b"), (1, "conversation-a"), (0, "conversation-b"),
             (0, "conversation-a")]  # fmt: skip
    answers = [invoice_in(urls[replica], conversation) for replica, conversation in steps]
    assert FIRST in answers[0] and FIRST in answers[1]
    assert REPEAT in answers[2] and REPEAT in answers[3]
    assert answers[4].startswith(STOP)
    # Without the key, a call is in its session's conversation, or in none: never a repeat of another's.
    assert all(FIRST in invoice_in(urls[i % 2], None) for i in range(3))


@pytest.mark.parametrize("cluster", [SHORT_TTL_SECONDS], indirect=True)
def test_keys_expire_as_configured(cluster) -> None:
    _, urls, redis, run = cluster
    anyio.run(call, urls[0], REFUND)
    key = f"{run}:mcp-envelope/idempotency/" + json.dumps(
        ["refund_order", REFUND["idempotency_key"]], separators=(",", ":")
    )
    assert 0 < redis.pttl(key) <= SHORT_TTL_SECONDS * 1000
    time.sleep(SHORT_TTL_SECONDS + 0.2)
    assert redis.get(key) is None
    again = anyio.run(call, urls[1], REFUND)
    assert "(write 2, replica " in text(again)


def test_a_redis_that_is_down_never_lets_a_write_run_and_loses_nothing_acknowledged(cluster) -> None:
    server, urls, _, run = cluster
    acknowledged = anyio.run(call, urls[0], REFUND)
    server.stop()
    down, took = anyio.run(call_timed, urls[1], {**REFUND, "idempotency_key": "refund-A-8812-2"}, "refund_order", "c-1")
    print(f"\nRedis stopped: SERVER_BUSY in {took * 1000:.0f} ms (store timeout {STORE_TIMEOUT * 1000:.0f} ms)")
    assert down == server_busy("refund-A-8812-2")
    assert took < STORE_TIMEOUT + MARGIN
    server.start()
    redis = Redis(port=server.port)
    assert int(redis.get(f"{run}:writes")) == 1  # the refused call wrote nothing
    # What was acknowledged before the stop survived it: the replay is the first outcome.
    assert anyio.run(call, urls[1], REFUND) == acknowledged
    # The refused key was never claimed: the same call now runs, once.
    retried = anyio.run(call, urls[0], {**REFUND, "idempotency_key": "refund-A-8812-2"})
    assert "(write 2, replica " in text(retried)


def test_a_redis_that_hangs_is_answered_within_the_stores_timeout(cluster) -> None:
    server, urls, redis, run = cluster
    anyio.run(call, urls[0], REFUND)
    # A stopped process: connections stay open and nothing answers, so only a timeout ends a call.
    server.signal(signal.SIGSTOP)
    try:
        # The ledger alone asks the store once, and fails open: the failure as itself.
        invoice, took = anyio.run(call_timed, urls[1], {"id": "inv_9"}, "get_invoice", "c-1")
        print(f"\nRedis hung: the ledger's call answered in {took * 1000:.0f} ms")
        assert FIRST in text(invoice)
        assert took < STORE_TIMEOUT + MARGIN
        # The key's claim asks once, then the result goes through the ledger, which asks once more.
        busy, took = anyio.run(call_timed, urls[0], {**REFUND, "idempotency_key": "refund-A-8812-2"}, "refund_order",
                               "c-1")  # fmt: skip
        print(f"Redis hung: SERVER_BUSY in {took * 1000:.0f} ms (store timeout {STORE_TIMEOUT * 1000:.0f} ms)")
        assert busy == server_busy("refund-A-8812-2")
        assert STORE_TIMEOUT <= took < 2 * STORE_TIMEOUT + MARGIN
    finally:
        server.signal(signal.SIGCONT)
    assert int(redis.get(f"{run}:writes")) == 1


@pytest.mark.parametrize("timeout_ms", [0, -5, 1.5, "500", True])
def test_a_timeout_that_is_not_a_whole_number_of_milliseconds_is_refused(timeout_ms: Any) -> None:
    from redis.asyncio import Redis as AsyncRedis

    from mcp_envelope.redis import RedisStore

    with pytest.raises(ValueError) as refused:
        RedisStore(AsyncRedis(), timeout_ms=timeout_ms)
    assert str(refused.value) == f"timeout_ms must be a whole number of milliseconds, at least 1, not {timeout_ms!r}"
