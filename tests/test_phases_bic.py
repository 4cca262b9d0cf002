"""segment_count_bic: recovers planted continuous piecewise-linear signals (count and breakpoints)
and does not over-segment a noisy straight line (theoryverify/phases.py)."""
import numpy as np
import pytest

from theoryverify import phases


def _broken_stick(x, bps, slopes, y0=0.0):
    y = y0 + slopes[0] * (x - x[0])
    for b, s_prev, s in zip(bps, slopes[:-1], slopes[1:]):
        y = y + (s - s_prev) * np.maximum(x - b, 0.0)
    return y


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_two_segments_recovered(seed):
    rng = np.random.default_rng(seed)
    x = np.linspace(0.0, np.log(400.0), 200)
    y = _broken_stick(x, [3.0], [-0.1, -1.5]) + 0.05 * rng.standard_normal(len(x))
    fit = phases.segment_count_bic(x, y, max_segments=3)
    assert fit.count == 2, fit.bic
    assert abs(fit.breakpoints[0] - 3.0) < 0.15


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_three_segments_recovered(seed):
    # plateau, steep decay, slow tail: the shape of a three-phase log-loss curve
    rng = np.random.default_rng(seed)
    x = np.linspace(0.0, 6.0, 240)
    y = _broken_stick(x, [2.0, 4.2], [-0.05, -2.0, -0.4]) + 0.05 * rng.standard_normal(len(x))
    fit = phases.segment_count_bic(x, y, max_segments=3)
    assert fit.count == 3, fit.bic
    assert np.allclose(fit.breakpoints, [2.0, 4.2], atol=0.15), fit.breakpoints


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_straight_line_not_oversegmented(seed):
    rng = np.random.default_rng(seed)
    x = np.sort(rng.uniform(0.0, 5.0, 150))
    y = 1.0 - 0.7 * x + 0.1 * rng.standard_normal(len(x))
    fit = phases.segment_count_bic(x, y, max_segments=3)
    assert fit.count == 1, fit.bic
    assert fit.breakpoints == ()


def test_planted_count_wrong_is_detected():
    # a 3-segment signal must not be reported as 2 (plant: the checker can fail)
    x = np.linspace(0.0, 6.0, 240)
    y = _broken_stick(x, [2.0, 4.2], [-0.05, -2.0, -0.4])
    y = y + 0.02 * np.random.default_rng(9).standard_normal(len(x))
    assert phases.segment_count_bic(x, y, max_segments=2).count == 2
    assert phases.segment_count_bic(x, y, max_segments=3).count == 3


def test_rss_floor_suppresses_segments_on_smooth_curve():
    x = np.linspace(0.0, 5.0, 100)
    y = -0.5 * x + 0.01 * x**2  # smooth, no noise: pure BIC splits it
    assert phases.segment_count_bic(x, y).count > 1
    assert phases.segment_count_bic(x, y, rss_floor=100 * 0.1**2).count == 1


def test_unsorted_input_and_min_size():
    rng = np.random.default_rng(4)
    x = np.linspace(0.0, 4.0, 80)
    y = _broken_stick(x, [1.0], [0.0, -3.0]) + 0.02 * rng.standard_normal(80)
    perm = rng.permutation(80)
    fit = phases.segment_count_bic(x[perm], y[perm], max_segments=3, min_size=8)
    assert fit.count == 2 and abs(fit.breakpoints[0] - 1.0) < 0.1
    for m, bps in fit.fits.items():
        edges = [-np.inf, *bps, np.inf]
        assert all(np.count_nonzero((x >= a) & (x < b)) >= 8 for a, b in zip(edges[:-1], edges[1:]))
