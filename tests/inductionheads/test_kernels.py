"""Lemma D.2 kernels (kernels.py, claims_kernels.py): the exact-Gram least squares agrees with a truncated float64
least squares, the ℓ1 error bounds the ℓ2 error, and the D.2 sweep check refutes a planted index shift."""
import numpy as np

from derivations.inductionheads.claims import appd_lemmas as CK
from derivations.inductionheads.experiments import sweeps as SW
from derivations.inductionheads.model.kernels import fit_delta, group_kernel, periodized
from theoryverify.verdicts import Status


def test_gram_least_squares_matches_truncated_lstsq():
    fit = fit_delta(2, 4, 2.0)
    t = np.arange(1, 400)
    A = np.exp(-np.outer(t - 1, fit.beta))
    alpha = np.linalg.lstsq(A, (t == 2).astype(float), rcond=None)[0]
    assert np.allclose(alpha, fit.alpha, rtol=1e-6)
    assert fit.l1 >= fit.l2 > 0
    assert fit.tail_bound <= 1e-6 * fit.l1 + 1e-300


def test_error_decreases_and_slopes_bounded():
    errs = [fit_delta(3, m, 2.0).l1 for m in (4, 6, 8, 10)]
    assert all(b < a for a, b in zip(errs, errs[1:]))
    assert max(fit_delta(3, m, 2.0).beta[-1] for m in (4, 8)) <= 2.0 + 1e-12


def test_stationary_group_kernel_is_periodised():
    fit = fit_delta(2, 5, 2.0)
    for keys in (2, 3, 7):
        assert np.allclose(group_kernel(fit.alpha, fit.beta, keys, "stationary"),
                           periodized(fit.alpha, fit.beta, keys, 3000), rtol=0, atol=1e-9)


def test_ld2_sweep_holds_on_a_small_grid():
    v = CK.kernel_sweep((2,), (5.0,), tuple(range(2, 10)), seed=1)
    assert v.status is Status.HOLDS


def test_planted_index_shift_is_refuted():
    v = CK.kernel_sweep((2,), (5.0,), tuple(range(2, 10)), seed=1, shift=1)
    assert v.status is Status.REFUTED and v.counterexample["largest_window_slope"] > -4


def test_planted_polynomial_curve_is_refuted():
    ms = np.arange(4, 13)
    v = SW.superpoly_verdict({"planted": "m^-2"}, ms, 3.0 * ms ** -2.0, seed=2)
    assert v.status is Status.REFUTED and v.counterexample
