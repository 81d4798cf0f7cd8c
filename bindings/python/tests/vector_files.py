"""Loads the shared vectors (`vectors/*.json`, see vectors/README.md "How to
write a runner"): expands `$repeat`/`$concat`, names each case
`file / group / case`, and reads its kind and the WIT interface it calls."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

VECTORS_DIR = Path(__file__).resolve().parents[3] / "vectors"
WIT_DIR = VECTORS_DIR.parent / "wit"


@dataclass
class Case:
    name: str
    kind: str  # the kinds of vectors/README.md: render, spec-error, parse, read, error-of-result, call, ledger, ...
    data: dict[str, Any]


def expand(value: Any) -> Any:
    """`{"$repeat": x, "count": n}` is x (a string or an array) n times; `{"$concat": [..]}` joins strings."""
    if isinstance(value, dict):
        if "$repeat" in value:
            item, count = expand(value["$repeat"]), value["count"]
            if isinstance(item, str):
                return item * count
            if isinstance(item, list):
                return item * count
            raise ValueError(f"$repeat takes a string or an array, not {item!r}")
        if "$concat" in value:
            return "".join(expand(v) for v in value["$concat"])
        return {k: expand(v) for k, v in value.items()}
    if isinstance(value, list):
        return [expand(v) for v in value]
    return value


KINDS = {
    "render", "spec-error", "parse", "protocol-error", "validation", "validation-error", "validation-parse", "read",
    "error-of-result", "call", "ledger", "idempotency",
}  # fmt: skip


def kind_of(case: dict[str, Any]) -> str:
    """A case's kind (vectors/README.md): a call case names its WIT call, every other case its `kind`."""
    kind = "call" if "call" in case else case.get("kind")
    if kind not in KINDS:
        # A kind this runner does not know must fail, not pass silently.
        raise ValueError(f"a vector case of unknown kind: {kind!r}")
    return kind


def wit_interfaces() -> dict[str, list[str]]:
    """Each interface of the WIT package (wit/*.wit) and its functions, in their order."""
    interfaces: dict[str, list[str]] = {}
    for path in sorted(WIT_DIR.glob("*.wit")):
        functions = None
        for line in path.read_text(encoding="utf-8").splitlines():
            if opened := re.match(r"interface ([a-z][a-z0-9-]*) \{", line):
                functions = interfaces.setdefault(opened[1], [])
            elif line.startswith("}"):
                functions = None
            elif functions is not None and (function := re.match(r"\s+([a-z][a-z0-9-]*): func\(", line)):
                functions.append(function[1])
    return interfaces


# The kinds that are not call-shaped and the interface whose functions they exercise (vectors/README.md).
KIND_INTERFACES = {"ledger": "server", "idempotency": "server"}


def interface_of(case: Case, interfaces: dict[str, list[str]]) -> str:
    """The WIT interface a case exercises: a call case its call's, a ledger or idempotency case `server`'s, every
    other kind (rendering, validation, reading) `envelope`'s."""
    if case.kind != "call":
        return KIND_INTERFACES.get(case.kind, "envelope")
    [interface] = [name for name, functions in interfaces.items() if case.data["call"] in functions]
    return interface


def load_all() -> list[Case]:
    files = sorted(p for p in VECTORS_DIR.glob("*.json") if p.name != "schema.json")
    if not files:
        raise FileNotFoundError(f"no vector files in {VECTORS_DIR}")
    cases = []
    for path in files:
        for group in json.loads(path.read_text(encoding="utf-8")):
            for raw in group["cases"]:
                case = expand(raw)
                name = f"{path.stem} / {group['description']} / {case['description']}"
                cases.append(Case(name, kind_of(case), case))
    return cases


def where_they_part(got: str, want: str) -> str:
    """A short report of the first difference (some strings are a megabyte)."""
    if got == want:
        return "equal"
    i = next((i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b), min(len(got), len(want)))
    return (
        f"strings part at character {i} (got {len(got)} characters, want {len(want)}): "
        f"got {got[max(0, i - 40) : i + 40]!r}, want {want[max(0, i - 40) : i + 40]!r}"
    )
