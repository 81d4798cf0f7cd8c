"""`<validation_error>` envelopes written to be healed: one line per bad field
saying what was sent and what was expected, from pydantic, jsonschema or
neutral issues alike. The component reads jsonschema's errors itself, and
looks the sent values up in the call's arguments; pydantic's errors exist only
in Python, so they are mapped onto neutral issues (Zod 4's codes) here, from
their structured `type`, `loc`, `ctx` and `input`, never from pydantic's
English message (used only for `custom`).

    >>> from mcp_envelope import render_validation
    >>> print(render_validation("billing.get_invoice",
    ...     [{"path": ["id"], "code": "invalid_format", "format": "email"}], input={"id": "not-an-email"}))
    <validation_error action="billing.get_invoice">
      <field name="id">Invalid email format. You sent: 'not-an-email'. Expected a valid email address.</field>
      <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>
    </validation_error>
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Mapping
from typing import Any

from ._component import ToolResult, json_safe, produce, tool_result
from .envelope import Locale


def _is_instance(value: Any, module: str, name: str) -> bool:
    """isinstance against a class of an optional library, without importing it."""
    cls = getattr(sys.modules.get(module), name, None)
    return cls is not None and isinstance(value, cls)


def _raw_jsonschema_error(e: Any) -> dict[str, Any]:
    """A `jsonschema` error as the core reads it (docs/component-api.md, "JSON Schema errors, raw")."""
    raw = {"keyword": e.validator, "path": list(e.absolute_path), "schema": e.validator_value}
    return json_safe(raw | {"parentSchema": e.schema, "data": e.instance, "message": e.message})  # type: ignore[no-any-return]


def _flat_jsonschema_errors(errors: Iterable[Any]) -> list[dict[str, Any]]:
    """jsonschema's errors as ajv reports them with `allErrors`: an `anyOf`/`oneOf` error followed by its
    branches' errors (its `context`), so the core reads the two validators alike."""
    flat: list[dict[str, Any]] = []
    for e in errors:
        flat.append(_raw_jsonschema_error(e))
        flat.extend(_flat_jsonschema_errors(e.context or ()))
    return flat


def validation_spec(
    action: str, issues_or_error: Any, *, input: Any = None, input_schema: Mapping[str, Any] | None = None,
    deltas: Iterable[Mapping[str, Any]] | None = None, max_fields: int | None = None, max_deltas: int | None = None,
    locale: Locale | None = None, localize_steering: bool | None = None,
) -> dict[str, Any]:  # fmt: skip
    """The component's validation spec: `{"action", "issues" or "jsonSchemaErrors", "arguments"?, ...}`.

    `issues_or_error` is a pydantic v2 `ValidationError`, jsonschema errors (one, or a list such as
    `list(validator.iter_errors(arguments))`) or neutral issue dicts; `input`, the call's arguments, shows
    what was sent where an issue does not say. `input_schema` is the tool's input schema as `tools/list`
    publishes it (the JSON Schema the model read), passed on unchanged as `inputSchema`: the component words
    each field's "Expected …" from it, so every validator gives the same line for the same schema. `locale`
    ("en" or "pt-BR") picks the words of the field lines; `localize_steering` puts the recovery line in that
    locale too (it stays English otherwise).
    """
    spec: dict[str, Any] = {"action": action}
    if _is_instance(issues_or_error, "pydantic_core", "ValidationError"):
        spec["issues"] = issues_from_pydantic(issues_or_error, input)
    elif _is_instance(issues_or_error, "jsonschema.exceptions", "ValidationError"):
        spec["jsonSchemaErrors"] = _flat_jsonschema_errors([issues_or_error])
    elif isinstance(issues_or_error, Iterable) and not isinstance(issues_or_error, (str, bytes, Mapping)):
        items = list(issues_or_error)
        if items and all(_is_instance(i, "jsonschema.exceptions", "ValidationError") for i in items):
            spec["jsonSchemaErrors"] = _flat_jsonschema_errors(items)
        elif all(isinstance(i, Mapping) for i in items):
            spec["issues"] = [dict(i) for i in items]
        else:
            raise TypeError("issues must all be neutral issue dicts, or all jsonschema errors")
    else:
        raise TypeError(
            "validation_error takes a pydantic ValidationError, jsonschema errors, or a list of issue dicts, "
            f"not {type(issues_or_error).__name__}"
        )
    optional = {"arguments": json_safe(input), "inputSchema": json_safe(input_schema),
                "deltas": None if deltas is None else [dict(d) for d in deltas],
                "maxFields": max_fields, "maxDeltas": max_deltas, "locale": locale,
                "localizeSteering": localize_steering}  # fmt: skip
    return spec | {key: value for key, value in optional.items() if value is not None}


def render_validation_spec(spec: Mapping[str, Any] | str) -> str:
    """The `<validation_error>` envelope of a validation spec (a dict, or its JSON text)."""
    return produce("render-validation", spec)


def validation_result_spec(spec: Mapping[str, Any] | str) -> ToolResult:
    """The `CallToolResult` dict (a ToolResult, `isError: true`) carrying a validation spec's envelope."""
    return tool_result(validation_result_json(spec))


def validation_result_json(spec: Mapping[str, Any] | str) -> str:
    """`validation_result_spec` as the component's exact JSON text."""
    return produce("validation-result", spec, result=True)


def render_validation(action: str, issues_or_error: Any, **options: Any) -> str:
    """The `<validation_error>` envelope text for a failed call of `action` (arguments as for `validation_spec`)."""
    return render_validation_spec(validation_spec(action, issues_or_error, **options))


def validation_error(
    action: str, issues_or_error: Any, *, input: Any = None, input_schema: Mapping[str, Any] | None = None,
    deltas: Iterable[Mapping[str, Any]] | None = None, max_fields: int | None = None, max_deltas: int | None = None,
    locale: Locale | None = None, localize_steering: bool | None = None,
) -> ToolResult:  # fmt: skip
    """The `CallToolResult` dict (a ToolResult) for arguments that failed validation (arguments as for
    `validation_spec`)."""
    options = {"input": input, "input_schema": input_schema, "deltas": deltas, "max_fields": max_fields,
               "max_deltas": max_deltas, "locale": locale, "localize_steering": localize_steering}  # fmt: skip
    return validation_result_spec(validation_spec(action, issues_or_error, **options))


_MISSING = ("missing", "missing_argument", "missing_keyword_only_argument", "missing_positional_only_argument")
_UNRECOGNIZED = ("extra_forbidden", "unexpected_keyword_argument")
# pydantic error type -> the type name the model should have sent.
_EXPECTED_TYPE = {
    **dict.fromkeys(
        ("string_type", "string_unicode", "string_sub_type", "bytes_type", "uuid_type", "url_type"), "string"
    ),
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
    "string_too_short": ("too_small", "min_length", True), "too_short": ("too_small", "min_length", True),
    "string_too_long": ("too_big", "max_length", True), "too_long": ("too_big", "max_length", True),
    "greater_than": ("too_small", "gt", False), "greater_than_equal": ("too_small", "ge", True),
    "less_than": ("too_big", "lt", False), "less_than_equal": ("too_big", "le", True),
}  # fmt: skip


def issues_from_pydantic(error: Any, arguments: Any = None) -> list[dict[str, Any]]:
    """The neutral issues of a pydantic v2 `ValidationError`, in pydantic's order: one per error, except that
    the `extra_forbidden` errors of one object merge into one `unrecognized_keys` issue and, given the validated
    `arguments`, the errors of a union's branches (pydantic puts branch names into `loc`) into one `invalid_union`.
    (The core merges unrecognized keys only in JSON Schema errors, and cannot tell a branch name from a key.)
    """
    issues: list[dict[str, Any]] = []
    merged: dict[tuple[Any, ...], dict[str, Any]] = {}  # the first issue of each code and path that merge
    for e in error.errors(include_url=False):
        loc = list(e["loc"])
        union = None if arguments is None else _union_at(loc, arguments)
        if union is not None:
            issue = {"path": union[0], "input": json_safe(union[1]), "code": "invalid_union"}
        elif e["type"] in _UNRECOGNIZED and loc:
            issue = {"path": loc[:-1], "code": "unrecognized_keys", "keys": [str(loc[-1])]}
        else:
            issues.append(_issue(e))
            continue
        first = merged.setdefault((issue["code"], *issue["path"]), issue)
        if first is issue:
            issues.append(issue)
        elif "keys" in issue:
            first["keys"].extend(issue["keys"])
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


def _issue(e: Any) -> dict[str, Any]:
    """The issue of one pydantic error (`ErrorDetails`)."""
    kind, ctx, sent = e["type"], e.get("ctx") or {}, e["input"]
    issue: dict[str, Any] = {"path": list(e["loc"]), "input": json_safe(sent)}
    if kind in _MISSING:  # pydantic's `input` here is the enclosing object, not the field
        return {"path": issue["path"], "code": "missing_required"}
    if kind in _EXPECTED_TYPE:
        issue.update(code="invalid_type", expected=_EXPECTED_TYPE[kind])
    elif kind in _FORMAT:
        issue.update(code="invalid_format", format=_FORMAT[kind])
    elif kind == "string_pattern_mismatch":
        issue.update(code="invalid_format", format="regex", pattern=str(ctx.get("pattern", "")))
    elif kind in _BOUND:
        code, key, inclusive = _BOUND[kind]
        bound = ctx.get(key)
        if kind.startswith("string"):
            origin = "string"
        elif key.endswith("length"):
            origin = "object" if isinstance(sent, dict) else "set" if isinstance(sent, (set, frozenset)) else "array"
        else:
            origin = (
                "number" if isinstance(bound, (int, float)) or _is_instance(bound, "decimal", "Decimal") else "date"
            )
        issue.update(code=code, origin=origin)
        issue["minimum" if code == "too_small" else "maximum"] = _number(bound)
        if not inclusive:
            issue["inclusive"] = False
    elif kind == "multiple_of":
        issue.update(code="not_multiple_of", divisor=_number(ctx.get("multiple_of")))
    elif kind in ("literal_error", "enum") and (values := _literals(ctx.get("expected"))) is not None:
        issue.update(code="invalid_value", values=values)
    elif kind == "union_tag_invalid" and (tags := _literals(ctx.get("expected_tags"))) is not None:
        tag_path = [*issue["path"], str(ctx.get("discriminator")).strip("'")]
        issue.update(path=tag_path, code="invalid_value", input=json_safe(ctx.get("tag")), values=tags)
    elif kind == "union_tag_not_found":
        return {"path": [*issue["path"], str(ctx.get("discriminator")).strip("'")], "code": "missing_required"}
    else:
        issue.update(code="custom", message=str(e.get("msg", "")))
    return issue


def _literals(expected: Any) -> list[Any] | None:
    """The allowed values from pydantic's `ctx.expected` text (`'a', 'b' or 'c'`), parsed as Python so a value
    holding " or " or a comma reads right; None when it is not a plain list of literals."""
    try:  # TypeError when it is not text at all
        tree = ast.parse(expected, mode="eval").body
        nodes = tree.elts if isinstance(tree, ast.Tuple) else [tree]
        flat = [v for n in nodes for v in (n.values if isinstance(n, ast.BoolOp) and isinstance(n.op, ast.Or) else [n])]
        return [json_safe(ast.literal_eval(node)) for node in flat]
    except (ValueError, SyntaxError, TypeError):
        return None


def _number(value: Any) -> Any:
    """A bound or divisor as a JSON number where it is one (pydantic gives a float field's 0 as 0.0), else its text."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return json_safe(value)
