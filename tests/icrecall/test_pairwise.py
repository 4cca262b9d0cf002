"""Planted errors for the Lemma 8 / Theorem 4 / App. E checks: each kind of check must be able to fail."""
import numpy as np
import sympy as sp

from theoryverify import check_identity
from theoryverify import RunContext
from theoryverify import Status

from derivations.icrecall.claims import e_prop2 as ce
from derivations.icrecall.claims import b_lemma7_8 as c8
from derivations.icrecall.claims import b_theorem4 as c4
from derivations.icrecall.model import pairwise as pw
from derivations.icrecall.printed import appb2 as printed
from derivations.icrecall.model.symbolic import n3

CTX = RunContext(seed=12345)


def test_theta_gradient_through_softmax_matches_model():
    """pairwise.grad_theta_in_v (softmax Jacobian in v) == model.grad_theta (chain rule in θ) at a point.

    Each side is evaluated in 50-digit arithmetic (v = softmax(θ) rounded to 50 digits) and the two must agree
    to 1e-25; the components are O(0.01–0.1), so a wrong term shows at the second digit.  (Evaluating the exact
    difference, which is 0, made evalf chase precision for minutes.)"""
    m = n3()
    th = [sp.Rational(k, 5) - sp.Rational(1, 2) for k in range(6)]
    pt_theta = dict(zip(m.theta, th))
    v = [sp.N(e.xreplace(pt_theta), 50) for e in m.softmax_theta().values()]
    pt_v = {**dict(zip(m.v, v)), m.T: sp.Rational(3, 10)}
    for a, b in zip(pw.grad_theta_in_v(), m.grad_theta()):
        a_num = a.xreplace(pt_v).evalf(50)
        b_num = b.xreplace({**pt_theta, m.T: sp.Rational(3, 10)}).evalf(50)
        assert abs(b_num) > 1e-4 and abs(a_num - b_num) < 1e-25


def test_lemma8_display_with_a_wrong_coefficient_is_refuted():
    def planted(p, l):  # (p2 + p4) v1v4 -> (p2 + p3) v1v4
        return printed.lemma8_diff12(p, l) + (p[2] - p[3]) * printed.v1 * printed.v4

    good = c8.diff_factor_claim(CTX, 0, 1, printed.lemma8_diff12)
    bad = c8.diff_factor_claim(CTX, 0, 1, planted)
    assert good.status in (Status.PROVED, Status.HOLDS)
    assert bad.status is Status.REFUTED and bad.counterexample


def test_wrong_gap_polynomial_is_refuted_and_right_one_proved():
    d = c4.derived_gaps()
    x = pw.x
    assert check_identity(d[4], -2 * x**2, c4.X_ONLY, 1).status is Status.PROVED
    assert check_identity(d[4], printed.D_PRINTED[6], c4.X_ONLY, 1).status is Status.REFUTED


def test_planted_symmetry_constant_is_refuted():
    L = pw.line_L1()
    x = pw.x
    assert check_identity(L, L.xreplace({x: sp.Rational(3, 10) - x}), c4.QUARTER, 2).status is Status.REFUTED
    assert c4.line_reflections(c4.derived_gaps()) == [sp.Rational(1, 2)]


def test_psi_search_refutes_a_planted_sign():
    parts = c8.psi_parts(CTX, planted_factor=sp.Integer(-1))
    v = parts["statement: D⁺ψ < 0 when ψ > 1 (normalised by ψ − 1)"]
    assert v.status is Status.REFUTED and "T" in v.counterexample


def test_prop2_search_refutes_a_planted_constant():
    def halved(G, H, T):
        b = printed.prop2_bounds(G, H, T)
        return {1: b[1] / 2, 2: b[2], 3: b[3]}

    v = ce.p2_bounds_verdict(7, 200, bounds=halved, forms={"F-all3": pw.relation_quadratic_forms()})
    assert v.status is Status.REFUTED and v.counterexample["ratio"].startswith("|∇Ψ[a]|")


def test_lemma12_search_refutes_the_bound_without_its_factor_2():
    def no_two(t, gap, ell):
        return sp.sqrt(t * gap / ell)

    assert ce.lemma12_verdict(3, 50, n=30).status is Status.HOLDS
    v = ce.lemma12_verdict(3, 50, n=30, bound=no_two)
    assert v.status is Status.REFUTED and v.counterexample["quantity"] == "‖x_t − x0‖"


def test_multistart_refutes_a_planted_wrong_optimum():
    def at_quarter(T):  # claim the optimum is the saddle a = 1/4
        return 0.25, float(pw.line_L1_float(np.array([0.25]), T)[0])

    v = c4.opt_pairwise_verdict(RunContext(seed=5), n_starts=10, ts=(0.05,), line_fn=at_quarter)
    assert v.status is Status.REFUTED and "L1" in v.counterexample


def test_multistart_refutes_a_planted_wrong_optimum_at_small_T():
    """Issue 27 (referee P2): at T = 0.002 L1 ≈ 1e-12 at the optimum, so the search works on log L1; a line
    'optimum' off the true one by 0.01 in a is refuted there too (plain float64 L1 could not resolve it)."""
    def off(T):
        a = pw.line_minimiser_float(T)[0] + 0.01
        return a, float(pw.line_L1_float(np.array([a]), T)[0])

    v = c4.opt_pairwise_verdict(RunContext(seed=5), n_starts=10, ts=(0.002,), line_fn=off)
    assert v.status is Status.REFUTED and v.counterexample["T"] == 0.002


def test_psi_remainder_planted_j2_term_is_refuted():
    """t4-psi-remainder could have failed (issue 27, referee P2): with Ψ̃'s j = 2 term kept in the 'remainder' (O(1) on
    I, since h(1/6) = 0) the fitted slope of log max|·| vs 1/T is not below 0."""
    assert c4.t4_psi_remainder(RunContext(seed=5)).status is Status.HOLDS
    assert c4.t4_psi_remainder(RunContext(seed=5), first=2).status is Status.REFUTED


def test_descent_detector_flags_a_huge_step():
    res = ce.descent_runs(1, 200, ts=(0.05,), cs=(5000,))
    assert not all(res.values())


def test_small_T_limit_is_one_sixth_and_printed_gaps_give_printed_x0():
    assert pw.small_T_minimiser(c4.derived_gaps())[0] == sp.Rational(1, 6)
    lim = pw.small_T_minimiser(c4.printed_gaps())[0]
    assert sp.simplify(lim - printed.X0_PRINTED) == 0


def test_psi_gd_detector_flags_ascent():
    checked, incs, worst, example, _ = ce.psi_along_gd(1, 200, ts=(0.05,), seeds=2, eta_c=-2.0)
    assert incs > 0 and example is not None


def test_psi_sign_left_every_point_and_psi_at_zero():
    """t4-psi-sign-left (issue 15 audit): Ψ > 0 while h < 0 at every (T, x) of PSI_LEFT_POINTS, for the model's and
    the printed d_j, and the reason, Ψ(0) = 12e^{−1/(2T)} (model), is checked; a planted 13 is refuted."""
    from theoryverify import Domain, LogUniform
    for d, psi in ((c4.derived_gaps(), pw.Psi(c4.derived_gaps(), c4.T)),
                   (c4.printed_gaps(), printed.Psi_printed(c4.printed_gaps()))):
        for Tv, k in c4.PSI_LEFT_POINTS:
            pt = {c4.x: sp.Rational(1, 10**k), c4.T: Tv}
            assert sp.N(psi.xreplace(pt), 30) > 0 and pw.h_of(d).xreplace(pt) < 0
    psi0 = pw.Psi(c4.derived_gaps(), c4.T).xreplace({c4.x: 0})
    dom = Domain([LogUniform(c4.T, 1e-3, 0.08)])
    assert check_identity(psi0, 12 * sp.exp(-1 / (2 * c4.T)), dom, 1).status is Status.PROVED
    assert check_identity(psi0, 13 * sp.exp(-1 / (2 * c4.T)), dom, 1).status is Status.REFUTED
