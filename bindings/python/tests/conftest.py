"""Shared fixtures. The tests import `mcp_envelope` as installed (the built
wheel, via scripts/test-python), not from src/, so they prove the artifact."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from vector_files import VECTORS_DIR

from mcp_envelope import _component


@pytest.fixture
def runtime_swap() -> Iterator[object]:
    """Lets a test install its own runtimes (fault-injected ones), each where its component serves, or `component`
    where that one serves; the process's come back after."""
    old = {component: _component.replace_runtime(None, component) for component in _component.COMPONENTS}

    def install(runtime: _component.Runtime, component: str | None = None) -> _component.Runtime:
        _component.replace_runtime(runtime, component)
        return runtime

    yield install
    for component, runtime in old.items():
        _component.replace_runtime(runtime, component)


@pytest.fixture(scope="session")
def seed_invoice() -> dict:
    """The seed's NOT_FOUND invoice example: its spec and its XML, from the shared vectors."""
    groups = json.loads((VECTORS_DIR / "seed-examples.json").read_text(encoding="utf-8"))
    for group in groups:
        for case in group["cases"]:
            if case["spec"].get("code") == "NOT_FOUND" and "retryAfter" in case["spec"]:
                return {"spec": case["spec"], "xml": case["expected"]["xml"]}
    raise LookupError("the seed invoice example is missing from vectors/seed-examples.json")
