"""The package's compile cache (`_component._load`): a second process loads the compiled component from it
instead of compiling; it can be moved or turned off; an entry is read only from a directory that only the user
can write, and one that is corrupt is compiled again and replaced, never loaded; a cache that cannot be used
means compiling in memory, never failing."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from hashlib import blake2b

import pytest

# Loads the envelope component, renders, and prints how long the load took (ms), how many times wasmtime was
# asked to deserialize a compiled component, and the envelope.
SCRIPT = """
import json, sys, time
from wasmtime.component import Component
asked = []
deserialize = Component.deserialize
Component.deserialize = classmethod(lambda cls, *args: (asked.append(1), deserialize(*args))[1])
t = time.perf_counter()
from mcp_envelope import _component
_component.runtime()
load = (time.perf_counter() - t) * 1000
import mcp_envelope
print(json.dumps([load, len(asked), mcp_envelope.render(json.loads(sys.argv[1]))]))
"""


def load(seed_invoice, **env: str) -> tuple[float, int]:
    """A fresh process's load time (ms) and how many times it deserialized a cache entry."""
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, json.dumps(seed_invoice["spec"])],
        env=dict(os.environ, **env),
        check=True,
        capture_output=True,
        text=True,
    )
    millis, deserialized, rendered = json.loads(done.stdout)
    assert rendered == seed_invoice["xml"]
    assert done.stderr == ""
    return float(millis), deserialized


def files_under(directory) -> list:
    return sorted(p for p in directory.rglob("*") if p.is_file()) if directory.exists() else []


@pytest.fixture
def cache_home(tmp_path):
    """A private XDG_CACHE_HOME: the cache goes to $XDG_CACHE_HOME/mcp-envelope."""
    return {"XDG_CACHE_HOME": str(tmp_path / "xdg"), "MCP_ENVELOPE_CACHE": ""}


@pytest.fixture
def warm(cache_home, tmp_path, seed_invoice):
    """A cache one process has filled: its directory and its one entry."""
    load(seed_invoice, **cache_home)
    directory = tmp_path / "xdg" / "mcp-envelope"
    (entry,) = files_under(directory)
    return directory, entry


def test_a_second_process_loads_from_the_cache(cache_home, tmp_path, seed_invoice):
    cold, deserialized = load(seed_invoice, **cache_home)
    assert deserialized == 0
    directory = tmp_path / "xdg" / "mcp-envelope"
    assert stat.S_IMODE(directory.stat().st_mode) == 0o700
    (entry,) = files_under(directory)
    assert entry.suffix == ".cwasm" and not entry.stat().st_mode & 0o077
    runs = [load(seed_invoice, **cache_home) for _ in range(2)]
    assert all(deserialized == 1 for _, deserialized in runs)
    warm = min(millis for millis, _ in runs)
    assert warm < cold / 2, f"warm load {warm:.1f} ms, cold {cold:.1f} ms"
    assert files_under(directory) == [entry]


def test_the_cache_can_be_turned_off(cache_home, tmp_path, seed_invoice):
    assert load(seed_invoice, **(cache_home | {"MCP_ENVELOPE_CACHE": "off"}))[1] == 0
    assert files_under(tmp_path / "xdg") == []


def test_the_cache_can_be_moved(cache_home, tmp_path, seed_invoice):
    elsewhere = tmp_path / "elsewhere" / "cache"
    load(seed_invoice, **(cache_home | {"MCP_ENVELOPE_CACHE": str(elsewhere)}))
    assert len(files_under(elsewhere)) == 1 and files_under(tmp_path / "xdg") == []
    assert stat.S_IMODE(elsewhere.stat().st_mode) == 0o700
    assert load(seed_invoice, **(cache_home | {"MCP_ENVELOPE_CACHE": str(elsewhere)}))[1] == 1


def test_an_unusable_cache_directory_falls_back_to_compiling(tmp_path, seed_invoice):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    assert load(seed_invoice, XDG_CACHE_HOME=str(blocker / "cache"), MCP_ENVELOPE_CACHE="")[1] == 0
    assert load(seed_invoice, MCP_ENVELOPE_CACHE=str(blocker))[1] == 0


@pytest.mark.parametrize("mode", [0o750, 0o770, 0o705, 0o777])
def test_a_directory_others_can_reach_is_never_read(warm, cache_home, seed_invoice, mode):
    directory, entry = warm
    directory.chmod(mode)
    before = entry.read_bytes()
    assert load(seed_invoice, **cache_home)[1] == 0
    assert files_under(directory) == [entry] and entry.read_bytes() == before  # nor written
    directory.chmod(0o700)
    assert load(seed_invoice, **cache_home)[1] == 1


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="giving a directory away needs root")
def test_a_directory_another_user_owns_is_never_read(warm, cache_home, seed_invoice):
    directory, entry = warm
    os.chown(directory, 65534, -1)
    assert load(seed_invoice, **cache_home)[1] == 0
    os.chown(directory, os.getuid(), -1)
    os.chown(entry, 65534, -1)  # an entry another user owns, in the user's own directory
    assert load(seed_invoice, **cache_home)[1] == 0


def test_an_entry_others_can_write_is_never_read(warm, cache_home, seed_invoice):
    _, entry = warm
    entry.chmod(0o620)
    assert load(seed_invoice, **cache_home)[1] == 0
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600  # compiled again and replaced


def test_a_symlinked_directory_is_never_read(warm, tmp_path, seed_invoice):
    directory, _ = warm
    link = tmp_path / "link"
    link.symlink_to(directory)
    assert load(seed_invoice, MCP_ENVELOPE_CACHE=str(link))[1] == 0
    entry_link = tmp_path / "other"
    entry_link.mkdir(mode=0o700)
    (name,) = [p.name for p in files_under(directory)]
    (entry_link / name).symlink_to(directory / name)
    assert load(seed_invoice, MCP_ENVELOPE_CACHE=str(entry_link))[1] == 0


def test_a_corrupt_entry_is_compiled_again_never_trusted(warm, cache_home, seed_invoice):
    _, entry = warm
    good = entry.read_bytes()
    flipped = bytearray(good)
    flipped[len(good) // 2] ^= 0x01  # one bit of the native code: its digest no longer matches
    entry.write_bytes(bytes(flipped))
    assert load(seed_invoice, **cache_home)[1] == 0
    assert entry.read_bytes() == good  # replaced by a fresh compile
    entry.write_bytes(good[: len(good) // 3])  # cut short
    assert load(seed_invoice, **cache_home)[1] == 0
    assert entry.read_bytes() == good
    garbage = b"not a compiled component"
    entry.write_bytes(blake2b(garbage, digest_size=32).digest() + garbage)  # a matching digest; wasmtime refuses it
    assert load(seed_invoice, **cache_home)[1] == 1
    assert entry.read_bytes() == good
    assert load(seed_invoice, **cache_home)[1] == 1
