"""Build SymPy objects from a checked AST (see :mod:`.parser`), in a step context's scope.

Names resolve to the context's symbols and definitions, the session's ``name := expr``
definitions, or (in the ``free`` context only) new real symbols.  Numbers are exact (``1/9``
stays a Rational, ``0.1`` is 1/10).  Sizes are capped before anything is computed.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
import sympy as sp

from ..stepcontext import StepContext
from .parser import (MAX_DIFF_ORDER, MAX_EXPONENT, MAX_NUMBER_BITS, MAX_TOTAL_EXPONENT,
                     BadInput)


@dataclass
class Scope:
    """What names mean: a context, session definitions, and symbols made for open names."""
    context: StepContext
    user: dict[str, sp.Expr] = field(default_factory=dict)
    made: dict[str, sp.Symbol] = field(default_factory=dict)
    fixed: set = field(default_factory=set)  # symbols that subs(...) replaced in the current statement
    zeroed: set = field(default_factory=set)  # ... replaced by 0

    def resolve(self, name: str) -> sp.Expr:
        if name in self.user:
            return self.user[name]
        if name in self.context.symbols:
            return self.context.symbols[name]
        if name in self.context.defs:
            return self.context.defs[name]
        if self.context.open_names:
            return self.made.setdefault(name, sp.Symbol(name, real=True))
        raise BadInput(f"unknown name {name!r} in context {self.context.name} (see :symbols)")

    def symbol(self, name: str) -> sp.Symbol:
        value = self.resolve(name)
        if not isinstance(value, sp.Symbol):
            raise BadInput(f"{name!r} is a definition, not a symbol: cannot differentiate or substitute in it")
        return value


class Vector(tuple):
    """softmax(...) before it is indexed."""


def _bits(n: sp.Rational) -> int:
    return max(int(abs(n.p)).bit_length(), int(n.q).bit_length())


def _checked(value: sp.Expr) -> sp.Expr:
    if isinstance(value, Vector):
        raise BadInput("softmax(...) is a vector: index it, e.g. softmax(a, b, c)[1] (indices start at 1)")
    if value.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        raise BadInput("the expression is undefined (division by zero or infinity)")
    if value.is_Rational and _bits(value) > MAX_NUMBER_BITS:
        raise BadInput("number too large")
    for p in value.atoms(sp.Pow):
        e = p.exp
        if e.is_Number and abs(e) > MAX_TOTAL_EXPONENT:
            raise BadInput(f"exponent too large (|exponent| ≤ {MAX_TOTAL_EXPONENT} after combining powers)")
    return value


def _power(base: sp.Expr, exp: sp.Expr) -> sp.Expr:
    if not exp.is_Rational:
        raise BadInput("exponents must be numbers (write exp(b*log(a)) for a symbolic power)")
    if abs(exp) > MAX_EXPONENT or exp.q > MAX_EXPONENT:
        raise BadInput(f"exponent {exp} too large (|exponent| ≤ {MAX_EXPONENT}, denominator ≤ {MAX_EXPONENT})")
    if base.is_Rational and _bits(base) * abs(exp) > MAX_NUMBER_BITS:
        raise BadInput("number too large")
    return base**exp


def _exp(arg: sp.Expr) -> sp.Expr:
    # SymPy turns exp(n*log(a)) into a**n: cap n like an exponent
    if arg.has(sp.log):
        coeff, _ = arg.as_coeff_Mul()
        if abs(coeff) > MAX_EXPONENT:
            raise BadInput(f"coefficient {coeff} of a logarithm inside exp too large (≤ {MAX_EXPONENT})")
    return sp.exp(arg)


class Builder:
    """AST (already checked) -> SymPy, one scope."""

    def __init__(self, scope: Scope):
        self.scope = scope

    def build(self, node: ast.expr) -> sp.Expr:
        return _checked(self._node(node))

    def _node(self, node: ast.AST):
        if isinstance(node, ast.Constant):
            return _number(node.value)
        if isinstance(node, ast.Name):
            return self.scope.resolve(node.id)
        if isinstance(node, ast.UnaryOp):
            v = self.build(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp):
            a, b = self.build(node.left), self.build(node.right)
            if isinstance(node.op, ast.Add):
                return a + b
            if isinstance(node.op, ast.Sub):
                return a - b
            if isinstance(node.op, ast.Mult):
                if a.is_Rational and b.is_Rational and _bits(a) + _bits(b) > MAX_NUMBER_BITS:
                    raise BadInput("number too large")
                return a * b
            if isinstance(node.op, ast.Div):
                if b == 0:
                    raise BadInput("division by zero")
                return a / b
            if isinstance(node.op, ast.Pow):
                return _power(a, b)
            raise BadInput(f"operator {type(node.op).__name__} not allowed")  # pragma: no cover
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, ast.Subscript):
            vec = self._node(node.value)
            idx = self.build(node.slice)
            if not idx.is_Integer or not 1 <= int(idx) <= len(vec):
                raise BadInput(f"softmax index must be an integer 1..{len(vec)} (indices start at 1, as in the paper)")
            return vec[int(idx) - 1]
        raise BadInput(f"not allowed: {type(node).__name__}")  # pragma: no cover - parser rejects first

    def _args(self, node: ast.Call, lo: int, hi: int | None) -> list:
        n = len(node.args)
        name = node.func.id
        if n < lo or (hi is not None and n > hi):
            want = f"{lo}" if hi == lo else f"{lo}..{hi}" if hi else f"at least {lo}"
            raise BadInput(f"{name}() takes {want} arguments, got {n}")
        return node.args

    def _call(self, node: ast.Call):
        name = node.func.id
        if name in ("exp", "log", "sqrt", "Abs"):
            (arg,) = self._args(node, 1, 1)
            x = self.build(arg)
            if name == "exp":
                return _exp(x)
            if name == "log":
                if x == 0:
                    raise BadInput("log(0) is undefined")
                return sp.log(x)
            return sp.sqrt(x) if name == "sqrt" else sp.Abs(x)
        if name in ("Max", "Min"):
            args = [self.build(a) for a in self._args(node, 1, 12)]
            return (sp.Max if name == "Max" else sp.Min)(*args)
        if name == "softmax":
            args = [self.build(a) for a in self._args(node, 1, 12)]
            e = [_exp(a) for a in args]
            total = sp.Add(*e)
            return Vector(x / total for x in e)
        if name == "diff":
            return self._diff(node)
        if name == "subs":
            return self._subs(node)
        raise BadInput(f"unknown function {name!r}")  # pragma: no cover - parser rejects first

    def _diff(self, node: ast.Call) -> sp.Expr:
        """diff(expr, x[, k | y, ...]) — derivative(s) w.r.t. symbols; a reparametrised
        coordinate (theta) follows the chain rule through its dependents (v = softmax(theta))."""
        args = self._args(node, 2, 2 + MAX_DIFF_ORDER)
        expr = self.build(args[0])
        order: list[sp.Symbol] = []
        for a in args[1:]:
            if isinstance(a, ast.Name):
                order.append(self.scope.symbol(a.id))
                continue
            k = self.build(a)
            if not (k.is_Integer and order and 1 <= int(k) <= MAX_DIFF_ORDER):
                raise BadInput("diff(expr, x, ...): each argument after expr is a symbol or a small "
                               "positive integer order following a symbol")
            order += [order[-1]] * (int(k) - 1)
        if len(order) > MAX_DIFF_ORDER:
            raise BadInput(f"derivative order too high (at most {MAX_DIFF_ORDER})")
        for x in order:
            r = self.scope.context.reparam_of(x)
            expr = r.total_derivative(expr, x) if r else sp.diff(expr, x)
        return expr

    def _subs(self, node: ast.Call) -> sp.Expr:
        """subs(expr, x, value, y, value, ...) or subs(expr, x=value, ...): evaluate at a point."""
        if not node.args:
            raise BadInput("subs(expr, x, value, ...) needs an expression")
        expr = self.build(node.args[0])
        rest = node.args[1:]
        if len(rest) % 2:
            raise BadInput("subs(expr, x, value, y, value, ...): symbols and values come in pairs")
        pairs = [(a, b) for a, b in zip(rest[::2], rest[1::2])]
        mapping: dict[sp.Symbol, sp.Expr] = {}
        for target, value in pairs:
            if not isinstance(target, ast.Name):
                raise BadInput("subs: each target must be a symbol name")
            mapping[self.scope.symbol(target.id)] = self.build(value)
        for kw in node.keywords:
            mapping[self.scope.symbol(kw.arg)] = self.build(kw.value)
        if not mapping:
            raise BadInput("subs: nothing to substitute")
        for x, value in mapping.items():  # v_j = 0 leaves the others on the smaller simplex exactly
            (self.scope.zeroed if value == 0 else self.scope.fixed).add(x)
        for x in list(mapping):
            r = self.scope.context.reparam_of(x)
            if r is not None and expr.has(*r.dependents):
                expr = expr.xreplace(dict(r.substitution))
        return expr.xreplace(mapping)


def _number(value) -> sp.Expr:
    if isinstance(value, int):
        return sp.Integer(value)
    return sp.Rational(repr(value))  # the decimal as written: 0.1 -> 1/10


class _DisplayScope(Scope):
    def resolve(self, name: str) -> sp.Expr:
        return sp.Symbol(name)

    def symbol(self, name: str) -> sp.Symbol:
        return sp.Symbol(name)


class DisplayBuilder(Builder):
    """The statement as typed (names kept, derivatives unevaluated), for LaTeX display."""

    def __init__(self):
        super().__init__(_DisplayScope(StepContext("display", "", [])))

    def _call(self, node: ast.Call):
        name = node.func.id
        if name == "diff":
            args = node.args
            expr = self.build(args[0])
            spec = [self.build(a) for a in args[1:]]
            return sp.Derivative(expr, *spec)
        if name == "subs":
            expr = self.build(node.args[0])
            rest = node.args[1:]
            pairs = [(self.build(a), self.build(b)) for a, b in zip(rest[::2], rest[1::2])]
            pairs += [(sp.Symbol(kw.arg), self.build(kw.value)) for kw in node.keywords]
            return sp.Subs(expr, *zip(*pairs)) if pairs else expr
        if name == "softmax":
            args = [self.build(a) for a in node.args]
            return Vector(sp.Function(f"softmax_{{{j + 1}}}")(*args) for j in range(len(args)))
        return super()._call(node)


def display_latex(node: ast.expr) -> str | None:
    try:
        return sp.latex(DisplayBuilder().build(node))
    except Exception:  # display only: never fail a check over it
        return None
