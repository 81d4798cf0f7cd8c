"""Faults: after a trap the instance is rebuilt and that call answers INTERNAL_ERROR;
nothing from wasmtime leaks to the caller."""

from __future__ import annotations

import logging
import re

import pytest

import mcp_envelope as me
from mcp_envelope import _component

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
    return runtime_swap(_component.Runtime(memory_limit=SMALL_MEMORY))


def test_a_trap_answers_internal_error_and_logs_the_cause(small_memory, caplog, seed_invoice):
    with caplog.at_level(logging.ERROR, logger="mcp_envelope"):
        text = me.render(HUGE_SPEC)
    match = INTERNAL_XML.match(text)
    assert match, text[:500]
    [record] = [r for r in caplog.records if r.name == "mcp_envelope"]
    # The core's log line for the trap, under the id the envelope quotes.
    assert record.getMessage().startswith(
        f'mcp-envelope component trapped: code=INTERNAL_ERROR correlationId="{match.group(1)}" tool="" '
        'exception="render trapped: '
    )
    # The next call runs on a fresh instance and is right again.
    assert me.render(seed_invoice["spec"]) == seed_invoice["xml"]


def test_a_trap_in_each_entry_point(small_memory, seed_invoice):
    result = me.tool_error("X", "m" * (8 << 20))
    assert result["isError"] is True
    assert INTERNAL_XML.match(result["content"][0]["text"])
    with pytest.raises(me.MalformedEnvelope, match=r"^the envelope reader failed \(INTERNAL_ERROR, correlation id err_"):
        me.parse_envelope("<tool_error " + "x" * (8 << 20))
    assert me.parse_envelope(seed_invoice["xml"])["error"] == seed_invoice["spec"]


def test_a_trap_in_protocol_error_answers_an_internal_protocol_error(small_memory):
    got = me.protocol_error("invalid-params", "m" * (8 << 20))
    assert got == {"code": -32603, "message": "Internal error"}
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
        empty = me.empty_result(huge)  # a result function answers INTERNAL_ERROR as a result
        partial = me.render_partial({"obtained": [], "failed": [{"item": huge, "code": "X"}], "format": "json"})
        with pytest.raises(_component.ComponentUnavailable, match=r"^upstream-error failed in the component "
                           r"\(INTERNAL_ERROR, correlation id err_[0-9a-f]{12}\); the next call runs on a fresh instance$"):
            me.upstream_error(503, body=huge)  # data, not an envelope: nothing to answer with
    assert empty["isError"] is True and INTERNAL_XML.match(empty["content"][0]["text"])
    # In the form the partial result's spec asked for.
    assert partial.startswith('{"code":"INTERNAL_ERROR","severity":"error","errorCategory":"internal"')
    ids = [re.search(r'correlationId="(err_[0-9a-f]{12})"', r.getMessage()).group(1) for r in caplog.records]
    assert len(set(ids)) == 3 and ids[0] in empty["content"][0]["text"] and ids[1] in partial
    assert me.empty_result("orders")["isError"] is False  # a fresh instance, right again


def test_a_trap_in_a_ledger_step_counts_nothing_and_loses_nothing(small_memory, caplog):
    error = me.ToolError("NOT_FOUND", "No invoice inv_9")
    with me.Ledger() as ledger, caplog.at_level(logging.ERROR, logger="mcp_envelope"):
        assert ledger.failure("t", error)["content"][0]["text"].startswith('<tool_error code="NOT_FOUND"')
        # A failure that traps: its INTERNAL_ERROR in the form asked for, logged; the streak is the host's, untouched.
        trapped = ledger.failure("t", me.ToolError("X", "m" * (8 << 20)), format="text")
        assert trapped["content"][0]["text"].startswith("error_code: INTERNAL_ERROR\n")
        assert len([r for r in caplog.records if "ledger-failure trapped" in r.getMessage()]) == 1
        assert "(2 in a row)" in ledger.failure("t", error)["content"][0]["text"]
        # A result too big to watch is sent as it is (None): the ledger fails open, and keeps its streak.
        huge = {"content": [{"type": "text", "text": "m" * (8 << 20)}], "isError": True}
        assert ledger.observe("t", huge) is None
        assert len([r for r in caplog.records if "ledger-observe trapped" in r.getMessage()]) == 1
        assert "Stop retrying" in ledger.observe("t", error.to_result())["content"][0]["text"]


def test_a_trap_in_unknown_tool_answers_in_the_shape_asked_for(small_memory):
    huge = "m" * (8 << 20)
    assert me.unknown_tool(huge, ["a"]) == {"error": {"code": -32603, "message": "Internal error"}}
    as_result = me.unknown_tool(huge, ["a"], answer="tool-result")
    assert list(as_result) == ["result"] and type(as_result["result"]) is me.ToolResult
    assert INTERNAL_XML.match(as_result["result"]["content"][0]["text"])
    assert me.unknown_tool("x", ["a"])["error"]["code"] == -32602  # a fresh instance, right again
