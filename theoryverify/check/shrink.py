"""Counterexamples shrunk to simple values while they still violate the statement.

A refutation found by float search lands on a point like ``x = 7.3418…``; a reader wants ``x = 8`` or
``x = 1/2``.  :func:`shrink` tries, coordinate by coordinate, simpler values (small integers, short
fractions, the value rounded to one or two significant digits) in order of simplicity, keeps the first
that lies in the domain and still violates the statement (decided exactly, or at 50 digits), and repeats
until nothing changes or the time budget is spent.  The shrunk point is re-evaluated exactly, so the
verdict shows both sides' values at the point it reports.
"""
from __future__ import annotations

import time
from fractions import Fraction
from typing import Mapping

import sympy as sp

from ..domains import Domain, Fixed, Interval, IntegerRange, LogUniform, MatrixVar, Simplex
from ..numeric import exact_value
from ..timelimit import bounded
from .variables import FiniteSet, IntegerVar, RealGroup, number

SHRINK_SECONDS = 0.4
EVALF_SECONDS = 0.1  # one 50-digit evaluation (an exact 0 at a huge point can make SymPy's evalf spin)
BASE = [Fraction(v) for v in (0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5)] + \
    [Fraction(1, 2), Fraction(-1, 2), Fraction(1, 4), Fraction(-1, 4), Fraction(3, 2), Fraction(-3, 2),
     Fraction(1, 10), Fraction(-1, 10), Fraction(10), Fraction(-10)]


def _candidates(v) -> list[Fraction]:
    """Simpler values than ``v``, simplest first."""
    f = Fraction(v) if not isinstance(v, Fraction) else v
    out = list(BASE)
    if abs(f) >= 1:
        out.append(Fraction(round(f)))
    for digits in (1, 2, 3):
        if f != 0:
            r = float(f"{float(f):.{digits - 1}e}")
            out.append(Fraction(r).limit_denominator(10**6))
    for den in (10, 100, 1000):
        out.append(f.limit_denominator(den))
    out.append(f)
    seen, ordered = set(), []
    for c in sorted(out, key=lambda c: (abs(c.numerator) + c.denominator, abs(c))):
        if c not in seen:
            seen.add(c)
            ordered.append(c)
    return ordered


def violates(lhs, op: str, rhs, point: Mapping[sp.Symbol, sp.Expr]) -> bool:
    """Whether ``lhs OP rhs`` fails at the exact ``point``: exactly (rational values), else at 50 digits with
    a margin (|lhs − rhs| > 1e-20·max(1, |rhs|), or a slack below −1e-20) so that no rounding can fake it."""
    try:
        d = exact_value(sp.sympify(lhs) - sp.sympify(rhs), point)
        if d.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
            return False
        if d.is_Rational:
            if op == "==":
                return d != 0
            slack = -d if op in ("<=", "<") else d
            return bool(slack < 0) if op in ("<=", ">=") else bool(slack <= 0)
        d = bounded(lambda: d.evalf(50), EVALF_SECONDS, cpu=True)
        if d is None or not (d.is_number and d.is_real):
            return False
        if op == "==":
            scale = max(sp.Integer(1), abs(exact_value(rhs, point).evalf(20)))
            return bool(abs(d) > sp.Float("1e-20", 50) * scale)
        slack = -d if op in ("<=", "<") else d
        return bool(slack < sp.Float("-1e-20", 50))
    except (TypeError, ValueError, ZeroDivisionError, RecursionError, AttributeError):
        return False


def _admits(var, sym, value, point) -> bool:
    if isinstance(var, (Fixed, Simplex)):
        return False
    if isinstance(var, RealGroup):
        trial = dict(point)
        trial[sym] = value
        return var.contains(trial)
    if isinstance(var, (IntegerVar, IntegerRange)):
        if value.denominator != 1:
            return False
        n = int(value)
        return var.admits(n) if isinstance(var, IntegerVar) else var.lo <= n <= var.hi
    if isinstance(var, FiniteSet):
        return sp.Rational(value.numerator, value.denominator) in var.values
    if isinstance(var, (Interval, LogUniform)):
        lo, hi = Fraction(var.lo), Fraction(var.hi)
        closed = getattr(var, "closed", (True, True))
        return (value > lo or (value == lo and closed[0])) and (value < hi or (value == hi and closed[1]))
    if isinstance(var, MatrixVar):
        return Fraction(var.lo) <= value <= Fraction(var.hi)
    if hasattr(var, "contains") and hasattr(var, "depends"):  # tv.Within: inside its ends at this point, exactly
        return var.contains({**point, sym: sp.Rational(value.numerator, value.denominator)})
    return False


def _inside_dependents(domain, trial) -> bool:
    """Every tv.Within hypothesis of the domain still holds at ``trial`` (a move of X can shrink 1/λ_max(XᵀX))."""
    return domain.contains_dependents(trial) if hasattr(domain, "contains_dependents") else True


def shrink(lhs, op: str, rhs, domain: Domain, point: Mapping, seconds: float = SHRINK_SECONDS) -> dict | None:
    """A simpler exact point where the statement still fails, or None (the point is kept)."""
    deadline = time.process_time() + seconds  # CPU time: a loaded machine shrinks as far as an idle one
    try:
        current = {s: sp.Rational(Fraction(number(point[s]))) if not isinstance(point[s], sp.Basic) else point[s]
                   for s in domain.symbols}
    except (KeyError, TypeError, ValueError, OverflowError):
        return None
    if not violates(lhs, op, rhs, current):
        return None
    owner = {s: v for v in domain.variables for s in v.symbols}
    current = _together(lhs, op, rhs, owner, current, deadline, domain)
    changed = True
    while changed and time.process_time() < deadline:
        changed = False
        for sym in domain.symbols:
            var = owner[sym]
            value = current[sym]
            if not value.is_Rational:
                continue
            here = Fraction(int(value.p), int(value.q))
            for cand in _candidates(here):
                if time.process_time() > deadline:
                    break
                if cand == here:
                    break  # everything after is no simpler
                if not _admits(var, sym, cand, current):
                    continue
                trial = dict(current)
                trial[sym] = sp.Rational(cand.numerator, cand.denominator)
                if violates(lhs, op, rhs, trial) and _inside_dependents(domain, trial):
                    current, changed = trial, True
                    break
            current = _bisect(lhs, op, rhs, var, sym, current, deadline, domain)
    return current


def _together(lhs, op, rhs, owner, current, deadline, domain=None):
    """Every coordinate at one simple value at once (x = y = 1), before coordinate-wise moves that can get stuck
    (x = y = 1e-6 fails (x + y)/2 ≥ √(xy) + 1/100, x = 1 with y = 1e-6 does not)."""
    syms = [s for s, v in owner.items() if not isinstance(v, (Fixed, Simplex))]
    if len(syms) < 2:
        return current
    for cand in BASE[:12]:
        if time.process_time() > deadline:
            break
        trial = dict(current)
        for s in syms:
            trial[s] = sp.Rational(cand.numerator, cand.denominator)
        ok = all(_admits(owner[s], s, cand, trial) for s in syms)  # checked with every coordinate moved
        if ok and all(owner[s].contains(trial) if hasattr(owner[s], "contains") and isinstance(owner[s], RealGroup)
                      else True for s in syms) and violates(lhs, op, rhs, trial) and _inside_dependents(domain, trial):
            return trial
    return current


def _bisect(lhs, op, rhs, var, sym, current, deadline, domain=None):
    """A failing whole number m is moved towards 0 by bisection over the whole numbers (x ≤ 10 fails at
    1000; the smallest failing whole number found is 11), keeping every step a verified failure."""
    value = current[sym]
    if not (value.is_Integer and abs(value) > 5):
        return current
    sign, hi, lo = (1 if value > 0 else -1), abs(int(value)), 0
    while hi - lo > 1 and time.process_time() < deadline:
        mid = (lo + hi) // 2
        cand = Fraction(sign * mid)
        trial = dict(current)
        trial[sym] = sp.Integer(sign * mid)
        if _admits(var, sym, cand, current) and violates(lhs, op, rhs, trial) and _inside_dependents(domain, trial):
            hi, current = mid, trial
        else:
            lo = mid
    return current


def sides_at(lhs, rhs, point: Mapping) -> dict:
    """Both sides' values at an exact point: exact when rational, else 15 digits."""
    out = {}
    for key, side in (("lhs", lhs), ("rhs", rhs)):
        v = exact_value(side, point)
        out[key] = v if v.is_Rational else sp.N(v, 15)
    return out
