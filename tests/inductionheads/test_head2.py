"""Head 2 (derivations/inductionheads/model/head2.py, claims/s52_head2.py): derived L_IH, field, and the planted-error
twins that each claim's check must refute."""
from __future__ import annotations

import numpy as np
import sympy as sp

from derivations.inductionheads.claims import s52_head2 as C
from derivations.inductionheads.model import head2 as H
from theoryverify.claims import RunContext
from theoryverify.verdicts import Status

CTX = RunContext(seed=5)


def _refuted(v):
    assert v.status is Status.REFUTED, v.evidence
    assert v.counterexample
    return v


# --- derived objects --------------------------------------------------------------------------------

def test_cross_terms_vanish_and_domain():
    t = H.pattern_terms(1)
    assert t["adjacent"].value == 0 and t["far"].value == 0
    box = H.admissible_box()
    assert box["k"] == sp.Interval.open(-sp.Rational(1, 2), sp.Rational(1, 2))
    assert box["k+w"] == sp.Interval.open(-1, 1)


def test_admissible_and_nan_outside():
    assert H.admissible(0.49, 0.49) and not H.admissible(0.5, 0.1) and not H.admissible(0.1, -0.51)
    assert np.isnan(H.loss_ih(0.6, 0.3, 0.5, 0.3, 50))


def test_field_is_chain_rule_and_vectorised():
    wK, wQ, v2 = np.array([0.2, -0.5]), np.array([0.7, 0.3]), np.array([0.1, 0.9])
    fK, fQ, fv = H.field(wK, wQ, v2, 0.5, 0.3, 40)
    dk, dv = H.grad_ih(wK * wQ, v2, 0.5, 0.3, 40)
    assert np.allclose(fK, -dk * wQ) and np.allclose(fQ, -dk * wK) and np.allclose(fv, -dv)
    assert fK.shape == (2,)


def test_fixed_point_zero_loss_and_zero_gradient():
    k, v = H.fixed_point(0.3, 0.25)
    assert abs(H.loss_ih(k, v, 0.3, 0.25, 60)) < 1e-15
    assert np.allclose(H.grad_ih(k, v, 0.3, 0.25, 60), 0, atol=1e-15)


def test_general_d_extension_matches_closed_form_d2():
    assert sp.expand(H.loss_ih_sym(2) - H.closed_form_sym(2)) == 0


# --- IH-CF-IH planted twins ---------------------------------------------------------------------------

KW = dict(mc_points=1, mc_n=40_000)
beta = 1 - H.alpha


def _np_twin(fn):
    return lambda k, v2, a, w, L: fn(np.asarray(k, float), np.asarray(v2, float), a, w, L)


def test_cf_ih_planted_dropped_cross_term():
    twin = H.closed_form_sym(1) + 2 * beta * H.v2 / (2 * H.N) * (1 - (H.k + H.w) ** 2) ** sp.Rational(-1, 2)
    _refuted(C.check_cf_ih(CTX, stated=twin, **KW))


def test_cf_ih_planted_sign_flip():
    twin = H.closed_form_sym(1) + 4 * beta * H.v2 / (2 * H.N) * (1 - (H.k + H.w) ** 2) ** sp.Rational(-1, 2)
    _refuted(C.check_cf_ih(CTX, stated=twin, **KW))


def test_cf_ih_planted_N_replaced_by_L():
    twin = H.closed_form_sym(1) * H.N / (H.N + 2)
    _refuted(C.check_cf_ih(CTX, stated=twin, **KW))


def test_cf_ih_planted_wrong_d_dependence():
    wrong = H.closed_form_sym(1).subs(H.N, H.N / 2)   # d = 2 with exponent -1/2 instead of -d/2
    from theoryverify.checks import check_identity
    _refuted(check_identity(H.loss_ih_sym(2), wrong, C.IH_DOMAIN, 3, rtol=1e-10))


def test_cf_ih_mc_alone_rejects_sign_flip():
    pt = C.random_ih_points(3, 1)[0]
    bad = lambda k, v2, a, w, L: H.loss_ih(k, v2, a, w, L) + 4 * (1 - a) * v2 * H._r(k + w) / (2 * (L - 2))  # noqa: E731
    good = C.mc_check_point(pt, 12, 60_000, 9)
    assert all(v.holds for v in good.values())
    _refuted(C.mc_check_point(pt, 12, 60_000, 9, loss_fn=bad)["loss"])


# --- IH-L54-balance -----------------------------------------------------------------------------------

def test_balance_planted_sum_of_squares_refuted():
    v = _refuted(C.check_balance(CTX, quantity=H.wK ** 2 + H.wQ ** 2, L_sym=(4,), with_extras=False))
    assert "symbolic" in v.counterexample["part"] or "GF" in v.counterexample["part"]


def test_balance_planted_v2_extension_refuted_by_flow():
    parts = C.flow_conservation(H.v2 ** 2 - H.wK ** 2, [(0.4, 0.1, 0.2)])
    _refuted(list(parts.values())[0])


def test_balance_true_quantity_symbolic_and_flow():
    v = C.check_balance(CTX, L_sym=(4,), with_extras=False)
    assert v.holds


# --- IH-S52-fixedpoint --------------------------------------------------------------------------------

def test_fixedpoint_planted_swapped_value_refuted():
    _refuted(C.check_fixedpoint(CTX, L_values=(4,), claimed_v2=H.alpha))


def test_fixedpoint_planted_wrong_k_refuted():
    _refuted(C.check_fixedpoint(CTX, L_values=(4,), claimed_k=2 * H.w))


# --- IH-C2-lin ----------------------------------------------------------------------------------------

def test_c2_lin_planted_tight_at_large_w_refuted():
    v = _refuted(C.check_c2_lin(CTX, w_tight=(0.4,), w_report=(), fractions=(1e-3,), n=10_000))
    assert v.counterexample["w"] == 0.4


def test_denominator_fraction_formula():
    assert C.denominator_fraction_large_L(0.05) < 1e-10
    assert 0.1 < C.denominator_fraction_large_L(0.3) < 0.2


# --- IH-E8-proportion ---------------------------------------------------------------------------------

def test_e8_planted_alpha_swap_refuted():
    def swapped(alpha, w, L, softmax="exact", symbolic=False):
        return C.proportion_formulas(1 - alpha, w, L, softmax, symbolic)
    _refuted(C.check_e8(CTX, Ls=(20, 40, 80, 160), n=10_000, formulas=swapped))


def test_e8_second_moment_derivations():
    assert sp.simplify(H.ih_second_moment_sym("rc12").value - (1 - 4 * H.w ** 2) ** sp.Rational(-1, 2)) == 0
    assert sp.simplify(H.ih_second_moment_sym("exact").value - (1 - 2 * H.w ** 2) ** sp.Rational(-1, 2)) == 0
    assert H.ih_second_moment_sym("exact").conditions == [1 - 2 * H.w ** 2 > 0]


def test_e8_planted_wrong_exponent_refuted():
    # a proportion falling like 1/N² (exponent -2) must be refuted by the same rate rule
    from theoryverify.scaling import check_rate
    N = np.array([18, 38, 78, 158, 318], float)
    rng = np.random.default_rng(0)
    y = (1 / N)[:, None] * (1 + 0.01 * rng.standard_normal((5, 10)))
    _refuted(check_rate(N, y, -2.0, 0.15, 0))
