"""Planted-error twins for the App. D claims (claims_lemmas_d.py): the same searches must refute them."""
import numpy as np
import pytest

from derivations.inductionheads.claims import appd_lemmas as LD
from derivations.inductionheads.model import lemmas_d as D
from theoryverify.verdicts import Status


def test_lemma_d1_cited_constant_holds():
    v = LD.lip_check(1, n_draws=2000, hyp_examples=20)
    assert v.status is Status.HOLDS
    assert 0.999 < v.details["sup_ratio"] <= 1.0 + 1e-12


@pytest.mark.parametrize("c", [0.99, 0.9, 0.5])
def test_lemma_d1_reduced_constant_refuted(c):
    v = LD.lip_check(1, constant=c, n_draws=2000, hyp_examples=20)
    assert v.status is Status.REFUTED and v.counterexample["ratio"] > c


def test_sharp_constant_is_one():
    assert LD.sharp_constant_sympy() == 1
    assert 0.9999 < LD.sharpness_witness(1e-3, 4) < 1


@pytest.mark.parametrize("totals", ["equal", "weak"])
def test_majorising_pairs_satisfy_definition(totals):
    rng = np.random.default_rng(0)
    x, y = D.majorising_pairs(rng, 200, 6, totals)
    assert all(D.weakly_majorises(a, b, totals) for a, b in zip(x, y))


@pytest.mark.parametrize("reading", [("weak", "concave increasing", "decreasing"), ("equal", "concave", "uniform")])
def test_karamata_planted_concave_refuted(reading):
    v = LD.karamata_check(2, *reading, n_draws=2000, hyp_examples=20)
    assert v.status is Status.REFUTED and v.counterexample


def test_karamata_weight_order_violation_refuted():
    v = LD.karamata_check(3, "weak", "convex increasing", "increasing", n_draws=2000, hyp_examples=20)
    assert v.status is Status.REFUTED and v.counterexample


def test_karamata_candidate_readings_hold():
    for reading in D.HOLDING.values():
        assert LD.karamata_check(4, *reading, n_draws=2000, hyp_examples=20).status is Status.HOLDS
