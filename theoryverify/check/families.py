"""Unspecified functions (``--assume "f: function"``): a symbolic proof for every smooth f, else a check
on a stated family of test functions.

SymPy first tries the statement with ``f`` left abstract (``diff(f(x)**2, x) == 2*f(x)*diff(f(x), x)``
simplifies to 0 for every f): that is a proof.  Otherwise ``f`` is replaced by each function of
:data:`FAMILY` in turn (several declared functions take different members) and the statement is checked
for each; a failure is a refutation with the test function named, and passing them all is ``holds`` on
the family, never a proof for every f — the verdict says so.

Expectations of an unspecified function of a random variable (Stein-type identities,
``E(X*f(X)) == s**2*E(diff(f(X), X))`` under ``X ~ Normal(0, s)``) are checked on :data:`EXPECTATION_FAMILY`
instead: polynomials, exponentials of linear forms and sin/cos, whose expectations have closed forms for the
Normal and Poisson laws (moments and derivatives of the moment generating function) and polynomial ones for
every declared law.  A member whose expectation has no closed form is computed by quadrature or Monte Carlo where
the parameters are numbers, else skipped and named in the verdict; at least :data:`MIN_DECIDED` members must
be decided.

What ``f`` ranges over: the language has no hypotheses on a declared function, so ``f: function`` means a smooth
real function of moderate growth (its expectations and those of its derivatives exist), and every test function
is of that kind.  A refutation names the test function (a counterexample: the statement is false for it).  A
pass on the family is evidence, reported as ``holds`` on the listed family and "not a proof for every f"; the
``--tex`` policy (:mod:`.tex.policy`) turns that into inconclusive.
"""
from __future__ import annotations

from typing import Callable

import sympy as sp
from sympy.core.function import AppliedUndef

from ..checks.identity import symbolic_zero
from ..verdicts import Status, Verdict, holds, inconclusive, proved

T = sp.symbols("t1:7", real=True)
# one-argument test functions: smooth on the whole real line
FAMILY = [
    ("t", lambda t: t[0]),
    ("t**2", lambda t: t[0]**2),
    ("t**3 - 2*t", lambda t: t[0]**3 - 2 * t[0]),
    ("exp(t)", lambda t: sp.exp(t[0])),
    ("sin(t)", lambda t: sp.sin(t[0])),
    ("1/(1 + t**2)", lambda t: 1 / (1 + t[0]**2)),
    ("log(1 + t**2)", lambda t: sp.log(1 + t[0]**2)),
]
# several arguments: mixes of the same shapes
FAMILY_MULTI = [
    ("t1 + 2*t2", lambda t: sum((i + 1) * x for i, x in enumerate(t))),
    ("t1*t2", lambda t: sp.Mul(*t)),
    ("t1**2 + t2**3", lambda t: sum(x**(i + 2) for i, x in enumerate(t))),
    ("exp(t1 - t2)", lambda t: sp.exp(sum((-1)**i * x for i, x in enumerate(t)))),
    ("sin(t1)*cos(t2)", lambda t: sp.sin(t[0]) * sp.Mul(*[sp.cos(x) for x in t[1:]])),
    ("1/(1 + t1**2 + t2**2)", lambda t: 1 / (1 + sum(x**2 for x in t))),
]
# one argument, for expectations: closed forms from moments and the MGF (Normal, Poisson; polynomials: every law)
EXPECTATION_FAMILY = [
    ("t", lambda t: t[0]),
    ("t**2", lambda t: t[0]**2),
    ("t**3 - 2*t", lambda t: t[0]**3 - 2 * t[0]),
    ("t**4 - t", lambda t: t[0]**4 - t[0]),
    ("exp(t)", lambda t: sp.exp(t[0])),
    ("exp(-2*t)", lambda t: sp.exp(-2 * t[0])),
    ("t*exp(t/2)", lambda t: t[0] * sp.exp(t[0] / 2)),
    ("sin(t)", lambda t: sp.sin(t[0])),
    ("cos(2*t)", lambda t: sp.cos(2 * t[0])),
]
EXPECTATION_FAMILY_MULTI = [
    ("t1 + 2*t2", lambda t: sum((i + 1) * x for i, x in enumerate(t))),
    ("t1*t2", lambda t: sp.Mul(*t)),
    ("t1**2 + t2**3", lambda t: sum(x**(i + 2) for i, x in enumerate(t))),
    ("t1**2*t2 - t2", lambda t: t[0]**2 * sp.Mul(*t[1:]) - sp.Add(*t[1:])),
    ("exp(t1 - t2)", lambda t: sp.exp(sum((-1)**i * x for i, x in enumerate(t)))),
    ("t1*exp(t2)", lambda t: t[0] * sp.exp(sp.Add(*t[1:]))),
    ("sin(t1)*cos(t2)", lambda t: sp.sin(t[0]) * sp.Mul(*[sp.cos(x) for x in t[1:]])),
]
MIN_DECIDED = 3
SYMBOLIC_SECONDS = 1.0


def undefined_functions(*sides) -> dict[sp.FunctionClass, int]:
    out = {}
    for side in sides:
        atoms = side.atoms(AppliedUndef) if isinstance(side, sp.Basic) else set()
        if isinstance(side, sp.MatrixBase):
            atoms = set().union(*(e.atoms(AppliedUndef) for e in side))
        for a in atoms:
            out[a.func] = len(a.args)
    return out


def _subs_form(e: sp.Expr) -> sp.Expr:
    """Derivatives with respect to a function value (SymPy writes d f(g(x))/dx as Derivative(f(g(x)), g(x))·g'(x))
    as Subs of a derivative w.r.t. a dummy, so that g can be replaced by a test function."""
    reps = {}
    for d in e.atoms(sp.Derivative):
        pairs = list(d.variable_count)
        if all(v.is_Symbol for v, _ in pairs):
            continue
        dums = {v: sp.Dummy("xi", real=True) for v, _ in pairs if not v.is_Symbol}
        inner = sp.Derivative(d.expr.xreplace(dums), *[(dums.get(v, v), c) for v, c in pairs])
        reps[d] = sp.Subs(inner, tuple(dums.values()), tuple(dums.keys()))
    return e.xreplace(reps) if reps else e


def _replace(x, mapping):
    if isinstance(x, sp.MatrixBase):
        return sp.ImmutableMatrix(x.applyfunc(lambda e: _replace(e, mapping)))
    x = _subs_form(x)
    for f, lam in mapping.items():
        x = x.replace(f, lam)
    return x.doit()


def family_for(arity: int, expectations: bool = False) -> list[tuple[str, Callable]]:
    if arity == 1:
        return EXPECTATION_FAMILY if expectations else FAMILY
    multi = EXPECTATION_FAMILY_MULTI if expectations else FAMILY_MULTI
    return [(name if arity == 2 else f"{name} (extended to {arity} arguments)", fn) for name, fn in multi]


def family_size(funcs: dict, expectations: bool = False) -> int:
    return max(len(family_for(a, expectations)) for a in funcs.values())


def decide(lhs, op: str, rhs, funcs: dict, decide_rest: Callable[[object, str, object], Verdict],
           expectations: bool = False) -> Verdict:
    """The verdict with the unspecified functions ``funcs`` (class -> arity); ``decide_rest`` decides a
    statement free of them (and, with ``expectations``, computes the deferred expectations first: a member
    whose verdict has ``details["skipped"]`` had no closed form and is skipped)."""
    names = ", ".join(str(f) for f in funcs)
    if op == "==" and not isinstance(lhs, sp.MatrixBase):
        how = symbolic_zero(sp.sympify(lhs - rhs).doit(), SYMBOLIC_SECONDS)
        if how:
            return proved(f"symbolic with {names} abstract: {how}",
                          f"lhs − rhs simplifies to 0 ({how}) for every differentiable {names}",
                          functions="every smooth function")
    size = family_size(funcs, expectations)
    statuses, tried, skipped, sampled = [], [], [], []
    for i in range(size):
        mapping, shown = {}, {}
        for j, (f, arity) in enumerate(funcs.items()):
            fam = family_for(arity, expectations)
            name, fn = fam[(i + j) % len(fam)]
            args = T[:arity]
            mapping[f] = sp.Lambda(args, fn(args))
            shown[str(f)] = name.replace("t1", "t").replace("t2", "u") if arity <= 2 else name
        label = ", ".join(f"{k}(t) = {w}" for k, w in shown.items())
        try:
            v = decide_rest(_replace(lhs, mapping), op, _replace(rhs, mapping))
        except (ValueError, TypeError, ZeroDivisionError) as exc:  # SymPy cannot evaluate with this member
            v = inconclusive("test function", f"with {label}: {type(exc).__name__}: {exc}")
        label = ", ".join(f"{k}(t) = {w}" for k, w in shown.items())
        if v.status is Status.REFUTED:
            ce = {**{f"{k}(t)": w for k, w in shown.items()}, **dict(v.counterexample or {})}
            return Verdict(v.status, f"test function {label}: {v.method}", f"with {label}: {v.evidence}", ce,
                           {**dict(v.details), "test_function": label})
        if v.status is Status.INCONCLUSIVE and v.details.get("skipped"):
            skipped.append(f"{label} ({v.evidence})")
            continue
        if "monte_carlo" in v.details or "quadrature" in v.details:
            sampled.append(label)
        tried.append(label)
        statuses.append(v.status)
    if any(s in (Status.INCONCLUSIVE, Status.ERROR) for s in statuses):
        return inconclusive("test functions", f"some test functions for {names} were inconclusive")
    if len(tried) < MIN_DECIDED:
        return inconclusive("test functions", f"only {len(tried)} of {size} test functions for {names} could be "
                            f"decided (skipped: {'; '.join(skipped)})")
    notes = (f"; skipped (no closed form): {'; '.join(skipped)}" if skipped else "") + \
        (f"; decided numerically (quadrature or Monte Carlo, no proof): {'; '.join(sampled)}" if sampled else "")
    return holds(f"test-function family ({len(tried)} functions)",
                 f"holds for each of {len(tried)} test functions ({'; '.join(tried)}) — a check on this family, "
                 f"not a proof for every smooth {names}{notes}", functions=tried, skipped_functions=skipped)
