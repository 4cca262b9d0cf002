"""Proposition 1 (claims_prop1.py): every check can fail — planted errors are refuted with a
counterexample by the same check functions the registered claims use — and the model-side helpers
(prop1.py) agree with the token-level torch model."""
import numpy as np
import pytest

from derivations.iclnonlinear.claims import s4_prop1 as cp
from derivations.iclnonlinear.experiments import dynamics, prop1
from derivations.iclnonlinear.model import counts
from derivations.iclnonlinear.model.torch_model import population_grad, population_loss
from theoryverify.claims import RunContext
from theoryverify.verdicts import Status
from .asserts import held, refuted

CTX = RunContext(seed=20261121)


# ---- P1-pred: derived inequality, planted constant and direction --------------------------------

def test_pred_inequality_holds_with_the_derived_constant():
    held(cp.check_pred(CTX, n=15))


def test_planted_too_small_constant_is_refuted():
    v = refuted(cp.check_pred(CTX, const_scale=0.9, n=15))
    assert "counts" in v.counterexample and "tasks" in v.counterexample


def test_planted_wrong_direction_is_refuted():
    refuted(cp.check_pred(CTX, direction=">=", n=15))


def test_symbolic_pred_identities_are_proved():
    assert cp.symbolic_pred(3).status is Status.PROVED


def test_pred_constant_is_tight_for_K2():
    assert cp.tightness() == pytest.approx(1.0, rel=1e-12)


# ---- printed App. F step (Θ(L) vs Θ(LΔ)) ----------------------------------------------------------

def test_printed_Lbound_is_refuted_and_the_delta_corrected_form_holds():
    refuted(cp.prop1_pred_printed(CTX))
    held(cp.prop1_pred_printed(CTX, with_delta=True))


# ---- P1-attn -------------------------------------------------------------------------------------

def test_derived_attn_bound_holds_and_a_doubled_constant_is_refuted():
    held(cp.derived_attn_bound(CTX, n=15))
    refuted(cp.derived_attn_bound(CTX, const_scale=2.0, n=15))


def test_lambda_perp_is_zero_for_a_point_mass_with_K3_and_positive_for_iid():
    f = np.array([0.0, 0.0, 1.0])
    assert prop1.lambda_perp(np.outer(f, f)) == pytest.approx(0.0, abs=1e-15)
    assert prop1.lambda_perp(np.eye(3)) == pytest.approx(1.0)


def test_inf_prompt_ratio_is_positive_when_f_k_is_extreme():
    assert cp.inf_prompt_ratio(np.array([0.0, 1.0, 2.0]), 0) == pytest.approx(0.25)
    assert cp.inf_prompt_ratio(np.array([1.0, 0.0, 2.0]), 0) == 0.0


def test_duplicate_family_is_in_F_and_symmetric_under_gd():
    tr = prop1.duplicate_trajectory(6, 30, 10.0, 10)
    assert all(tr["in_F"].values())
    assert max(r["q11_minus_q12"] for r in tr["rows"]) <= 1e-12
    assert max(1 - r["mean_gap"] for r in tr["rows"]) <= 0.5 + 1e-12


def test_q_space_gd_equals_gd_on_Q_with_autograd_on_the_duplicate_family():
    """GD-reachability: dynamics.py's q-update reproduces GD on Q (torch autograd of the token-level
    Eq. 7, all K^N sequences) from Q = 0, for both feature kinds of the family."""
    N, eta, steps = 3, 2.0, 4
    for kind in ("orthonormal", "scaled_orthogonal"):
        V = prop1.duplicate_features(kind, 2.0)
        f = prop1.duplicate_task(1.0, np.sqrt(2.0) if kind == "orthonormal" else 2.0)
        p = np.full(3, 1 / 3)
        Q = np.zeros((3, 3))
        for _ in range(steps):
            Q = Q - eta * population_grad(Q, V, p, f[None, :], N)
        tr = dynamics.simulate([prop1.exact_setting(V, p, f, N, eta)], steps, device="cpu")
        np.testing.assert_allclose(tr.q[0], V.T @ Q.T @ V, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(tr.metrics["loss"][-1, 0], population_loss(Q, V, p, f[None, :], N), rtol=1e-10)


def test_query_stats_loss_matches_counts():
    rng = np.random.default_rng(0)
    q, p, f = rng.standard_normal((3, 3)), np.full(3, 1 / 3), rng.standard_normal(3)
    tot = sum(p[k] * prop1.query_stats(q, p, f[None, :], 5, k)["loss_k"] for k in range(3))
    np.testing.assert_allclose(tot, counts.loss(q, p, f, 5), rtol=1e-12)


def test_law_error_matches_counts_for_a_point_mass():
    rng = np.random.default_rng(1)
    q, p, f = rng.standard_normal((3, 3)), rng.dirichlet(np.ones(3)), rng.standard_normal(3)
    np.testing.assert_allclose(prop1.law_error(q, p, np.outer(f, f), 4), counts.loss(q, p, f, 4), rtol=1e-12)


# ---- P1-unseen -------------------------------------------------------------------------------------

def test_unseen_verdict_refutes_when_a_heldout_prompt_breaks_the_pred_inequality():
    planted = {"rel_err": 0.1, "rel_err_in_F": 0.1, "mean_gap2": 0.1, "sup_pred_ratio": 1.5,
               "min_pred_slack": -0.1, "frac_in_F": 1.0}
    info = {"train_law": "planted", "train_rel_loss": 0.1, "evals": {"x": planted}}
    dup = cp.duplicate_unseen(CTX)
    v = refuted(cp.unseen_verdict(CTX, info, dup))
    assert "P1-pred inequality violated" in v.evidence


def test_unseen_verdict_holds_when_heldout_errors_track_training():
    info = cp.transfer(CTX)
    tr, rel, skipped = cp.duplicate_unseen(CTX)
    rel = {k: [1e-3] * len(v) for k, v in rel.items()}   # planted: held-out errors as small as training
    held(cp.unseen_verdict(CTX, info, (tr, rel, skipped)))


def test_gd_path_theta_lower_verdict_can_fail_and_hold():
    """lemma1-theta-lower / eq12-theta-lower decide on GD iterates (referee P1): a ratio falling like 1/t on the path
    (what the tie law gives) is refuted; a flat one holds; a path whose attention left the tie (E[Attn_1] > ½) cannot
    refute."""
    from derivations.iclnonlinear.experiments.verdicts import gd_path_verdict
    from theoryverify import Status
    t = list(range(25, 425, 25))
    base = {"t": t, "in_F": {0.9: True}, "N": 30, "eta": 20.0, "max_t |q11 - q12|": 0.0,
            "max_t E[Attn_1|x_q=v_1]": 0.5}
    assert gd_path_verdict({**base, "r": [1.0 / s for s in t]}, "r", "ratio", 0).status is Status.REFUTED
    assert gd_path_verdict({**base, "r": [0.3] * len(t)}, "r", "ratio", 0).status is Status.HOLDS
    left = {**base, "r": [1.0 / s for s in t], "max_t E[Attn_1|x_q=v_1]": 0.9}
    assert gd_path_verdict(left, "r", "ratio", 0).status is Status.INCONCLUSIVE
