"""Algorithm 1 for n = 3: the torch loss equals the SymPy model, the closed-form gradient equals
autograd, batching does not change a run, and the escape check can fail."""
import math

import numpy as np
import pytest
import sympy as sp
import torch

from derivations.icrecall.experiments import algorithm1 as alg
from derivations.icrecall.model.symbolic import n3
from theoryverify import scaling
from theoryverify import Status

RNG = np.random.default_rng(0)


def _lambdified_relation_logits():
    m = n3()
    return sp.lambdify(m.v, m.relation_logits, modules="torch")


def test_torch_logits_equal_sympy_lambdify():
    f = _lambdified_relation_logits()
    v = torch.as_tensor(RNG.dirichlet(np.ones(6), size=50))
    expected = torch.stack([torch.as_tensor(t, dtype=torch.float64).expand(50) for t in f(*v.T)], dim=1)
    got = alg.n3_logits()[0].torch()(v)
    torch.testing.assert_close(got, expected, rtol=1e-14, atol=1e-15)


def test_step2_logits_from_model_match_lambdify():
    q = sp.symbols("q1:8", nonnegative=True)
    f = sp.lambdify(q, alg.step2_answer_logits(), modules="torch")
    x = torch.as_tensor(RNG.dirichlet(np.ones(7), size=20))
    expected = torch.stack([torch.as_tensor(t, dtype=torch.float64).expand(20) for t in f(*x.T)], dim=1)
    torch.testing.assert_close(alg.n3_logits()[1].torch()(x), expected, rtol=1e-14, atol=1e-15)


def test_planted_wrong_coefficient_is_detected():
    rel = alg.n3_logits()[0]
    A = rel.A.copy()
    A[1, 0, 3] += 0.5  # planted error in l(r2)
    A[1, 3, 0] += 0.5
    bad = alg.QuadraticLogits(rel.c, rel.b, A).torch()
    v = torch.as_tensor(RNG.dirichlet(np.ones(6), size=10))
    assert not torch.allclose(bad(v), rel.torch()(v))


def test_degree_above_two_is_rejected():
    x = sp.symbols("x1:3")
    with pytest.raises(ValueError):
        alg.QuadraticLogits.from_sympy([x[0] ** 3], x)


def test_closed_form_gradient_equals_autograd():
    loss = alg.N3Loss()
    B = 16
    theta = torch.tensor(RNG.normal(0, 2, (B, 6)), requires_grad=True)
    omega = torch.tensor(RNG.normal(0, 2, (B, 7)), requires_grad=True)
    T = torch.as_tensor(np.exp(RNG.uniform(np.log(0.01), np.log(1.0), B)))
    value = loss.loss({"theta": theta, "omega": omega}, {"T": T}).sum()
    gt, go = torch.autograd.grad(value, [theta, omega])
    g = loss.grad({"theta": theta.detach(), "omega": omega.detach()}, {"T": T})
    torch.testing.assert_close(g["theta"], gt, rtol=1e-10, atol=1e-12)
    torch.testing.assert_close(g["omega"], go, rtol=1e-10, atol=1e-12)


def test_loss_at_zero_is_log6_plus_log3():
    loss = alg.N3Loss()
    p = {"theta": torch.zeros(1, 6, dtype=torch.float64), "omega": torch.zeros(1, 7, dtype=torch.float64)}
    T = torch.tensor([0.1], dtype=torch.float64)
    assert float(loss.L1(p["theta"], T)) == pytest.approx(math.log(6), rel=1e-14)  # all six logits equal (App. B)


def test_symmetric_gradient_keeps_the_invariant_subspace_exactly():
    # plain float64 GD at T = 0.12 leaves v1 = v3 by round-off after ~1700 steps (ICR-L5-converge)
    r = alg.stage1([0.12], eta=2 * 0.12**2, steps=2000, symmetric=True)
    v = torch.softmax(r.params["theta"], 1)[0]
    assert float(v[0]) == float(v[2]) and float(v[1]) == float(v[3])


def test_algorithm1_batched_equals_single_runs():
    T = np.array([0.05, 0.04])
    kw = dict(seed=7, t1=50, t2=80, metrics=("L1",))
    both = alg.algorithm1(T, [0, 1], eta1=2 * T**2, eta2=2 * T**2, radius=T**3, **kw)
    one = alg.algorithm1(T[1:], [1], eta1=2 * T[1:] ** 2, eta2=2 * T[1:] ** 2, radius=T[1:] ** 3, **kw)
    assert torch.equal(both["stage2"].params["theta"][3], one["stage2"].params["theta"][0])
    assert np.linalg.norm(both["xi"], axis=1).max() <= (T**3).max()
    assert both["stage2"].settings["dtype"] == "float64"


def test_face_start_stays_on_the_face():
    xi = alg.perturbations(1, [0], [1e-3])
    r = alg.stage2(np.array([alg.FACE_THETA]), np.zeros((1, 7)), xi, [0.03], eta=2 * 0.03**2, steps=200)
    v = torch.softmax(r.params["theta"], 1)[0]
    assert float(v[4]) == 0.0 and float(v[5]) == 0.0


def test_escape_mechanism_check_can_fail():
    """Radius sweep at T = 0.03: the derived slope passes, a planted wrong step size (2η) is refuted."""
    from derivations.icrecall.claims.b_dynamics import face_lambda_min

    T, radii = 0.03, np.array([1e-2, 1e-3, 1e-4, 1e-5])
    xi = alg.perturbations(3, [0] * 4, radii.tolist())
    theta = np.tile(alg.FACE_THETA, (4, 1))
    r = alg.stage2(theta, np.zeros((4, 7)), xi, [T] * 4, eta=2 * T**2, steps=5000,
                   events=alg.events_n3(loss_below=alg.LOG2), stop_when_hit=True)
    k = r.hits["L1<x"].numpy().astype(float)
    lam = abs(face_lambda_min(T))
    good = scaling.check_coefficient(np.log(1 / radii), k * math.log1p(2 * T**2 * lam), 1.0, 0.05, 0, index=1)
    bad = scaling.check_coefficient(np.log(1 / radii), k * math.log1p(4 * T**2 * lam), 1.0, 0.05, 0, index=1)
    assert good.status is Status.HOLDS, good.evidence
    assert bad.status is Status.REFUTED and bad.counterexample


def test_t2_face_runs_batched_over_T_equal_one_batch_per_T():
    """T2-main runs its temperatures as one batch: each T's runs must equal those of a batch of their own,
    bit for bit (same ξ, row-wise GD), so batching changes speed only."""
    from derivations.icrecall.claims.b_dynamics import runs_of, t2_face_runs

    Ts, seeds, steps = [0.08, 0.04], 2, 300
    both = t2_face_runs(Ts, seeds, steps, seed=5)
    for i, T in enumerate(Ts):
        one, cut = t2_face_runs(T, seeds, steps, seed=5), runs_of(both, i, seeds)
        assert one.record_steps == cut.record_steps
        for name in ("theta", "omega"):
            assert torch.equal(one.params[name], cut.params[name])
        for name in ("v", "L1"):
            assert torch.equal(one.records[name], cut.records[name])


def test_t2_face_groups_in_one_batch_equal_one_batch_per_group():
    """T2-main runs its (step constant, budget) groups in one step loop with per-run η2 and budgets: each group's
    runs and records must equal those of its own t2_face_runs batch, bit for bit (speed only)."""
    from derivations.icrecall.claims.b_dynamics import t2_face_groups, t2_face_runs

    groups, seeds = {(2.0, 360): [0.08, 0.05], (50.0, 500): [0.02]}, 2
    merged = t2_face_groups(groups, seeds, seed=5)
    for (c, budget), Ts in groups.items():
        one, cut = t2_face_runs(Ts, seeds, budget, seed=5, eta_c=c), merged[(c, budget)]
        assert one.record_steps == cut.record_steps and one.steps_run == cut.steps_run
        for name in ("theta", "omega"):
            assert torch.equal(one.params[name], cut.params[name])
        for name in ("v", "L1"):
            assert torch.equal(one.records[name], cut.records[name])
