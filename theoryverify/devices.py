"""Device choice: ``auto`` picks CUDA when present; everything runs unchanged on CPU."""
from __future__ import annotations


def resolve_device(name: str = "auto") -> str:
    """``"cpu"`` or ``"cuda"`` for ``--device`` (``auto``: CUDA when available); asking for CUDA where there is none
    is a ValueError (a one-line error in the front-ends).

    >>> resolve_device("cpu")
    'cpu'
    """
    import torch

    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if name == "cuda" and not torch.cuda.is_available():
        raise ValueError("--device cuda requested but no CUDA device is available")
    if name not in ("cpu", "cuda"):
        raise ValueError(f"unknown device {name!r} (auto, cpu, cuda)")
    return name
