"""Unspecified functions (``--assume "f: function"``): a symbolic proof for every smooth f, else a check
on a stated family of test functions.

SymPy first tries the statement with ``f`` left abstract (``diff(f(x)**2, x) == 2*f(x)*diff(f(x), x)``
simplifies to 0 for every f): that is a proof.  Otherwise ``f`` is replaced by each function of
:data:`FAMILY` in turn (several declared functions take different members) and the statement is checked
for each; a failure is a refutation with the test function named, and passing them all is ``holds`` on
the family, never a proof for every f — the verdict says so.
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


def family_for(arity: int) -> list[tuple[str, Callable]]:
    if arity == 1:
        return FAMILY
    return [(name if arity == 2 else f"{name} (extended to {arity} arguments)", fn) for name, fn in FAMILY_MULTI]


def decide(lhs, op: str, rhs, funcs: dict, decide_rest: Callable[[object, str, object], Verdict]) -> Verdict:
    """The verdict with the unspecified functions ``funcs`` (class -> arity); ``decide_rest`` decides a
    statement free of them."""
    names = ", ".join(str(f) for f in funcs)
    if op == "==" and not isinstance(lhs, sp.MatrixBase):
        how = symbolic_zero(sp.sympify(lhs - rhs).doit(), SYMBOLIC_SECONDS)
        if how:
            return proved(f"symbolic with {names} abstract: {how}",
                          f"lhs − rhs simplifies to 0 ({how}) for every differentiable {names}",
                          functions="every smooth function")
    size = max(len(family_for(a)) for a in funcs.values())
    statuses, tried = [], []
    for i in range(size):
        mapping, shown = {}, {}
        for j, (f, arity) in enumerate(funcs.items()):
            fam = family_for(arity)
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
        tried.append(label)
        if v.status is Status.REFUTED:
            ce = {**{f"{k}(t)": w for k, w in shown.items()}, **dict(v.counterexample or {})}
            return Verdict(v.status, f"test function {label}: {v.method}", f"with {label}: {v.evidence}", ce,
                           dict(v.details))
        statuses.append(v.status)
    if any(s in (Status.INCONCLUSIVE, Status.ERROR) for s in statuses):
        return inconclusive("test functions", f"some test functions for {names} were inconclusive")
    return holds(f"test-function family ({len(tried)} functions)",
                 f"holds for each of {len(tried)} test functions ({'; '.join(tried)}) — a check on this family, "
                 f"not a proof for every smooth {names}", functions=tried)
