"""Planted-error twins for the reconstruction-sensitivity claims (derivations/inductionheads/claims/rc_alternatives.py):
each twin is rejected by the same check that the claim runs."""
from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from derivations.inductionheads.model import alibi
from derivations.inductionheads.experiments import alternatives as A
from derivations.inductionheads.claims import rc_alternatives as C
from derivations.inductionheads.experiments import flow
from theoryverify.verdicts import Status

SEED = 1234


def _refuted(v):
    assert v.status == Status.REFUTED, v.evidence
    assert v.counterexample


# --- RC-12 alternatives ---------------------------------------------------------------------------------

def test_rescaling_is_a_change_of_n():
    """L_IH^(D) equals the default closed form with N -> D^2/N (head2.closed_form_sym)."""
    n_eff = sp.Symbol("n_eff", positive=True)
    lhs = A.loss_ih_divisor_sym()
    rhs = A.H2.closed_form_sym(1).subs(A.N, n_eff).subs(n_eff, A.D ** 2 / A.N)
    assert sp.simplify(lhs - rhs) == 0


@pytest.mark.parametrize("factor", [sp.Integer(1), A.N / A.D, A.D ** 2 / A.N ** 2])
def test_rc12_loss_planted_factor(factor):
    """Twins: 'the divisor does not matter' (factor 1), a linear factor, the inverted factor."""
    _refuted(C.check_rc12_loss(factor=factor, concrete_L=()))


def test_rc12_flow_planted_default_law():
    """Twin: the default (D = N) laws used for every D ('RC-12's divisor does not change the plateau')."""
    def same(a, w, L, d):
        return flow.plateau_log_coefficient(a, w, L), flow.growth_rate(a, w, L)
    _refuted(C.check_rc12_flow(SEED, Ls=(10,), predicted=same))


def test_rc12_flow_planted_linear_rescaling():
    """Twin: c_sigma scaling like D/N instead of D^2/N^2 (detected at L = 100, where the two differ by 2%)."""
    def linear(a, w, L, d):
        r = A.DIVISORS[d](L) / (L - 2)
        return flow.plateau_log_coefficient(a, w, L) * r, flow.growth_rate(a, w, L) / r
    _refuted(C.check_rc12_flow(SEED, Ls=(100,), predicted=linear))


# --- RC-1 inclusive ------------------------------------------------------------------------------------------

def test_rc1_planted_learns():
    """Twin: 'under the inclusive convention Phase I still learns x_(L-2)'."""
    _refuted(C.check_rc1_inclusive(SEED, Ls=(10, 50), claims_learns=True))


def test_rc1_planted_sup():
    """Twin: the wrong supremum (the m = 1 value 1/4 claimed for m = 2)."""
    _refuted(C.check_rc1_inclusive(SEED, Ls=(10, 50),
                                   claimed_sup={"inclusive-both": sp.Rational(1, 4), "inclusive-head1": sp.Rational(1, 4)}))


def test_causal_default_learns():
    """Control: under the default causal convention the learnable fraction tends to 1 (p -> oo)."""
    pi = alibi.weights_np(20.0, 49, "causal")  # π_j over the M = L − 1 distances, L = 50
    assert pi[0] ** 2 / np.sum(pi[:-1] ** 2) > 0.999


# --- exact-softmax GD verdict (no training: fake rows) --------------------------------------------------------

def test_exact_gd_planted_rc12_law(monkeypatch):
    """Twin: predicting the exact-softmax coefficient by the RC-12 (/N) law is refuted on rows that follow
    the exact law (rows synthesised from the law, small seed scatter)."""
    def fake_rows(seed, L, **kw):
        c = flow.plateau_log_coefficient_exact(0.5, 0.3, L)
        out = []
        for i, e in enumerate((-0.01, 0.0, 0.01)):
            out.append([{"T_IH(0.5)": 3 * (L - 2) + c * (1 + e) * np.log(1 / s), "growth_slope": 1.0}
                        for s in kw.get("sigmas") or A.EXACT_GD["sigmas"]])
        return out
    monkeypatch.setattr(A, "exact_gd_rows", fake_rows)
    assert C.exact_gd_verdict(SEED).status == Status.HOLDS
    _refuted(C.exact_gd_verdict(SEED, predicted=lambda L: A.plateau_log_coefficient_divisor(0.5, 0.3, L, "N")))


# --- GD balance -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("factor", [lambda eta, g: 1.0 + 0 * g,            # exact conservation under GD
                                    lambda eta, g: 1 - eta * g ** 2,        # wrong power of eta
                                    lambda eta, g: 1 + eta ** 2 * g ** 2])  # sign flip
def test_gd_balance_planted_recursion(factor):
    _refuted(C.check_gd_balance(SEED, factor=factor))


def test_gd_balance_planted_rate():
    """Twin: drift ~ eta^2 (the per-step order) instead of eta^1 at a fixed horizon."""
    _refuted(C.check_gd_balance(SEED, rate_exponent=2.0))


# --- RC-20 (issue 17 re-audit): the layer-2 key mask of the Thm 4.1 construction ---------------------------------

def test_rc20_plain_causal_masks_do_not_converge_and_the_bias_coordinate_does():
    assert C.check_rc20(3, ps=(2.0, 4.0, 6.0, 8.0, 10.0), n_random=30, steps=10).status is Status.HOLDS


def test_rc20_planted_floor_and_planted_bias_are_refuted():
    # planted: claim the unmasked construction stays above 2 (it does not: its error is about 0.5)
    assert C.check_rc20(3, n_random=30, steps=10, floor=2.0).status is Status.REFUTED
    # planted: a bias 8 short of p + ||W*||B^2 leaves position 1 too much weight for the derived bound
    assert C.check_rc20(3, n_random=30, steps=10, extra_bias=-8.0).status is Status.REFUTED
