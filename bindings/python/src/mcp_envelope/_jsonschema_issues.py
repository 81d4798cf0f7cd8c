"""Maps `jsonschema` validation errors onto neutral validation issues (Zod 4's
codes), from each error's keyword, keyword value, path and instance; the
library's English message is used only for keywords no template covers."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ._json_values import json_safe, number

# JSON Schema format names -> the neutral ones.
_FORMAT = {"date-time": "datetime", "uri": "url", "iri": "url", "uri-reference": "url"}

# keyword -> (code, origin, bound key) for the size and range keywords.
_SIZE = {
    "minLength": ("too_small", "string", "minimum"),
    "maxLength": ("too_big", "string", "maximum"),
    "minItems": ("too_small", "array", "minimum"),
    "maxItems": ("too_big", "array", "maximum"),
    "minProperties": ("too_small", "object", "minimum"),
    "maxProperties": ("too_big", "object", "maximum"),
    "minimum": ("too_small", "number", "minimum"),
    "maximum": ("too_big", "number", "maximum"),
    "exclusiveMinimum": ("too_small", "number", "minimum"),
    "exclusiveMaximum": ("too_big", "number", "maximum"),
}


def issues_from_jsonschema(errors: Iterable[Any]) -> list[dict[str, Any]]:
    """The neutral issues of `jsonschema` errors (such as `validator.iter_errors(arguments)`), in their order."""
    issues: list[dict[str, Any]] = []
    # jsonschema reports each missing required property as its own error,
    # in the `required` list's order; this hands them out one by one.
    pending_missing: dict[tuple[Any, ...], list[str]] = {}
    for error in errors:
        path = list(error.absolute_path)
        keyword = error.validator
        value = error.validator_value
        instance = error.instance
        if keyword == "required" and isinstance(instance, dict):
            key = (*path, id(error.schema))
            if key not in pending_missing:
                pending_missing[key] = [p for p in value if p not in instance]
            if pending_missing[key]:
                issues.append({"path": [*path, pending_missing[key].pop(0)], "code": "missing_required"})
            continue
        if keyword == "additionalProperties" and value is False and isinstance(instance, dict):
            keys = _additional_keys(instance, error.schema)
            issues.append({"path": path, "code": "unrecognized_keys", "keys": keys})
            continue
        issue: dict[str, Any] = {"path": path, "input": json_safe(instance)}
        if keyword == "type":
            issue.update(code="invalid_type", expected=_expected_type(value))
        elif keyword in _SIZE:
            code, origin, bound_key = _SIZE[keyword]
            issue.update(code=code, origin=origin)
            issue[bound_key] = number(value)
            if keyword.startswith("exclusive") or _draft4_exclusive(keyword, error.schema):
                issue["inclusive"] = False
        elif keyword == "multipleOf":
            issue.update(code="not_multiple_of", divisor=number(value))
        elif keyword == "pattern":
            issue.update(code="invalid_format", format="regex", pattern=str(value))
        elif keyword == "format":
            issue.update(code="invalid_format", format=_FORMAT.get(value, value))
        elif keyword == "enum":
            issue.update(code="invalid_value", values=json_safe(list(value)))
        elif keyword == "const":
            issue.update(code="invalid_value", values=[json_safe(value)])
        elif keyword in ("anyOf", "oneOf"):
            issue["code"] = "invalid_union"
        elif keyword == "uniqueItems":
            issue.update(code="custom", message="Has duplicate items")
        else:
            issue.update(code="custom", message=str(error.message))
        issues.append(issue)
    return issues


def _expected_type(value: Any) -> str:
    """One type name: the first non-null one of a type list (null is rarely what the model meant to send)."""
    if isinstance(value, str):
        return value
    names = [str(t) for t in value] if isinstance(value, (list, tuple)) else []
    non_null = [t for t in names if t != "null"]
    return (non_null or names or ["value"])[0]


def _draft4_exclusive(keyword: str, schema: Any) -> bool:
    """Draft 4 writes `exclusiveMinimum: true` beside `minimum`."""
    if keyword not in ("minimum", "maximum") or not isinstance(schema, dict):
        return False
    flag = schema.get("exclusiveMinimum" if keyword == "minimum" else "exclusiveMaximum")
    return flag is True


def _additional_keys(instance: dict[str, Any], schema: Any) -> list[str]:
    properties = schema.get("properties", {}) if isinstance(schema, dict) else {}
    patterns = schema.get("patternProperties", {}) if isinstance(schema, dict) else {}
    return [
        str(k) for k in instance if k not in properties and not any(re.search(p, str(k)) for p in patterns)
    ]
