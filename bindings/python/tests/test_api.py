"""The public API: each function, its argument handling and its refusals."""

from __future__ import annotations

import ast
import importlib
import json
import subprocess
import sys
import time

import pytest

import mcp_envelope as me
from mcp_envelope.raw import call_tool_result_json, code_defaults_json, protocol_error_json

RATE_LIMITED_XML = (
    '<tool_error code="RATE_LIMITED" severity="error">\n'
    "  <message>Too many invoice lookups</message>\n"
    "  <recovery>Wait for the retry-after period, then make the same call again.</recovery>\n"
    "  <retry_after>30 seconds</retry_after>\n"
    "  <correlation_id>req-7f3a</correlation_id>\n"
    "</tool_error>"
)


def test_render_gives_the_seed_example_byte_for_byte(seed_invoice):
    assert me.render(seed_invoice["spec"]) == seed_invoice["xml"]


def test_render_takes_json_text_as_well_as_a_dict(seed_invoice):
    assert me.render(json.dumps(seed_invoice["spec"])) == seed_invoice["xml"]


def test_render_in_each_format():
    spec = {"code": "RATE_LIMITED", "message": "Too many invoice lookups", "retryAfter": 30}
    assert me.render(spec, "json") == (
        '{"code":"RATE_LIMITED","severity":"error","errorCategory":"transient","isRetryable":true,'
        '"reason":"Too many invoice lookups",'
        '"recovery":"Wait for the retry-after period, then make the same call again.","retryAfter":30}'
    )
    assert me.render(spec, "text") == (
        "error_code: RATE_LIMITED\n"
        "what_failed: Too many invoice lookups\n"
        "next_action: Wait for the retry-after period, then make the same call again.\n"
        "retryable: true\n"
        "retry_after: 30 seconds"
    )


def test_render_refuses_a_bad_spec_with_the_components_message():
    with pytest.raises(me.SpecError, match=r'^"code" must not be empty$'):
        me.render({"code": "", "message": "m"})
    with pytest.raises(me.SpecError, match="unknown field"):
        me.render({"code": "X", "message": "m", "retry_after": 3})


def test_values_json_cannot_hold_are_content_written_by_the_rule_and_only_a_misplaced_one_is_refused():
    # docs/host-values.md: content renders; a marker where the spec needs a number is the programmer's mistake.
    assert '<detail key="when">[object object]</detail>' in me.render(
        {"code": "X", "message": "m", "details": {"when": object()}}
    )
    with pytest.raises(me.SpecError) as refused:
        me.render({"code": "X", "message": "m", "retryAfter": float("nan")})
    assert str(refused.value) == 'retryAfter: invalid type: string "[NaN]", expected a number of seconds'


def test_render_refuses_an_unknown_format():
    with pytest.raises(ValueError, match="unknown format 'yaml'"):
        me.render({"code": "X", "message": "m"}, "yaml")  # type: ignore[arg-type]


def test_a_lone_surrogate_becomes_a_replacement_character():
    text = me.render({"code": "X", "message": "half \ud83d of a pair"})
    assert "<message>half \ufffd of a pair</message>" in text


def test_tool_error_builds_the_call_tool_result():
    result = me.tool_error("RATE_LIMITED", "Too many invoice lookups", retry_after=30, correlation_id="req-7f3a")
    assert result == {"content": [{"type": "text", "text": RATE_LIMITED_XML}], "isError": True}


def test_tool_error_with_every_field_in_json_form():
    result = me.tool_error(
        "REFUND_LIMIT_EXCEEDED",
        "Refund exceeds the limit",
        suggestion="Ask a supervisor",
        available_actions=["refunds.escalate"],
        details={"limit": 500, "currency": "USD", "approved": False},
        retry_after=1.5,
        severity="critical",
        category="business",
        retryable=False,
        customer_message="A supervisor will review this refund.",
        correlation_id="c-1",
        format="json",
    )
    assert result["isError"] is True
    assert json.loads(result["content"][0]["text"]) == {
        "code": "REFUND_LIMIT_EXCEEDED",
        "severity": "critical",
        "errorCategory": "business",
        "isRetryable": False,
        "reason": "Refund exceeds the limit",
        "recovery": "Ask a supervisor",
        "availableActions": ["refunds.escalate"],
        "details": {"limit": "500", "currency": "USD", "approved": "false"},
        "retryAfter": 2,
        "customerMessage": "A supervisor will review this refund.",
        "correlationId": "c-1",
    }


def test_a_warning_is_not_an_error_result():
    result = me.tool_error("DEPRECATED", "Parameter 'limit' is deprecated; use 'page_size'", severity="warning")
    assert result["isError"] is False
    assert result["content"][0]["text"].startswith('<tool_error code="DEPRECATED" severity="warning">')


def test_tool_error_builder_chains_and_renders_the_seed_example(seed_invoice):
    error = (
        me.ToolError("NOT_FOUND", "No invoice with that ID")
        .with_suggestion("List invoices first, then retry with a real ID")
        .with_actions("billing.list_invoices")
        .with_detail("requestedId", "inv_2026_9999")
        .with_retry_after(30)
    )
    assert error.to_spec() == seed_invoice["spec"]
    assert error.render() == seed_invoice["xml"]
    assert error.to_result() == {"content": [{"type": "text", "text": seed_invoice["xml"]}], "isError": True}
    assert str(error) == "NOT_FOUND: No invoice with that ID"
    assert error.message == "No invoice with that ID"


def test_tool_error_keyword_fields_equal_the_builder():
    built = me.ToolError("CONFLICT", "Order changed").with_details({"version": 3}).with_severity("critical")
    built.with_category("business").with_retryable(True).with_customer_message("Try again").with_correlation_id("x")
    direct = me.ToolError(
        "CONFLICT",
        "Order changed",
        details={"version": 3},
        severity="critical",
        category="business",
        retryable=True,
        customer_message="Try again",
        correlation_id="x",
    )
    assert (
        built.to_spec()
        == direct.to_spec()
        == {
            "code": "CONFLICT",
            "message": "Order changed",
            "details": {"version": 3},
            "severity": "critical",
            "category": "business",
            "retryable": True,
            "customerMessage": "Try again",
            "correlationId": "x",
        }
    )


def test_a_detail_set_twice_keeps_its_place():
    error = me.ToolError("X", "m").with_detail("a", 1).with_detail("b", 2).with_detail("a", 3)
    assert list(error.details.items()) == [("a", 3), ("b", 2)]


def test_tool_error_is_raisable():
    with pytest.raises(me.ToolError) as raised:
        raise me.ToolError("FORBIDDEN", "Needs the billing role")
    assert raised.value.code == "FORBIDDEN"


def test_parse_envelope_reads_text_a_result_dict_and_each_form(seed_invoice):
    reading = me.parse_envelope(seed_invoice["xml"])
    assert reading == {
        "kind": "tool_error",
        "code": "NOT_FOUND",
        "message": "No invoice with that ID",
        "severity": "error",
        "category": "business",
        "retryable": False,
        "recovery": "List invoices first, then retry with a real ID",
        "error": seed_invoice["spec"],
    }
    assert me.parse_envelope("The tool said:\n" + seed_invoice["xml"] + "\nthen stopped.") == reading
    result = me.tool_error("RATE_LIMITED", "Too many invoice lookups", retry_after=30, correlation_id="req-7f3a")
    assert me.parse_envelope(result)["error"] == {  # the faithful spec: the stated recovery too
        "code": "RATE_LIMITED",
        "message": "Too many invoice lookups",
        "suggestion": "Wait for the retry-after period, then make the same call again.",
        "retryAfter": 30,
        "correlationId": "req-7f3a",
    }
    for fmt in ("json", "text"):
        back = me.parse_envelope(me.render(seed_invoice["spec"], fmt))
        assert me.render(back["error"], "json") == me.render(seed_invoice["spec"], "json")


def test_parse_envelope_reads_an_mcp_call_tool_result_model(seed_invoice):
    from mcp_types import CallToolResult, TextContent

    result = CallToolResult(content=[TextContent(type="text", text=seed_invoice["xml"])], is_error=True)
    assert me.parse_envelope(result)["error"] == seed_invoice["spec"]


def test_parse_envelope_without_an_envelope_is_none():
    assert me.parse_envelope("All good: 3 invoices found.") is None
    assert me.parse_envelope({"content": [{"type": "text", "text": "ok"}], "isError": False}) is None


def test_parse_envelope_reports_a_broken_envelope():
    with pytest.raises(me.MalformedEnvelope) as raised:
        me.parse_envelope('<tool_error code="X"><message>m')
    assert str(raised.value) == "malformed <tool_error> envelope at byte 31: the envelope ends before its closing tag"


def test_a_tag_never_closed_is_a_mention_not_an_envelope():
    # docs/component-api.md, "Readings": a start tag not closed before the text ends is text.
    assert me.parse_envelope('<tool_error code="X"') is None


def test_parse_envelope_takes_text_with_a_lone_surrogate():
    reading = me.parse_envelope('<tool_error code="X" severity="error">\n  <message>a\ud800b</message>\n</tool_error>')
    assert reading["message"] == "a\ufffdb"


def test_parse_envelope_refuses_other_types():
    with pytest.raises(TypeError, match="not int"):
        me.parse_envelope(42)


def test_raise_for_error_passes_successes_through():
    ok = {"content": [{"type": "text", "text": "3 invoices"}], "isError": False}
    assert me.raise_for_error(ok) is ok


def test_raise_for_error_raises_with_effective_values():
    result = me.tool_error("RATE_LIMITED", "Too many invoice lookups", retry_after=30, correlation_id="req-7f3a")
    with pytest.raises(me.EnvelopeError) as raised:
        me.raise_for_error(result)
    e = raised.value
    assert (e.code, e.message, e.malformed) == ("RATE_LIMITED", "Too many invoice lookups", None)
    assert e.recovery == "Wait for the retry-after period, then make the same call again."
    assert (e.retryable, e.category, e.severity) == (True, "transient", "error")
    assert e.reading == me.parse_envelope(result) and e.error == e.reading["error"]
    assert (e.error["retryAfter"], e.error["correlationId"]) == (30, "req-7f3a")
    assert str(e) == "RATE_LIMITED: Too many invoice lookups"


def test_raise_for_error_on_an_error_without_an_envelope():
    with pytest.raises(me.EnvelopeError) as raised:
        me.raise_for_error({"content": [{"type": "text", "text": "boom"}], "isError": True})
    e = raised.value
    assert (e.code, e.message, e.reading, e.retryable, e.recovery) == (
        "UNKNOWN_ERROR",
        "boom",
        {"kind": "none"},
        None,
        None,
    )


def test_raise_for_error_on_a_broken_envelope():
    with pytest.raises(me.EnvelopeError) as raised:
        me.raise_for_error({"content": [{"type": "text", "text": '<tool_error code="X"><message>m'}], "isError": True})
    assert raised.value.code == "UNKNOWN_ERROR"
    assert (
        raised.value.malformed == "malformed <tool_error> envelope at byte 31: the envelope ends before its closing tag"
    )


def test_raise_for_error_refuses_what_is_not_a_result():
    with pytest.raises(ValueError):
        me.raise_for_error({"isError": True})
    with pytest.raises(ValueError):
        me.raise_for_error("boom")


def test_protocol_error_with_and_without_data():
    assert me.protocol_error("method-not-found", "Method not found: tools/cal") == {
        "code": -32601,
        "message": "Method not found: tools/cal",
    }
    with_data = protocol_error_json("invalid-params", "Unknown tool: x", {"code": "NOT_FOUND", "message": "m"})
    assert with_data == (
        '{"code":-32602,"message":"Unknown tool: x","data":{"code":"NOT_FOUND","severity":"error",'
        '"errorCategory":"business","isRetryable":false,"reason":"m","recovery":"Check the identifier: '
        'look the item up or list the available ones, then call again with a real one."}}'
    )


def test_protocol_error_refuses_an_unknown_kind_and_a_bad_data_spec():
    with pytest.raises(ValueError, match="unknown protocol error kind 'teapot'"):
        me.protocol_error("teapot", "m")  # type: ignore[arg-type]
    with pytest.raises(me.SpecError, match='"code" must not be empty'):
        me.protocol_error("internal-error", "m", {"code": "", "message": "m"})


def test_canonical_codes_and_their_defaults():
    codes = me.canonical_codes()
    assert len(codes) == 17
    assert codes[0] == "MISSING_DISCRIMINATOR" and codes[-1] == "HANDOFF_CONNECTING"
    assert me.defaults_for("TIMEOUT") == {
        "category": "transient",
        "retryable": True,
        "recovery": "Retry once after a short wait; if it times out again, tell the user the service is slow.",
    }
    assert me.defaults_for("MY_OWN_CODE") is None
    assert me.defaults_for("TIMEOUT", "pt-BR") == {
        "category": "transient",
        "retryable": True,
        "recovery": "Tente de novo uma vez após uma breve espera; se o tempo esgotar outra vez, diga ao usuário que o "
        "serviço está lento.",
    }
    assert me.defaults_for("MY_OWN_CODE", "pt-BR") is None
    assert code_defaults_json({"code": "X"}) == "null"
    with pytest.raises(me.SpecError, match=r"^locale: unknown variant `pt`, expected `en` or `pt-BR`$"):
        me.defaults_for("TIMEOUT", "pt")  # type: ignore[arg-type]
    with pytest.raises(me.SpecError, match=r'^"code" must not be empty$'):
        me.defaults_for("")


def test_nested_detail_values_are_shown_as_compact_json():
    text = me.render({"code": "X", "message": "m", "details": {"filter": {"ids": [1, 2]}, "note": None}})
    assert '<detail key="filter">{"ids":[1,2]}</detail>' in text and '<detail key="note">null</detail>' in text


def test_the_old_internal_error_api_is_gone():
    # The core makes correlation ids now (exception_result), so the package has neither function.
    assert not hasattr(me, "internal_error_result") and not hasattr(me, "new_correlation_id")


def test_tool_error_new_keywords_in_the_specs_order():
    error = me.ToolError(
        "RATE_LIMITED", "Muitas consultas", retry_after=30, correlation_id="req_42", locale="pt-BR",
        localize_steering=True, limits={"message_chars": 300, "actions": 5}, tool_failure=1764374400000,
    )  # fmt: skip
    assert list(error.to_spec().items()) == [
        ("code", "RATE_LIMITED"), ("message", "Muitas consultas"), ("retryAfter", 30), ("correlationId", "req_42"),
        ("locale", "pt-BR"), ("localizeSteering", True), ("limits", {"messageChars": 300, "actions": 5}),
        ("toolFailure", {"now": 1764374400000}),
    ]  # fmt: skip
    built = (
        me.ToolError("RATE_LIMITED", "Muitas consultas").with_retry_after(30).with_correlation_id("req_42")
        .with_locale("pt-BR").with_localize_steering().with_limits(message_chars=300).with_limits(actions=5)
        .with_tool_failure(1764374400000)
    )  # fmt: skip
    assert built.to_spec() == error.to_spec()


def test_tool_failure_metadata_dated_by_the_caller_or_the_clock():
    error = me.ToolError("RATE_LIMITED", "Too many requests", retry_after=30, correlation_id="req_42")
    assert call_tool_result_json(error.with_tool_failure(1764374400000).to_spec(), "json").endswith(
        '"isError":true,"_meta":{"io.modelcontextprotocol/toolFailure":{"class":"reliability",'
        '"code":"retryable_transient_error","retryable":true,"retryNotBefore":1764374430000,"correlationId":"req_42",'
        '"agentGuidance":"Wait for the retry-after period, then make the same call again."}}}'
    )
    before = int(time.time() * 1000)
    meta = error.with_tool_failure().to_result()["_meta"]["io.modelcontextprotocol/toolFailure"]
    assert before + 30_000 <= meta["retryNotBefore"] <= int(time.time() * 1000) + 30_000  # the clock, in milliseconds
    assert "_meta" not in error.with_tool_failure(False).to_result()
    with pytest.raises(me.SpecError) as refused:
        me.ToolError("X", "m", tool_failure=True).to_result()
    assert str(refused.value) == (
        '"toolFailure" needs a "correlationId": the proposal requires one, to match the failure with the server\'s log'
    )


def test_limits_cut_a_text_with_a_marked_cut():
    error = me.ToolError("X", "y" * 100, limits={"message_chars": 40})
    assert json.loads(error.render("json"))["reason"] == "y" * 19 + "… [81 characters cut]"
    with pytest.raises(me.SpecError, match=r"^limits.messageChars must be at least 40$"):
        me.ToolError("X", "m").with_limits(message_chars=10).render()
    with pytest.raises(me.SpecError, match=r"^limits: invalid type: integer `300`, expected a limits object$"):
        me.ToolError("X", "m", limits=300).render()  # type: ignore[arg-type]
    with pytest.raises(me.SpecError, match=r"^limits must be a JSON object, not a string$"):
        me.limits_in_force("300")  # type: ignore[arg-type]


def test_from_spec_raises_what_an_envelope_states_again():
    error = me.ToolError("X", "m", available_actions=[f"a{i}" for i in range(12)], details={"k": "v"})
    text = error.render()
    assert '<more_actions count="2">' in text
    stated = me.parse_envelope(text)["error"]
    assert stated["omittedActions"] == 2
    again = me.ToolError.from_spec(stated)
    assert (again.omitted_actions, len(again.available_actions)) == (2, 10)
    assert again.render() == text
    spec = {"code": "X", "message": "m", "correlationId": "c", "toolFailure": {"now": 5}, "severity": None}
    assert me.ToolError.from_spec(spec).to_spec() == {"code": "X", "message": "m", "correlationId": "c",
                                                      "toolFailure": {"now": 5}}  # fmt: skip
    with pytest.raises(TypeError, match=r"^not an error spec key: 'reason' \(expected one of: code, message, "):
        me.ToolError.from_spec({"code": "X", "message": "m", "reason": "r"})


def test_a_locale_for_the_words_the_core_writes():
    assert me.ToolError("NOT_FOUND", "Nenhuma fatura com esse ID", locale="pt-BR").render() == (
        '<tool_error code="NOT_FOUND" severity="error">\n'
        "  <message>Nenhuma fatura com esse ID</message>\n"
        "  <recovery>Confira o identificador: consulte o item ou liste os disponíveis e chame de novo com um que exista."
        "</recovery>\n"
        "</tool_error>"
    )
    issue = [{"path": ["id"], "code": "invalid_format", "format": "email", "input": "not-an-email"}]
    field = (
        "  <field name=\"id\">Formato de email inválido. Você enviou: 'not-an-email'. Esperado: um endereço de email "
        "válido.</field>\n"
    )
    assert me.render_validation("billing.get_invoice", issue, locale="pt-BR", localize_steering=True) == (
        '<validation_error action="billing.get_invoice">\n' + field +
        "  <recovery>Corrija os campos acima e chame a tool de novo. Não explique o erro.</recovery>\n"
        "</validation_error>"
    )  # fmt: skip
    result = me.validation_error("billing.get_invoice", issue, locale="pt-BR")
    assert result["content"][0]["text"] == (
        '<validation_error action="billing.get_invoice">\n' + field +
        "  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n"
        "</validation_error>"
    )  # fmt: skip


# What `import mcp_envelope` and a first render load of the package: the rest waits for its first use.
FIRST_RENDER_MODULES = ["mcp_envelope", "mcp_envelope._component", "mcp_envelope._values", "mcp_envelope.envelope",
                        "mcp_envelope.errors"]  # fmt: skip


def test_import_and_a_first_render_load_only_what_rendering_needs():
    script = (
        "import sys, mcp_envelope\n"
        "mcp_envelope.render({'code': 'X', 'message': 'y'})\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'mcp_envelope'))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout == f"{FIRST_RENDER_MODULES}\n"


# Each entry point's names, exactly: the main front stays small, and nothing joins an entry point by accident.
FRONTS = {
    "mcp_envelope": [
        "Category", "CodeDefaults", "ComponentUnavailable", "EnvelopeError", "Format", "Limits", "Locale",
        "MalformedEnvelope", "PartialLimits", "ProtocolErrorKind", "Severity", "SpecError", "ToolError", "ToolResult",
        "call_tool_result", "canonical_codes", "defaults_for", "issues_from_pydantic", "limits_in_force",
        "parse_envelope", "partial_limits_in_force", "partial_result", "protocol_error", "raise_for_error", "render",
        "render_partial", "render_validation", "tool_error", "validation_error",
    ],
    "mcp_envelope.server": [
        "AccessKind", "ExceptionReport", "Idempotency", "Ledger", "MemoryStore", "SharedIdempotency", "SharedLedger",
        "StateStore", "StoreUnavailable", "UnknownToolAnswer", "UnknownToolOption", "UpstreamReport", "access_error",
        "answer_for_revision", "auth_required", "backoff", "empty_result", "exception_result", "forbidden",
        "idempotency_key_argument", "retry_within", "unknown_tool", "upstream_error", "user_error",
    ],
    "mcp_envelope.agent": [
        "Decision", "HostBudget", "Recovered", "call_tool_with_recovery", "decide", "host_step", "span_attributes",
    ],
    "mcp_envelope.contract": ["LockedContract", "contract_diff", "contract_lock"],
    "mcp_envelope.raw": [
        "access_error_json", "after_trap_json", "answer_for_revision_json", "backoff_json", "call_tool_result_json",
        "code_defaults_json", "contract_diff_json", "contract_lock_json", "decide_json", "empty_result_json",
        "exception_result_json", "handler_result_json", "host_step_json", "idempotency_begin_json",
        "idempotency_finish_json", "idempotency_key_json", "idempotency_store_key", "ledger_failure_json",
        "ledger_key_json", "ledger_observe_json", "ledger_store_key", "limits_in_force_json",
        "partial_limits_in_force_json", "partial_result_json", "protocol_error_json", "render_validation_spec",
        "span_attributes_json", "unknown_tool_json", "upstream_error_json", "user_error_json",
        "validation_result_json", "validation_result_spec", "validation_spec",
    ],
}  # fmt: skip


@pytest.mark.parametrize("entry", FRONTS)
def test_each_entry_point_holds_exactly_its_names(entry):
    module = importlib.import_module(entry)
    assert sorted(module.__all__) == FRONTS[entry]
    assert len(set(module.__all__)) == len(module.__all__)
    for name in module.__all__:
        assert getattr(module, name) is not None, name


def test_a_name_has_one_entry_point():
    entries = [name for names in FRONTS.values() for name in names]
    assert len(entries) == len(set(entries)) == 96


def test_the_type_checker_reads_exactly_the_front_from_the_modules_the_interpreter_takes_it_from():
    typed = {  # name: module, as imported under `if TYPE_CHECKING:` in __init__.py
        alias.asname: node.module
        for block in ast.parse(open(me.__file__, encoding="utf-8").read()).body
        if isinstance(block, ast.If) and ast.unparse(block.test) == "TYPE_CHECKING"
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.asname == alias.name
    }
    assert sorted(typed) == sorted(me.__all__)
    assert set(typed.values()) == set(me._SOURCES)
    assert set(me.__all__) <= set(dir(me))
    sources = [importlib.import_module(f"mcp_envelope.{source}") for source in me._SOURCES]
    for name in me.__all__:
        # Every module that has the name holds the same object: which one the front takes it from cannot matter.
        assert {id(getattr(source, name)) for source in sources if hasattr(source, name)} == {id(getattr(me, name))}
        assert getattr(importlib.import_module(f"mcp_envelope.{typed[name]}"), name) is getattr(me, name)
    assert importlib.import_module("mcp_envelope.envelope").PROTOCOL_ERROR_KINDS[0] == "parse-error"
    for moved in ["decide", "upstream_error", "Ledger", "contract_lock", "validation_spec", "call_tool_result_json"]:
        with pytest.raises(AttributeError, match=f"has no attribute '{moved}'"):
            getattr(me, moved)
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        me.no_such_name  # noqa: B018


def test_a_bare_import_loads_nothing_but_the_package():
    script = "import sys, mcp_envelope\nprint(sorted(m for m in sys.modules if m.split('.')[0] == 'mcp_envelope'))\n"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout == "['mcp_envelope']\n"
