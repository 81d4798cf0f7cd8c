"""The one module that talks to the component, through wasmtime's public
`wasmtime.component` API. It loads the component once per process (wasmtime's
compile cache makes later processes fast) and keeps a store and instance per
thread (a store is not thread-safe, and wasm runs without the GIL). Every call
shares one path: Python values in as compact JSON text, text out, a refusal
raised with the component's exact words, and a trap (which discards the
thread's instance) logged with a correlation id and answered as the caller says.
"""

from __future__ import annotations

import atexit
import datetime
import decimal
import enum
import json
import logging
import math
import os
import threading
import uuid
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NoReturn

import wasmtime
from wasmtime.component import Component, Linker, Variant

from .errors import MalformedEnvelope, SpecError, new_correlation_id

API_INSTANCE = "mcp:envelope/api@0.2.0"
WASM_FILE = "mcp_envelope.wasm"
CACHE_ENV = "MCP_ENVELOPE_CACHE"  # "off", or the path of a wasmtime cache config (TOML) file
FUNCTIONS = (
    "canonical-codes", "code-defaults", "render", "call-tool-result", "protocol-error", "internal-error-result",
    "render-validation", "validation-result", "read-envelope", "error-of-result",
)  # fmt: skip

logger = logging.getLogger("mcp_envelope")


class ComponentUnavailable(RuntimeError):
    """The component could not be loaded, or is not the one this package was written for."""


class ComponentTrap(Exception):
    """A call trapped; the calling thread's instance was discarded and will be rebuilt."""


def _config() -> wasmtime.Config:
    setting, config = os.environ.get(CACHE_ENV, "").strip(), wasmtime.Config()
    if setting != "off":
        try:
            config.cache = setting or True
        except wasmtime.WasmtimeError:  # no usable cache directory: compile in memory
            return wasmtime.Config()
    return config


class _Instance:
    """One store and instance, used by one thread only."""

    def __init__(self, runtime: Runtime) -> None:
        self.store = wasmtime.Store(runtime.engine)
        if runtime.memory_limit is not None:
            self.store.set_limits(memory_size=runtime.memory_limit)
        instance = Linker(runtime.engine).instantiate(self.store, runtime.component)
        self.funcs = {name: instance.get_func(self.store, index) for name, index in runtime.indices.items()}


class Runtime:
    """The engine and compiled component for this process, and its per-thread instances."""

    def __init__(self, wasm_path: str | os.PathLike[str] | None = None, memory_limit: int | None = None) -> None:
        try:
            wasm = Path(wasm_path or Path(__file__).with_name(WASM_FILE)).read_bytes()
        except OSError as e:
            raise ComponentUnavailable(
                f"the component {WASM_FILE} is missing from the mcp_envelope package ({e}); "
                "build it with scripts/build-component, then reinstall"
            ) from e
        self.memory_limit, self.engine = memory_limit, wasmtime.Engine(_config())
        try:
            self.component = Component(self.engine, wasm)
        except Exception as e:
            raise ComponentUnavailable(f"the component could not be compiled: {e}") from e
        api = self.component.get_export_index(API_INSTANCE)
        if api is None:
            raise ComponentUnavailable(f"the component does not export {API_INSTANCE}")
        found = {name: self.component.get_export_index(name, api) for name in FUNCTIONS}
        self.indices = {name: index for name, index in found.items() if index is not None}
        if len(self.indices) < len(FUNCTIONS):
            missing = ", ".join(name for name in FUNCTIONS if name not in self.indices)
            raise ComponentUnavailable(f"the component's {API_INSTANCE} lacks {missing}")
        self._local = threading.local()

    def _instance(self) -> _Instance:
        instance: _Instance | None = getattr(self._local, "instance", None)
        if instance is None:
            instance = self._local.instance = _Instance(self)
        return instance

    def call_result(self, name: str, *args: Any) -> tuple[bool, Any]:
        """A call through wasmtime's public API: (True, value), or (False, message) for a `result`'s `err`.
        A `result` comes back as a `Variant` (`.tag`, `.payload`; None for `ok(none)`)."""
        instance = self._instance()
        try:
            value = instance.funcs[name](instance.store, *args)  # type: ignore[misc]
        except (wasmtime.WasmtimeError, wasmtime.Trap) as e:
            self._local.instance = None
            raise ComponentTrap(f"{name} trapped: {e}") from None
        return (value.tag == "ok", value.payload) if isinstance(value, Variant) else (True, value)


_runtime: Runtime | None = None
_runtime_lock = threading.Lock()


def runtime() -> Runtime:
    """The process's runtime, loaded on first use."""
    global _runtime
    if _runtime is None:
        with _runtime_lock:
            if _runtime is None:
                _runtime = Runtime()
    return _runtime


def replace_runtime(new: Runtime | None) -> Runtime | None:
    """Swaps the process's runtime (tests inject faults this way); returns the old one."""
    global _runtime
    with _runtime_lock:
        old, _runtime = _runtime, new
    return old


@atexit.register
def _release_at_exit() -> None:
    # wasmtime's finalizers need its ctypes module, which interpreter shutdown may have torn down already.
    replace_runtime(None)


def plain(value: Any) -> Any:
    """The JSON value of an odd Python value (Decimal, dates, bytes, sets, enums, UUIDs); TypeError for others."""
    if isinstance(value, decimal.Decimal):
        return str(value) if not value.is_finite() else int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", "replace")
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    if isinstance(value, (enum.Enum, uuid.UUID, datetime.timedelta)):
        return value.value if isinstance(value, enum.Enum) else str(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def json_safe(value: Any, depth: int = 0) -> Any:
    """A copy of a sent value that JSON always holds (NaN as text, keys as strings, odd values `plain` or `str`):
    a sent value is shown, never refused, whatever the model sent or a validator put in its error."""
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if depth > 100:  # nested deeper (or holding itself): named, not copied
        return f"<{type(value).__name__}>"
    if isinstance(value, Mapping):
        return {str(k): json_safe(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v, depth + 1) for v in value]
    try:
        return json_safe(plain(value), depth + 1)
    except TypeError:
        return str(value)


_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False, default=plain)


def to_json(value: Any) -> str:
    """Compact JSON text, non-ASCII as itself (the component's error positions count in it); SpecError when the
    value is not JSON. A spec's NaN is refused rather than guessed at, unlike a sent value's (`json_safe`)."""
    try:
        return scrub(_ENCODER.encode(value))
    except (TypeError, ValueError, RecursionError) as e:
        raise SpecError(f"the spec is not JSON: {e}") from None


def scrub(text: str) -> str:
    """Text that can cross into wasm as UTF-8: each lone surrogate becomes U+FFFD (as the core reads `\\ud800`)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


def check_format(format: str) -> str:
    if format not in ("xml", "json", "text"):
        raise ValueError(f"unknown format {format!r}: use 'xml', 'json' or 'text'")
    return format


def call(
    name: str, *args: Any, refused: type[Exception] = SpecError, on_trap: Callable[[str], Any] | None = None
) -> Any:
    """Calls a component function: its value, or `refused` raised with the words of an `err`. A trap is logged
    with a fresh correlation id and `on_trap(correlation_id)` answers; without it, the call is made once more on
    the fresh instance (for the functions that cannot refuse: a one-off trap costs their caller nothing)."""
    loaded = runtime()
    try:
        ok, value = loaded.call_result(name, *args)
    except ComponentTrap as trap:
        correlation_id = new_correlation_id()
        logger.error("mcp-envelope component trapped (correlation id %s): %s", correlation_id, trap)
        if on_trap is not None:
            return on_trap(correlation_id)
        try:
            ok, value = loaded.call_result(name, *args)
        except ComponentTrap as again:
            raise ComponentUnavailable(f"the component fails on every call: {again}") from None
    if not ok:
        raise refused(value)
    return value


def produce(name: str, spec: Mapping[str, Any] | str, format: str | None = None, result: bool = False) -> str:
    """Envelope text (`CallToolResult` JSON when `result`) from a render function. After a trap it is the
    INTERNAL_ERROR's instead: the error path must always give the model an envelope."""

    def internal_error(correlation_id: str) -> str:
        answer = internal_error_result_json("", correlation_id, format or "xml")
        return answer if result else str(json.loads(answer)["content"][0]["text"])

    formats = () if format is None else (check_format(format),)
    text = scrub(spec) if isinstance(spec, str) else to_json(spec)
    value: str = call(name, text, *formats, on_trap=internal_error)
    return value


def read(name: str, text_or_result: Any, refused: type[Exception] = MalformedEnvelope) -> str | None:
    """Calls a reader (`read-envelope`, `error-of-result`) with text or a `CallToolResult` as JSON."""
    if callable(getattr(text_or_result, "model_dump", None)):  # the mcp SDK's CallToolResult
        text_or_result = text_or_result.model_dump(mode="json", by_alias=True, exclude_none=True)
    if not isinstance(text_or_result, (str, Mapping)):
        raise TypeError(f"expected text or a CallToolResult, not {type(text_or_result).__name__}")
    text = scrub(text_or_result) if isinstance(text_or_result, str) else to_json(text_or_result)

    def unread(correlation_id: str) -> NoReturn:
        raise refused(f"the envelope reader failed (INTERNAL_ERROR, correlation id {correlation_id}); the text was not read")

    value: str | None = call(name, text, refused=refused, on_trap=unread)
    return value


def internal_error_result_json(tool: str, correlation_id: str, format: str = "xml") -> str:
    """The component's INTERNAL_ERROR `CallToolResult` JSON for `tool`, quoting `correlation_id`."""
    text: str = call("internal-error-result", scrub(tool), scrub(correlation_id), check_format(format))
    return text
