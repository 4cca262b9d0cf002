"""A combined verdict is only as strong as its weakest needed part: a part that ranges over a declared parameter by
itself (a search, a sweep) must cover the declared range on its own, so a proved sibling never masks an
undersampled one (heavy ball's C2: the matrix part proved, the moduli part sampling 42% of the range of L)."""
from __future__ import annotations

import theoryverify as tv

L_RANGE = tv.Over("L", 1e-3, 1e5, scale="log")


def _sampled(lo, hi):
    """A pass of a search over L that recorded its coverage of L."""
    return tv.holds("float64 search", "agrees", coverage={"L": {"min": lo, "max": hi, "distinct": 40}})


def _run(check):
    claims = tv.ClaimSet("p")
    claims.add("c", location="Prop. 1", statement="for all L", kind=tv.Kind.IDENTITY, over=(L_RANGE,))(check)
    return claims.claims[0].run(tv.RunContext(seed=0)).verdict


def _proof():
    return tv.proved("symbolic: expand", "simplifies to 0", coverage={"L": "symbolic"})


def test_a_proved_part_does_not_mask_an_undersampled_part():  # the planted error: a narrow search
    v = _run(lambda ctx: tv.combine({"matrix": _proof(), "moduli": _sampled(39.0, 90332.9)}))
    assert v.status is tv.Status.INCONCLUSIVE, v
    assert "[moduli] L values [39, 90332.9] cover" in v.evidence, v.evidence
    assert v.details["quantifiers"]["weakest_part"]["part"] == "moduli"


def test_every_part_covering_the_range_holds():  # the true claim: each ranged part covers the range
    v = _run(lambda ctx: tv.combine({"matrix": _proof(), "moduli": _sampled(2e-3, 5e4)}))
    assert v.status is tv.Status.HOLDS, v


def test_settings_of_a_loop_are_pooled():  # one value per part: the loop's values together cover the range
    parts = {f"L={x:g}": tv.with_fixed(tv.holds("exact", "ok"), L=x) for x in (1e-3, 1.0, 1e2, 1e5)}
    assert _run(lambda ctx: tv.combine(parts)).status is tv.Status.HOLDS
    one = {"L=1": tv.with_fixed(tv.holds("exact", "ok"), L=1.0)}
    assert _run(lambda ctx: tv.combine(one)).status is tv.Status.INCONCLUSIVE
