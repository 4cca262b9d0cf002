"""theoryverify.flows.check_flow_converges: "this flow converges to X (at rate λ)".  True statements hold with
the final distance, the fitted rate and the time to within tolerance; planted errors are refuted: a flow that
settles at a different fixed point (the point is the counterexample) and a claimed rate off by a factor 2; a run
still moving at t_max is inconclusive, never a pass."""
import math

import numpy as np
import pytest

from theoryverify.flows import check_flow_converges, fit_rate
from theoryverify.standards import apply_convergence
from theoryverify.verdicts import Status

A = np.array([[2.0, 0.5], [0.5, 1.0]])
X_STAR = np.array([1.0, -2.0])
LAMBDA = float(np.linalg.eigvalsh(A).min())  # the slowest mode sets the asymptotic rate


def linear(t, y):
    return -A @ (y - X_STAR)


def double_well(t, y):
    """ẏ = −f'(y) for f(y) = (y² − 1)²: minima ±1; from y0 > 0 the flow goes to +1 at rate f''(1) = 8."""
    return -(4 * y**3 - 4 * y)


def test_linear_flow_converges_with_its_rate_and_time_to_tol():
    v = check_flow_converges(linear, [0.0, 0.0], X_STAR, t_max=40, tol=1e-6)
    assert v.status is Status.HOLDS
    d = v.details
    assert d["final_distance"] <= 1e-6 and 0 < d["time_to_tol"] < 40
    assert d["fitted_rate"]["rate"] == pytest.approx(LAMBDA, rel=1e-3)
    assert d["convergence"]["converged"] is True and apply_convergence(True, v).status is Status.HOLDS


def test_time_to_tol_is_located_by_an_event():
    v = check_flow_converges(lambda t, y: -y, [1.0], [0.0], t_max=20, tol=1e-3)
    assert v.status is Status.HOLDS
    assert v.details["time_to_tol"] == pytest.approx(math.log(1e3), rel=1e-6)
    assert v.details["fitted_rate"]["rate"] == pytest.approx(1.0, rel=1e-4)


def test_correct_claimed_rate_holds_and_rate_off_by_two_is_refuted():
    assert check_flow_converges(linear, [0.0, 0.0], X_STAR, t_max=40, tol=1e-6, rate=LAMBDA).status is Status.HOLDS
    for wrong in (2 * LAMBDA, LAMBDA / 2):
        v = check_flow_converges(linear, [0.0, 0.0], X_STAR, t_max=40, tol=1e-6, rate=wrong)
        assert v.status is Status.REFUTED
        ce = v.counterexample
        assert ce["claimed_rate"] == wrong and ce["fitted_rate"] == pytest.approx(LAMBDA, rel=1e-3)


def test_flow_converging_to_a_different_fixed_point_is_refuted():
    ok = check_flow_converges(double_well, [0.3], [1.0], t_max=20, tol=1e-6, rate=8.0)
    assert ok.status is Status.HOLDS
    v = check_flow_converges(double_well, [0.3], [-1.0], t_max=20, tol=1e-6)
    assert v.status is Status.REFUTED
    assert v.counterexample["settles_at"] == pytest.approx([1.0], abs=1e-8)
    assert v.counterexample["distance"] == pytest.approx(2.0, abs=1e-8)


def test_still_moving_at_t_max_is_inconclusive():
    short = check_flow_converges(double_well, [0.3], [1.0], t_max=1.0, tol=1e-6)
    assert short.status is Status.INCONCLUSIVE and "still moving" in short.evidence
    slow = check_flow_converges(lambda t, y: -y**3, [1.0], [0.0], t_max=100, tol=1e-3)  # algebraic, not exponential
    assert slow.status is Status.INCONCLUSIVE
    rotation = check_flow_converges(lambda t, y: np.array([-y[1], y[0]]), [1.0, 0.0], [0.0, 0.0], t_max=30, tol=1e-3)
    assert rotation.status is Status.INCONCLUSIVE


def test_rate_fit_ignores_the_solver_floor():
    t = np.linspace(0, 40, 401)
    d = np.maximum(np.exp(-0.5 * t), 1e-6)  # the distance stops falling at 1e-6 (t ≈ 27.6): an accuracy floor
    fit = fit_rate(t, d, floor=1e-5)
    assert fit is not None and fit["rate"] == pytest.approx(0.5, rel=1e-9) and fit["distance_to"] > 1e-5


@pytest.mark.parametrize("args, text", [
    (dict(rhs=lambda t, y: -y, y0=[1.0, 2.0], target=[0.0]), "coordinates"),
    (dict(rhs=lambda t, y: 1 / 0, y0=[1.0], target=[0.0]), "ZeroDivisionError"),
    (dict(rhs=lambda t, y: np.zeros(3), y0=[1.0], target=[0.0]), "returns 3 values"),
    (dict(rhs=lambda t, y: -y, y0=[np.nan], target=[0.0]), "finite"),
])
def test_bad_input_is_a_one_line_error(args, text):
    v = check_flow_converges(args["rhs"], args["y0"], args["target"], t_max=5, tol=1e-3)
    assert v.status is Status.ERROR and text in v.evidence and "\n" not in v.evidence
