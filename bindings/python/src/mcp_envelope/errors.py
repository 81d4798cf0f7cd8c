"""The exceptions: `SpecError` and `MalformedEnvelope` (the component's refusals,
its exact words) and `EnvelopeError`, which `raise_for_error` raises on the
client side with the component's outcome for an error result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class SpecError(ValueError):
    """An error or validation spec was refused; the message is the component's exact words."""


class MalformedEnvelope(ValueError):
    """The text holds an envelope, but a broken one; the message says what and where."""


class EnvelopeError(Exception):
    """A tool result with `isError: true`, as the component reads it (docs/component-api.md, client outcomes):
    `reading` is the envelope read back; the effective `severity`, `category`, `retryable` and `recovery` come
    from it, None when the result held no envelope; `malformed` says what is wrong with a broken one."""

    def __init__(self, outcome: Mapping[str, Any]) -> None:
        self.code: str = outcome["code"]
        self.message: str = outcome["message"]
        self.reading: dict[str, Any] = dict(outcome["reading"])
        self.malformed: str | None = outcome.get("malformed")
        get = self.reading.get
        self.severity: str | None = get("severity")
        self.category: str | None = get("category")
        self.retryable: bool | None = get("retryable")
        self.recovery: str | None = get("recovery")
        self.error: dict[str, Any] | None = get("error")  # a <tool_error>'s faithful spec
        self.validation: dict[str, Any] | None = get("validation")  # a <validation_error> as read
        self.partial: dict[str, Any] | None = get("partial")  # a <partial_result> as read
        super().__init__(f"{self.code}: {self.message}")
