"""Every shared vector through the public API, compared byte for byte."""

from __future__ import annotations

import json

import pytest

import mcp_envelope as me
from vector_files import Case, load_all, where_they_part

CASES = load_all()


def same(what: str, got: str, want: str) -> None:
    assert got == want, f"{what}: {where_they_part(got, want)}"


def same_error(parsed: dict, want: dict) -> None:
    """Equal when their JSON forms are identical (vectors/README.md: unset equals default)."""
    same("parsed error (as its JSON form)", me.render(parsed, "json"), me.render(want, "json"))


def spec_argument(spec):
    """A dict goes in as is; any other JSON value as its compact text, as the component reads it."""
    return spec if isinstance(spec, dict) else json.dumps(spec, separators=(",", ":"), ensure_ascii=False)


def reading_of(text) -> dict:
    reading = me.parse_envelope(text)
    assert reading is not None, "no envelope found"
    return reading


def run_render(case: dict) -> None:
    spec = case["spec"]
    for fmt, want in case["expected"].items():
        same(f"{fmt} rendering", me.render(spec, fmt), want)
        back = reading_of(want)
        assert back["kind"] == "tool_error"
        lossy = fmt in case.get("parsed", {})
        same_error(back["error"], case["parsed"][fmt] if lossy else spec)
        if not lossy:  # the reading holds the faithful spec, so rendering it again gives the same text
            same(f"{fmt} rendering of the reading", me.render(back["error"], fmt), want)
    for fmt, want in case.get("result", {}).items():
        same(f"{fmt} CallToolResult", me.call_tool_result_json(spec, fmt), want)
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
    same("JSON-RPC error", me.protocol_error_json(p["kind"], p["message"], p.get("data")), case["expected"])
    assert me.protocol_error(p["kind"], p["message"], p.get("data")) == json.loads(case["expected"])


def run_validation(case: dict) -> None:
    spec = case["validation"]  # a string is the spec's raw JSON text, passed as is
    same("validation envelope", me.render_validation_spec(spec), case["expected"])
    if "result" in case:
        same("validation CallToolResult", me.validation_result_json(spec), case["result"])
        assert me.validation_result_spec(spec) == json.loads(case["result"])
    back = reading_of(case["expected"])
    assert back["kind"] == "validation_error"
    if isinstance(spec, dict):  # a lone surrogate reads back as U+FFFD
        assert back["validation"]["action"] == spec["action"].encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if "parsed" in case:
        assert back["validation"] == case["parsed"]
    # The same spec through the keyword API, when it is one that API can express.
    known = {"action", "issues", "arguments", "deltas", "maxFields", "maxDeltas"}
    if isinstance(spec, dict) and set(spec) <= known and isinstance(spec.get("issues"), list):
        got = me.render_validation(
            spec["action"],
            spec["issues"],
            input=spec.get("arguments"),
            deltas=spec.get("deltas"),
            max_fields=spec.get("maxFields"),
            max_deltas=spec.get("maxDeltas"),
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
        me.render_validation_spec(spec)
    same("refusal", str(refused.value), case["error"])
    with pytest.raises(me.SpecError) as refused:
        me.validation_result_spec(spec)
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
}


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_vector(case: Case) -> None:
    RUNNERS[case.kind](case.data)


def test_every_vector_file_is_read() -> None:
    files = {c.name.split(" / ")[0] for c in CASES}
    assert {"seed-examples", "spec-errors", "parse", "protocol-errors", "read-back", "client-errors"} <= files
    assert {"read", "error-of-result", "validation", "render"} <= {c.kind for c in CASES}
    assert len(CASES) >= 190
