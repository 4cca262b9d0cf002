"""Deciding one step with the engine's checks (no deciding logic of its own).

``==``: :func:`~theoryverify.checks.identity.exact_points` first (a wrong step is refuted at an
exact rational point within milliseconds), then :func:`~theoryverify.checks.check_identity`
(time-bounded symbolic proof → exact rational points → float64 search with 50-digit
confirmation).  ``<=, >=, <, >``: :func:`~theoryverify.checks.check_inequality`.  Statements
without free symbols are decided exactly at 50 digits.  The whole check runs under a hard time
limit (:mod:`.isolate`); if the full engine check overruns its share, a float64-only check gets
the rest, and if that overruns too the verdict is inconclusive.
"""
from __future__ import annotations

import time
from typing import Iterable

import sympy as sp

from ..checks import check_identity, check_inequality
from ..checks.identity import exact_points
from ..domains import Domain, Simplex
from ..seeds import DEFAULT_SEED, derive_seed
from ..stepcontext import default_variable
from ..verdicts import Status, Verdict, error, holds, inconclusive, proved, refuted
from .build import Builder, Scope, display_latex
from .isolate import HardTimeout, run_limited
from .parser import DEFAULT_TIMEOUT, BadInput, Statement
from .result import StepVerdict

SYMBOLIC_SECONDS = 1.5
QUICK_EXACT_POINTS = 4


def statement_seed(context: str, text: str, seed: int = DEFAULT_SEED) -> int:
    return derive_seed(seed, "check", context, " ".join(text.split()))


def domain_of(scope: Scope, exprs: Iterable[sp.Expr]) -> tuple[Domain, dict]:
    """The domain over the exprs' free symbols (context variables, plus defaults for the free
    context's undeclared names) and the substitution to apply first."""
    syms: set[sp.Symbol] = set()
    for e in exprs:
        syms |= e.free_symbols
    domain, subst = scope.context.domain_for(syms)
    if subst:
        syms = set().union(*(sp.sympify(e).xreplace(subst).free_symbols for e in exprs))
        domain, _ = scope.context.domain_for(syms)
    domain = _drop_zeroed(domain, scope, syms)
    missing = syms - set(domain.symbols)
    if missing and scope.context.open_names:
        domain = Domain([*domain.variables, *(default_variable(s) for s in sorted(missing, key=str))])
    elif missing:
        raise BadInput(f"symbols without a domain in context {scope.context.name}: "
                       f"{', '.join(sorted(map(str, missing)))}")
    return domain, subst


def _drop_zeroed(domain: Domain, scope: Scope, syms: set) -> Domain:
    """subs(e, v6, 0): the other simplex coordinates range over the simplex without v6 (exact).
    If a zeroed coordinate still appears elsewhere, keep the whole simplex and say so."""
    variables = []
    for v in domain.variables:
        gone = set(v.symbols) & scope.zeroed if isinstance(v, Simplex) else set()
        if gone and not gone & syms and len(gone) < len(v.symbols):
            variables.append(Simplex(tuple(s for s in v.symbols if s not in gone), v.boundary))
        else:
            scope.fixed |= gone
            variables.append(v)
    return Domain(variables)


def decide_sides(lhs: sp.Expr, op: str, rhs: sp.Expr, domain: Domain, seed: int, *,
                 float_only: bool = False) -> Verdict:
    """The engine's verdict on ``lhs OP rhs`` over ``domain``."""
    if not domain.symbols:
        return constant(lhs, op, rhs)
    if op != "==":
        return check_inequality(lhs, op, rhs, domain, seed)
    if float_only:
        return check_identity(lhs, rhs, domain, seed, try_symbolic=False, n_rational=0)
    _, refutation = exact_points(lhs - rhs, domain, seed, QUICK_EXACT_POINTS, lhs, rhs)
    if refutation is not None:
        return refutation
    return check_identity(lhs, rhs, domain, seed, symbolic_seconds=SYMBOLIC_SECONDS)


def constant(lhs: sp.Expr, op: str, rhs: sp.Expr) -> Verdict:
    """A statement without free symbols: exact when rational, else 50 digits."""
    d = sp.sympify(lhs - rhs)
    value = d if d.is_Rational else d.evalf(50)
    if not value.is_real:
        return inconclusive("exact evaluation", f"lhs − rhs = {sp.N(value, 6)} is not a real number")
    ok = {"==": value == 0 if d.is_Rational else abs(value) < sp.Float("1e-45", 50),
          "<=": value <= 0, ">=": value >= 0, "<": value < 0, ">": value > 0}[op]
    exact = bool(d.is_Rational and sp.sympify(lhs).is_Rational and sp.sympify(rhs).is_Rational)
    how = "exact rational arithmetic" if d.is_Rational else "50-digit evaluation"
    shown = value if d.is_Rational else sp.N(value, 8)
    if ok:
        return (proved if d.is_Rational else holds)(how, f"lhs − rhs = {shown}", difference=str(value))
    sides = {"lhs": lhs, "rhs": rhs} if exact else {"lhs": sp.N(lhs, 15), "rhs": sp.N(rhs, 15)}
    return refuted(how, f"lhs − rhs = {shown}", sides)


def _prepare(scope: Scope, stmt: Statement) -> tuple[sp.Expr, sp.Expr, Domain]:
    scope.fixed, scope.zeroed = set(), set()
    b = Builder(scope)
    lhs, rhs = b.build(stmt.lhs), b.build(stmt.rhs)
    domain, subst = domain_of(scope, [lhs, rhs])
    if subst:
        lhs, rhs = lhs.xreplace(subst), rhs.xreplace(subst)
    return lhs, rhs, domain


def partial_simplex(domain: Domain, fixed: set) -> list[str]:
    """Simplex members that subs(...) fixed while others of the same simplex stay free."""
    out = []
    for v in domain.variables:
        if isinstance(v, Simplex) and fixed & set(v.symbols) and not set(v.symbols) <= fixed:
            out += sorted(map(str, fixed & set(v.symbols)))
    return out


def _honest_about_subs(verdict: Verdict, domain: Domain, fixed: set) -> Verdict:
    """subs fixed part of a simplex: the rest were drawn from the whole simplex (their sum ≤ 1),
    a superset of the points meant.  'holds' stays (it holds on the superset); a refutation may lie
    off the meant set, so it becomes inconclusive."""
    part = partial_simplex(domain, fixed)
    if not part or verdict.status is Status.PROVED and verdict.method.startswith("symbolic"):
        return verdict
    note = (f"subs fixed {', '.join(part)} of a simplex; the other coordinates were drawn from the "
            f"whole simplex (their sum ≤ 1)")
    if verdict.status is Status.REFUTED:
        return inconclusive(verdict.method, f"{verdict.evidence}; but {note}, so the failing point may "
                            "lie off the meant set", point=dict(verdict.counterexample or {}))
    return Verdict(verdict.status, verdict.method, f"{verdict.evidence}; note: {note}",
                   verdict.counterexample, verdict.details)


def _run(scope: Scope, stmt: Statement, seed: int, float_only: bool):
    lhs, rhs, domain = _prepare(scope, stmt)
    verdict = decide_sides(lhs, stmt.op, rhs, domain, seed, float_only=float_only)
    verdict = _honest_about_subs(verdict, domain, scope.fixed)
    return verdict, display_latex(stmt.lhs), display_latex(stmt.rhs), tuple(map(str, domain.symbols))


def check_statement(scope: Scope, stmt: Statement, *, seed: int = DEFAULT_SEED,
                    timeout: float = DEFAULT_TIMEOUT, isolate: bool = True,
                    given: Iterable[Statement] = (), by: str | None = None) -> StepVerdict:
    """Decide ``stmt`` in ``scope`` (or, with ``given``/``by``, check the step's certificate)."""
    start = time.perf_counter()
    s = statement_seed(scope.context.name, stmt.text, seed)
    given = tuple(given)
    extra: dict = {}
    if given or by:
        from .certify import certify
        job = lambda: certify(scope, stmt, given, by, s)  # noqa: E731
        extra = {"given": [g.text for g in given], "rule": by}
    else:
        job = lambda: _run(scope, stmt, s, False)  # noqa: E731
    try:
        try:
            verdict, l_tex, r_tex, syms = run_limited(job, timeout if given or by else 0.6 * timeout, isolate)
        except HardTimeout:
            if given or by:
                raise
            left = timeout - (time.perf_counter() - start)
            if left <= 0.05:
                raise
            verdict, l_tex, r_tex, syms = run_limited(lambda: _run(scope, stmt, s, True), left, isolate)
            verdict = Verdict(verdict.status, verdict.method + " (full check over its time share; "
                              "float64 tier only)", verdict.evidence, verdict.counterexample,
                              verdict.details)
    except HardTimeout:
        verdict, l_tex, r_tex, syms = inconclusive(
            "hard time limit", f"the check ran over its {timeout:g} s limit and was stopped"), None, None, ()
    except BadInput:
        raise
    except Exception as exc:  # the check itself broke (ChildError from the isolated run)
        verdict, l_tex, r_tex, syms = error("exception", f"{type(exc).__name__}: {exc}"), None, None, ()
    verdict = verdict.with_timing(s, time.perf_counter() - start)
    return StepVerdict(stmt.text, scope.context.name, verdict, stmt.op, l_tex, r_tex, syms, extra=extra)


def build_definition(scope: Scope, expr, timeout: float = DEFAULT_TIMEOUT, isolate: bool = True) -> sp.Expr:
    """Build a ``name := expr`` right-hand side under the hard time limit."""
    return run_limited(lambda: Builder(scope).build(expr), timeout, isolate)
