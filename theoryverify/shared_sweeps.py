"""Sweeps shared between claims: ``tv.shared_sweep(fn, configs)`` computes each point once per process (and, with a
results store, once per store), whichever claim asks first.

A claim and its planted twin, a quick and a full variant, two claims on one experiment: each reads the same sweep,
and each used to recompute it.  A shared sweep is keyed by what determines its values and nothing else:

- its **name** (``name=``; by default the function's ``module.qualname``) — the documented way to share: two claims
  that call ``tv.shared_sweep(measure, configs, name="learning-times")`` share every point they have in common;
- its **code**: the hash of the source closure of the function's module (:func:`theoryverify.closure.code_key`:
  the module, the model it imports, the engine) and a digest of the function itself (its bytecode, constants,
  defaults and the values it closes over), so a changed body — or a factory's function closing over another
  value — is never served an old value;
- its **parameters**: each point's configuration (with its ``seed``; claims that share a sweep draw its seed from
  :meth:`~theoryverify.claims.RunContext.shared_seed`, which depends on the run's seed and the name, not on the claim).

The claim id is not part of the key.  Values are JSON round-tripped (as :func:`theoryverify.store.sweep` returns
them), so a shared value, a fresh one and a stored one are the same.  Within one process the points are kept in
memory; ``store=`` (a :class:`~theoryverify.store.Store`) keeps them on disk too, which is what shares them between
the worker processes of ``verify --jobs`` and between runs.
"""
from __future__ import annotations

import hashlib
import threading
import types
from functools import partial
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from .store import Store, key_digest, sweep
from .verdicts import plain

#: points computed in this process: key digest -> JSON value
_MEMORY: dict[str, Any] = {}
_LOCK = threading.Lock()


def function_digest(fn: Callable) -> str:
    """SHA-256 (16 hex) of what a function computes: its bytecode, constants, names, defaults and the values of the
    variables it closes over (functions among them digested the same way); a ``functools.partial`` by its function
    and arguments.  Two functions with the same digest and the same module source compute the same thing.

    >>> def make(k):
    ...     return lambda c: k * c["x"]
    >>> function_digest(make(2)) == function_digest(make(2)), function_digest(make(2)) == function_digest(make(3))
    (True, False)
    """
    h = hashlib.sha256()
    _feed(h, fn, depth=0)
    return h.hexdigest()[:16]


def _feed(h, obj: Any, depth: int) -> None:
    if depth > 6:
        h.update(b"<deep>")
    elif isinstance(obj, partial):
        _feed(h, obj.func, depth + 1)
        _feed(h, obj.args, depth + 1)
        _feed(h, sorted(obj.keywords.items()), depth + 1)
    elif isinstance(obj, types.MethodType):
        _feed(h, obj.__func__, depth + 1)
    elif isinstance(obj, types.FunctionType):
        h.update(f"{obj.__module__}.{obj.__qualname__}".encode())
        _feed(h, obj.__code__, depth + 1)
        _feed(h, obj.__defaults__, depth + 1)
        _feed(h, obj.__kwdefaults__, depth + 1)
        for cell in obj.__closure__ or ():
            try:
                value = cell.cell_contents
            except ValueError:  # an empty cell
                value = "<empty>"
            _feed(h, value, depth + 1)
    elif isinstance(obj, types.CodeType):
        h.update(obj.co_code)
        h.update(repr(obj.co_names).encode())
        for c in obj.co_consts:
            _feed(h, c, depth + 1)
    elif isinstance(obj, (tuple, list)):
        h.update(b"(")
        for v in obj:
            _feed(h, v, depth + 1)
        h.update(b")")
    elif hasattr(obj, "dtype") and hasattr(obj, "shape"):  # an array or tensor: its bytes, not a printed list
        a = np.asarray(obj.detach().cpu() if hasattr(obj, "detach") else obj)
        h.update(f"{a.dtype}{a.shape}".encode() + np.ascontiguousarray(a).tobytes())
    elif isinstance(obj, (types.ModuleType, type)) or callable(obj):
        h.update(f"{getattr(obj, '__module__', '')}.{getattr(obj, '__qualname__', getattr(obj, '__name__', ''))}"
                 .encode())
    else:
        h.update(repr(plain(obj)).encode())


class _Shared:
    """The store interface of :func:`theoryverify.store.sweep` over this process's memory, then ``disk``."""

    def __init__(self, disk: Store | None) -> None:
        self.disk = disk

    def get(self, key: Mapping[str, Any]) -> tuple[bool, Any]:
        digest = key_digest(key)
        with _LOCK:
            if digest in _MEMORY:
                return True, _MEMORY[digest]
        if self.disk is not None:
            found, value = self.disk.get(key)
            if found:
                with _LOCK:
                    _MEMORY[digest] = value
                return True, value
        return False, None

    def put(self, key: Mapping[str, Any], value: Any) -> Any:
        from .store import _roundtrip

        out = self.disk.put(key, value) if self.disk is not None else _roundtrip(value)
        with _LOCK:
            _MEMORY[key_digest(key)] = out
        return out

    def __bool__(self) -> bool:
        return True


def sweep_key(fn: Callable, name: str | None = None) -> dict[str, Any]:
    """The key every point of the shared sweep of ``fn`` carries besides its configuration: the sweep's name, its
    module's code closure (:func:`theoryverify.closure.code_key`) and :func:`function_digest`."""
    from .closure import code_key

    target = fn.func if isinstance(fn, partial) else fn
    label = name or f"{getattr(target, '__module__', '?')}.{getattr(target, '__qualname__', type(target).__name__)}"
    try:
        code = code_key(target)
    except TypeError:
        code = "-"
    return {"claim": f"shared-sweep/{label}", "shared": label, "code": code, "function": function_digest(fn)}


def shared_sweep(fn: Callable[[Mapping[str, Any]], Any], configs: Sequence[Mapping[str, Any]], *,
                 name: str | None = None, store: Store | None = None, n_jobs: int | None = None,
                 backend: str | None = None, desc: str | None = None) -> list[Any]:
    """``[fn(c) for c in configs]``, each point computed once and shared with every claim that asks for it (see the
    module docstring for the key).  ``name`` names the sweep (default: the function's ``module.qualname``);
    ``store`` keeps points on disk too; ``n_jobs``/``backend``/``desc`` as :func:`theoryverify.store.sweep`.
    ``fn`` must be a pure function of its configuration (randomness from ``config["seed"]``).

    >>> import theoryverify as tv
    >>> from theoryverify.shared_sweeps import forget
    >>> forget()  # start from an empty memory (doctests run twice in one process)
    >>> calls = []
    >>> def measure(c):
    ...     calls.append(c["n"])
    ...     return c["n"] ** 2
    >>> tv.shared_sweep(measure, [{"n": 1}, {"n": 2}], name="doctest-squares")
    [1, 4]
    >>> tv.shared_sweep(measure, [{"n": 2}, {"n": 3}], name="doctest-squares"), calls  # n = 2 is not recomputed
    ([4, 9], [1, 2, 3])
    """
    return sweep(_Shared(store), sweep_key(fn, name), configs, fn, n_jobs=n_jobs, backend=backend,
                 desc=desc or name)


def forget() -> None:
    """Drop this process's shared points (the store on disk, if any, keeps its own)."""
    with _LOCK:
        _MEMORY.clear()
