"""Declared ranges generate the settings: ``tv.check_over`` checks a claim at the corners, a sweep of each parameter
and seeded draws of its declared ``over=`` ranges, records them as the evidence's configurations, and the quantifier
rule accepts that evidence (no hand-written loop); a planted false statement is refuted at a generated setting."""
from __future__ import annotations

import pytest
import sympy as sp

import theoryverify as tv

OVER = (tv.Over("N", 1, 1000, scale="log", integer=True), tv.Over("d", 1, 64, integer=True))
N, d = sp.symbols("N d", positive=True)


def _at(setting, lhs, op, rhs):
    """A sign check at one setting (exact)."""
    value = sp.nsimplify((rhs - lhs) if op == "<=" else (lhs - rhs)).subs({N: setting["N"], d: setting["d"]})
    if value >= 0:
        return tv.proved("exact", f"{value} >= 0")
    return tv.refuted("exact", f"slack {value} < 0", dict(setting))


def _claim(check):
    claims = tv.ClaimSet("p")
    claims.add("c", location="Thm 1", statement="for all N, d", kind=tv.Kind.INEQUALITY, over=OVER)(check)
    return claims.claims[0]


def test_generated_settings_satisfy_the_quantifier_rule():
    true = _claim(lambda ctx: tv.check_over(OVER, lambda s: _at(s, d / (N + d), "<=", 1), ctx.seed))
    v = true.run(tv.RunContext(seed=0)).verdict
    assert v.status is tv.Status.PROVED, v
    configs = v.details["configurations"]
    assert {c["N"] for c in configs} >= {1, 1000} and {c["d"] for c in configs} >= {1, 64}
    assert tv.settings(OVER, 0) == tv.settings(OVER, 0) and tv.settings(OVER, 0) != tv.settings(OVER, 1)


def test_a_planted_false_statement_is_refuted_at_a_generated_setting():
    false = _claim(lambda ctx: tv.check_over(OVER, lambda s: _at(s, d / N, "<=", 1), ctx.seed))  # false: d > N
    v = false.run(tv.RunContext(seed=0)).verdict
    assert v.status is tv.Status.REFUTED and v.counterexample["part"].startswith("N=1, d=64"), v


def test_one_setting_is_not_enough():
    single = _claim(lambda ctx: tv.with_fixed(_at({"N": 10, "d": 2}, d / (N + d), "<=", 1), N=10, d=2))
    assert single.run(tv.RunContext(seed=0)).verdict.status is tv.Status.INCONCLUSIVE


def test_check_over_passes_the_seed_to_a_check_that_takes_it():
    """Issue 29, author 5, defect 9: every check_over call was wrapped in a lambda to hand the callback its seed."""
    import theoryverify as tv
    over = [tv.Over("N", 1, 100, scale="log", integer=True)]
    got = []

    def seeded(setting, seed):
        got.append(seed)
        return tv.holds("exact", "ok")

    def keyword_only(setting, *, seed=None, **kw):
        got.append(("kw", seed))
        return tv.holds("exact", "ok")

    assert tv.check_over(over, seeded, seed=11, n=2, draws=0).status is tv.Status.HOLDS and set(got) == {11}
    got.clear()
    tv.check_over(over, keyword_only, seed=5, n=2, draws=0)
    assert set(got) == {("kw", 5)}
    got.clear()
    tv.check_over(over, lambda s: got.append(s) or tv.holds("exact", "ok"), seed=5, n=2, draws=0)  # as before
    assert got and all(isinstance(s, dict) for s in got)


def test_check_over_stops_at_the_first_refuted_setting():
    """Held-out author 6, defect 3: every remaining setting was run (and its refutation shrunk) after the first."""
    ran = []

    def check(s):
        ran.append(s)
        return _at(s, d / N, "<=", 1)  # false wherever d > N: at the second corner (N=1, d=64)

    v = tv.check_over(OVER, check, seed=0)
    points = tv.settings(OVER, 0)
    assert v.status is tv.Status.REFUTED and len(ran) == 2 < len(points)
    assert v.details["configurations"] == ran and v.details["settings_not_run"] == points[2:]
    assert "stopped at the first refuted one (2 of" in v.method


def test_a_dependent_range_n_from_d_to_4d():
    """Held-out author 6, defect 6: "n ∈ {d..4d}" could not be declared (only independent boxes): an end may be an
    expression in the other declared parameters; every setting lies inside it, and the quantifier rule measures n
    against its extent over d (2..32)."""
    D, Nd = tv.Over("d", 2, 8, integer=True), tv.Over("n", lo="d", hi="4*d", integer=True)
    points = tv.settings([D, Nd], 0)
    assert all(p["d"] <= p["n"] <= 4 * p["d"] for p in points)
    assert {(2, 2), (2, 8), (8, 8), (8, 32)} <= {(p["d"], p["n"]) for p in points}  # the corners of the relation
    assert Nd.label() == "n ∈ [d, 4*d] (integers)" and Nd.depends_on == ("d",)
    nn, dd = sp.symbols("n d", positive=True)
    claims = tv.ClaimSet("p")
    claims.add("c", location="Thm 1", statement="d/n <= 1 for n in d..4d", kind=tv.Kind.INEQUALITY, over=(D, Nd))(
        lambda ctx: tv.check_over([D, Nd], lambda s: tv.proved("exact", "d <= n") if s["d"] <= s["n"]
                                  else tv.refuted("exact", "d > n", s), ctx.seed))
    v = claims.claims[0].run(tv.RunContext(seed=0)).verdict
    assert v.status is tv.Status.PROVED, v
    for bad in ("__import__('os')", "d.real", "m + 1"):
        with pytest.raises(ValueError):
            tv.settings([D, tv.Over("n", "d", bad)], 0)


def test_errors_at_other_settings_are_listed_beside_a_refutation():
    """Held-out author 8, defect 6: in a claim checked over several settings, a setting whose check raised (or
    returned an error) was hidden behind another setting's refutation — the exception ended the whole check, or the
    evidence named the refutation only.  The refutation stays the verdict; every error is in its evidence."""
    def check(s):
        if s["N"] == 1 and s["d"] == 1:
            raise ValueError("no step size below 2/L here")  # the first corner: a broken setting
        if s["N"] == 1 and s["d"] == 64:
            return tv.error("model", "did not converge")  # the second corner: an error verdict
        return _at(s, d / N, "<=", 1)  # false wherever d > N: first at the sweep's N=1, d=32

    v = _claim(lambda ctx: tv.check_over(OVER, check, ctx.seed)).run(tv.RunContext(seed=0)).verdict
    assert v.status is tv.Status.REFUTED, v
    assert v.details["errors"] == {"N=1, d=1": "ValueError: no step size below 2/L here",
                                   "N=1, d=64": "did not converge"}
    assert "ValueError: no step size below 2/L here" in v.evidence and "did not converge" in v.evidence
    assert v.counterexample["part"] == "N=1, d=32" and v.evidence.startswith("[N=1, d=32]")  # refutation first
    only_errors = tv.check_over(OVER, lambda s: check(s) if s["N"] == s["d"] == 1 or s["d"] == 64 == 64 * s["N"]
                                else tv.holds("exact", "ok"), seed=0)
    assert only_errors.status is tv.Status.ERROR and len(only_errors.details["errors"]) == 2
    assert "did not converge" in only_errors.evidence and "ValueError" in only_errors.evidence  # both, not the first
    same = tv.check_over(OVER, lambda s: 1 / 0 if s["N"] == 1 else tv.holds("exact", "ok"), seed=0)
    assert same.evidence.count("ZeroDivisionError") == 2  # the first error, then the others' once, with their settings
    assert "[N=1, d=64 | N=1, d=32 | N=1, d=2] ZeroDivisionError" in same.evidence, same.evidence
    assert "ZeroDivisionError" in same.details["traceback"]  # what verify --debug and a failing pytest item show
