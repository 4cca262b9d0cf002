"""Inequality checks: ``lhs OP rhs`` (OP in <=, <, >=, >) on a domain.

First a cheap exact proof is tried (:func:`sign_analysis`, the step checker's prover in
:mod:`theoryverify.check.prove`): for one variable, exact sign analysis of a rational slack on its interval; else
SymPy's sign assumptions after each variable is rewritten as a symbol with the signs its domain gives it
(``N ∈ [1, 100]`` → ``N = 1 + y``, ``y ≥ 0``), so ``1 + 2/N > 0`` is *proved*, not sampled.  A slack it cannot
sign is searched numerically, as before; the prover never refutes.  Otherwise the check evaluates the slack on the
boundary of the domain's closed parts (interval endpoints, simplex vertices and edge midpoints, the corners of the box:
:meth:`Domain.boundary_points`), then searches for a counterexample with Hypothesis (``target()`` on the
negated slack), then polishes the worst points with a local optimiser (scipy, in the domain's unconstrained
coordinates).  A float violation is re-checked at 50 digits before it is reported.  The verdict names the
domain searched and reports the minimum slack found; its recorded coverage counts the boundary points it
evaluated as well as the drawn ones (η = 1/h at h = 0.1 is η's largest value on ``0 < eta <= 1/h``, which a
log-uniform draw rarely reaches), so a domain's own checks meet the quantifier rule for the ranges
``Domain.over()`` gives, while a check on a narrower domain than the claim declares stays inconclusive.  Both sides must be scalars: an inequality between
matrices or sequences has no single meaning, and is an error.
"""
from __future__ import annotations

import math

import operator

import numpy as np
import sympy as sp
from scipy.optimize import minimize

from ..domains import Domain, MatrixVar
from ..numeric import compile_float, high_precision
from ..roundoff import fmt_signed
from ..evidence_types import CouldHaveFailed, attach
from ..verdicts import Verdict, error, holds, inconclusive, refuted
from .identity import _point, _with_boundary
from .search import search, settings_of_the_sides, shrunk

OPS = {"<=": operator.le, "<": operator.lt, ">=": operator.ge, ">": operator.gt}


def slack_expr(lhs: sp.Expr, rhs: sp.Expr, op: str) -> sp.Expr:
    """Positive (or zero, for non-strict) exactly when the inequality holds."""
    return (rhs - lhs) if op in ("<=", "<") else (lhs - rhs)


def _scalar(x, side: str) -> sp.Expr:
    if isinstance(x, (str, bytes)):
        raise TypeError(f"check_inequality: the {side} is text ({str(x)[:40]!r}); build the expression")
    if isinstance(x, (sp.MatrixBase, list, tuple, dict, np.ndarray)) or not isinstance(sp.sympify(x), sp.Expr):
        raise TypeError(f"check_inequality compares scalars; the {side} is a {type(x).__name__} (compare entries "
                        f"one by one, or a norm)")
    return sp.sympify(x)


def _signed_symbol(v) -> tuple[sp.Symbol, sp.Expr] | None:
    """(the domain variable's symbol, an expression for it in a fresh symbol whose SymPy assumptions the domain
    implies), or None for a kind of variable that gives no sign."""
    from fractions import Fraction

    from ..domains import Fixed, IntegerRange, Interval, LogUniform
    from ..check.variables import RealGroup
    if isinstance(v, RealGroup):  # the step checker's variables: (bound, closed) or None
        if len(v.symbols) != 1 or v.bounds or v.relations:
            return None
        (L, Lc), (H, Hc) = v.lo[0], v.hi[0]
        x = v.symbols[0]

        def exact(b):
            return sp.Rational(Fraction(b)) if isinstance(b, float) else sp.sympify(b)
        if L is not None and exact(L) >= 0:
            return x, exact(L) + sp.Symbol(f"{x}_d", **({"nonnegative": True} if Lc else {"positive": True}))
        if H is not None and exact(H) <= 0:
            return x, exact(H) - sp.Symbol(f"{x}_d", **({"nonnegative": True} if Hc else {"positive": True}))
        return x, sp.Symbol(f"{x}_d", real=True)
    if not hasattr(v, "symbol"):
        return None
    if isinstance(v, Fixed):
        return v.symbol, sp.nsimplify(v.value, rational=True)
    name = f"{v.symbol}_d"
    if isinstance(v, IntegerRange):
        lo = sp.Integer(v.lo)
        return v.symbol, lo + sp.Symbol(name, integer=True, nonnegative=True)
    if isinstance(v, (Interval, LogUniform)):
        lo, hi = Fraction(v.lo), Fraction(v.hi)
        lo_closed, hi_closed = getattr(v, "closed", (True, True))
        if lo >= 0:
            y = sp.Symbol(name, nonnegative=True) if lo_closed else sp.Symbol(name, positive=True)
            return v.symbol, sp.Rational(lo.numerator, lo.denominator) + y
        if hi <= 0:
            y = sp.Symbol(name, nonnegative=True) if hi_closed else sp.Symbol(name, positive=True)
            return v.symbol, sp.Rational(hi.numerator, hi.denominator) - y
        return v.symbol, sp.Symbol(name, real=True)
    low = getattr(v, "implied_lo", None)  # an integer bounded by other names (n ∈ {d, …}): its least value
    if low is not None and math.isfinite(low):
        return v.symbol, sp.Integer(math.ceil(low)) + sp.Symbol(name, integer=True, nonnegative=True)
    return None


def _proved_coverage(domain: Domain) -> dict[str, dict]:
    """What a proof on ``domain`` covered, per variable, in the search's format (min, max, distinct values capped
    at 1000): every value of its range — read by the quantifier rule like a search's coverage, so a proof on a
    narrower range than the claim declares is caught as a search's would be.  The symbols of a
    :meth:`~theoryverify.domains.Domain.assuming` domain (bounds and relations) and its derived quantities cover
    the ranges :meth:`~theoryverify.domains.Domain.over` gives them (what ``over=DOM.over()`` declares), or their
    whole symbolic domain where that range is not finite (``"symbolic"``).

    >>> import sympy as sp, theoryverify as tv
    >>> a, b = sp.symbols("a b")
    >>> _proved_coverage(tv.Domain.assuming([a, b], ["0.1 <= a <= 10", "0 < b"]))
    {'a': {'min': 0.1, 'max': 10.0, 'distinct': 1000}, 'b': 'symbolic'}
    """
    from ..check.variables import RealGroup
    from ..domains import Fixed, IntegerRange
    out: dict = {}
    if any(isinstance(v, RealGroup) for v in domain.variables) or domain.derived or domain.dependents:
        try:
            ranges = {o.name: o for o in domain.over()}
        except (ValueError, TypeError, ArithmeticError):  # no ranges to read: nothing recorded (as before)
            ranges = None
        names = [str(m.symbol) for v in domain.variables if isinstance(v, RealGroup) for m in v.members]
        names += [str(v.symbol) for v in domain.dependents]  # a range depending on other names (n ∈ {d, …})
        names = [*names, *map(str, domain.derived)] if ranges is not None else []
        for name in names:
            o = ranges.get(name)
            finite = o is not None and math.isfinite(o.lo) and math.isfinite(o.hi)
            out[name] = {"min": float(o.lo), "max": float(o.hi), "distinct": 1000} if finite else "symbolic"
    for v in domain.variables:
        if len(getattr(v, "symbols", ())) != 1 or not hasattr(v, "symbol") or v in domain.dependents:
            continue
        if isinstance(v, Fixed):
            out[str(v.symbol)] = {"min": float(v.value), "max": float(v.value), "distinct": 1}
        elif isinstance(v, IntegerRange):
            out[str(v.symbol)] = {"min": v.lo, "max": v.hi, "distinct": min(1000, v.hi - v.lo + 1)}
        elif hasattr(v, "lo") and hasattr(v, "hi"):
            out[str(v.symbol)] = {"min": float(v.lo), "max": float(v.hi), "distinct": 1000}
    return out


def sign_analysis(slack: sp.Expr, strict: bool, domain: Domain, seconds: float = 0.5) -> str | None:
    """How ``slack > 0`` (``strict``) or ``slack ≥ 0`` was proved on every point of ``domain``, or None (not
    decided: never a refutation).  One variable with an interval: the step checker's exact sign analysis of a
    rational slack; otherwise SymPy's sign assumptions after every variable is rewritten with the signs its domain
    gives it (the user's own symbol assumptions are not trusted: the domain is what is checked).

    >>> import sympy as sp, theoryverify as tv
    >>> N = sp.Symbol("N")
    >>> sign_analysis(1 + 2 / N, True, tv.Domain([tv.Interval(N, 1, 100)]))[:27]
    'exact sign analysis of the '
    >>> sign_analysis(1 - 2 / N, True, tv.Domain([tv.Interval(N, 1, 100)])) is None
    True
    """
    from ..check import prove as P
    from ..timelimit import bounded

    syms = slack.free_symbols
    if not syms or not syms <= set(domain.symbols):
        return None
    if len(syms) == 1:
        (x,) = syms
        how = bounded(lambda: P._univariate(slack, x, strict, P._interval(domain, x)), seconds, cpu=True)
        if how:
            return how
    subst = {}
    for v in domain.variables:
        got = _signed_symbol(v) if len(getattr(v, "symbols", ())) == 1 else None
        if got is not None:
            subst[got[0]] = got[1]
    if not syms <= set(subst):
        # symbols related to each other (Domain.assuming: "lam_2 < lam_1"): rewritten through positive slacks
        return bounded(lambda: P.related(slack, strict, domain, subst), seconds, cpu=True)

    def signed() -> str | None:
        s = slack.xreplace(subst)
        for form in (s, sp.factor(s), sp.together(s)):
            if (form.is_positive if strict else form.is_nonnegative) is True:
                shown = ", ".join(f"{k} = {w}" for k, w in subst.items() if k in syms)
                return (f"SymPy's sign assumptions: the slack is {'positive' if strict else 'nonnegative'} with "
                        f"{shown} (the signs the domain gives)")
        return None
    return bounded(signed, seconds, cpu=True)


@settings_of_the_sides
def check_inequality(lhs: sp.Expr, op: str, rhs: sp.Expr, domain: Domain, seed: int, *,
                     tol: float = 1e-12, n_float: int | None = None, polish: int = 5,
                     prove: bool = True) -> Verdict:
    """Decide ``lhs OP rhs`` (OP one of ``<=``, ``<``, ``>=``, ``>``) on every point of ``domain``: proved by sign
    analysis where that is exact, else refuted by a counterexample confirmed at 50 digits, else holds on the points
    searched (see the module docstring).  ``prove=False`` skips the sign analysis (the search tiers alone).

    >>> import sympy as sp, theoryverify as tv
    >>> N = sp.Symbol("N")
    >>> tv.check_inequality(1 + 2 / N, ">", 0, tv.Domain([tv.Interval(N, 1, 100)]), seed=0).status.value
    'proved'
    >>> v = tv.check_inequality(1 / (N + 2), ">=", 1 / N, tv.Domain([tv.Interval(N, 1, 100)]), seed=0)
    >>> v.status.value, sorted(v.counterexample)[:1]
    ('refuted', ['N'])
    """
    if op not in OPS:
        return error("inequality", f"unknown operator {op!r}")
    lhs, rhs = _scalar(lhs, "lhs"), _scalar(rhs, "rhs")
    slack = slack_expr(lhs, rhs, op)
    if domain.covers(slack):
        return error("domain", f"symbols without a declared domain: {sorted(map(str, domain.covers(slack)))}")
    strict = op in ("<", ">")
    how = sign_analysis(slack, strict, domain) if prove else None
    if how:
        from ..verdicts import proved
        return proved("sign analysis", f"{how}; on {domain.describe()}", domain=domain.describe(),
                      coverage=_proved_coverage(domain))
    # a domain of matrix or vector variables: its expressions share their entries' subexpressions (compiled once)
    cse = any(isinstance(v, MatrixVar) for v in domain.variables)
    f_slack = compile_float(slack, domain.symbols, cse=cse)
    violated = (lambda s: s <= 0.0) if strict else (lambda s: s < -tol)
    # lhs and rhs: on a matrix domain compiled only when a violation is reported (most checks never report one);
    # on any other domain compiled here, as they always were (the shipped papers' runs stay byte-identical)
    sides: dict[str, object] = {} if cse else {"l": compile_float(lhs, domain.symbols),
                                                "r": compile_float(rhs, domain.symbols)}

    def f_l(point):
        if "l" not in sides:
            sides["l"] = compile_float(lhs, domain.symbols, cse=cse)
        return sides["l"](point)

    def f_r(point):
        if "r" not in sides:
            sides["r"] = compile_float(rhs, domain.symbols, cse=cse)
        return sides["r"](point)

    def confirmed(point) -> Verdict | None:
        exact = high_precision(slack, point)
        if (exact <= 0) if strict else (exact < -tol):
            return shrunk(refuted("boundary points + Hypothesis search + local optimiser, 50-digit confirmation",
                                  f"violated: {lhs_rhs(f_l(point), op, f_r(point))} (slack {float(exact):.3g})",
                                  {**_point(point), "lhs": f_l(point), "rhs": f_r(point)},
                                  slack=float(exact), domain=domain.describe()), lhs, op, rhs, domain,
                          tol=0.0 if strict else tol)
        return None

    corners = domain.boundary_points()
    corner_min, corner_worst, unconfirmed, rounding, search_rounding = np.inf, None, None, 0, 0
    for p in corners:
        s = f_slack(p)
        if not np.isfinite(s):
            continue
        if violated(s):
            found = confirmed(p)
            if found is not None:
                return found
            # float64 rounding at an extreme corner; the 50-digit slack says it is no violation: use that
            s, rounding = float(high_precision(slack, p)), rounding + 1
        if s < corner_min:
            corner_min, corner_worst = s, p
    def searched(f):
        """The Hypothesis search and the local polish of slack function ``f``: (result, candidate, polished)."""
        res = search(domain.floats(), lambda p: -f(p), fails=lambda bad: violated(-bad),
                     seed=seed, max_examples=n_float, label="-slack")
        candidate, polished = res.failure, 0
        if candidate is None and domain.free_dim and res.top:
            for _, start in res.top[:polish]:
                opt = minimize(lambda z: f(domain.from_free(z)), domain.to_free(start),
                               method="Nelder-Mead", options={"maxiter": 400, "xatol": 1e-10, "fatol": 1e-14})
                polished += 1
                point = domain.from_free(opt.x)
                s = f(point)
                if np.isfinite(s) and s < -res.worst_score:
                    res.worst, res.worst_score = point, -s
                if np.isfinite(s) and violated(s):
                    candidate = point
                    break
        return res, candidate, polished

    res, candidate, polished = searched(f_slack)
    if candidate is not None:
        found = confirmed(candidate)
        if found is not None:
            return found
        # a float64 violation that the 50-digit slack does not confirm is rounding, and it stopped the search
        # there: search again, each float64 violation re-evaluated at 50 digits (its exact slack is the score),
        # so a rounding point neither refutes nor hides the rest of the domain
        recheck = [0]

        def f_exact_when_violated(p):
            s = f_slack(p)
            if np.isfinite(s) and violated(s):
                recheck[0] += 1
                return float(high_precision(slack, p))
            return s
        res, candidate, polished = searched(f_exact_when_violated)
        search_rounding = recheck[0]
        if candidate is not None:
            found = confirmed(candidate)
            if found is not None:
                return found
            unconfirmed = candidate
    if unconfirmed is not None:
        return inconclusive("float search", "float64 violation not confirmed at 50 digits",
                            point=_point(unconfirmed), domain=domain.describe())
    finite = res.tried - res.nonfinite
    if finite < 10:
        return inconclusive("float search", f"only {finite} finite evaluations", tried=res.tried)
    min_slack = -res.worst_score
    worst = res.worst
    nb = sum(1 for p in corners if np.isfinite(f_slack(p)))
    if corner_worst is not None and corner_min < min_slack:
        min_slack, worst = float(corner_min), corner_worst
    redo = f" ({rounding} re-evaluated at 50 digits)" if rounding else ""
    searched_redo = (f" ({search_rounding} float64 violations re-evaluated at 50 digits: rounding, not violations)"
                     if search_rounding else "")
    extra = {"search_rounding": search_rounding} if search_rounding else {}
    v = holds(f"{nb} boundary points + Hypothesis search ({finite}) + {polished} local optimisations",
                 f"no violation in {nb} boundary{redo} + {finite} float64 points{searched_redo} + {polished} "
                 f"polished starts on {domain.describe()}; min slack {fmt_signed(min_slack)}", float_points=finite,
                 boundary_points=nb, boundary_rounding=rounding, min_slack=min_slack, tolerance=tol, **extra,
                 worst_point=_point(worst) if worst else None, domain=domain.describe(),
                 coverage=_with_boundary(res.coverage(domain.symbols),
                                         [p for p in corners if np.isfinite(f_slack(p))]))
    return attach(v, CouldHaveFailed("search", f"a violation at any of the {nb} boundary, {finite} float64 or "
                                               f"{polished} locally minimised points (slack < −{tol:g}, confirmed at "
                                               f"50 digits) would refute"))


def lhs_rhs(a: float, op: str, b: float) -> str:
    return f"lhs = {a:.6g} {op} rhs = {b:.6g} is false"


def _per_setting(value, config: dict):
    """``value``, or ``value(config)`` when it is a function of the setting (a SymPy expression or matrix, though
    callable in SymPy's sense, is a value)."""
    if isinstance(value, (sp.Basic, sp.MatrixBase, Domain, int, float, str)) or not callable(value):
        return value
    return value(dict(config))


def check_inequality_over(over, lhs, op: str, rhs, domain, seed: int, *, settings_n: int = 3, draws: int = 2,
                          **options) -> Verdict:
    """:func:`check_inequality` at every setting of the declared ranges ``over``, in one call: the settings are
    ``tv.settings(over, seed, n=settings_n, draws=draws)`` and the verdicts are combined by
    :func:`theoryverify.check_over` (the refuting setting named, the others after it not run, each setting
    recorded as a configuration for the quantifier and span rules).  Each of ``lhs``, ``rhs`` and ``domain`` is
    the value :func:`check_inequality` takes, or a function of the setting returning it (the printed display in
    this setting's ``tv.MatrixVar`` shapes; the Domain of its variables; a name both in the setting and in its
    domain is an error).  ``domain=None`` where the settings give every name (and no side is a shaped
    ``tv.printed``): the two sides are compared at each setting (``tol`` as :func:`check_inequality`'s; a name
    the setting does not give is that setting's error).  Further keywords (``tol``, ``n_float``, ``prove``, …) go
    to :func:`check_inequality`.

    >>> import sympy as sp, theoryverify as tv
    >>> over = [tv.Over("d", 1, 3, integer=True)]
    >>> w = lambda c: tv.VectorVar("w", c["d"])
    >>> sq = lambda c: (w(c).vector.T * w(c).vector)[0]                      # ‖w‖²
    >>> v = tv.check_inequality_over(over, sq, "<=", lambda c: c["d"] * sq(c) + 1, lambda c: tv.Domain([w(c)]), 0)
    >>> v.status.value, [c["d"] for c in v.details["configurations"]]
    ('holds', [1, 3, 2])
    >>> v = tv.check_inequality_over(over, sq, "<=", lambda c: c["d"] - 1, lambda c: tv.Domain([w(c)]), 0)
    >>> v.status.value, v.counterexample["part"]
    ('refuted', 'd=1')
    >>> ab = [tv.Over("a", 0.1, 10), tv.Over("b", 0.1, 10)]                  # every name a declared range
    >>> tv.check_inequality_over(ab, lambda c: c["a"] / (c["a"] + c["b"]), "<=", 1, None, 0).status.value
    'holds'
    """
    from ..conditions import Over
    from ..ranges import check_over
    from .agreement import _domain_at

    from ..displays import at_setting, domain_with

    def once(config: dict) -> Verdict:
        """``domain=None`` and no shapes: every name is a parameter of the setting — the two sides compared there."""
        from ..numeric import evaluate

        values = []
        for name, side in (("lhs", lhs), ("rhs", rhs)):
            got = at_setting(side, config, None)
            try:
                values.append(evaluate(got, config) if isinstance(got, sp.Basic) else float(got))
            except Exception as exc:  # noqa: BLE001 - a name the setting does not give: this setting's error
                return error("inequality at the setting", f"check_inequality_over with domain=None: the {name} at "
                             f"the setting is no number ({' '.join(str(exc).split())[:160]}); a name that is no "
                             f"parameter of the setting needs a domain")
        left, right = values
        slack = right - left if op in ("<=", "<") else left - right
        if not slack == slack:  # a side undefined (nan) at the setting: not decided there, never a refutation
            return inconclusive("the two sides at the setting", f"{left:.6g} {op} {right:.6g}: a side is undefined "
                                "at the setting")
        if slack <= 0 if op in ("<", ">") else slack < -options.get("tol", 1e-12):
            return refuted("the two sides at the setting", f"{left:.6g} {op} {right:.6g} fails",
                           {**config, "lhs": left, "rhs": right})
        return holds("the two sides at the setting", f"{left:.6g} {op} {right:.6g}")

    def at(config: dict, seed: int) -> Verdict:
        if op not in OPS:
            return error("inequality", f"unknown operator {op!r}")
        try:
            dom = domain_with(lambda c: _per_setting(domain, c), config, (lhs, rhs), "check_inequality_over")
            if dom is None:
                return once(config)
            dom = _domain_at(dom, config, "check_inequality_over")
        except ValueError as exc:
            return error("inequality over declared ranges", str(exc))
        return check_inequality(at_setting(lhs, config, dom), op, at_setting(rhs, config, dom), dom, seed, **options)

    return check_over([over] if isinstance(over, Over) else list(over), at, seed, n=settings_n, draws=draws)
