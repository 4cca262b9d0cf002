"""Small helpers the experiments and claims share: the torch device (None means auto) and the paper text's
location (the engine's search path for paper texts).  Round-off-level printing and the float64 evaluator of a
SymPy expression are the engine's (``tv``), imported here so the paper keeps one place to import them from.
"""
from __future__ import annotations

import os
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
    """The paper text ``file``: in ``$THEORYVERIFY_PAPERS_DIR``, the folders of ``$THEORYVERIFY_PAPERS_PATH``, or a
    ``shared/papers`` folder beside an ancestor of this package (the checkout layout: ``<root>/main/derivations/…``
    next to ``<root>/shared/papers``); None if absent."""
    folders = [Path(p) for p in ([os.environ.get(PAPERS_DIR_ENV)] if os.environ.get(PAPERS_DIR_ENV) else [])]
    folders += [Path(p) for p in os.environ.get(PAPERS_PATH_ENV, "").split(os.pathsep) if p.strip()]
    folders += [a / "shared" / "papers" for a in Path(__file__).resolve().parents]
    return next((f / file for f in folders if (f / file).is_file()), None)
