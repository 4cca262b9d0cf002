"""Lemmas D.3/D.4 reading (derivations/inductionheads/model/gauss.py, claims/appd_lemmas.py): derivations and planted twins."""
from __future__ import annotations

import numpy as np
import sympy as sp

from derivations.inductionheads.claims import appd_lemmas as CG
from derivations.inductionheads.model import gauss as G
from theoryverify.claims import RunContext
from theoryverify.verdicts import Status

CTX = RunContext(seed=11)


def test_moment_rule_matches_known_moments():
    # E x^2 = 1, E x^4 = 3 (A = B = 0); E x e^{Bx} = B e^{B^2/2}
    x = sp.Symbol("xx", real=True)
    B = sp.Symbol("BB", real=True)
    assert sp.simplify(G.expect(x ** 2, x) - 1) == 0
    assert sp.simplify(G.expect(x ** 4, x) - 3) == 0
    assert sp.simplify(G.expect(x * sp.exp(B * x), x) - B * sp.exp(B ** 2 / 2)) == 0


def test_conditions_collected_for_quadratic_exponent():
    x = sp.Symbol("xx", real=True)
    a = sp.Symbol("aa", real=True)
    conds: list = []
    G.expect(sp.exp(a * x ** 2), x, conds)
    assert conds == [sp.expand(1 - 2 * a) > 0]


def test_base_integral_by_completing_square_equals_direct_integrate():
    assert sp.simplify(G._base_mgf() - G.base_mgf_by_integrate()) == 0


def test_d4_domain_and_divergence():
    assert G.d4_domain() == sp.Interval.open(-1, 1)
    assert G.divergent_when_not_positive()


def test_claim_holds():
    assert CG.check_gauss(CTX, n_mc=50_000).status in (Status.PROVED, Status.HOLDS)


def _planted(name, expr):
    stated = dict(CG.STATED)
    stated[name] = expr
    v = CG.check_gauss(CTX, stated=stated, n_mc=50_000)
    assert v.status is Status.REFUTED and v.counterexample
    return v


def test_planted_wrong_exponent_d4_refuted():
    _planted("D.4", (1 - G.c ** 2) ** -1)


def test_planted_wrong_constant_d4_refuted():
    _planted("D.4", (1 - 2 * G.c ** 2) ** sp.Rational(-1, 2))


def test_planted_wrong_constant_d3_refuted():
    _planted("D.3(i)", sp.exp(G.b ** 2))


def test_planted_wrong_d4_hypothesis_refuted():
    v = CG.check_gauss(CTX, stated_d4_domain=sp.Interval.open(-sp.Rational(1, 2), sp.Rational(1, 2)), n_mc=20_000)
    assert v.status is Status.REFUTED and v.counterexample["part"] == "D.4 hypothesis"


def test_mc_alone_rejects_wrong_exponent():
    rng = np.random.default_rng(0)
    est, se = G.mc_bilinear(0.4, 200_000, rng)
    ok = G.mc_verdict("D.4", est, se, float(G.bilinear_mgf(0.4)), 0.01, 200_000)
    bad = G.mc_verdict("D.4 planted", est, se, 1 / (1 - 0.16), 0.01, 200_000)
    assert ok.status is Status.HOLDS and bad.status is Status.REFUTED
