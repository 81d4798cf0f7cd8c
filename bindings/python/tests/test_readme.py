"""The repository README's Python runs as written: the quick start, and the Python example of each recovery
feature (one per "###" section of "Recovery features", next to the Rust and TypeScript ones)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[3] / "README.md"
FEATURES = ["Size caps", "Upstream failures", "Exceptions", "Repeat ledger", "Empty results", "Partial results",
            "Permission and authentication", "Words in en and pt-BR", "ToolFailure metadata"]  # fmt: skip


def section(heading: str) -> str:
    return README.read_text(encoding="utf-8").split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def python_blocks(text: str) -> list[str]:
    return re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)


def run(code: str, where: str) -> None:
    exec(compile(code, where, "exec"), {"__name__": "readme"})


def test_the_python_quick_start_runs():
    blocks = python_blocks(section("Quick start: Python"))
    assert len(blocks) == 1, "the Python quick start has exactly one python block"
    code = blocks[0]
    assert "tool_error(" in code and "validation_error(" in code
    run(code, "README.md (Quick start: Python)")


def feature_examples() -> dict[str, list[str]]:
    parts = re.split(r"\n### (.+)\n", section("Recovery features"))
    return {title: python_blocks(body) for title, body in zip(parts[1::2], parts[2::2])}


def test_each_recovery_feature_has_one_python_example():
    assert {title: len(blocks) for title, blocks in feature_examples().items()} == dict.fromkeys(FEATURES, 1)


@pytest.mark.parametrize("title", FEATURES)
def test_the_recovery_feature_example_runs(title):
    [code] = feature_examples()[title]
    run(code, f"README.md (Recovery features: {title})")
