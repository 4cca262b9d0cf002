"""Phases of a trajectory: hitting times, plateaus and change points (paper-agnostic).

Series are arrays of shape [K] or [K, B] (K recorded steps, B runs); ``steps`` maps record
index → step number (default: the index).  A hitting time is the first recorded step at which
a condition holds (−1 if never); ``stay=True`` asks for the first step after which it holds at
every later record.

Change points: an exact penalised least-squares segmentation (Optimal Partitioning with the
PELT pruning rule of Killick, Fearnhead & Eckley 2012) for piecewise-constant means or
piecewise-linear trends, with O(1) segment costs from cumulative sums.  We implement it here
(~40 lines, tested on planted signals in tests/test_phases.py) rather than depend on
``ruptures``: that package is not installed in the project environment, the cross-check needs
only these two cost functions, and an exact dynamic programme needs no tuning beyond the
penalty.  :func:`binary_segmentation` is the greedy alternative with a fixed number of breaks.
"""
from __future__ import annotations

import math
from typing import Callable, Sequence

import numpy as np


# --- hitting times ----------------------------------------------------------------------

def hitting_index(mask: np.ndarray, stay: bool = False) -> np.ndarray:
    """First index along axis 0 where ``mask`` is True (−1 if none); with ``stay``, the first
    index from which it is True until the end."""
    m = np.asarray(mask, dtype=bool)
    if stay:
        tail_ok = np.flip(np.logical_and.accumulate(np.flip(m, 0), axis=0), 0)
        m = tail_ok
    first = np.argmax(m, axis=0)
    return np.where(m.any(axis=0), first, -1)


def _to_steps(idx: np.ndarray, steps: Sequence[int] | None) -> np.ndarray:
    if steps is None:
        return idx
    s = np.asarray(steps)
    return np.where(idx >= 0, s[np.clip(idx, 0, None)], -1)


def first_below(series, level: float, steps=None, stay: bool = False) -> np.ndarray:
    """First step with series < level (e.g. loss below x)."""
    return _to_steps(hitting_index(np.asarray(series) < level, stay), steps)


def first_above(series, level: float, steps=None, stay: bool = False) -> np.ndarray:
    """First step with series > level (e.g. a coordinate or an attention score above y)."""
    return _to_steps(hitting_index(np.asarray(series) > level, stay), steps)


def first_near(points, target, radius: float, steps=None, norm: float = math.inf, stay: bool = False):
    """First step with ‖x_k − target‖ < radius; ``points`` has shape [K, ..., dim]."""
    d = np.linalg.norm(np.asarray(points) - np.asarray(target), ord=norm, axis=-1)
    return first_below(d, radius, steps, stay)


# --- plateaus ---------------------------------------------------------------------------

def plateaus(series: Sequence[float], *, rel_tol: float, min_length: int, window: int = 1,
             scale: float | None = None) -> list[tuple[int, int]]:
    """Maximal index ranges [start, end) of length ≥ min_length on which the series changes by at
    most ``rel_tol · scale`` per ``window`` records (scale: the series' total range by default)."""
    x = np.asarray(series, dtype=float)
    if len(x) <= window:
        return []
    scale = scale if scale is not None else float(np.ptp(x)) or 1.0
    flat = np.abs(x[window:] - x[:-window]) <= rel_tol * scale  # flat[i]: x[i]..x[i+window]
    out, start = [], None
    for i, f in enumerate(np.append(flat, False)):
        if f and start is None:
            start = i
        elif not f and start is not None:
            end = i + window
            if end - start >= min_length:
                out.append((start, end))
            start = None
    return out


# --- change points ----------------------------------------------------------------------

class _Cost:
    """Least-squares segment cost from cumulative sums (O(1) per segment)."""

    def __init__(self, y: np.ndarray, model: str) -> None:
        y = np.asarray(y, dtype=float)
        t = np.arange(len(y), dtype=float)
        c = lambda a: np.concatenate([[0.0], np.cumsum(a)])  # noqa: E731
        self.model = model
        self.S = {"1": c(np.ones_like(y)), "y": c(y), "yy": c(y * y), "t": c(t), "tt": c(t * t), "ty": c(t * y)}

    def __call__(self, a: int, b: int) -> float:
        """Residual sum of squares of the best constant (or line) on y[a:b]."""
        s = {k: v[b] - v[a] for k, v in self.S.items()}
        n = s["1"]
        rss = s["yy"] - s["y"] ** 2 / n
        if self.model == "linear" and n > 1:
            stt = s["tt"] - s["t"] ** 2 / n
            sty = s["ty"] - s["t"] * s["y"] / n
            if stt > 0:
                rss -= sty**2 / stt
        return max(rss, 0.0)


def pelt(y: Sequence[float], penalty: float, model: str = "constant", min_size: int = 2) -> list[int]:
    """Exact penalised segmentation (PELT); returns the breakpoints (segment starts, excluding 0).

    Minimises Σ_segments RSS + penalty·(number of breaks).  A good default penalty for noise of
    variance σ² is the BIC-like ``p·σ²·log n`` with p = 2 (constant) or 3 (linear)."""
    y = np.asarray(y, dtype=float)
    n = len(y)
    cost = _Cost(y, model)
    F = np.full(n + 1, np.inf)
    F[0] = -penalty
    last = np.zeros(n + 1, dtype=int)
    candidates = [0]
    for b in range(1, n + 1):
        vals = [(F[a] + cost(a, b) + penalty, a) for a in candidates if b - a >= min_size]
        if vals:
            F[b], last[b] = min(vals)
        # PELT pruning: a start that is already worse than F[b] can never be optimal later
        candidates = [a for a in candidates if b - a < min_size or F[a] + cost(a, b) <= F[b]] + [b]
    bps, b = [], n
    while b > 0:
        a = last[b]
        if a > 0:
            bps.append(a)
        b = a
    return sorted(bps)


def binary_segmentation(y: Sequence[float], n_breaks: int, model: str = "constant",
                        min_size: int = 2) -> list[int]:
    """Greedy least-squares binary segmentation with a fixed number of breaks."""
    y = np.asarray(y, dtype=float)
    cost = _Cost(y, model)
    segs, bps = [(0, len(y))], []
    for _ in range(n_breaks):
        best = None
        for a, b in segs:
            for m in range(a + min_size, b - min_size + 1):
                gain = cost(a, b) - cost(a, m) - cost(m, b)
                if best is None or gain > best[0]:
                    best = (gain, m, (a, b))
        if best is None:
            break
        _, m, (a, b) = best
        segs.remove((a, b))
        segs += [(a, m), (m, b)]
        bps.append(m)
    return sorted(bps)


def noise_scale(y: Sequence[float]) -> float:
    """Robust noise σ from first differences (MAD / 0.6745 / √2), for the PELT penalty."""
    d = np.diff(np.asarray(y, dtype=float))
    return float(np.median(np.abs(d - np.median(d))) / 0.6745 / math.sqrt(2)) if len(d) else 0.0


def change_points(y: Sequence[float], model: str = "constant", penalty: float | None = None,
                  min_size: int = 2) -> list[int]:
    """PELT with the BIC-like penalty from :func:`noise_scale` unless one is given."""
    y = np.asarray(y, dtype=float)
    if penalty is None:
        sigma = max(noise_scale(y), 1e-12 * (np.ptp(y) or 1.0))
        penalty = (2 if model == "constant" else 3) * sigma**2 * math.log(max(len(y), 2)) * 2
    return pelt(y, penalty, model, min_size)


def agree(a: Sequence[int], b: Sequence[int], tol: int) -> bool:
    """Two breakpoint lists match one-to-one within ``tol`` indices."""
    return len(a) == len(b) and all(abs(x - y) <= tol for x, y in zip(sorted(a), sorted(b)))


Predicate = Callable[[np.ndarray], np.ndarray]
