"""Render, wrap and read `<tool_error>` envelopes through the shared component,
so a Python server sends the same bytes as every other host."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any, get_args

from ._component import ToolResult, call, call_json, produce, read, scrub, spec_text, to_json, tool_result
from .errors import EnvelopeError

# The wire shapes, generated from the core's structs (hatch_build.py). Only annotations and callers read them, so
# the generated module is loaded when one is first looked up (`__getattr__`), not with this one: rendering an
# envelope needs none of them.
if TYPE_CHECKING:
    from ._wire import Category as Category
    from ._wire import CodeDefaults as CodeDefaults
    from ._wire import Decision as Decision
    from ._wire import Format as Format
    from ._wire import LimitsInForce
    from ._wire import Locale as Locale
    from ._wire import ProtocolErrorKind as ProtocolErrorKind
    from ._wire import Severity as Severity

    # The size caps in force (docs/size-caps.md), every key written: what `limits_in_force` gives.
    Limits = LimitsInForce
    PROTOCOL_ERROR_KINDS: tuple[str, ...]
else:
    # Each name: the `_wire` name it stands for.
    _WIRE = {"Limits": "LimitsInForce"} | {
        name: name
        for name in "Category CodeDefaults Decision Format LimitsInForce Locale ProtocolErrorKind Severity".split()
    }

    def __getattr__(name):
        if name == "PROTOCOL_ERROR_KINDS":
            value = _protocol_error_kinds()
        elif name in _WIRE:
            from . import _wire

            value = getattr(_wire, _WIRE[name])
        else:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        globals()[name] = value
        return value


def _protocol_error_kinds() -> tuple[str, ...]:
    from ._wire import ProtocolErrorKind

    kinds: tuple[str, ...] = get_args(ProtocolErrorKind)
    return kinds


def render(spec: Mapping[str, Any] | str, format: Format = "xml") -> str:
    """The envelope for an error spec (the CLI's JSON object, as a dict or JSON text); SpecError when refused."""
    return produce("render", spec, format)


def call_tool_result(spec: Mapping[str, Any] | str, format: Format = "xml") -> ToolResult:
    """The MCP `CallToolResult` (as a dict, a ToolResult) carrying the envelope of a spec."""
    return tool_result(call_tool_result_json(spec, format))


def call_tool_result_json(spec: Mapping[str, Any] | str, format: Format = "xml") -> str:
    """`call_tool_result` as the component's exact JSON text."""
    return produce("call-tool-result", spec, format, result=True)


def protocol_error(kind: ProtocolErrorKind, message: str, data: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A JSON-RPC error object (for a request that is itself wrong); `data`, an error spec, goes in its JSON form."""
    error: dict[str, Any] = json.loads(protocol_error_json(kind, message, data))
    return error


def protocol_error_json(kind: ProtocolErrorKind, message: str, data: Mapping[str, Any] | None = None) -> str:
    """`protocol_error` as the component's exact JSON text."""
    kinds = _protocol_error_kinds()
    if kind not in kinds:
        raise ValueError(f"unknown protocol error kind {kind!r}: use one of {', '.join(kinds)}")
    data_text = None if data is None else to_json(data)
    text: str = call("protocol-error", kind, scrub(message), data_text)
    return text


def canonical_codes() -> list[str]:
    """The 17 canonical codes, in a fixed order."""
    return list(call("canonical-codes"))


def defaults_for(code: str, locale: Locale | None = None) -> CodeDefaults | None:
    """`{"category", "retryable", "recovery"}` of a canonical code, the recovery in `locale` (English by
    default); None for a custom one."""
    request = {"code": code} if locale is None else {"code": code, "locale": locale}
    found: CodeDefaults | None = json.loads(code_defaults_json(request))
    return found


# The `limits` keys by their Python names; other keys go to the component as given (it names a wrong one).
_LIMIT_KEYS = {"message_chars": "messageChars", "envelope_chars": "envelopeChars"}


def limits_spec(limits: Any) -> Any:
    """A spec's `limits` from Python names (`message_chars`, `envelope_chars`) or the spec's own; anything but a
    mapping as it is, for the component to refuse in its words."""
    if not isinstance(limits, Mapping):
        return limits
    return {_LIMIT_KEYS.get(key, key): value for key, value in limits.items()}


def limits_in_force(limits: Mapping[str, Any] | None = None) -> Limits:
    """The caps an error with these `limits` is rendered under, every key written (None: the defaults); SpecError
    with the words a spec with them would get. A server can check its limits once, at start-up."""
    found: Limits = json.loads(limits_in_force_json(to_json(limits_spec(limits))))  # a Python value, even text
    return found


def limits_in_force_json(limits: Mapping[str, Any] | str | None) -> str:
    """`limits_in_force` for a spec's `limits` as it is (an object, its JSON text, or None), as the component's
    exact JSON text."""
    return call_json("limits", limits)


def code_defaults_json(request: Mapping[str, Any] | str) -> str:
    """The `code-defaults` answer for a request `{"code", "locale"?}` (a dict, or its JSON text) as the
    component's exact JSON text: the defaults object, or `null` for a custom code."""
    return call_json("code-defaults", request)


def parse_envelope(text_or_result: Any) -> dict[str, Any] | None:
    """The reading of the earliest envelope in a text or `CallToolResult` (dict or mcp model), None when there is
    none: `{"kind", "code", "message", "severity", "category", "retryable", "recovery"}` plus `"error"` (the spec)
    or `"validation"`. MalformedEnvelope for a broken envelope."""
    reading: dict[str, Any] = json.loads(read("read-envelope", text_or_result) or "null")
    return None if reading["kind"] == "none" else reading


def raise_for_error(result: Any) -> Any:
    """Returns a `CallToolResult` (dict, mcp model or JSON text) unless `isError` is true; then raises EnvelopeError."""
    outcome = read("error-of-result", result, refused=ValueError)  # refused: not a CallToolResult at all
    if outcome is None:
        return result
    raise EnvelopeError(json.loads(outcome))


def decide(result: Any, *, tool: Any = None) -> Decision:
    """The branch a rule-based client takes on a `CallToolResult` or a JSON-RPC error (dict, mcp model or JSON
    text): `{"branch": "wait-and-retry" | "fix-and-retry" | "stop-and-tell" | "accept" | "verify-before-retry" |
    "step-up" | "provide-input" | "poll-task", "code"?, "waitSeconds"?, "scopes"?, "why"}` (docs/decide.md).
    `tool`, the called tool's `tools/list` entry (a dict or the mcp SDK's `Tool`), makes a retry follow SEP-3313:
    a tool neither read-only nor idempotent gets `verify-before-retry`. SpecError for what is not a result.

    >>> decide(tool_error("RATE_LIMITED", "Too many lookups", retry_after=30))["branch"]
    'wait-and-retry'
    """
    request = "{" + f'"result":{_json_of(result)}'
    if tool is not None:
        request += f',"tool":{_json_of(tool)}'
    return json.loads(decide_json(request + "}"))  # type: ignore[no-any-return]


def _json_of(value: Any) -> str:
    """A value as JSON text for a request: an mcp SDK model by its wire form, text as given (lone surrogates as
    U+FFFD), any other value as compact JSON (the core refuses what it cannot read)."""
    if callable(getattr(value, "model_dump", None)):
        value = value.model_dump(mode="json", by_alias=True, exclude_none=True)
    return spec_text(value)


def decide_json(request: Any) -> str:
    """`decide` for the request `{"result", "tool"?}` (a dict or its JSON text), as the component's exact JSON
    text."""
    decided: str = call("decide", spec_text(request))
    return decided


def tool_error(code: str, message: str, *, format: Format = "xml", **fields: Any) -> ToolResult:
    """The `CallToolResult` dict for one error, to return from a tool; `fields` are `ToolError`'s keywords.

    >>> tool_error("RATE_LIMITED", "Too many lookups", retry_after=30)["isError"]
    True
    """
    return ToolError(code, message, **fields).to_result(format)


# The spec's keys, in its order, and each one's keyword (ToolError.to_spec, ToolError.from_spec).
_SPEC_KEYS = {
    "code": "code", "message": "message", "suggestion": "suggestion", "availableActions": "available_actions",
    "omittedActions": "omitted_actions", "details": "details", "omittedDetails": "omitted_details",
    "retryAfter": "retry_after", "severity": "severity", "category": "category", "retryable": "retryable",
    "customerMessage": "customer_message", "correlationId": "correlation_id", "deltas": "deltas",
    "omittedDeltas": "omitted_deltas", "locale": "locale", "localizeSteering": "localize_steering",
    "limits": "limits", "toolFailure": "tool_failure",
}  # fmt: skip


def now_ms() -> int:
    """The current time in Unix epoch milliseconds, the unit of `toolFailure.now` (docs/tool-failure-meta.md)."""
    return time.time_ns() // 1_000_000


class ToolError(Exception):
    """An error a tool raises (or returns) for the model to recover from; the message is model-facing.

    The keywords are the spec's fields in snake_case; each `with_*` method sets
    one and returns the same error, so they chain. An object or array detail
    value is shown as its compact JSON. `locale` ("en" or "pt-BR") picks the
    catalog of the words the core writes; `limits` (`message_chars`,
    `envelope_chars`, `actions`, `details`) sets the size caps; `tool_failure`
    (True, for the current time, or a time in epoch milliseconds) adds the
    `toolFailure` metadata to the result; the `omitted_*` counts are what an
    envelope read back states was cut.

    >>> ToolError("NOT_FOUND", "No invoice with that ID").with_actions("billing.list_invoices").to_spec()
    {'code': 'NOT_FOUND', 'message': 'No invoice with that ID', 'availableActions': ['billing.list_invoices']}
    """

    def __init__(
        self, code: str, message: str, *, suggestion: str | None = None,
        available_actions: Iterable[str] | None = None, details: Mapping[str, Any] | None = None,
        retry_after: float | None = None, severity: Severity = "error", category: Category | None = None,
        retryable: bool | None = None, customer_message: str | None = None, correlation_id: str | None = None,
        deltas: Iterable[Mapping[str, Any]] | None = None, locale: Locale | None = None,
        localize_steering: bool | None = None, limits: Mapping[str, Any] | None = None,
        tool_failure: bool | int | None = None, omitted_actions: int | None = None,
        omitted_details: int | None = None, omitted_deltas: int | None = None,
    ) -> None:  # fmt: skip
        super().__init__(message)
        self.code, self.message, self.suggestion, self.retry_after = code, message, suggestion, retry_after
        self.available_actions: list[str] = list(available_actions or ())
        self.details: dict[str, Any] = dict(details or {})
        self.severity, self.category, self.retryable = severity, category, retryable
        self.customer_message, self.correlation_id = customer_message, correlation_id
        self.deltas: list[dict[str, Any]] = [dict(d) for d in deltas or ()]
        self.locale, self.localize_steering, self.tool_failure = locale, localize_steering, tool_failure
        self.limits: Any = limits_spec({} if limits is None else limits)
        self.omitted_actions, self.omitted_details = omitted_actions, omitted_details
        self.omitted_deltas = omitted_deltas

    @classmethod
    def from_spec(cls, spec: Mapping[str, Any]) -> ToolError:
        """The error a spec describes: `upstream_error(...)["error"]`, `access_error(...)`, or a reading's
        `"error"`, to raise from a tool. TypeError for a key the spec does not have."""
        unknown = [key for key in spec if key not in _SPEC_KEYS]
        if unknown:
            raise TypeError(f"not an error spec key: {unknown[0]!r} (expected one of: {', '.join(_SPEC_KEYS)})")
        fields = {_SPEC_KEYS[key]: value for key, value in spec.items() if value is not None}
        failure = fields.get("tool_failure")
        if isinstance(failure, Mapping):  # {"now": ms} as the spec states it
            fields["tool_failure"] = failure.get("now", True)
        return cls(**fields)

    def __repr__(self) -> str:
        return f"ToolError({self.code!r}, {self.message!r})"

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    def _set(self, **fields: Any) -> ToolError:
        self.__dict__.update(fields)
        return self

    def with_suggestion(self, suggestion: str) -> ToolError:
        """What the model should do next (the `<recovery>`); the code's default otherwise."""
        return self._set(suggestion=suggestion)

    def with_actions(self, *actions: str) -> ToolError:
        return self._set(available_actions=[*self.available_actions, *actions])

    def with_detail(self, key: str, value: Any) -> ToolError:
        """Sets one detail; a key set again keeps its place."""
        return self._set(details={**self.details, key: value})

    def with_details(self, details: Mapping[str, Any]) -> ToolError:
        return self._set(details={**self.details, **details})

    def with_retry_after(self, seconds: float) -> ToolError:
        return self._set(retry_after=seconds)

    def with_severity(self, severity: Severity) -> ToolError:
        """`warning` gives a result with `isError: false`: guidance on a call that succeeded."""
        return self._set(severity=severity)

    def with_category(self, category: Category) -> ToolError:
        return self._set(category=category)

    def with_retryable(self, retryable: bool) -> ToolError:
        return self._set(retryable=retryable)

    def with_customer_message(self, text: str) -> ToolError:
        return self._set(customer_message=text)

    def with_correlation_id(self, correlation_id: str) -> ToolError:
        return self._set(correlation_id=correlation_id)

    def with_deltas(self, *deltas: Mapping[str, Any]) -> ToolError:
        """Adds contract changes; the BREAKING and RISKY ones become a `<contract_awareness>` section."""
        return self._set(deltas=[*self.deltas, *(dict(d) for d in deltas)])

    def with_locale(self, locale: Locale) -> ToolError:
        """The catalog ("en" or "pt-BR") of the words the core writes for people, such as the default recovery."""
        return self._set(locale=locale)

    def with_localize_steering(self, localize: bool = True) -> ToolError:
        """Lines that steer the model (the repeat ledger's, the cut markers) in the locale too, not English."""
        return self._set(localize_steering=localize)

    def with_limits(
        self, *, message_chars: int | None = None, envelope_chars: int | None = None, actions: int | None = None,
        details: int | None = None,
    ) -> ToolError:  # fmt: skip
        """Sets size caps (the others keep their values, or the core's defaults); docs/size-caps.md."""
        given = {"messageChars": message_chars, "envelopeChars": envelope_chars, "actions": actions, "details": details}
        earlier = self.limits if isinstance(self.limits, Mapping) else {}
        return self._set(limits={**earlier, **{k: v for k, v in given.items() if v is not None}})

    def with_tool_failure(self, now: bool | int = True) -> ToolError:
        """Adds the `toolFailure` metadata (SEP-3313, a draft) to the error's result; `now` in Unix epoch
        milliseconds dates `retryNotBefore`, True takes the clock when the result is made."""
        return self._set(tool_failure=now)

    def to_spec(self) -> dict[str, Any]:
        """The camelCase spec dict, ready for `render()`; unset fields are left out, `tool_failure=True` is
        dated now."""
        failure = self.tool_failure
        fields = {key: getattr(self, name) for key, name in _SPEC_KEYS.items()}
        fields["severity"] = None if self.severity == "error" else self.severity
        fields["toolFailure"] = (
            None if failure is None or failure is False else {"now": now_ms() if failure is True else failure}
        )
        kept = ("code", "message")
        return {key: value for key, value in fields.items() if key in kept or value not in (None, [], {})}

    def render(self, format: Format = "xml") -> str:
        return render(self.to_spec(), format)

    def to_result(self, format: Format = "xml") -> ToolResult:
        """The `CallToolResult` dict (a ToolResult) carrying the envelope."""
        return call_tool_result(self.to_spec(), format)
