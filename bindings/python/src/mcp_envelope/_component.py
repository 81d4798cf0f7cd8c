"""The one module that talks to wasmtime: loads the component once per process,
keeps one instance per thread, and calls its string-in/string-out functions.

Why per thread: a `wasmtime.Store` is not thread-safe and ctypes releases the
GIL while wasm runs, so two threads sharing a store would race for real. A
store per thread needs no lock and lets threads render in parallel.

Why a hand-written call path: `wasmtime.component.Func.__call__` rebuilds the
function's type description through the C API on every call, which costs
more than the call itself. The string functions have fixed, known
signatures (checked once at load), so `call_string` lowers and lifts those
few shapes directly: about a quarter of the generic call's time.

After a trap an instance must not be reused: the thread's instance is
dropped (the next call builds a fresh one) and `ComponentTrap` is raised for
the public layer to turn into an INTERNAL_ERROR envelope.
"""

from __future__ import annotations

import atexit
import ctypes
import hashlib
import os
import sys
import threading
from ctypes import byref
from typing import Any

API_INSTANCE = "mcp:envelope/api@0.1.0"
WASM_FILE = "mcp_envelope.wasm"

# Functions called through `call_string`: name -> number of parameters
# (a string, then for two-parameter functions a `format` enum).
STRING_FUNCTIONS = {
    "render-spec": 2,
    "call-tool-result-spec": 2,
    "parse-spec": 1,
    "render-validation-spec": 1,
    "validation-result-spec": 1,
    "parse-validation-spec": 1,
}
# Functions called through wasmtime's generic (slower) path.
TYPED_FUNCTIONS = ("canonical-codes", "defaults-for", "parse", "protocol-error")


class ComponentUnavailable(RuntimeError):
    """The component could not be loaded, or lacks a function this package needs."""


class ComponentTrap(Exception):
    """A call trapped; the calling thread's instance was discarded and will be rebuilt."""


def _wasmtime_version() -> str:
    import importlib.metadata  # here, not at import: it costs ~25 ms and is needed once

    try:
        return importlib.metadata.version("wasmtime")
    except importlib.metadata.PackageNotFoundError:  # a vendored or source install
        return "unknown"


def _compile(engine: Any, wasm: bytes) -> tuple[Any, str]:
    """The compiled component, from the per-user cache when a valid entry exists."""
    import platform

    from . import _cache  # here, with its file-system imports, not at package import

    import wasmtime
    from wasmtime.component import Component

    key = [
        "component",
        hashlib.sha256(wasm).hexdigest(),
        "wasmtime",
        _wasmtime_version(),
        # The native library itself, in case two builds share a version string.
        os.path.dirname(wasmtime.__file__),
        platform.machine(),
        sys.platform,
    ]
    name = _cache.entry_name(key)
    cached = _cache.load(name)
    if cached is not None:
        try:
            return Component.deserialize(engine, cached), "cache"
        except Exception:  # wasmtime refuses entries from another version or config
            pass
    component = Component(engine, wasm)
    try:
        stored = _cache.store(name, bytes(component.serialize()))
    except Exception:
        stored = False
    return component, "compiled and cached" if stored else "compiled"


class _Instance:
    """One store and instance, used by one thread only."""

    __slots__ = ("store", "funcs", "func_refs", "context")

    def __init__(self, runtime: Runtime) -> None:
        import wasmtime
        from wasmtime.component import Linker

        self.store = wasmtime.Store(runtime.engine)
        if runtime.memory_limit is not None:
            self.store.set_limits(memory_size=runtime.memory_limit)
        instance = Linker(runtime.engine).instantiate(self.store, runtime.component)
        self.funcs = {}
        for name, index in runtime.export_indices.items():
            func = instance.get_func(self.store, index)
            if func is not None:
                self.funcs[name] = func
        # The raw C handles for the fast path, looked up once.
        self.func_refs = {name: byref(f._func) for name, f in self.funcs.items()}
        self.context = self.store._context()


class Runtime:
    """The engine and compiled component for this process, and its per-thread instances."""

    def __init__(self, wasm_path: str | os.PathLike[str] | None = None, memory_limit: int | None = None) -> None:
        try:
            import wasmtime
            from wasmtime import _ffi as ffi
        except ImportError as e:  # pragma: no cover - a broken install
            raise ComponentUnavailable(f"mcp-envelope needs the wasmtime package: {e}") from e
        self._ffi = ffi
        self._wasmtime_error = wasmtime.WasmtimeError
        self.memory_limit = memory_limit
        if wasm_path is None:
            # A plain file beside this module: the wheel installs it there.
            wasm_path = os.path.join(os.path.dirname(os.path.abspath(__file__)), WASM_FILE)
        try:
            with open(wasm_path, "rb") as f:
                wasm = f.read()
        except OSError as e:
            raise ComponentUnavailable(
                f"the component {WASM_FILE} is missing from the mcp_envelope package ({e}); "
                "a source checkout needs scripts/test-python (or a copy of build/mcp-envelope.wasm) first"
            ) from e
        self.engine = wasmtime.Engine()
        try:
            self.component, self.load_source = _compile(self.engine, wasm)
        except Exception as e:
            raise ComponentUnavailable(f"the component could not be compiled: {e}") from e
        api = self.component.get_export_index(API_INSTANCE)
        if api is None:
            raise ComponentUnavailable(f"the component does not export {API_INSTANCE}")
        self.export_indices = {}
        for name in (*STRING_FUNCTIONS, *TYPED_FUNCTIONS):
            index = self.component.get_export_index(name, api)
            if index is not None:
                self.export_indices[name] = index
        self._local = threading.local()
        # One `format` enum value per format, built once and only ever read
        # (the C call borrows its arguments), so a call copies it, not builds it.
        self._enum_args = {}
        for fmt in ("xml", "json", "text"):
            val = ffi.wasmtime_component_val_t()
            val.kind = ffi.WASMTIME_COMPONENT_ENUM
            val.of.enumeration = ffi.bytes_to_capi(fmt.encode("ascii"))
            self._enum_args[fmt] = val
        self._check_signatures(self._instance())

    # -- instances -------------------------------------------------------

    def _instance(self) -> _Instance:
        instance = getattr(self._local, "instance", None)
        if instance is None:
            instance = _Instance(self)
            self._local.instance = instance
        return instance

    def _discard_instance(self) -> None:
        self._local.instance = None

    def has(self, name: str) -> bool:
        return name in self.export_indices

    def _check_signatures(self, instance: _Instance) -> None:
        """The fast path trusts these shapes, so a different component fails here, clearly."""
        from wasmtime.component import EnumType, OptionType, ResultType, String

        for name, arity in STRING_FUNCTIONS.items():
            func = instance.funcs.get(name)
            if func is None:
                continue
            ty = func.type(instance.store)
            params = [t for _, t in ty.params]
            wanted = [String, EnumType][:arity]
            result = ty.result
            ok = (
                len(params) == arity
                and all(isinstance(p, w) for p, w in zip(params, wanted))
                and isinstance(result, ResultType)
                and isinstance(result.err, String)
                and (
                    isinstance(result.ok, String)
                    or (isinstance(result.ok, OptionType) and isinstance(result.ok.payload, String))
                )
            )
            if not ok:
                raise ComponentUnavailable(f"the component's {name} has an unexpected signature")

    # -- calls -----------------------------------------------------------

    def call_string(self, name: str, text: str, enum: str | None = None) -> tuple[bool, str | None]:
        """Calls a `*-spec` function: (True, value) for `ok`, (False, message) for `err`.

        `value` is None for `ok(none)`. Raises ComponentTrap if the call trapped.
        """
        ffi = self._ffi
        instance = self._instance()
        func_ref = instance.func_refs.get(name)
        if func_ref is None:
            raise ComponentUnavailable(f"this build of the component has no {name} function")
        count = 1 if enum is None else 2
        args = (ffi.wasmtime_component_val_t * count)()
        if enum is not None:
            args[1] = self._enum_args[enum]  # a copy of the shared value; never deleted here
        result = ffi.wasmtime_component_val_t()
        data = _utf8(text)
        string = args[0].of.string
        ffi.wasm_byte_vec_new_uninitialized(byref(string), len(data))
        args[0].kind = ffi.WASMTIME_COMPONENT_STRING
        try:
            ctypes.memmove(string.data, data, len(data))
            error = ffi.wasmtime_component_func_call(func_ref, instance.context, args, count, byref(result), 1)
            if error:
                message = str(self._wasmtime_error._from_ptr(error))
                self._discard_instance()
                raise ComponentTrap(f"{name} trapped: {message}")
            try:
                return _lift_result(ffi, result)
            finally:
                ffi.wasmtime_component_val_delete(byref(result))
        finally:
            ffi.wasmtime_component_val_delete(byref(args[0]))

    def call_typed(self, name: str, *params: Any) -> Any:
        """Calls a function through wasmtime's generic conversion (records, lists, variants)."""
        instance = self._instance()
        func = instance.funcs.get(name)
        if func is None:
            raise ComponentUnavailable(f"this build of the component has no {name} function")
        try:
            return func(instance.store, *params)
        except self._wasmtime_error as e:
            self._discard_instance()
            raise ComponentTrap(f"{name} trapped: {e}") from None


def _utf8(text: str) -> bytes:
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        # Lone surrogates cannot cross into the component; each becomes U+FFFD
        # (visible, as the envelope does for other unrepresentable characters).
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace").encode("utf-8")


def _read_string(vec: Any) -> str:
    if vec.size == 0:
        return ""
    return ctypes.string_at(vec.data, vec.size).decode("utf-8")


def _lift_result(ffi: Any, val: Any) -> tuple[bool, str | None]:
    """Reads `result<string, string>` or `result<option<string>, string>`."""
    outcome = val.of.result
    payload: str | None = None
    if outcome.val:
        inner = outcome.val.contents
        if inner.kind == ffi.WASMTIME_COMPONENT_OPTION.value:
            if inner.of.option:
                payload = _read_string(inner.of.option.contents.of.string)
        else:
            payload = _read_string(inner.of.string)
    return bool(outcome.is_ok), payload


_runtime: Runtime | None = None
_runtime_lock = threading.Lock()


def runtime() -> Runtime:
    """The process's runtime, loaded on first use."""
    global _runtime
    current = _runtime
    if current is None:
        with _runtime_lock:
            current = _runtime
            if current is None:
                current = _runtime = Runtime()
    return current


def replace_runtime(new: Runtime | None) -> Runtime | None:
    """Swaps the process's runtime (tests inject faults this way); returns the old one."""
    global _runtime
    with _runtime_lock:
        old, _runtime = _runtime, new
    return old


@atexit.register
def _release_at_exit() -> None:
    # wasmtime's finalizers need its ctypes module, which interpreter shutdown
    # may have torn down already; freeing the runtime here keeps exit quiet.
    replace_runtime(None)
