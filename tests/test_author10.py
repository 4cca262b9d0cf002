"""Held-out author 10's defects (issue 29; SGD stationary variance, /work/notes/author10.md) outside the tex reader:
D1 — a true inequality on ``Domain.assuming`` with a relation bound (0 < η ≤ 1/h) checked with ``over=D.over()``
was *inconclusive* at some seeds by the engine's own quantifier rule (η drawn log-uniformly inside (0, 1/h] rarely
reaches η ≈ 10 at h = 0.1, and the boundary points, η = 1/h at h = 0.1 among them, were not counted), and the
message could read "cover 50% … (< 50%)"."""
from __future__ import annotations

import sympy as sp

import theoryverify as tv
from theoryverify.conditions import Over
from theoryverify.standards import Standards, _covers

eta, h, s = sp.symbols("eta h sigma")


def _claimset(domain, over, n_float):
    claims = tv.ClaimSet("demo")

    @claims.add("c", location="x", statement="ησ²/(h(2 − ηh)) ≤ ησ²/h for 0 < ηh ≤ 1", kind=tv.Kind.INEQUALITY,
                over=over)
    def c(ctx):
        return tv.check_inequality(eta * s**2 / (h * (2 - eta * h)), "<=", eta * s**2 / h, domain, ctx.seed,
                                   n_float=n_float, prove=False)
    return claims.claims[0]


def test_d1_a_domains_own_draws_meet_its_own_coverage_rule_at_every_seed():
    """Author 10's reproducer (repro/d1b.py, n_float=60): seeds 5, 6, 7 were inconclusive ("eta values [0.0151,
    4.96] cover 49% of the admissible range"); the boundary points the check evaluates count towards coverage."""
    domain = tv.Domain.assuming([eta, h, s], ["0.1 <= h <= 10", "0.1 <= sigma <= 10", "0 < eta <= 1/h"])
    claim = _claimset(domain, domain.over(), 60)
    for seed in range(8):
        v = claim.run(tv.RunContext(seed=seed)).verdict
        assert v.status is tv.Status.HOLDS, (seed, v.evidence)


def test_d1_a_check_on_a_small_part_of_the_declared_range_stays_inconclusive():
    """The guard: a check whose domain reaches only η ≤ 1 (h ≥ 1) while the claim declares η ∈ [0, 10] covers
    10% of it, boundary points included — still inconclusive."""
    wide = tv.Domain.assuming([eta, h, s], ["0.1 <= h <= 10", "0.1 <= sigma <= 10", "0 < eta <= 1/h"])
    narrow = tv.Domain.assuming([eta, h, s], ["1 <= h <= 10", "0.1 <= sigma <= 10", "0 < eta <= 1/h"])
    v = _claimset(narrow, wide.over(), 60).run(tv.RunContext(seed=0)).verdict
    assert v.status is tv.Status.INCONCLUSIVE
    assert "eta values" in v.evidence and "of the admissible range (< 50%)" in v.evidence


def test_d1_coverage_just_under_the_threshold_is_not_printed_as_the_threshold():
    """0.4987 of the range was printed "cover 50% … (< 50%)": the share shown is rounded down."""
    why = _covers({"min": 0.0, "max": 4.987, "distinct": 40}, Over("eta", 0, 10), Standards())
    assert why is not None and "cover 49% of the admissible range (< 50%)" in why
