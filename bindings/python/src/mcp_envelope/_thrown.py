"""What a raised exception is, told by its structure and never by its text (docs/python-integrations.md): a
system error by its `errno`, an HTTP client's error by its status, a timeout, an upstream that could not be
reached, the JSON-RPC error an `mcp` SDK exception carries, or a plain `Exception`, whose words its author wrote
for the model. The integrations send what this module finds to the core's `handler-result` as a `known`,
`rpcError` or `message` outcome; the core picks the code and words the envelope, so no library text reaches the
model. Anything this module cannot tell stays an `exception`.

An HTTP library is looked at only when the program has already imported it (`sys.modules`): an exception of a
library nobody imported cannot have been raised, and importing one to check would cost every server its import
time. Imported by the integrations at their first failure, so `import mcp_envelope` stays as cheap as it was."""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Callable
from typing import Any

# A `known` outcome's members, without `exception` (the caller adds the text for the log).
Known = dict[str, Any]

# The errno an OSError subclass stands for when it was made without one (`FileNotFoundError("x")`): Python picks
# the subclass from the errno, and this is the way back. PermissionError is EACCES or EPERM; either is FORBIDDEN.
ERRNO_OF_CLASS: tuple[tuple[type[OSError], str], ...] = (
    (FileNotFoundError, "ENOENT"),
    (PermissionError, "EACCES"),
    (FileExistsError, "EEXIST"),
    (IsADirectoryError, "EISDIR"),
    (NotADirectoryError, "ENOTDIR"),
    (ConnectionRefusedError, "ECONNREFUSED"),
    (ConnectionResetError, "ECONNRESET"),
)

# How many links of an exception's `__cause__`/`__context__` chain are read for the system error under a
# library's connection error (httpx's ConnectError over httpcore's over the socket's is three).
CHAIN_LINKS = 8


def author_words(error: BaseException) -> str | None:
    """The words of an exception its author wrote for the model: an instance of exactly `Exception` holding one
    non-blank text (`raise Exception("No invoice inv_9")`). Its class says nobody named the failure's kind; the
    text says the author wrote a sentence. A subclass (ValueError, KeyError, a library's class) is a kind of
    failure the code ran into, its text written for a programmer, and an `Exception` holding anything but one
    text (a dict, a row, several values) is data, not words: both stay exceptions."""
    if type(error) is not Exception or len(error.args) != 1:
        return None
    text = error.args[0]
    return text if isinstance(text, str) and text.strip() else None


def known_kind(error: BaseException) -> Known | None:
    """What the structure of `error` says it is, as a `known` outcome's members (`errno` with `path`/`dest`,
    `status` with `retryAfter`/`url`, `timeout`, `unreachable`), or None. Never raises: an exception whose
    attributes cannot be read is simply not known."""
    try:
        for module_name, classify in LIBRARIES:
            module = sys.modules.get(module_name)
            if module is not None:
                found = classify(module, error)
                if found is not None:
                    return found
        return system_kind(error)
    except Exception:  # a strange object: its text still goes to the log as an exception's
        return None


def system_kind(error: BaseException) -> Known | None:
    """A system error by its POSIX name (`errno.errorcode`, or its OSError subclass when it has no errno), with
    the path (and a rename's or copy's destination) it names; a timeout; a failed name lookup. The core decides
    what each name becomes, and an errno it does not know is an INTERNAL_ERROR there."""
    if _instance(error, "ssl", "SSLError"):  # its errno is OpenSSL's, not the system's
        return None
    if _instance(error, "socket", "gaierror"):
        return _lookup_failure(error)
    if isinstance(error, TimeoutError) or _instance(error, "asyncio", "TimeoutError"):
        # TimeoutError is also socket.timeout, and asyncio's and concurrent.futures' from Python 3.11 on.
        return {"timeout": True}
    if _instance(error, "concurrent.futures", "TimeoutError"):  # a class of its own before 3.11
        return {"timeout": True}
    if not isinstance(error, OSError) or _instance(error, "socket", "herror"):
        return None
    code = error.errno
    name = errno.errorcode.get(code) if isinstance(code, int) and not isinstance(code, bool) else None
    if name is None:
        name = next((name for cls, name in ERRNO_OF_CLASS if isinstance(error, cls)), None)
    if name is None:
        return None
    known: Known = {"errno": name}
    for key, value in (("path", error.filename), ("dest", error.filename2)):
        path = _path_text(value)
        if path is not None:
            known[key] = path
    return known


def _lookup_failure(error: BaseException) -> Known | None:
    """A failed name lookup (`socket.gaierror`, whose errno is getaddrinfo's EAI_ code, not the system's): no
    such name is ENOTFOUND, a temporary failure EAI_AGAIN, as Node spells them; any other EAI_ code says the
    call itself was wrong (a family or a service the system lacks), so stays an exception."""
    socket = sys.modules["socket"]
    code = getattr(error, "errno", None)
    if code in {getattr(socket, name, None) for name in ("EAI_NONAME", "EAI_NODATA")} - {None}:
        return {"errno": "ENOTFOUND"}
    if code is not None and code == getattr(socket, "EAI_AGAIN", None):
        return {"errno": "EAI_AGAIN"}
    return None


def _path_text(value: Any) -> str | None:
    """An OSError's `filename` as text: a str, bytes or path-like as the file system spells it; None for a file
    descriptor or nothing."""
    if isinstance(value, str):
        return value
    if isinstance(value, bytes) or hasattr(value, "__fspath__"):
        path = os.fsdecode(value)
        return path if isinstance(path, str) else None
    return None


def _instance(error: BaseException, module_name: str, class_name: str) -> bool:
    """Whether `error` is an instance of `module_name.class_name`, looked at only when that module is imported."""
    module = sys.modules.get(module_name)
    cls = None if module is None else getattr(module, class_name, None)
    return isinstance(cls, type) and isinstance(error, cls)


def _is(error: BaseException, module: Any, class_name: str) -> bool:
    """Whether `error` is an instance of the library `module`'s `class_name` (False when it has none)."""
    cls = getattr(module, class_name, None)
    return isinstance(cls, type) and isinstance(error, cls)


def _text(read: Callable[[], Any]) -> str | None:
    """A URL or header read from an exception as text, None when it is missing or cannot be read (httpx's
    `.request` raises when the error has none)."""
    try:
        value = read()
    except Exception:
        return None
    if isinstance(value, bytes):
        value = value.decode("latin-1")
    return None if value is None else str(value)


def _with_url(known: Known, url: str | None) -> Known:
    """`known` with the URL requested, when known: the core names the argument it came from, never the URL."""
    return known if url is None else known | {"url": url}


def _status(status: Any, headers: Any, url: str | None) -> Known | None:
    """An HTTP response's failure: its status, its `Retry-After` header, the URL requested."""
    if not isinstance(status, int) or isinstance(status, bool):
        return None
    known: Known = {"status": status}
    retry_after = _text(lambda: None if headers is None else headers.get("retry-after"))
    if retry_after is not None:
        known["retryAfter"] = retry_after
    return _with_url(known, url)


def _reached(error: BaseException, url: str | None) -> Known:
    """A connection failure: the system error found under it (its `__cause__`, else its `__context__`, link by
    link: ECONNREFUSED, ENOTFOUND, a timeout, ...), else an upstream that could not be reached."""
    link = error.__cause__ or error.__context__
    for _ in range(CHAIN_LINKS):
        if link is None:
            break
        found = system_kind(link)
        if found is not None:
            return _with_url(found, url) if "timeout" in found else found
        link = link.__cause__ or link.__context__
    return _with_url({"unreachable": True}, url)


def _httpx(httpx: Any, error: BaseException) -> Known | None:
    """httpx (and httpx2, its successor, the `mcp` SDK's client): `raise_for_status()`'s HTTPStatusError, a
    TimeoutException (connect, read, write, pool), a NetworkError (ConnectError among them)."""
    url = _text(lambda: error.request.url)  # type: ignore[attr-defined]
    if _is(error, httpx, "HTTPStatusError"):
        response: Any = error.response  # type: ignore[attr-defined]
        return _status(response.status_code, response.headers, url)
    if _is(error, httpx, "TimeoutException"):
        return _with_url({"timeout": True}, url)
    if _is(error, httpx, "NetworkError"):
        return _reached(error, url)
    return None


def _requests(requests: Any, error: BaseException) -> Known | None:
    """requests: `raise_for_status()`'s HTTPError (its response), Timeout, ConnectionError. Its exceptions are
    OSErrors with no errno, so they are read here before the system errors."""
    url = _text(lambda: error.request.url)  # type: ignore[attr-defined]
    if _is(error, requests, "HTTPError"):
        response: Any = getattr(error, "response", None)
        if response is None:
            return None
        return _status(response.status_code, response.headers, _text(lambda: response.url) or url)
    if _is(error, requests, "Timeout"):  # before ConnectionError: a ConnectTimeout is both
        return _with_url({"timeout": True}, url)
    if _is(error, requests, "ConnectionError"):
        return _reached(error, url)
    return None


def _aiohttp(aiohttp: Any, error: BaseException) -> Known | None:
    """aiohttp: ClientResponseError (`raise_for_status`), ServerTimeoutError, ClientConnectorError (its
    `os_error`, a gaierror for a name that does not resolve)."""
    if _is(error, aiohttp, "ClientResponseError"):
        found: Any = error
        return _status(found.status, found.headers, _text(lambda: found.request_info.url))
    if _is(error, aiohttp, "ServerTimeoutError"):
        return {"timeout": True}
    if _is(error, aiohttp, "ClientConnectorError"):
        os_error = getattr(error, "os_error", None)
        found_kind = system_kind(os_error) if isinstance(os_error, BaseException) else None
        return found_kind or {"unreachable": True}
    return None


def _urllib(urllib_error: Any, error: BaseException) -> Known | None:
    """The standard library's `urllib.request`: HTTPError (its `code`, `headers`, `url`), and URLError, whose
    `reason` is the system error when the connection failed (a text when the URL itself was wrong)."""
    if _is(error, urllib_error, "HTTPError"):
        found: Any = error
        return _status(found.code, found.headers, _text(lambda: found.url))
    if _is(error, urllib_error, "URLError"):
        reason = getattr(error, "reason", None)
        if isinstance(reason, OSError):
            return system_kind(reason) or {"unreachable": True}
    return None


# One row per HTTP library: the module whose presence in sys.modules says the program uses it, and the reader
# of its exceptions. Read before the system errors, since requests' and aiohttp's are OSErrors too.
LIBRARIES: tuple[tuple[str, Callable[[Any, BaseException], Known | None]], ...] = (
    ("httpx", _httpx),
    ("httpx2", _httpx),
    ("requests", _requests),
    ("aiohttp", _aiohttp),
    ("urllib.error", _urllib),
)


def rpc_error(error: BaseException) -> Known | None:
    """The JSON-RPC error an `mcp` SDK exception carries (`McpError` in 1.x, `MCPError` in 2.x, its subclasses
    too), as the core's `rpcError` outcome: `{"code", "message", "data"?}`; None for anything else. Looked at only
    when the program has imported the SDK."""
    module = sys.modules.get("mcp.shared.exceptions")
    if module is None or not (_is(error, module, "MCPError") or _is(error, module, "McpError")):
        return None
    try:
        carried: Any = error.error  # type: ignore[attr-defined]
        code, message, data = carried.code, carried.message, carried.data
    except Exception:  # not the SDK's ErrorData: an exception like any other
        return None
    if not isinstance(code, int) or isinstance(code, bool) or not isinstance(message, str):
        return None
    found: Known = {"code": code, "message": message}
    if data is not None:  # the client's, not the model's: sent as JSON holds it
        from ._component import json_safe

        found["data"] = json_safe(data)
    return found
