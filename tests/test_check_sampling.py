"""The step checker's Monte-Carlo fallback (theoryverify.check.sampling) for expectations over several continuous
variables: never "proved", reproducible byte for byte, a refutation only when an independent replication and the
median of means agree and the tails are light; a heavy-tailed true identity is never refuted."""
from __future__ import annotations

import json

import numpy as np
import pytest
import sympy as sp
from numpy.polynomial.hermite_e import hermegauss

from theoryverify.check import check
from theoryverify.check import sampling
from theoryverify.check.expectation import RandomVariable, expectation
from theoryverify.verdicts import Status

A = ["W ~ Normal(0, 1)", "X ~ Normal(0, 1)", "U ~ Uniform(0, 2*pi)"]


def _reference() -> float:
    """E tanh(WX + 1)² by a 120×120 Gauss–Hermite rule (accurate far below the Monte-Carlo error)."""
    x, w = hermegauss(120)
    w = w / w.sum()
    return float(np.sum(w[:, None] * w[None, :] * np.tanh(x[:, None] * x[None, :] + 1) ** 2))


REF = _reference()


def test_true_joint_expectation_holds_as_evidence_never_proved():
    v = check(f"E(tanh(W*X + 1)**2) == {REF!r}", assume=A)
    assert v.status is Status.HOLDS, v.line()
    assert "Monte Carlo" in v.verdict.method and "no proof" in v.verdict.evidence
    assert "n = 262144 per stream × 2 independent streams" in v.verdict.evidence
    assert v.verdict.details["z_threshold"] > 3


def test_two_percent_bias_is_refuted_with_replication():
    v = check(f"E(tanh(W*X + 1)**2) == {1.02 * REF!r}", assume=A)
    assert v.status is Status.REFUTED, v.line()
    ce = v.counterexample
    assert abs(ce["z_A"]) > ce["z_threshold"] and abs(ce["z_B"]) > ce["z_threshold"] and ce["n"] == sampling.SAMPLES
    assert "replicated" in v.verdict.method and "kurtosis" in v.verdict.evidence


@pytest.mark.parametrize("statement,status", [
    ("E(cos(W*X + U)**2) == 1/2", Status.HOLDS),
    ("E(cos(W*X + U)**2) == 0.51", Status.REFUTED),
    ("E(tanh(W*X + 1)**2) <= 0.6", Status.HOLDS),
    (f"E(tanh(W*X + 1)**2) <= {REF!r}", Status.INCONCLUSIVE),  # at the edge: sampling cannot decide
    ("E(tanh(W*X + 1)**2) >= 0.6", Status.REFUTED),
])
def test_uniform_phase_and_inequalities(statement, status):
    v = check(statement, assume=A)
    assert v.status is status, v.line()


def test_reproducible_byte_for_byte():
    st = f"E(tanh(W*X + 1)**2) == {REF!r}"
    a = json.dumps(check(st, assume=A, seed=5).to_json()["evidence"])
    sampling.SAMPLED.clear()
    b = json.dumps(check(st, assume=A, seed=5).to_json()["evidence"])
    assert a == b


@pytest.mark.parametrize("statement,why", [
    ("E(tanh(W*X + b)**2) <= 1", ""),  # b is no number: nothing to sample (no closed form, or over time)
    ("E(tanh(W*X + 1)**2)**2 == 1/3", "non-linearly"),
])
def test_other_free_symbols_or_nonlinear_use_are_inconclusive(statement, why):
    v = check(statement, assume=A)
    assert v.status is Status.INCONCLUSIVE and why in v.verdict.evidence, v.line()


# --- a heavy-tailed true identity: exp(2W) is lognormal(0, 2) (kurtosis ≈ 9e6); tanh² + sech² = 1 ------------

W_, X_ = sp.Symbol("_W", real=True), sp.Symbol("_X", real=True)
RVS = {W_: RandomVariable("W", W_, "Normal", (sp.Integer(0), sp.Integer(1))),
       X_: RandomVariable("X", X_, "Normal", (sp.Integer(0), sp.Integer(1)))}
HEAVY = sp.exp(2 * W_) * (sp.tanh(X_ + W_) ** 2 + 1 / sp.cosh(X_ + W_) ** 2)


@pytest.mark.parametrize("seed", range(20))
def test_heavy_tailed_true_identity_is_never_refuted(seed):
    sampling.SAMPLED.clear()
    mark = expectation(HEAVY, RVS)
    v = sampling.decide(mark, "==", sp.exp(2), list(sampling.SAMPLED), seed)
    assert v.status is not Status.REFUTED, v.evidence
    assert v.status is not Status.PROVED


def test_heavy_tails_block_even_a_wrong_claim():
    sampling.SAMPLED.clear()
    mark = expectation(HEAVY, RVS)
    v = sampling.decide(mark, "==", sp.Rational(102, 100) * sp.exp(2), list(sampling.SAMPLED), 1)
    assert v.status is Status.INCONCLUSIVE and "kurtosis" in v.evidence


def test_a_lone_stream_rejection_is_not_a_refutation(monkeypatch):
    """Stream A alone rejecting (the replication agreeing with the claim) gives no refutation."""
    sampling.SAMPLED.clear()
    mark = expectation(sp.tanh(W_ * X_ + 1) ** 2, RVS)
    real = sampling._rejects
    calls = []

    def first_only(z, z_star, side):
        calls.append(z)
        return len(calls) == 1 or real(z, z_star, side)
    monkeypatch.setattr(sampling, "_rejects", first_only)
    v = sampling.decide(mark, "==", sp.Float(REF), list(sampling.SAMPLED), 3)
    assert v.status is Status.INCONCLUSIVE and "replication" in v.evidence
