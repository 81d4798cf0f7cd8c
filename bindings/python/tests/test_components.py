"""Which component serves what: the front (`mcp_envelope`, interface `envelope`) loads only the envelope
component; `mcp_envelope.server`, `.agent`, `.contract` and `.raw` load the full one on the first call that
needs it, never at import. Each process here records the `.wasm` files it opens."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import wasmtime
from vector_files import wit_interfaces
from wasmtime.component import Component

import mcp_envelope as me
from mcp_envelope import _component

# Records each component file the process opens, by name, and prints them with the runtimes loaded after each step.
PROLOGUE = """
import json, os, sys
opened = []
sys.addaudithook(lambda event, args: event == "open" and isinstance(args[0], (str, os.PathLike))
                 and str(args[0]).endswith(".wasm") and opened.append(os.path.basename(str(args[0]))))

def loaded(step):
    from mcp_envelope import _component
    runtimes = [name for name, runtime in _component._runtimes.items() if runtime is not None]
    print(json.dumps([step, sorted(opened), runtimes]))
"""

# Every function of the front, called once (its exceptions as it raises them).
FRONT = """
import mcp_envelope as me
from pydantic import BaseModel, ValidationError
loaded("import")

class Invoice(BaseModel):
    amount: int

try:
    Invoice(amount="ten")
except ValidationError as error:
    invalid = error
spec = {"code": "NOT_FOUND", "message": "No invoice inv_404"}
failed = {"content": [{"type": "text", "text": me.render(spec)}], "isError": True}
partial = {"obtained": ["a"], "failed": [{"item": "b", "code": "X"}]}
calls = {
    "call_tool_result": lambda: me.call_tool_result(spec, "json"),
    "canonical_codes": me.canonical_codes,
    "defaults_for": lambda: me.defaults_for("NOT_FOUND", "pt-BR"),
    "issues_from_pydantic": lambda: me.issues_from_pydantic(invalid),
    "limits_in_force": lambda: me.limits_in_force({"actions": 3}),
    "parse_envelope": lambda: me.parse_envelope(failed),
    "partial_limits_in_force": me.partial_limits_in_force,
    "partial_result": lambda: me.partial_result(partial),
    "protocol_error": lambda: me.protocol_error("invalid-params", "no", spec),
    "raise_for_error": lambda: me.raise_for_error({"content": []}),
    "render": lambda: me.render(spec, "text"),
    "render_partial": lambda: me.render_partial(partial),
    "render_validation": lambda: me.render_validation("refund", invalid, input={"amount": "ten"}),
    "tool_error": lambda: me.tool_error("X", "m", retry_after=5),
    "validation_error": lambda: me.validation_error("refund", invalid),
}
for name, call in calls.items():
    call()
error = me.ToolError("NOT_FOUND", "No invoice").with_detail("id", "inv_404")
error.to_result(), error.render("json"), me.ToolError.from_spec(spec)
try:
    me.raise_for_error(failed)
except me.EnvelopeError:
    pass
try:
    me.render({"code": ""})
except me.SpecError:
    pass
print(json.dumps(sorted(calls)))
loaded("front")
"""


def run(script: str, *, cwd: Path) -> list:
    done = subprocess.run([sys.executable, "-c", PROLOGUE + script], capture_output=True, text=True, cwd=cwd)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_the_front_never_loads_the_full_component(tmp_path):
    importing, called, front = run(FRONT, cwd=tmp_path)
    assert importing == ["import", [], []]  # importing the package loads no component
    # Every function the front names was called.
    assert called == sorted(n for n in me.__all__ if n[0].islower())
    assert front == ["front", ["envelope.wasm"], ["envelope"]]


@pytest.mark.parametrize(
    "entry, call",
    [
        ("server", "forbidden('refund', 'order A-8812')"),
        ("server", "exception_result('charge', 'boom', random='9f86d081884c')"),
        ("agent", "decide({'content': [], 'isError': False})"),
        ("contract", "contract_lock({'tools': []})"),
        ("raw", "span_attributes_json({'content': []})"),
    ],
)
def test_the_other_entry_points_load_the_full_component_on_first_use(tmp_path, entry, call):
    script = f"from mcp_envelope.{entry} import *\nloaded('import')\n{call}\nloaded('call')\n"
    importing, calling = run(script, cwd=tmp_path)
    assert importing == ["import", [], []]
    assert calling[0] == "call" and "full.wasm" in calling[1] and "full" in calling[2]


def test_the_functions_are_the_wit_s():
    """Each interface's functions as `_component` calls them, in the WIT's order."""
    wit = {name: functions for name, functions in wit_interfaces().items() if functions}
    assert {name: list(functions) for name, functions in _component.INTERFACES.items()} == wit


def test_each_packaged_component_exports_its_interfaces_only():
    engine = wasmtime.Engine()
    for component, (file, interfaces) in _component.COMPONENTS.items():
        compiled = Component(engine, Path(_component.__file__).with_name(file).read_bytes())
        for interface in _component.INTERFACES:
            export = compiled.get_export_index(f"{_component.PACKAGE}/{interface}@{_component.VERSION}")
            assert (export is not None) == (interface in interfaces), (component, interface)


def test_each_function_is_called_on_the_component_its_interface_needs():
    assert {name for name, c in _component.COMPONENT_OF.items() if c == "envelope"} == set(
        _component.INTERFACES["envelope"]
    )
    assert set(_component.runtime("envelope").indices) == set(_component.INTERFACES["envelope"])
    assert set(_component.runtime("full").indices) == set(_component.FUNCTIONS)
