"""``planted=tv.Planted(...)``: a planted twin declared in one line shares its claim's check (issue 29, defect 5).

Each twin is a claim of its own (id ``<id>-planted``, expected refuted, with its finding class and reason); the
twin whose changed input changes nothing is *not* refuted, so the mechanism can fail; a changed input the check
does not take, or a twin with no changed input, is a one-line registration error."""
from __future__ import annotations

import pytest
import sympy as sp

import theoryverify as tv
from theoryverify.findings import RegistrationError

x = sp.Symbol("x")
DOMAIN = tv.Domain([tv.Interval(x, -2, 2)])


def _claims(*twins, **kwargs):
    claims = tv.ClaimSet("twins")

    @claims.add("eq1", location="Eq. (1)", statement="(x+1)^2 = x^2 + 2x + 1", kind=tv.Kind.IDENTITY,
                planted=list(twins), **kwargs)
    def eq1(ctx, rhs=x**2 + 2 * x + 1, scale=1):
        return tv.check_identity(scale * (x + 1)**2, scale * rhs, DOMAIN, ctx.seed)
    return claims


def test_twin_is_a_claim_of_its_own_expected_refuted_and_refuted():
    claims = _claims(tv.Planted("(x+1)^2 = x^2 + 1", tv.Finding.TYPO, "planted: no cross term", rhs=x**2 + 1),
                     tv.Planted("(x+1)^2 = x^2 + 3x + 1", "erratum", "planted: 3x", id="eq1-3x", location="Eq. 1'",
                                rhs=x**2 + 3 * x + 1),
                     over=(tv.Over("x", -2, 2),))
    base, first, second = claims.claims
    assert [c.id for c in claims] == ["twins.eq1", "twins.eq1-planted", "twins.eq1-3x"]
    assert (first.location, second.location) == ("Eq. (1), PLANTED", "Eq. 1'")
    assert (first.finding, second.finding) == (tv.Finding.TYPO, tv.Finding.ERRATUM)
    assert first.expect is tv.Status.REFUTED and base.expect is None and first.over == base.over
    assert first.source == base.source and first.module == base.module and first.statement == "(x+1)^2 = x^2 + 1"
    results = [c.run(tv.RunContext(seed=3)) for c in claims]
    assert [r.verdict.status.value for r in results] == ["proved", "refuted", "refuted"]
    assert all(r.as_expected for r in results)
    assert results[1].verdict.counterexample


def test_a_twin_that_changes_nothing_is_not_refuted_and_is_reported_unexpected():
    claims = _claims(tv.Planted("(x+1)^2 = x^2 + 2x + 1, doubled", "typo", "planted: a harmless scale", scale=2))
    result = claims.claims[1].run(tv.RunContext(seed=0))
    assert result.verdict.status is tv.Status.PROVED and not result.as_expected


@pytest.mark.parametrize("twin, message", [
    (tv.Planted("s", "typo", "r", display=1), "takes no keyword argument display"),
    (tv.Planted("s", "typo", "r"), "needs at least one changed input"),
    (tv.Planted("s", "typo", "", rhs=x), "needs a one-line reason"),
])
def test_bad_twin_is_a_one_line_registration_error(twin, message):
    with pytest.raises(RegistrationError, match=message) as info:
        _claims(twin)
    assert "\n" not in str(info.value)


def test_planted_takes_only_planted_twins():
    with pytest.raises(RegistrationError, match="planted= takes tv.Planted"):
        _claims("eq1-planted")


def _report_rows():
    """A paper with one real erratum and two planted twins of a passing claim, as the report reads them."""
    claims = _claims(tv.Planted("(x+1)^2 = x^2 + 1", "erratum", "planted: no cross term", rhs=x**2 + 1),
                     tv.Planted("(x+1)^2 = x^2 + 3x + 1", "typo", "planted: 3x", id="eq1-3x", rhs=x**2 + 3 * x + 1))

    @claims.add("eq2", location="Theorem 2", statement="x^2 = x", kind=tv.Kind.IDENTITY,
                expect=tv.Status.REFUTED, finding=tv.Finding.ERRATUM, reason="the paper's slip")
    def eq2(ctx):
        return tv.check_identity(x**2, x, DOMAIN, ctx.seed)
    return [c.run(tv.RunContext(seed=3)) for c in claims]


def test_planted_twins_are_not_findings_anywhere_in_the_report_and_are_listed_apart():
    """Issue 29, author 5, defect 6: the page counted two planted twins as errata (F1, F2 above the real one)."""
    from theoryverify import render
    from theoryverify.report import cards, html, page, review

    results = _report_rows()
    rows = [r.to_json() for r in results]
    assert [r.get("planted_of") for r in rows] == [None, "twins.eq1", "twins.eq1", None]
    assert "planted_of" not in rows[0]  # a paper without twins has unchanged rows
    made = cards.cards(rows)
    assert [c.id for c in made] == ["twins.eq2", "twins.eq1"]
    assert cards.finding_counts(made) == {"erratum": 1}
    run = {"seed": 3, "command": "c", "profile": "quick", "commit": "x", "generated": "now",
           "device_info": {"name": "cpu", "device": "cpu"}, "versions": {}}
    md = page.paper_page({"id": "twins", "title": "T", "file": "t.tex", "spec": "s.md"}, run, rows)
    summary = md.split("## Findings")[0]
    assert "1 [erratum]" in summary and "typo" not in summary and "PLANTED" not in summary
    assert "**F1** [Theorem 2]" in summary and "**F2**" not in md
    assert "**Planted errors** (the checks' proof that they can fail; not findings): 2 of 2 caught" in summary
    assert "## Planted errors (2 of 2 caught)" in md and "`twins.eq1-3x`" in md.split("## Planted errors")[1]
    assert "**2 distinct claims**: 1 [proved]" in md  # no "profile twins merged" for the planted rows
    assert "Planted errors (not findings): 2 of 2 caught" in html.paper_html(
        {"id": "twins", "title": "T", "file": "t.tex"}, run, rows)
    assert [c.id for c in review.findings(rows)] == ["twins.eq2"]
    line = render.summary(results)
    assert "2 claims and 2 planted twins" in line and "erratum: 1;" in line and "typo" not in line
    assert "planted errors: 2 of 2 caught" in line


def test_a_planted_twin_that_is_not_refuted_is_said_not_caught():
    from theoryverify.report import cards

    results = _report_rows()
    rows = [r.to_json() for r in results]
    rows[2] = dict(rows[2], status="proved", as_expected=False)
    assert cards.planted_line(cards.planted_errors(rows)) == "planted errors: 1 of 2 caught (not caught: twins.eq1-3x)"


def test_the_summary_of_planted_twins_alone_has_no_empty_claim_counts():
    """Held-out author 6, defect 8: ``verify --claim X-planted`` printed "0 claims and 1 planted twins — ; …"."""
    from theoryverify import render

    results = _report_rows()
    twins = [r for r in results if r.claim.planted_of]
    line = render.summary(twins[:1])
    assert line.startswith("1 planted twin — planted errors: 1 of 1 caught"), line
    assert "0 claims" not in line and "— ;" not in line
