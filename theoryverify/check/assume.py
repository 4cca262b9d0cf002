"""The assumption language of the ``free`` context (``--assume``, ``:assume``, ``% theoryverify: assume``).

One assumption per text:

- bounds and order relations: ``x > 0``, ``0 < p < 1``, ``a < b``, ``0 <= a <= b <= 1``, ``x, y > 0``,
  ``x == 3`` (fixed); bounds are constant expressions (``pi``, ``sqrt(2)``, ``1/2``); a relation with an
  expression (``eta <= 1/L``, ``eta*mu <= 1``) is solved for one name (linearly, coefficient of known sign)
  and that name is drawn after the others within the bound (:class:`~.variables.RealGroup`);
- kinds: ``n: integer`` (with bounds from other assumptions), ``n: natural`` (≥ 0), ``x: real``,
  ``x: positive``, ``x: nonnegative``; ``W: matrix(3, 3)``, ``S: symmetric(3)``, ``v: vector(3)`` (real
  entries ``W[i,j]``, ``v[i]`` from 1, each searched like an unbounded real: 0, small integers, 1e-6…1e6 in
  both signs); ``f: function`` (an unspecified smooth function, checked on a stated
  family of test functions, :mod:`.families`);
- finite sets: ``y in {-1, 1}``, ``n in {1, ..., 10}`` (an integer range);
- ``I: identity(3)`` (the identity matrix; ``I_3`` in a statement needs no declaration);
- random variables: ``X ~ Normal(mu, s)``, ``X, Y ~ Bernoulli(p)``, ``y ~ Rademacher``, ``x ~ Normal(0, I_3)``
  (a vector of independent normals, concrete size) (independent; see
  :data:`~.functions.DISTRIBUTIONS`) for ``E(...)``; a parameter named but not bounded gets the bound its
  distribution needs (``s > 0``), and the domain says so;
- ``simplex(a, b, c)``: a point of the probability simplex.

Several assumptions on one name intersect.  :func:`free_with_assumptions` returns the context; the
declarations that are not domain variables (matrices by name, random variables, functions) travel in its
:class:`Declarations`, which :mod:`.session` puts into the scope.
"""
from __future__ import annotations

import ast
import dataclasses
import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Iterable

import sympy as sp

from ..domains import DomainError, Fixed, Simplex, Variable
from ..stepcontext import StepContext, free_context
from .functions import CONSTANTS, DISTRIBUTIONS, FUNCTIONS
from .parser import COMPARE_OPS, NAME_RE, BadInput, check_text, parse_assumption

NAMES = r"[A-Za-z][A-Za-z0-9_]{0,31}(?:\s*,\s*[A-Za-z][A-Za-z0-9_]{0,31})*"
SIMPLEX_RE = re.compile(r"^\s*simplex\s*\((.*)\)\s*$", re.S)
KIND_RE = re.compile(rf"^\s*({NAMES})\s*:(?!=)\s*([A-Za-z ]+?)\s*(?:\((.*)\))?\s*$", re.S)
RANDOM_RE = re.compile(rf"^\s*({NAMES})\s*~\s*([A-Za-z]+)\s*(?:\((.*)\))?\s*$", re.S)
IDENTITY_RE = re.compile(r"^I(?:_(\w+))?$")
SET_RE = re.compile(rf"^\s*({NAMES})\s+in\s*\{{(.*)\}}\s*$", re.S)
MANY_RE = re.compile(rf"^\s*({NAMES})\s*(<=|>=|<|>|==)\s*([^<>=]+)$", re.S)
MAX_SET = 64
MAX_SHAPE = 6

#: bounds a distribution needs of its parameters: index -> (lower, lower closed, upper, upper closed)
REQUIRED = {
    "Normal": {1: (0, False, None, False)}, "Bernoulli": {0: (0, True, 1, True)}, "Binomial": {1: (0, True, 1, True)},
    "Poisson": {0: (0, False, None, False)}, "Exponential": {0: (0, False, None, False)},
    "Gamma": {0: (0, False, None, False), 1: (0, False, None, False)},
    "Beta": {0: (0, False, None, False), 1: (0, False, None, False)},
}


@dataclass
class Declarations:
    """Everything the assumptions declared, before it becomes domain variables."""
    lo: dict[str, tuple[Fraction, bool]] = field(default_factory=dict)
    hi: dict[str, tuple[Fraction, bool]] = field(default_factory=dict)
    relations: list[tuple[str, str, bool]] = field(default_factory=list)  # a < b (strict) / a <= b
    general: list[tuple[ast.expr, str, ast.expr, str]] = field(default_factory=list)  # eta <= 1/L, eta*mu <= 1
    fixed: dict[str, sp.Rational] = field(default_factory=dict)
    kinds: dict[str, str] = field(default_factory=dict)  # real / integer
    sets: dict[str, tuple] = field(default_factory=dict)
    simplices: list[list[str]] = field(default_factory=list)
    shapes: dict[str, tuple] = field(default_factory=dict)
    functions: set[str] = field(default_factory=set)
    random: dict[str, tuple[str, list[ast.expr]]] = field(default_factory=dict)
    random_vectors: dict[str, tuple[ast.expr, str]] = field(default_factory=dict)  # x ~ Normal(0, I_3): mean, I
    identities: dict[str, int] = field(default_factory=dict)  # I: identity(3)
    notes: list[str] = field(default_factory=list)
    named: dict[str, object] = field(default_factory=dict)  # filled by build: matrices, random variables
    texts: list[str] = field(default_factory=list)

    def names(self) -> set[str]:
        out = set(self.lo) | set(self.hi) | set(self.fixed) | set(self.kinds) | set(self.sets)
        out |= {n for a, b, _ in self.relations for n in (a, b)}
        out |= {n for a, _, b, _ in self.general for n in _node_names(a) | _node_names(b)}
        out |= {n for s in self.simplices for n in s} | set(self.shapes) | self.functions | set(self.random)
        out |= set(self.random_vectors) | set(self.identities)
        return out


def _node_names(node: ast.expr) -> set[str]:
    """The variables an assumption's side names (a called function, ``Abs`` in ``Abs(r) <= 1``, is not one)."""
    called = {id(n.func) for n in ast.walk(node) if isinstance(n, ast.Call)}
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id not in CONSTANTS and id(n) not in called}


def _constant(node: ast.expr) -> sp.Expr:
    from .build import Builder, Scope
    value = Builder(Scope(StepContext("constants", "", []))).build_scalar(node, "a bound")
    if not value.is_real or value.free_symbols:
        raise BadInput("an assumption's bounds must be real numbers")
    return value


def _fraction(value: sp.Expr) -> Fraction:
    if value.is_Rational:
        return Fraction(int(value.p), int(value.q))
    return Fraction(str(sp.N(value, 30))).limit_denominator(10**15)


def _names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",")]
    for n in names:
        if not NAME_RE.match(n):
            raise BadInput(f"not a name: {n[:40]!r}")
        if n in CONSTANTS or n in FUNCTIONS:
            raise BadInput(f"{n!r} is a constant or a function name; choose another name")
    return names


def parse_assumptions(texts: Iterable[str], decl: Declarations | None = None) -> Declarations:
    decl = decl or Declarations()
    for raw in texts:
        if not isinstance(raw, str):
            raise BadInput("an assumption must be text")
        text = raw.replace("∼", "~").replace("∈", " in ").replace("ℝ", "real").replace("ℤ", "integer")
        if "~" in text:
            m = RANDOM_RE.match(text)
            if not m:
                raise BadInput(f"cannot use assumption {raw[:60]!r}: write X ~ Normal(mu, s) "
                               f"(distributions: {', '.join(DISTRIBUTIONS)})")
            _random(decl, _names(m.group(1)), m.group(2), m.group(3) or "")
            decl.texts.append(raw)
            continue
        text = check_text(text)
        decl.texts.append(text)
        if m := SIMPLEX_RE.match(text):
            names = [n.strip() for n in m.group(1).split(",")]
            if len(names) < 2 or not all(NAME_RE.match(n) for n in names) or len(set(names)) != len(names):
                raise BadInput("simplex(a, b, ...) takes two or more distinct names")
            decl.simplices.append(names)
        elif m := KIND_RE.match(text):
            _kind(decl, _names(m.group(1)), m.group(2).strip().lower(), m.group(3))
        elif m := SET_RE.match(text):
            _finite_set(decl, _names(m.group(1)), m.group(2))
        elif (m := MANY_RE.match(text)) and "," in m.group(1):
            for name in _names(m.group(1)):
                _compare(decl, f"{name} {m.group(2)} {m.group(3)}")
        else:
            _compare(decl, text)
    return decl


def listed(text: str) -> tuple[list[str], list[tuple[str, str]]]:
    """A directive's assumption text read as a comma-separated list when it is not one assumption: ``(readable,
    unreadable)``, the assumptions read and the ``(text, reason)`` of each part that is not one.  The parts (split
    at the commas outside brackets) are joined left to right until they read, so ``x, y > 0`` stays one
    assumption and ``eta > 0, h > 0`` is two.

    >>> listed("eta > 0, h > 0")
    (['eta > 0', 'h > 0'], [])
    >>> listed("x, y > 0, 0 < p < 1")
    (['x, y > 0', '0 < p < 1'], [])
    >>> listed("eta > 0, h >")[1][0][0]
    'h >'"""
    def reason(part: str) -> str | None:
        try:
            parse_assumptions([part])
        except BadInput as exc:
            return str(exc)
        return None

    first = reason(text)
    if first is None:
        return [text.strip()], []
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        depth += (c in "([{") - (c in ")]}")
        if c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    if len(parts) == 1:
        return [], [(text.strip(), first)]
    readable, pending = [], ""
    for part in parts:
        pending = f"{pending},{part}" if pending else part
        if pending.strip() and reason(pending) is None:
            readable.append(pending.strip())
            pending = ""
    if not readable:
        return [], [(text.strip(), first)]
    return readable, ([(pending.strip(), reason(pending) or "")] if pending.strip() else [])


def _kind(decl: Declarations, names: list[str], kind: str, args: str | None) -> None:
    def dims(n: int) -> list[int]:
        try:
            vals = [int(a) for a in (args or "").split(",")]
        except ValueError:
            vals = []
        if len(vals) != n or not all(1 <= v <= MAX_SHAPE for v in vals):
            raise BadInput(f"{kind}({'rows, cols' if n == 2 else 'size'}): whole numbers 1..{MAX_SHAPE}")
        return vals
    for name in names:
        if kind in ("integer", "int"):
            decl.kinds[name] = "integer"
        elif kind in ("natural", "nonnegative integer"):
            decl.kinds[name] = "integer"
            _bound(decl, name, Fraction(0), True, lower=True)
        elif kind == "positive integer":
            decl.kinds[name] = "integer"
            _bound(decl, name, Fraction(1), True, lower=True)
        elif kind == "real":
            decl.kinds.setdefault(name, "real")
        elif kind == "positive":
            decl.kinds.setdefault(name, "real")
            _bound(decl, name, Fraction(0), False, lower=True)
        elif kind == "nonnegative":
            decl.kinds.setdefault(name, "real")
            _bound(decl, name, Fraction(0), True, lower=True)
        elif kind == "matrix":
            decl.shapes[name] = ("matrix", *dims(2))
        elif kind == "symmetric":
            decl.shapes[name] = ("symmetric", *dims(1))
        elif kind == "vector":
            decl.shapes[name] = ("vector", *dims(1))
        elif kind == "function":
            decl.functions.add(name)
        elif kind == "identity":
            decl.identities[name] = dims(1)[0]
        else:
            raise BadInput(f"unknown kind {kind!r}: integer, natural, real, positive, nonnegative, matrix(r, c), "
                           "symmetric(n), vector(n), identity(n) or function")


def _finite_set(decl: Declarations, names: list[str], body: str) -> None:
    parts = [p.strip() for p in body.split(",")]
    if len(parts) == 3 and parts[1] in ("...", "…"):
        lo, hi = (_constant(parse_assumption(p)) for p in (parts[0], parts[2]))
        if not (lo.is_Integer and hi.is_Integer and lo <= hi):
            raise BadInput("{a, ..., b}: whole numbers a ≤ b")
        for name in names:
            decl.kinds[name] = "integer"
            _bound(decl, name, Fraction(int(lo)), True, lower=True)
            _bound(decl, name, Fraction(int(hi)), True, lower=False)
        return
    if not parts or len(parts) > MAX_SET or not all(parts):
        raise BadInput(f"a finite set {{a, b, ...}} has 1..{MAX_SET} values")
    values = tuple(dict.fromkeys(_constant(parse_assumption(p)) for p in parts))
    for name in names:
        decl.sets[name] = values


def _random(decl: Declarations, names: list[str], dist: str, args: str) -> None:
    if dist not in DISTRIBUTIONS:
        from .teach import closest
        near = closest(dist, DISTRIBUTIONS)
        raise BadInput(f"unknown distribution {dist!r}" + (f" (closest: {', '.join(near)})" if near else "") +
                       f"; known: {', '.join(DISTRIBUTIONS)}")
    want = DISTRIBUTIONS[dist][0]
    from .certify import split_args
    parts = [p for p in split_args(args)] if args.strip() else []
    if len(parts) != len(want):
        raise BadInput(f"{DISTRIBUTIONS[dist][1]}: {len(want)} parameter(s), got {len(parts)}")
    nodes = [parse_assumption(p) for p in parts]
    if dist == "Normal" and isinstance(nodes[1], ast.Name) and (IDENTITY_RE.match(nodes[1].id)
                                                                or nodes[1].id in decl.identities):
        _random_vector(decl, names, nodes[0], nodes[1].id)
        return
    for node in nodes:
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and n.id not in CONSTANTS and not isinstance(node, ast.Name):
                raise BadInput(f"{dist}(...): each parameter is a number or a single name")
    if dist == "Binomial":
        n = _constant(nodes[0]) if not isinstance(nodes[0], ast.Name) else None
        if n is None or not n.is_Integer or not 1 <= n <= 60:
            raise BadInput("Binomial(n, p): n is a whole number 1..60")
    for name in names:
        decl.random[name] = (dist, nodes)


def _random_vector(decl: Declarations, names: list[str], mean: ast.expr, identity: str) -> None:
    """``x ~ Normal(0, I_3)``: a vector of iid normals (mean a number, covariance an identity of concrete size)."""
    _constant(mean)  # a number
    for name in names:
        decl.random_vectors[name] = (mean, identity)


def _compare(decl: Declarations, text: str) -> None:
    node = parse_assumption(text)
    if not isinstance(node, ast.Compare):
        raise BadInput(f"cannot use assumption {text[:60]!r}: write x > 0, a < x < b, a < b, x == c, n: integer, "
                       "y in {-1, 1}, X ~ Normal(mu, s), W: matrix(3, 3), f: function or simplex(a, b, c)")
    terms = [node.left, *node.comparators]
    ops = [COMPARE_OPS[type(o)] for o in node.ops]
    if not any(_node_names(t) for t in terms):
        raise BadInput(f"cannot use assumption {text[:60]!r}: it names no variable")
    for a, op, b in zip(terms, ops, terms[1:]):
        an = isinstance(a, ast.Name) and a.id not in CONSTANTS
        bn = isinstance(b, ast.Name) and b.id not in CONSTANTS
        if (not an and _node_names(a)) or (not bn and _node_names(b)):  # eta <= 1/L, eta*mu <= 1
            if op == "==":
                raise BadInput(f"cannot use assumption {text[:60]!r}: an equation between expressions; define the "
                               "name instead (--define \"eta := 1/L\")")
            decl.general.append((a, op, b, text))
            continue
        if an and bn:
            if op == "==":
                raise BadInput(f"{a.id} == {b.id}: use one name for both")
            lo_name, hi_name = (a.id, b.id) if op in ("<", "<=") else (b.id, a.id)
            decl.relations.append((lo_name, hi_name, op in ("<", ">")))
            continue
        if not an and not bn:
            raise BadInput(f"cannot use assumption {text[:60]!r}: compares two numbers")
        name = a.id if an else b.id
        value = _constant(b if an else a)
        if op == "==":
            if not value.is_Rational:
                value = sp.Rational(_fraction(value))
            decl.fixed[name] = value
            continue
        lower = (op in (">", ">=")) == an  # name > value, or value < name
        _bound(decl, name, _fraction(value), op in ("<=", ">="), lower=lower)


def _bound(decl: Declarations, name: str, value: Fraction, closed: bool, *, lower: bool) -> None:
    book = decl.lo if lower else decl.hi
    old = book.get(name)
    tighter = old is None or (value > old[0] if lower else value < old[0]) or (value == old[0] and not closed)
    if tighter:
        book[name] = (value, closed)


# --- building the context ---------------------------------------------------------------------------

def free_with_assumptions(texts: Iterable[str]) -> StepContext:
    """The free context with the assumptions' domains (its :class:`Declarations` as ``ctx.declarations``)."""
    decl = parse_assumptions(texts)
    return context_of(decl)


def assumed_context(name: str, description: str, assume: Iterable[str], definitions=None,
                    docs: dict[str, str] | None = None) -> StepContext:
    """A paper's step context declared in the assumption language, for its ``contexts.py``::

        CONTEXTS = [assumed_context("mypaper.logistic", "logistic loss, one example",
                                    ["0 < p < 1", "y in {-1, 1}", "n: integer", "n >= 1", "W: matrix(2, 2)"],
                                    definitions=lambda s: {"L": sp.log(1 + sp.exp(-s["y"] * s["z"]))})]

    Unlike the free context, only the declared names exist (an unknown name is an error that lists the closest
    known ones).  ``definitions`` is a mapping of names to SymPy expressions, or a callable that receives the
    declared symbols by name and returns one (built on first use)."""
    assume = [assume] if isinstance(assume, str) else list(assume)
    ctx = free_with_assumptions(assume)
    symbols = dict(ctx.symbols)
    defs = (lambda: definitions(symbols)) if callable(definitions) else dict(definitions or {})
    out = dataclasses.replace(ctx, name=name, description=description, definitions=defs, docs=dict(docs or {}),
                              open_names=False)
    out.declarations = ctx.declarations  # type: ignore[attr-defined]
    out.declared_as = (description, assume, definitions, dict(docs or {}))  # type: ignore[attr-defined]
    return out


def narrowed(ctx: StepContext, assume: Iterable[str]) -> StepContext:
    """The paper context ``ctx`` with more assumptions (``--assume`` / ``:assume`` with ``--context``): rebuilt from
    its own assumptions plus these, so a statement can be checked on a sub-case (κ ≤ 100, λ = μ).  Only a context
    declared with :func:`assumed_context` can be narrowed; another is refused in one line."""
    declared = getattr(ctx, "declared_as", None)
    if declared is None:
        raise BadInput(f"--assume narrows only a context declared with tv.assumed_context; {ctx.name} declares its "
                       f"domains in Python (add the assumption there, or check in the free context)")
    description, base, definitions, docs = declared
    out = assumed_context(ctx.name, description, [*base, *assume], definitions=definitions, docs=docs)
    new = sorted(set(out.symbols) - set(ctx.symbols))
    if new:
        raise BadInput(f"--assume names {', '.join(new)}, which context {ctx.name} does not declare (it narrows the "
                       f"context's own symbols: {', '.join(sorted(ctx.symbols))})")
    return out


def context_of(decl: Declarations) -> StepContext:
    from .expectation import RandomVariable, RandomVector
    from .variables import EntryGroup, FiniteSet, IntegerVar, Member, RealGroup
    _distribution_requirements(decl)
    taken = {n for s in decl.simplices for n in s} | set(decl.shapes) | decl.functions | set(decl.random)
    taken |= set(decl.random_vectors) | set(decl.identities)
    clash = [n for n in decl.names() if sum(n in g for g in (set(decl.shapes), decl.functions, set(decl.random),
                                                             set(decl.random_vectors), set(decl.identities))) > 1]
    if clash:
        raise BadInput(f"{clash[0]!r} is declared twice with different kinds")
    for name in (set(decl.lo) | set(decl.hi) | set(decl.fixed) | set(decl.sets)) & (taken - {n for s in decl.simplices
                                                                                            for n in s}):
        raise BadInput(f"{name!r} is a matrix, function or random variable: it takes no bounds")
    variables: list[Variable] = []
    for names in decl.simplices:
        variables.append(Simplex(tuple(sp.Symbol(n, nonnegative=True) for n in names)))
    integers = {n for n, k in decl.kinds.items() if k == "integer"} - taken
    for rel in decl.relations:
        for n in rel[:2]:
            if n in integers or n in decl.sets or n in decl.fixed or n in taken:
                raise BadInput(f"order relations are between real variables; {n!r} is not one")
    for name in sorted(decl.fixed):
        if name not in taken:
            if not _within(decl, name, sp.sympify(decl.fixed[name])):  # b < 1 and b == 5: the value had won silently
                raise BadInput(f"the assumptions leave no values for {name}")
            variables.append(Fixed(sp.Symbol(name, real=True), decl.fixed[name]))
    for name in sorted(set(decl.sets) - taken - set(decl.fixed)):
        vals = decl.sets[name]
        ok = [v for v in vals if _within(decl, name, v)]
        if not ok:
            raise BadInput(f"the assumptions leave no values for {name}")
        ints = all(v.is_Integer for v in ok)
        variables.append(FiniteSet(sp.Symbol(name, integer=True) if ints else sp.Symbol(name, real=True), ok))
    for name in sorted(integers - set(decl.sets) - set(decl.fixed)):
        lo, hi = decl.lo.get(name), decl.hi.get(name)
        a = None if lo is None else math.ceil(lo[0]) + (0 if lo[1] or math.ceil(lo[0]) != lo[0] else 1)
        b = None if hi is None else math.floor(hi[0]) - (0 if hi[1] or math.floor(hi[0]) != hi[0] else 1)
        flags = {"nonnegative": True} if a is not None and a >= 0 else {}
        try:
            variables.append(IntegerVar(sp.Symbol(name, integer=True, **flags), a, b))
        except DomainError as exc:
            raise BadInput(str(exc)) from None
    general_names = {n for a, _, b, _ in decl.general for n in _node_names(a) | _node_names(b)}
    for n in sorted(general_names):
        if n in integers or n in decl.sets or n in decl.fixed or n in taken:
            raise BadInput(f"a relation between a name and an expression relates real variables; {n!r} is not one")
    reals = (set(decl.lo) | set(decl.hi) | {n for r in decl.relations for n in r[:2]} | general_names
             | {n for n, k in decl.kinds.items() if k == "real"})
    reals -= taken | integers | set(decl.sets) | set(decl.fixed)
    variables += _real_groups(decl, sorted(reals), Member, RealGroup)
    for name, shape in decl.shapes.items():
        if shape[0] == "vector":
            m = sp.ImmutableMatrix(shape[1], 1, lambda i, j: sp.Symbol(f"{name}[{i + 1}]", real=True))
        else:
            r, c = (shape[1], shape[1]) if shape[0] == "symmetric" else shape[1:]
            sym = shape[0] == "symmetric"
            m = sp.ImmutableMatrix(r, c, lambda i, j: sp.Symbol(
                f"{name}[{min(i, j) + 1},{max(i, j) + 1}]" if sym else f"{name}[{i + 1},{j + 1}]", real=True))
        decl.named[name] = m
        variables.append(EntryGroup(name, shape[0], m.shape if shape[0] != "vector" else (shape[1],),
                                    list(dict.fromkeys(m))))
    ctx = free_context(variables)
    symbols = {str(s): s for var in variables for s in var.symbols}
    for name, (dist, nodes) in decl.random.items():
        params = tuple(symbols[n.id] if isinstance(n, ast.Name) and n.id in symbols else
                       sp.Symbol(n.id, real=True) if isinstance(n, ast.Name) and n.id not in CONSTANTS
                       else _constant(n) for n in nodes)
        _check_numeric_params(dist, params)
        decl.named[name] = RandomVariable(name, sp.Symbol(f"_{name}", real=True), dist, params)
    for name, n in decl.identities.items():
        decl.named[name] = sp.ImmutableMatrix.eye(n)
    for name, (mean, identity) in decl.random_vectors.items():
        size = IDENTITY_RE.match(identity).group(1) if IDENTITY_RE.match(identity) else None
        n = decl.identities.get(identity) or (int(size) if size and size.isdigit() else None)
        if n is None:
            raise BadInput(f"{name} ~ Normal(mean, {identity}): the dimension must be a concrete number: write I_3 (or "
                           "declare I: identity(3)); a symbolic dimension d is not supported")
        if not 1 <= n <= MAX_SHAPE:
            raise BadInput(f"Normal(mean, I_n): n is a whole number 1..{MAX_SHAPE}")
        entries = [RandomVariable(f"{name}[{i + 1}]", sp.Symbol(f"_{name}[{i + 1}]", real=True), "Normal",
                                  (_constant(mean), sp.Integer(1))) for i in range(n)]
        for rv in entries:
            decl.named[rv.name] = rv  # not a name a statement can spell: only reachable through the vector
        decl.named[name] = RandomVector(name, sp.ImmutableMatrix([rv.symbol for rv in entries]))
        decl.notes.append(f"{name} ~ Normal({ast.unparse(mean)}, I_{n}): {n} independent Normal entries")
    ctx.declarations = decl  # type: ignore[attr-defined]
    return ctx


def _check_numeric_params(dist: str, params) -> None:
    for i, (lo, lc, hi, hc) in REQUIRED.get(dist, {}).items():
        p = params[i]
        if p.is_number and ((lo is not None and (p < lo or (p == lo and not lc))) or
                            (hi is not None and (p > hi or (p == hi and not hc)))):
            raise BadInput(f"{DISTRIBUTIONS[dist][1]}: parameter {p} is out of range")
    if dist == "Uniform" and all(p.is_number for p in params) and not params[0] < params[1]:
        raise BadInput("Uniform(a, b) needs a < b")


def _distribution_requirements(decl: Declarations) -> None:
    """Give a named parameter the bound its distribution needs, or check that its declared bounds imply it."""
    for rv, (dist, nodes) in decl.random.items():
        for i, (lo, lc, hi, hc) in REQUIRED.get(dist, {}).items():
            node = nodes[i]
            if not isinstance(node, ast.Name) or node.id in CONSTANTS:
                continue
            name = node.id
            if name in decl.fixed:
                continue
            have_lo, have_hi = decl.lo.get(name), decl.hi.get(name)
            if have_lo is None and lo is not None:
                decl.lo[name] = (Fraction(lo), lc)
                decl.notes.append(f"{name} {'≥' if lc else '>'} {lo} (required by {dist})")
            elif lo is not None and (have_lo[0] < lo or (have_lo[0] == lo and have_lo[1] and not lc)):
                raise BadInput(f"{DISTRIBUTIONS[dist][1]}: your assumptions allow {name} {'<' if lc else '≤'} {lo}")
            if hi is not None:
                if have_hi is None:
                    decl.hi[name] = (Fraction(hi), hc)
                    decl.notes.append(f"{name} {'≤' if hc else '<'} {hi} (required by {dist})")
                elif have_hi[0] > hi:
                    raise BadInput(f"{DISTRIBUTIONS[dist][1]}: your assumptions allow {name} > {hi}")
            decl.kinds.setdefault(name, "real")
        if dist == "Uniform":
            a, b = nodes
            an, bn = (isinstance(n, ast.Name) and n.id not in CONSTANTS for n in (a, b))
            if an and bn and not any(r[:2] == (a.id, b.id) for r in decl.relations):
                decl.relations.append((a.id, b.id, True))
                decl.notes.append(f"{a.id} < {b.id} (required by Uniform)")
            elif an and not bn:
                _bound(decl, a.id, _fraction(_constant(b)), False, lower=False)
            elif bn and not an:
                _bound(decl, b.id, _fraction(_constant(a)), False, lower=True)
            for n in (a, b):
                if isinstance(n, ast.Name) and n.id not in CONSTANTS:
                    decl.kinds.setdefault(n.id, "real")
        for node in nodes:
            if isinstance(node, ast.Name) and node.id not in CONSTANTS:
                decl.kinds.setdefault(node.id, "real")


def _within(decl: Declarations, name: str, v: sp.Expr) -> bool:
    lo, hi = decl.lo.get(name), decl.hi.get(name)
    f = _fraction(v)
    if lo is not None and (f < lo[0] or (f == lo[0] and not lo[1])):
        return False
    if hi is not None and (f > hi[0] or (f == hi[0] and not hi[1])):
        return False
    return True


def _real_groups(decl: Declarations, names: list[str], Member, RealGroup) -> list:
    """Real names, grouped by the relations that connect them, each with symbol assumptions from its
    propagated bounds (so x > 0 gives a positive symbol)."""
    from .variables import sign_flags
    parent = {n: n for n in names}

    def find(n):
        while parent[n] != n:
            parent[n] = parent[parent[n]]
            n = parent[n]
        return n
    for a, b, _ in decl.relations:
        if a in parent and b in parent:
            parent[find(a)] = find(b)
    for a, _, b, _ in decl.general:
        linked = sorted(_node_names(a) | _node_names(b))
        for n in linked[1:]:
            parent[find(n)] = find(linked[0])
    groups: dict[str, list[str]] = {}
    for n in names:
        groups.setdefault(find(n), []).append(n)
    out = []
    for members in groups.values():
        idx = {n: i for i, n in enumerate(members)}
        rels = [(idx[a], idx[b], s) for a, b, s in decl.relations if a in idx and b in idx]

        def member(n, sym):
            lo, hi = decl.lo.get(n), decl.hi.get(n)
            return Member(sym, lo[0] if lo else None, hi[0] if hi else None, bool(lo and lo[1]), bool(hi and hi[1]))
        try:
            probe = RealGroup([member(n, sp.Symbol(n, real=True)) for n in members], rels)
            syms = []
            for n, (L, Lc), (H, Hc) in zip(members, probe.lo, probe.hi):
                syms.append(sp.Symbol(n, **sign_flags(L, Lc, H, Hc, nonpositive=False)))
            bounds = _expression_bounds(decl, dict(zip(members, syms)))
            out.append(RealGroup([member(n, s) for n, s in zip(members, syms)], rels,
                                 [(idx[n], e, c, u) for n, e, c, u in bounds]))
        except DomainError as exc:
            raise BadInput(str(exc)) from None
    return out


def _solved_for(d: sp.Expr, x: sp.Symbol) -> tuple[sp.Expr, bool] | None:
    """``d OP 0`` solved for ``x`` as ``x OP' bound``: (bound, whether OP' is OP flipped), or None.  Linear in x with
    a coefficient of known sign; or ``A + B·x^p`` with x positive, B of known sign, p a nonzero number and −A/B
    positive (``L − 1/eta <= 0`` with eta > 0 → eta <= 1/L), each sign of B and of p flipping the relation."""
    coeff = sp.diff(d, x)
    if coeff != 0 and not coeff.has(x):
        sign = 1 if coeff.is_positive else -1 if coeff.is_negative else 0
        if sign:
            return sp.simplify(-(d - coeff * x) / coeff), sign < 0
        return None
    if x.is_positive is not True:
        return None
    a, rest = d.as_independent(x, as_Add=True)
    b, power = rest.as_independent(x, as_Add=False)
    if not (power.is_Pow and power.base == x and power.exp.is_number and power.exp.is_real and power.exp != 0):
        return None
    if b.is_positive is not True and b.is_negative is not True:
        return None
    c = sp.simplify(-a / b)
    if c.is_positive is not True:
        return None
    return sp.simplify(c ** (1 / power.exp)), bool(b.is_negative) != bool(power.exp < 0)


def _expression_bounds(decl: Declarations, symbols: dict[str, sp.Symbol]) -> list[tuple[str, sp.Expr, bool, bool]]:
    """The relations of this group between a name and an expression (``eta <= 1/L``) or between expressions
    (``eta*mu <= 1``), each solved for one name it is linear in, with a coefficient of known sign (from the
    constant bounds): ``(name, bound, closed, upper)``.  The name is then drawn after the others, inside the
    bound, so every sampled point satisfies the relation.  The name solved for is one whose bound closes no loop
    with the order relations and the bounds already solved (``mu <= lam``, ``lam <= L``, ``L/10000 <= mu`` is
    solved for L: L ≤ 10000·mu, drawn after mu and lam), so a satisfiable chain is never called a cycle."""
    from .build import Builder, Scope
    out: list[tuple[str, sp.Expr, bool, bool]] = []
    deps: dict[str, set[str]] = {}
    for a, b, _ in decl.relations:  # a < b draws a first: b depends on a (a bound must not close a loop with it)
        if a in symbols and b in symbols:
            deps.setdefault(b, set()).add(a)

    def reaches(a: str, b: str) -> bool:  # b depends (transitively) on a?
        stack, seen = [b], set()
        while stack:
            n = stack.pop()
            if n == a:
                return True
            if n not in seen:
                seen.add(n)
                stack.extend(deps.get(n, ()))
        return False
    for a_node, op, b_node, text in decl.general:
        names = _node_names(a_node) | _node_names(b_node)
        if not names <= set(symbols):
            continue
        scope = Scope(StepContext("assumption", "", []), user=dict(symbols))
        try:
            lhs = Builder(scope).build_scalar(a_node, "an assumption")
            rhs = Builder(scope).build_scalar(b_node, "an assumption")
        except BadInput as exc:
            raise BadInput(f"cannot use assumption {text[:60]!r}: {exc}") from None
        d = sp.expand(lhs - rhs)  # d OP 0
        pieces = _without_abs(d, op, text)
        if pieces is not None:  # |u| <= B: the two linear bounds u <= B and -u <= B, each solved as below
            for piece in pieces:
                _solve_general(piece, "<=" if op in ("<=", ">=") else "<", names, [], symbols, decl, out, reaches,
                               deps, text)
            continue
        bare = [t.id for t in (a_node, b_node) if isinstance(t, ast.Name) and t.id not in CONSTANTS]
        _solve_general(d, op, names, bare, symbols, decl, out, reaches, deps, text)
    return out


def _without_abs(d: sp.Expr, op: str, text: str) -> list[sp.Expr] | None:
    """``d OP 0`` holding one ``|u|`` as an upper bound on it (``eta*|r|*x <= 1`` with eta, x > 0: |r| ≤ 1/(eta·x))
    → ``[u - B, -u - B]`` (each ``<= 0``, or ``< 0`` for a strict OP); None when ``d`` holds no ``Abs``.  A lower
    bound on |u| (two disjoint ranges) or more than one ``|·|`` is a one-line refusal saying how to write it."""
    found = sorted(d.atoms(sp.Abs), key=sp.default_sort_key)
    if not found:
        return None
    if len(found) > 1:
        raise BadInput(f"cannot use assumption {text[:60]!r}: it holds more than one |·|; bound each one on its own "
                       f"(Abs(a) <= 1, Abs(b) <= 2)")
    t = sp.Dummy("abs", positive=True)
    solved = _solved_for(d.xreplace({found[0]: t}), t)
    if solved is None:
        raise BadInput(f"cannot use assumption {text[:60]!r}: |{found[0].args[0]}| must be bounded linearly, with a "
                       f"coefficient of known sign (declare the signs it needs, e.g. eta > 0)")
    bound, flip = solved
    if (op in ("<", "<=")) == flip:  # |u| >= B: u <= -B or u >= B, two ranges the engine does not draw from
        raise BadInput(f"cannot use assumption {text[:60]!r}: a lower bound on |{found[0].args[0]}| allows two "
                       f"disjoint ranges; state the sign you mean (e.g. {found[0].args[0]} >= ...)")
    u = found[0].args[0]
    return [sp.expand(u - bound), sp.expand(-u - bound)]


def _solve_general(d: sp.Expr, op: str, names: set[str], bare: list[str], symbols: dict[str, sp.Symbol],
                   decl: Declarations, out: list, reaches: Callable[[str, str], bool], deps: dict[str, set[str]],
                   text: str) -> None:
    """``d OP 0`` solved for one of ``names`` (the bare side names first), appended to ``out`` as
    ``(name, bound, closed, upper)``; the one-line refusals of :func:`_expression_bounds`."""
    names = names & {str(s) for s in d.free_symbols} or names
    order = bare + sorted(n for n in names if n in {x for x, *_ in out} and n not in bare) + \
        sorted(names - set(bare), reverse=True)
    # the dependent name is one without a finite range of its own: L <= 1/eta with 0.01 <= L <= 100 and
    # eta > 0 bounds eta (eta <= 1/L, drawn after L), not L (drawn after an eta from (0, inf), whose draws
    # above 100 leave L no value, and which reaches L near 100 only when eta is below 1/100)
    boxed = {n for n in names if n in decl.lo and n in decl.hi}
    order = [n for n in dict.fromkeys(order) if n not in boxed] + [n for n in dict.fromkeys(order) if n in boxed]
    done, looped = False, []
    for name in order:
        x = symbols[name]
        solved = _solved_for(d, x)
        if solved is None:
            continue
        bound, flip = solved
        others = {str(s) for s in d.free_symbols} - {name}
        if any(reaches(name, o) for o in others):
            looped.append(name)
            continue
        upper = (op in ("<", "<=")) != flip
        out.append((name, bound, op in ("<=", ">="), upper))
        deps.setdefault(name, set()).update(others)
        done = True
        break
    if not done and looped:
        raise BadInput(f"cannot use assumption {text[:60]!r}: solved for {' or '.join(looped)} it would have to "
                       f"be drawn after a name that the other assumptions draw after it (the order relations and "
                       f"bounds form a cycle); write it solved for another name")
    if not done:
        raise BadInput(f"cannot use assumption {text[:60]!r}: it must be solvable for one of its names, linearly "
                       "with a coefficient of known sign (write it as name <= expression, and declare the signs "
                       "it needs, e.g. L > 0)")


def leaves_no_values(exc: Exception) -> bool:
    """Whether building a context failed because its assumptions leave a name no values (``a < 1`` and ``a > 2``;
    ``b < 1`` and ``b == 5``): a contradiction the assumptions state, not an assumption the reader cannot use."""
    return "leave no values" in str(exc) or "leave no integer values" in str(exc)


def _proved_infeasible(texts: list[str]) -> bool:
    """Whether the assumptions provably leave no point: constant bounds that leave a name no values (a < 1 and
    a > 2: refused when the context is built), or a group whose expression bounds SymPy shows contradict
    (:meth:`~.variables.RealGroup.proved_empty`).  False when that is not proved (or the texts do not read)."""
    from .variables import RealGroup
    try:
        ctx = free_with_assumptions(texts)
    except BadInput as exc:
        return leaves_no_values(exc)
    except Exception:  # a defect of the assumption reader: nothing proved
        return False
    return any(isinstance(v, RealGroup) and v.proved_empty() for v in ctx.variables)


def conflict(texts: Iterable[str]) -> list[str] | None:
    """A smallest-found subset of the assumptions that provably cannot hold together (``["a < 1", "a > 2"]``;
    ``["eta > 0", "L > 0", "eta*L < 1", "eta*L > 2"]``), or None when no contradiction is proved.  Each assumption
    is dropped in turn while the rest still contradict each other, so the subset names what clashes."""
    texts = list(dict.fromkeys(texts))
    if not texts or not _proved_infeasible(texts):
        return None
    core = texts
    for t in texts:
        trial = [x for x in core if x != t]
        if trial and _proved_infeasible(trial):
            core = trial
    return core
