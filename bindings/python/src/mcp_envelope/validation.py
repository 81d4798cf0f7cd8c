"""`<validation_error>` envelopes written to be healed: one line per bad field
saying what was sent and what was expected, from pydantic, jsonschema or
neutral issues alike.

    >>> from mcp_envelope import render_validation
    >>> print(render_validation("billing.get_invoice",
    ...     [{"path": ["id"], "code": "invalid_format", "format": "email", "input": "not-an-email"}]))
    <validation_error action="billing.get_invoice">
      <field name="id">Invalid email format. You sent: 'not-an-email'. Expected a valid email address.</field>
      <recovery>Fix the fields above and call the tool again. Do not explain the error.</recovery>
    </validation_error>
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Literal, TypedDict, Union

from . import _component
from ._json_values import json_safe
from ._jsonschema_issues import issues_from_jsonschema
from ._pydantic_issues import issues_from_pydantic
from .envelope import call_tool_result, envelope_text, logger, render, to_json
from .errors import MalformedEnvelope, SpecError, internal_error_spec, new_correlation_id

if sys.version_info >= (3, 11):
    from typing import NotRequired
else:  # pragma: no cover - Python 3.10
    from typing_extensions import NotRequired

PathSegment = Union[str, int]


class ValidationIssue(TypedDict):
    """A validator-neutral issue (Zod 4's shape, flattened); see the project README for each code."""

    path: list[PathSegment]
    code: str
    input: NotRequired[Any]
    expected: NotRequired[str]
    format: NotRequired[str]
    pattern: NotRequired[str]
    values: NotRequired[list[Any]]
    minimum: NotRequired[float | str]
    maximum: NotRequired[float | str]
    inclusive: NotRequired[bool]
    exact: NotRequired[bool]
    origin: NotRequired[str]
    keys: NotRequired[list[str]]
    divisor: NotRequired[float]
    message: NotRequired[str]


class ContractDelta(TypedDict):
    """A change since the known-good contract; BREAKING and RISKY ones reach the model."""

    action: NotRequired[str | None]
    severity: Literal["BREAKING", "RISKY", "SAFE", "COSMETIC"]
    field: str
    description: str
    before: NotRequired[str]
    after: NotRequired[str]


# Codes whose issue never carries the sent value.
_NO_INPUT = ("missing_required", "unrecognized_keys")
_MISSING = object()


def _is_instance(value: Any, module: str, name: str) -> bool:
    """isinstance against a class of an optional library, without importing it."""
    loaded = sys.modules.get(module)
    cls = getattr(loaded, name, None) if loaded is not None else None
    return cls is not None and isinstance(value, cls)


def _is_jsonschema_error(value: Any) -> bool:
    return _is_instance(value, "jsonschema.exceptions", "ValidationError")


def issues_from(issues_or_error: Any, input: Any = None) -> list[ValidationIssue]:
    """Neutral issues from a pydantic `ValidationError`, jsonschema errors, or neutral issues.

    Issues without an `input` get the value at their path in `input` (the
    call's arguments), when there is one there.
    """
    if _is_instance(issues_or_error, "pydantic_core", "ValidationError"):
        issues = issues_from_pydantic(issues_or_error, input)
    elif _is_jsonschema_error(issues_or_error):
        issues = issues_from_jsonschema([issues_or_error])
    elif isinstance(issues_or_error, Iterable) and not isinstance(issues_or_error, (str, bytes, Mapping)):
        items = list(issues_or_error)
        if items and all(_is_jsonschema_error(i) for i in items):
            issues = issues_from_jsonschema(items)
        elif all(isinstance(i, Mapping) for i in items):
            issues = [dict(i) for i in items]
        else:
            raise TypeError("issues must all be neutral issue dicts, or all jsonschema errors")
    else:
        raise TypeError(
            "validation_error takes a pydantic ValidationError, jsonschema errors, or a list of issue dicts, "
            f"not {type(issues_or_error).__name__}"
        )
    if input is not None:
        for issue in issues:
            if "input" not in issue and issue.get("code") not in _NO_INPUT:
                found = _value_at(input, issue.get("path", ()))
                if found is not _MISSING:
                    issue["input"] = json_safe(found)
    return issues  # type: ignore[return-value]


def _value_at(arguments: Any, path: Sequence[Any]) -> Any:
    value = arguments
    for segment in path:
        if isinstance(value, Mapping) and segment in value:
            value = value[segment]
        elif isinstance(value, Sequence) and not isinstance(value, str) and isinstance(segment, int):
            if not -len(value) <= segment < len(value):
                return _MISSING
            value = value[segment]
        else:
            return _MISSING
    return value


def validation_spec(
    action: str,
    issues_or_error: Any,
    *,
    input: Any = None,
    deltas: Iterable[Mapping[str, Any]] | None = None,
    max_fields: int | None = None,
    max_deltas: int | None = None,
) -> dict[str, Any]:
    """The component's validation spec: `{"action", "issues", "deltas"?, "maxFields"?, "maxDeltas"?}`."""
    spec: dict[str, Any] = {"action": action, "issues": issues_from(issues_or_error, input)}
    if deltas is not None:
        spec["deltas"] = [dict(d) for d in deltas]
    if max_fields is not None:
        spec["maxFields"] = max_fields
    if max_deltas is not None:
        spec["maxDeltas"] = max_deltas
    return spec


def _call(name: str, spec_json: str) -> str:
    ok, value = _component.runtime().call_string(name, spec_json)
    if not ok:
        raise SpecError(value)
    assert value is not None
    return value


def render_validation_spec(spec: Mapping[str, Any] | str) -> str:
    """The `<validation_error>` envelope of a validation spec (dict or JSON text)."""
    text = spec if isinstance(spec, str) else to_json(spec)
    try:
        return _call("render-validation-spec", text)
    except _component.ComponentTrap as trap:
        return render(_internal_error(trap))


def validation_result_spec(spec: Mapping[str, Any] | str) -> dict[str, Any]:
    """The `CallToolResult` dict (`isError: true`) carrying a validation spec's envelope."""
    result: dict[str, Any] = json.loads(validation_result_json(spec))
    return result


def validation_result_json(spec: Mapping[str, Any] | str) -> str:
    """`validation_result_spec` as the component's exact JSON text."""
    text = spec if isinstance(spec, str) else to_json(spec)
    try:
        return _call("validation-result-spec", text)
    except _component.ComponentTrap as trap:
        return to_json(call_tool_result(_internal_error(trap)))


def _internal_error(trap: _component.ComponentTrap) -> dict[str, Any]:
    correlation_id = new_correlation_id()
    logger.error("mcp-envelope component trapped (correlation id %s): %s", correlation_id, trap)
    return internal_error_spec(correlation_id)


def render_validation(
    action: str,
    issues_or_error: Any,
    *,
    input: Any = None,
    deltas: Iterable[Mapping[str, Any]] | None = None,
    max_fields: int | None = None,
    max_deltas: int | None = None,
) -> str:
    """The `<validation_error>` envelope text for a failed call of `action`."""
    spec = validation_spec(
        action, issues_or_error, input=input, deltas=deltas, max_fields=max_fields, max_deltas=max_deltas
    )
    return render_validation_spec(spec)


def validation_error(
    action: str,
    issues_or_error: Any,
    *,
    input: Any = None,
    deltas: Iterable[Mapping[str, Any]] | None = None,
    max_fields: int | None = None,
    max_deltas: int | None = None,
) -> dict[str, Any]:
    """The `CallToolResult` dict for arguments that failed validation.

    `issues_or_error` is a pydantic v2 `ValidationError`, jsonschema errors
    (one, or a list such as `list(validator.iter_errors(arguments))`), or a
    list of neutral issue dicts; `input` is the call's arguments, used to
    show what was sent where an issue does not say.
    """
    spec = validation_spec(
        action, issues_or_error, input=input, deltas=deltas, max_fields=max_fields, max_deltas=max_deltas
    )
    return validation_result_spec(spec)


def parse_validation(text_or_result: Any) -> dict[str, Any] | None:
    """Reads a `<validation_error>` back: `{"action", "fields": [{"name", "text"}], "omittedFields"?, "deltas"}`.

    None when the text (or `CallToolResult`) holds none; MalformedEnvelope for a broken one.
    """
    text = envelope_text(text_or_result)
    try:
        ok, value = _component.runtime().call_string("parse-validation-spec", text)
    except _component.ComponentTrap as trap:
        correlation_id = _internal_error(trap)["correlationId"]
        raise MalformedEnvelope(
            f"the envelope reader failed (INTERNAL_ERROR, correlation id {correlation_id}); the text was not read"
        ) from None
    if not ok:
        raise MalformedEnvelope(value)
    return None if value is None else json.loads(value)
