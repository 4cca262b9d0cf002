"""Planted-error tests: for each check kind the example uses, the same check with a planted wrong coefficient
or sign is refuted (so none of the paper's passes could have come from a check that cannot fail)."""
from __future__ import annotations

import numpy as np
import sympy as sp

import theoryverify as tv
from theoryverify.shared_sweeps import forget
from deeplinear.claims import s21_timescales
from deeplinear.claims.s2_dynamics import _weights_and_data, balance, mean_rule
from deeplinear.claims.s21_exact import DOMAIN
from deeplinear.claims.s21_timescales import in_order
from deeplinear.experiments.flow import learning_time, run
from deeplinear.experiments.teacher import examples, random_init, teacher
from deeplinear.model.symbolic import mode_reduction, numeric_gradients
from deeplinear.model.torch_net import autograd_gradients, example_loss
from deeplinear.printed import MODE_ODE_RHS, TRAJECTORY, W21, W32, Sigma11, Sigma31, s, t, tau, u, u0

SEED = 1234


def test_agreement_refutes_a_gradient_with_a_wrong_sign():
    sizes = (3, 2, 3, 4)
    grads = numeric_gradients(*sizes)

    def planted(x):  # ∂L/∂W32 with its sign flipped
        g1, g2 = grads(*x)
        return {"dL/dW21": g1, "dL/dW32": -g2}

    def reference(x):
        g1, g2 = autograd_gradients(*x)
        return {"dL/dW21": g1, "dL/dW32": g2}

    v = tv.check_agreement(planted, reference, _weights_and_data(sizes), SEED, n=30)
    assert v.status is tv.Status.REFUTED, v.evidence


def test_mc_gradient_refutes_a_mean_rule_without_the_input_correlation():
    task = teacher([3.0, 1.0, 0.3], SEED)
    at = [dict(zip(("W21", "W32"), random_init(3, 2, 3, 0.5, SEED + k))) for k in range(2)]
    planted = (W32.T * (Sigma31 - W32 * W21), (Sigma31 - W32 * W21) * W21.T)  # Σ11 dropped
    v = tv.check_mc_gradient(example_loss, mean_rule(planted, task), lambda rng, n: examples(task, rng, n), at, SEED,
                             n=20_000, resolution=0.2)
    assert v.status is tv.Status.REFUTED, v.evidence


def test_identity_refutes_a_mode_ode_without_its_factor_2():
    m = mode_reduction()
    planted = sp.diag(*[(MODE_ODE_RHS / 2).xreplace({u: a ** 2, s: s_a}) for a, s_a in zip(m.a, m.s)])
    domain = tv.Domain([*(tv.Interval(a, -3, 3) for a in m.a), *(tv.LogUniform(x, 0.1, 10) for x in m.s),
                        *(tv.Interval(c, -3, 3) for c in m.angles)])
    v = tv.check_identity(m.tau_dM, planted, domain, SEED)
    assert v.status is tv.Status.REFUTED, v.evidence


def test_identity_refutes_a_trajectory_with_a_sign_slip():
    planted = s * sp.exp(2 * s * t / tau) / (sp.exp(2 * s * t / tau) + 1 - s / u0)
    lhs = [tau * sp.diff(planted, t), planted.subs(t, 0)]
    rhs = [MODE_ODE_RHS.subs(u, planted), u0]
    assert tv.check_identity(lhs, rhs, DOMAIN, SEED).status is tv.Status.REFUTED
    # and the paper's own trajectory passes the same check
    lhs = [tau * sp.diff(TRAJECTORY, t), TRAJECTORY.subs(t, 0)]
    assert tv.check_identity(lhs, [MODE_ODE_RHS.subs(u, TRAJECTORY), u0], DOMAIN, SEED).status is tv.Status.PROVED


def test_rate_refutes_a_wrong_exponent_in_s():
    s_grid = np.geomspace(0.3, 30.0, 5)
    times = np.array([learning_time(v, 1e-6) for v in s_grid]) / np.log(s_grid / 1e-6)
    planted = tv.check_rate(s_grid, times, -2.0, 0.05, SEED, param="s")  # "t ∝ 1/s²"
    assert planted.status is tv.Status.REFUTED, planted.evidence
    assert tv.check_rate(s_grid, times, -1.0, 0.05, SEED, param="s").status is tv.Status.HOLDS


def test_coefficient_refutes_a_wrong_constant():
    u0_grid = np.geomspace(1e-8, 1e-3, 6)
    measured = np.array([learning_time(1.0, v) for v in u0_grid])
    paper = np.log(1.0 / u0_grid)  # (τ/s) ln(s/u0) at s = τ = 1
    assert tv.check_coefficient(u0_grid, measured / paper, 1.0, 0.05, SEED).status is tv.Status.HOLDS
    planted = tv.check_coefficient(u0_grid, measured / (paper / 2), 1.0, 0.05, SEED)  # the factor 2 dropped
    assert planted.status is tv.Status.REFUTED, planted.evidence


def test_conserved_refutes_a_quantity_with_a_wrong_sign():
    task = teacher([3.0, 1.0, 0.3], SEED)
    W1, W2 = random_init(3, 2, 3, 0.5, SEED)
    r = run(task, W1, W2, 15.0, t_eval=np.linspace(0.0, 15.0, 101))
    planted = np.array([np.trace(a @ a.T + b.T @ b) for a, b in zip(r.W1, r.W2)])  # + instead of −
    assert tv.check_conserved(r.t, planted, rtol=1e-8).status is tv.Status.REFUTED
    true = np.array([balance(a, b)[0, 0] for a, b in zip(r.W1, r.W2)])
    assert tv.check_conserved(r.t, true, rtol=1e-8).status is tv.Status.HOLDS


def test_order_refutes_a_reversed_order():
    s_values = [0.25, 0.8, 2.5, 8.0]
    times = [1.0 / v for v in s_values]
    assert in_order(s_values, times).status is tv.Status.HOLDS
    planted = in_order(s_values, [1.0 / t_ for t_ in times])  # "weaker modes first"
    assert planted.status is tv.Status.REFUTED
    assert planted.counterexample["s"] == 8.0


def test_the_planted_erratum_is_registered_as_refuted_typo():
    claim = tv.registry.get("deeplinear.t-learn-planted")
    assert claim.expect is tv.Status.REFUTED and claim.finding is tv.Finding.TYPO
    result = claim.run()
    assert result.verdict.status is tv.Status.REFUTED and result.as_expected


def test_the_planted_twin_reads_the_claims_sweep(monkeypatch):
    calls = []

    def counted(*args, **kwargs):
        calls.append(args)
        return learning_time(*args, **kwargs)

    forget()  # points other tests computed
    monkeypatch.setattr(s21_timescales, "learning_time", counted)
    assert tv.registry.get("deeplinear.t-learn").run().verdict.status is tv.Status.HOLDS
    computed = len(calls)
    assert tv.registry.get("deeplinear.t-learn-planted").run().verdict.status is tv.Status.REFUTED
    assert computed == 12 and len(calls) == computed  # the twin's six points were all in the claim's sweep
