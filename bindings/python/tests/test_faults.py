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

INTERNAL_XML = re.compile(
    r'<tool_error code="INTERNAL_ERROR" severity="error">\n'
    r"  <message>The tool failed with an internal error\.</message>\n"
    r"  <recovery>Do not retry blindly: the same call is likely to fail again\. Tell the user the tool failed, "
    r"quoting the correlation id if there is one\.</recovery>\n"
    r"  <correlation_id>(err_[0-9a-f]{16})</correlation_id>\n"
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
    assert match.group(1) in record.getMessage()
    assert "trapped" in record.getMessage()
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
