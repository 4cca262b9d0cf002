"""Phases: hitting times, plateaus and change points on planted signals with known breakpoints."""
import numpy as np
import pytest

from theoryverify import phases


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


@pytest.mark.parametrize("seed", [0, 1])
def test_pelt_recovers_planted_piecewise_linear(seed):
    # e.g. log-loss against step: plateau, linear decay, plateau
    rng = np.random.default_rng(seed)
    t = np.arange(600, dtype=float)
    y = np.where(t < 200, 0.0, np.where(t < 450, -(t - 200) * 0.02, -5.0)) + 0.05 * rng.standard_normal(600)
    found = phases.change_points(y, "linear")
    assert phases.agree(found, [200, 450], tol=6), found


def test_no_change_point_in_pure_noise():
    y = np.random.default_rng(5).standard_normal(400)
    assert phases.change_points(y, "constant") == []


def test_planted_error_is_detected():
    """A detector reporting a wrong break must fail agree(): the check can fail."""
    assert not phases.agree([100], [120], tol=3)
    assert not phases.agree([100, 200], [100], tol=3)
