"""Every shared vector through the public API, compared byte for byte: the cases of interface `envelope` on
the envelope component and again on the full one (which exports it too), the rest on the full one."""

from __future__ import annotations

import inspect
import json
import re
from collections.abc import Iterator

import pytest
from vector_files import Case, interface_of, load_all, where_they_part, wit_interfaces

import mcp_envelope as me
from mcp_envelope import _component
from mcp_envelope.agent import decide, span_attributes
from mcp_envelope.contract import contract_diff, contract_lock
from mcp_envelope.raw import (
    access_error_json,
    after_trap_json,
    answer_for_revision_json,
    backoff_json,
    call_tool_result_json,
    code_defaults_json,
    contract_diff_json,
    contract_lock_json,
    decide_json,
    empty_result_json,
    exception_result_json,
    handler_result_json,
    host_step_json,
    idempotency_begin_json,
    idempotency_finish_json,
    idempotency_key_json,
    idempotency_store_key,
    ledger_failure_json,
    ledger_key_json,
    ledger_observe_json,
    ledger_store_key,
    limits_in_force_json,
    partial_limits_in_force_json,
    partial_result_json,
    protocol_error_json,
    render_validation_spec,
    span_attributes_json,
    unknown_tool_json,
    upstream_error_json,
    user_error_json,
    validation_result_json,
    validation_result_spec,
)
from mcp_envelope.server import (
    Idempotency,
    Ledger,
    access_error,
    answer_for_revision,
    backoff,
    empty_result,
    exception_result,
    idempotency_key_argument,
    unknown_tool,
    upstream_error,
    user_error,
)

CASES = load_all()
INTERFACES = wit_interfaces()


def same(what: str, got: str, want: str) -> None:
    assert got == want, f"{what}: {where_they_part(got, want)}"


def same_error(parsed: dict, want: dict | str) -> None:
    """Equal when their JSON forms are identical (vectors/README.md: unset equals default)."""
    same("parsed error (as its JSON form)", me.render(parsed, "json"), me.render(want, "json"))


def spec_argument(spec):
    """A dict goes in as is; any other JSON value as its compact text, as the component reads it."""
    return spec if isinstance(spec, dict) else json.dumps(spec, separators=(",", ":"), ensure_ascii=False)


def reading_of(text) -> dict:
    reading = me.parse_envelope(text)
    assert reading is not None, "no envelope found"
    return reading


def compact(value) -> str:
    """JSON as the component writes it: compact, non-ASCII as itself, keys in their order."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


# What a rendering depends on beyond what an envelope states (vectors/README.md, the render kind).
RENDERING_KEYS = ("limits", "locale", "localizeSteering")


def run_render(case: dict) -> None:
    # A `specText` is the spec's raw text, for values no JSON reader takes whole (100,000 levels of nesting): it
    # goes in as text, and its reading says the same as it when their JSON forms match. It sets no rendering keys.
    spec = case["specText"] if "specText" in case else case["spec"]
    for fmt, want in case["expected"].items():
        same(f"{fmt} rendering", me.render(spec, fmt), want)
        back = reading_of(want)
        assert back["kind"] == "tool_error"
        lossy = fmt in case.get("parsed", {})
        same_error(back["error"], case["parsed"][fmt] if lossy else spec)
        # The reading holds the faithful spec, so rendering it again (under the spec's limits and locale) gives the
        # same text, lossy or not: caps cut once.
        stated = {} if isinstance(spec, str) else {key: spec[key] for key in RENDERING_KEYS if key in spec}
        same(f"{fmt} rendering of the reading", me.render(back["error"] | stated, fmt), want)
    for fmt, want in case.get("result", {}).items():
        same(f"{fmt} CallToolResult", call_tool_result_json(spec, fmt), want)
        assert me.call_tool_result(spec, fmt) == json.loads(want)


def run_spec_error(case: dict) -> None:
    spec = case["specText"] if "specText" in case else spec_argument(case["spec"])
    for call in (lambda: me.render(spec, "xml"), lambda: me.render(spec, "text"), lambda: me.call_tool_result(spec)):
        with pytest.raises(me.SpecError) as refused:
            call()
        same("refusal", str(refused.value), case["error"])


def run_parse(case: dict) -> None:
    if "malformed" in case:
        with pytest.raises(me.MalformedEnvelope) as refused:
            me.parse_envelope(case["input"])
        same("malformed message", str(refused.value), case["malformed"])
        return
    got = me.parse_envelope(case["input"])
    if case["parsed"] is None:
        assert got is None or got["kind"] != "tool_error", f"found a tool error where there is none: {got}"
    else:
        assert got is not None and got["kind"] == "tool_error", f"found no tool error: {got}"
        same_error(got["error"], case["parsed"])


def run_protocol_error(case: dict) -> None:
    p = case["protocolError"]
    same("JSON-RPC error", protocol_error_json(p["kind"], p["message"], p.get("data")), case["expected"])
    assert me.protocol_error(p["kind"], p["message"], p.get("data")) == json.loads(case["expected"])


def run_validation(case: dict) -> None:
    spec = case["validation"]  # a string is the spec's raw JSON text, passed as is
    same("validation envelope", render_validation_spec(spec), case["expected"])
    if "result" in case:
        same("validation CallToolResult", validation_result_json(spec), case["result"])
        assert validation_result_spec(spec) == json.loads(case["result"])
    back = reading_of(case["expected"])
    assert back["kind"] == "validation_error"
    whole = isinstance(spec, dict) and len(spec["action"]) <= me.limits_in_force()["messageChars"]
    if whole:  # an action within the caps reads back as sent, a lone surrogate as U+FFFD
        assert back["validation"]["action"] == spec["action"].encode("utf-16", "surrogatepass").decode(
            "utf-16", "replace"
        )
    if "parsed" in case:
        assert back["validation"] == case["parsed"]
    # The same spec through the keyword API, when it is one that API can express.
    known = {
        "action",
        "issues",
        "arguments",
        "inputSchema",
        "deltas",
        "maxFields",
        "maxDeltas",
        "locale",
        "localizeSteering",
    }
    if isinstance(spec, dict) and set(spec) <= known and isinstance(spec.get("issues"), list):
        got = me.render_validation(
            spec["action"],
            spec["issues"],
            input=spec.get("arguments"),
            input_schema=spec.get("inputSchema"),
            deltas=spec.get("deltas"),
            max_fields=spec.get("maxFields"),
            max_deltas=spec.get("maxDeltas"),
            locale=spec.get("locale"),
            localize_steering=spec.get("localizeSteering"),
        )
        same("render_validation", got, case["expected"])


def run_validation_parse(case: dict) -> None:
    if "malformed" in case:
        with pytest.raises(me.MalformedEnvelope) as refused:
            me.parse_envelope(case["parseValidation"])
        same("malformed message", str(refused.value), case["malformed"])
        return
    got = me.parse_envelope(case["parseValidation"])
    if case["parsed"] is None:
        assert got is None or got["kind"] != "validation_error", f"found a validation error where there is none: {got}"
    else:
        assert got is not None and got["kind"] == "validation_error", f"found no validation error: {got}"
        assert got["validation"] == case["parsed"]


def run_validation_error(case: dict) -> None:
    spec = case["validation"]  # a string is the spec's raw JSON text, passed as is
    with pytest.raises(me.SpecError) as refused:
        render_validation_spec(spec)
    same("refusal", str(refused.value), case["error"])
    with pytest.raises(me.SpecError) as refused:
        validation_result_spec(spec)
    same("refusal", str(refused.value), case["error"])


def run_read(case: dict) -> None:
    if "malformed" in case:
        with pytest.raises(me.MalformedEnvelope) as refused:
            me.parse_envelope(case["read"])
        same("malformed message", str(refused.value), case["malformed"])
        return
    want = case["reading"]
    got = me.parse_envelope(case["read"])
    assert got == (None if want["kind"] == "none" else want)


def run_error_of_result(case: dict) -> None:
    result, outcome = case["errorOfResult"], case["outcome"]
    if outcome is None:
        assert me.raise_for_error(result) is result
        return
    with pytest.raises(me.EnvelopeError) as raised:
        me.raise_for_error(result)
    e = raised.value
    assert (e.code, e.message, e.reading, e.malformed) == (
        outcome["code"], outcome["message"], outcome["reading"], outcome.get("malformed"),
    )  # fmt: skip
    reading = outcome["reading"]
    assert (e.severity, e.category, e.retryable, e.recovery) == tuple(
        reading.get(k) for k in ("severity", "category", "retryable", "recovery")
    )


def snake(key: str) -> str:
    return re.sub(r"[A-Z]", lambda m: "_" + m.group().lower(), key)


def package_supplies(name: str, given: dict, case: dict) -> bool:
    """Whether the keyword function fills in, from the host, what this input leaves out on purpose: randomness for a
    correlation id (exception_result), the clock (upstream_error); or takes what the input holds in another form
    (upstream_error's headers as (name, value) pairs). Such a case runs through the `_json` function only."""
    if name == "exception-result":
        return "random" not in given and not (isinstance(given.get("correlationId"), str) and given["correlationId"])
    if name == "upstream-error":
        return isinstance(given.get("headers"), list) or case.get("refused", "").startswith('"now" is needed')
    return False


def keyword_call(function, name: str, given, case: dict):
    """The keyword function's arguments for an input (snake_case keywords), or None when the input cannot be said
    with keywords: not an object, a key that is no keyword, a required one missing, or `package_supplies`."""
    if not isinstance(given, dict) or package_supplies(name, given, case):
        return None
    kwargs = {snake(key): value for key, value in given.items()}
    params = inspect.signature(function).parameters
    required = {p.name for p in params.values() if p.default is inspect.Parameter.empty}
    if not set(kwargs) <= set(params) or not required <= set(kwargs):
        return None
    return lambda: function(**kwargs)


def spec_call(function, name: str, given, case: dict):
    """A function taking the spec itself (a dict, or JSON text for any other value)."""
    return lambda: function(spec_argument(given))


def decide_call(function, name: str, given, case: dict):
    """`decide(result, tool=...)`; a request it cannot say so goes through `decide_json` only."""
    # A text `tool` would be read as JSON text: such a request goes as JSON only.
    if (
        isinstance(given, dict)
        and "result" in given
        and set(given) <= {"result", "tool"}
        and not isinstance(given.get("tool"), str)
    ):
        return lambda: function(given["result"], tool=given.get("tool"))
    return None


def limits_call(function, name: str, given, case: dict):
    """`limits_in_force` and `partial_limits_in_force` take an object or None (the defaults); the other inputs go
    through their `_json` function."""
    return (lambda: function(given)) if given is None or isinstance(given, dict) else None


# Each export: its `_json` function (the component's exact text), and its idiomatic function with how the input
# maps onto it. Every case runs through the first, and through the second whenever the input can be said that way.
CALLS = {
    "code-defaults": (code_defaults_json, me.defaults_for, keyword_call),
    "limits": (limits_in_force_json, me.limits_in_force, limits_call),
    "exception-result": (exception_result_json, exception_result, keyword_call),
    "upstream-error": (upstream_error_json, upstream_error, keyword_call),
    "access-error": (access_error_json, access_error, keyword_call),
    "empty-result": (empty_result_json, empty_result, keyword_call),
    "backoff": (backoff_json, backoff, spec_call),
    "decide": (decide_json, decide, decide_call),
    "unknown-tool": (unknown_tool_json, unknown_tool, keyword_call),
    "user-error": (user_error_json, user_error, keyword_call),
    "contract-lock": (contract_lock_json, contract_lock, spec_call),
    "contract-diff": (contract_diff_json, contract_diff, keyword_call),
    "render-partial": (me.render_partial, None, None),  # its text is its idiomatic form
    "partial-result": (partial_result_json, me.partial_result, spec_call),
    "partial-limits": (partial_limits_in_force_json, me.partial_limits_in_force, limits_call),
    "ledger-key": (ledger_key_json, ledger_store_key, keyword_call),
    "ledger-failure": (ledger_failure_json, None, None),  # JSON in and out: its text is its idiomatic form
    "ledger-observe": (ledger_observe_json, None, None),
    "idempotency-key": (idempotency_key_json, idempotency_store_key, keyword_call),
    "idempotency-begin": (idempotency_begin_json, None, None),
    "idempotency-finish": (idempotency_finish_json, None, None),
    "answer-for-revision": (answer_for_revision_json, answer_for_revision, keyword_call),
    "host-step": (host_step_json, None, None),
    "span-attributes": (span_attributes_json, span_attributes, spec_call),
    "after-trap": (after_trap_json, None, None),
    "handler-result": (handler_result_json, None, None),  # JSON in and out: its text is its idiomatic form
    # Takes nothing: the vector's input is null.
    "idempotency-key-argument": (lambda _: idempotency_key_argument(), None, None),
}


def idiomatic_call(case: dict):
    """The call of the export's idiomatic function for this case, or None when the input cannot be said that way."""
    name, given = case["call"], case["input"]
    _, function, mapping = CALLS[name]  # an export this runner does not know fails here
    return mapping and mapping(function, name, given, case)


def check_outcome(what: str, call, case: dict, as_text) -> None:
    if "refused" in case:
        with pytest.raises(me.SpecError) as refused:
            call()
        same(f"{what} refusal", str(refused.value), case["refused"])
        return
    want = case["output"]
    same(what, as_text(call()), want if isinstance(want, str) else compact(want))


def run_call(case: dict) -> None:
    name, given = case["call"], case["input"]
    text_function = CALLS[name][0]
    check_outcome(f"{name} text", lambda: text_function(spec_argument(given)), case, lambda text: text)
    idiomatic = idiomatic_call(case)
    if idiomatic:
        check_outcome(
            "idiomatic call", idiomatic, case, lambda value: value if isinstance(value, str) else compact(value)
        )


def run_ledger(case: dict) -> None:
    """The steps on one Ledger (failure, observe, success); again with each failure as a ToolError
    (`ToolError.from_spec`), which must not change a byte."""
    options = {"stop_after": case["ledger"]["stopAfter"]} if "stopAfter" in case["ledger"] else {}
    for as_error in (lambda spec: spec, me.ToolError.from_spec):
        with Ledger(**options) as ledger:
            for i, step in enumerate(case["steps"]):
                if "success" in step:
                    assert ledger.success(step["tool"]) is None
                    continue
                if "observe" in step:
                    replaced = ledger.observe(
                        step["tool"], step["observe"], **{k: step[k] for k in ("arguments",) if k in step}
                    )
                    same(f"step {i} (observe)", compact(replaced), compact(step["replaced"]))
                    continue
                keywords = {key: step[key] for key in ("arguments", "format") if key in step}
                got = ledger.failure(step["tool"], as_error(step["failure"]), **keywords)
                same(f"step {i}", compact(got), compact(step["result"]))


def run_idempotency(case: dict) -> None:
    """The steps on one Idempotency store (begin, finish), each answer exactly as the vector states it."""
    options = {"capacity": 1000, "ttl_seconds": 86400}
    options.update({snake(k): v for k, v in case["idempotency"].items()})
    with Idempotency(**options) as store:
        for i, step in enumerate(case["steps"]):
            if "begin" in step:
                got = store.begin(
                    step["tool"], step["key"], step["begin"], now_ms=step["nowMs"], format=step.get("format", "xml")
                )
                same(f"step {i} (begin)", compact(got), compact(step["answer"]))
            elif "refused" in step:
                with pytest.raises(me.SpecError) as refused:
                    store.finish(step["tool"], step["key"], step["finish"], now_ms=step["nowMs"])
                same(f"step {i} (finish refusal)", str(refused.value), step["refused"])
            else:
                got = store.finish(step["tool"], step["key"], step["finish"], now_ms=step["nowMs"])
                same(f"step {i} (finish)", got, step["finished"])


RUNNERS = {
    "render": run_render,
    "spec-error": run_spec_error,
    "parse": run_parse,
    "protocol-error": run_protocol_error,
    "validation": run_validation,
    "validation-error": run_validation_error,
    "validation-parse": run_validation_parse,
    "read": run_read,
    "error-of-result": run_error_of_result,
    "call": run_call,
    "ledger": run_ledger,
    "idempotency": run_idempotency,
}


def components_for(case: Case) -> tuple[str, ...]:
    """The envelope interface's cases run on both components; the rest on the full one."""
    return ("envelope", "full") if interface_of(case, INTERFACES) == "envelope" else ("full",)


class FullNeverCalled:
    """Stands where the full component serves while a case runs on the envelope one, so that a call it makes
    outside interface `envelope` fails the case instead of loading the full component."""

    def call_result(self, name: str, *args):
        raise AssertionError(f"{name} was called on the full component by a case of interface envelope")


@pytest.fixture
def served_by() -> Iterator[object]:
    """Puts one component behind every call: the envelope one (and nothing where the full one serves), or the
    full one where both serve. The process's runtimes come back after."""
    old: dict[str, object] = {}

    def serve(component: str) -> None:
        full = _component.runtime("full") if component == "full" else FullNeverCalled()
        envelope = full if component == "full" else _component.runtime("envelope")
        for slot, runtime in (("envelope", envelope), ("full", full)):
            old.setdefault(slot, _component.replace_runtime(runtime, slot))

    yield serve
    for slot, runtime in old.items():
        _component.replace_runtime(runtime, slot)


@pytest.mark.parametrize(
    "case, component",
    [pytest.param(c, component, id=f"{c.name} [{component}]") for c in CASES for component in components_for(c)],
)
def test_vector(case: Case, component: str, served_by) -> None:
    served_by(component)
    RUNNERS[case.kind](case.data)


def test_each_component_runs_its_cases() -> None:
    runs = {component: [c for c in CASES if component in components_for(c)] for component in ("envelope", "full")}
    assert runs["full"] == CASES
    assert {c.kind for c in runs["envelope"]} >= {"render", "spec-error", "parse", "validation", "read", "call"}
    assert {c.data["call"] for c in runs["envelope"] if c.kind == "call"} >= {"code-defaults", "partial-result"}
    assert not {c.kind for c in runs["envelope"]} & {"ledger", "idempotency"}


def test_every_vector_file_is_read() -> None:
    files = {c.name.split(" / ")[0] for c in CASES}
    assert {"seed-examples", "spec-errors", "parse", "protocol-errors", "read-back", "client-errors"} <= files
    assert {"exceptions", "upstream-errors", "access-errors", "empty-results", "partial-results"} <= files
    assert {"repeat-ledger", "locales", "size-caps", "tool-failure-meta"} <= files
    assert {"read", "error-of-result", "validation", "render", "call", "ledger"} <= {c.kind for c in CASES}
    assert len(CASES) >= 190


def test_most_calls_are_idiomatic() -> None:
    """The call cases the idiomatic functions cannot take are the few `keyword_call` names and the decide requests
    no keyword says, not more."""
    calls = [c for c in CASES if c.kind == "call" and CALLS[c.data["call"]][1] is not None]
    left = [c.name for c in calls if idiomatic_call(c.data) is None]
    assert len(calls) > 150 and len(left) <= 34, left  # refusals of a missing required input: no keyword says them
