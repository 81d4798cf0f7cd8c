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


def run_render(case: dict) -> None:
    spec = case["spec"]
    for fmt, want in case["expected"].items():
        same(f"{fmt} rendering", me.render(spec, fmt), want)
        back = me.parse_envelope(want)
        assert back is not None, f"no envelope found in the {fmt} rendering"
        same_error(back, case.get("parsed", {}).get(fmt, spec))
        # parse-spec gives the minimal spec, which drops an explicit category or
        # retryable equal to the code's default, so re-rendering is compared by
        # meaning (as vectors/README.md says for JSON-only runners), not by text.
        same_error(me.parse_envelope(me.render(back, fmt)), back)
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
        assert got is None, f"found an envelope where there is none: {got}"
    else:
        assert got is not None, "found no envelope"
        same_error(got, case["parsed"])


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
    back = me.parse_validation(case["expected"])
    assert back is not None, "the validation parser found no envelope in the expected text"
    if isinstance(spec, dict):
        assert back["action"] == spec["action"]
    if "parsed" in case:
        assert back == case["parsed"]
    # The same spec through the keyword API, when it is one that API can express.
    known = {"action", "issues", "deltas", "maxFields", "maxDeltas"}
    if isinstance(spec, dict) and set(spec) <= known and isinstance(spec.get("issues"), list):
        got = me.render_validation(
            spec["action"],
            spec["issues"],
            deltas=spec.get("deltas"),
            max_fields=spec.get("maxFields"),
            max_deltas=spec.get("maxDeltas"),
        )
        same("render_validation", got, case["expected"])


def run_validation_parse(case: dict) -> None:
    if "malformed" in case:
        with pytest.raises(me.MalformedEnvelope) as refused:
            me.parse_validation(case["parseValidation"])
        same("malformed message", str(refused.value), case["malformed"])
        return
    assert me.parse_validation(case["parseValidation"]) == case["parsed"]


def run_validation_error(case: dict) -> None:
    spec = case["validation"]  # a string is the spec's raw JSON text, passed as is
    with pytest.raises(me.SpecError) as refused:
        me.render_validation_spec(spec)
    same("refusal", str(refused.value), case["error"])
    with pytest.raises(me.SpecError) as refused:
        me.validation_result_spec(spec)
    same("refusal", str(refused.value), case["error"])


RUNNERS = {
    "render": run_render,
    "spec-error": run_spec_error,
    "parse": run_parse,
    "protocol-error": run_protocol_error,
    "validation": run_validation,
    "validation-error": run_validation_error,
    "validation-parse": run_validation_parse,
}


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_vector(case: Case) -> None:
    RUNNERS[case.kind](case.data)


def test_every_vector_file_is_read() -> None:
    files = {c.name.split(" / ")[0] for c in CASES}
    assert {"seed-examples", "spec-errors", "parse", "protocol-errors"} <= files
    assert len(CASES) >= 160
