"""Maps a pydantic v2 `ValidationError` onto neutral validation issues (Zod 4's
codes), from the errors' structured `type`, `loc`, `ctx` and `input`, never
from pydantic's English message (used only for `custom`)."""

from __future__ import annotations

import ast
import decimal
import math
from typing import Any

from ._json import json_safe, plain

# pydantic error type -> the type name the model should have sent.
_EXPECTED_TYPE = {
    **dict.fromkeys(("string_type", "string_unicode", "string_sub_type", "bytes_type", "uuid_type", "url_type"), "string"),
    **dict.fromkeys(("int_type", "int_parsing", "int_parsing_size", "int_from_float"), "integer"),
    **dict.fromkeys(("float_type", "float_parsing", "decimal_type", "decimal_parsing", "complex_type"), "number"),
    **dict.fromkeys(("bool_type", "bool_parsing"), "boolean"),
    **dict.fromkeys(("dict_type", "model_type", "model_attributes_type", "dataclass_type"), "object"),
    **dict.fromkeys(("list_type", "tuple_type", "set_type", "frozen_set_type", "iterable_type"), "array"),
    **{"none_required": "null", "date_type": "date", "datetime_type": "date"},
}
# pydantic error type -> the format a string failed.
_FORMAT = {
    **dict.fromkeys(("date_parsing", "date_from_datetime_parsing", "date_from_datetime_inexact"), "date"),
    **dict.fromkeys(("datetime_parsing", "datetime_from_date_parsing", "datetime_object_invalid"), "datetime"),
    **dict.fromkeys(("uuid_parsing", "uuid_version"), "uuid"),
    **dict.fromkeys(("url_parsing", "url_syntax_violation", "url_scheme"), "url"),
    **{"time_parsing": "time", "time_delta_parsing": "duration", "ip_v4_address": "ipv4", "ip_v6_address": "ipv6"},
}
# pydantic error type -> (neutral code, ctx key of the bound, inclusive).
_BOUND = {
    "greater_than": ("too_small", "gt", False), "greater_than_equal": ("too_small", "ge", True),
    "less_than": ("too_big", "lt", False), "less_than_equal": ("too_big", "le", True),
}  # fmt: skip
# pydantic error type -> (neutral code, ctx key of the size limit, the bound's name).
_SIZE = {
    "string_too_short": ("too_small", "min_length", "minimum"), "too_short": ("too_small", "min_length", "minimum"),
    "string_too_long": ("too_big", "max_length", "maximum"), "too_long": ("too_big", "max_length", "maximum"),
}  # fmt: skip


def issues_from_pydantic(error: Any, arguments: Any = None) -> list[dict[str, Any]]:
    """The neutral issues of a pydantic v2 `ValidationError`, in pydantic's order: one per error, except that
    the `extra_forbidden` errors of one object merge into one `unrecognized_keys` issue and, given the validated
    `arguments`, the errors of a union's branches (pydantic puts branch names into `loc`) into one `invalid_union`.
    """
    issues: list[dict[str, Any]] = []
    unrecognized: dict[tuple[Any, ...], dict[str, Any]] = {}
    unions: set[tuple[Any, ...]] = set()
    for e in error.errors(include_url=False):
        kind = e.get("type", "")
        loc = list(e.get("loc", ()))
        union = _union_at(loc, arguments) if arguments is not None else None
        if union is not None:
            path, sent = union
            if tuple(path) not in unions:
                unions.add(tuple(path))
                issues.append({"path": path, "input": json_safe(sent), "code": "invalid_union"})
            continue
        if kind in ("extra_forbidden", "unexpected_keyword_argument") and loc:
            parent = tuple(loc[:-1])
            if parent in unrecognized:
                unrecognized[parent]["keys"].append(str(loc[-1]))
            else:
                issue = {"path": list(parent), "code": "unrecognized_keys", "keys": [str(loc[-1])]}
                unrecognized[parent] = issue
                issues.append(issue)
            continue
        issues.append(_issue(kind, loc, e.get("ctx") or {}, e))
    return issues


def _union_at(loc: list[Any], arguments: Any) -> tuple[list[Any], Any] | None:
    """(the union's path, the value sent there) when a segment of `loc` is no key or index of the value reached
    (a branch name), unless it is the last and names an object's missing or unexpected field; else None."""
    value = arguments
    for i, segment in enumerate(loc):
        if isinstance(value, dict) and segment in value:
            value = value[segment]
        elif isinstance(value, list) and isinstance(segment, int) and 0 <= segment < len(value):
            value = value[segment]
        elif i == len(loc) - 1 and isinstance(value, dict):
            return None
        else:
            return list(loc[:i]), value
    return None


def _issue(kind: str, loc: list[Any], ctx: dict[str, Any], e: dict[str, Any]) -> dict[str, Any]:
    issue: dict[str, Any] = {"path": loc}
    sent = e.get("input")
    if kind in ("missing", "missing_argument", "missing_keyword_only_argument", "missing_positional_only_argument"):
        issue["code"] = "missing_required"
        return issue  # pydantic's `input` here is the enclosing object, not the field
    if "input" in e:
        issue["input"] = json_safe(sent)
    if kind in _EXPECTED_TYPE:
        issue.update(code="invalid_type", expected=_EXPECTED_TYPE[kind])
    elif kind in _FORMAT:
        issue.update(code="invalid_format", format=_FORMAT[kind])
    elif kind == "string_pattern_mismatch":
        issue.update(code="invalid_format", format="regex", pattern=str(ctx.get("pattern", "")))
    elif kind in _SIZE:
        code, key, bound_name = _SIZE[kind]
        origin = "object" if isinstance(sent, dict) else "set" if isinstance(sent, (set, frozenset)) else "array"
        issue.update({"code": code, "origin": "string" if kind.startswith("string") else origin})
        issue[bound_name] = number(ctx.get(key))
    elif kind in _BOUND:
        code, key, inclusive = _BOUND[kind]
        bound = ctx.get(key)
        issue.update(code=code, origin="number" if isinstance(bound, (int, float, decimal.Decimal)) else "date")
        issue["minimum" if code == "too_small" else "maximum"] = number(bound)
        if not inclusive:
            issue["inclusive"] = False
    elif kind == "multiple_of":
        issue.update(code="not_multiple_of", divisor=number(ctx.get("multiple_of")))
    elif kind in ("literal_error", "enum") and _literals(ctx.get("expected")) is not None:
        issue.update(code="invalid_value", values=_literals(ctx.get("expected")))
    elif kind == "union_tag_invalid" and _literals(ctx.get("expected_tags")) is not None:
        discriminator = str(ctx.get("discriminator")).strip("'")
        issue.update(path=[*loc, discriminator], code="invalid_value", input=json_safe(ctx.get("tag")))
        issue["values"] = _literals(ctx.get("expected_tags"))
    elif kind == "union_tag_not_found":
        issue = {"path": [*loc, str(ctx.get("discriminator")).strip("'")], "code": "missing_required"}
    else:
        issue.update(code="custom", message=str(e.get("msg", "")))
    return issue


def _literals(expected: Any) -> list[Any] | None:
    """The allowed values from pydantic's `ctx.expected` text (`'a', 'b' or 'c'`), parsed as Python so a value
    holding " or " or a comma reads right; None when it is not a plain list of literals."""
    if not isinstance(expected, str) or not expected:
        return None
    try:
        tree = ast.parse(expected, mode="eval").body
    except SyntaxError:
        return None
    nodes: list[ast.expr] = list(tree.elts) if isinstance(tree, ast.Tuple) else [tree]
    flat = [v for n in nodes for v in (n.values if isinstance(n, ast.BoolOp) and isinstance(n.op, ast.Or) else [n])]
    values = []
    for node in flat:
        try:
            values.append(json_safe(ast.literal_eval(node)))
        except (ValueError, SyntaxError, TypeError):
            return None
    return values


def number(value: Any) -> Any:
    """A bound or divisor as a JSON number where it is one (pydantic gives a float field's 0 as 0.0), else its text."""
    if isinstance(value, float) and math.isfinite(value) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, (bool, int, float)):
        return value if not isinstance(value, float) or math.isfinite(value) else repr(value)
    try:
        return plain(value)
    except TypeError:
        return str(value)
