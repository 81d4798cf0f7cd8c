"""`<validation_error>` envelopes through the public API: the seed example byte
for byte, the same field lines from pydantic, jsonschema and neutral issues,
contract deltas, caps, parse-back, refusals and faults."""

from __future__ import annotations

import jsonschema
import pytest
from test_validation_adapters import BAD_ARGUMENTS, EXPECTED_ISSUES, REFUND_SCHEMA, RefundArgs, pydantic_error

import mcp_envelope as me
from mcp_envelope import _component

RECOVERY = "  <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>\n"

SEED_XML = (
    '<validation_error action="billing.get_invoice">\n'
    "  <field name=\"id\">Invalid email format. You sent: 'not-an-email'. Expected a valid email address.</field>\n"
    + RECOVERY
    + "</validation_error>"
)
SEED_ISSUE = {"path": ["id"], "code": "invalid_format", "format": "email", "input": "not-an-email"}

# EXPECTED_ISSUES (sorted by path), rendered: one line per field.
REFUND_XML = (
    '<validation_error action="refunds.create">\n'
    "  <field name=\"(arguments)\">Unrecognized key 'coupon'. You sent: 'coupon'. Expected only the declared keys; remove it.</field>\n"
    '  <field name="amount_cents">Too small. You sent: 0. Expected at least 1.</field>\n'
    "  <field name=\"count\">Wrong type. You sent: 'many'. Expected an integer.</field>\n"
    '  <field name="email">Missing required field. You sent: nothing. Expected a value.</field>\n'
    "  <field name=\"order_id\">Too short. You sent: 'A1' (2 characters). Expected at least 3 characters.</field>\n"
    '  <field name="quantity">Not a multiple of 5. You sent: 7. Expected a multiple of 5.</field>\n'
    '  <field name="ratio">Too large. You sent: 1. Expected a value less than 1.</field>\n'
    "  <field name=\"reason\">Not one of the allowed values. You sent: 'bored'. Expected one of: 'damaged', 'late', 'other'.</field>\n"
    "  <field name=\"sku\">Does not match the required pattern. You sent: 'sku9'. Expected text matching the pattern '^SKU-\\d+$'.</field>\n"
    '  <field name="tags">Too many items. You sent: an array of 3 items. Expected at most 2 items.</field>\n'
    + RECOVERY
    + "</validation_error>"
)

BREAKING = {
    "action": "refunds.create",
    "severity": "BREAKING",
    "field": "amount_cents",
    "description": "amount is now integer cents",
    "before": "number",
    "after": "integer",
}


def field_lines(text: str) -> list[str]:
    return sorted(line for line in text.splitlines() if line.startswith("  <field "))


def test_the_seed_example_byte_for_byte():
    assert me.render_validation("billing.get_invoice", [SEED_ISSUE]) == SEED_XML
    assert me.validation_error("billing.get_invoice", [SEED_ISSUE]) == {
        "content": [{"type": "text", "text": SEED_XML}],
        "isError": True,
    }


def test_neutral_issues_render_one_line_per_field():
    assert me.render_validation("refunds.create", EXPECTED_ISSUES) == REFUND_XML


def test_pydantic_and_jsonschema_give_the_same_field_lines_as_neutral_issues():
    from_pydantic = me.render_validation("refunds.create", pydantic_error(RefundArgs, BAD_ARGUMENTS))
    schema_errors = list(jsonschema.Draft202012Validator(REFUND_SCHEMA).iter_errors(BAD_ARGUMENTS))
    from_schema = me.render_validation("refunds.create", schema_errors, input=BAD_ARGUMENTS)
    want = field_lines(REFUND_XML)
    assert len(want) == 10
    assert field_lines(from_pydantic) == want
    # jsonschema also knows the missing field's declared type.
    assert field_lines(from_schema) == [line.replace("Expected a value.", "Expected a string.") for line in want]
    # The core puts them in the schema's property order, the unrecognized key last.
    assert [line.split('"')[1] for line in from_schema.splitlines()[1:-2]] == [
        "order_id", "sku", "amount_cents", "reason", "email", "tags", "quantity", "count", "ratio", "(arguments)",
    ]  # fmt: skip


def test_the_sent_value_comes_from_the_arguments_when_an_issue_lacks_it():
    text = me.render_validation(
        "crm.update",
        [{"path": ["customer", "email"], "code": "invalid_format", "format": "email"}],
        input={"customer": {"email": "bob@"}},
    )
    assert field_lines(text) == [
        "  <field name=\"customer.email\">Invalid email format. You sent: 'bob@'. Expected a valid email address.</field>"
    ]


def test_deltas_and_the_field_cap():
    result = me.validation_error("refunds.create", EXPECTED_ISSUES[:2], deltas=[BREAKING], max_fields=1)
    assert result["isError"] is True
    assert result["content"][0]["text"] == (
        '<validation_error action="refunds.create">\n'
        "  <field name=\"(arguments)\">Unrecognized key 'coupon'. You sent: 'coupon'. Expected only the declared keys; remove it.</field>\n"
        '  <more_fields count="1">1 more invalid field is not listed.</more_fields>\n'
        "  <contract_awareness>\n"
        '    <delta severity="BREAKING" action="refunds.create" field="amount_cents" before="number" after="integer">amount is now integer cents</delta>\n'
        "  </contract_awareness>\n" + RECOVERY + "</validation_error>"
    )
    assert me.parse_envelope(result)["validation"] == {
        "action": "refunds.create",
        "fields": [
            {
                "name": "(arguments)",
                "text": "Unrecognized key 'coupon'. You sent: 'coupon'. Expected only the declared keys; remove it.",
            }
        ],
        "omittedFields": 1,
        "deltas": [BREAKING | {"severity": "BREAKING"}],
    }


def test_a_tool_error_carries_contract_deltas_too():
    risky = {"action": None, "severity": "RISKY", "field": "currency", "description": "currency now defaults to EUR"}
    error = me.ToolError("UNKNOWN_ACTION", "No action billing.create_invoice").with_deltas(risky)
    assert error.render() == (
        '<tool_error code="UNKNOWN_ACTION" severity="error">\n'
        "  <message>No action billing.create_invoice</message>\n"
        "  <recovery>Call the tool again with one of the available actions.</recovery>\n"
        "  <contract_awareness>\n"
        '    <delta severity="RISKY" field="currency">currency now defaults to EUR</delta>\n'
        "  </contract_awareness>\n"
        "</tool_error>"
    )
    assert me.tool_error("UNKNOWN_ACTION", "No action billing.create_invoice", deltas=[risky]) == error.to_result()


def test_reading_a_validation_error_back():
    reading = me.parse_envelope("The tool said:\n" + SEED_XML)
    assert reading == {
        "kind": "validation_error",
        "code": "VALIDATION_ERROR",
        "message": "Invalid arguments for billing.get_invoice: id",
        "severity": "error",
        "category": "validation",
        "retryable": True,
        "recovery": "Fix the fields above and call the tool again. Do not explain the error.",
        "validation": {
            "action": "billing.get_invoice",
            "fields": [
                {
                    "name": "id",
                    "text": "Invalid email format. You sent: 'not-an-email'. Expected a valid email address.",
                }
            ],
            "deltas": [],
        },
    }
    assert me.parse_envelope("nothing to see") is None


def test_a_bad_validation_spec_is_refused_with_the_components_message():
    with pytest.raises(me.SpecError) as refused:
        me.render_validation("a", [{"path": ["x"], "code": "nope"}])
    assert str(refused.value).startswith(
        "issues[0].code: unknown variant `nope`, expected one of `invalid_type`, `too_small`,"
    )
    with pytest.raises(
        me.SpecError, match="^maxFields: invalid value: integer `-1`, expected a whole number, 0 or more$"
    ):
        me.validation_error("a", [], max_fields=-1)


def test_a_trap_answers_internal_error_and_a_reader_is_made_once_more(runtime_swap):
    runtime_swap(_component.Runtime(memory_limit=4 << 20))
    huge = [{"path": ["x"], "code": "custom", "message": "m" * (8 << 20)}]
    text = me.render_validation("a", huge)
    assert text.startswith('<tool_error code="INTERNAL_ERROR" severity="error">\n')
    result = me.validation_error("a", huge)
    assert result["isError"] is True and "<correlation_id>err_" in result["content"][0]["text"]
    # The core's after-trap rule: a reader is made once more; trapping again, it raises the core's words.
    with pytest.raises(
        me.ComponentUnavailable,
        match=r"^mcp-envelope: read-envelope trapped twice, on a fresh instance too; it was not answered$",
    ):
        me.parse_envelope('<validation_error action="' + "a" * (8 << 20))
    assert me.render_validation("billing.get_invoice", [SEED_ISSUE]) == SEED_XML


def test_raise_for_error_on_a_validation_error():
    result = me.validation_error("billing.get_invoice", [SEED_ISSUE])
    with pytest.raises(me.EnvelopeError) as raised:
        me.raise_for_error(result)
    e = raised.value
    assert (e.code, e.retryable, e.category, e.malformed) == ("VALIDATION_ERROR", True, "validation", None)
    assert e.message == "Invalid arguments for billing.get_invoice: id"
    assert e.reading == me.parse_envelope(result)
    assert e.validation == e.reading["validation"] and e.error is None
