"""A per-user file cache for the compiled component, so a process deserializes
in milliseconds instead of compiling for a third of a second on every start.

Deserializing compiled code runs it, so a cache entry is only trusted when it
sits in a directory and file owned by this user that nobody else can write,
and its SHA-256 matches the digest written beside it (a torn or corrupted
file is recompiled, never loaded). Every failure here means "no cache": the
caller compiles in memory and carries on.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
import tempfile
from pathlib import Path

# Set to a directory to move the cache; set to "" or "off" to disable it.
ENV_VAR = "MCP_ENVELOPE_CACHE_DIR"
_DIGEST_SIZE = 32
_FORMAT = b"mcp-envelope compiled component cache v1\n"


def cache_dir() -> Path | None:
    """Where entries live: $MCP_ENVELOPE_CACHE_DIR, else the user's cache folder."""
    configured = os.environ.get(ENV_VAR)
    if configured is not None:
        if configured.strip() in ("", "off"):
            return None
        return Path(configured)
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA")
        return Path(base) / "mcp-envelope" / "Cache" if base else None
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches" / "mcp-envelope"
    xdg = os.environ.get("XDG_CACHE_HOME")
    base_dir = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base_dir / "mcp-envelope"


def entry_name(key_parts: list[str]) -> str:
    """A file name that changes whenever anything the compiled code depends on changes."""
    digest = hashlib.sha256("\0".join(key_parts).encode("utf-8")).hexdigest()
    return f"component-{digest[:40]}.cwasm"


def _private_to_me(st: os.stat_result) -> bool:
    getuid = getattr(os, "getuid", None)
    if getuid is None:  # Windows: the per-user profile folder is the protection.
        return True
    return st.st_uid == getuid() and not (st.st_mode & (stat.S_IWGRP | stat.S_IWOTH))


def _usable_dir(create: bool) -> Path | None:
    try:
        directory = cache_dir()
    except RuntimeError:  # no home directory to be found
        return None
    if directory is None:
        return None
    try:
        if create:
            directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = directory.lstat()
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or not _private_to_me(st):
        return None
    return directory


def load(name: str) -> bytes | None:
    """The cached bytes under `name`, or None when absent or not trustworthy."""
    directory = _usable_dir(create=False)
    if directory is None:
        return None
    path = directory / name
    try:
        flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
        fd = os.open(path, flags)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or not _private_to_me(st):
            return None
        with os.fdopen(fd, "rb", closefd=False) as f:
            blob = f.read()
    except OSError:
        return None
    finally:
        os.close(fd)
    header_end = len(_FORMAT) + _DIGEST_SIZE
    if len(blob) < header_end or not blob.startswith(_FORMAT):
        return None
    digest, payload = blob[len(_FORMAT) : header_end], blob[header_end:]
    if hashlib.sha256(payload).digest() != digest:
        return None
    return payload


def store(name: str, payload: bytes) -> bool:
    """Writes an entry atomically (temp file, then rename); False when it could not."""
    directory = _usable_dir(create=True)
    if directory is None:
        return False
    tmp_path = None
    try:
        fd, tmp_path = tempfile.mkstemp(prefix=".tmp-", suffix=".cwasm", dir=directory)
        with os.fdopen(fd, "wb") as f:
            f.write(_FORMAT)
            f.write(hashlib.sha256(payload).digest())
            f.write(payload)
        os.replace(tmp_path, directory / name)
        return True
    except OSError:
        if tmp_path is not None:
            try:
                os.unlink(tmp_path)
            except OSError:
                pass
        return False
