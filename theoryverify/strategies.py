"""Hypothesis strategies for the objects theory papers quantify over.

Constrained objects are built by ``map`` (never ``filter``), so shrinking stays effective and no
draw is wasted: points on the probability simplex (including near and on its boundary),
temperatures over decades, positive reals, random orthonormal embeddings, bijections and
relation sets satisfying a stated assumption.
"""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np
from hypothesis import strategies as st

# A weight on the log scale: mostly O(1), sometimes tiny (near the simplex boundary), sometimes 0.
_log_weight = st.one_of(
    st.floats(-3.0, 3.0, allow_nan=False),
    st.floats(-40.0, -3.0, allow_nan=False),
    st.just(-np.inf),
)


def _normalise(logw: Sequence[float]) -> tuple[float, ...]:
    w = np.exp(np.asarray(logw, dtype=np.float64) - np.max(logw)) if np.isfinite(np.max(logw)) else None
    if w is None:  # every weight was exactly zero: put the mass on the first coordinate
        w = np.zeros(len(logw))
        w[0] = 1.0
    return tuple((w / w.sum()).tolist())


def simplex(k: int, boundary: bool = True) -> st.SearchStrategy[tuple[float, ...]]:
    """Points of the probability simplex in R^k (float64); with ``boundary`` some coordinates are
    tiny or exactly 0."""
    weight = _log_weight if boundary else st.floats(-3.0, 3.0, allow_nan=False)
    return st.lists(weight, min_size=k, max_size=k).map(_normalise)


def log_uniform(lo: float, hi: float) -> st.SearchStrategy[float]:
    """Positive reals spread evenly over the decades of [lo, hi] (e.g. temperatures)."""
    if not 0 < lo < hi:
        raise ValueError(f"log_uniform needs 0 < lo < hi, got {lo}, {hi}")
    a, b = np.log10(lo), np.log10(hi)
    return st.floats(a, b, allow_nan=False).map(lambda e: float(min(max(10.0**e, lo), hi)))


def temperatures(lo: float = 1e-3, hi: float = 10.0) -> st.SearchStrategy[float]:
    return log_uniform(lo, hi)


def positive_reals(lo: float = 1e-6, hi: float = 1e6) -> st.SearchStrategy[float]:
    return log_uniform(lo, hi)


def reals(lo: float, hi: float) -> st.SearchStrategy[float]:
    return st.floats(lo, hi, allow_nan=False, allow_infinity=False)


def vectors(k: int, lo: float = -5.0, hi: float = 5.0) -> st.SearchStrategy[tuple[float, ...]]:
    return st.lists(reals(lo, hi), min_size=k, max_size=k).map(tuple)


def orthonormal(d: int, k: int) -> st.SearchStrategy[np.ndarray]:
    """A d×k matrix with orthonormal columns (Haar-distributed, from a drawn seed)."""
    if k > d:
        raise ValueError(f"cannot have {k} orthonormal columns in R^{d}")

    def build(seed: int) -> np.ndarray:
        g = np.random.default_rng(seed).standard_normal((d, k))
        q, r = np.linalg.qr(g)
        return q * np.sign(np.diag(r))

    return st.integers(0, 2**32 - 1).map(build)


def bijections(n: int) -> st.SearchStrategy[tuple[int, ...]]:
    """A bijection of range(n), as the tuple of images."""
    return st.permutations(list(range(n))).map(tuple)


def relation_sets(n: int, max_size: int, keep: Callable[[list[tuple[int, ...]], tuple[int, ...]], bool]
                  | None = None) -> st.SearchStrategy[tuple[tuple[int, ...], ...]]:
    """Sets of distinct bijections of range(n), grown greedily: a drawn candidate is kept only if
    ``keep(current, candidate)`` (e.g. "Assumption 1 still holds").  Built by construction, not
    by rejection, so every draw satisfies the stated assumption."""

    def grow(cands: list[tuple[int, ...]]) -> tuple[tuple[int, ...], ...]:
        out: list[tuple[int, ...]] = []
        for c in cands:
            if c not in out and (keep is None or keep(out, c)):
                out.append(c)
        return tuple(out)

    return st.lists(bijections(n), min_size=1, max_size=max(1, 4 * max_size)).map(
        lambda cs: grow(cs)[:max_size])


def simple_reals(lo: float, hi: float) -> st.SearchStrategy[float]:
    """Reals in [lo, hi] that shrink towards simple values: the integers of the range are one branch (shrinking
    towards 0, or the end nearest 0), any float the other; Hypothesis shrinks a failing draw onto the first
    branch where it can, so a counterexample reads as small integers whenever small integers fail."""
    a, b = int(np.ceil(lo)), int(np.floor(hi))
    if a > b:
        return reals(lo, hi)
    return st.one_of(st.integers(a, b).map(float), reals(lo, hi))


def arrays(shape: tuple[int, ...], lo: float = -3.0, hi: float = 3.0) -> st.SearchStrategy[np.ndarray]:
    """float64 arrays of ``shape`` with entries in [lo, hi] (:func:`simple_reals`): a failing array shrinks
    towards zeros and small integers entry by entry."""
    from hypothesis.extra import numpy as hnp

    return hnp.arrays(np.float64, tuple(shape), elements=simple_reals(lo, hi))
