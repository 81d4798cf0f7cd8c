"""Measures the Python package: import time (cold compile and warm cache), the
per-call cost of `render` against a hand-written pure-Python renderer of the
same bytes (side by side, interleaved, in one run), and the wheel's size.

Run: bindings/python/.venv/bin/python bindings/python/bench/bench.py
(after scripts/test-python has built and installed the wheel).
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import mcp_envelope as me
from mcp_envelope import _component

sys.path.insert(0, str(Path(__file__).parent))
from pure_python_render import render_xml  # noqa: E402

PACKAGE_DIR = Path(__file__).resolve().parents[1]
ROUNDS = 7
CALLS = 5000

SEED = {
    "code": "NOT_FOUND",
    "message": "No invoice with that ID",
    "suggestion": "List invoices first, then retry with a real ID",
    "availableActions": ["billing.list_invoices"],
    "details": {"requestedId": "inv_2026_9999"},
    "retryAfter": 30,
}
SMALL = {"code": "RATE_LIMITED", "message": "Too many invoice lookups", "retryAfter": 30, "correlationId": "req-7f3a"}
ESCAPED = {
    "code": "VALIDATION_ERROR",
    "message": "amount <= 0 & currency \"EUR\" ]]> rejected\r\n",
    "details": {'field "a"': "x\ty", "strict": True, "limit": 5},
    "category": "validation",
    "retryable": True,
    "customerMessage": "Please check the amount.",
}

IMPORT_SCRIPT = """
import time
t0 = time.perf_counter()
import mcp_envelope
t1 = time.perf_counter()
mcp_envelope.render({"code": "X", "message": "m"})
t2 = time.perf_counter()
print(t1 - t0, t2 - t0)
"""


def import_times(cache_home: str) -> tuple[float, float]:
    # wasmtime's compile cache lives in $XDG_CACHE_HOME/wasmtime by default.
    env = dict(os.environ, XDG_CACHE_HOME=cache_home, MCP_ENVELOPE_CACHE="")
    out = subprocess.run([sys.executable, "-c", IMPORT_SCRIPT], env=env, capture_output=True, text=True, check=True)
    a, b = out.stdout.split()
    return float(a), float(b)


def import_wasmtime_alone() -> float:
    script = "import time; t = time.perf_counter(); import wasmtime.component; print(time.perf_counter() - t)"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return float(out.stdout)


def measure_imports() -> dict[str, float]:
    cold_import, cold_first, warm_import, warm_first = [], [], [], []
    for _ in range(5):
        with tempfile.TemporaryDirectory() as d:
            i, f = import_times(os.path.join(d, "cache"))  # empty cache: compiles, then writes it
            cold_import.append(i)
            cold_first.append(f)
            i, f = import_times(os.path.join(d, "cache"))  # the entry just written
            warm_import.append(i)
            warm_first.append(f)
    return {
        "import mcp_envelope (ms)": statistics.median(cold_import + warm_import) * 1e3,
        "import wasmtime alone, for reference (ms)": statistics.median(
            [import_wasmtime_alone() for _ in range(5)]
        ) * 1e3,
        "import + first render, cold cache (ms)": statistics.median(cold_first) * 1e3,
        "import + first render, warm cache (ms)": statistics.median(warm_first) * 1e3,
    }


def per_call(fn, calls: int = CALLS) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls * 1e6


def measure_calls(spec: dict) -> dict[str, float]:
    recovery = {c: me.defaults_for(c)["recovery"] for c in me.canonical_codes()}
    assert render_xml(spec, recovery) == me.render(spec), "the pure-Python renderer must give the same bytes"
    runtime = _component.runtime()
    spec_json = json.dumps(spec, separators=(",", ":"), ensure_ascii=False)
    instance = runtime._instance()
    generic = instance.funcs["render"]
    candidates = {
        "mcp_envelope.render(dict)": lambda: me.render(spec),
        "runtime.call_result (JSON text in)": lambda: runtime.call_result("render", spec_json, "xml"),
        "wasmtime generic Func call (JSON text in)": lambda: generic(instance.store, spec_json, "xml"),
        "pure-Python renderer": lambda: render_xml(spec, recovery),
    }
    samples: dict[str, list[float]] = {name: [] for name in candidates}
    for _ in range(ROUNDS):  # interleaved, so machine load hits all alike
        for name, fn in candidates.items():
            samples[name].append(per_call(fn))
    return {name: min(times) for name, times in samples.items()}


def wheel_size() -> tuple[str, int] | None:
    wheels = sorted((PACKAGE_DIR / "dist").glob("mcp_envelope-*.whl"))
    return (wheels[-1].name, wheels[-1].stat().st_size) if wheels else None


def main() -> None:
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores")
    for name, ms in measure_imports().items():
        print(f"{name:<45} {ms:8.1f}")
    for label, spec in (("seed invoice example", SEED), ("small spec", SMALL), ("escaping-heavy spec", ESCAPED)):
        results = measure_calls(spec)
        pure = results["pure-Python renderer"]
        print(f"\nper call, {label} (best of {ROUNDS} rounds of {CALLS}):")
        for name, us in results.items():
            print(f"  {name:<45} {us:8.1f} us   {us / pure:5.2f}x pure Python")
    wheel = wheel_size()
    if wheel:
        print(f"\nwheel {wheel[0]}: {wheel[1]} bytes ({wheel[1] / 1024:.0f} KiB)")
    else:
        print("\nno wheel in bindings/python/dist: run scripts/test-python first")


if __name__ == "__main__":
    main()
