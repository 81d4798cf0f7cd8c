"""Concurrent use: 8 threads making 10,000 calls each give exactly the outputs of one thread."""

from __future__ import annotations

import threading

from vector_files import load_all

import mcp_envelope as me
from mcp_envelope.raw import call_tool_result_json

THREADS = 8
CALLS_PER_THREAD = 10_000


def workload() -> list[tuple[dict, str]]:
    """Small render vectors in all formats: different specs, so a mixed-up call shows."""
    work = []
    for case in load_all():
        if case.kind == "render" and "spec" in case.data and len(str(case.data["spec"])) < 2000:
            for fmt in case.data["expected"]:
                work.append((case.data["spec"], fmt))
    return work


def run_calls(work: list[tuple[dict, str]], offset: int) -> list[str]:
    out = []
    for i in range(CALLS_PER_THREAD):
        spec, fmt = work[(i + offset) % len(work)]
        out.append(me.render(spec, fmt) if i % 2 else call_tool_result_json(spec, fmt))
    return out


def test_eight_threads_give_the_outputs_of_one():
    work = workload()
    assert len(work) > 100
    # One thread, alone, for each offset the threads will use.
    expected = [run_calls(work, offset=t * 37) for t in range(THREADS)]
    results: list[list[str] | BaseException | None] = [None] * THREADS
    start = threading.Barrier(THREADS)

    def worker(t: int) -> None:
        try:
            start.wait()
            results[t] = run_calls(work, offset=t * 37)
        except BaseException as e:  # reported below, not lost in the thread
            results[t] = e

    threads = [threading.Thread(target=worker, args=(t,)) for t in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for t in range(THREADS):
        assert not isinstance(results[t], BaseException), f"thread {t} raised {results[t]!r}"
        got = results[t]
        assert got is not None and len(got) == CALLS_PER_THREAD
        mismatches = [i for i in range(CALLS_PER_THREAD) if got[i] != expected[t][i]]
        assert not mismatches, f"thread {t}: {len(mismatches)} outputs differ, first at call {mismatches[0]}"


def test_each_thread_has_its_own_instance():
    from mcp_envelope import _component

    runtime = _component.runtime()
    seen = []

    def record() -> None:
        seen.append(id(runtime._instance()))

    threads = [threading.Thread(target=record) for _ in range(4)]
    for thread in threads:
        thread.start()
        thread.join()  # one at a time: ids of live instances cannot be reused
    main_instance = id(runtime._instance())
    assert main_instance not in seen
