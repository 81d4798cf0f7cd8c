"""The exceptions: `ToolError` for a tool to raise, `EnvelopeError` for a client
that prefers to raise on an error result, and the two refusals (`SpecError`,
`MalformedEnvelope`).

    >>> from mcp_envelope import ToolError
    >>> e = ToolError("NOT_FOUND", "No invoice with that ID").with_actions("billing.list_invoices")
    >>> e.to_spec()
    {'code': 'NOT_FOUND', 'message': 'No invoice with that ID', 'availableActions': ['billing.list_invoices']}
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from typing import Any, Literal

Severity = Literal["error", "critical", "warning"]
Category = Literal["transient", "validation", "business", "permission", "internal"]
DetailValue = str | int | float | bool

# The model-facing text of an INTERNAL_ERROR built by this package; the
# recovery is the code's default ("Do not retry blindly ...").
INTERNAL_ERROR_MESSAGE = "The tool failed because of an internal error."


class SpecError(ValueError):
    """An error spec was refused; the message is the component's exact words (the vectors' `error`)."""


class MalformedEnvelope(ValueError):
    """The text holds an envelope, but a broken one; the message says what and at which byte."""


def new_correlation_id() -> str:
    """A fresh id to quote to the user and find the log line by: `err_` and 16 hex digits."""
    return "err_" + secrets.token_hex(8)


def internal_error_spec(correlation_id: str) -> dict[str, Any]:
    """The spec of an INTERNAL_ERROR that says nothing about its cause."""
    return {"code": "INTERNAL_ERROR", "message": INTERNAL_ERROR_MESSAGE, "correlationId": correlation_id}


def build_spec(
    code: str,
    message: str,
    *,
    suggestion: str | None = None,
    available_actions: Iterable[str] | None = None,
    details: Mapping[str, DetailValue] | None = None,
    retry_after: float | None = None,
    severity: Severity = "error",
    category: Category | None = None,
    retryable: bool | None = None,
    customer_message: str | None = None,
    correlation_id: str | None = None,
    deltas: Iterable[Mapping[str, Any]] | None = None,
) -> dict[str, Any]:
    """The camelCase spec dict (the CLI's and the vectors' format) of these fields; unset ones are left out."""
    spec: dict[str, Any] = {"code": code, "message": message}
    optional = (
        ("suggestion", suggestion),
        ("availableActions", None if available_actions is None else list(available_actions)),
        ("details", None if details is None else dict(details)),
        ("retryAfter", retry_after),
        ("severity", None if severity == "error" else severity),
        ("category", category),
        ("retryable", retryable),
        ("customerMessage", customer_message),
        ("correlationId", correlation_id),
        ("deltas", None if deltas is None else [dict(d) for d in deltas]),
    )
    for key, value in optional:
        if value is not None:
            spec[key] = value
    return spec


class ToolError(Exception):
    """An error a tool raises (or returns) for the model to recover from.

    The fields mirror `tool_error()`; the `with_*` methods set one field and
    return the same error, so it chains: `raise ToolError("RATE_LIMITED",
    "Too many lookups").with_retry_after(30)`. The message is model-facing,
    unlike an ordinary exception's text.
    """

    def __init__(
        self,
        code: str,
        message: str,
        *,
        suggestion: str | None = None,
        available_actions: Iterable[str] | None = None,
        details: Mapping[str, DetailValue] | None = None,
        retry_after: float | None = None,
        severity: Severity = "error",
        category: Category | None = None,
        retryable: bool | None = None,
        customer_message: str | None = None,
        correlation_id: str | None = None,
        deltas: Iterable[Mapping[str, Any]] | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.suggestion = suggestion
        self.available_actions: list[str] = list(available_actions or ())
        self.details: dict[str, DetailValue] = dict(details or {})
        self.retry_after = retry_after
        self.severity: Severity = severity
        self.category = category
        self.retryable = retryable
        self.customer_message = customer_message
        self.correlation_id = correlation_id
        self.deltas: list[dict[str, Any]] = [dict(d) for d in deltas or ()]

    def __repr__(self) -> str:
        return f"ToolError({self.code!r}, {self.message!r})"

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"

    # -- the fluent builder ---------------------------------------------

    def with_suggestion(self, suggestion: str) -> ToolError:
        """What the model should do next (the `<recovery>`); the code's default otherwise."""
        self.suggestion = suggestion
        return self

    def with_actions(self, *actions: str) -> ToolError:
        """Adds tool or action names the model can call instead."""
        self.available_actions.extend(actions)
        return self

    def with_detail(self, key: str, value: DetailValue) -> ToolError:
        """Sets one detail; a key set again is replaced in place, keeping its position."""
        self.details[key] = value
        return self

    def with_details(self, details: Mapping[str, DetailValue]) -> ToolError:
        """Sets several details, in the mapping's order."""
        self.details.update(details)
        return self

    def with_retry_after(self, seconds: float) -> ToolError:
        """Seconds to wait before the same call can succeed (a fraction rounds up)."""
        self.retry_after = seconds
        return self

    def with_severity(self, severity: Severity) -> ToolError:
        """`warning` gives a result with `isError: false`: guidance on a call that succeeded."""
        self.severity = severity
        return self

    def with_category(self, category: Category) -> ToolError:
        self.category = category
        return self

    def with_retryable(self, retryable: bool) -> ToolError:
        self.retryable = retryable
        return self

    def with_customer_message(self, text: str) -> ToolError:
        """What the model may tell a customer, free of internals."""
        self.customer_message = text
        return self

    def with_correlation_id(self, correlation_id: str) -> ToolError:
        self.correlation_id = correlation_id
        return self

    def with_deltas(self, *deltas: Mapping[str, Any]) -> ToolError:
        """Adds contract changes; the BREAKING and RISKY ones become a `<contract_awareness>` section."""
        self.deltas.extend(dict(d) for d in deltas)
        return self

    # -- output ---------------------------------------------------------

    def to_spec(self) -> dict[str, Any]:
        """The camelCase spec dict, ready for `render()`."""
        return build_spec(
            self.code,
            self.message,
            suggestion=self.suggestion,
            available_actions=self.available_actions or None,
            details=self.details or None,
            retry_after=self.retry_after,
            severity=self.severity,
            category=self.category,
            retryable=self.retryable,
            customer_message=self.customer_message,
            correlation_id=self.correlation_id,
            deltas=self.deltas or None,
        )

    def render(self, format: str = "xml") -> str:
        """The envelope text."""
        from .envelope import render

        return render(self.to_spec(), format)  # type: ignore[arg-type]

    def to_result(self, format: str = "xml") -> dict[str, Any]:
        """The `CallToolResult` dict carrying the envelope."""
        from .envelope import call_tool_result

        return call_tool_result(self.to_spec(), format)  # type: ignore[arg-type]


class EnvelopeError(Exception):
    """A client-side exception for a tool result that carries an error envelope.

    Raised by `raise_for_error(result)`. `spec` is the parsed envelope (camelCase
    keys); the attributes give the effective values, defaults filled in.
    """

    def __init__(
        self,
        spec: Mapping[str, Any],
        *,
        recovery: str | None,
        retryable: bool,
        category: str | None,
        validation: Mapping[str, Any] | None = None,
    ):
        self.spec = dict(spec)
        # The parsed `<validation_error>` ({"action", "fields", ...}) when that is what the result held.
        self.validation = None if validation is None else dict(validation)
        self.code: str = spec["code"]
        self.message: str = spec.get("message", "")
        self.recovery = recovery
        self.retryable = retryable
        self.category = category
        self.severity: str = spec.get("severity", "error")
        self.available_actions: list[str] = list(spec.get("availableActions", ()))
        self.details: dict[str, Any] = dict(spec.get("details", {}))
        self.retry_after: int | None = spec.get("retryAfter")
        self.customer_message: str | None = spec.get("customerMessage")
        self.correlation_id: str | None = spec.get("correlationId")
        self.deltas: list[dict[str, Any]] = list(spec.get("deltas", ()))
        super().__init__(f"{self.code}: {self.message}")
