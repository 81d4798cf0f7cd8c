"""The repeat ledger: each failure's answer, the streak rules through the package, its refusals, closing, and a
ledger shared by threads (each ledger has a store of its own and a lock)."""

from __future__ import annotations

import json
import re
import threading

import pytest

import mcp_envelope as me
from mcp_envelope.server import Ledger

ERROR = me.ToolError("NOT_FOUND", "No invoice inv_9")
FIRST = (
    '<tool_error code="NOT_FOUND" severity="error">\n'
    "  <message>No invoice inv_9</message>\n"
    "  <recovery>Check the identifier: look the item up or list the available ones, then call again with a real one.</recovery>\n"
    "</tool_error>"
)
REPEAT = FIRST.replace(
    "No invoice inv_9", "Nothing has changed since the last attempt: the same failure again (2 in a row)."
)


def stop(n: int) -> str:
    return (
        '<tool_error code="NOT_FOUND" severity="critical">\n'
        f"  <message>Stop retrying: this call has failed the same way {n} times in a row and nothing has changed.</message>\n"
        "  <recovery>Do not make this call again. Tell the user what failed and that retrying did not help.</recovery>\n"
        "</tool_error>"
    )


def text(result: dict) -> str:
    assert result["isError"] is True
    return result["content"][0]["text"]


def test_the_first_failure_in_full_then_shorter_then_stop():
    with Ledger() as ledger:
        got = [text(ledger.failure("get_invoice", ERROR, arguments={"id": "inv_9"})) for _ in range(4)]
    assert got == [FIRST, REPEAT, stop(3), stop(4)]


def test_an_error_as_a_spec_dict_or_its_json_text_is_the_same_error():
    with Ledger() as ledger:
        assert text(ledger.failure("t", ERROR.to_spec())) == FIRST
        assert text(ledger.failure("t", json.dumps(ERROR.to_spec()))) == REPEAT
        assert text(ledger.failure("t", ERROR)) == stop(3)


def test_the_arguments_join_the_key():
    with Ledger() as ledger:
        assert text(ledger.failure("t", ERROR, arguments={"id": "inv_9", "expand": ["a", "b"]})) == FIRST
        # The same arguments in another key order, or as the JSON text the model sent: the same call.
        assert text(ledger.failure("t", ERROR, arguments='{"expand":["a","b"],"id":"inv_9"}')) == REPEAT
        assert text(ledger.failure("t", ERROR, arguments={"id": "inv_8"})) == FIRST  # changed: something new
        assert text(ledger.failure("t", ERROR, arguments={})) == FIRST  # no arguments and {} differ
        assert text(ledger.failure("t", ERROR)) == FIRST


def test_a_success_ends_the_tools_streak_only():
    with Ledger(stop_after=1) as ledger:
        assert text(ledger.failure("a", ERROR)) == FIRST
        assert text(ledger.failure("b", ERROR)) == FIRST
        ledger.success("a")
        ledger.success("never-failed")
        assert text(ledger.failure("a", ERROR)) == FIRST
        assert text(ledger.failure("b", ERROR)) == stop(2)


def test_stop_after_zero_reads_as_one_and_other_forms():
    with Ledger(0) as ledger:
        assert text(ledger.failure("t", ERROR, format="json")).startswith('{"code":"NOT_FOUND","severity":"error"')
        assert text(ledger.failure("t", ERROR, format="text")).startswith(
            "error_code: NOT_FOUND\nwhat_failed: Stop retrying: this call has failed the same way 2 times in a row"
        )


def test_a_warning_is_returned_as_it_is():
    warning = me.ToolError("DEPRECATED", "Use find").with_severity("warning")
    with Ledger() as ledger:
        ledger.failure("t", ERROR)
        assert ledger.failure("t", warning) == warning.to_result()
        assert text(ledger.failure("t", ERROR)) == REPEAT


def test_refusals():
    with Ledger() as ledger:
        with pytest.raises(me.SpecError, match=r'^"code" must not be empty$'):
            ledger.failure("t", {"code": "", "message": "m"})
        with pytest.raises(
            me.SpecError, match=r"^the arguments are not JSON: EOF while parsing an object at line 1 column 1$"
        ):
            ledger.failure("t", ERROR, arguments="{")
        with pytest.raises(ValueError, match=r"^unknown format 'yaml'"):
            ledger.failure("t", ERROR, format="yaml")  # type: ignore[arg-type]
        assert text(ledger.failure("t", ERROR)) == FIRST  # refusals leave the ledger as it was
    for bad in (-1, 1 << 32, "2", True, 2.0):
        with pytest.raises(ValueError, match=r"^stop_after must be a whole number from 0 to 4294967295, not "):
            Ledger(bad)  # type: ignore[arg-type]


def test_odd_tool_names_and_arguments():
    with Ledger() as ledger:
        assert text(ledger.failure("half \ud83d", ERROR, arguments={"n": float("nan"), "b": b"\xff"})) == FIRST
        assert text(ledger.failure("half \ufffd", ERROR, arguments={"n": "[NaN]", "b": "\ufffd"})) == REPEAT


def test_closing():
    ledger = Ledger(3)
    assert repr(ledger) == "Ledger(stop_after=3)"
    ledger.failure("t", ERROR)
    ledger.close()
    ledger.close()  # harmless
    assert repr(ledger) == "Ledger(stop_after=3) (closed)"
    with pytest.raises(ValueError, match=r"^the ledger is closed$"):
        ledger.failure("t", ERROR)
    with pytest.raises(ValueError, match=r"^the ledger is closed$"):
        ledger.success("t")


def test_each_ledger_is_its_own_memory():
    with Ledger() as one, Ledger() as other:
        one.failure("t", ERROR)
        assert text(other.failure("t", ERROR)) == FIRST
        assert text(one.failure("t", ERROR)) == REPEAT


THREADS = 8


def run_threads(work) -> list:
    results: list = [None] * THREADS
    start = threading.Barrier(THREADS)

    def worker(t: int) -> None:
        try:
            start.wait()
            results[t] = work(t)
        except BaseException as e:  # reported below, not lost in the thread
            results[t] = e

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for result in results:
        assert not isinstance(result, BaseException), repr(result)
    return results


def test_threads_sharing_a_ledger_each_with_its_own_tool():
    ledger = Ledger()
    results = run_threads(lambda t: [text(ledger.failure(f"tool{t}", ERROR)) for _ in range(150)])
    assert all(r == [FIRST, REPEAT] + [stop(n) for n in range(3, 151)] for r in results)


def test_threads_sharing_a_ledger_and_a_tool_lose_no_failure():
    ledger = Ledger()
    results = run_threads(lambda t: [text(ledger.failure("shared", ERROR)) for _ in range(100)])
    got = [answer for thread in results for answer in thread]
    assert got.count(FIRST) == 1 and got.count(REPEAT) == 1
    counts = sorted(int(re.search(r"the same way (\d+) times", a).group(1)) for a in got if "Stop retrying" in a)
    assert counts == list(range(3, THREADS * 100 + 1))  # each failure counted once: the lock serializes them


def test_ledgers_left_open_are_freed_with_their_store():
    import gc

    for _ in range(300):
        Ledger().failure("t", ERROR)
    gc.collect()
    with Ledger() as ledger:
        assert text(ledger.failure("t", ERROR)) == FIRST


def test_observe_watches_any_result_a_handler_built():
    from mcp_types import CallToolResult

    as_text = me.ToolError("TIMEOUT", "Billing is slow", correlation_id="req-1").to_result("text")
    with Ledger() as ledger:
        assert ledger.observe("pay", as_text) is None  # the first failure is sent as it is
        model = CallToolResult.model_validate(as_text)  # the mcp SDK's model, or the JSON text, alike
        repeat = ledger.observe("pay", model)
        assert repeat["content"][0]["text"] == (
            "error_code: TIMEOUT\n"
            "what_failed: Nothing has changed since the last attempt: the same failure again (2 in a row).\n"
            "next_action: Retry once after a short wait; if it times out again, tell the user the service is slow.\n"
            "retryable: true\n"
            "correlation_id: req-1"
        )  # in the handler's own form
        assert "Stop retrying" in ledger.observe("pay", json.dumps(as_text))["content"][0]["text"]
        assert ledger.observe("pay", {"content": [{"type": "text", "text": "paid"}]}) is None  # a success
        assert ledger.observe("pay", as_text) is None  # the streak ended: a first failure again
        with pytest.raises(
            me.SpecError, match=r'^the result must be a CallToolResult: a JSON object with a "content" array$'
        ):
            ledger.observe("pay", {"isError": True})
