"""The mistakes of vectors/same-contract.json made through the real pydantic 2
and jsonschema, each against the JSON Schema its server lists, as the
validation spec the package hands the core. test_same_contract.py checks the
vectors still hold what these validators give today; run this file with
`--write` to refresh the pydantic and jsonschema cases after an upgrade (the
zod and ajv ones come from bindings/js/test/same-contract.mjs)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any, Literal

import jsonschema
from pydantic import BaseModel, EmailStr, Field, ValidationError

from mcp_envelope.raw import validation_spec

VECTORS = Path(__file__).resolve().parents[3] / "vectors" / "same-contract.json"


class Line(BaseModel):
    sku: Annotated[str, Field(pattern=r"^SKU-\d+$")]
    qty: Annotated[int, Field(ge=1)]


# billing.refund_order's arguments, as a Python server declares them (no
# docstring: it would become the listed schema's description).
class RefundOrder(BaseModel):
    customer: EmailStr
    amount: Annotated[float, Field(gt=0, le=10000)]
    currency: Literal["BRL", "USD"]
    quantity: Annotated[int, Field(ge=1, le=100)]
    note: Annotated[str, Field(max_length=20)] | None = None
    lines: Annotated[list[Line], Field(min_length=1)] | None = None


LISTED_SCHEMA: dict[str, Any] = RefundOrder.model_json_schema()


def pydantic_spec(action: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The spec for pydantic's errors: neutral issues, as `validation_error` builds them."""
    try:
        RefundOrder.model_validate(arguments)
    except ValidationError as error:
        return validation_spec(action, error, input=arguments, input_schema=LISTED_SCHEMA)
    raise AssertionError(f"pydantic accepted {arguments!r}")


def jsonschema_spec(action: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The spec for jsonschema's errors (every error, formats checked): raw, as `validation_error` hands them on."""
    validator = jsonschema.Draft202012Validator(LISTED_SCHEMA, format_checker=jsonschema.FormatChecker())
    errors = list(validator.iter_errors(arguments))
    return validation_spec(action, errors, input=arguments, input_schema=LISTED_SCHEMA)


SPECS = {"pydantic 2": pydantic_spec, "jsonschema 4": jsonschema_spec}

if __name__ == "__main__" and "--write" in sys.argv:
    groups = json.loads(VECTORS.read_text(encoding="utf-8"))
    for group in groups:
        for case in group["cases"]:
            spec = SPECS.get(case["description"])
            if spec is not None:
                case["validation"] = spec(case["validation"]["action"], case["validation"]["arguments"])
    VECTORS.write_text(json.dumps(groups, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
