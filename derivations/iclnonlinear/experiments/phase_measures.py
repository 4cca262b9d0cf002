"""Phase boundaries and per-phase quantities of a q-space trajectory (spec §3.0 "Phase-boundary
detection"), and the paper's duration formulas (Props. 2–4, Thms 1–2; spec §1.9).

T1 (end of flat Phase I) has three definitions, all reported: Ā(t) ≥ 1/2 (primary), q̄_k(t) ≥ log K,
and the knee of log l(t) (argmax of the discrete curvature after smoothing).  T(ε) := min{t : l(t) ≤ ε²}
(absolute) or l(t) ≤ ε² l(0) (relative) — which one is a recorded choice of each claim.
"""
from __future__ import annotations

import math
from typing import Mapping

import numpy as np
from scipy.ndimage import gaussian_filter1d

from ..printed import durations as _printed
from . import dynamics as D


# --- the paper's formulas, hidden constants set to 1 (Sec. 4, Props. 2–4): printed/durations.py -------------
# T_f1(K, η, L, Δ) = T_f^1 (Prop. 2); T_fstar(K, η, L, Δ, δ, ε) = T_f^* (Prop. 3, Thm 1; also T_s^1, Sec. 5.3);
# T_sstar(K, η, L, Δ, δ, ε) = T_s^* (Prop. 4, Thm 2); threshold_L(Δ, δ) = 1/(Δδ) (Thms 1–2, Sec. 4)
T_f1, T_fstar, T_sstar, threshold_L = _printed.T_f1, _printed.T_fstar, _printed.T_sstar, _printed.threshold_L


# --- events for dynamics.simulate -------------------------------------------------------------

def phase_events(K: int | np.ndarray, loss_levels: Mapping[str, float | np.ndarray] | None = None,
                 abar_levels=(0.5,)) -> dict[str, D.Event]:
    """Events giving T1 (Ā ≥ 1/2 and q̄_k ≥ log K), Ā ≥ each level, and T(ε) for each named loss level."""
    ev: dict[str, D.Event] = {f"abar>={a:g}": ("abar", ">=", a) for a in abar_levels}
    ev["T1"] = ("abar", ">=", 0.5)
    ev["T1_logK"] = ("qdiag", ">=", np.log(K))
    for name, level in (loss_levels or {}).items():
        ev[name] = ("loss", "<=", level)
    return ev


def knee(t: np.ndarray, loss: np.ndarray, sigma: float = 2.0, edge: float = 0.05) -> np.ndarray:
    """Knee of log l against t per run: argmax of the curvature of the smoothed log l, on the
    recorded steps (shape (n_records, B) → (B,) steps).  The curvature is taken on the interior records
    (the first record and the last ``edge`` fraction, at least 3, are excluded: nearest-mode smoothing and
    one-sided differences put a spurious maximum at the series' ends) and only where l has not yet fallen
    below 1e-3 of l(0), so the tail's numerics do not decide."""
    y = np.log(np.maximum(loss, 1e-300))
    ys = gaussian_filter1d(y, sigma, axis=0, mode="nearest")
    curv = np.gradient(np.gradient(ys, t, axis=0), t, axis=0)
    mask = loss >= 1e-3 * loss[:1]
    mask[:1] = False
    mask[len(t) - max(3, int(edge * len(t))):] = False
    curv = np.where(mask, curv, -np.inf)
    return t[np.argmax(curv, axis=0)]


def T1_all(tr: D.Trajectory) -> dict[str, np.ndarray]:
    """The three T1 definitions (−1 where not reached)."""
    return {"abar>=1/2": tr.hits["T1"], "qbar>=logK": tr.hits["T1_logK"], "knee": knee(tr.t, tr.metrics["loss"])}


# --- per-window statistics ----------------------------------------------------------------------

def window_stats(tr: D.Trajectory, name: str, start: np.ndarray, stop: np.ndarray) -> dict[str, np.ndarray]:
    """min / mean / max of metrics[name] over the recorded steps in [start_b, stop_b] for each run b
    (NaN where the window holds no record)."""
    t = tr.t[:, None]
    inside = (t >= np.asarray(start)[None, :]) & (t <= np.asarray(stop)[None, :])
    x = tr.metrics[name]
    n = inside.sum(0)
    lo = np.where(inside, x, np.inf).min(0)
    hi = np.where(inside, x, -np.inf).max(0)
    mean = np.where(inside, x, 0.0).sum(0) / np.maximum(n, 1)
    empty = n == 0
    return {"min": np.where(empty, np.nan, lo), "mean": np.where(empty, np.nan, mean),
            "max": np.where(empty, np.nan, hi), "records": n}


def T_eps(tr: D.Trajectory, eps: float, relative: bool = False) -> np.ndarray:
    """T(ε) = first recorded step with l ≤ ε² (× l(0) if relative); −1 if never (record-step
    resolution — pass the level as an event to dynamics.simulate for exact step counts)."""
    level = eps**2 * (tr.metrics["loss"][0] if relative else 1.0)
    hit = tr.metrics["loss"] <= level
    first = np.where(hit.any(0), hit.argmax(0), -1)
    return np.where(first >= 0, tr.t[np.maximum(first, 0)], -1)


def log_factor(K: np.ndarray) -> np.ndarray:
    """Local log-log slope of K log K: 1 + 1/ln K (spec claim 28)."""
    return 1.0 + 1.0 / np.log(np.asarray(K, dtype=float))


def isotropic_sigma2(L: float, Delta: float, law: str = "iid-normal") -> float:
    """E f_k² − (E f_k)² for the i.i.d. task laws of the default domains: N(0, (LΔ)²) and
    U[−LΔ/2, LΔ/2] (spec §3.0)."""
    if law == "iid-normal":
        return (L * Delta) ** 2
    if law == "iid-uniform":
        return (L * Delta) ** 2 / 12.0
    raise ValueError(f"unknown i.i.d. task law {law!r}")


def steps_for(K: float, eta: float, L: float, Delta: float, factor: float = 20.0) -> int:
    """A step budget: ``factor`` × T_f^1-formula (at least 100)."""
    return int(max(100, math.ceil(factor * T_f1(K, eta, L, Delta))))
