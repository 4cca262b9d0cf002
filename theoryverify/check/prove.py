"""Proofs of inequalities where they are cheap and exact, so that "proved" and "not violated among N
samples" are different verdicts.

- One variable, a polynomial or rational slack with rational coefficients: exact sign analysis on the
  variable's interval.  The slack's sign is that of P = numerator·denominator away from poles; P's
  square-free factors of odd multiplicity are the only places it can change sign, so if none has a root in
  the open interval, the sign at one rational interior point is the sign everywhere; closed ends are
  evaluated exactly; zeros of even multiplicity are allowed for ``<=``/``>=`` only.
- Otherwise: SymPy's assumptions on the slack after writing each one-sided variable as its bound plus (or
  minus) a positive symbol (``x >= 1`` → ``x = 1 + y``, ``y ≥ 0``), after ``factor``; e.g. ``(x − y)**2 ≥ 0``,
  ``exp(x) > 0``.

Both run under a time limit and answer None when they cannot decide (the numeric search then runs).
"""
from __future__ import annotations

from fractions import Fraction

import sympy as sp

from ..domains import Domain, Interval, LogUniform
from ..timelimit import bounded
from .variables import RealGroup

PROVE_SECONDS = 0.3
MAX_DEGREE = 40


def prove(slack: sp.Expr, strict: bool, domain: Domain, seconds: float = PROVE_SECONDS) -> str | None:
    """How ``slack > 0`` (strict) / ``slack ≥ 0`` was proved on ``domain``, or None."""
    syms = slack.free_symbols
    if not syms and slack.is_Rational:  # the variables cancel: x <= x + 1
        return f"the slack is the constant {slack}" if (slack > 0 or not strict and slack == 0) else None
    if not syms or not syms <= set(domain.symbols):
        return None
    if len(syms) == 1:
        (x,) = syms
        out = bounded(lambda: _univariate(slack, x, strict, _interval(domain, x)), seconds, cpu=True)
        if out:
            return out
    return bounded(lambda: _assumptions(slack, strict, domain), seconds, cpu=True)


def _interval(domain: Domain, x: sp.Symbol):
    """(L, L closed, H, H closed) of x, None where the variable is not a plain interval."""
    for v in domain.variables:
        if x not in v.symbols:
            continue
        if isinstance(v, RealGroup) and len(v.symbols) == 1:
            (L, Lc), (H, Hc) = v.lo[0], v.hi[0]
            return L, Lc, H, Hc
        if isinstance(v, (Interval, LogUniform)):
            c = getattr(v, "closed", (True, True))
            return Fraction(v.lo), c[0], Fraction(v.hi), c[1]
    return None


def _rat(f) -> sp.Rational:
    f = Fraction(f)
    return sp.Rational(f.numerator, f.denominator)


def _univariate(slack: sp.Expr, x: sp.Symbol, strict: bool, interval) -> str | None:
    if interval is None:
        return None
    L, Lc, H, Hc = interval
    num, den = sp.fraction(sp.cancel(sp.together(slack)))
    try:
        pn, pd = sp.Poly(num, x, domain="QQ"), sp.Poly(den, x, domain="QQ")
    except (sp.PolynomialError, sp.GeneratorsNeeded, sp.CoercionFailed):
        return None
    if pn.degree() > MAX_DEGREE or pd.degree() > MAX_DEGREE:
        return None
    P = pn * pd
    if P.is_zero:
        return None if strict else "exact: the slack is identically 0"
    lo, hi = (None if L is None else _rat(L)), (None if H is None else _rat(H))
    odd = sp.Integer(1)
    for factor, mult in P.sqf_list()[1]:
        if mult % 2:
            odd = odd * factor.as_expr()
    odd_poly = sp.Poly(odd, x)
    if odd_poly.degree() > 0:
        n_roots = odd_poly.count_roots(lo, hi)
        for end in (lo, hi):  # count_roots counts the ends; an end root is no interior sign change
            if end is not None and odd_poly.eval(end) == 0:
                n_roots -= 1
        if n_roots > 0:
            return None  # the sign changes inside: a violation exists; the search finds a concrete point
    t = _interior_point(lo, hi, P)
    if t is None or P.eval(t) <= 0:
        return None
    for end, closed in ((lo, Lc), (hi, Hc)):
        if end is not None and closed:
            if pd.eval(end) == 0:
                continue  # a pole: not in the expression's natural domain
            value = pn.eval(end) / pd.eval(end)
            if value < 0 or (strict and value == 0):
                return None
    if strict:
        zeros = sp.Poly(pn, x).count_roots(lo, hi)
        for end, closed in ((lo, Lc), (hi, Hc)):
            if end is not None and not closed and pn.eval(end) == 0:
                zeros -= 1
        if zeros > 0:
            return None
    where = f"[{'-∞' if lo is None else lo}, {'∞' if hi is None else hi}]"
    return (f"exact sign analysis of the rational slack on {x} ∈ {where}: no sign change (odd-multiplicity "
            f"factors have no root inside), positive at {x} = {t}")


def _interior_point(lo, hi, P: sp.Poly):
    if lo is not None and hi is not None:
        cands = [(lo + hi) / 2, lo + (hi - lo) / 3, lo + (hi - lo) / 7]
    elif lo is not None:
        cands = [lo + 1, lo + sp.Rational(1, 3), lo + 7]
    elif hi is not None:
        cands = [hi - 1, hi - sp.Rational(1, 3), hi - 7]
    else:
        cands = [sp.Integer(0), sp.Rational(1, 3), sp.Integer(-7), sp.Integer(11)]
    for t in cands:
        if P.eval(t) != 0:
            return t
    return None


def _assumptions(slack: sp.Expr, strict: bool, domain: Domain) -> str | None:
    subst, notes = {}, []
    for v in domain.variables:
        if not isinstance(v, RealGroup) or len(v.symbols) != 1:
            continue
        (L, Lc), (H, Hc) = v.lo[0], v.hi[0]
        x = v.symbols[0]
        if L is not None and H is None and L != 0:
            y = sp.Symbol(f"{x}_shift", **({"nonnegative": True} if Lc else {"positive": True}))
            subst[x] = _rat(L) + y
            notes.append(f"{x} = {L} + {y}")
        elif H is not None and L is None:
            y = sp.Symbol(f"{x}_shift", **({"nonnegative": True} if Hc else {"positive": True}))
            subst[x] = _rat(H) - y
    s = slack.xreplace(subst) if subst else slack
    for form in (s, sp.factor(s), sp.simplify(s)):
        ok = form.is_positive if strict else form.is_nonnegative
        if ok:
            return "SymPy's assumptions: the slack is " + ("positive" if strict else "nonnegative") + \
                " on the domain (from the variables' signs)"
        if ok is False and not form.free_symbols:
            return None
    return related(slack, strict, domain)


def related(slack: sp.Expr, strict: bool, domain: Domain, others: dict | None = None) -> str | None:
    """Sign analysis over the assumed relations between the symbols: each group of related real symbols
    (``0 < lam_2``, ``lam_2 < lam_1``) rewritten through positive slacks (:meth:`RealGroup.parametrisations`:
    ``lam_1 = lam_2 + s``), so that ``lam_2 - lam_1 < 0`` is proved, not sampled; ``others``: signed rewritings
    of the domain's other variables.  Sound (each rewriting reaches every point of the group); None when no
    rewriting gives the slack a sign."""
    import itertools

    groups = [v for v in domain.variables if isinstance(v, RealGroup) and set(v.symbols) & slack.free_symbols]
    if not any(len(g.symbols) > 1 or g.relations or g.bounds for g in groups):
        return None  # no relation between symbols: the tiers before this one have read every bound
    base = dict(others or {})
    for combo in itertools.islice(itertools.product(*(g.parametrisations() for g in groups)), 16):
        subst = dict(base)
        for sub in combo:
            subst.update(sub)
        if not slack.free_symbols <= set(subst):
            continue
        s = slack.xreplace(subst)
        for form in (s, sp.factor(s), sp.together(s)):
            if (form.is_positive if strict else form.is_nonnegative) is True:
                shown = ", ".join(f"{k} = {w}" for k, w in subst.items() if k in slack.free_symbols)
                return (f"sign analysis over the assumed relations: with {shown} (each _d symbol of the sign its "
                        f"relation or bound gives) the slack is {'positive' if strict else 'nonnegative'}")
    return None
