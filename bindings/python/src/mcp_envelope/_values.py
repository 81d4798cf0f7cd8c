"""A Python value as the JSON text the component reads, by the rule of docs/host-values.md, which the JS package
follows too: JSON's own values as `json` writes them, and every other value a spec, a detail, an issue's input or a
call's arguments can hold written as text (a cycle as "[cycle]", NaN as "[NaN]", bytes as their UTF-8 text, ...), so
an envelope is never refused for content nobody checked (a parsed upstream body, an exception, arguments a model made
up). `json`'s C encoder writes the common spec; what it refuses (a cycle, NaN, a key it does not take, nesting past
Python's recursion limit, a value that raises) is written by a walk with a stack of its own, at any depth: the core
cuts what is deeper than an envelope shows.
"""

from __future__ import annotations

import json
import sys
import types
from collections.abc import Iterator, Mapping
from typing import Any

CYCLE, UNREADABLE = "[cycle]", "[unreadable]"
_INF = float("inf")
_FUNCTIONS = (
    types.FunctionType, types.BuiltinFunctionType, types.MethodType, types.MethodWrapperType,
    types.WrapperDescriptorType, types.MethodDescriptorType, types.ClassMethodDescriptorType,
)  # fmt: skip


class _Unreadable:
    """A member whose reading raised: written as UNREADABLE."""


_UNREAD = _Unreadable()
_END = object()  # what `next` gives past a container's last member


def _number(value: float) -> float | str:
    """A float as JSON holds it; NaN and the infinities as their markers."""
    if value != value:
        return "[NaN]"
    return value if -_INF < value < _INF else "[Infinity]" if value > 0 else "[-Infinity]"


def _datetime(value: Any) -> str:
    """ISO 8601: in UTC as JavaScript's `toISOString` writes it when the zone is known, else as given."""
    import datetime

    if value.utcoffset() is None:
        return str(value.isoformat())
    t = value.astimezone(datetime.timezone.utc)
    return f"{t.year:04d}-{t.month:02d}-{t.day:02d}T{t.hour:02d}:{t.minute:02d}:{t.second:02d}.{t.microsecond // 1000:03d}Z"


def _text(value: Any) -> str:
    """What is left: its `str`, or `[Name object]` for the default one (which holds a memory address)."""
    kind: Any = type(value)
    if kind.__str__ is object.__str__ and kind.__repr__ is object.__repr__:
        return f"[{kind.__name__} object]"
    return str(value)


def plain(value: Any) -> Any:
    """The JSON value standing for a value `json` does not write (the encoder's `default`): a set as its items in
    the order of their texts, bytes as UTF-8 text (bad bytes U+FFFD), a date as ISO text, a Decimal that is not a
    number (NaN, an infinity) as its marker, an enum as its value, an exception as `Name: message`, a function as `[function name]`, anything else as its
    `str`. It raises what the value raises (the walk writes UNREADABLE then)."""
    import datetime  # noqa: E401 (here, not at import: 3 ms there, and rarely needed)
    import decimal
    import enum
    import uuid

    if isinstance(value, Mapping):
        return dict(value)
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=_sort_key)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value).decode("utf-8", "replace")
    if isinstance(value, datetime.datetime):
        return _datetime(value)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        if not value.is_finite():
            return "[NaN]" if value.is_nan() else "[-Infinity]" if value.is_signed() else "[Infinity]"
        # A number keeps the digits written (`1.10`), which no JSON value `json` writes can hold: the walk
        # writes it as its text.
        raise _Digits
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (uuid.UUID, datetime.timedelta)):
        return str(value)
    if isinstance(value, BaseException):
        message = str(value)
        return f"{type(value).__name__}: {message}" if message else type(value).__name__
    if isinstance(value, _FUNCTIONS):
        name = getattr(value, "__name__", "")
        return f"[function {name}]" if isinstance(name, str) and name else "[function]"
    return _text(value)


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False, default=plain)


class _Digits(Exception):
    """A finite Decimal reached the encoder: `encode` leaves it to the walk, which writes its digits."""


def _decimal_text(value: Any) -> str | None:
    """A finite Decimal's JSON number text, its digits as written (`str` of a Decimal is a JSON number: `1.10`,
    `1E+2`, `-0`); None for any other value. `decimal` is looked up, not imported: a value cannot be a Decimal
    before something imported it."""
    decimal = sys.modules.get("decimal")
    if decimal is None or not isinstance(value, decimal.Decimal) or not value.is_finite():
        return None
    return str(value)


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _sort_key(item: Any) -> bytes:
    """A set's order: its items' texts by UTF-16 code units, as JavaScript compares strings."""
    return write(item).encode("utf-16-be", "surrogatepass")


def _key_text(key: Any) -> str:
    """A key that is not a string: its JSON text, a string shown as itself (as `json` writes 1, 1.5, True, None)."""
    text = write(key)
    return str(json.loads(text)) if text.startswith('"') else text


def _member(mapping: Mapping[Any, Any], key: Any) -> Any:
    try:
        return mapping[key]
    except Exception:
        return _UNREAD


def _members(mapping: Mapping[Any, Any]) -> Iterator[tuple[Any, Any]]:
    """A mapping's members in order, a value that raises as UNREADABLE. The keys are read here, whole: a mapping
    whose keys cannot be read is UNREADABLE itself."""
    keys = list(mapping)
    return ((key, _member(mapping, key)) for key in keys)


def _shown(value: Any, open_ids: set[int]) -> str | tuple[str, Iterator[Any], Any]:
    """A value's JSON text, or (kind, its items or members, itself) for an array, set or object to walk."""
    for _ in range(100):  # `plain` gives a JSON value, or an enum's value: a few steps at most
        if value is None or value is True or value is False:
            return "null" if value is None else "true" if value else "false"
        if isinstance(value, str):
            return _quote(value)
        if isinstance(value, int):
            return int.__repr__(value)
        if isinstance(value, float):
            number = _number(value)
            return _quote(number) if isinstance(number, str) else float.__repr__(value)
        if value is _UNREAD:
            return _quote(UNREADABLE)
        if id(value) in open_ids:
            return _quote(CYCLE)
        if isinstance(value, dict):
            return "object", iter(list(value.items())), value
        if isinstance(value, Mapping):
            return "object", _members(value), value
        if isinstance(value, (list, tuple)):
            return "array", iter(value), value
        if isinstance(value, (set, frozenset)):
            return "set", iter(list(value)), value
        digits = _decimal_text(value)
        if digits is not None:
            return digits
        value = plain(value)
    return _quote(UNREADABLE)


def write(root: Any) -> str:
    """The JSON text of a value by the rule, with a stack of its own (any depth). Never raises."""
    out: list[str] = []
    stack: list[list[Any]] = []  # [kind, items, holder, members written, where its text starts, set item starts]
    open_ids: set[int] = set()

    def begin(item: str | tuple[str, Iterator[Any], Any]) -> None:
        if isinstance(item, str):
            out.append(item)
            return
        kind, items, holder = item
        out.append("{" if kind == "object" else "[")
        open_ids.add(id(holder))
        stack.append([kind, items, holder, 0, len(out), []])

    def shown(value: Any) -> str | tuple[str, Iterator[Any], Any]:
        try:
            return _shown(value, open_ids)
        except Exception:
            return _quote(UNREADABLE)

    begin(shown(root))
    while stack:
        frame = stack[-1]
        kind = frame[0]
        try:
            member: Any = next(frame[1], _END)
        except Exception:  # a mapping's or iterable's own iteration raised: what it gave so far is kept
            member = _END
        if member is _END:
            stack.pop()
            open_ids.discard(id(frame[2]))
            if kind == "set":  # no order a set keeps: its items in the order of their texts, as in `plain`
                marks = frame[5]
                texts = ["".join(out[start:end]) for start, end in zip(marks, [*marks[1:], len(out)], strict=False)]
                del out[frame[4] :]
                out.append(",".join(sorted(texts, key=lambda t: t.encode("utf-16-be", "surrogatepass"))))
            out.append("}" if kind == "object" else "]")
            continue
        if kind == "object":
            key, member = member
            if frame[3]:
                out.append(",")
            try:
                name = key if isinstance(key, str) else _key_text(key)
            except Exception:
                name = UNREADABLE
            out.append(_quote(name) + ":")
        elif kind == "set":
            frame[5].append(len(out))
        elif frame[3]:
            out.append(",")
        frame[3] += 1
        begin(shown(member))
    return "".join(out)


def _c_encoder() -> Any:
    """`_ENCODER`'s C encoder, made once: `JSONEncoder.encode` builds it on every call (half its cost for a
    small spec). Made without the cycle check's shared `markers` dict (which would make it unsafe across
    threads): a cycle then ends in RecursionError, which the walk answers as it answers the check's ValueError.
    None when this Python's `json` has no C encoder or it does not write a probe as `_ENCODER` does."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return None
    try:
        encoder = make(None, plain, json.encoder.encode_basestring, None, ":", ",", False, False, False)
        probe = {"a": [1, 2.5, -0.0, 1e300, True, None, "\u00e9\n<\ud800"], "": {"b": {}}, "c": []}
        if "".join(encoder(probe, 0)) != _ENCODER.encode(probe):
            return None
    except Exception:
        return None
    return encoder


_C_ENCODER = _c_encoder()


def encode(value: Any) -> str:
    """Compact JSON by the rule: `json`'s C encoder for the common value, the walk for the rest."""
    try:
        if _C_ENCODER is not None:
            return "".join(_C_ENCODER(value, 0))
        return _ENCODER.encode(value)
    except Exception:  # a cycle, NaN, a key json does not take, RecursionError, a value that raises, a Decimal
        return write(value)
