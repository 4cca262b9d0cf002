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


# --- segment count by BIC (continuous piecewise-linear fits) ------------------------------

from dataclasses import dataclass, field  # noqa: E402


@dataclass(frozen=True)
class SegmentFit:
    """Result of :func:`segment_count_bic`.

    ``count``: the number of segments chosen by BIC; ``breakpoints``: its interior breakpoints
    (in x units, increasing, ``count − 1`` of them); ``bic``/``rss``/``fits``: per candidate
    segment count m, the BIC, the residual sum of squares and the best breakpoints found."""

    count: int
    breakpoints: tuple[float, ...]
    bic: dict[int, float] = field(default_factory=dict)
    rss: dict[int, float] = field(default_factory=dict)
    fits: dict[int, tuple[float, ...]] = field(default_factory=dict)
    n: int = 0


def _hinge_design(x: np.ndarray, bps: Sequence[float]) -> np.ndarray:
    cols = [np.ones_like(x), x] + [np.maximum(x - b, 0.0) for b in bps]
    return np.stack(cols, axis=-1)


def _hinge_rss(x: np.ndarray, y: np.ndarray, bps: Sequence[float]) -> float:
    A = _hinge_design(x, bps)
    coef, *_ = np.linalg.lstsq(A, y, rcond=None)
    r = y - A @ coef
    return float(r @ r)


def _coarse_rss(x: np.ndarray, y: np.ndarray, combos: np.ndarray, chunk: int = 512) -> np.ndarray:
    """RSS of the continuous hinge fit for each row of breakpoints ``combos`` [P, m−1] (batched
    least squares by QR per chunk)."""
    out = np.empty(len(combos))
    for s in range(0, len(combos), chunk):
        c = combos[s:s + chunk]                                    # [p, m-1]
        hinges = np.maximum(x[None, :, None] - c[:, None, :], 0.0)  # [p, n, m-1]
        base = np.broadcast_to(np.stack([np.ones_like(x), x], -1), (len(c), len(x), 2))
        A = np.concatenate([base, hinges], axis=-1)                # [p, n, m+1]
        q, _ = np.linalg.qr(A)
        proj = np.einsum("pnk,n->pk", q, y)
        out[s:s + chunk] = float(y @ y) - np.einsum("pk,pk->p", proj, proj)
    return np.maximum(out, 0.0)


def _segment_sizes_ok(x: np.ndarray, bps: Sequence[float], min_size: int) -> bool:
    edges = [-np.inf, *bps, np.inf]
    return all(np.count_nonzero((x >= a) & (x < b)) >= min_size for a, b in zip(edges[:-1], edges[1:]))


def _best_breakpoints(x, y, m: int, min_size: int, n_candidates: int):
    """Best m-segment continuous fit: exhaustive search over candidate breakpoints at data x
    values (subsampled to ≤ n_candidates), then Nelder–Mead polish of the real-valued breakpoints."""
    from itertools import combinations

    from scipy.optimize import minimize

    n = len(x)
    idx = np.arange(min_size, n - min_size + 1)  # breakpoint at x[i]: segments x[:i], x[i:]
    if len(idx) > n_candidates:
        idx = np.unique(np.round(np.linspace(idx[0], idx[-1], n_candidates)).astype(int))
    combos = [c for c in combinations(idx.tolist(), m - 1)
              if all(b - a >= min_size for a, b in zip(c[:-1], c[1:]))]
    if not combos:
        return None, np.inf
    cand = x[np.asarray(combos)]                                   # [P, m-1]
    rss = _coarse_rss(x, y, cand)
    start = cand[int(np.argmin(rss))]
    best = (tuple(float(b) for b in start), float(rss.min()))

    def objective(b):
        b = np.sort(b)
        return _hinge_rss(x, y, b) if _segment_sizes_ok(x, b, min_size) else np.inf

    res = minimize(objective, start, method="Nelder-Mead",
                   options={"xatol": 1e-6 * (np.ptp(x) or 1.0), "fatol": 1e-14, "maxiter": 400 * m})
    if np.isfinite(res.fun) and res.fun < best[1]:
        best = (tuple(float(b) for b in np.sort(res.x)), float(res.fun))
    return best


def segment_count_bic(x: Sequence[float], y: Sequence[float], max_segments: int = 3,
                      min_size: int = 5, *, n_candidates: int = 120,
                      rss_floor: float = 0.0) -> SegmentFit:
    """Number of linear phases of y against x (e.g. log loss against log t), chosen by BIC.

    Model (choice recorded here): *continuous* piecewise-linear ("broken stick") fits with
    m = 1..max_segments segments, y ≈ a + b·x + Σ_j c_j·max(x − β_j, 0), least squares.
    Continuity is chosen because a loss curve has no jumps; a jump would add a free parameter
    per break.  Each fit with m segments has k = 2m free parameters (intercept, m slopes, m − 1
    breakpoints), and

        BIC(m) = n·log(RSS_m / n) + k·log n        (Gaussian residuals, common variance).

    The count is argmin_m BIC(m) (ties → fewer segments).  Breakpoints: exhaustive search over
    data x values (at most ``n_candidates`` of them, evenly subsampled by index), each segment
    holding ≥ ``min_size`` points, followed by a Nelder–Mead polish over real-valued β.

    ``rss_floor`` (default 0) is added to every RSS: a deterministic smooth curve (no noise)
    always gains from more segments, so callers fitting noiseless trajectories may set a floor
    such as n·σ² for a tolerated misfit σ; record it as an open choice.  x need not be evenly
    spaced; for log t of a run recorded every step, resample evenly in log t first, otherwise
    the dense late steps dominate the fit.

    Returns a :class:`SegmentFit` (count, breakpoints in x units, and the per-m BIC, RSS and
    breakpoints).  Signature stable: ``segment_count_bic(x, y, max_segments=3, min_size=5)``.
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError("x and y must be 1-d arrays of the same length")
    order = np.argsort(x, kind="stable")
    x, y = x[order], y[order]
    ok = np.isfinite(x) & np.isfinite(y)
    x, y = x[ok], y[ok]
    n = len(x)
    scale = float(np.var(y)) * n or 1.0
    tiny = 1e-300 + 1e-24 * scale
    bic, rss, fits = {}, {}, {}
    for m in range(1, max_segments + 1):
        if m == 1:
            r, b = _hinge_rss(x, y, ()), ()
        else:
            if n < m * min_size:
                break
            b, r = _best_breakpoints(x, y, m, min_size, n_candidates)
            if b is None:
                break
        rss[m], fits[m] = r, tuple(b)
        bic[m] = n * math.log((r + rss_floor) / n + tiny / n) + 2 * m * math.log(n)
    best = min(bic, key=lambda m: (bic[m], m))
    return SegmentFit(count=best, breakpoints=fits[best], bic=bic, rss=rss, fits=fits, n=n)
