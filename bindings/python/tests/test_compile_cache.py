"""wasmtime's own compile cache: a second process loads the component from it
instead of compiling; it can be moved or turned off, and an unusable cache
directory means compiling in memory, never failing."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

# Loads the runtime, renders, and prints how long the load took (ms) and the envelope.
SCRIPT = """
import json, sys, time
t = time.perf_counter()
from mcp_envelope import _component
_component.runtime()
load = (time.perf_counter() - t) * 1000
import mcp_envelope
print(json.dumps([load, mcp_envelope.render(json.loads(sys.argv[1]))]))
"""


def load(seed_invoice, **env: str) -> float:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(seed_invoice["spec"])],
        env=dict(os.environ, **env),
        check=True,
        capture_output=True,
        text=True,
    )
    millis, rendered = json.loads(done.stdout)
    assert rendered == seed_invoice["xml"]
    assert done.stderr == ""
    return float(millis)


def files_under(directory) -> list:
    return [p for p in directory.rglob("*") if p.is_file()] if directory.exists() else []


@pytest.fixture
def cache_home(tmp_path):
    """A private XDG_CACHE_HOME: wasmtime's default cache goes to $XDG_CACHE_HOME/wasmtime."""
    return {"XDG_CACHE_HOME": str(tmp_path / "xdg"), "MCP_ENVELOPE_CACHE": ""}


def test_a_second_process_loads_from_the_cache(cache_home, tmp_path, seed_invoice):
    cold = load(seed_invoice, **cache_home)
    assert files_under(tmp_path / "xdg" / "wasmtime"), "the first load left nothing in the cache"
    warm = min(load(seed_invoice, **cache_home) for _ in range(2))
    assert warm < cold / 2, f"warm load {warm:.1f} ms, cold {cold:.1f} ms"


def test_the_cache_can_be_turned_off(cache_home, tmp_path, seed_invoice):
    load(seed_invoice, **(cache_home | {"MCP_ENVELOPE_CACHE": "off"}))
    assert files_under(tmp_path / "xdg") == []


def test_the_cache_can_be_moved_with_a_wasmtime_cache_config(cache_home, tmp_path, seed_invoice):
    config = tmp_path / "cache.toml"
    config.write_text(f'[cache]\ndirectory = "{tmp_path / "elsewhere"}"\n')
    load(seed_invoice, **(cache_home | {"MCP_ENVELOPE_CACHE": str(config)}))
    assert files_under(tmp_path / "elsewhere") and files_under(tmp_path / "xdg") == []


def test_an_unusable_cache_directory_falls_back_to_compiling(tmp_path, seed_invoice):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    load(seed_invoice, XDG_CACHE_HOME=str(blocker / "cache"), MCP_ENVELOPE_CACHE="")
    bad_config = tmp_path / "bad.toml"
    bad_config.write_text("[cache]\nenabled = true\n")  # a key wasmtime 50 refuses
    load(seed_invoice, MCP_ENVELOPE_CACHE=str(bad_config))
