"""The per-user compile cache: used when valid and private, ignored (and the
component compiled in memory) when absent, corrupted, shared or unwritable."""

from __future__ import annotations

import os

import pytest

import mcp_envelope as me
from mcp_envelope import _cache, _component


@pytest.fixture
def cache_in(tmp_path, monkeypatch):
    directory = tmp_path / "cache"
    monkeypatch.setenv(_cache.ENV_VAR, str(directory))
    return directory


def entries(directory):
    return sorted(p for p in directory.iterdir() if p.suffix == ".cwasm")


def renders_right(runtime, seed_invoice, runtime_swap) -> None:
    runtime_swap(runtime)
    assert me.render(seed_invoice["spec"]) == seed_invoice["xml"]


def test_first_load_compiles_and_caches_then_loads_from_cache(cache_in, seed_invoice, runtime_swap):
    first = _component.Runtime()
    assert first.load_source == "compiled and cached"
    [entry] = entries(cache_in)
    assert oct(entry.stat().st_mode & 0o777) == oct(0o600)
    assert oct(cache_in.stat().st_mode & 0o777) == oct(0o700)
    second = _component.Runtime()
    assert second.load_source == "cache"
    renders_right(second, seed_invoice, runtime_swap)


def test_a_corrupted_entry_is_recompiled_not_loaded(cache_in, seed_invoice, runtime_swap):
    _component.Runtime()
    [entry] = entries(cache_in)
    blob = bytearray(entry.read_bytes())
    blob[len(blob) // 2] ^= 0xFF
    entry.write_bytes(bytes(blob))
    again = _component.Runtime()
    assert again.load_source == "compiled and cached"
    renders_right(again, seed_invoice, runtime_swap)
    assert _component.Runtime().load_source == "cache"


def test_a_truncated_entry_is_recompiled(cache_in):
    _component.Runtime()
    [entry] = entries(cache_in)
    entry.write_bytes(entry.read_bytes()[:1000])
    assert _component.Runtime().load_source == "compiled and cached"


def test_a_directory_others_can_write_is_not_trusted(cache_in):
    _component.Runtime()
    os.chmod(cache_in, 0o777)
    assert _component.Runtime().load_source == "compiled"


def test_an_unwritable_location_falls_back_to_compiling(tmp_path, monkeypatch, seed_invoice, runtime_swap):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    monkeypatch.setenv(_cache.ENV_VAR, str(blocker / "cache"))
    runtime = _component.Runtime()
    assert runtime.load_source == "compiled"
    renders_right(runtime, seed_invoice, runtime_swap)


def test_the_cache_can_be_turned_off(monkeypatch):
    monkeypatch.setenv(_cache.ENV_VAR, "off")
    assert _cache.cache_dir() is None
    assert _component.Runtime().load_source == "compiled"


def test_the_default_location_is_the_users_cache_folder(monkeypatch, tmp_path):
    monkeypatch.delenv(_cache.ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert _cache.cache_dir() == tmp_path / "mcp-envelope"


def test_the_entry_name_follows_every_key_part():
    base = ["component", "abc", "wasmtime", "50.0.1"]
    assert _cache.entry_name(base) == _cache.entry_name(list(base))
    assert _cache.entry_name(base) != _cache.entry_name(base[:-1] + ["51.0.0"])


def test_no_home_directory_means_no_cache(monkeypatch):
    def no_home():
        raise RuntimeError("Could not determine home directory.")

    monkeypatch.delenv(_cache.ENV_VAR, raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(_cache.Path, "home", staticmethod(no_home))
    assert _component.Runtime().load_source == "compiled"
