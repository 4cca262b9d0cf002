"""Alibi (Eq. 3), first layer (Eq. 9) and Training Stage I (Lemma 5.3): derivation checks and the planted
twins of derivations/inductionheads/claims/s3_alibi.py and s51_setup.py (same check functions as the registered claims)."""
from __future__ import annotations

import numpy as np

from derivations.inductionheads.claims import s3_alibi as C3
from derivations.inductionheads.claims import s51_setup as C
from derivations.inductionheads.model import alibi, stage1
from theoryverify.verdicts import Status

SEED = 20241011


def _refuted(v):
    assert v.status is Status.REFUTED, (v.status, v.evidence)
    assert v.counterexample


def test_alibi_rows_match_masked_softmax_both_conventions():
    for conv in alibi.CONVENTIONS:
        for p in (0.0, 0.7, 9.0):
            A = alibi.attention_matrix_np(8, p, conv)
            R = alibi.masked_softmax_reference(8, p, conv).numpy()
            assert np.abs(A - R).max() < 1e-14


def test_stage1_gradient_matches_finite_difference():
    for p1 in (0.0, 1.3, 6.0):
        _, g = stage1.loss_stage1(p1, 20, 1e-2, 0.5, 0.3)
        h = 1e-5
        fd = (stage1.loss_stage1(p1 + h, 20, 1e-2, 0.5, 0.3)[0] - stage1.loss_stage1(p1 - h, 20, 1e-2, 0.5, 0.3)[0]) / (2 * h)
        assert abs(g - fd) <= 1e-6 * max(1e-8, abs(g)) + 1e-12


def test_e3_inclusive_convention_refuted_as_previous_token():
    v = C3.alibi_check(SEED, "inclusive", claimed_distance=1)
    _refuted(v)
    assert v.counterexample["selected_distance"] == [0]


def test_e9_too_small_constant_refuted():
    _refuted(C.layer1_bound_check(SEED, K=1.0, n_draws=1000))


def test_e9_too_fast_rate_refuted():
    _refuted(C.layer1_bound_check(SEED, rate=2.0, n_draws=1000))


def test_e9_inclusive_limit_refuted():
    _refuted(C.layer1_check(SEED, convention="inclusive"))


def test_l53_inclusive_convention_no_previous_token_limit():
    v = C.stage1_check(SEED, Ls=(30,), convention="inclusive")
    _refuted(v)


def test_l53_wrong_growth_slope_refuted():
    _refuted(C.stage1_check(SEED, Ls=(30,), slope=2.0))
