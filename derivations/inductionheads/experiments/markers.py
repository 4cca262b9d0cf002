"""Phase markers of a Stage-II trajectory (spec §4.3, RC-17), on sampled series.

All markers take arrays ``t`` (increasing) and a series sampled on it, and return a time (``None``
when the event is not reached on the grid).  Hitting times are interpolated linearly in (t, log value)
between the two samples that bracket the crossing.  Thresholds used (RC-17, recorded by the claims):

* T_G4(ε) = min{t : L_G4(t) ≤ ε·L_G4(0)}, ε ∈ {0.1, 0.01};
* T_sat: the first t at which |dv2/dt| falls below ``frac`` = 1% of its running maximum, after that
  maximum has been attained (reading of "after which |dv2/dt| stays below": the later bump of |dv2/dt|
  during the emergence is a different phase and is excluded; the claims record this reading);
* P_IH = L_IH(T_sat); cross-check: the median of L_IH over the window of ±``half`` samples around the
  sample where |d log L_IH / d log t| is smallest (after T_G4(0.1));
* T_IH(q) = min{t > T_sat : L_IH ≤ q·P_IH}, q ∈ {0.9, 0.5, 0.1}; width W = T_IH(0.1) − T_IH(0.9);
* T_k(φ): the first t at which k² reaches φ·k_final², φ ∈ {0.05, 0.5};
* T_turn: the first sign change of dv2/dt from + to − (the v2 turning point of App. C.2 Eq. 23);
* phase count: continuous piecewise-linear fits (2–5 segments) of log L against log t (and t), BIC
  (:func:`theoryverify.phases.segment_count_bic`).
"""
from __future__ import annotations

import math

import numpy as np

from theoryverify import phases


def _cross(t: np.ndarray, y: np.ndarray, level: float, i: int, log: bool) -> float:
    """Interpolated crossing time of ``level`` between samples i−1 and i."""
    if i == 0:
        return float(t[0])
    y0, y1 = float(y[i - 1]), float(y[i])
    if log and y0 > 0 and y1 > 0 and level > 0:
        y0, y1, level = math.log(y0), math.log(y1), math.log(level)
    if y1 == y0:
        return float(t[i])
    f = (level - y0) / (y1 - y0)
    return float(t[i - 1] + min(max(f, 0.0), 1.0) * (t[i] - t[i - 1]))


def first_below(t, y, level: float, after: float = -math.inf, log: bool = True) -> float | None:
    """min{t > after : y(t) ≤ level} (interpolated)."""
    t, y = np.asarray(t, float), np.asarray(y, float)
    idx = np.flatnonzero((t > after) & (y <= level))
    return None if idx.size == 0 else _cross(t, y, level, int(idx[0]), log)


def first_above(t, y, level: float, after: float = -math.inf, log: bool = True) -> float | None:
    """min{t > after : y(t) ≥ level} (interpolated)."""
    t, y = np.asarray(t, float), np.asarray(y, float)
    idx = np.flatnonzero((t > after) & (y >= level))
    return None if idx.size == 0 else _cross(t, y, level, int(idx[0]), log)


def t_g4(t, L_G4, eps: float) -> float | None:
    """T_G4(ε) = min{t : L_G4(t) ≤ ε·L_G4(0)}."""
    return first_below(t, L_G4, eps * float(np.asarray(L_G4)[0]))


def derivative(t, y) -> np.ndarray:
    """dy/dt on the sample grid (second-order finite differences, non-uniform grid)."""
    return np.gradient(np.asarray(y, float), np.asarray(t, float))


def t_sat(t, v2, frac: float = 0.01) -> float | None:
    """T_sat: first t (after the maximum of |dv2/dt| so far) with |dv2/dt| < frac·running max."""
    d = np.abs(derivative(t, v2))
    run = np.maximum.accumulate(d)
    peak = int(np.argmax(d > 0)) if np.any(d > 0) else 0
    ok = np.flatnonzero((np.arange(len(d)) > peak) & (d < frac * run) & (d < run))
    return None if ok.size == 0 else float(np.asarray(t)[ok[0]])


def plateau_level(t, L_IH, T_sat: float | None) -> float | None:
    """P_IH = L_IH(T_sat) (interpolated in log L)."""
    if T_sat is None:
        return None
    y = np.maximum(np.asarray(L_IH, float), 1e-300)
    return float(np.exp(np.interp(T_sat, t, np.log(y))))


def plateau_level_flat(t, L_IH, after: float = 0.0, half: int = 10, before: float = math.inf) -> tuple[float, float]:
    """Cross-check of P_IH: median of L_IH over ±``half`` samples around the flattest point (smallest
    |d log L_IH / d log t|, over after < t < before); returns (level, time of the flattest point)."""
    t, y = np.asarray(t, float), np.maximum(np.asarray(L_IH, float), 1e-300)
    keep = np.flatnonzero((t > max(after, 0.0)) & (t < before))
    keep = keep[(keep > half) & (keep < len(t) - half)]
    r = np.abs(np.gradient(np.log(y), np.log(t + 1.0)))
    i = int(keep[np.argmin(r[keep])])
    return float(np.median(y[i - half:i + half + 1])), float(t[i])


def t_ih(t, L_IH, q: float, P_IH: float, T_sat: float) -> float | None:
    """T_IH(q) = min{t > T_sat : L_IH(t) ≤ q·P_IH}."""
    return first_below(t, L_IH, q * P_IH, after=T_sat)


def width(t, L_IH, P_IH: float, T_sat: float) -> float | None:
    """W = T_IH(0.1) − T_IH(0.9)."""
    a, b = t_ih(t, L_IH, 0.9, P_IH, T_sat), t_ih(t, L_IH, 0.1, P_IH, T_sat)
    return None if a is None or b is None else b - a


def t_k(t, k, phi: float, k_final: float | None = None) -> float | None:
    """T_k(φ): first t with k² ≥ φ·k_final² (k_final: the last sample unless given)."""
    k = np.asarray(k, float)
    kf = float(k[-1]) if k_final is None else float(k_final)
    return first_above(t, k * k, phi * kf * kf)


def t_turn(t, v2, dv2=None, rel: float = 1e-9) -> float | None:
    """First sign change of dv2/dt from + to − (interpolated zero of the derivative).  ``dv2``: the
    flow's own dv2/dt on the grid (preferred; finite differences otherwise); |dv2/dt| < rel·max is
    treated as zero (round-off on the plateau)."""
    d = derivative(t, v2) if dv2 is None else np.asarray(dv2, float)
    d = np.where(np.abs(d) < rel * np.max(np.abs(d)), 0.0, d)
    pos = np.flatnonzero(d > 0)
    if pos.size == 0:
        return None
    idx = np.flatnonzero((np.arange(len(d)) > pos[0]) & (d < 0))
    if idx.size == 0:
        return None
    i = int(idx[0])
    j = int(pos[pos < i][-1])  # last positive sample before the first negative one
    t = np.asarray(t, float)
    return float(t[j] + d[j] / (d[j] - d[i]) * (t[i] - t[j]))


def sign_changes(t, y, rel: float = 1e-9, dy=None) -> int:
    """Number of sign changes of dy/dt (``dy`` given or finite differences), ignoring |dy/dt| below
    rel·max|dy/dt|."""
    d = derivative(t, y) if dy is None else np.asarray(dy, float)
    d = d[np.abs(d) > rel * np.max(np.abs(d))]
    return int(np.count_nonzero(np.diff(np.sign(d)) != 0))


def ih_markers(t, L_IH, v2, k, frac: float = 0.01, dv2=None) -> dict[str, float | None]:
    """The head-2 markers of §4.3 in one dict (``dv2``: the flow's dv2/dt on the grid, for T_turn)."""
    ts = t_sat(t, v2, frac)
    P = plateau_level(t, L_IH, ts)
    out = {"T_sat": ts, "P_IH": P, "T_turn": t_turn(t, v2, dv2),
           "T_k(0.05)": t_k(t, k, 0.05), "T_k(0.5)": t_k(t, k, 0.5)}
    for q in (0.9, 0.5, 0.1):
        out[f"T_IH({q})"] = None if P is None else t_ih(t, L_IH, q, P, ts)
    out["W"] = None if P is None else width(t, L_IH, P, ts)
    return out


def g4_markers(t, L_G4) -> dict[str, float | None]:
    return {"T_G4(0.1)": t_g4(t, L_G4, 0.1), "T_G4(0.01)": t_g4(t, L_G4, 0.01)}


def phase_count(t, loss, max_segments: int = 5, n: int = 120, axis: str = "log", rss_floor: float = 0.0,
                t_min: float | None = None):
    """BIC segment count of log(loss) against log t (``axis="log"``) or t, on ``n`` points resampled
    uniformly in that axis (t > t_min, default the first positive sample).  Returns the SegmentFit with
    breakpoints converted back to times in ``times``."""
    t, y = np.asarray(t, float), np.asarray(loss, float)
    pos = t > (t_min if t_min is not None else 0.0)
    t, y = t[pos], y[pos]
    if axis == "log":
        xs = np.linspace(math.log(t[0]), math.log(t[-1]), n)
        ys = np.interp(xs, np.log(t), np.log(y))
    else:
        xs = np.linspace(t[0], t[-1], n)
        ys = np.interp(xs, t, np.log(y))
    fit = phases.segment_count_bic(xs, ys, max_segments=max_segments, min_size=4, n_candidates=28,
                            rss_floor=rss_floor)
    times = tuple(float(np.exp(b)) if axis == "log" else float(b) for b in fit.breakpoints)
    return fit, times
