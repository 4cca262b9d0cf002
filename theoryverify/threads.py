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

from contextlib import contextmanager
from typing import Iterator


@contextmanager
def torch_threads(n: int | None = 1) -> Iterator[None]:
    """Run with ``n`` intra-op threads (``None``: leave the setting alone)."""
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
