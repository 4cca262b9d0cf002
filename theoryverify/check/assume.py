"""``--assume`` for the ``free`` context: domains from simple statements.

``x > 0`` / ``x >= 0``: positive, drawn over the decades [1e-3, 1e3]; ``x > c``: [c, c + 10·max(1,|c|)];
``x < c``: the mirror image; ``a < x < b``: [a, b]; ``x == c``: fixed at c; ``simplex(a, b, c)``: a
point of the probability simplex.  Several assumptions on one name intersect.
"""
from __future__ import annotations

import ast
import re
from typing import Iterable

import sympy as sp

from ..domains import Fixed, Interval, LogUniform, Simplex, Variable
from ..stepcontext import StepContext, free_context
from .build import Builder, Scope
from .parser import COMPARE_OPS, NAME_RE, BadInput, check_text, parse_assumption

SIMPLEX_RE = re.compile(r"^\s*simplex\s*\((.*)\)\s*$", re.S)


def _constant(node: ast.expr) -> sp.Rational:
    value = Builder(Scope(StepContext("constants", "", []))).build(node)
    if not value.is_real or value.free_symbols:
        raise BadInput("an assumption's bounds must be real numbers")
    return sp.Rational(value) if value.is_Rational else sp.Rational(str(sp.N(value, 20)))


def free_with_assumptions(texts: Iterable[str]) -> StepContext:
    lo: dict[str, tuple[sp.Rational, bool]] = {}
    hi: dict[str, tuple[sp.Rational, bool]] = {}
    fixed: dict[str, sp.Rational] = {}
    simplices: list[list[str]] = []
    for text in texts:
        text = check_text(text)
        m = SIMPLEX_RE.match(text)
        if m:
            names = [n.strip() for n in m.group(1).split(",")]
            if len(names) < 2 or not all(NAME_RE.match(n) for n in names) or len(set(names)) != len(names):
                raise BadInput("simplex(a, b, ...) takes two or more distinct names")
            simplices.append(names)
            continue
        node = parse_assumption(text)
        if not isinstance(node, ast.Compare):
            raise BadInput(f"cannot use assumption {text!r}: write x > 0, a < x < b, x == c or simplex(a, b, c)")
        terms = [node.left, *node.comparators]
        ops = [COMPARE_OPS[type(o)] for o in node.ops]
        names = [i for i, t in enumerate(terms) if isinstance(t, ast.Name)]
        if len(names) != 1 or len(ops) > 2:
            raise BadInput(f"cannot use assumption {text!r}: one name compared with numbers")
        i = names[0]
        name = terms[i].id
        for j, op in enumerate(ops):  # relation terms[j] op terms[j+1]
            if i not in (j, j + 1):
                continue
            other = _constant(terms[j + 1] if i == j else terms[j])
            if op == "==":
                fixed[name] = other
                continue
            # normalise to "name > other" (lower bound) or "name < other" (upper bound)
            lower = (op in (">", ">=")) == (i == j)
            strict = op in ("<", ">")
            book = lo if lower else hi
            old = book.get(name)
            if old is None or (other > old[0] if lower else other < old[0]):
                book[name] = (other, strict)
    in_simplex = {n for s in simplices for n in s}
    variables: list[Variable] = []
    for names in simplices:
        variables.append(Simplex(tuple(sp.Symbol(n, nonnegative=True) for n in names)))
    for name in sorted((set(lo) | set(hi) | set(fixed)) - in_simplex):
        variables.append(_variable(name, lo.get(name), hi.get(name), fixed.get(name)))
    return free_context(variables)


def _variable(name, lower, upper, fixed) -> Variable:
    if fixed is not None:
        return Fixed(sp.Symbol(name, real=True), fixed)
    a = lower[0] if lower else None
    b = upper[0] if upper else None
    if a is not None and b is not None and a >= b:
        raise BadInput(f"assumptions on {name} leave no values")
    if a is not None and (a > 0 or (a == 0 and lower[1])):
        sym = sp.Symbol(name, positive=True)
    elif a is not None and a == 0:
        sym = sp.Symbol(name, nonnegative=True)
    elif b is not None and (b < 0 or (b == 0 and upper[1])):
        sym = sp.Symbol(name, negative=True)
    else:
        sym = sp.Symbol(name, real=True)
    if a is None:
        a, lower = b - 10 * max(1, abs(b)), (None, False)
    elif b is None:
        if a == 0:
            return LogUniform(sym, 1e-3, 1e3)
        b, upper = a + 10 * max(1, abs(a)), (None, False)
    eps = 1e-9 * float(b - a)  # a strict bound keeps draws off the endpoint
    return Interval(sym, float(a) + (eps if lower and lower[1] else 0.0),
                    float(b) - (eps if upper and upper[1] else 0.0))
