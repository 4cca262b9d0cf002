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
