"""Deciding one step with the engine's checks, plus what a step needs beyond them.

One link ``lhs OP rhs`` (a chain is decided link by link, :func:`check_statement`):

1. unspecified functions (``f: function``): a symbolic proof for every f, else each test function of a
   stated family (:mod:`.families`); expectations of f of a random variable (``E(X*f(X))``, Stein-type
   identities) are computed for each test function first;
2. finite sets and integers: exact cases first, then summation / induction (:mod:`.discrete`);
3. the continuous part, with the engine: ``==`` —
   :func:`~theoryverify.checks.identity.exact_points` first (a wrong step is refuted at an exact
   rational point within milliseconds), then :func:`~theoryverify.checks.check_identity` (time-bounded
   symbolic proof → exact rational points → float64 search, with the domain's boundary, confirmed at 50
   digits); ``<=, >=, <, >`` — an exact proof where one is cheap (:mod:`.prove`), else
   :func:`~theoryverify.checks.check_inequality` (boundary points, Hypothesis search, local polishing), which
   can refute but only ever reports "not violated among N points".  Statements without free symbols are
   decided exactly at 50 digits.

Expectations that only Monte Carlo can compute (:mod:`.sampling`) leave placeholders in the built statement; such a
statement is decided by the sampling rules (never "proved"; refuted only with an independent replication), not by
the search above.

A refutation's counterexample is shrunk to simple values (:mod:`.shrink`) and shown with both sides.
Every verdict carries the domain searched (``details["domain"]``; :attr:`StepVerdict.domain`).  The whole
check runs under a hard time limit (:mod:`.isolate`); if the full engine check overruns its share, a
float64-only check gets the rest, and if that overruns too the verdict is inconclusive.
"""
from __future__ import annotations

import time
from dataclasses import replace
from typing import Iterable

import sympy as sp

from ..domains import Domain, Simplex
from ..seeds import DEFAULT_SEED, derive_seed
from ..verdicts import Status, Verdict, error, holds, inconclusive, proved, refuted
from .build import Builder, Scope, display_latex, infer_integers
from .isolate import HardTimeout, run_limited
from .parser import DEFAULT_TIMEOUT, BadInput, Statement
from .result import StepVerdict

SYMBOLIC_SECONDS = 1.5
QUICK_EXACT_POINTS = 4


def statement_seed(context: str, text: str, seed: int = DEFAULT_SEED) -> int:
    return derive_seed(seed, "check", context, " ".join(text.split()))


def default_for(scope: Scope, symbol: sp.Symbol):
    """The domain of a name the free context has not declared: an inferred integer, else the real line
    (a half line for a positive or nonnegative symbol), searched over many decades."""
    from .variables import IntegerVar, real
    if symbol in scope.inferred:
        return scope.inferred[symbol]
    if symbol.is_integer:
        return IntegerVar(symbol, 0 if symbol.is_nonnegative else None, None)
    if symbol.is_positive:
        return real(symbol, 0, None, False, False)
    if symbol.is_nonnegative:
        return real(symbol, 0, None, True, False)
    return real(symbol)


def _free_symbols(exprs) -> set:
    out: set[sp.Symbol] = set()
    for e in exprs:
        out |= sp.sympify(e).free_symbols if not isinstance(e, sp.MatrixBase) else e.free_symbols
    return out


def domain_of(scope: Scope, exprs: Iterable) -> tuple[Domain, dict]:
    """The domain over the exprs' free symbols (context variables, plus defaults for the free
    context's undeclared names) and the substitution to apply first."""
    exprs = list(exprs)
    syms = _free_symbols(exprs)
    domain, subst = scope.context.domain_for(syms)
    if subst:
        syms = _free_symbols([e.xreplace(subst) for e in exprs])
        domain, _ = scope.context.domain_for(syms)
    domain = _drop_zeroed(domain, scope, syms)
    missing = syms - set(domain.symbols)
    if missing and scope.context.open_names:
        domain = Domain([*domain.variables, *(default_for(scope, s) for s in sorted(missing, key=str))])
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


def describe(domain: Domain, scope: Scope | None = None) -> str:
    text = domain.describe() if domain.variables else "no free symbols"
    notes = getattr(getattr(scope, "context", None), "declarations", None)
    notes = [n for n in (notes.notes if notes else []) if n.split()[0] in {str(s) for s in domain.symbols}]
    return text + (f" [{'; '.join(notes)}]" if notes else "")


# --- the continuous decision ------------------------------------------------------------------------

def no_point(domain: Domain) -> str | None:
    """Why the domain's assumptions admit no point to decide a step at, or None when a point was found: SymPy's
    proof that a group's bounds contradict each other (:meth:`~.variables.RealGroup.proved_empty`), else the
    search's failure to find any point inside a group (no claim that none exists).  A step over such a domain is
    neither proved nor refuted: every verdict would be vacuous, or rest on a point outside the hypotheses."""
    from .variables import RealGroup
    for v in domain.variables:
        if not isinstance(v, RealGroup):
            continue
        why = v.proved_empty()
        if why:
            return f"its assumptions cannot hold together: {why}"
        if v.inside_point() is None:
            return (f"could not find a point satisfying the assumptions on {', '.join(map(str, v.symbols))} "
                    f"({v.describe()[:200]}): they may contradict each other")
    return None


def _no_point_verdict(domain: Domain) -> Verdict | None:
    why = no_point(domain)
    return inconclusive("assumptions", f"no verdict: {why}", domain=domain.describe()) if why else None


def decide_sides(lhs, op: str, rhs, domain: Domain, seed: int, *, float_only: bool = False) -> Verdict:
    """The verdict on ``lhs OP rhs`` over ``domain`` (no discrete variables, no unspecified functions)."""
    from ..checks.identity import check_identity, exact_points
    if not domain.symbols:
        return constant(lhs, op, rhs)
    empty = _no_point_verdict(domain)
    if empty is not None:
        return empty
    if op != "==":
        return _inequality(lhs, op, rhs, domain, seed, float_only)
    if float_only:
        v = check_identity(lhs, rhs, domain, seed, try_symbolic=False, n_rational=0)
        return _shrunk(v, lhs, op, rhs, domain)
    if not isinstance(lhs, sp.MatrixBase):
        n_exact, refutation = exact_points(lhs - rhs, domain, seed, QUICK_EXACT_POINTS, lhs, rhs)
        if refutation is not None:
            return _shrunk(refutation, lhs, op, rhs, domain)
        how = _rewritten_zero(lhs - rhs)
        if how:
            return proved(f"symbolic: {how}", f"lhs − rhs simplifies to 0 ({how}); {n_exact} rational points "
                          "agree (exact or 50 digits)", domain=domain.describe(), exact_points=n_exact)
    v = check_identity(lhs, rhs, domain, seed, symbolic_seconds=SYMBOLIC_SECONDS)
    return _shrunk(v, lhs, op, rhs, domain)


REWRITES = (((sp.tanh, sp.sinh, sp.cosh, sp.sin, sp.cos), "rewrite(exp) + cancel",
             lambda d: sp.cancel(sp.together(d.rewrite(sp.exp)))),
            ((sp.Max, sp.Min, sp.Heaviside, sp.Piecewise, sp.Abs), "rewrite(Piecewise) + piecewise_fold + simplify",
             lambda d: sp.simplify(sp.piecewise_fold(d.rewrite(sp.Piecewise)))))
REWRITE_SECONDS = 0.6
# Symbolic powers and exponentials: exp(c·log A) = A^c and A^a·A^b = A^(a+b) are identities of the principal branch
# (valid for every A ≠ 0, whatever its sign), so these rewrites never assume a sign; SymPy's simplify misses them
# in ratios such as x^(1−δ)/(n x^(1−δ) + x^δ λ) = 1/(n + x^(2δ−1) λ).  (Logarithms of products are never split:
# log(ab) = log a + log b needs signs.)
POWER_REWRITES = (("rewrite(exp)", lambda d: sp.expand(d.rewrite(sp.exp))),
                  ("together + expand + powsimp + cancel", lambda d: sp.cancel(sp.powsimp(sp.expand(sp.together(d))))))
POWER_SECONDS = 0.3  # each; cheap rewrites only (no simplify), so that a hard identity keeps its budget for the rest


def _symbolic_powers(d: sp.Expr) -> bool:
    return d.has(sp.exp) or any(not p.exp.is_Integer for p in d.atoms(sp.Pow))


def _rewritten_zero(d: sp.Expr) -> str | None:
    """SymPy's simplifiers miss identities between hyperbolic functions and exponentials (tanh(x) = 2σ(2x) − 1),
    between Max/relu/Abs/Heaviside pieces, and between symbolic powers (see ``POWER_REWRITES``); rewriting first
    proves them.  Tried only when such functions occur."""
    from ..timelimit import bounded
    for kinds, name, fn in REWRITES:
        if d.has(*kinds):
            out = bounded(lambda: fn(d), REWRITE_SECONDS, cpu=True)
            if out is not None and out == 0:
                return name
    if _symbolic_powers(d):
        for name, fn in POWER_REWRITES:
            out = bounded(lambda: fn(d), POWER_SECONDS, cpu=True)
            if out is not None and out == 0:
                return name
    return None


def _inequality(lhs, op, rhs, domain, seed, float_only) -> Verdict:
    from ..checks.inequality import check_inequality, slack_expr
    from .prove import prove
    if isinstance(lhs, sp.MatrixBase) or isinstance(rhs, sp.MatrixBase):
        raise BadInput("inequalities compare numbers; compare a norm, a trace or an entry of a matrix")
    slack = slack_expr(lhs, rhs, op)
    if not float_only and op in ("<=", ">=") and _symbolic_powers(slack):
        how = _rewritten_zero(slack)
        if how and not _quick_violation(lhs, op, rhs, domain, seed):
            return proved(f"symbolic: {how}", f"the two sides are equal ({how}: lhs − rhs simplifies to 0)",
                          domain=domain.describe(), proof=how)
    if not float_only:
        how = prove(slack, op in ("<", ">"), domain)
        if how and not _quick_violation(lhs, op, rhs, domain, seed):
            return proved(f"exact: {how.split(':')[0]}", how,
                          domain=domain.describe(), proof=how)
    exact = _exact_ends(lhs, op, rhs, domain, seed)
    if exact is not None:
        return _shrunk(exact, lhs, op, rhs, domain)
    v = check_inequality(lhs, op, rhs, domain, seed, prove=False)  # its own prover ran above
    if v.status is Status.INCONCLUSIVE and op in ("<", ">") and "not confirmed" in v.evidence:
        v = _strict_ties(lhs, op, rhs, domain, seed, v)
    if v.status is Status.INCONCLUSIVE and "not confirmed" in v.evidence:
        v = _relative(lhs, op, rhs, domain, seed, v)
    if v.status is Status.HOLDS:
        n = v.details.get("float_points", 0) + v.details.get("boundary_points", 0)
        evidence = v.evidence.replace(f" on {domain.describe()}", "")
        v = replace(v, evidence=f"not violated among {n} points (no proof): {evidence}")
    return _shrunk(v, lhs, op, rhs, domain)


EXACT_END_POINTS = 24


def _exact_ends(lhs, op, rhs, domain, seed) -> Verdict | None:
    """Where an assumption bounds a name by an expression (eta <= 1/L), the float search meets that end only
    rounded (eta*L < 1 looks true at eta = fl(1/L)); exact draws that put the name at the end exactly decide it."""
    from ..seeds import pyrandom
    from .shrink import violates
    from .variables import RealGroup
    if not any(isinstance(v, RealGroup) and v.bounds for v in domain.variables):
        return None
    rnd = pyrandom(seed + 7)
    for _ in range(EXACT_END_POINTS):
        p = domain.rationals(rnd)
        if domain.contains(p) and violates(lhs, op, rhs, p):  # (a draw that found no interval may lie outside)
            return refuted("exact point (ends of expression bounds exactly)",
                           "violated at an exact point", _point(p))
    return None


def _strict_ties(lhs, op, rhs, domain, seed, v: Verdict) -> Verdict:
    """A strict inequality whose float64 slack rounded to 0 somewhere (exp(a) < exp(b) with a, b far below 0):
    the 50-digit slack there is positive, so the point is no counterexample.  If the non-strict version has no
    violation either, the strict one holds as far as the search can tell (an exact tie would have been
    confirmed at 50 digits and refuted)."""
    from ..checks.inequality import check_inequality
    weak = check_inequality(lhs, "<=" if op == "<" else ">=", rhs, domain, seed, prove=False)
    if weak.status is not Status.HOLDS:
        return v
    return holds(weak.method + "; float64 ties re-checked at 50 digits",
                 f"{weak.evidence}; where float64 rounded the slack to 0, the 50-digit slack is positive",
                 **dict(weak.details))


def _relative(lhs, op, rhs, domain, seed, v: Verdict) -> Verdict:
    """A float64 'violation' that 50 digits do not confirm is round-off in a large slack (a*b <= (a**2 + b**2)/2
    at a = b = 1e6 cancels 1e12 against 1e12).  Search again with both sides divided by 1 + |lhs| + |rhs| (the
    sign of the slack is unchanged, its float64 error is now relative); a point that fails there is again
    confirmed at 50 digits.  Only a clean pass replaces the inconclusive verdict."""
    from ..checks.inequality import check_inequality
    scale = 1 + sp.Abs(lhs) + sp.Abs(rhs)
    again = check_inequality(lhs / scale, op, rhs / scale, domain, seed, prove=False)
    if again.status is not Status.HOLDS:
        return v
    return holds(again.method + "; slack relative to the sides' size",
                 f"{again.evidence}; the slack was compared relative to 1 + |lhs| + |rhs| (float64 round-off "
                 "at large magnitudes showed spurious violations that 50 digits did not confirm)",
                 **dict(again.details))


def _quick_violation(lhs, op, rhs, domain, seed) -> bool:
    """A cross-check of a proof at a few exact points (a proof contradicted by a point is an engine bug)."""
    from ..seeds import pyrandom
    from .shrink import violates
    rnd = pyrandom(seed)
    points = [domain.rationals(rnd) for _ in range(QUICK_EXACT_POINTS)]
    return any(domain.contains(p) and violates(lhs, op, rhs, p) for p in points)


def quick(lhs, op: str, rhs, domain: Domain, seed: int) -> Verdict | None:
    """A fast refutation pass (a few exact points and the boundary), for the many cases of a discrete
    variable; None when nothing fails."""
    from ..checks.identity import exact_points
    from ..numeric import high_precision
    from .shrink import violates
    if no_point(domain) is not None:
        return None  # no point inside the assumptions: nothing to refute at (decide_sides says why)
    if op == "==" and not isinstance(lhs, sp.MatrixBase):
        _, refutation = exact_points(lhs - rhs, domain, seed, QUICK_EXACT_POINTS, lhs, rhs)
        return _shrunk(refutation, lhs, op, rhs, domain) if refutation is not None else None
    if op == "==":
        return None
    from ..seeds import pyrandom
    rnd = pyrandom(seed)
    for _ in range(QUICK_EXACT_POINTS):
        p = domain.rationals(rnd)
        if domain.contains(p) and violates(lhs, op, rhs, p):
            return _shrunk(refuted("exact point", "violated at an exact point", _point(p)), lhs, op, rhs, domain)
    for p in domain.boundary_points()[:16]:
        exact = {s: sp.Rational(v) for s, v in p.items()}
        if domain.contains(exact) and violates(lhs, op, rhs, exact):
            return _shrunk(refuted("boundary point", "violated on the boundary", _point(exact)), lhs, op, rhs, domain)
    del high_precision
    return None


def _point(p) -> dict:
    return {str(s): v for s, v in sorted(p.items(), key=lambda kv: str(kv[0]))}


def _shrunk(v: Verdict, lhs, op, rhs, domain: Domain) -> Verdict:
    """A refutation with its counterexample shrunk to simple values and both sides re-evaluated there."""
    from .shrink import shrink, sides_at
    if v.status is Status.REFUTED and v.counterexample and "entry" in v.counterexample \
            and isinstance(lhs, sp.MatrixBase) and isinstance(rhs, sp.MatrixBase):
        v, lhs, rhs = _one_entry(v, lhs, rhs)
    if v.status is not Status.REFUTED or not v.counterexample \
            or isinstance(lhs, sp.MatrixBase) or isinstance(rhs, sp.MatrixBase):
        return v
    by_name = {str(s): s for s in domain.symbols}
    ce = v.counterexample
    if not set(by_name) <= set(ce):
        return v
    point = {by_name[k]: ce[k] for k in by_name}
    if not domain.contains(point):  # a draw that found no interval inside the assumptions returns one outside
        shown = ", ".join(f"{k} = {_show(ce[k])}" for k in sorted(by_name))
        return inconclusive(v.method, f"violated only at a point outside the assumptions ({shown}), which is no "
                            f"counterexample: {no_point(domain) or 'no violation was found inside them'}",
                            point=_point(point), domain=domain.describe())
    small = shrink(lhs, op, rhs, domain, point)
    if small is None:
        return v
    sides = sides_at(lhs, rhs, small)
    entry = {"entry": ce["entry"]} if "entry" in ce else {}
    new_ce = {**entry, **_point(small), **sides}
    same = all(small[s] == (point[s] if isinstance(point[s], sp.Basic) else sp.Rational(float(point[s])))
               for s in small)
    rel = {"==": "≠", "<=": "≰", ">=": "≱", "<": "≮", ">": "≯"}[op]
    if same:
        return Verdict(v.status, v.method, v.evidence, new_ce, {**dict(v.details), "domain": domain.describe()})
    evidence = (("entry " + str(entry["entry"]) + ": " if entry else "") +
                f"lhs = {_show(sides['lhs'])} {rel} rhs = {_show(sides['rhs'])} at the shrunk counterexample "
                f"(first found: {v.evidence})")
    method = f"{v.method}; counterexample shrunk"
    return Verdict(v.status, method, evidence, new_ce, {**dict(v.details), "domain": domain.describe()})


def _one_entry(v: Verdict, lhs, rhs):
    """A matrix refutation names its failing entry 0-based (the engine's label "[0, 1]"); the checker numbers
    entries from 1, as the declared entries W[1,2] are: the label is renumbered and that entry's two sides are
    returned, so the counterexample can be shrunk like a scalar one."""
    import re
    label = str(v.counterexample.get("entry", ""))
    idx = [int(t) for t in re.findall(r"-?\d+", label)]
    if not idx or len(idx) > 2:
        return v, lhs, rhs
    i, j = (idx[0], idx[1]) if len(idx) == 2 else (idx[0], 0)
    if not (0 <= i < lhs.shape[0] and 0 <= j < lhs.shape[1]):
        return v, lhs, rhs
    shown = f"[{i + 1}]" if lhs.shape[1] == 1 else f"[{i + 1}, {j + 1}]"
    ce = {("entry" if k == "entry" else k): (shown if k == "entry" else x) for k, x in v.counterexample.items()}
    evidence = f"entry {shown}: {v.evidence}"
    v = Verdict(v.status, v.method, evidence, ce, {**dict(v.details), "entry": shown})
    return v, lhs[i, j], rhs[i, j]


def _show(x) -> str:
    if isinstance(x, sp.Basic) and x.is_Rational:
        return str(x)
    try:
        return f"{float(x):.10g}"
    except (TypeError, ValueError):
        return str(x)


def constant(lhs, op: str, rhs) -> Verdict:
    """A statement without free symbols: exact when rational, else 50 digits."""
    if isinstance(lhs, sp.MatrixBase) or isinstance(rhs, sp.MatrixBase):
        from ..checks.identity import check_identity
        return check_identity(lhs, rhs, Domain([]), 0)
    d = simplified = sp.sympify(lhs - rhs)
    if not d.is_Rational and op == "==":
        simplified = _constant_simplified(d)
    value = d if d.is_Rational else d.evalf(50)
    if not value.is_real:
        return inconclusive("exact evaluation", f"lhs − rhs = {sp.N(value, 6)} is not a real number")
    ok = {"==": value == 0 if d.is_Rational else abs(value) < sp.Float("1e-45", 50),
          "<=": value <= 0, ">=": value >= 0, "<": value < 0, ">": value > 0}[op]
    exact = bool(d.is_Rational and sp.sympify(lhs).is_Rational and sp.sympify(rhs).is_Rational)
    how = "exact rational arithmetic" if d.is_Rational else "50-digit evaluation"
    if simplified is not d and simplified.is_Rational:
        d, value, how = simplified, simplified, "exact simplification (expand_log, nsimplify, simplify)"
    shown = value if d.is_Rational else sp.N(value, 8)
    if ok:
        return (proved if d.is_Rational else holds)(how, f"lhs − rhs = {shown}", difference=str(value))
    sides = {"lhs": lhs, "rhs": rhs} if exact else {"lhs": sp.N(lhs, 15), "rhs": sp.N(rhs, 15)}
    return refuted(how, f"lhs − rhs = {shown}", sides)


def _constant_simplified(d: sp.Expr) -> sp.Expr:
    """log(8, 2) − 3 is exactly 0, but only after the logarithms are expanded: try a few exact rewrites (each
    time-bounded) so that a constant identity is proved, not merely found 0 to 50 digits."""
    from ..timelimit import bounded
    for fn in (lambda e: sp.nsimplify(sp.expand_log(e, force=True)), sp.simplify):
        out = bounded(lambda: fn(d), 0.5, cpu=True)
        if out is not None and out.is_Rational:
            return out
    return d


# --- one link, everything considered ------------------------------------------------------------------

def _conform(lhs, rhs):
    """A scalar 0 against a matrix is the zero matrix; a 1×1 matrix against a scalar is its entry."""
    lm, rm = isinstance(lhs, sp.MatrixBase), isinstance(rhs, sp.MatrixBase)
    if lm and rm:
        if lhs.shape != rhs.shape:
            raise BadInput(f"the sides have different shapes: {lhs.shape} and {rhs.shape}")
        return lhs, rhs
    if lm or rm:
        m, s = (lhs, rhs) if lm else (rhs, lhs)
        if m.shape == (1, 1):
            return (m[0, 0], s) if lm else (s, m[0, 0])
        if s == 0:
            z = sp.ImmutableMatrix.zeros(*m.shape)
            return (m, z) if lm else (z, m)
        raise BadInput(f"a {m.shape[0]}×{m.shape[1]} matrix compared with a number: compare matrices of one shape "
                       "(0 stands for the zero matrix)")
    return lhs, rhs


def decide_link(scope: Scope, lhs, op: str, rhs, seed: int, float_only: bool = False) -> tuple[Verdict, str]:
    """(verdict, domain searched) for built sides."""
    from . import discrete, families
    lhs, rhs = _conform(lhs, rhs)
    if (isinstance(lhs, sp.MatrixBase)) and op != "==":
        raise BadInput("inequalities compare numbers; compare a norm, a trace or an entry of a matrix")
    searched: list[str] = []

    def rest(l, o, r) -> Verdict:
        domain, subst = domain_of(scope, [l, r])
        if subst:
            l, r = l.xreplace(subst), r.xreplace(subst)
        searched.append(describe(domain, scope))
        empty = _no_point_verdict(domain)
        if empty is not None:  # (before the discrete cases: each would be decided over no point)
            return empty
        if any(discrete.is_discrete(v) for v in domain.variables):
            return discrete.decide(l, o, r, domain, seed,
                                   lambda a, b, c, d, s, f: decide_sides(a, b, c, d, s, float_only=f or float_only),
                                   quick)
        return decide_sides(l, o, r, domain, seed, float_only=float_only)

    funcs = families.undefined_functions(lhs, rhs)
    if funcs:
        deferred = _has_deferred(lhs, rhs)
        size = families.family_size(funcs, deferred)
        if deferred:
            from .expectation import NUMERIC
            from .sampling import SAMPLED
            outer = (list(NUMERIC), list(SAMPLED))  # expectations outside the deferred ones, kept for each member
            member = lambda l, o, r: _resolved_member(scope, l, o, r, seed, rest, size, outer)  # noqa: E731
        else:
            member = rest
        v = families.decide(lhs, op, rhs, funcs, member, expectations=deferred)
        where = searched[0] if searched else describe(domain_of(scope, _stripped(lhs, rhs))[0], scope)
        return v, where + f"; {', '.join(map(str, funcs))}: " + \
            ("every smooth function" if v.status is Status.PROVED else "test functions (see the evidence)")
    v = rest(lhs, op, rhs)
    return v, searched[0] if searched else ""


def _stripped(*sides) -> list:
    """The sides with deferred expectations and Monte-Carlo placeholders set to 0: what remains are the names a
    domain is searched over (the random variables inside E[...] are integrated, never searched)."""
    from .expectation import Deferred
    from .sampling import SAMPLED
    marks = {p.symbol: sp.Integer(0) for p in SAMPLED}
    out = []
    for x in sides:
        if isinstance(x, (sp.Basic, sp.MatrixBase)):
            x = x.replace(lambda e: isinstance(e, Deferred), lambda e: sp.Integer(0)) if x.has(Deferred) else x
            x = x.xreplace(marks) if marks else x
        out.append(x)
    return out


def _has_deferred(*sides) -> bool:
    from .expectation import Deferred
    return any(isinstance(x, (sp.Basic, sp.MatrixBase)) and x.has(Deferred) for x in sides)


def _resolved_member(scope: Scope, lhs, op: str, rhs, seed: int, rest, multiplicity: int,
                     outer: tuple = ((), ())) -> Verdict:
    """One test function of a family in a statement with deferred expectations (``E(X*f(X))``): the expectations
    computed with f replaced (closed form, else quadrature or Monte Carlo), then the statement decided.  No closed
    form and nothing numeric: inconclusive with ``skipped`` (the family skips that member and says so)."""
    from .expectation import NUMERIC, NoClosedForm, resolve_deferred
    from .sampling import SAMPLED
    NUMERIC[:] = outer[0]
    SAMPLED[:] = outer[1]
    rvs = scope.random_variables()
    try:
        lhs, rhs = resolve_deferred(lhs, rvs), resolve_deferred(rhs, rvs)
    except NoClosedForm as exc:
        return inconclusive("expectation", str(exc), skipped=True)
    numeric, sampled = list(NUMERIC), list(SAMPLED)
    if _involves(lhs, rhs, sampled):
        return _sampled_verdict(lhs, op, rhs, sampled, numeric, seed, multiplicity)
    v = rest(lhs, op, rhs)
    return _numeric_expectations(v, lhs, op, rhs, numeric) if numeric else v


def _involves(lhs, rhs, sampled) -> bool:
    """Does a Monte-Carlo placeholder survive in the statement (E(h) - E(h) cancels: then it is exact)?"""
    marks = [p.symbol for p in sampled]
    if not marks:
        return False
    if isinstance(lhs, sp.MatrixBase) or isinstance(rhs, sp.MatrixBase):
        return any(isinstance(x, (sp.Basic, sp.MatrixBase)) and x.has(*marks) for x in (lhs, rhs))
    return sp.expand(sp.sympify(lhs) - sp.sympify(rhs)).has(*marks)


def _sampled_verdict(lhs, op: str, rhs, sampled, numeric, seed: int, multiplicity: int = 1) -> Verdict:
    """A statement with Monte-Carlo placeholders (:mod:`.sampling`), with any quadrature error granted."""
    from . import sampling
    err = 100 * sum(e for _, _, e in numeric)
    note = "; ".join(f"{w} ≈ {val:.12g} by numerical quadrature (error ≤ {e:.1e})" for w, val, e in numeric)
    return sampling.decide(lhs, op, rhs, sampled, seed, multiplicity=multiplicity, extra_error=err, note=note)


def _prepare(scope: Scope, stmt: Statement):
    scope.fixed, scope.zeroed = set(), set()
    infer_integers(scope, [stmt.lhs, stmt.rhs])
    b = Builder(scope, latex=stmt.source == "latex")
    b.numeric_integrals = True  # an integral without a closed form by quadrature: its error is stated (NUMERIC)
    return b.build(stmt.lhs), b.build(stmt.rhs)


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
    from .expectation import NUMERIC, NoClosedForm
    from .sampling import SAMPLED
    NUMERIC.clear()
    SAMPLED.clear()
    try:
        lhs, rhs = _prepare(scope, stmt)
    except NoClosedForm as exc:
        return inconclusive(getattr(exc, "method", "expectation"), str(exc)), None, None, (), ""
    numeric, sampled = list(NUMERIC), list(SAMPLED)
    if _involves(lhs, rhs, sampled) and not _has_deferred(lhs, rhs):
        verdict = _sampled_verdict(lhs, stmt.op, rhs, sampled, numeric, seed)
        rvs = sorted({rv.describe() for p in sampled for rv in p.variables})
        where = "Monte Carlo over " + ", ".join(rvs)
        verdict = replace(verdict, details={**dict(verdict.details), "domain": where})
        return verdict, display_latex(stmt.lhs), display_latex(stmt.rhs), (), where
    verdict, where = decide_link(scope, lhs, stmt.op, rhs, seed, float_only)
    if numeric:
        verdict = _numeric_expectations(verdict, lhs, stmt.op, rhs, numeric)
    domain, _ = domain_of(scope, _stripped(lhs, rhs))
    verdict = _honest_about_subs(verdict, domain, scope.fixed)
    if where and "domain" not in verdict.details:
        verdict = replace(verdict, details={**dict(verdict.details), "domain": where})
    return verdict, display_latex(stmt.lhs), display_latex(stmt.rhs), tuple(map(str, domain.symbols)), where


def _numeric_expectations(v: Verdict, lhs, op, rhs, numeric) -> Verdict:
    """A statement with an expectation computed by quadrature: never 'proved'; a difference within the stated
    quadrature error (x100) decides nothing (== agrees: holds numerically; an inequality at its edge: inconclusive)."""
    err = 100 * sum(e for _, _, e in numeric) + 1e-12
    note = "; ".join(f"{w} ≈ {val:.12g} by numerical quadrature (scipy.integrate, error ≤ {e:.1e})"
                     for w, val, e in numeric)
    try:
        gap = float(sp.N(sp.sympify(lhs) - sp.sympify(rhs), 30)) if not _free_symbols([lhs, rhs]) else None
    except (TypeError, ValueError):
        gap = None
    if gap is not None and abs(gap) <= err:
        if op in ("==", "<=", ">="):
            return holds("numerical quadrature", f"lhs − rhs = {gap:.3g}, within the quadrature error bound "
                         f"{err:.1e} (no proof); {note}", quadrature=note)
        return inconclusive("numerical quadrature", f"lhs − rhs = {gap:.3g} is within the quadrature error "
                            f"bound {err:.1e}: the strict inequality is not decided; {note}")
    status = Status.HOLDS if v.status is Status.PROVED else v.status
    return Verdict(status, f"{v.method}; numerical quadrature", f"{v.evidence}; {note} (error margin {err:.1e})",
                   v.counterexample, {**dict(v.details), "quadrature": note})


def warm_imports(op: str = "==") -> None:
    """Import in the parent what the forked check needs, so that a session pays for it once (a module
    imported in the child is gone when the child exits)."""
    from ..checks import identity  # noqa: F401  (SymPy, Hypothesis, mpmath)
    from . import discrete, families, prove, shrink  # noqa: F401
    if op != "==":
        from ..checks import inequality  # noqa: F401  (SciPy's optimiser)
    _warm_simplify()


_SIMPLIFY_WARM = False


def _warm_simplify() -> None:
    """Call ``sp.simplify`` once in the parent: its first call imports ``sympy.physics.units`` (0.3–0.6 s of CPU).
    Paid in a forked check, that import was lost with the child and counted against the proof tier's 0.3 s CPU
    budget (:mod:`.prove`), so the same step came out "proved" or only "holds" depending on whether an earlier
    step had happened to warm the parent (a cold process, a new pool worker)."""
    global _SIMPLIFY_WARM
    if not _SIMPLIFY_WARM:
        x = sp.Symbol("x", positive=True)
        sp.simplify(sp.sqrt(x**2) + sp.factor(x**2 + 2 * x + 1))
        _SIMPLIFY_WARM = True


def _check_link(scope: Scope, stmt: Statement, *, seed: int, timeout: float, isolate: bool,
                given: tuple = (), by: str | None = None) -> StepVerdict:
    warm_imports(stmt.op if not (given or by) else "<=")
    start = time.perf_counter()
    cpu_start = time.process_time()
    s = statement_seed(scope.context.name, stmt.text, seed)
    extra: dict = {}
    if given or by:
        from .certify import certify

        def job():
            v, l_tex, r_tex, syms = certify(scope, stmt, given, by, s)
            return v, l_tex, r_tex, syms, ""
        extra = {"given": [g.text for g in given], "rule": by}
    else:
        job = lambda: _run(scope, stmt, s, False)  # noqa: E731
    where = ""
    try:
        try:
            verdict, l_tex, r_tex, syms, where = run_limited(job, timeout if given or by else 0.6 * timeout, isolate)
        except HardTimeout:
            if given or by:
                raise
            # the first attempt had 0.6 of the budget (CPU time in a forked child): the rest is the second's, less
            # this process's own CPU time since the start — never the wall clock, which a busy machine stretches
            left = 0.4 * timeout - (time.process_time() - cpu_start)
            if left <= 0.05:
                raise
            verdict, l_tex, r_tex, syms, where = run_limited(lambda: _run(scope, stmt, s, True), left, isolate)
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
    return StepVerdict(stmt.text, scope.context.name, verdict, stmt.op, l_tex, r_tex, syms, extra=extra,
                       domain=where, line_no=stmt.line)


def check_statement(scope: Scope, stmt: Statement, *, seed: int = DEFAULT_SEED,
                    timeout: float = DEFAULT_TIMEOUT, isolate: bool = True,
                    given: Iterable[Statement] = (), by: str | None = None) -> StepVerdict:
    """Decide ``stmt`` in ``scope`` (or, with ``given``/``by``, check the step's certificate).  A chain
    ``A == B <= C`` is decided link by link; the verdict names the first link that fails."""
    given = tuple(given)
    if not stmt.is_chain:
        return _check_link(scope, stmt, seed=seed, timeout=timeout, isolate=isolate, given=given, by=by)
    if given or by:
        raise BadInput("--given/--by check one step, not a chain")
    start = time.perf_counter()
    links = tuple(_check_link(scope, link, seed=seed, timeout=timeout, isolate=isolate) for link in stmt.links())
    from .result import chain_verdict
    return chain_verdict(stmt, scope.context.name, links, time.perf_counter() - start)


def build_definition(scope: Scope, expr, timeout: float = DEFAULT_TIMEOUT, isolate: bool = True):
    """Build a ``name := expr`` right-hand side under the hard time limit."""
    def job():
        infer_integers(scope, [expr])
        return Builder(scope).build(expr)
    return run_limited(job, timeout, isolate)


def build_function(scope: Scope, params: tuple[str, ...], expr, timeout: float = DEFAULT_TIMEOUT,
                   isolate: bool = True) -> sp.Lambda:
    """``f(x, y) := expr`` as a SymPy Lambda of fresh real parameters."""
    def job():
        args = tuple(sp.Dummy(p, real=True) for p in params)
        scope.local.append(dict(zip(params, args)))
        try:
            body = Builder(scope).build_scalar(expr, "a function body")
        finally:
            scope.local.pop()
        return sp.Lambda(args, body)
    return run_limited(job, timeout, isolate)
