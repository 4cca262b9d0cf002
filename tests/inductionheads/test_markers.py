"""flow.py and markers.py: the integrator's scalar gradients equal head1/head2's vectorised ones, conservation along the flow, the
§4.3 markers on signals with known answers, and planted errors each check rejects."""
import math

import numpy as np
import pytest

from derivations.inductionheads.experiments import flow
from derivations.inductionheads.experiments import markers as M
from derivations.inductionheads.model import head1, head2
from theoryverify.invariants import check_conserved
from theoryverify.verdicts import Status


@pytest.mark.parametrize("L", [5, 30, 100])
def test_scalar_gradients_equal_vectorised(L):
    rng = np.random.default_rng(L)
    for _ in range(50):
        p, v1, a, k, v2, w = rng.uniform(0, 6), rng.uniform(0, 1.5), rng.uniform(.05, .95), rng.uniform(0, .45), \
            rng.uniform(0, 1.2), rng.uniform(.01, .45)
        np.testing.assert_allclose(head1.grad_g4_scalar(p, v1, a, L), [float(x) for x in head1.grad_g4(p, v1, a, L)],
                                   rtol=1e-10, atol=1e-14)
        np.testing.assert_allclose(head2.grad_ih_scalar(k, v2, a, w, L), [float(x) for x in head2.grad_ih(k, v2, a, w, L)],
                                   rtol=1e-11, atol=1e-16)


def test_planted_wrong_local_gradient_is_detected():
    """The agreement test above can fail: a gradient with a dropped cross term differs from head2's."""
    k, v2, a, w, L = 0.2, 0.7, 0.4, 0.3, 50
    N = L - 2
    planted = (v2 * v2 * flow._dG(2 * k)) / N  # the −β v2 G'(k+w) term dropped
    assert abs(planted - float(head2.grad_ih(k, v2, a, w, L)[0])) > 1e-3 * abs(planted)


def test_stage2_balance_conserved_and_heads_decoupled():
    tr = flow.stage2(0.5, 0.3, 40, 1e-2, 3e3, n_points=300)
    q = tr["wK"] ** 2 - tr["wQ"] ** 2
    assert check_conserved(tr.t, q, rtol=1e-10, name="wK²−wQ²").status is Status.HOLDS
    planted = check_conserved(tr.t, tr["wK"] ** 2 + tr["wQ"] ** 2, rtol=1e-10, name="wK²+wQ²")
    assert planted.status is Status.REFUTED
    ih = flow.stage2(0.5, 0.3, 40, 1e-2, 3e3, n_points=300, heads="IH")
    g4 = flow.stage2(0.5, 0.3, 40, 1e-2, 3e3, n_points=300, heads="G4")
    np.testing.assert_allclose(tr.L_IH, ih.L_IH, rtol=1e-6, atol=1e-10 * tr.L_IH[0])
    np.testing.assert_allclose(tr.L_G4, g4.L_G4, rtol=1e-6, atol=1e-10 * tr.L_G4[0])
    assert tr.L_IH[-1] < 1e-3 * tr.L_IH[0] and tr.L_G4[-1] < 1e-2 * tr.L_G4[0]


def test_velocity_matches_finite_differences():
    tr = flow.stage2(0.5, 0.3, 30, 1e-2, 2e3, n_points=4000, heads="both")
    for name in ("p", "v1", "v2"):
        fd = M.derivative(tr.t, tr[name])
        v = tr.velocity(name)
        i = slice(200, -200)
        assert np.max(np.abs(fd[i] - v[i])) < 1e-3 * np.max(np.abs(v))


def test_hitting_times_on_known_signals():
    t = np.linspace(0, 10, 2001)
    y = np.exp(-t)
    assert M.t_g4(t, y, 0.1) == pytest.approx(math.log(10), rel=1e-6)
    assert M.first_above(t, t**2, 4.0) == pytest.approx(2.0, rel=1e-4)
    assert M.t_k(t, np.tanh(t), 0.25, k_final=1.0) == pytest.approx(math.atanh(0.5), rel=1e-3)
    v2 = np.sin(t / 2)  # turns at t = π
    assert M.t_turn(t, v2) == pytest.approx(math.pi, rel=1e-4)
    assert M.t_turn(t, v2, dv2=0.5 * np.cos(t / 2)) == pytest.approx(math.pi, rel=1e-6)
    t8 = np.linspace(0, 8, 1601)  # sin(t/2) turns at π only; sin t at π/2, 3π/2, 5π/2
    assert M.sign_changes(t8, np.sin(t8 / 2)) == 1 and M.sign_changes(t8, np.sin(t8)) == 3
    # planted: a curve without a turning point has none
    assert M.t_turn(t, t) is None


def test_t_sat_and_plateau_on_synthetic_ih_curve():
    t = np.linspace(0, 100, 5001)
    v2 = 1 - np.exp(-t)  # saturates: |dv2/dt| = e^{-t} < 1% of its max (1) at t = log 100
    assert M.t_sat(t, v2) == pytest.approx(math.log(100), abs=0.05)
    lih = 0.2 + 0.8 * np.exp(-t) - 0.2 / (1 + np.exp(-(t - 60) / 2))  # drop to 0.2, plateau, emergence at 60
    ts = M.t_sat(t, v2)
    P = M.plateau_level(t, lih, ts)
    assert P == pytest.approx(0.2 + 0.8 / 100, rel=2e-2)
    assert M.t_ih(t, lih, 0.5, P, ts) == pytest.approx(60, abs=1.0)
    assert M.width(t, lih, P, ts) > 5
    level, tflat = M.plateau_level_flat(t, lih, after=10)
    assert level == pytest.approx(0.2, rel=0.02) and 10 < tflat < 55


def test_phase_count_finds_planted_segments():
    t = np.logspace(0, 4, 800)
    x = np.log(t)
    y = np.piecewise(x, [x < 2, (x >= 2) & (x < 5), x >= 5],
                     [lambda u: -0.1 * u, lambda u: -0.2 - 1.0 * (u - 2), lambda u: -3.2 - 0.05 * (u - 5)])
    fit, times = M.phase_count(t, np.exp(y), max_segments=5)
    assert fit.count == 3
    assert times[0] == pytest.approx(math.exp(2), rel=0.05) and times[1] == pytest.approx(math.exp(5), rel=0.05)
    # a straight line is one phase, not three
    fit1, _ = M.phase_count(t, np.exp(-0.5 * x), max_segments=4)
    assert fit1.count == 1
