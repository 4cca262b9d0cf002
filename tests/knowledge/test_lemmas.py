"""Planted errors in the reconstructed lemmas and data formulas are refuted."""
import sympy as sp

from derivations.knowledge.claims import app_e_lemmas as cl, app_h_lowrank as ch, s3_data as cd
from derivations.knowledge.model import data, entropy
from theoryverify import RunContext, Status

CTX = RunContext(seed=2)


def test_anticoncentration_without_factor_two_is_refuted():
    assert cl.check_anticonc(CTX, c=2).status in (Status.HOLDS, Status.PROVED)
    v = cl.check_anticonc(CTX, c=1)
    assert v.status == Status.REFUTED and v.counterexample


def test_too_small_gaussian_maximum_threshold_is_refuted():
    v = cl.check_maxgauss(CTX, threshold=lambda: cl.s * sp.sqrt(sp.log(2 * cl.n / cl.dl)))
    assert v.status == Status.REFUTED


def test_too_strong_coverage_bound_is_refuted():
    v = cl.check_coverage(CTX, bound=lambda: cl.R * sp.exp(-cl.N * cl.K**2 / cl.R**2))
    assert v.status == Status.REFUTED


def test_eym_with_eigenvalue_is_refuted_and_with_singular_value_holds():
    assert ch.check_eym(CTX).status == Status.HOLDS
    assert ch.check_eym(CTX, use_eigenvalue=True).status == Status.REFUTED


def test_wrong_ntp_size_and_entropy_are_refuted():
    assert cd.check_size(formula=lambda N_f, N_r, K: 2 * K * (N_f + N_r)).status == Status.REFUTED
    v = cd.check_entropy(CTX, formula=lambda rw: entropy.K * entropy.N_f * sp.log(entropy.K)
                         / (2 * entropy.K * (entropy.N_f + entropy.N_r)))
    assert v.status == Status.REFUTED


def test_bad_data_parameters_are_rejected():
    import pytest
    with pytest.raises(ValueError):
        data.make(3, 1, 5, 4, 0.5, 0)        # K > |R|
    with pytest.raises(ValueError):
        data.make(3, 1, 2, 4, 0.0, 0)        # β = 0


def test_gaussian_tail_with_too_fast_decay_is_refuted():
    assert cl.check_tail(CTX).status == Status.HOLDS
    v = cl.check_tail(CTX, k=1)          # exp(−t²/σ²): decays faster than the true tail
    assert v.status == Status.REFUTED and v.counterexample


def test_too_strong_activation_bound_is_refuted():
    assert cl.check_activation(CTX).status == Status.HOLDS
    v = cl.check_activation(CTX, rate=8.0)
    assert v.status == Status.REFUTED and v.counterexample
