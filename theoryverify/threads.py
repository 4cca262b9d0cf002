"""Torch's intra-op thread count for a block (or a decorated function), restored afterwards.

The models checked here are tiny float64 tensors: on a shared 2-core machine torch's thread pool
makes small matmuls and batched steps 20-5000x slower, so checks run them single-threaded.
Usable as ``with torch_threads(1): ...`` or as a decorator ``@torch_threads(1)``.
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
