"""Maps a pydantic v2 `ValidationError` onto neutral validation issues (Zod 4's
codes), from the errors' structured `type`, `loc`, `ctx` and `input`, never
from pydantic's English message (used only for `custom`)."""

from __future__ import annotations

import ast
from typing import Any

from ._json_values import is_number, json_safe, number

# pydantic error type -> the type name the model should have sent.
_EXPECTED_TYPE = {
    "string_type": "string",
    "string_unicode": "string",
    "string_sub_type": "string",
    "bytes_type": "string",
    "uuid_type": "string",
    "url_type": "string",
    "int_type": "integer",
    "int_parsing": "integer",
    "int_parsing_size": "integer",
    "int_from_float": "integer",
    "float_type": "number",
    "float_parsing": "number",
    "decimal_type": "number",
    "decimal_parsing": "number",
    "complex_type": "number",
    "bool_type": "boolean",
    "bool_parsing": "boolean",
    "dict_type": "object",
    "model_type": "object",
    "model_attributes_type": "object",
    "dataclass_type": "object",
    "list_type": "array",
    "tuple_type": "array",
    "set_type": "array",
    "frozen_set_type": "array",
    "iterable_type": "array",
    "none_required": "null",
    "date_type": "date",
    "datetime_type": "date",
}

# pydantic error type -> the format a string failed.
_FORMAT = {
    "date_parsing": "date",
    "date_from_datetime_parsing": "date",
    "date_from_datetime_inexact": "date",
    "datetime_parsing": "datetime",
    "datetime_from_date_parsing": "datetime",
    "datetime_object_invalid": "datetime",
    "time_parsing": "time",
    "time_delta_parsing": "duration",
    "uuid_parsing": "uuid",
    "uuid_version": "uuid",
    "url_parsing": "url",
    "url_syntax_violation": "url",
    "url_scheme": "url",
    "ip_v4_address": "ipv4",
    "ip_v6_address": "ipv6",
}

# pydantic error type -> (neutral code, ctx key of the bound, inclusive).
_BOUND = {
    "greater_than": ("too_small", "gt", False),
    "greater_than_equal": ("too_small", "ge", True),
    "less_than": ("too_big", "lt", False),
    "less_than_equal": ("too_big", "le", True),
}


def issues_from_pydantic(error: Any, arguments: Any = None) -> list[dict[str, Any]]:
    """The neutral issues of a pydantic v2 `ValidationError`, in pydantic's order.

    One pydantic error becomes one issue, except that the `extra_forbidden`
    errors of one object merge into a single `unrecognized_keys` issue, and,
    given the validated `arguments`, the errors of each branch of a union
    merge into one `invalid_union` issue at the union's path (pydantic puts
    the branch names, such as `int` or a model's name, into the path).
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
    """(the union's path, the value sent there) when `loc` holds a union branch name; else None.

    Walks `loc` through the arguments: a segment that is not a key or index
    of the value reached is a branch name, except a last key of an object
    (a missing or unexpected field).
    """
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
    elif kind in ("string_too_short", "string_too_long"):
        _size(issue, kind.endswith("short"), "string", ctx)
    elif kind in ("too_short", "too_long"):
        origin = "object" if isinstance(sent, dict) else "set" if isinstance(sent, (set, frozenset)) else "array"
        _size(issue, kind.endswith("short"), origin, ctx)
    elif kind in _BOUND:
        code, key, inclusive = _BOUND[kind]
        bound = ctx.get(key)
        issue.update(code=code, origin="number" if is_number(bound) else "date")
        issue["minimum" if code == "too_small" else "maximum"] = number(bound)
        if not inclusive:
            issue["inclusive"] = False
    elif kind == "multiple_of":
        issue.update(code="not_multiple_of", divisor=number(ctx.get("multiple_of")))
    elif kind in ("literal_error", "enum") and _literals(ctx.get("expected")) is not None:
        issue.update(code="invalid_value", values=_literals(ctx.get("expected")))
    elif kind == "union_tag_invalid" and _literals(ctx.get("expected_tags")) is not None:
        discriminator = _unquote(ctx.get("discriminator"))
        issue.update(path=[*loc, discriminator], code="invalid_value", input=json_safe(ctx.get("tag")))
        issue["values"] = _literals(ctx.get("expected_tags"))
    elif kind == "union_tag_not_found":
        issue = {"path": [*loc, _unquote(ctx.get("discriminator"))], "code": "missing_required"}
    else:
        issue.update(code="custom", message=str(e.get("msg", "")))
    return issue


def _size(issue: dict[str, Any], small: bool, origin: str, ctx: dict[str, Any]) -> None:
    if small:
        issue.update(code="too_small", origin=origin, minimum=number(ctx.get("min_length")))
    else:
        issue.update(code="too_big", origin=origin, maximum=number(ctx.get("max_length")))


def _unquote(quoted: Any) -> str:
    """pydantic writes a discriminator as `'kind'`."""
    text = str(quoted)
    try:
        value: object = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text
    return value if isinstance(value, str) else text


def _literals(expected: Any) -> list[Any] | None:
    """The allowed values from pydantic's `ctx.expected` text (`'a', 'b' or 'c'`).

    Parsed as a Python expression, so a value containing " or " or a comma
    still reads right; None when it is not a plain list of literals.
    """
    if not isinstance(expected, str) or not expected:
        return None
    try:
        tree = ast.parse(expected, mode="eval").body
    except SyntaxError:
        return None
    nodes: list[ast.expr] = list(tree.elts) if isinstance(tree, ast.Tuple) else [tree]
    flat: list[ast.expr] = []
    for node in nodes:
        if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
            flat.extend(node.values)
        else:
            flat.append(node)
    values = []
    for node in flat:
        try:
            values.append(json_safe(ast.literal_eval(node)))
        except (ValueError, SyntaxError, TypeError):
            return None
    return values
