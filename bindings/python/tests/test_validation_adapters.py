"""pydantic v2 errors mapped onto neutral issues (the one extraction done in
Python), and jsonschema errors handed to the core raw: the same bad arguments
give the same field lines whichever validator found them."""

from __future__ import annotations

import json
from typing import Literal

import jsonschema
import pytest
from pydantic import BaseModel, ConfigDict, Field, ValidationError

import mcp_envelope as me
from mcp_envelope.raw import render_validation_spec, validation_spec


class RefundArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")
    order_id: str = Field(min_length=3)
    sku: str = Field(pattern=r"^SKU-\d+$")
    amount_cents: int = Field(ge=1, le=5000)
    reason: Literal["damaged", "late", "other"]
    email: str
    tags: list[str] = Field(max_length=2)
    quantity: int = Field(multiple_of=5)
    count: int
    ratio: float = Field(gt=0, lt=1)


REFUND_SCHEMA = {
    "type": "object",
    "properties": {
        "order_id": {"type": "string", "minLength": 3},
        "sku": {"type": "string", "pattern": r"^SKU-\d+$"},
        "amount_cents": {"type": "integer", "minimum": 1, "maximum": 5000},
        "reason": {"enum": ["damaged", "late", "other"]},
        "email": {"type": "string"},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
        "quantity": {"type": "integer", "multipleOf": 5},
        "count": {"type": "integer"},
        "ratio": {"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1},
    },
    "required": ["order_id", "sku", "amount_cents", "reason", "email", "tags", "quantity", "count", "ratio"],
    "additionalProperties": False,
}

BAD_ARGUMENTS = {
    "order_id": "A1",
    "sku": "sku9",
    "amount_cents": 0,
    "reason": "bored",
    "tags": ["a", "b", "c"],
    "quantity": 7,
    "count": "many",
    "ratio": 1,
    "coupon": "FREE",
}

# The neutral issues both validators must come to, sorted by path.
EXPECTED_ISSUES = [
    {"path": [], "code": "unrecognized_keys", "keys": ["coupon"]},
    {"path": ["amount_cents"], "code": "too_small", "origin": "number", "minimum": 1, "input": 0},
    {"path": ["count"], "code": "invalid_type", "expected": "integer", "input": "many"},
    {"path": ["email"], "code": "missing_required"},
    {"path": ["order_id"], "code": "too_small", "origin": "string", "minimum": 3, "input": "A1"},
    {"path": ["quantity"], "code": "not_multiple_of", "divisor": 5, "input": 7},
    {"path": ["ratio"], "code": "too_big", "origin": "number", "maximum": 1, "inclusive": False, "input": 1},
    {"path": ["reason"], "code": "invalid_value", "values": ["damaged", "late", "other"], "input": "bored"},
    {"path": ["sku"], "code": "invalid_format", "format": "regex", "pattern": r"^SKU-\d+$", "input": "sku9"},
    {"path": ["tags"], "code": "too_big", "origin": "array", "maximum": 2, "input": ["a", "b", "c"]},
]


def by_path(issues):
    return sorted(issues, key=lambda i: ([str(s) for s in i["path"]], json.dumps(i, sort_keys=True)))


def pydantic_error(model, arguments) -> ValidationError:
    with pytest.raises(ValidationError) as failed:
        model.model_validate(arguments)
    return failed.value


def schema_errors(schema, arguments) -> list:
    return list(jsonschema.Draft202012Validator(schema).iter_errors(arguments))


def field_lines(text: str) -> list[str]:
    return sorted(line for line in text.splitlines() if line.startswith("  <field "))


def same_lines(errors, issues, arguments=None) -> None:
    """jsonschema errors, read by the core, give the field lines of these neutral issues."""
    got = me.render_validation("a", errors, input=arguments)
    want = me.render_validation("a", issues, input=arguments)
    assert field_lines(got) == field_lines(want) and field_lines(want)


def test_pydantic_errors_map_to_the_neutral_issues():
    assert by_path(me.issues_from_pydantic(pydantic_error(RefundArgs, BAD_ARGUMENTS))) == EXPECTED_ISSUES


# jsonschema knows a missing property's declared type; pydantic's error does not say it.
EXPECTED_JSONSCHEMA_ISSUES = [
    issue | {"expected": "string"} if issue["code"] == "missing_required" else issue for issue in EXPECTED_ISSUES
]


def test_jsonschema_errors_read_by_the_core_give_the_same_lines():
    same_lines(schema_errors(REFUND_SCHEMA, BAD_ARGUMENTS), EXPECTED_JSONSCHEMA_ISSUES, BAD_ARGUMENTS)


def test_jsonschema_errors_go_to_the_core_raw():
    [error] = schema_errors({"type": "object", "properties": {"n": {"minimum": 1}}}, {"n": 0})
    assert validation_spec("a", [error], input={"n": 0}) == {
        "action": "a",
        "jsonSchemaErrors": [
            {
                "keyword": "minimum",
                "path": ["n"],
                "schema": 1,
                "parentSchema": {"minimum": 1},
                "data": 0,
                "message": "0 is less than the minimum of 1",
            }
        ],
        "arguments": {"n": 0},
    }


def test_a_single_jsonschema_error_is_accepted():
    error = jsonschema.exceptions.best_match(schema_errors({"type": "string"}, 5))
    same_lines(error, [{"path": [], "code": "invalid_type", "expected": "string", "input": 5}])


def test_nested_paths_keep_keys_and_indices():
    class Line(BaseModel):
        qty: int = Field(ge=1)

    class Order(BaseModel):
        lines: list[Line]

    arguments = {"lines": [{"qty": 2}, {"qty": 0}, {}]}
    schema = {
        "type": "object",
        "properties": {
            "lines": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {"qty": {"type": "integer", "minimum": 1}},
                    "required": ["qty"],
                },
            }
        },
    }
    expected = [
        {"path": ["lines", 1, "qty"], "code": "too_small", "origin": "number", "minimum": 1, "input": 0},
        {"path": ["lines", 2, "qty"], "code": "missing_required"},
    ]
    assert me.issues_from_pydantic(pydantic_error(Order, arguments)) == expected
    expected[1]["expected"] = "integer"  # jsonschema knows the declared type
    same_lines(schema_errors(schema, arguments), expected, arguments)


def test_pydantic_type_and_format_errors():
    import datetime
    import uuid

    class Event(BaseModel):
        on: datetime.date
        ref: uuid.UUID
        flag: bool
        tags: dict[str, int]

    issues = me.issues_from_pydantic(
        pydantic_error(Event, {"on": "tomorrow", "ref": "nope", "flag": "perhaps", "tags": []})
    )
    assert issues == [
        {"path": ["on"], "input": "tomorrow", "code": "invalid_format", "format": "date"},
        {"path": ["ref"], "input": "nope", "code": "invalid_format", "format": "uuid"},
        {"path": ["flag"], "input": "perhaps", "code": "invalid_type", "expected": "boolean"},
        {"path": ["tags"], "input": [], "code": "invalid_type", "expected": "object"},
    ]


def test_pydantic_literal_values_survive_commas_and_or():
    class Pick(BaseModel):
        choice: Literal["a, b", "this or that", 3, None]

    issues = me.issues_from_pydantic(pydantic_error(Pick, {"choice": "x"}))
    assert issues == [
        {"path": ["choice"], "input": "x", "code": "invalid_value", "values": ["a, b", "this or that", 3, None]}
    ]


def test_pydantic_discriminated_union_names_the_tag_field():
    class Card(BaseModel):
        kind: Literal["card"]
        last4: str

    class Bank(BaseModel):
        kind: Literal["bank"]
        iban: str

    class Payment(BaseModel):
        method: Card | Bank = Field(discriminator="kind")

    wrong_tag = me.issues_from_pydantic(pydantic_error(Payment, {"method": {"kind": "cash"}}))
    assert wrong_tag == [
        {"path": ["method", "kind"], "input": "cash", "code": "invalid_value", "values": ["card", "bank"]}
    ]
    no_tag = me.issues_from_pydantic(pydantic_error(Payment, {"method": {"last4": "1234"}}))
    assert no_tag == [{"path": ["method", "kind"], "code": "missing_required"}]


def test_pydantic_custom_validator_keeps_its_own_words():
    from pydantic import field_validator

    class Booking(BaseModel):
        nights: int

        @field_validator("nights")
        @classmethod
        def at_most_a_fortnight(cls, v: int) -> int:
            if v > 14:
                raise ValueError("stays longer than 14 nights need a manager")
            return v

    assert me.issues_from_pydantic(pydantic_error(Booking, {"nights": 20})) == [
        {
            "path": ["nights"],
            "input": 20,
            "code": "custom",
            "message": "Value error, stays longer than 14 nights need a manager",
        }
    ]


def test_jsonschema_keywords_without_a_template_use_the_message():
    errors = schema_errors({"type": "array", "uniqueItems": True, "contains": {"const": 1}}, [2, 2])
    text = me.render_validation("a", errors)
    assert "Has duplicate items" in text and "[2, 2] does not contain items matching the given schema" in text


def test_jsonschema_formats_unions_and_draft4_exclusive_bounds():
    checker = jsonschema.Draft202012Validator.FORMAT_CHECKER
    schema = {
        "type": "object",
        "properties": {
            "when": {"type": "string", "format": "date"},
            "id": {"anyOf": [{"type": "integer"}, {"type": "string", "minLength": 5}]},
            "mode": {"const": "fast"},
        },
    }
    errors = list(
        jsonschema.Draft202012Validator(schema, format_checker=checker).iter_errors(
            {"when": "31/01/2026", "id": "ab", "mode": "slow"}
        )
    )
    # A union's branches are reported under it (its `context`, handed on as ajv reports them with allErrors).
    same_lines(errors, [
        {"path": ["id"], "input": "ab", "code": "invalid_union"},
        {"path": ["id"], "input": "ab", "code": "invalid_type", "expected": "integer"},
        {"path": ["id"], "input": "ab", "code": "too_small", "origin": "string", "minimum": 5},
        {"path": ["mode"], "input": "slow", "code": "invalid_value", "values": ["fast"]},
        {"path": ["when"], "input": "31/01/2026", "code": "invalid_format", "format": "date"},
    ])  # fmt: skip
    draft4 = jsonschema.Draft4Validator({"minimum": 0, "exclusiveMinimum": True}).iter_errors(0)
    same_lines(list(draft4), [
        {"path": [], "input": 0, "code": "too_small", "origin": "number", "minimum": 0, "inclusive": False}
    ])  # fmt: skip


def test_neutral_issues_get_their_input_from_the_arguments_by_path():
    issues = [
        {"path": ["customer", "email"], "code": "invalid_format", "format": "email"},
        {"path": ["items", 1], "code": "invalid_type", "expected": "string"},
        {"path": ["nowhere"], "code": "invalid_type", "expected": "string"},
    ]
    arguments = {"customer": {"email": "not-an-email"}, "items": ["a", 7]}
    assert validation_spec("a", issues, input=arguments)["arguments"] == arguments
    lines = field_lines(me.render_validation("a", issues, input=arguments))
    assert "You sent: 'not-an-email'." in lines[0] and "You sent: 7." in lines[1] and "You sent: nothing." in lines[2]


def test_values_json_cannot_hold_are_made_plain():
    import datetime
    import decimal

    class Odd(BaseModel):
        n: int

    error = pydantic_error(Odd, {"n": decimal.Decimal("1.5")})
    assert me.issues_from_pydantic(error)[0]["input"] == 1.5
    spec = validation_spec(
        "a",
        [{"path": ["a"], "code": "custom", "message": "m"}],
        input={"a": (datetime.date(2026, 1, 31), float("inf"), {1, 2}, b"\xffx")},
    )
    assert spec["arguments"] == {"a": ["2026-01-31", "[Infinity]", [1, 2], "\ufffdx"]}
    assert '<field name="a">' in render_validation_spec(spec)


def test_other_inputs_are_refused_clearly():
    with pytest.raises(TypeError, match="not int"):
        validation_spec("a", 5)
    with pytest.raises(TypeError, match="must all be neutral issue dicts"):
        validation_spec("a", [{"path": [], "code": "custom"}, "stray"])


def test_pydantic_union_branches_merge_into_one_issue_given_the_arguments():
    class A(BaseModel):
        a: int

    class B(BaseModel):
        b: str

    class Args(BaseModel):
        x: int | str
        z: A | B
        w: list[int | Literal["all"]]
        y: int | None = None

    arguments = {"x": [1], "z": {"c": 1}, "w": [1, "x"], "y": "q"}
    error = pydantic_error(Args, arguments)
    assert me.issues_from_pydantic(error, arguments) == [
        {"path": ["x"], "input": [1], "code": "invalid_union"},
        {"path": ["z"], "input": {"c": 1}, "code": "invalid_union"},
        {"path": ["w", 1], "input": "x", "code": "invalid_union"},
        {"path": ["y"], "input": "q", "code": "invalid_type", "expected": "integer"},
    ]
    # Without the arguments the branch names stay in the paths, as pydantic gives them.
    assert [i["path"] for i in me.issues_from_pydantic(error)][:2] == [["x", "int"], ["x", "str"]]
