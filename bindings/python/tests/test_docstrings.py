"""The examples in the package's docstrings run and print what they show."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "mcp_envelope",
    "mcp_envelope.envelope",
    "mcp_envelope.validation",
    "mcp_envelope.recovery",
    "mcp_envelope.ledger",
    "mcp_envelope.server",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    failures, attempted = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert attempted > 0, f"{name} has no examples"
    assert failures == 0
