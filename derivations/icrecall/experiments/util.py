"""Small numerical and formatting utilities the claims share (local copies of helpers the engine keeps private):
round-off-level printing, float64 / high-precision evaluation of SymPy expressions, JSON-friendly values, a
seeded ``random.Random`` and the device choice."""
from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any, Callable, Mapping, Sequence

import mpmath
import numpy as np
import sympy as sp

#: relative quantities below this are float64 round-off (printed as "< 1e-12" so that noise cannot show)
NOISE_FLOOR = 1e-12


def fmt_error(x: float, digits: int = 3) -> str:
    """A non-negative error or deviation: "< 1e-12" at round-off level, else ``digits`` significant digits."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if abs(x) < NOISE_FLOOR:
        return f"< {NOISE_FLOOR:g}"
    return f"{x:.{digits}g}"


def fmt_signed(x: float, digits: int = 3) -> str:
    """A signed quantity that may sit at round-off level: "≈ 0 (|·| < 1e-12)" there."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if abs(x) < NOISE_FLOOR:
        return f"≈ 0 (|·| < {NOISE_FLOOR:g})"
    return f"{x:.{digits}g}"


def plain(value: Any) -> Any:
    """Numbers (numpy, sympy, Fraction) and containers as JSON-friendly values."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (bool, str)) or value is None:
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, Fraction):
        return str(value) if value.denominator != 1 else int(value)
    if hasattr(value, "is_Rational") and getattr(value, "is_Rational"):
        return str(value) if value.q != 1 else int(value.p)
    if hasattr(value, "tolist") and not isinstance(value, float):
        return plain(value.tolist())
    try:
        f = float(value)
    except (TypeError, ValueError):
        return str(value)
    return f if math.isfinite(f) else str(f)


def compile_float(expr: sp.Expr, symbols: Sequence[sp.Symbol]) -> Callable[[Mapping[sp.Symbol, float]], float]:
    """A float64 evaluator of ``expr`` over ``symbols`` (numpy; errors become nan); symbols are replaced by
    anonymous dummies before ``lambdify``."""
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


def high_precision(expr: sp.Expr, point: Mapping[sp.Symbol, float], digits: int = 50) -> mpmath.mpf:
    """``expr`` at a float point taken exactly (each float as the rational it is), to ``digits``."""
    exact = {s: sp.Rational(float(v)) for s, v in point.items()}
    value = sp.sympify(expr).xreplace({s: sp.sympify(v) for s, v in exact.items()}).evalf(digits)
    return mpmath.mpf(str(value)) if value.is_real else mpmath.mpf("nan")


def pyrandom(seed: int) -> random.Random:
    return random.Random(seed)


def resolve_device(name: str = "auto") -> str:
    """``auto`` picks CUDA when present; everything runs unchanged on CPU."""
    import torch

    if name == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if name == "cuda" and not torch.cuda.is_available():
        raise ValueError("--device cuda requested but no CUDA device is available")
    if name not in ("cpu", "cuda"):
        raise ValueError(f"unknown device {name!r} (auto, cpu, cuda)")
    return name
