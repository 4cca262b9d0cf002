"""Planted-error twins for the experiment claims (IH-F2-repro, IH-R51-23gram) in claims_experiments."""
from __future__ import annotations

import math

import numpy as np
import pytest
import sympy as sp

from derivations.inductionheads.claims import s5_experiments as E
from derivations.inductionheads.experiments import figure2 as F
from theoryverify.verdicts import Status


@pytest.fixture(scope="module")
def ode():
    tr = F.ode_trajectory(8, 1e-2, 675.0, n_points=100)
    return tr, E.analyse(tr, bic_points=0)


def test_ode_trajectory_four_phases_and_order(ode):
    tr, m = ode
    assert E.four_phase_verdict("ode", m).status is Status.HOLDS
    assert E.order_verdict("ode", m).status is Status.HOLDS
    assert 0.5 < m["L_IH drop in Phase I (fraction)"] < 1.0
    d = E.trajectory_details(tr, m)
    assert set(d["series"]) == {"log10 L_G4", "log10 L_IH"} and len(d["boundaries"]) == 3


def test_planted_reversed_order_expectation_is_refuted(ode):
    """Planted: 'IH learned before the 4-gram' must be refuted with the marker times."""
    _, m = ode
    v = E.order_verdict("ode", m, first="IH", second="G4")
    assert v.status is Status.REFUTED and v.counterexample["T_IH"] > v.counterexample["T_G4"]


def test_planted_swapped_heads_trajectory_is_inconsistent(ode):
    """Planted: a trajectory whose IH loss emerges before the 4-gram is learned (L_G4 delayed past the
    emergence) must be rejected by the four-phase reading."""
    tr, _ = ode
    late = dict(tr)
    t = tr["t"]
    late["L_G4"] = np.where(t < 400.0, tr["L_G4"][0], tr["L_G4"][0] * 0.001)
    v = E.four_phase_verdict("planted", E.analyse(late, bic_points=0))
    assert v.status is Status.REFUTED and v.counterexample["model"] == "planted"


def test_planted_no_small_init_has_no_plateau():
    """Planted: head 2 started at its optimum k = w* (no small initialisation): no plateau → not the
    four-phase picture: refuted (no plateau, no sudden emergence)."""
    cfg = dict(F.QUICK, steps=200)
    tr = F.gd_trajectory(cfg, 0, "II", init_overrides={"wK": math.sqrt(F.W), "wQ": math.sqrt(F.W)})
    v = E.four_phase_verdict("planted", E.analyse(tr, bic_points=0))
    assert v.status is Status.REFUTED and "Phase II plateau" in v.counterexample["failed"]


def test_gd_step_four_diverges_on_head_one():
    """The spec's GD step 4 is unstable for head 1 (d2L/dv1^2 -> 1): L_G4 is not learned."""
    cfg = dict(L=20, n=500, sigma=1e-2, lr=4.0, steps=250, record_every=10)
    tr = F.gd_trajectory(cfg, 0, "II")
    assert np.median(tr["L_G4"][len(tr["L_G4"]) // 2:]) > 0.5 * tr["L_G4"][0]
    ok = F.gd_trajectory(dict(cfg, lr=1.0, steps=400), 0, "II")
    assert ok["L_G4"][-1] < 0.05 * ok["L_G4"][0]


def test_residual_route_closed_form_and_planted_constant():
    r_sol, T_eps = E.residual_route_time_sym()
    eps = sp.Symbol("epsilon", positive=True)
    assert E.residual_time_verdict(r_sol, T_eps, sp.log(1 / eps) / 2).status is Status.PROVED
    planted = E.residual_time_verdict(r_sol, T_eps, sp.log(1 / eps))  # wrong constant
    assert planted.status is Status.REFUTED and "expected" in planted.counterexample


def test_residual_route_gd_matches_closed_form():
    for gram in (2, 3):
        t = E.residual_route_gd(20, 1e-2, 0, gram)
        assert abs(t - 0.5 * math.log(10)) / (0.5 * math.log(10)) < 0.1


def test_ordered_and_planted_reversed_order():
    times = {"2-gram": 1.15, "IH": 300.0}
    assert E.ordered(times, ("2-gram", "IH"), {"L": 10}).status is Status.HOLDS
    v = E.ordered(times, ("IH", "2-gram"), {"L": 10})
    assert v.status is Status.REFUTED and v.counterexample["L"] == 10


def test_six_parameter_model_cannot_fit_two_and_three_gram_without_residual():
    out = E.six_param_without_residual(0, L=10, steps=120)
    assert out["2-gram x_L"] > 0.9 and out["3-gram x_{L-1}"] > 0.9 and out["4-gram x_{L-2}"] < 0.1
