"""Agreement of two float64 computations of the same quantity over drawn parameters.

Used for autograd cross-checks (SymPy-derived gradient vs torch autograd of an independent
torch model) and for numeric identities between implementations.  The error measure is
max |a − b| / max(1, |b|) over all entries; the worst case is searched with ``target()`` and a
failing draw is shrunk.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
from hypothesis import strategies as st

from ..verdicts import Verdict, holds, inconclusive, plain, refuted
from .search import search


def max_relative_error(a: Any, b: Any) -> float:
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    if a.shape != b.shape:
        return float("inf")
    if not (np.all(np.isfinite(a)) and np.all(np.isfinite(b))):
        return float("nan")
    if a.size == 0:
        return 0.0
    return float(np.max(np.abs(a - b) / np.maximum(1.0, np.abs(b))))


def check_agreement(derived: Callable[[Any], Any], reference: Callable[[Any], Any],
                    strategy: st.SearchStrategy, seed: int, *, rtol: float = 1e-10,
                    n: int | None = None, names: tuple[str, str] = ("derived", "autograd"),
                    describe: Callable[[Any], dict] | None = None) -> Verdict:
    """``derived(x) ≈ reference(x)`` within ``rtol`` for every drawn ``x``."""
    def score(x):
        return max_relative_error(derived(x), reference(x)) / rtol

    res = search(strategy, score, fails=lambda s: s > 1.0, seed=seed, max_examples=n)
    if res.failure is not None:
        x = res.failure
        ce = dict(describe(x)) if describe else {"input": plain(x)}
        ce[names[0]] = plain(derived(x))
        ce[names[1]] = plain(reference(x))
        return refuted(f"{names[0]} vs {names[1]}, float64",
                       f"relative error {res.failure_score * rtol:.3g} > {rtol:g}", ce, tolerance=rtol)
    finite = res.tried - res.nonfinite
    if finite < 5:
        return inconclusive("float64 agreement", f"only {finite} finite comparisons", tried=res.tried)
    max_err = max(res.worst_score, 0.0) * rtol
    return holds(f"{names[0]} vs {names[1]}, float64 ({finite} draws)",
                 f"{finite} drawn points; max rel. error {max_err:.2e} ≤ tol {rtol:g}",
                 float_points=finite, max_error=max_err, tolerance=rtol)
