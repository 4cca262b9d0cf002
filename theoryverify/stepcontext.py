"""Step contexts: the names a theorist may use when checking one derivation step.

A :class:`StepContext` is what a paper offers the step checker (``python -m theoryverify.check``):
free symbols with the domain each ranges over (domain variables from :mod:`theoryverify.domains`),
named definitions (SymPy expressions in those symbols, built by the paper's derivation module,
never re-typed), and optional reparametrisations (e.g. ``v = softmax(theta)``) so that
``diff(L, theta_i)`` follows the chain rule.  A paper exposes its contexts as a module-level
``CONTEXTS`` list in its ``contexts`` module (``<paper package>/contexts.py``); :func:`contexts` collects them, plus the
built-in ``free`` context (every identifier a real symbol; domains from ``--assume``).
"""
from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Callable, Iterable, Mapping, Sequence

import sympy as sp

from .domains import Domain, Fixed, Interval, LogUniform, Simplex, Variable
from .errors import TheoryverifyError

Definitions = Mapping[str, sp.Expr]


class UnknownContext(TheoryverifyError, LookupError):
    """An unknown context name (front-ends turn it into a one-line error, exit 2)."""


@dataclass(frozen=True)
class Reparametrisation:
    """Dependent symbols written as functions of coordinates, e.g. v = softmax(theta).

    ``substitution`` maps each dependent symbol to its expression in the coordinates;
    ``jacobian[(dep, coord)]`` is ∂dep/∂coord written in the dependent symbols where possible, so
    that derivatives w.r.t. coordinates stay in the (cheaper) dependent coordinates;
    ``variables`` are the coordinates' domain variables.
    """
    coordinates: tuple[sp.Symbol, ...]
    substitution: Mapping[sp.Symbol, sp.Expr]
    jacobian: Mapping[tuple[sp.Symbol, sp.Symbol], sp.Expr]
    variables: tuple[Variable, ...]
    description: str = ""

    @property
    def dependents(self) -> tuple[sp.Symbol, ...]:
        return tuple(self.substitution)

    def total_derivative(self, expr: sp.Expr, coord: sp.Symbol) -> sp.Expr:
        """d expr / d coord with the dependents following the coordinates (chain rule)."""
        out = sp.diff(expr, coord)
        for dep in self.dependents:
            if expr.has(dep):
                out += sp.diff(expr, dep) * self.jacobian[(dep, coord)]
        return out


def softmax_reparametrisation(deps: Sequence[sp.Symbol], coords: Sequence[sp.Symbol],
                              lo: float = -5.0, hi: float = 5.0) -> Reparametrisation:
    """``deps = softmax(coords)``.  The Jacobian is derived, not typed: with E_k = exp(coord_k),
    ∂dep_j/∂coord_i = E_i ∂(E_j / Σ E)/∂E_i, a function homogeneous of degree 0 in E, so E may be
    replaced by dep (and Σ dep by 1)."""
    exps = [sp.exp(c) for c in coords]
    subst = {d: e / sp.Add(*exps) for d, e in zip(deps, exps)}
    E = [sp.Dummy(f"E{k}", positive=True) for k in range(len(coords))]
    jac = {}
    for j, d in enumerate(deps):
        sm = E[j] / sp.Add(*E)
        for i, c in enumerate(coords):
            g = (E[i] * sp.diff(sm, E[i])).xreplace(dict(zip(E, deps)))
            jac[(d, c)] = sp.expand(g.xreplace({sp.Add(*deps): sp.Integer(1)}))
    return Reparametrisation(tuple(coords), subst, jac, tuple(Interval(c, lo, hi) for c in coords),
                             f"({', '.join(map(str, deps))}) = softmax({', '.join(map(str, coords))})")


@dataclass
class StepContext:
    """Names in scope for a step: symbols (with domains), definitions, reparametrisations.

    ``definitions`` may be a callable (built on first use) so listing contexts stays cheap.
    ``docs`` documents names (shown by ``--symbols`` / ``:symbols``).
    """
    name: str
    description: str
    variables: Sequence[Variable]
    definitions: Definitions | Callable[[], Definitions] = field(default_factory=dict)
    docs: Mapping[str, str] = field(default_factory=dict)
    reparametrisations: Sequence[Reparametrisation] = ()
    open_names: bool = False  # the free context: unknown identifiers become real symbols

    @cached_property
    def defs(self) -> dict[str, sp.Expr]:
        d = self.definitions() if callable(self.definitions) else self.definitions
        return {k: sp.sympify(v) for k, v in d.items()}

    @cached_property
    def symbols(self) -> dict[str, sp.Symbol]:
        """The context's symbols by name; a symbol named by a Python keyword (SymPy's ``Symbol("lambda")``, as a
        paper's printed displays name λ) is also reachable as the step language spells it: ``lam`` (λ is
        translated to lam), else the name with ``_`` appended."""
        import keyword

        syms = [s for v in self.variables for s in v.symbols]
        syms += [c for r in self.reparametrisations for c in r.coordinates]
        out = {str(s): s for s in syms}
        for name, s in list(out.items()):
            if keyword.iskeyword(name):
                out.setdefault("lam" if name == "lambda" else name + "_", s)
        return out

    def reparam_of(self, coord: sp.Symbol) -> Reparametrisation | None:
        for r in self.reparametrisations:
            if coord in r.coordinates:
                return r
        return None

    def domain_for(self, expr_symbols: Iterable[sp.Symbol]) -> tuple[Domain, dict[sp.Symbol, sp.Expr]]:
        """The domain of the variables a statement uses (a simplex is kept whole), and the
        substitution to apply first (dependents -> coordinates when both kinds appear)."""
        used = set(expr_symbols)
        subst: dict[sp.Symbol, sp.Expr] = {}
        variables: list[Variable] = []
        hidden: set[sp.Symbol] = set()
        for r in self.reparametrisations:
            if used & set(r.coordinates):
                if used & set(r.dependents):
                    subst.update(r.substitution)
                    hidden |= set(r.dependents)
                variables += [v for v in r.variables if set(v.symbols) & used]
        for v in self.variables:
            if set(v.symbols) & used and not set(v.symbols) <= hidden:
                variables.append(v)
        return Domain(variables), subst

    def describe_symbols(self) -> list[tuple[str, str]]:
        """(name, domain or definition) rows for ``--symbols``."""
        rows = []
        for v in self.variables:
            rows.append((", ".join(map(str, v.symbols)), describe_variable(v)))
        for r in self.reparametrisations:
            rows.append((", ".join(map(str, r.coordinates)), f"real, {r.description}"))
        for name in self.defs:
            rows.append((name, self.docs.get(name, "definition")))
        if self.open_names:
            rows.append(("(any other name)", "real symbol, searched over ℝ unless --assume says otherwise"))
        return rows


def describe_variable(v: Variable) -> str:
    if isinstance(v, Simplex):
        return "point of the probability simplex (each ≥ 0, sum 1)"
    if isinstance(v, LogUniform):
        return f"> 0, drawn over the decades [{v.lo:g}, {v.hi:g}]"
    if isinstance(v, Interval):
        return f"real in [{v.lo:g}, {v.hi:g}]"
    if isinstance(v, Fixed):
        return f"fixed = {v.value}"
    return type(v).__name__


# --- the built-in free context ----------------------------------------------------------

FREE_RANGE = 10.0


def free_context(variables: Sequence[Variable] = ()) -> StepContext:
    """Every identifier is a real symbol; ``variables`` (from ``--assume``) declare domains."""
    return StepContext("free", "every identifier is a real symbol, searched over ℝ (0, small integers, magnitudes "
                       "1e-6…1e6 in both signs); --assume declares domains, e.g. \"T > 0\", \"0 < x < 1\", "
                       "\"n: integer\", \"y in {-1, 1}\", \"X ~ Normal(mu, s)\"",
                       list(variables), {}, open_names=True)


def default_variable(symbol: sp.Symbol) -> Variable:
    if symbol.is_positive:
        return LogUniform(symbol, 1e-3, 1e3)
    return Interval(symbol, -FREE_RANGE, FREE_RANGE)


# --- discovery (like the claim registry) --------------------------------------------------

@lru_cache(maxsize=None)
def _paper_contexts() -> dict[str, StepContext]:
    from . import registry
    found: dict[str, StepContext] = {}
    for paper, pkg in registry.paper_modules().items():
        name = f"{pkg.__name__}.contexts"
        # CONTEXTS in <pkg>/contexts.py, or in the package itself (a paper with one context needs no extra file)
        declared = list(getattr(pkg, "CONTEXTS", []))
        if importlib.util.find_spec(name) is not None:
            declared += list(getattr(importlib.import_module(name), "CONTEXTS", []))
        for ctx in declared:
            if not isinstance(ctx, StepContext):
                continue
            if ctx.name in found or ctx.name == "free":
                raise RuntimeError(f"duplicate step context name {ctx.name!r}")
            found[ctx.name] = ctx
    return found


def contexts() -> dict[str, StepContext]:
    """Every step context: ``free`` plus each paper's ``CONTEXTS``."""
    return {"free": free_context(), **_paper_contexts()}


def get(name: str) -> StepContext:
    known = contexts()
    if name not in known:
        raise UnknownContext(f"unknown context {name!r} (known: {', '.join(sorted(known))})")
    return known[name]
