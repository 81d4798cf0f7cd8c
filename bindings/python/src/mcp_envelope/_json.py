"""JSON text as the component reads it (compact, non-ASCII as itself), and the
transport for Python values JSON lacks (Decimal, dates, sets, NaN, ...)."""

from __future__ import annotations

import datetime
import decimal
import enum
import json
import math
import uuid
from collections.abc import Mapping
from typing import Any

from .errors import SpecError


def plain(value: Any) -> Any:
    """The JSON value of an odd Python value (the encoder's `default`)."""
    if isinstance(value, decimal.Decimal):
        return str(value) if not value.is_finite() else int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", "replace")
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    if isinstance(value, (enum.Enum, uuid.UUID, datetime.timedelta)):
        return value.value if isinstance(value, enum.Enum) else str(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def json_safe(value: Any, depth: int = 0) -> Any:
    """A copy of a sent value that JSON always holds: NaN as text, keys as strings, odd values `plain` or `str`."""
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if depth > 100:  # nested deeper (or holding itself): named, not copied
        return f"<{type(value).__name__}>"
    if isinstance(value, Mapping):
        return {str(k): json_safe(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v, depth + 1) for v in value]
    try:
        return json_safe(plain(value), depth + 1)
    except TypeError:
        return str(value)


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False, default=plain)
_ASCII_ENCODER = json.JSONEncoder(separators=(",", ":"), allow_nan=False, default=plain)


def to_json(value: Any) -> str:
    """Compact JSON text (error positions count in it); SpecError when the value is not JSON. A value holding a
    lone surrogate, which cannot cross as UTF-8, goes as ASCII JSON: the core reads `\\ud800` as U+FFFD."""
    try:
        text = _ENCODER.encode(value)
    except (TypeError, ValueError, RecursionError) as e:
        raise SpecError(f"the spec is not JSON: {e}") from None
    return text if _utf8_safe(text) else _ASCII_ENCODER.encode(value)


def scrub(text: str) -> str:
    """Text that can cross as UTF-8: each lone surrogate becomes U+FFFD."""
    return text if _utf8_safe(text) else text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _utf8_safe(text: str) -> bool:
    try:
        return text.isascii() or bool(text.encode("utf-8"))
    except UnicodeEncodeError:
        return False
