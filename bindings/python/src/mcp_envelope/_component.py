"""The one module that talks to the components. There are two, built from one core: the envelope component
(interface `envelope`: render, results, reading, limits, codes, validation, partial results), all the front
calls, and the full one, which adds interfaces `server`, `agent` and `contract`. Each function is called on the
envelope component when its interface is `envelope`, else on the full one, so a process that only renders and
reads envelopes never loads the full component; each is loaded on its first call (the package's compile cache,
`_load`, makes later processes fast). A component keeps a store and instance per thread (a store is not thread-safe, and wasm
runs without the GIL). Calls go through wasmtime's public `wasmtime.component` API, or, for the string
functions, through a direct path over wasmtime's C API when the load-time check finds it gives the public path's
answers (`_direct_works`). Every call shares one path: Python values in as compact JSON text, text out, a refusal
raised with the component's exact words, and a trap (which discards the thread's instance) answered as a fresh
instance's `after-trap` says, its log line logged (docs/state.md, "After a trap").
"""

from __future__ import annotations

import _thread  # the primitives `threading` wraps (`local`, `Lock`), without its 0.5 ms import
import atexit
import ctypes
import json
import os
import stat
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import wasmtime
from wasmtime.component import Component, EnumType, FuncType, Linker, OptionType, ResultType, String, Variant

try:  # CPython's own BLAKE2, without the 3 to 7 ms `hashlib` spends loading OpenSSL at import
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - another Python
    from hashlib import blake2b

from ._values import encode
from .errors import MalformedEnvelope, SpecError

# Random bytes a fresh correlation id holds, the same in every host (the core's `CORRELATION_ID_RANDOM_BYTES`).
ID_RANDOM_BYTES = 6

PACKAGE = "mcp:envelope"
VERSION = "1.0.0"
CACHE_ENV = "MCP_ENVELOPE_CACHE"  # "off", or the directory of the compile cache (see `_load`)
PUBLIC_CALLS_ENV = "MCP_ENVELOPE_PUBLIC_CALLS"  # "1": never the direct path
# Each exported interface's functions (wit/*.wit; tests/test_components.py holds this to it), with the parameter
# count of those the direct path calls (a string, then a `format`).
INTERFACES: dict[str, dict[str, int | None]] = {
    "envelope": {
        "canonical-codes": None, "code-defaults": 1, "limits": 1, "render": 2, "call-tool-result": 2,
        "protocol-error": None, "render-partial": 1, "partial-result": 1, "partial-limits": 1, "render-validation": 1,
        "validation-result": 1, "read-envelope": 1, "error-of-result": 1, "after-trap": 1,
    },
    "server": {
        "exception-result": 1, "upstream-error": 1, "access-error": 1, "empty-result": 1, "unknown-tool": 1,
        "user-error": 1, "handler-result": 1, "idempotency-key-argument": None, "answer-for-revision": 1, "backoff": 1,
        "ledger-key": 1, "ledger-failure": 1, "ledger-observe": 1, "compare-and-set-script": None,
        "idempotency-key": 1, "idempotency-begin": 1, "idempotency-finish": 1,
    },
    "agent": {"decide": 1, "host-step": 1, "span-attributes": 1},
    "contract": {"contract-lock": 1, "contract-diff": 1},
}  # fmt: skip
# Each component: its file in the package and the interfaces it exports (`after-trap`, in `envelope`, is in both).
COMPONENTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "envelope": ("envelope.wasm", ("envelope",)),
    "full": ("full.wasm", ("envelope", "server", "agent", "contract")),
}
FUNCTIONS = {name: count for functions in INTERFACES.values() for name, count in functions.items()}
# The component each function is called on: the envelope one for its own interface's, the full one for the rest.
COMPONENT_OF = {
    name: "envelope" if interface == "envelope" else "full"
    for interface, functions in INTERFACES.items()
    for name in functions
}
FORMATS = ("xml", "json", "text")
# wasmtime's private ctypes bindings, for the direct path only; a later wasmtime without them means the public path.
_ffi: Any = getattr(wasmtime, "_ffi", None)
_OPTION = getattr(getattr(_ffi, "WASMTIME_COMPONENT_OPTION", None), "value", None)


class ComponentUnavailable(RuntimeError):
    """The component could not be loaded, is not the one this package was written for, or failed on a call that
    gives data rather than an envelope (the message names the logged correlation id)."""


class ComponentTrap(Exception):
    """A call trapped; the calling thread's instance was discarded and will be rebuilt."""


# The compile cache. A serialized component is native code that wasmtime runs without checking it, so an entry
# is read only from a directory that only this user can write: owned by the user, mode 0700 or stricter, not a
# symlink (created so when missing), the entry itself a regular file the user owns that no one else can write,
# both checked on the open descriptors before a byte is read. Each entry is named by a hash of the wasm bytes,
# the wasmtime build and the CPU's features, and holds a BLAKE2b digest of the serialized bytes before them: an entry
# whose digest does not match, or that wasmtime refuses, is compiled again from the wasm and replaced, never
# loaded. When any check fails (another owner, a group- or world-writable mode, a symlink, no POSIX owners as on
# Windows) the component is compiled from the wasm and nothing is read or written. Entries are written to a
# temporary file and renamed into place, so a reader never sees half of one.
CACHE_TAG = b"mcp-envelope compile cache 1\0"  # and the engine's settings: wasmtime's defaults
_O_PRIVATE = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def cache_directory() -> Path | None:
    """Where compiled components are kept: $MCP_ENVELOPE_CACHE, else mcp-envelope under the user's cache
    directory ($XDG_CACHE_HOME, ~/Library/Caches on macOS, ~/.cache); None when off or without POSIX owners."""
    setting = os.environ.get(CACHE_ENV, "").strip()
    if setting == "off" or not hasattr(os, "getuid") or not hasattr(os, "O_NOFOLLOW"):
        return None
    if setting:
        return Path(setting)
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    if not base:
        home = Path.home()
        base = str(home / "Library" / "Caches" if os.uname().sysname == "Darwin" else home / ".cache")
    return Path(base) / "mcp-envelope"


def _private_directory(directory: Path) -> int | None:
    """An open descriptor of the cache directory (made 0700 when missing) if only this user can write it."""
    try:
        try:
            fd = os.open(directory, _O_PRIVATE)
        except FileNotFoundError:
            directory.parent.mkdir(parents=True, exist_ok=True)
            try:
                os.mkdir(directory, 0o700)
            except FileExistsError:
                pass
            fd = os.open(directory, _O_PRIVATE)
    except OSError:
        return None
    info = os.fstat(fd)
    if stat.S_ISDIR(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o077:
        return fd
    os.close(fd)
    return None


def _host_key() -> bytes:
    """The wasmtime build (its library's path, size and time, which differ between versions) and the CPU's
    features (Linux's /proc/cpuinfo flags; elsewhere the machine name)."""
    import platform  # here, not at import: only a cache lookup needs it

    library = Path(_ffi.dll._name) if _ffi is not None and hasattr(_ffi, "dll") else Path(wasmtime.__file__)
    info = library.stat()
    features = platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as cpuinfo:
            for line in cpuinfo:
                if line.startswith(("flags", "Features", "isa")):
                    features += line
                    break
    except OSError:
        pass
    return f"{library}\0{info.st_size}\0{info.st_mtime_ns}\0{features}".encode()


def _load(engine: wasmtime.Engine, wasm: bytes) -> Component:
    """The component compiled for this engine: from the cache when a trusted entry matches (above), else
    compiled from the wasm (and the entry written for the next process)."""
    directory = cache_directory()
    fd = _private_directory(directory) if directory is not None else None
    if fd is None:
        return Component(engine, wasm)
    try:
        name = blake2b(CACHE_TAG + _host_key() + b"\0" + wasm, digest_size=32).hexdigest() + ".cwasm"
        try:
            entry = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0), dir_fd=fd)
        except OSError:
            entry = None
        if entry is not None:
            with os.fdopen(entry, "rb") as file:
                info = os.fstat(file.fileno())
                trusted = stat.S_ISREG(info.st_mode) and info.st_uid == os.getuid() and not info.st_mode & 0o022
                data = file.read() if trusted else b""
            if trusted and len(data) > 32 and blake2b(data[32:], digest_size=32).digest() == data[:32]:
                try:
                    return Component.deserialize(engine, data[32:])
                except Exception:  # not this wasmtime's or this engine's: compiled again below
                    pass
        component = Component(engine, wasm)
        _store(fd, name, component)
        return component
    finally:
        os.close(fd)


def _store(fd: int, name: str, component: Component) -> None:
    """Writes an entry atomically (a temporary file, then a rename); a cache that cannot be written is skipped."""
    temporary = f".{name}.{os.getpid()}.{_thread.get_ident()}.tmp"
    try:
        payload = component.serialize()
        out = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=fd)
        with os.fdopen(out, "wb") as file:
            file.write(blake2b(payload, digest_size=32).digest() + payload)
        os.replace(temporary, name, src_dir_fd=fd, dst_dir_fd=fd)
    except Exception:
        try:
            os.unlink(temporary, dir_fd=fd)
        except OSError:
            pass


def _direct_signature(ty: FuncType, count: int) -> bool:
    """A string (then a `format`) in, `result<string, string>` or `result<option<string>, string>` out."""
    params, result, ok = [t for _, t in ty.params], ty.result, getattr(ty.result, "ok", None)
    return (
        len(params) == count and isinstance(params[0], String) and isinstance(result, ResultType)
        and isinstance(result.err, String) and isinstance(ok.payload if isinstance(ok, OptionType) else ok, String)
        and (count == 1 or isinstance(params[1], EnumType) and params[1].names == list(FORMATS))
    )  # fmt: skip


class _Instance:
    """One store and instance, used by one thread only."""

    def __init__(self, runtime: Runtime) -> None:
        self.store = wasmtime.Store(runtime.engine)
        if runtime.memory_limit is not None:
            self.store.set_limits(memory_size=runtime.memory_limit)
        instance = Linker(runtime.engine).instantiate(self.store, runtime.component)
        self.funcs = {name: instance.get_func(self.store, index) for name, index in runtime.indices.items()}
        if runtime.arg is not None:
            self.use_direct_path(runtime.arg)

    def use_direct_path(self, arg: Any) -> None:
        """Each function's C handle, and per `format` an argument array: the text (set per call), then the case."""
        self.context = self.store._context()
        self.refs = {name: ctypes.byref(f._func) for name, f in self.funcs.items()}  # type: ignore[union-attr]
        string, case, self.args = _ffi.WASMTIME_COMPONENT_STRING.value, _ffi.WASMTIME_COMPONENT_ENUM.value, {}
        for format in (None, *FORMATS):
            values = [(string,)] + ([(case, len(format), format.encode())] if format else [])
            array = (arg * len(values))(*values)
            # The array's first value (it keeps the array alive), a pointer to the array, its length.
            self.args[format] = (
                array[0],
                ctypes.cast(array, ctypes.POINTER(_ffi.wasmtime_component_val_t)),
                len(values),
            )


class Runtime:
    """An engine and one compiled component (`COMPONENTS`: "envelope" or "full"), and its per-thread instances."""

    def __init__(
        self, component: str = "envelope", wasm_path: str | os.PathLike[str] | None = None,
        memory_limit: int | None = None, public_calls: bool | None = None,
    ) -> None:  # fmt: skip
        file, interfaces = COMPONENTS[component]
        self.name = component
        try:
            wasm = Path(wasm_path or Path(__file__).with_name(file)).read_bytes()
        except OSError as e:
            raise ComponentUnavailable(
                f"the component {file} is missing from the mcp_envelope package ({e}); "
                "build it with scripts/build-component, then reinstall"
            ) from e
        self.memory_limit, self.engine, self.arg, self.direct = memory_limit, wasmtime.Engine(), None, False
        try:
            self.component = _load(self.engine, wasm)
        except Exception as e:
            raise ComponentUnavailable(f"the component {file} could not be compiled: {e}") from e
        self.indices: dict[str, Any] = {}
        for interface in interfaces:
            export = f"{PACKAGE}/{interface}@{VERSION}"
            instance = self.component.get_export_index(export)
            if instance is None:
                raise ComponentUnavailable(f"the component {file} does not export {export}")
            found = {name: self.component.get_export_index(name, instance) for name in INTERFACES[interface]}
            missing = ", ".join(name for name, index in found.items() if index is None)
            if missing:
                raise ComponentUnavailable(f"the component {file}'s {export} lacks {missing}")
            self.indices.update(found)
        self._local = _thread._local()
        if not (os.environ.get(PUBLIC_CALLS_ENV) == "1" if public_calls is None else public_calls):
            self.arg = self._direct_works()
        self.direct = self.arg is not None

    def _instance(self) -> _Instance:
        instance: _Instance | None = getattr(self._local, "instance", None)
        if instance is None:
            instance = self._local.instance = _Instance(self)
        return instance

    def call_result(self, name: str, *args: Any) -> tuple[bool, Any]:
        """(True, value), or (False, message) for a `result`'s `err` (None for `ok(none)`)."""
        if self.direct and FUNCTIONS[name]:
            return self._call_direct(name, *args)
        instance = self._instance()
        try:  # a `result` comes back as a `Variant` (`.tag`, `.payload`)
            value = instance.funcs[name](instance.store, *args)  # type: ignore[misc]
        except (wasmtime.WasmtimeError, wasmtime.Trap) as e:
            self._local.instance = None
            raise ComponentTrap(str(e)) from None
        return (value.tag == "ok", value.payload) if isinstance(value, Variant) else (True, value)

    # The direct path. wasmtime-py's public `Func.__call__` rebuilds the function's type from the C API and
    # converts every value through it on each call (22 of a render's 31 µs); this makes the same C call,
    # `wasmtime_component_func_call`, with argument arrays laid out once per thread and the text borrowed from
    # Python (the C API reads arguments through a `const` pointer and copies them in), and reads the result's
    # string in place. The result slot is fresh per call: wasmtime drops what a slot held before writing it.
    def _direct_works(self) -> Any:
        """The load-time check: the C value layout wasmtime-py declares, each function's signature as the
        public API reports it, and probe calls giving the public path's answers. Its `_Arg` type, or None."""
        try:
            val, vec, union = _ffi.wasmtime_component_val_t, _ffi.wasm_byte_vec_t, _ffi.wasmtime_component_valunion_t
            rest = ctypes.sizeof(val) - val.of.offset - ctypes.sizeof(vec)

            class _Arg(ctypes.Structure):  # a string or enum case: its size and UTF-8 bytes, borrowed from `bytes`
                _fields_ = [("kind", ctypes.c_uint8), ("size", ctypes.c_size_t), ("data", ctypes.c_char_p),
                            ("rest", ctypes.c_uint8 * rest)]  # fmt: skip

            cases = [getattr(union, case).offset for case in ("string", "enumeration", "option", "result")]
            if (_Arg.size.offset, _Arg.data.offset, ctypes.sizeof(_Arg), *cases) != (
                val.of.offset + vec.size.offset,
                val.of.offset + vec.data.offset,
                ctypes.sizeof(val),
                0,
                0,
                0,
                0,
            ):
                return None
            instance = self._instance()
            for name, func in instance.funcs.items():
                count = FUNCTIONS[name]
                if count is not None and not (func and _direct_signature(func.type(instance.store), count)):
                    return None
            self.arg = _Arg
            instance.use_direct_path(_Arg)
            probes = [("render", ('{"code":"X","message":"\u00e9 <"}', f)) for f in FORMATS] + [
                ("render", ('{"code":""}', "xml")), ("error-of-result", ('{"content":[]}',)),
                ("error-of-result", ('{"isError":true,"content":[{"type":"text","text":"no"}]}',)),
                ("code-defaults", ('{"code":"NOT_FOUND","locale":"pt-BR"}',)), ("code-defaults", ('{"code":""}',)),
            ]  # fmt: skip
            for name, args in probes:  # self.direct is still False: call_result takes the public path
                if self._call_direct(name, *args) != self.call_result(name, *args):
                    return None
            return _Arg
        except Exception:  # anything unexpected, such as a wasmtime-py whose bindings differ: the public path
            return None

    def _call_direct(self, name: str, text: str, format: str | None = None) -> tuple[bool, str | None]:
        instance = getattr(self._local, "instance", None) or self._instance()
        data, result = text.encode(), _ffi.wasmtime_component_val_t()
        arg, pointer, count = instance.args[format]
        arg.size, arg.data = len(data), data
        slot = ctypes.byref(result)
        try:
            error = _ffi.dll.wasmtime_component_func_call(
                instance.refs[name], instance.context, pointer, count, slot, 1
            )
            if error:
                self._local.instance = None
                raise ComponentTrap(str(wasmtime.WasmtimeError._from_ptr(error)))
            outcome = result.of.result
            value = outcome.val.contents  # both cases of these results hold a value
            if value.kind == _OPTION:  # ok(option<string>)
                if not value.of.option:
                    return True, None
                value = value.of.option.contents
            string = value.of.string
            return bool(outcome.is_ok), ctypes.string_at(string.data, string.size).decode()
        finally:
            arg.data = None  # the thread's array does not keep the text alive
            _ffi.dll.wasmtime_component_val_delete(slot)


# The process's runtime per component, each loaded on its first call.
_runtimes: dict[str, Runtime | None] = dict.fromkeys(COMPONENTS)
_runtime_lock = _thread.allocate_lock()


def runtime(component: str = "envelope") -> Runtime:
    """The process's runtime for a component ("envelope" or "full"), loaded on first use."""
    loaded = _runtimes[component]
    if loaded is None:
        with _runtime_lock:
            loaded = _runtimes[component]
            if loaded is None:
                loaded = _runtimes[component] = Runtime(component)
    return loaded


def replace_runtime(new: Runtime | None, component: str | None = None) -> Runtime | None:
    """Swaps the process's runtime for `component` (by default the new one's own; tests inject faults this way,
    and put the full component where the envelope one serves); returns the old one."""
    slot = component or (new.name if new is not None else "envelope")
    with _runtime_lock:
        old, _runtimes[slot] = _runtimes[slot], new
    return old


@atexit.register
def _release_at_exit() -> None:
    # wasmtime's finalizers need its ctypes module, which interpreter shutdown may have torn down already.
    for component in COMPONENTS:
        replace_runtime(None, component)


def json_safe(value: Any) -> Any:
    """A copy of a value that JSON holds, by the content rule (docs/host-values.md; `_values`): the value its JSON
    text reads back as. One nested past what Python's JSON reader takes is given as it is: `to_json` writes it."""
    text = to_json(value)
    try:
        return json.loads(text)
    except RecursionError:
        return value


def to_json(value: Any) -> str:
    """Compact JSON text, non-ASCII as itself (the component's error positions count in it), by the content rule
    (docs/host-values.md): any value is written, what JSON cannot hold as text. Never raises."""
    return scrub(encode(value))


def scrub(text: str) -> str:
    """Text that can cross into wasm as UTF-8: each lone surrogate becomes U+FFFD (as the core reads `\\ud800`)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text


class ToolResult(dict[str, Any]):
    """A `CallToolResult` as a dict, made by this package: every helper that gives a result (`tool_error`,
    `ToolError.to_result`, `validation_error`, `empty_result`, `partial_result`, `forbidden`, `unknown_tool`,
    a ledger's answer, ...) gives one. It is a plain dict in every other way; its type is how the MCP
    integrations (`mcp_envelope.mcp_server`) know a tool's return value is a result to send as itself rather than
    data to dump as JSON. A dict built anew from one (`{**result}`, `result | {...}`) is a plain dict again; wrap
    it, `ToolResult(...)`, to send it as a result. It declares no fields, so the `mcp` SDK lists no output
    schema for a tool annotated `-> ToolResult`, as for `-> CallToolResult`."""

    __slots__ = ()


def tool_result(result: str | Mapping[str, Any]) -> ToolResult:
    """The one place a `CallToolResult` the component made (its JSON text, or the object a report holds) becomes
    a dict: a ToolResult."""
    return ToolResult(json.loads(result) if isinstance(result, str) else result)


def check_format(format: str) -> str:
    if format not in ("xml", "json", "text"):
        raise ValueError(f"unknown format {format!r}: use 'xml', 'json' or 'text'")
    return format


def call(name: str, *args: Any, refused: type[Exception] = SpecError) -> Any:
    """Calls a component function: its value, or `refused` raised with the words of an `err`. After a trap the
    thread's instance is gone (it held nothing) and a fresh one's `after-trap` decides: an answer in the
    function's own shape, or the call made once more (ComponentUnavailable with the core's words when that
    traps too). The core's log line for the trap goes to the `mcp_envelope` logger."""
    component = COMPONENT_OF[name]
    serving = _runtimes[component] or runtime(component)
    try:
        ok, value = serving.call_result(name, *args)
    except ComponentTrap as trap:
        return _after_trap(serving, name, args, refused, str(trap))
    if not ok:
        raise refused(value)
    return value


def _trap_context(name: str, args: tuple[Any, ...]) -> dict[str, str]:
    """The members of a call's request that `after-trap` reads: the call's own `format` argument, else the
    request's top-level `format`, `locale`, `tool` and `key` when they are strings of at most 256 characters (a
    longer one may be what trapped). The same rule in every host."""
    context: dict[str, str] = {}
    try:
        members = json.loads(args[0]) if args and isinstance(args[0], str) else None
    except ValueError:
        members = None
    if isinstance(members, dict):
        context = {
            m: members[m]
            for m in ("format", "locale", "tool", "key")
            if isinstance(members.get(m), str) and len(members[m]) <= 256
        }
    if FUNCTIONS.get(name) == 2 and len(args) == 2:
        context["format"] = args[1]
    return context


def _after_trap(serving: Runtime, name: str, args: tuple[Any, ...], refused: type[Exception], trap: str) -> Any:
    """Asks the component that trapped (each has `after-trap`), on a fresh instance."""
    request = {"call": name, "trap": trap, "random": os.urandom(ID_RANDOM_BYTES).hex(), **_trap_context(name, args)}
    try:
        ok, value = serving.call_result("after-trap", to_json(request))
    except ComponentTrap as again:
        raise ComponentUnavailable(
            f"mcp-envelope: {name} trapped ({trap}) and no answer could be made for it: {again}"
        ) from None
    if not ok:
        raise ComponentUnavailable(f"mcp-envelope: {name} trapped ({trap}) and no answer could be made for it: {value}")
    answer: dict[str, str] = json.loads(value)
    import logging  # here, not at import: it costs 3 ms there, and only a trap needs it

    logging.getLogger("mcp_envelope").error("%s", answer["log"])
    if answer["then"] == "answer":
        return answer["answer"]
    try:
        ok, value = serving.call_result(name, *args)
    except ComponentTrap:
        raise ComponentUnavailable(answer["again"]) from None
    if not ok:
        raise refused(value)
    return value


def produce(name: str, spec: Any, format: str | None = None, result: bool = False) -> str:
    """Envelope text (`CallToolResult` JSON when `result`) from a render function; `format` is the function's
    `format` argument (None for those whose spec holds it). After a trap it is the core's INTERNAL_ERROR
    instead: the error path always gives the model an envelope."""
    text = scrub(spec if isinstance(spec, str) else encode(spec))  # spec_text, one call fewer on every render
    if format is None:
        value: str = call(name, text)
    else:
        value = call(name, text, format if format in FORMATS else check_format(format))
    return value


def read(name: str, text_or_result: Any, refused: type[Exception] = MalformedEnvelope) -> str | None:
    """Calls a reader (`read-envelope`, `error-of-result`) with text or a `CallToolResult` as JSON."""
    if callable(getattr(text_or_result, "model_dump", None)):  # the mcp SDK's CallToolResult
        text_or_result = text_or_result.model_dump(mode="json", by_alias=True, exclude_none=True)
    if not isinstance(text_or_result, (str, Mapping)):
        raise TypeError(f"expected text or a CallToolResult, not {type(text_or_result).__name__}")
    text = scrub(text_or_result) if isinstance(text_or_result, str) else to_json(text_or_result)

    value: str | None = call(name, text, refused=refused)
    return value


def spec_text(spec: Any) -> str:
    """A spec as the component reads it: JSON text as given (lone surrogates as U+FFFD), else compact JSON."""
    return scrub(spec) if isinstance(spec, str) else to_json(spec)


def call_json(name: str, spec: Any) -> str:
    """A JSON-in, JSON-out function's exact text (`code-defaults`, `limits`, `exception-result`, ...);
    SpecError with the component's words when it refuses the spec."""
    text: str = call(name, spec_text(spec))
    return text
