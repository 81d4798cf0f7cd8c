"""`<validation_error>` envelopes written to be healed: one line per bad field
saying what was sent and what was expected, from pydantic, jsonschema or
neutral issues alike. The component reads jsonschema's errors itself, and
looks the sent values up in the call's arguments.

    >>> from mcp_envelope import render_validation
    >>> print(render_validation("billing.get_invoice",
    ...     [{"path": ["id"], "code": "invalid_format", "format": "email"}], input={"id": "not-an-email"}))
    <validation_error action="billing.get_invoice">
      <field name="id">Invalid email format. You sent: 'not-an-email'. Expected a valid email address.</field>
      <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>
    </validation_error>
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from typing import Any

from ._calls import produce
from ._json import json_safe
from ._pydantic_issues import issues_from_pydantic


def _is_instance(value: Any, module: str, name: str) -> bool:
    """isinstance against a class of an optional library, without importing it."""
    cls = getattr(sys.modules.get(module), name, None)
    return cls is not None and isinstance(value, cls)


def _raw_jsonschema_error(e: Any) -> dict[str, Any]:
    """A `jsonschema` error as the core reads it (docs/component-api.md, "JSON Schema errors, raw")."""
    raw = {"keyword": e.validator, "path": list(e.absolute_path), "schema": e.validator_value}
    return json_safe(raw | {"parentSchema": e.schema, "data": e.instance, "message": e.message})  # type: ignore[no-any-return]


def validation_spec(
    action: str, issues_or_error: Any, *, input: Any = None, deltas: Iterable[Mapping[str, Any]] | None = None,
    max_fields: int | None = None, max_deltas: int | None = None,
) -> dict[str, Any]:  # fmt: skip
    """The component's validation spec: `{"action", "issues" or "jsonSchemaErrors", "arguments"?, ...}`.

    `issues_or_error` is a pydantic v2 `ValidationError`, jsonschema errors (one, or a list such as
    `list(validator.iter_errors(arguments))`) or neutral issue dicts; `input`, the call's arguments, shows
    what was sent where an issue does not say.
    """
    spec: dict[str, Any] = {"action": action}
    if _is_instance(issues_or_error, "pydantic_core", "ValidationError"):
        spec["issues"] = issues_from_pydantic(issues_or_error, input)
    elif _is_instance(issues_or_error, "jsonschema.exceptions", "ValidationError"):
        spec["jsonSchemaErrors"] = [_raw_jsonschema_error(issues_or_error)]
    elif isinstance(issues_or_error, Iterable) and not isinstance(issues_or_error, (str, bytes, Mapping)):
        items = list(issues_or_error)
        if items and all(_is_instance(i, "jsonschema.exceptions", "ValidationError") for i in items):
            spec["jsonSchemaErrors"] = [_raw_jsonschema_error(e) for e in items]
        elif all(isinstance(i, Mapping) for i in items):
            spec["issues"] = [dict(i) for i in items]
        else:
            raise TypeError("issues must all be neutral issue dicts, or all jsonschema errors")
    else:
        raise TypeError(
            "validation_error takes a pydantic ValidationError, jsonschema errors, or a list of issue dicts, "
            f"not {type(issues_or_error).__name__}"
        )
    optional = {"arguments": json_safe(input), "deltas": None if deltas is None else [dict(d) for d in deltas],
                "maxFields": max_fields, "maxDeltas": max_deltas}  # fmt: skip
    return spec | {key: value for key, value in optional.items() if value is not None}


def render_validation_spec(spec: Mapping[str, Any] | str) -> str:
    """The `<validation_error>` envelope of a validation spec (a dict, or its JSON text)."""
    return produce("render-validation", spec)


def validation_result_spec(spec: Mapping[str, Any] | str) -> dict[str, Any]:
    """The `CallToolResult` dict (`isError: true`) carrying a validation spec's envelope."""
    result: dict[str, Any] = json.loads(validation_result_json(spec))
    return result


def validation_result_json(spec: Mapping[str, Any] | str) -> str:
    """`validation_result_spec` as the component's exact JSON text."""
    return produce("validation-result", spec, result=True)


def render_validation(action: str, issues_or_error: Any, **options: Any) -> str:
    """The `<validation_error>` envelope text for a failed call of `action` (arguments as for `validation_spec`)."""
    return render_validation_spec(validation_spec(action, issues_or_error, **options))


def validation_error(
    action: str,
    issues_or_error: Any,
    *,
    input: Any = None,
    deltas: Iterable[Mapping[str, Any]] | None = None,
    max_fields: int | None = None,
    max_deltas: int | None = None,
) -> dict[str, Any]:
    """The `CallToolResult` dict for arguments that failed validation (arguments as for `validation_spec`)."""
    options = {"input": input, "deltas": deltas, "max_fields": max_fields, "max_deltas": max_deltas}
    return validation_result_spec(validation_spec(action, issues_or_error, **options))
