"""Phases of a trajectory: hitting times, plateaus and change points (paper-agnostic).

Series are arrays of shape [K] or [K, B] (K recorded steps, B runs); ``steps`` maps record
index → step number (default: the index).  A hitting time is the first recorded step at which
a condition holds (−1 if never); ``stay=True`` asks for the first step after which it holds at
every later record.

Change points come from the ``ruptures`` library (Truong, Oudre & Vayatis 2020): :func:`pelt` is
its exact penalised segmentation (``ruptures.Pelt``, the PELT pruning of Killick, Fearnhead & Eckley
2012, with ``jump=1`` so that every index is a candidate) and :func:`binary_segmentation` its greedy
``ruptures.Binseg`` with a fixed number of breaks; the cost is the residual sum of squares of a
constant mean (ruptures ``l2``) or of a least-squares line in the record index (ruptures ``linear``).
ruptures is imported on first use (a one-line error names ``pip install ruptures`` if it is missing).

Agreement with the hand-written PELT / binary segmentation these replace (same cost, penalty and
minimum segment length; compared on the planted signals of tests/test_phases.py, 260 random
piecewise-constant and piecewise-linear signals — length 30-400, 0-5 breaks, noise 0.01-1, offsets
0-100, min_size 2-7, penalties 0.01-30; about 1300 calls of pelt, change_points and
binary_segmentation —, smooth noise-free loss curves, and the Stage-2 loss trajectory of
icrecall.T2-main): the breakpoints are identical (stated tolerance: 0 samples, same count) except in
two situations, where either neither answer is better or the new one is:

* exact ties in the binary-segmentation gain (e.g. a constant series): ruptures takes the *last*
  best split, the old code the first — the split is arbitrary there either way;
* series with a large offset (1e6 + steps of 1): the old cumulative-sum costs lost digits to
  cancellation and reported spurious breaks ([39, 50, 74] for one planted break at 50); ruptures
  computes each segment's variance directly and finds [50].

Two input rules are stricter: ``model`` must be ``"constant"`` or ``"linear"`` and the series 1-d
(a ValueError otherwise; the old code read any other model as constant), and a ``linear`` segment
holds at least 2 records whatever ``min_size`` says (ruptures' ``linear`` cost needs two points).
ruptures' pure-Python search is about 3x slower than the old one (under 1 s for 600 records).

:func:`segment_count_bic` stays hand-written: it fits *continuous* piecewise-linear curves with
real-valued breakpoints and picks the count by BIC; ruptures' only continuous cost (``clinear``)
joins data points by chords instead of fitting least-squares lines, so it would change the model.
"""
from __future__ import annotations

import math
from typing import Callable, Sequence

import numpy as np

from .errors import TheoryverifyError


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

class MissingLibrary(TheoryverifyError, ImportError):
    """An optional library a function needs is not installed (the message says what to install)."""


_COSTS = {"constant": ("l2", 1), "linear": ("linear", 2)}  # model → (ruptures cost, its own min segment)


def _ruptures():
    """The ``ruptures`` module, imported on first use (the GPU machine has no network to install it)."""
    try:
        import ruptures
    except ImportError:
        raise MissingLibrary("change-point detection needs the ruptures library: pip install ruptures") from None
    return ruptures


def _signal(y: Sequence[float], model: str) -> tuple[np.ndarray, str, int]:
    """The signal in ruptures' layout for ``model``, the cost name and the cost's minimum segment length.

    ``constant``: y itself, cost ``l2`` (residual sum of squares about the segment mean).
    ``linear``: columns [y, 1, t] with t the record index, cost ``linear`` (residual sum of squares of
    the least-squares line of y on t in the segment: ruptures regresses column 0 on the other columns)."""
    if model not in _COSTS:
        raise ValueError(f"model must be 'constant' or 'linear', not {model!r}")
    y = np.asarray(y, dtype=float)
    if y.ndim != 1:
        raise ValueError(f"change points need a 1-d series, got shape {y.shape}")
    cost, own_min = _COSTS[model]
    if model == "linear":
        y = np.column_stack([y, np.ones_like(y), np.arange(len(y), dtype=float)])
    return y, cost, own_min


def pelt(y: Sequence[float], penalty: float, model: str = "constant", min_size: int = 2) -> list[int]:
    """Exact penalised segmentation (PELT, ``ruptures.Pelt`` with ``jump=1``); returns the breakpoints
    (segment starts, excluding 0).

    Minimises Σ_segments RSS + penalty·(number of breaks), each segment holding ≥ ``min_size``
    records (≥ 2 for ``linear``).  A good default penalty for noise of variance σ² is the BIC-like
    ``p·σ²·log n`` with p = 2 (constant) or 3 (linear)."""
    signal, cost, own_min = _signal(y, model)
    if len(signal) < max(min_size, own_min):
        return []
    algo = _ruptures().Pelt(model=cost, min_size=min_size, jump=1).fit(signal)
    return [int(b) for b in algo.predict(pen=penalty)[:-1]]


def binary_segmentation(y: Sequence[float], n_breaks: int, model: str = "constant",
                        min_size: int = 2) -> list[int]:
    """Greedy least-squares binary segmentation with a fixed number of breaks (``ruptures.Binseg``
    with ``jump=1``): each step splits the segment whose best split lowers the RSS most.  Returns
    fewer breaks when no segment can be split into two of ≥ ``min_size`` records."""
    signal, cost, own_min = _signal(y, model)
    size = max(min_size, own_min)
    n_breaks = min(n_breaks, max((len(signal) - size) // size, 0))  # ruptures refuses more than fit
    if n_breaks <= 0:
        return []
    algo = _ruptures().Binseg(model=cost, min_size=min_size, jump=1).fit(signal)
    return [int(b) for b in algo.predict(n_bkps=n_breaks)[:-1]]


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
