"""Small helpers the experiments and claims share that the public API (``import theoryverify as tv``) does not
offer: printing round-off-level numbers, a float64 evaluator of a SymPy expression, the torch device, and the
paper text's location.  Each mirrors the engine's own behaviour (theoryverify's round-off floor 1e-12; its
search path for paper texts) so that moving to the public API changed no verdict and no printed figure.
"""
from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Callable, Mapping, Sequence

import numpy as np
import sympy as sp

#: relative quantities below this are float64 round-off (the engine's report floor)
NOISE_FLOOR = 1e-12

#: environment variables naming the folder(s) that hold paper texts (the engine's names)
PAPERS_DIR_ENV = "THEORYVERIFY_PAPERS_DIR"
PAPERS_PATH_ENV = "THEORYVERIFY_PAPERS_PATH"


def fmt_error(x: float, digits: int = 3) -> str:
    """A non-negative error or deviation: "< 1e-12" at round-off level, else ``digits`` significant digits."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if abs(x) < NOISE_FLOOR:
        return f"< {NOISE_FLOOR:g}"
    return f"{x:.{digits}g}"


def fmt_signed(x: float, digits: int = 3) -> str:
    """A signed quantity that may sit at round-off level (a slack, a drift): "≈ 0 (|·| < 1e-12)" there."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if abs(x) < NOISE_FLOOR:
        return f"≈ 0 (|·| < {NOISE_FLOOR:g})"
    return f"{x:.{digits}g}"


def compile_float(expr: sp.Expr, symbols: Sequence[sp.Symbol]) -> Callable[[Mapping[sp.Symbol, float]], float]:
    """A float64 evaluator of ``expr`` over ``symbols`` (numpy; errors become nan)."""
    dummies = [sp.Dummy() for _ in symbols]
    body = sp.sympify(expr).xreplace(dict(zip(symbols, dummies)))
    fn = sp.lambdify(dummies, body, modules="numpy")

    def evaluate(point: Mapping[sp.Symbol, float]) -> float:
        with np.errstate(all="ignore"):
            try:
                value = fn(*[np.float64(point[s]) for s in symbols])
                return float(np.real_if_close(value))
            except (ZeroDivisionError, OverflowError, ValueError, TypeError):
                return float("nan")

    return evaluate


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
