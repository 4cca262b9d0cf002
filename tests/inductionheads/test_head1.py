"""Head 1 (4-gram) of Section 5: the derived closed forms and the planted-error twins of
derivations/inductionheads/claims/appc1_head1.py (each twin goes through the SAME check function)."""
from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from derivations.inductionheads.claims import appc1_head1 as C
from derivations.inductionheads.model import head1 as H
from theoryverify.verdicts import Status

SEED = 20241011


def _refuted(v):
    assert v.status is Status.REFUTED, (v.status, v.evidence)
    assert v.counterexample


# --- derivation sanity ---------------------------------------------------------------------------------------

def test_numeric_matches_token_level_sympy():
    L = 6
    f = sp.lambdify((H.p, H.v1, H.alpha), H.loss_g4_sym(L))
    for pp, vv, aa in [(0.0, 0.3, 0.5), (1.7, 1.1, 0.2), (5.5, 0.9, 0.9)]:
        assert abs(f(pp, vv, aa) - H.loss_g4(pp, vv, aa, L)) < 1e-14


def test_stable_for_large_p_and_vectorised():
    p = np.array([0.0, 10.0, 30.0, 50.0])
    loss = H.loss_g4(p, 0.5, 0.5, 200)
    gp, gv = H.grad_g4(p, 0.5, 0.5, 200)
    assert np.all(np.isfinite(loss)) and np.all(np.isfinite(gp)) and np.all(np.isfinite(gv))
    assert loss[-1] == pytest.approx(0.0, abs=1e-30)  # v1 = α, p → ∞: zero loss


def test_nullcline_zeroes_v_gradient():
    for pp in (0.1, 1.0, 4.0):
        v = H.v1_nullcline(pp, 0.4, 50)
        assert abs(H.grad_g4(pp, v, 0.4, 50)[1]) < 1e-14


# --- planted twins (same check functions as the registered claims) ------------------------------------------

def test_cf_g4_sign_flipped_cross_term_refuted():
    def flipped(L):
        q = sp.exp(-H.p)
        Z = (1 - q**(L - 1)) / (1 - q)
        S = (1 - q**(2 * (L - 2))) / (1 - q**2)
        return sp.Rational(1, 2) * (H.v1**2 * S / Z**2 + 2 * H.alpha * H.v1 / Z + H.alpha**2)
    _refuted(C.closed_form_identity(SEED, Ls=(5,), closed=flipped))


def test_cf_g4_wrong_target_index_refuted_by_monte_carlo():
    L = 7
    wrong = sp.lambdify((H.p, H.v1, H.alpha), H.loss_g4_sym(L, target_index=L - 1))  # x_{L-1} instead of x_{L-2}
    v = C.monte_carlo(SEED, [(2.0, 0.9, 0.6, L)], 10_000, formula=lambda p, v1, a, L_: wrong(p, v1, a))
    _refuted(v)


def test_cf_g4_wrong_gradient_refuted_by_autograd():
    def bad(p, v1, a, L):
        gp, gv = H.grad_g4(p, v1, a, L)
        return -gp, gv
    _refuted(C.autograd(SEED, Ls=(40,), n=10, grad=bad))


def test_decomp_wrong_high_order_constant_refuted():
    q, a, v = H.q, H.alpha, H.v1
    wrong = sp.Rational(1, 2) * (1 - q) / (1 + q) * (v - a * (1 + q))**2 + a**2 * q**2  # ½ dropped
    _refuted(C.decomposition_check(SEED, decomposed=wrong))


def test_t1_wrong_estimate_refuted():
    _refuted(C.t1_scaling(SEED, Ls=(50, 100, 200, 400), predicted=2.0))


def test_t1_too_strict_barely_reading_refuted():
    _refuted(C.t1_check(SEED, [(0.5, 100, 1e-3)], barely=0.01))


def test_lyapunov_sign_flipped_candidate_refuted():
    v = C.lyapunov_check(SEED, [(0.5, 50, 1e-2)], candidates=("planted: ½ r u² − ½ α² q²",), symbolic=False)
    _refuted(v)


def test_convergence_wrong_exponent_refuted():
    _refuted(C.convergence_check(SEED, [(0.5, 100, 1e-3)], predicted_exponent=-0.5))


def test_convergence_wrong_prefactor_refuted():
    _refuted(C.convergence_check(SEED, [(0.5, 100, 1e-3)], predicted_prefactor=0.5))
