"""The repository README's Python quick start runs as written."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parents[3] / "README.md"


def quick_start_code() -> str:
    text = README.read_text(encoding="utf-8")
    section = text.split("## Quick start: Python", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)
    assert len(blocks) == 1, "the Python quick start has exactly one python block"
    return blocks[0]


def test_the_python_quick_start_runs():
    code = quick_start_code()
    assert "tool_error(" in code and "validation_error(" in code
    exec(compile(code, "README.md (Quick start: Python)", "exec"), {"__name__": "readme"})
