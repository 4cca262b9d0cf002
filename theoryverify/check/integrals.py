"""``Integral(f, (x, a, b))``: a definite integral over a real x, nested ones as one iterated integral.

Exact where SymPy finds a closed form within :data:`INTEGRAL_SECONDS` of CPU (the bound the other symbolic work of
a check has); without one, an integral with no free symbol and no unknown function is computed by numerical
quadrature (``scipy.integrate.nquad``, variable bounds as functions of the outer variables), its error estimate
recorded in :data:`~.expectation.NUMERIC` beside the numerical expectations, so that the verdict states it, is never
"proved", and is refuted only where the two sides differ by far more than that error (:mod:`.decide`).  Elsewhere
(the symbolic checks of a step with unknowns) it stays an unevaluated :class:`sympy.Integral` (two equal integrals
still cancel); on decide's path an integral with neither is :class:`NoIntegral` — inconclusive, no value guessed."""
from __future__ import annotations

import ast
import math

import sympy as sp
from sympy.core.function import AppliedUndef

from ..timelimit import bounded
from .expectation import NoClosedForm
from .parser import BadInput

class NoIntegral(NoClosedForm):
    """An integral with neither a closed form nor a quadrature (the verdict is inconclusive)."""
    method = "integral"


INTEGRAL_SECONDS = 1.0  # CPU seconds for SymPy's integration (run.py's SYMBOLIC_SECONDS)
INFINITY_NAMES = ("oo", "oovar")  # ∞ as a bound: the reading writes oo (renamed oovar where names are made plain)
BOUND_SUFFIX = "__int"  # an integration variable's symbol: its written name and this suffix
RELATIVE_FLOOR = 1e-9  # the error stated is never below this fraction of the value (float round-off)


def bound_value(builder, node: ast.expr) -> sp.Expr:
    """A bound: ±∞ (``oo``, ``-oo``) or an expression."""
    if isinstance(node, ast.Name) and node.id in INFINITY_NAMES:
        return sp.oo
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) and isinstance(node.operand, ast.Name) \
            and node.operand.id in INFINITY_NAMES:
        return -sp.oo
    return builder.build_scalar(node, "an integral's bound")


def build_integral(builder, node: ast.Call, inner: bool, numeric: bool = False) -> sp.Expr:
    """The integral ``node`` built; ``inner``: nested in another integral's integrand (kept unevaluated: the
    outermost one evaluates the whole iterated integral); ``numeric``: quadrature allowed where no closed form is
    found (decide's path, which states the error)."""
    body_node, lim = node.args
    var, lo_node, hi_node = lim.elts
    if not isinstance(var, ast.Name):
        raise BadInput("Integral(f, (x, a, b)): the variable x is a name")
    lo, hi = bound_value(builder, lo_node), bound_value(builder, hi_node)
    # one symbol per written name (never a Dummy): the same integral built twice is one expression, so
    # ∫g + 1 = 1 + ∫g cancels; the suffix keeps it apart from any name of the step (no capture)
    x = sp.Symbol(var.id + BOUND_SUFFIX, real=True)
    builder.scope.local.append({var.id: x})
    try:
        body = builder.build_scalar(body_node, "the integrand")
    finally:
        builder.scope.local.pop()
    whole = sp.Integral(body, (x, lo, hi))
    return whole if inner else evaluate(whole, numeric)


def evaluate(whole: sp.Integral, numeric: bool = False) -> sp.Expr:
    """The closed form, else (``numeric``) the quadrature's value, recorded with its error, else ``whole``
    unevaluated."""
    exact = bounded(lambda: whole.doit(), INTEGRAL_SECONDS, cpu=True)
    if exact is not None and not exact.has(sp.Integral, sp.nan, sp.zoo, sp.oo, -sp.oo):
        return exact  # (a divergent integral, or a branch that diverges for some value of a parameter: no value)
    if not numeric:
        return whole
    numeric = quadrature(whole)
    if numeric is None:  # no value is guessed: a search over the free symbols would evaluate it without an error bound
        raise NoIntegral(f"the integral {_shown(whole)} has no closed form the checker finds"
                         + (f" and depends on {', '.join(sorted(map(str, whole.free_symbols)))[:60]}"
                            if whole.free_symbols else ", and numerical quadrature gave no value with an error "
                            "estimate it can trust") + ": not computed")
    value, err = numeric
    from .expectation import NUMERIC
    NUMERIC.append((f"the integral {_shown(whole)}", value, err))
    return sp.Float(value, 17)


def flattened(e: sp.Expr) -> tuple[sp.Expr, list[tuple]] | None:
    """An iterated integral as (integrand, limits innermost first), merging an inner integral that is the integrand
    or one factor of it (the other factors free of its variables); None for anything else."""
    if not isinstance(e, sp.Integral):
        return None
    f, limits = e.function, list(e.limits)
    while f.has(sp.Integral):
        factors = sp.Mul.make_args(f)
        inner = [g for g in factors if isinstance(g, sp.Integral)]
        if len(inner) != 1:
            return None
        g = inner[0]
        rest = sp.Mul(*[h for h in factors if h is not g])
        if rest.free_symbols & set(g.variables):
            return None
        f, limits = rest * g.function, list(g.limits) + limits
    if any(len(lim) != 3 for lim in limits):
        return None
    return f, limits


def quadrature(whole: sp.Integral) -> tuple[float, float] | None:
    """(value, error bound) by ``scipy.integrate.nquad``, or None (free symbols, an unknown function, a bound that
    is not a number once the outer variables are fixed, a failure or a non-finite value)."""
    if whole.free_symbols or whole.has(AppliedUndef, sp.Sum, sp.Product, sp.Derivative, sp.Subs):
        return None
    flat = flattened(whole)
    if flat is None:
        return None
    f, limits = flat
    variables = [lim[0] for lim in limits]
    import numpy as np
    from scipy import integrate
    try:
        g = sp.lambdify(variables, f, "numpy")
        ranges = []
        for k, (_, a, b) in enumerate(limits):
            outer = variables[k + 1:]
            if (a.free_symbols | b.free_symbols) - set(outer):
                return None
            ends = [float(e) if not e.free_symbols else sp.lambdify(outer, e, "numpy") for e in (a, b)]
            if all(isinstance(e, float) for e in ends):
                ranges.append(tuple(ends))
            else:
                ranges.append(_range(ends))

        def integrand(*xs: float) -> float:
            with np.errstate(all="ignore"):
                return float(g(*xs))
        import warnings
        with warnings.catch_warnings():
            # quadpack's warning (subdivisions exhausted, round-off, divergence) says its error estimate cannot be
            # trusted: then no value at all, never one whose stated error may be wrong
            warnings.simplefilter("error", integrate.IntegrationWarning)
            value, err = integrate.nquad(integrand, ranges, opts={"limit": 100, "epsabs": 1e-11, "epsrel": 1e-11})
    except (ValueError, TypeError, OverflowError, ZeroDivisionError, ArithmeticError, integrate.IntegrationWarning):
        return None
    if not (math.isfinite(value) and math.isfinite(err)):
        return None
    return value, max(err, RELATIVE_FLOOR * max(1.0, abs(value)))


def _range(ends):
    """nquad's range of one variable as a function of the outer ones."""
    def at(*outer: float) -> tuple[float, float]:
        return tuple(float(e) if isinstance(e, float) else float(e(*outer)) for e in ends)
    return at


def _shown(whole: sp.Integral) -> str:
    """The integral with its variables under their written names (short)."""
    names = {d: sp.Symbol(d.name[:-len(BOUND_SUFFIX)]) for d in whole.atoms(sp.Symbol)
             if d.name.endswith(BOUND_SUFFIX)}
    import re
    return re.sub(r"\boo\b", "∞", sp.sstr(whole.xreplace(names)))[:80]  # (never 'oo': an undefined side's mark)
