"""Printing quantities at the level of float64 round-off so that noise cannot show.

A maximum relative error of 2.2e-16 on one machine is 4.4e-16 on another (a different BLAS, CPU or library
patch release); printed with three digits it makes two reports of the same run differ.  Quantities below
:data:`NOISE_FLOOR` are printed as "< 1e-12": the same on every machine, and still an honest bound.  Values
in ``details`` (the JSON rows) keep their full precision.
"""
from __future__ import annotations

import math

#: relative quantities below this are float64 round-off (accumulated over the longest sums the engine does)
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
    """A signed quantity that may sit at round-off level (a slack, a drift): "≈ 0 (|·| < 1e-12)" there."""
    x = float(x)
    if math.isnan(x):
        return "nan"
    if abs(x) < NOISE_FLOOR:
        return f"≈ 0 (|·| < {NOISE_FLOOR:g})"
    return f"{x:.{digits}g}"


def stable(x: float, digits: int = 6) -> float:
    """``x`` rounded to ``digits`` significant digits — for values that are plotted, so that round-off in the
    last bits cannot move a pixel."""
    x = float(x)
    if not math.isfinite(x) or x == 0:
        return x
    return float(f"{x:.{digits}g}")
