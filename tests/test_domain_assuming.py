"""``tv.Domain.assuming``: bounds that depend on other variables (η ≤ 1/L, μ ≤ λ ≤ L), drawn by the engine inside
the relations, counterexamples in the paper's own symbols (issue 29, defect 3).  Planted: the step bound 2/L in
place of 1/L is refuted at a point that satisfies every relation."""
from __future__ import annotations

import re

import pytest
import sympy as sp

import theoryverify as tv
from theoryverify.domains import DomainError

L, mu, lam, eta = sp.symbols("L mu lambda eta", positive=True)
NAMES = {"L": L, "mu": mu, "lam": lam, "eta": eta}
CHAIN = ["0.01 <= L <= 100", "L/10000 <= mu", "0 < mu <= lam", "lam <= L"]
LHS, RHS = sp.Abs(1 - eta * lam), 1 - eta * mu


def domain(bound):
    return tv.Domain.assuming(NAMES, CHAIN + [f"0 < eta <= {bound}"])


def test_the_contraction_lemma_holds_on_its_hypotheses():
    v = tv.check_inequality(LHS, "<=", RHS, domain("1/L"), seed=1)
    assert v.status in (tv.Status.PROVED, tv.Status.HOLDS), v


def test_a_planted_step_bound_is_refuted_inside_the_relations_in_the_papers_symbols():
    v = tv.check_inequality(LHS, "<=", RHS, domain("2/L"), seed=1)
    assert v.status is tv.Status.REFUTED, v
    ce = {k: sp.Rational(v.counterexample[k]) for k in ("L", "mu", "lambda", "eta")}
    assert sp.Rational(1, 100) <= ce["L"] <= 100 and ce["L"] / 10000 <= ce["mu"] <= ce["lambda"] <= ce["L"]
    assert 0 < ce["eta"] <= 2 / ce["L"]
    again = tv.check_inequality(LHS, "<=", RHS, domain("2/L"), seed=1)
    assert again.counterexample == v.counterexample


@pytest.mark.parametrize("symbols, assumptions, message", [
    ([L], ["L <= eta"], "the assumptions name eta, which is not among the symbols"),
    ([L, eta], ["L**2 + eta**2 <= 1"], "Domain.assuming: cannot use assumption"),
    ([L, eta], ["L <= eta", "eta <= L"], "these relations form a cycle"),
    ([L], ["W: matrix(2, 2)"], "real symbols only"),
    ([L, eta], ["0 < L < 1", "eta <= L/2", "L < eta"], "leave no point the engine can draw"),  # contradictory
])
def test_bad_assumptions_are_one_line_domain_errors(symbols, assumptions, message):
    with pytest.raises(DomainError, match=message) as info:
        tv.Domain.assuming(symbols, assumptions)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("spelling", ["eta <= 1/L", "L <= 1/eta", "1/eta >= L", "eta*L <= 1"])
def test_a_relation_bounds_the_name_without_a_range_of_its_own_whatever_the_spelling(spelling):
    """L ∈ [0.01, 100], eta > 0 and one relation between them: eta is the dependent name, drawn after L inside
    (0, 1/L], however the relation is written — 'L <= 1/eta' once drew eta first from (0, ∞), so every eta above
    100 left L no value and L reached its upper decade only when eta was below 1/100."""
    import random

    d = tv.Domain.assuming([L, eta], ["0.01 <= L <= 100", "0 < eta", spelling])
    group = d.variables[0]
    assert [str(group.symbols[i]) for i in group.order] == ["L", "eta"]
    assert "eta drawn after L" in d.describe()
    rnd = random.Random(7)
    points = [d.rationals(rnd) for _ in range(60)]
    assert all(p[L] * p[eta] <= 1 for p in points) and max(p[L] for p in points) >= 10
    assert tv.check_inequality(eta * L, "<=", 1, d, seed=0).status is tv.Status.PROVED


def _run_over(dom, check):
    claims = tv.ClaimSet("demo")
    claims.add("c", location="Prop. 1", statement="on the declared ranges", kind=tv.Kind.INEQUALITY,
               over=dom.over())(lambda ctx: check(ctx))
    return list(claims)[0].run(tv.RunContext(seed=0)).verdict


def test_a_proof_on_an_assuming_domain_covers_its_declared_ranges():
    """Issue 29, author 9, D2: ``over=DOM.over()`` (the README's pattern) with a check_inequality that proves the
    inequality on ``DOM`` was an error ("the evidence records no value of it"); the proof covers the ranges
    DOM.over() declares (a derived quantity's too), so the claim is proved; a proof on a narrower domain is still
    caught by the quantifier rule; a claim with no evidence of its names says so in one grammatical line."""
    a, b = sp.symbols("a b")
    dom = tv.Domain.assuming([a, b], ["0.1 <= a <= 10", "0.1 <= b <= 10"], derived={"ratio": a / b})
    v = _run_over(dom, lambda ctx: tv.check_inequality(a / (a + b), "<=", 1, dom, ctx.seed))
    assert v.status is tv.Status.PROVED, v.evidence
    assert "covers a ∈ [0.1, 10]" in v.evidence and "ratio" in v.evidence
    narrow = tv.Domain.assuming([a, b], ["0.1 <= a <= 0.2", "0.1 <= b <= 10"])
    wide = tv.Domain.assuming([a, b], ["0.1 <= a <= 10", "0.1 <= b <= 10"])
    v = _run_over(wide, lambda ctx: tv.check_inequality(a / (a + b), "<=", 1, narrow, ctx.seed))
    assert v.status is tv.Status.INCONCLUSIVE and "cover" in v.evidence, v.evidence
    v = _run_over(dom, lambda ctx: tv.holds("by hand", "no values recorded"))
    assert v.status is tv.Status.ERROR and "records no value of them (record each:" in v.evidence, v.evidence


def test_integer_symbols_and_relations_between_them():
    """Issue 29, author 9, D4: ``"d: integer"`` and ``d <= n <= 10000`` were refused ("declares real symbols only",
    "order relations are between real variables"); now d is an integer range, n an integer drawn after d inside
    {d, …, 10000}, both typed integer ranges in ``over()``; the optimal-risk inequality is proved on it, its planted
    twin (s² on the right) refuted at integers printed as integers ("d = 1", not "d = 1.0")."""
    import random

    d, n, r, s, sigma = sp.symbols("d n r s sigma")
    dom = tv.Domain.assuming([d, n, r, s, sigma], ["d: integer", "n: integer", "1 <= d <= 50", "d <= n <= 10000",
                                                   "0.1 <= r <= 10", "0.1 <= s <= 10", "0.1 <= sigma <= 10"])
    rnd = random.Random(3)
    for _ in range(40):
        p = dom.rationals(rnd)
        assert p[d].is_Integer and p[n].is_Integer and 1 <= p[d] <= p[n] <= 10000 and p[d] <= 50
    over = {o.name: o for o in dom.over()}
    assert (over["d"].lo, over["d"].hi, over["d"].integer) == (1, 50, True) and over["n"].integer
    lhs = sigma**2 * d * r**2 / (n * s * r**2 + sigma**2 * d)
    assert tv.check_inequality(lhs, "<=", sigma**2 * d / (n * s), dom, 0).status is tv.Status.PROVED
    v = tv.check_inequality(lhs, "<=", sigma**2 * d / (n * s**2), dom, 0)
    assert v.status is tv.Status.REFUTED and v.counterexample["n"] >= v.counterexample["d"], v.evidence
    assert "d = 1," in v.evidence and not re.search(r"\b[dn] = \d+\.0\b", v.evidence), v.evidence
    naturals = tv.Domain.assuming([d, n], ["d: positive integer", "n: natural", "d <= 5", "n <= 3*d"])
    assert [(o.name, o.lo, o.hi) for o in naturals.over()] == [("d", 1, 5), ("n", 0, 15)]


@pytest.mark.parametrize("assumptions, message", [
    (["d: integer"], "the integer d has no range"),
    (["d: integer", "1 <= d <= 5", "d <= x"], "the real x is bounded by the integer d"),
])
def test_integer_assumptions_it_cannot_draw_are_one_line_errors(assumptions, message):
    d, x = sp.symbols("d x")
    with pytest.raises(DomainError, match=message) as info:
        tv.Domain.assuming([d, x], assumptions)
    assert "\n" not in str(info.value)
