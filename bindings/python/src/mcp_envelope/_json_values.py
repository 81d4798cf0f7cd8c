"""Turns what validators hand back (tuples, Decimals, dates, NaN) into plain JSON
values, so an issue can always cross into the component instead of failing on
an odd input type."""

from __future__ import annotations

import datetime
import decimal
import enum
import math
import uuid
from collections.abc import Mapping
from typing import Any

# How deep a sent value is copied; below that a value is summarized by its type.
_MAX_DEPTH = 32


def json_safe(value: Any, depth: int = 0) -> Any:
    """A JSON-serializable copy of `value`: containers become lists and dicts, the rest strings or numbers."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return int(value)  # an IntEnum or other int subclass becomes a plain int
    if isinstance(value, float):
        return value if math.isfinite(value) else repr(value)
    if isinstance(value, decimal.Decimal):
        return number(value)
    if isinstance(value, enum.Enum):
        return json_safe(value.value, depth)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, (uuid.UUID, datetime.timedelta)):
        return str(value)
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", "replace")
    if depth >= _MAX_DEPTH:
        return f"<{type(value).__name__}>"
    if isinstance(value, Mapping):
        return {str(k): json_safe(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else value
        return [json_safe(v, depth + 1) for v in items]
    return str(value)


def number(value: Any) -> Any:
    """A bound or divisor as a JSON number where it is one, else its text (dates stay strings)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            return repr(value)
        # pydantic gives a float field's bounds as floats: 0.0 reads as 0, like the schema's.
        return int(value) if value.is_integer() and abs(value) < 2**53 else value
    if isinstance(value, decimal.Decimal):
        if not value.is_finite():
            return str(value)
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return str(value)


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float, decimal.Decimal)) and not isinstance(value, bool)
