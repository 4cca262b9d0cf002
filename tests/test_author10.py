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


def _eq_rate():
    """v ~ σ²η/(2h), as ``new-paper --from-tex`` drafts a ``\\sim`` display (author 10's printed eq_rate)."""
    return (sp.Symbol("v"), "\\sim", eta * sp.Symbol("sigma")**2 / (2 * h))


def test_d6_the_right_side_of_a_drafted_sim_display_is_the_law_a_rate_claim_tests():
    """``tv.printed(eq_rate).rhs`` raised "ValueError: … neither a relation nor a pair (lhs, rhs): tuple" inside
    check_rate_over; it is the asymptotic display's right side."""
    law = tv.printed(_eq_rate).rhs
    over = tv.Over("eta", 5e-4, 5e-2, scale="log")
    measure = lambda c: c["eta"] * c["sigma"] ** 2 / (2 * c["h"])  # noqa: E731 - the law itself, measured exactly
    v = tv.check_rate_over(over, measure, "printed", 0.1, 0, law, fixed={"sigma": 1.0, "h": 2.0},
                           held=["sigma", "h"], constant="printed")
    assert v.status is tv.Status.HOLDS, v.evidence
    assert tv.printed(_eq_rate).lhs() == sp.Symbol("v")


def test_d6_sides_of_a_display_without_sides_are_a_one_line_theoryverify_error():
    """The guard: a display returning one expression has no ``.rhs``: a TheoryverifyError naming the display."""
    import pytest

    def eq_one(eta):
        return eta / 2
    with pytest.raises(tv.TheoryverifyError) as info:
        tv.printed(eq_one).rhs({"eta": 1})
    assert "eq_one" in str(info.value) and "\n" not in str(info.value)


def test_d2_the_referee_reports_id_scrub_keeps_the_papers_file_names():
    """``review --paper sgdvar`` printed "another check:31" for the location ``sgdvar.tex:31`` (the scrub took
    ``sgdvar.tex`` for a claim id of paper sgdvar); a real id is still scrubbed (the guard)."""
    from theoryverify.report.review import without_ids

    text = "sgdvar.tex:31: 1 - (1 - \\eta h)^2 = \\eta h(2 + \\eta h) — as sgdvar.lem-sandwich shows; see sgdvar.tex"
    out = without_ids(text, "sgdvar", frozenset({"lem-sandwich"}))
    assert out.startswith("sgdvar.tex:31: 1 - ") and out.endswith("see sgdvar.tex"), out
    assert "lem-sandwich" not in out and "as another check shows" in out


STABLE = ["0.1 <= h <= 10", "0.1 <= sigma <= 10", "0 < eta <= 1/h"]


def test_d11_two_minus_eta_h_at_least_one_under_eta_h_at_most_one_is_proved():
    """Link 2 of the sandwich, ησ²/(h(2 − ηh)) ≤ ησ²/h for 0 < η ≤ 1/h, held only (sampled): it needs η > 0 and
    ηh ≤ 1 at once, which the rewriting η = (1/h)/(1 + s) gives."""
    D = tv.Domain.assuming([eta, h, s], STABLE)
    v = tv.check_inequality(eta * s**2 / (h * (2 - eta * h)), "<=", eta * s**2 / h, D, 0)
    assert v.status is tv.Status.PROVED, v.evidence


def test_d11_the_planted_sandwich_link_is_still_refuted():
    """The guard: the author's planted twin, v ≤ 3ησ²/(4h), is refuted (no sign analysis proves a false link)."""
    D = tv.Domain.assuming([eta, h, s], STABLE)
    v = tv.check_inequality(eta * s**2 / (h * (2 - eta * h)), "<=", 3 * eta * s**2 / (4 * h), D, 0)
    assert v.status is tv.Status.REFUTED, v.evidence


def test_d11_domain_descriptions_name_every_symbol_and_interval():
    """"eta drawn after , within the bound" (a bound naming no other symbol) and "own bounds eta ∈ (log-uniformly …"
    (the interval cut at its own parenthesis) are whole again."""
    from theoryverify.check.assume import free_with_assumptions

    text = "; ".join(v.describe() for v in free_with_assumptions(["0 < eta*h < 2", "h > 0"]).variables)
    assert "drawn after ," not in text and "eta > 0 (eta drawn within the bound" in text, text
    text = tv.Domain.assuming([eta, h, s], STABLE).describe()
    assert "own bounds eta ∈ (0, ∞)" in text, text
