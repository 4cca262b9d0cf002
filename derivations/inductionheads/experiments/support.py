"""Small helpers the experiments and claims share: the torch device (None means auto) and the paper text's
location (the engine's search path for paper texts).  Round-off-level printing and the float64 evaluator of a
SymPy expression are the engine's (``tv``), imported here so the paper keeps one place to import them from.
"""
from __future__ import annotations

from pathlib import Path

from theoryverify import NOISE_FLOOR, compile_float, fmt_error, fmt_signed  # noqa: F401


#: environment variables naming the folder(s) that hold paper texts (the engine's names)
PAPERS_DIR_ENV = "THEORYVERIFY_PAPERS_DIR"
PAPERS_PATH_ENV = "THEORYVERIFY_PAPERS_PATH"


def resolve_device(name: str | None = "auto") -> str:
    """"cuda" when asked for "auto" and a GPU is present, else "cpu"; an explicit name is kept."""
    import torch

    if name in (None, "auto"):
        return "cuda" if torch.cuda.is_available() else "cpu"
    if name == "cuda" and not torch.cuda.is_available():
        raise ValueError("device cuda requested but no CUDA device is available")
    return name


def find_paper_text(file: str) -> Path | None:
    """The paper text ``file`` on the engine's search path (:func:`theoryverify.catalogue.find_text`:
    ``$THEORYVERIFY_PAPERS_DIR``, the folders of ``$THEORYVERIFY_PAPERS_PATH``, the package's own ``paper/``, or,
    neither variable set, ``shared/papers`` next to the checkout); None if absent."""
    from theoryverify import catalogue

    return catalogue.find_text(file, "inductionheads")
