"""A core resource held from Python: the repeat ledger and the idempotency
store. A resource lives in one wasmtime store, so each holder has a store and
instance of its own and a lock (one holder may serve a server's threads); a
trap loses the resource, and the holder makes it afresh before saying so."""

from __future__ import annotations

import _thread
from types import TracebackType
from typing import Any, ClassVar

import wasmtime

from ._component import ComponentTrap, _Instance, runtime


class ComponentResource:
    """The holder of one resource `RESOURCE` of the component's API, made with `constructor_args`. `_call`
    runs one of its methods; `close()` (or leaving a `with`) frees it early."""

    RESOURCE: ClassVar[str]  # the WIT name: "ledger", "idempotency"
    WHAT: ClassVar[str]  # in messages: "the ledger"

    def __init__(self, *constructor_args: Any) -> None:
        self._args = constructor_args
        self._lock = _thread.allocate_lock()
        self._instance: _Instance | None = None
        self._handle: Any = None
        self._closed = False
        self._runtime = runtime()
        with self._lock:
            self._open()

    def _open(self) -> None:
        """A fresh store, instance and resource (at the start, and after a trap lost the old ones)."""
        instance = _Instance(self._runtime, direct=False)
        constructor = instance.funcs[f"[constructor]{self.RESOURCE}"]
        assert constructor is not None  # the runtime's load check found every function
        self._handle = constructor(instance.store, *self._args)
        self._instance = instance

    def _call(self, method: str, *args: Any) -> Any:
        """The method's return value; the caller holds the lock. ComponentTrap after a trap, the resource made
        afresh (the trapped instance cannot be entered again, and its memory is gone with it)."""
        if self._closed:
            raise ValueError(f"{self.WHAT} is closed")
        instance = self._instance
        assert instance is not None
        func = instance.funcs[f"[method]{self.RESOURCE}.{method}"]
        assert func is not None
        try:
            return func(instance.store, self._handle, *args)
        except (wasmtime.WasmtimeError, wasmtime.Trap) as e:
            self._open()
            raise ComponentTrap(f"{self.RESOURCE}.{method} trapped: {e}") from None

    def close(self) -> None:
        """Frees the resource and its store; later calls raise ValueError. Closing twice is harmless."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            instance, handle, self._instance, self._handle = self._instance, self._handle, None, None
            if instance is not None and handle is not None:
                try:
                    handle.drop(instance.store)
                except (wasmtime.WasmtimeError, wasmtime.Trap):  # the store goes anyway
                    pass

    def __enter__(self) -> Any:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.close()
