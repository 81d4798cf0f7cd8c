"""Values JSON cannot hold, written by the content rule (docs/host-values.md): each value of bindings/host-values.json
is built here under its description and must give exactly the table's detail text and sent value, the texts the JS
package's tests (bindings/js/test/host-values.test.mjs) assert for the same values. Then exceptions whose text cannot
be read, through exception_result and the MCP integration, answer INTERNAL_ERROR."""

from __future__ import annotations

import datetime
import decimal
import enum
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, Callable

import pytest
from vector_files import expand, load_all

import mcp_envelope as me
from mcp_envelope import _values
from mcp_envelope.server import exception_result

TABLE = json.loads((Path(__file__).resolve().parents[2] / "host-values.json").read_text(encoding="utf-8"))
MINE = [row for row in TABLE["values"] if "python" in row["hosts"]]
UTC = datetime.timezone.utc


def nested(n: int, leaf: Any, wrap: Callable[[Any], Any]) -> Any:
    value = leaf
    for _ in range(n):
        value = wrap(value)
    return value


def self_holding() -> dict[str, Any]:
    value: dict[str, Any] = {"a": 1}
    value["self"] = value
    return value


def self_list() -> list[Any]:
    value: list[Any] = [1]
    value.append(value)
    return value


def shared_twice() -> list[Any]:
    shared = {"k": 1}
    return [shared, shared]


def refund() -> None: ...


class Unreadable:
    def __str__(self) -> str:
        raise RuntimeError("no")

    __repr__ = __str__


class OneBadMember(Mapping[str, Any]):
    """A mapping one of whose members raises when read (a lazy record from a broken library)."""

    def __getitem__(self, key: str) -> Any:
        if key == "bad":
            raise RuntimeError("no")
        return 1

    def __iter__(self) -> Iterator[str]:
        return iter(("ok", "bad"))

    def __len__(self) -> int:
        return 2


class NoKeys(Mapping[str, Any]):
    """A mapping whose keys cannot be listed."""

    def __getitem__(self, key: str) -> Any:
        return 1

    def __iter__(self) -> Iterator[str]:
        raise RuntimeError("no")

    def __len__(self) -> int:
        return 1


class Thing:
    pass


class Money:
    def __str__(self) -> str:
        return "Money(5 EUR)"


class Color(enum.Enum):
    RED = "red"


class BadMessage(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no")

    __repr__ = __str__


AT_1230 = datetime.datetime(2026, 1, 31, 12, 30, 5, 123456, tzinfo=UTC)

BUILD: dict[str, Callable[[], Any]] = {
    "NaN": lambda: float("nan"),
    "Infinity": lambda: float("inf"),
    "-Infinity": lambda: float("-inf"),
    "an integer beyond 2^53 (a bigint, a Python int): its digits": lambda: 2**70,
    "an object that holds itself: the cycle marked": self_holding,
    "an array that holds itself": self_list,
    "one object twice, side by side, is no cycle: written twice": shared_twice,
    "a named function": lambda: refund,
    "bytes: their UTF-8 text, a bad byte U+FFFD": lambda: b"ok \xff",
    "bytes with broken sequences: one U+FFFD per maximal bad part, as the WHATWG decoder and Python's replace agree":
        lambda: b"\xe2\x82A|\xed\xa0\x80|\xf0\x9f\x98B|\xc0\xaf",
    "bytes starting with a byte order mark: the mark kept": lambda: b"\xef\xbb\xbfA",
    "a set of numbers: an array in the order of the items' texts": lambda: {3, 1, 12},
    "a set of strings: ordered by UTF-16 code units, so an emoji sorts before U+FFFF": lambda: {"\uffff", "b", "😀", "é", "a"},
    "a map (a dict) whose keys are not strings: each key as its JSON text":
        lambda: {7: "seven", 2.5: "half", None: "none", True: "yes", (1, 2): "pair"},
    "a date-time in UTC: ISO 8601 as toISOString writes it, milliseconds and Z": lambda: AT_1230,
    "a date-time at another offset: the same instant in UTC":
        lambda: datetime.datetime(2026, 1, 31, 13, 30, 5, tzinfo=datetime.timezone(datetime.timedelta(hours=1))),
    "an exception (an Error): its name and message": lambda: TypeError("card declined"),
    "an exception with no message: its name": lambda: TypeError(),
    "a value that cannot be read (a Proxy whose every trap throws; an object whose __str__ raises)": Unreadable,
    "an object one of whose members cannot be read: that member marked": OneBadMember,
    "an object whose keys cannot be listed: the object marked": NoKeys,
    "odd values inside a container, each by its rule":
        lambda: {"when": AT_1230, "tags": {"b", "a"}, "raw": b"ok", "n": float("nan"), "f": refund},
    "5,000 levels of objects: converted without recursion, the core cuts past 64": lambda: nested(5000, "x", lambda v: {"a": v}),
    "100,000 levels of arrays": lambda: nested(100_000, 1, lambda v: [v]),
    "a Decimal: its number": lambda: decimal.Decimal("1.5"),
    "a Decimal keeps the digits written: 1.10 in a detail; a field line says each number in its one spelling": lambda: decimal.Decimal("1.10"),
    "a Decimal with an exponent, as written": lambda: decimal.Decimal("1.20E+5"),
    "a Decimal NaN": lambda: decimal.Decimal("NaN"),
    "a naive datetime: isoformat, no zone to convert": lambda: datetime.datetime(2026, 1, 31, 12, 30, 5),
    "a date": lambda: datetime.date(2026, 1, 31),
    "an enum: its value": lambda: Color.RED,
    "an object with the default str: its class, no memory address": Thing,
    "an object with a __str__ of its own: that text": Money,
    "an exception whose __str__ raises": BadMessage,
    "a lambda": lambda: lambda: 1,
    "a frozenset inside a set, a tuple: arrays": lambda: [frozenset({2, 1}), (3,)],
    "a bytearray and a memoryview: bytes": lambda: [bytearray(b"ab"), memoryview(b"cd")],
}  # fmt: skip


def detail_of(value: Any) -> str:
    text: str = json.loads(me.render({"code": "X", "message": "m", "details": {"v": value}}, "json"))["details"]["v"]
    return text


def sent_of(value: Any) -> str:
    issue = {"path": ["v"], "code": "custom", "message": "bad", "input": value}
    reading = me.parse_envelope(me.render_validation("a", [issue]))
    assert reading is not None
    text: str = reading["validation"]["fields"][0]["text"]
    return text.removeprefix("bad. You sent: ").removesuffix(". Expected a value that passes this check.")


def test_every_value_the_table_gives_python_is_built_here_and_nothing_else() -> None:
    assert sorted(BUILD) == sorted(row["description"] for row in MINE)


@pytest.mark.parametrize("row", MINE, ids=[row["description"] for row in MINE])
def test_the_shared_table(row: dict[str, Any]) -> None:
    assert detail_of(BUILD[row["description"]]()) == expand(row["detail"])
    assert sent_of(BUILD[row["description"]]()) == row["sent"]


def test_the_walk_writes_what_json_writes_for_every_render_vectors_spec() -> None:
    # The walk takes over from json's encoder whenever one value anywhere is odd, so the rest must not change.
    specs = [case.data["spec"] for case in load_all() if case.kind == "render" and "spec" in case.data]
    assert len(specs) > 100
    for spec in specs:
        assert _values.write(spec) == json.dumps(spec, separators=(",", ":"), ensure_ascii=False)


def test_a_misplaced_marker_is_the_programmers_mistake_refused_in_the_cores_words() -> None:
    with pytest.raises(me.SpecError) as refused:
        me.render({"code": "X", "message": "m", "retryAfter": float("nan")})
    assert str(refused.value) == 'retryAfter: invalid type: string "[NaN]", expected a number of seconds'
    with pytest.raises(me.SpecError) as refused:
        me.render({"code": "X", "message": {"text": "m"}})
    assert str(refused.value) == "message: invalid type: map, expected a string"


def test_the_call_arguments_go_through_the_same_rule() -> None:
    arguments: dict[str, Any] = {"when": AT_1230, "n": float("nan")}
    arguments["self"] = arguments
    issues = [{"path": ["n"], "code": "invalid_type", "expected": "number"},
              {"path": ["self"], "code": "invalid_type", "expected": "object"}]  # fmt: skip
    reading = me.parse_envelope(me.render_validation("a", issues, input=arguments))
    assert reading is not None
    assert [f["text"] for f in reading["validation"]["fields"]] == [
        "Wrong type. You sent: '[NaN]'. Expected a number.",
        "Wrong type. You sent: '[cycle]'. Expected an object.",
    ]


def logged(exception: BaseException) -> str:
    report = exception_result("charge", exception, correlation_id="req_7")
    reading = me.parse_envelope(report["result"])
    assert reading is not None and reading["error"]["code"] == "INTERNAL_ERROR"
    return report["log"].split(" exception=")[1]


def test_an_exception_whose_str_and_repr_raise_answers_internal_error() -> None:
    try:
        raise BadMessage()
    except BadMessage as e:
        text = json.loads(logged(e))
    assert text.startswith("Traceback (most recent call last):") and text.endswith(
        "BadMessage: <exception str() failed>"
    )


class NoTraceback(Exception):
    """An exception whose very traceback raises when read."""

    @property
    def __traceback__(self) -> Any:  # type: ignore[override]
        raise RuntimeError("no")


def test_an_exception_whose_traceback_cannot_be_read_is_named_by_its_type() -> None:
    assert logged(NoTraceback("x")) == '"NoTraceback: [unreadable]"'
