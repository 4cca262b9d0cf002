"""Float64 and high-precision evaluation of SymPy expressions.

Symbols are replaced by anonymous dummies before ``lambdify``, so no user-chosen name ever
reaches generated code.
"""
from __future__ import annotations

from typing import Callable, Mapping, Sequence

import mpmath
import numpy as np
import sympy as sp


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


def exact_value(expr: sp.Expr, point: Mapping[sp.Symbol, sp.Expr]) -> sp.Expr:
    """``expr`` at an exact point (rationals stay rationals)."""
    return sp.sympify(expr).xreplace({s: sp.sympify(v) for s, v in point.items()})


def high_precision(expr: sp.Expr, point: Mapping[sp.Symbol, float], digits: int = 50) -> mpmath.mpf:
    """``expr`` at a float point taken exactly (each float as the rational it is), to ``digits``."""
    exact = {s: sp.Rational(float(v)) for s, v in point.items()}
    value = exact_value(expr, exact).evalf(digits)
    return mpmath.mpf(str(value)) if value.is_real else mpmath.mpf("nan")


def relative_error(a: float, b: float) -> float:
    """|a − b| / max(1, |b|): the float tiers' error measure."""
    if not (np.isfinite(a) and np.isfinite(b)):
        return float("nan")
    return abs(a - b) / max(1.0, abs(b))
