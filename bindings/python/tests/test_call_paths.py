"""The two call paths: the direct one over wasmtime's C API, used when the load-time check passes, and the
public `wasmtime.component` one, forced by MCP_ENVELOPE_PUBLIC_CALLS=1 (scripts/test-python runs the vector,
fault and thread tests a second time with it, so both paths answer every vector)."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import types

import pytest

import mcp_envelope as me
from mcp_envelope import _component
from mcp_envelope.raw import call_tool_result_json, partial_result_json, render_validation_spec
from mcp_envelope.server import access_error, empty_result, exception_result, upstream_error

FORCED_PUBLIC = os.environ.get(_component.PUBLIC_CALLS_ENV) == "1"


def test_the_process_runs_the_path_the_environment_asks_for():
    # With the pinned wasmtime the check passes, so only the variable makes it the public path.
    for component in _component.COMPONENTS:
        assert _component.runtime(component).direct is not FORCED_PUBLIC


def test_the_variable_forces_the_public_path_in_a_fresh_process(seed_invoice):
    script = "import sys, mcp_envelope as me; from mcp_envelope import _component as c\n"
    script += "print(c.runtime().direct, me.render({'code': 'X', 'message': 'm'}) == sys.argv[1])"
    want = me.render({"code": "X", "message": "m"})
    for value, direct in (("1", "False"), ("", "True")):
        env = dict(os.environ, **{_component.PUBLIC_CALLS_ENV: value})
        done = subprocess.run([sys.executable, "-c", script, want], env=env, capture_output=True, text=True, check=True)
        assert done.stdout.split() == [direct, "True"]


def test_both_paths_give_the_same_answers(runtime_swap, seed_invoice):
    def answers(public: bool) -> list:
        runtime_swap(_component.Runtime(public_calls=public))
        runtime_swap(_component.Runtime("full", public_calls=public))
        got = [me.render(seed_invoice["spec"], f) for f in ("xml", "json", "text")]
        got += [call_tool_result_json(seed_invoice["spec"], "json"), me.parse_envelope(seed_invoice["xml"])]
        got += [me.raise_for_error({"content": []}), render_validation_spec({"action": "a", "issues": []})]
        for refused in ({"code": ""}, "{"):
            with pytest.raises(me.SpecError) as error:
                me.render(refused)
            got.append(str(error.value))
        odd = {"code": "X", "message": "lone \ud800 surrogate, NUL \x00, é, \U0001f600", "details": {"": ""}}
        got.append(me.render(odd))
        # The one-string functions the direct path also takes, answers and refusals alike.
        got += [me.defaults_for("NOT_FOUND", "pt-BR"), me.defaults_for("MINE"), me.limits_in_force({"actions": 3})]
        got += [exception_result("charge", "boom \ud800", random="9f86d081884c", locale="pt-BR")]
        got += [upstream_error(503, headers={"Retry-After": "5"}, body="<b>é</b>", excerpt_chars=10)]
        got += [access_error("forbidden", action="refund"), empty_result("pedidos", query="para é")]
        partial = {"obtained": ["é"], "failed": [{"item": "\U0001f600", "code": "X"}], "format": "json"}
        got += [me.render_partial(partial), partial_result_json(partial)]
        for refused_call in (lambda: me.defaults_for(""), lambda: exception_result("t", "e", random="xyz"),
                             lambda: empty_result(""), lambda: me.render_partial({"obtained": []})):  # fmt: skip
            with pytest.raises(me.SpecError) as error:
                refused_call()
            got.append(str(error.value))
        return got

    assert answers(public=False) == answers(public=True)


@pytest.mark.parametrize(
    "ffi",
    [
        None,  # a wasmtime without its private ctypes module
        types.SimpleNamespace(),  # ... or with other names in it
        types.SimpleNamespace(  # ... or with another value layout
            wasmtime_component_val_t=type(
                "Packed",
                (ctypes.Structure,),
                {
                    "_pack_": 1,
                    "_fields_": [("kind", ctypes.c_uint8), ("of", _component._ffi.wasmtime_component_valunion_t)],
                },
            ),
            wasm_byte_vec_t=_component._ffi.wasm_byte_vec_t,
            wasmtime_component_valunion_t=_component._ffi.wasmtime_component_valunion_t,
        ),
    ],
)
def test_an_unexpected_wasmtime_means_the_public_path(runtime_swap, monkeypatch, seed_invoice, ffi):
    monkeypatch.setattr(_component, "_ffi", ffi)
    runtime = runtime_swap(_component.Runtime(public_calls=False))
    assert runtime.direct is False
    assert me.render(seed_invoice["spec"]) == seed_invoice["xml"]


def test_a_direct_path_that_disagrees_with_the_public_one_is_not_used(runtime_swap, monkeypatch, seed_invoice):
    real = _component.Runtime._call_direct

    def off_by_one(self, name, text, format=None):
        ok, value = real(self, name, text, format)
        return ok, value and value + " "

    monkeypatch.setattr(_component.Runtime, "_call_direct", off_by_one)
    runtime = runtime_swap(_component.Runtime(public_calls=False))
    assert runtime.direct is False
    assert me.render(seed_invoice["spec"]) == seed_invoice["xml"]
