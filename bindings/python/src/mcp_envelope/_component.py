"""The one module that talks to wasmtime, through its public `wasmtime.component`
API: loads the component once per process (wasmtime's compile cache makes later
processes fast) and keeps a store and instance per thread (a store is not
thread-safe, and wasm runs without the GIL). A trap discards the thread's
instance and raises ComponentTrap.
"""

from __future__ import annotations

import atexit
import os
import threading
from typing import Any

import wasmtime
from wasmtime.component import Component, Linker

API_INSTANCE = "mcp:envelope/api@0.2.0"
WASM_FILE = "mcp_envelope.wasm"
CACHE_ENV = "MCP_ENVELOPE_CACHE"  # "off", or the path of a wasmtime cache config (TOML) file
FUNCTIONS = (
    "canonical-codes", "code-defaults", "render", "call-tool-result", "protocol-error", "internal-error-result",
    "render-validation", "validation-result", "read-envelope", "error-of-result",
)  # fmt: skip


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
        path = wasm_path or os.path.join(os.path.dirname(os.path.abspath(__file__)), WASM_FILE)
        try:
            with open(path, "rb") as f:
                wasm = f.read()
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

    def _discard_instance(self) -> None:
        self._local.instance = None

    def call(self, name: str, *args: Any) -> Any:
        """A call through wasmtime's public API; a `result` comes back as a `Variant` (`.tag`, `.payload`)."""
        instance = self._instance()
        try:
            return instance.funcs[name](instance.store, *args)  # type: ignore[misc]
        except (wasmtime.WasmtimeError, wasmtime.Trap) as e:
            self._discard_instance()
            raise ComponentTrap(f"{name} trapped: {e}") from None

    def call_result(self, name: str, *args: str) -> tuple[bool, str | None]:
        """A `result` function's outcome: (True, value) for `ok` (None for `ok(none)`), (False, message) for `err`."""
        outcome = self.call(name, *args)
        return outcome.tag == "ok", outcome.payload


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
