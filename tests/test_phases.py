"""Phases: hitting times, plateaus and change points on planted signals with known breakpoints.

Change points need ruptures; where it is not installed (the GPU machine) those tests are skipped and only
the one-line error for the missing library is tested."""
import importlib.util
import math

import numpy as np
import pytest

from theoryverify import phases

needs_ruptures = pytest.mark.skipif(importlib.util.find_spec("ruptures") is None,
                                    reason="ruptures not installed (pip install ruptures)")


def test_hitting_times_batched_and_steps():
    x = np.array([[5.0, 1.0], [3.0, 0.5], [0.9, 2.0], [0.5, 0.1]])  # [K=4, B=2]
    assert phases.first_below(x, 1.0).tolist() == [2, 1]
    assert phases.first_below(x, 1.0, stay=True).tolist() == [2, 3]
    assert phases.first_above(x, 10.0).tolist() == [-1, -1]
    assert phases.first_below(x, 1.0, steps=[0, 10, 20, 30]).tolist() == [20, 10]


def test_first_near_point():
    pts = np.array([[[1.0, 1.0]], [[0.3, 0.1]], [[0.01, 0.0]]])  # [K, B=1, dim]
    assert phases.first_near(pts, [0.0, 0.0], 0.05).tolist() == [2]
    assert phases.first_near(pts, [0.0, 0.0], 0.35).tolist() == [1]


def test_hitting_time_of_exponential_decay_matches_closed_form():
    k = np.arange(1000)
    x = np.exp(-0.01 * k)
    assert phases.first_below(x, 0.1) == int(np.ceil(np.log(10) / 0.01 + 1e-12))


def test_plateau_detection_on_planted_plateau():
    x = np.concatenate([np.linspace(1, 0.5, 100), np.full(300, 0.5), np.linspace(0.5, 0.0, 100)])
    found = phases.plateaus(x, rel_tol=1e-3, min_length=50)
    assert len(found) == 1
    start, end = found[0]
    assert abs(start - 99) <= 2 and abs(end - 400) <= 2


@needs_ruptures
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pelt_recovers_planted_piecewise_constant(seed):
    rng = np.random.default_rng(seed)
    bps = [120, 250, 400]
    levels = [0.0, 3.0, 1.0, 4.0]
    y = np.concatenate([np.full(b - a, lv) for a, b, lv in zip([0] + bps, bps + [500], levels)])
    y = y + 0.3 * rng.standard_normal(len(y))
    found = phases.change_points(y, "constant")
    assert phases.agree(found, bps, tol=3), found
    assert phases.agree(phases.binary_segmentation(y, 3), bps, tol=3)


@needs_ruptures
@pytest.mark.parametrize("seed", [0, 1])
def test_pelt_recovers_planted_piecewise_linear(seed):
    # e.g. log-loss against step: plateau, linear decay, plateau
    rng = np.random.default_rng(seed)
    t = np.arange(600, dtype=float)
    y = np.where(t < 200, 0.0, np.where(t < 450, -(t - 200) * 0.02, -5.0)) + 0.05 * rng.standard_normal(600)
    found = phases.change_points(y, "linear")
    assert phases.agree(found, [200, 450], tol=6), found


@needs_ruptures
def test_no_change_point_in_pure_noise():
    y = np.random.default_rng(5).standard_normal(400)
    assert phases.change_points(y, "constant") == []


def test_planted_error_is_detected():
    """A detector reporting a wrong break must fail agree(): the check can fail."""
    assert not phases.agree([100], [120], tol=3)
    assert not phases.agree([100, 200], [100], tol=3)


# --- change points through ruptures: exactness, edge cases, errors ------------------------

def _rss(seg: np.ndarray, model: str) -> float:
    """Residual sum of squares of the segment's mean (constant) or least-squares line (linear)."""
    if model == "constant":
        return float(((seg - seg.mean()) ** 2).sum())
    if len(seg) < 3:  # a line through ≤ 2 points fits exactly
        return 0.0
    t = np.arange(len(seg), dtype=float)
    r = seg - np.polyval(np.polyfit(t, seg, 1), t)
    return float(r @ r)


def _objective(y, bps, penalty, model):
    edges = [0, *bps, len(y)]
    return sum(_rss(y[a:b], model) for a, b in zip(edges[:-1], edges[1:])) + penalty * len(bps)


def _brute_force(y, penalty, model, min_size):
    """Least penalised cost over every admissible breakpoint set (small n only)."""
    from itertools import combinations
    n, best = len(y), math.inf
    for k in range(n // min_size):
        for bps in combinations(range(min_size, n - min_size + 1), k):
            if all(b - a >= min_size for a, b in zip((0, *bps), (*bps, n))):
                best = min(best, _objective(y, bps, penalty, model))
    return best


@needs_ruptures
@pytest.mark.parametrize("model", ["constant", "linear"])
@pytest.mark.parametrize("seed", range(6))
def test_pelt_is_exact_against_brute_force(model, seed):
    """PELT must reach the least penalised cost over all segmentations (a coarse search — e.g.
    ruptures' default jump=5 — or a wrong cost misses it on some of these)."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(9, 14))
    y = np.repeat(rng.normal(0, 2, 4), 4)[:n] + np.arange(n) * rng.normal(0, 0.3) + 0.3 * rng.standard_normal(n)
    penalty, min_size = float(rng.choice([0.05, 0.5, 2.0])), int(rng.choice([2, 3]))
    found = phases.pelt(y, penalty, model, min_size)
    assert all(b - a >= min_size for a, b in zip([0, *found], [*found, n])), found
    assert _objective(y, found, penalty, model) == pytest.approx(_brute_force(y, penalty, model, min_size),
                                                                 rel=1e-9, abs=1e-12), found


@needs_ruptures
@pytest.mark.parametrize("model", ["constant", "linear"])
def test_binary_segmentation_first_split_is_the_best_single_split(model):
    y = np.random.default_rng(3).standard_normal(40).cumsum()
    best = min(range(2, 39), key=lambda m: _objective(y, [m], 0.0, model))
    assert phases.binary_segmentation(y, 1, model) == [best]


@needs_ruptures
def test_binary_segmentation_returns_fewer_breaks_when_no_more_fit():
    assert phases.binary_segmentation(np.arange(10.0) ** 2, 10) == [2, 4, 6, 8]
    assert phases.binary_segmentation([1.0, 2.0, 3.0], 2) == []
    assert phases.binary_segmentation(np.r_[np.zeros(10), np.ones(10)], 0) == []


@needs_ruptures
def test_short_series_have_no_change_points():
    assert phases.pelt([], 1.0) == [] and phases.pelt([1.0], 1.0) == []
    assert phases.pelt([1.0, 2.0, 3.0], 1.0, "constant", 5) == []
    assert phases.change_points(np.ones(20)) == []


@needs_ruptures
def test_large_offset_does_not_create_breaks():
    """Costs computed without cumulative-sum cancellation: one planted step on a 1e6 offset gives one
    break (the hand-written version reported [39, 50, 74])."""
    y = 1e6 + np.r_[np.zeros(50), np.ones(50)] + 0.01 * np.random.default_rng(3).standard_normal(100)
    assert phases.change_points(y) == [50]


def test_bad_input_is_a_one_line_error():
    with pytest.raises(ValueError, match="model must be 'constant' or 'linear'"):
        phases.pelt(np.zeros(10), 1.0, model="quadratic")
    with pytest.raises(ValueError, match="1-d series"):
        phases.binary_segmentation(np.zeros((10, 2)), 1)


def test_missing_ruptures_says_how_to_install(monkeypatch):
    import sys

    from theoryverify.errors import TheoryverifyError
    monkeypatch.setitem(sys.modules, "ruptures", None)  # `import ruptures` now raises ImportError
    with pytest.raises(TheoryverifyError, match=r"^change-point detection needs .*: pip install ruptures$"):
        phases.change_points(np.zeros(10))
    with pytest.raises(ImportError):
        phases.binary_segmentation(np.zeros(10), 1)
