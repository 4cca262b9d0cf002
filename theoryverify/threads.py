"""Thread counts for a block (or a decorated function), restored afterwards.

The models checked here are tiny float64 tensors: on a shared 2-core machine torch's thread pool
makes small matmuls and batched steps 20-5000x slower, so checks run them single-threaded.  The
same holds for numpy/scipy linear algebra, which runs in the BLAS library's own pool (OpenBLAS,
MKL) and in OpenMP pools that torch's setting does not reach; those are limited through
``threadpoolctl`` (the maintained library for exactly this, rather than environment variables
that only act before a library is loaded).

* :func:`torch_threads` — torch's intra-op threads only (unchanged; papers call it);
* :func:`blas_threads` — the BLAS and OpenMP pools of every loaded native library
  (``threadpoolctl.threadpool_limits``); without threadpoolctl installed it does nothing, since
  the GPU machine may not have it and the thread count changes speed, not results;
* :func:`single_threaded` — both at once (``n`` threads, 1 by default).

Each is usable as ``with blas_threads(1): ...`` or as a decorator ``@blas_threads(1)``.
"""
from __future__ import annotations

import importlib.abc
import sys
from contextlib import contextmanager
from typing import Iterator


class _AfterImport(importlib.abc.MetaPathFinder):
    """A finder for one top-level module (torch) that lets the other finders find it, then sets the thread count
    right after the module has run: the torch a block imports is set up as :func:`torch_threads` sets a loaded one
    (``old``: the count torch started with, restored at the block's end)."""

    def __init__(self, name: str, n: int):
        self.name, self.n, self.old, self._busy = name, n, None, False

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.name or self._busy:
            return None
        self._busy = True  # nested blocks: each hook asks the finders after it, never itself again
        try:
            for finder in sys.meta_path:
                if finder is self or not hasattr(finder, "find_spec"):
                    continue
                spec = finder.find_spec(fullname, path, target)
                if spec is not None:
                    if spec.loader is not None:
                        spec.loader = _SetThreads(spec.loader, self)
                    return spec
            return None
        finally:
            self._busy = False


class _SetThreads(importlib.abc.Loader):
    """The real loader, then ``set_num_threads``; the module keeps the real loader."""

    def __init__(self, loader, hook: _AfterImport):
        self._loader, self._hook = loader, hook

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        spec = getattr(module, "__spec__", None)
        if spec is not None:
            spec.loader = self._loader
        module.__loader__ = self._loader
        self._loader.exec_module(module)
        self._hook.old = module.get_num_threads()
        module.set_num_threads(self._hook.n)

    def __getattr__(self, name):
        return getattr(self._loader, name)


@contextmanager
def torch_threads(n: int | None = 1) -> Iterator[None]:
    """Run with ``n`` intra-op threads (``None``: leave the setting alone).

    Where torch is not loaded yet it is not imported here (1.5 CPU-s, in every process that runs a claim of a paper
    that never uses torch): the count is set the moment the block imports torch, and restored at the end, as if
    torch had been loaded before the block."""
    if n and "torch" not in sys.modules:
        hook = _AfterImport("torch", n)
        sys.meta_path.insert(0, hook)
        try:
            yield
        finally:
            if hook in sys.meta_path:
                sys.meta_path.remove(hook)
            if hook.old is not None and "torch" in sys.modules:
                sys.modules["torch"].set_num_threads(hook.old)
        return
    import torch

    old = torch.get_num_threads()
    if n:
        torch.set_num_threads(n)
    try:
        yield
    finally:
        torch.set_num_threads(old)


def _threadpool_limits(n: int):
    """``threadpoolctl.threadpool_limits(n)`` (limits applied on creation), or None without threadpoolctl."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return None
    return threadpool_limits(limits=n)


@contextmanager
def blas_threads(n: int | None = 1) -> Iterator[None]:
    """Run with the BLAS and OpenMP pools of the loaded native libraries (numpy's and scipy's BLAS,
    torch's OpenMP) limited to ``n`` threads, restored afterwards (``None``: leave them alone).
    A no-op where threadpoolctl is not installed.  Libraries loaded inside the block are not limited."""
    limiter = _threadpool_limits(n) if n else None
    if limiter is None:
        yield
        return
    with limiter:
        yield


@contextmanager
def single_threaded(n: int | None = 1) -> Iterator[None]:
    """Torch's intra-op threads and the BLAS/OpenMP pools set to ``n`` (default 1), restored afterwards.

    The BLAS pools are limited first so that their previous sizes (not torch's, which also sets the
    OpenMP pool) are the ones restored."""
    with blas_threads(n), torch_threads(n):
        yield
