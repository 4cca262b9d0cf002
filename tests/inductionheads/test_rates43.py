"""Thm 4.3 construction and the R2 Step-1 normaliser (multihead.py, claims_rates43.py): the construction is exact
with exact shift kernels, its first layer applies the periodised D.2 kernel, the symbolic checks pass on a correct
(s-dependent) scale and refute the printed one, and the rate sweep refutes a construction with a dropped group."""
import numpy as np
import torch

from derivations.inductionheads.claims import s42_ihn as C
from derivations.inductionheads.model import multihead as MH
from derivations.inductionheads.model.kernels import group_kernel
from theoryverify.verdicts import Status


def test_exact_shift_kernels_reproduce_ihn():
    for n in (2, 3, 4):
        W = MH.random_W(n, 2, 3.0, n)
        c = MH.build(n, 2, W, 1, 2.0, exact=True)
        X = torch.randn(4, 11, 2, dtype=torch.float64, generator=torch.Generator().manual_seed(n))
        assert torch.allclose(c(X), c.target(X), rtol=0, atol=1e-13)


def test_kernel_matrix_rows_are_group_kernels():
    c = MH.build(3, 1, MH.random_W(3, 1, 1.0, 0), 4, 2.0, scale="printed")
    K = c.kernel_matrix(2, 9).numpy()
    fit = c.groups[1]
    for t in (1, 4, 8):  # 0-based row t has t earlier tokens
        psi = group_kernel(fit.alpha, fit.beta, t, "printed")
        assert np.allclose(K[t, t - 1::-1], psi, rtol=1e-9, atol=1e-9)


def test_construction_error_below_derived_bound():
    W = MH.random_W(3, 2, 1.0, 3)
    c = MH.build(3, 2, W, 6, 2.0)
    X = torch.rand(64, 10, 2, dtype=torch.float64, generator=torch.Generator().manual_seed(0)) * 2 - 1
    X = X / X.norm(dim=-1, keepdim=True).clamp_min(1.0)
    assert float((c(X) - c.target(X)).abs().max()) <= MH.derived_bound(c)


def test_normaliser_check_positive_control_and_printed_refuted():
    assert C.printed_cancellation(MH.Z_sym()).status is Status.PROVED
    v = C.printed_cancellation()
    assert v.status is Status.REFUTED and abs(v.counterexample["ratio_float"] - (np.e + 1)) < 1e-12


def test_group_recovery_stationary_holds_printed_refuted():
    kw = dict(ms=(2, 6), i_values=(1, 2), s_keys=range(2, 12))
    assert C.group_recovery(scale="stationary", **kw).status is Status.HOLDS
    assert C.group_recovery(scale="printed", **kw).status is Status.REFUTED


def test_periodisation_bound_refutes_unscaled_values():
    kw = dict(ms=(2, 4), i_values=(1, 2), s_keys=range(1, 12))
    assert C.periodisation_bound(**kw).status is Status.HOLDS
    v = C.periodisation_bound(scale="none", **kw)
    assert v.status is Status.REFUTED and v.counterexample


def test_s_independent_values_refuted_with_instance():
    v = C.s_independent_values()
    assert v.status is Status.REFUTED and v.counterexample["Z_2"] > v.counterexample["Z_1"]


SMALL = dict(ns=(3,), ms=(2, 3, 4, 5, 6, 7, 8), L=8, d=1, Wnorms=(1.0,), n_random=64, steps=12, b_max=2.0)


def test_rate_sweep_holds_and_dropped_group_stalls():
    assert C.rate43_sweep(SMALL, seed=5).status is Status.HOLDS
    v = C.rate43_sweep(SMALL, seed=5, drop_group=2)
    assert v.status is Status.REFUTED and v.counterexample["largest_window_slope"] > -4
