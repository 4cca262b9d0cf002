"""Counterexample searches over drawn configurations (the engine's Hypothesis ``search``), for
statements that are inequalities in a configuration rather than in SymPy symbols."""
from __future__ import annotations

from typing import Callable

from hypothesis import strategies as st

import theoryverify as tv
from theoryverify import Verdict, holds, inconclusive, refuted

from .draws import describe
from .verdicts import fmt_signed


def check_nonnegative(value: Callable[[dict], float], strategy: st.SearchStrategy, seed: int, *,
                      what: str, tol: float = 1e-12, n: int = 40) -> Verdict:
    """``value(x) ≥ −tol`` for every drawn x; ``value`` is normalised by the caller (scale-free)."""
    res = tv.search(strategy, lambda x: -value(x), fails=lambda s: s > tol, seed=seed, max_examples=n,
                 label=f"-{what}")
    if res.failure is not None:
        return refuted("Hypothesis search (target + shrink), float64",
                       f"{what} = {-res.failure_score:.3g} < 0", {**describe(res.failure), what: -res.failure_score})
    finite = res.tried - res.nonfinite
    if finite < 5:
        return inconclusive("search", f"only {finite} finite draws")
    return holds(f"Hypothesis search ({finite} draws)", f"min {what} = {fmt_signed(-res.worst_score)} ≥ −{tol:g}",
                 float_points=finite, minimum=-res.worst_score)


def check_ratio_at_most(ratio: Callable[[dict], float], bound: float, strategy: st.SearchStrategy, seed: int, *,
                        what: str, rtol: float = 1e-12, n: int = 40) -> Verdict:
    """``ratio(x) ≤ bound`` for every drawn x (reports the sup found)."""
    res = tv.search(strategy, ratio, fails=lambda s: s > bound * (1 + rtol), seed=seed, max_examples=n, label=what)
    if res.failure is not None:
        return refuted("Hypothesis search (target + shrink), float64", f"{what} = {res.failure_score:.6g} > {bound:g}",
                       {**describe(res.failure), what: res.failure_score})
    finite = res.tried - res.nonfinite
    if finite < 5:
        return inconclusive("search", f"only {finite} finite draws")
    return holds(f"Hypothesis search ({finite} draws)", f"sup {what} found = {res.worst_score:.4g} ≤ {bound:g}",
                 float_points=finite, sup=res.worst_score)
