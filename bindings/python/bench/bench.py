"""Measures the Python package, each figure side by side with its reference in one run:

- per call, on the inputs every host times (benches/inputs.json): `render` (the seed spec, XML),
  `validation` (a 20-field spec), `readBack` (`parse_envelope` of the seed envelope), each on the
  direct path the package uses and on wasmtime's public call path (MCP_ENVELOPE_PUBLIC_CALLS=1),
  against a hand-written pure-Python version giving the same bytes or dict (pure_python.py);
- cold start: a fresh process importing the package and rendering once, with the package's compile
  cache warm and with none, against one doing `import wasmtime.component`;
- the wheel's size.

Medians of interleaved rounds, so machine load hits every candidate alike. Writes JSON rows to its
first argument (default build/bench/python.json) and prints them as a table.

Run: bindings/python/.venv/bin/python bindings/python/bench/bench.py [out.json]
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
from collections.abc import Callable
from pathlib import Path

import mcp_envelope as me
from mcp_envelope import _component
from mcp_envelope.raw import render_validation_spec

sys.path.insert(0, str(Path(__file__).parent))
from pure_python import read_back, render_validation, render_xml  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
PACKAGE_DIR = Path(__file__).resolve().parents[1]
INPUTS = json.loads((ROOT / "benches" / "inputs.json").read_text(encoding="utf-8"))
ROUNDS = 9
SAMPLE_SECONDS = 0.05  # per candidate and round
COLD_RUNS = 9


def per_call_rows() -> list[dict]:
    defaults = {code: me.defaults_for(code) for code in me.canonical_codes()}
    recovery = {code: d["recovery"] for code, d in defaults.items() if d}
    cases = {  # case: (the package's call, the pure-Python one, the reference's name)
        "render": (lambda: me.render(INPUTS["render"]), lambda: render_xml(INPUTS["render"], recovery),
                   "pure-Python renderer"),
        "validation": (lambda: render_validation_spec(INPUTS["validation"]),
                       lambda: render_validation(INPUTS["validation"]), "pure-Python validation renderer"),
        "readBack": (lambda: me.parse_envelope(INPUTS["readBack"]), lambda: read_back(INPUTS["readBack"], defaults),
                     "pure-Python envelope reader"),
    }  # fmt: skip
    direct, public = _component.Runtime(public_calls=False), _component.Runtime(public_calls=True)
    if not direct.direct:
        print("warning: the load-time check refused the direct path; both rows are the public path", file=sys.stderr)
    paths = {"": direct, " (public path)": public}
    for case, (ours, pure, _) in cases.items():
        for runtime in paths.values():
            _component.replace_runtime(runtime)
            assert ours() == pure(), f"{case}: the pure-Python reference must give the same answer"
    candidates: dict[str, tuple[Callable[[], object], _component.Runtime | None]] = {}
    for case, (ours, pure, _) in cases.items():
        candidates |= {case + suffix: (ours, runtime) for suffix, runtime in paths.items()}
        candidates[case + " reference"] = (pure, None)
    counts = {name: calls_per_sample(fn, runtime) for name, (fn, runtime) in candidates.items()}
    samples: dict[str, list[float]] = {name: [] for name in candidates}
    for _ in range(ROUNDS):
        for name, (fn, runtime) in candidates.items():
            samples[name].append(time_calls(fn, runtime, counts[name]))
    median = {name: statistics.median(times) for name, times in samples.items()}
    return [
        {"table": "per-call", "case": case + suffix, "value": round(median[case + suffix], 2), "unit": "µs",
         "reference": round(median[case + " reference"], 2), "referenceName": reference_name}
        for case, (_, _, reference_name) in cases.items() for suffix in paths
    ]  # fmt: skip


def time_calls(fn: Callable[[], object], runtime: _component.Runtime | None, calls: int) -> float:
    if runtime is not None:
        _component.replace_runtime(runtime)
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls * 1e6


def calls_per_sample(fn: Callable[[], object], runtime: _component.Runtime | None) -> int:
    per_call = min(time_calls(fn, runtime, 200) for _ in range(3)) / 1e6
    return max(200, int(SAMPLE_SECONDS / per_call))


def cold_start_rows() -> list[dict]:
    render = f"import mcp_envelope; mcp_envelope.render({INPUTS['render']!r})"
    env = {k: v for k, v in os.environ.items() if not k.startswith("MCP_ENVELOPE_")}
    with tempfile.TemporaryDirectory() as tmp:
        warm = dict(env, XDG_CACHE_HOME=os.path.join(tmp, "warm"))  # the package's cache: $XDG_CACHE_HOME/mcp-envelope
        run(render, warm)  # fills it
        runs: dict[str, list[float]] = {"reference": [], "warm": [], "none": []}
        for i in range(COLD_RUNS):
            runs["reference"].append(run("import wasmtime.component", env))
            runs["warm"].append(run(render, warm))
            runs["none"].append(run(render, dict(env, XDG_CACHE_HOME=os.path.join(tmp, f"empty-{i}"))))
    reference = round(statistics.median(runs["reference"]), 1)
    return [
        {"table": "cold-start", "case": f"import + first render ({label})", "value": round(statistics.median(runs[key]), 1),
         "unit": "ms", "reference": reference, "referenceName": "import wasmtime.component"}
        for key, label in (("warm", "warm cache"), ("none", "no cache"))
    ]  # fmt: skip


def run(code: str, env: dict[str, str]) -> float:
    """A fresh process's wall time, in ms."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, check=True)
    return (time.perf_counter() - start) * 1e3


def size_rows() -> list[dict]:
    wheels = sorted((PACKAGE_DIR / "dist").glob("mcp_envelope-*.whl"))
    if not wheels:
        print("no wheel in bindings/python/dist: run scripts/test-python first", file=sys.stderr)
        return []
    return [{"table": "size", "case": "wheel", "value": wheels[-1].stat().st_size, "unit": "bytes"}]


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT / "build" / "bench" / "python.json")
    rows = per_call_rows() + cold_start_rows() + size_rows()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"host": "python", "rows": rows}, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores; medians of {ROUNDS} rounds ({COLD_RUNS} processes)")
    for row in rows:
        line = f"{row['table']:<10} {row['case']:<40} {row['value']:>10} {row['unit']}"
        if "reference" in row:
            line += f"   {row['value'] / row['reference']:5.2f}x  {row['referenceName']} {row['reference']} {row['unit']}"
        print(line)
    print(f"written to {out}")


if __name__ == "__main__":
    main()
