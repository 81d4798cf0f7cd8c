"""Faults: after a trap the instance is rebuilt and the call answers as the core's
`after-trap` says (vectors/after-trap.json): an INTERNAL_ERROR where a model reads
the answer, the call made once more otherwise (ComponentUnavailable with the core's
words when it traps again); nothing from wasmtime reaches a model."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

import mcp_envelope as me
from mcp_envelope import _component
from mcp_envelope.agent import decide
from mcp_envelope.server import Idempotency, Ledger, empty_result, unknown_tool, upstream_error

# 4 MiB of linear memory cannot hold an 8 MB message: the component's
# allocator fails, which traps (a real trap, not a simulated one).
SMALL_MEMORY = 4 << 20
HUGE_SPEC = {"code": "X", "message": "m" * (8 << 20)}

# The component's exception-result for a trap: its fresh id (err_ and 12 hex digits) quoted twice.
INTERNAL_XML = re.compile(
    r'<tool_error code="INTERNAL_ERROR" severity="error">\n'
    r"  <message>The tool failed with an internal error\.</message>\n"
    r"  <recovery>Do not retry blindly: the same call is likely to fail again\. Tell the user the tool failed, "
    r"quoting the correlation id if there is one\.</recovery>\n"
    r"  <customer_message>Something went wrong on our side\. It was recorded under the reference "
    r"(err_[0-9a-f]{12})\.</customer_message>\n"
    r"  <correlation_id>\1</correlation_id>\n"
    r"</tool_error>\Z"
)


@pytest.fixture
def small_memory(runtime_swap):
    """Both components in small memories; the envelope one's runtime."""
    runtime_swap(_component.Runtime("full", memory_limit=SMALL_MEMORY))
    return runtime_swap(_component.Runtime(memory_limit=SMALL_MEMORY))


def test_a_trap_answers_internal_error_and_logs_the_cause(small_memory, caplog, seed_invoice):
    with caplog.at_level(logging.ERROR, logger="mcp_envelope"):
        text = me.render(HUGE_SPEC)
    match = INTERNAL_XML.match(text)
    assert match, text[:500]
    [record] = [r for r in caplog.records if r.name == "mcp_envelope"]
    # The core's log line for the trap, under the id the envelope quotes.
    assert record.getMessage().startswith(
        f'code=INTERNAL_ERROR correlationId="{match.group(1)}" tool="" exception="render trapped: '
    )
    # The next call runs on a fresh instance and is right again.
    assert me.render(seed_invoice["spec"]) == seed_invoice["xml"]


def test_a_trap_in_each_entry_point(small_memory, seed_invoice):
    result = me.tool_error("X", "m" * (8 << 20))
    assert result["isError"] is True
    assert INTERNAL_XML.match(result["content"][0]["text"])
    # A reader is made once more; trapping again, it raises the core's words.
    with pytest.raises(
        me.ComponentUnavailable,
        match=r"^mcp-envelope: read-envelope trapped twice, on a fresh instance too; it was not answered$",
    ):
        me.parse_envelope("<tool_error " + "x" * (8 << 20))
    assert me.parse_envelope(seed_invoice["xml"])["error"] == seed_invoice["spec"]


def test_a_trap_in_protocol_error_is_made_once_more(small_memory, caplog):
    with (
        caplog.at_level(logging.ERROR, logger="mcp_envelope"),
        pytest.raises(
            me.ComponentUnavailable,
            match=r"^mcp-envelope: protocol-error trapped twice, on a fresh instance too; it was not answered$",
        ),
    ):
        me.protocol_error("invalid-params", "m" * (8 << 20))
    [record] = [r for r in caplog.records if r.name == "mcp_envelope"]
    assert record.getMessage().startswith('code=TRAPPED call="protocol-error" then="call-again" trap="')
    assert me.protocol_error("parse-error", "Parse error") == {"code": -32700, "message": "Parse error"}


def test_the_instance_is_replaced_after_a_trap(small_memory):
    before = small_memory._instance()
    me.render(HUGE_SPEC)
    after = small_memory._instance()
    assert after is not before


def test_a_missing_component_file_is_a_clear_error(tmp_path):
    with pytest.raises(_component.ComponentUnavailable, match="is missing from the mcp_envelope package"):
        _component.Runtime(wasm_path=tmp_path / "absent.wasm")


def test_a_file_that_is_not_a_component_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.wasm"
    bad.write_bytes(b"\0asm garbage")
    with pytest.raises(_component.ComponentUnavailable, match="could not be compiled"):
        _component.Runtime(wasm_path=bad)


def test_the_envelope_component_in_place_of_the_full_one_is_a_clear_error():
    envelope = Path(_component.__file__).with_name("envelope.wasm")
    with pytest.raises(
        _component.ComponentUnavailable, match=r"^the component full\.wasm does not export mcp:envelope/server@1\.0\.0$"
    ):
        _component.Runtime("full", wasm_path=envelope)


def test_a_trap_on_one_thread_leaves_the_others_alone(small_memory, seed_invoice):
    import threading

    outputs: list[str] = []
    trapped: list[str] = []
    start = threading.Barrier(2)

    def steady() -> None:
        start.wait()
        outputs.extend(me.render(seed_invoice["spec"]) for _ in range(2000))

    def faulty() -> None:
        start.wait()
        trapped.extend(me.render(HUGE_SPEC) for _ in range(3))

    threads = [threading.Thread(target=steady), threading.Thread(target=faulty)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert outputs == [seed_invoice["xml"]] * 2000
    assert len(trapped) == 3 and all(INTERNAL_XML.match(t) for t in trapped)


def test_a_trap_in_the_new_entry_points(small_memory, caplog):
    huge = "m" * (8 << 20)
    with caplog.at_level(logging.ERROR, logger="mcp_envelope"):
        empty = empty_result(huge)  # a result function answers INTERNAL_ERROR as a result
        partial = me.render_partial({"obtained": [], "failed": [{"item": huge, "code": "X"}], "format": "json"})
        with pytest.raises(
            _component.ComponentUnavailable,
            match=r"^mcp-envelope: upstream-error trapped twice, "
            r"on a fresh instance too; it was not answered$",
        ):
            upstream_error(503, body=huge)  # data, not an envelope: made once more, and it traps again
    assert empty["isError"] is True and INTERNAL_XML.match(empty["content"][0]["text"])
    # In the form the partial result's spec asked for.
    assert partial.startswith('{"code":"INTERNAL_ERROR","severity":"error","errorCategory":"internal"')
    ids = [re.search(r'correlationId="(err_[0-9a-f]{12})"', r.getMessage()) for r in caplog.records]
    assert ids[2] is None and caplog.records[2].getMessage().startswith(
        'code=TRAPPED call="upstream-error" then="call-again"'
    )
    assert ids[0].group(1) in empty["content"][0]["text"] and ids[1].group(1) in partial and ids[0] != ids[1]
    assert empty_result("orders")["isError"] is False  # a fresh instance, right again


def test_a_trap_in_a_ledger_step_counts_nothing_and_loses_nothing(small_memory, caplog):
    error = me.ToolError("NOT_FOUND", "No invoice inv_9")
    with Ledger() as ledger, caplog.at_level(logging.ERROR, logger="mcp_envelope"):
        assert ledger.failure("t", error)["content"][0]["text"].startswith('<tool_error code="NOT_FOUND"')
        # A failure that traps: its INTERNAL_ERROR in the form asked for, logged; the streak is the host's, untouched.
        trapped = ledger.failure("t", me.ToolError("X", "m" * (8 << 20)), format="text")
        assert trapped["content"][0]["text"].startswith("error_code: INTERNAL_ERROR\n")
        assert len([r for r in caplog.records if "ledger-failure trapped" in r.getMessage()]) == 1
        assert "(2 in a row)" in ledger.failure("t", error)["content"][0]["text"]
        # A result too big to watch is sent as it is (None): the ledger fails open, and keeps its streak.
        huge = {"content": [{"type": "text", "text": "m" * (8 << 20)}], "isError": True}
        assert ledger.observe("t", huge) is None
        assert (
            len(
                [
                    r
                    for r in caplog.records
                    if r.getMessage().startswith('code=TRAPPED call="ledger-observe" then="send-as-is"')
                ]
            )
            == 1
        )
        assert "Stop retrying" in ledger.observe("t", error.to_result())["content"][0]["text"]


def test_a_trap_in_unknown_tool_is_made_once_more(small_memory):
    huge = "m" * (8 << 20)
    with pytest.raises(me.ComponentUnavailable, match=r"^mcp-envelope: unknown-tool trapped twice"):
        unknown_tool(huge, ["a"])
    assert unknown_tool("x", ["a"])["error"]["code"] == -32602  # a fresh instance, right again


class OneOffTraps(_component.Runtime):
    """The full component's runtime, but an armed function's next calls trap as a real trap does at this boundary
    (the thread's instance dropped, ComponentTrap raised); everything after it, `after-trap` included, is real."""

    def __init__(self) -> None:
        super().__init__("full")
        self.armed: dict[str, int] = {}

    def call_result(self, name: str, *args):
        if self.armed.get(name, 0) > 0:
            self.armed[name] -= 1
            self._local.instance = None
            raise _component.ComponentTrap("wasm trap: out of bounds memory access")
        return super().call_result(name, *args)


@pytest.fixture
def one_off(runtime_swap):
    return runtime_swap(OneOffTraps())


TRAP = "wasm trap: out of bounds memory access"


def test_a_trap_in_an_idempotency_claim_answers_unavailable_and_the_write_does_not_run(one_off, caplog):
    import asyncio

    store, writes = Idempotency(), []

    def write() -> dict:
        writes.append(1)
        return {"content": [{"type": "text", "text": "Refunded"}]}

    one_off.armed["idempotency-begin"] = 1
    with caplog.at_level(logging.ERROR, logger="mcp_envelope"):
        busy = asyncio.run(store.run("refund_order", "key-7", {"amount": 5}, write))
    assert writes == []
    assert busy["isError"] is True
    assert busy["content"][0]["text"] == (
        '<tool_error code="SERVER_BUSY" severity="error">\n'
        "  <message>The server could not use its idempotency store, so this call did not run: nothing was written.</message>\n"
        "  <recovery>Wait 5 seconds, then make the same call with the same key.</recovery>\n"
        '  <details>\n    <detail key="tool">refund_order</detail>\n    <detail key="idempotencyKey">key-7</detail>\n'
        "  </details>\n  <retry_after>5 seconds</retry_after>\n</tool_error>"
    )
    assert [r.getMessage() for r in caplog.records] == [
        f'code=TRAPPED call="idempotency-begin" then="unavailable" trap="{TRAP}"'
    ]
    # Nothing was claimed: the same call runs now, once.
    assert asyncio.run(store.run("refund_order", "key-7", {"amount": 5}, write))["content"][0]["text"] == "Refunded"
    assert writes == [1]


def test_a_trap_in_finishing_a_write_keeps_the_claim_so_the_key_never_runs_twice(one_off, caplog):
    import asyncio

    store, writes = Idempotency(), []

    def write() -> dict:
        writes.append(1)
        return {"content": [{"type": "text", "text": "Refunded"}]}

    one_off.armed["idempotency-finish"] = 1
    with caplog.at_level(logging.ERROR, logger="mcp_envelope"):
        first = asyncio.run(store.run("refund_order", "key-8", {"amount": 5}, write))
    assert first["content"][0]["text"] == "Refunded"
    assert [r.getMessage() for r in caplog.records] == [
        f'code=TRAPPED call="idempotency-finish" then="kept" trap="{TRAP}"'
    ]
    again = asyncio.run(store.run("refund_order", "key-8", {"amount": 5}, write))
    assert writes == [1]
    assert again["content"][0]["text"].startswith('<tool_error code="CONFLICT"')


def test_a_one_off_trap_in_decide_costs_nothing_and_a_second_raises_the_core_s_words(one_off, caplog):
    failed = me.ToolError("NOT_FOUND", "No invoice inv_9").to_result()
    expected = decide(failed)
    one_off.armed["decide"] = 1
    with caplog.at_level(logging.ERROR, logger="mcp_envelope"):
        assert decide(failed) == expected
    assert [r.getMessage() for r in caplog.records] == [f'code=TRAPPED call="decide" then="call-again" trap="{TRAP}"']
    one_off.armed["decide"] = 2
    with pytest.raises(
        me.ComponentUnavailable,
        match=r"^mcp-envelope: decide trapped twice, on a fresh instance too; it was not answered$",
    ):
        decide(failed)
    assert decide(failed) == expected
