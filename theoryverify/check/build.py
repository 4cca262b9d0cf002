"""Build SymPy objects from a checked AST (see :mod:`.parser`), in a step context's scope.

Names resolve to the context's symbols and definitions, the session's ``name := expr`` definitions
and ``f(x) := expr`` functions, the declared matrices, vectors and random variables, the constants
``pi``/``E``/``e``, or (in the ``free`` context only) new real symbols.  Numbers are exact (``1/9``
stays a Rational, ``0.1`` is 1/10).  Sizes are capped before anything is computed: exponents, exact
numbers, the terms of a numeric ``Sum``, matrix shapes.

Values are scalars (SymPy expressions), matrices (``ImmutableMatrix``; a 1×1 matrix counts as a scalar
where a scalar is expected, so ``v.T @ W @ v`` is a number) or the ``softmax`` vector before it is
indexed.  ``E(expr)`` is computed while building (:mod:`.expectation`): a random variable may appear only
inside ``E``.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Iterable

import sympy as sp

from ..stepcontext import StepContext
from .functions import CONSTANTS, FUNCTIONS, TABLE
from .parser import (BINDING_FUNCTIONS, COMPARE_OPS, LIMIT_FUNCTIONS, MAX_DIFF_ORDER, MAX_EXPONENT, MAX_NUMBER_BITS,
                     MAX_TOTAL_EXPONENT, BadInput)

MAX_TERMS = 2000  # terms of a Sum/Product with numeric bounds
MAX_MATRIX = 6  # rows and columns of a matrix
MAX_DET = 4  # det / inv up to 4×4
MAX_FACTORIAL = 1000
REAL_POWERS = False  # set while a paper is checked (theoryverify.check.tex): x**alpha with a real alpha


def _unsubscripted(name: str) -> str | None:
    """``L_1`` → ``L1``, ``p_{r1}`` (read as ``p_r1``) stays: a LaTeX subscript of digits on a name the context
    spells without the underscore."""
    head, sep, tail = name.rpartition("_")
    return f"{head}{tail}" if sep and head.isalpha() and tail.isdigit() else None


@dataclass
class Scope:
    """What names mean: a context, session definitions, declarations, and symbols made for open names."""
    context: StepContext
    user: dict[str, sp.Expr] = field(default_factory=dict)
    made: dict[str, sp.Symbol] = field(default_factory=dict)
    fixed: set = field(default_factory=set)  # symbols that subs(...) replaced in the current statement
    zeroed: set = field(default_factory=set)  # ... replaced by 0
    user_functions: dict[str, sp.Lambda] = field(default_factory=dict)  # f(x) := ...
    functions: dict[str, int | None] = field(default_factory=dict)  # f: function -> arity once used
    named: dict[str, object] = field(default_factory=dict)  # matrices, vectors, random variables
    inferred: dict = field(default_factory=dict)  # symbol -> variable inferred from use (Sum bounds)
    local: list = field(default_factory=list)  # stack of bound names (Sum indices, function parameters)

    def resolve(self, name: str):
        for frame in reversed(self.local):
            if name in frame:
                return frame[name]
        if name == "oo":  # SymPy's infinity: never silently a variable (Sum(.., (k, 1, oo)) refuted at oo = 1)
            raise BadInput("oo (∞) is not supported (infinite sums and limits): check a partial sum with a symbolic "
                           "bound n (n: integer)")
        if name in self.user:
            return self.user[name]
        if name in self.named:
            return self.named[name]
        if name in self.context.symbols:
            return self.context.symbols[name]
        if name in self.context.defs:
            return self.context.defs[name]
        if name in CONSTANTS:
            return {"pi": sp.pi, "E": sp.E, "e": sp.E}[name]
        if name in self.user_functions or name in self.functions or name in FUNCTIONS:
            raise BadInput(f"{name!r} is a function: call it, e.g. {name}(x)")
        m = re.fullmatch(r"I_(\d+)", name)  # the identity matrix I_3
        if m and 1 <= int(m.group(1)) <= MAX_MATRIX:
            return sp.ImmutableMatrix.eye(int(m.group(1)))
        plain = _unsubscripted(name)  # LaTeX L_1 for a context's L1
        if plain and any(plain in names for names in (self.user, self.named, self.context.symbols,
                                                       self.context.defs)):
            return self.resolve(plain)
        if self.context.open_names:
            return self.made.setdefault(name, sp.Symbol(name, real=True))
        from .teach import unknown_name
        raise BadInput(unknown_name(name, self.context.name, self.known_names()))

    def known_names(self) -> list[str]:
        return [*self.user, *self.named, *self.context.symbols, *self.context.defs, *CONSTANTS]

    def function_names(self) -> set[str]:
        return set(self.user_functions) | set(self.functions)

    def symbol(self, name: str) -> sp.Symbol:
        value = self.resolve(name)
        if isinstance(value, sp.MatrixBase):
            raise BadInput(f"{name!r} is a matrix or vector: differentiate with grad(e, {name})")
        if not isinstance(value, sp.Symbol):
            raise BadInput(f"{name!r} is a definition, not a symbol: cannot differentiate or substitute in it")
        return value

    def random_variables(self) -> dict:
        from .expectation import RandomVariable
        return {rv.symbol: rv for rv in self.named.values() if isinstance(rv, RandomVariable)}


class Vector(tuple):
    """softmax(...) before it is indexed."""


def _bits(n: sp.Rational) -> int:
    return max(int(abs(n.p)).bit_length(), int(n.q).bit_length())


def _undefined(value: sp.Expr) -> bool:
    """Whether ``value`` writes ∞, zoo or nan — outside the bounds of an (unevaluated) integral, where ∞ is a bound."""
    if not value.has(sp.Integral):
        return value.has(sp.zoo, sp.nan, sp.oo, -sp.oo)
    inner = list(value.atoms(sp.Integral))
    outside = value.xreplace({i: sp.Dummy() for i in inner})
    return outside.has(sp.zoo, sp.nan, sp.oo, -sp.oo) or any(
        _undefined(i.function) or any(e.has(sp.zoo, sp.nan) for lim in i.limits for e in lim[1:]) for i in inner)


def _check_scalar(value: sp.Expr) -> sp.Expr:
    if _undefined(value):
        raise BadInput("the expression is undefined (division by zero or infinity)")
    if value.is_Rational and _bits(value) > MAX_NUMBER_BITS:
        raise BadInput("number too large")
    for p in value.atoms(sp.Pow):
        e = p.exp
        if e.is_Number and abs(e) > MAX_TOTAL_EXPONENT:
            raise BadInput(f"exponent too large (|exponent| ≤ {MAX_TOTAL_EXPONENT} after combining powers)")
    return value


def _checked(value):
    if isinstance(value, Vector):
        raise BadInput("softmax(...) is a vector: index it, e.g. softmax(a, b, c)[1] (indices start at 1)")
    if isinstance(value, sp.MatrixBase):
        for entry in value:
            _check_scalar(entry)
        return value
    if hasattr(value, "name") and hasattr(value, "dist"):  # a random variable outside E(...)
        raise BadInput(f"{value.name} is a random variable: use it inside E(...)")
    return _check_scalar(value)


def scalar(value, what: str = "this"):
    """A 1×1 matrix as its entry; any other matrix is an error (``what`` names the place)."""
    if isinstance(value, sp.MatrixBase):
        if value.shape == (1, 1):
            return value[0, 0]
        raise BadInput(f"{what} needs a number, got a {_shape(value)}")
    if isinstance(value, Vector):
        _checked(value)
    return value


def _shape(m: sp.MatrixBase) -> str:
    r, c = m.shape
    return f"{r}-vector" if c == 1 else f"{r}×{c} matrix"


def _power(base, exp):
    if isinstance(exp, sp.MatrixBase):
        exp = scalar(exp, "an exponent")
    if isinstance(base, sp.MatrixBase) and base.shape != (1, 1):
        if base.shape[0] != base.shape[1]:
            raise BadInput(f"only a square matrix has powers (got a {_shape(base)})")
        if exp == -1:
            return _inv(base)
        if exp.is_Integer and 1 <= exp <= 8:
            return sp.ImmutableMatrix(base**int(exp))
        raise BadInput("a matrix power must be -1 (the inverse) or a whole number 1..8")
    base = scalar(base)
    if not exp.is_Rational:
        syms = exp.free_symbols
        if syms and all(s.is_integer for s in syms) and not exp.has(sp.Float):
            return base**exp  # r**n with an integer variable n: ranges are finite, values exact
        if base == sp.E:  # e**x is exp(x), for any real x
            return _exp(exp)
        if REAL_POWERS and not exp.has(sp.Float):  # a paper's x^{alpha}: real powers (read by --tex)
            return base**exp
        raise BadInput("exponents must be numbers or integer variables (declare n: integer); for a real "
                       "power write exp(b*log(a))")
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


def _inv(m: sp.MatrixBase) -> sp.ImmutableMatrix:
    if m.shape[0] != m.shape[1]:
        raise BadInput(f"inv needs a square matrix, got a {_shape(m)}")
    if m.shape[0] > MAX_DET:
        raise BadInput(f"inv/det up to {MAX_DET}×{MAX_DET}")
    if m.shape == (1, 1):
        if m[0, 0] == 0:
            raise BadInput("inverse of 0")
        return sp.ImmutableMatrix([[1 / m[0, 0]]])
    return sp.ImmutableMatrix(m.adjugate() / m.det())


SIMPLE_FUNCTIONS = {"sin": sp.sin, "cos": sp.cos, "tanh": sp.tanh, "sinh": sp.sinh, "cosh": sp.cosh,
                    "erf": sp.erf, "erfc": sp.erfc, "floor": sp.floor, "ceiling": sp.ceiling, "Abs": sp.Abs,
                    "sqrt": sp.sqrt, "Heaviside": sp.Heaviside}


class Builder:
    """AST (already checked) -> SymPy, one scope.  ``latex=True``: a product of two matrices written
    side by side (``W v``) is the matrix product."""

    def __init__(self, scope: Scope, latex: bool = False):
        self.scope = scope
        self.latex = latex
        self._in_expectation = 0
        self._in_integral = 0  # integrals enclosing the node built (an inner one is evaluated with its outer one)
        #: whether an integral without a closed form may be computed by quadrature (decide's path only, which states
        #: the error and never proves on it; elsewhere it stays unevaluated)
        self.numeric_integrals = False

    def build(self, node: ast.expr):
        return _checked(self._node(node))

    def build_scalar(self, node: ast.expr, what: str = "this") -> sp.Expr:
        return scalar(self.build(node), what)

    def _node(self, node: ast.AST):
        if isinstance(node, ast.Constant):
            return _number(node.value)
        if isinstance(node, ast.Name):
            value = self.scope.resolve(node.id)
            if hasattr(value, "dist"):
                if not self._in_expectation:
                    raise BadInput(f"{node.id} is a random variable: use it inside E(...)")
                return value.matrix if hasattr(value, "matrix") else value.symbol
            return value
        if isinstance(node, ast.UnaryOp):
            v = self.build(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp):
            return self._binop(node)
        if isinstance(node, ast.Call):
            return self._call(node)
        if isinstance(node, ast.Subscript):
            return self._index(node)
        if isinstance(node, ast.Attribute):  # .T, the only attribute the parser lets through
            m = self.build(node.value)
            if not isinstance(m, sp.MatrixBase):
                raise BadInput(".T (transpose) needs a matrix or vector")
            return sp.ImmutableMatrix(m.T)
        raise BadInput(f"not allowed: {type(node).__name__}")  # pragma: no cover - parser rejects first

    def _binop(self, node: ast.BinOp):
        a, b = self.build(node.left), self.build(node.right)
        op = node.op
        am, bm = isinstance(a, sp.MatrixBase), isinstance(b, sp.MatrixBase)
        if isinstance(op, ast.Pow):
            return _power(a, b)
        if isinstance(op, ast.MatMult):
            if not (am and bm):
                raise BadInput("@ multiplies matrices and vectors; use * for numbers")
            return self._matmul(a, b)
        if am and a.shape == (1, 1) and not (bm and isinstance(op, (ast.Add, ast.Sub)) and b.shape == (1, 1)):
            a, am = a[0, 0], False
        if bm and b.shape == (1, 1) and not am:
            b, bm = b[0, 0], False
        if isinstance(op, (ast.Add, ast.Sub)):
            if am != bm:
                raise BadInput(f"cannot {'add' if isinstance(op, ast.Add) else 'subtract'} a number and a "
                               f"{_shape(a if am else b)}")
            if am and a.shape != b.shape:
                raise BadInput(f"shapes differ: {_shape(a)} and {_shape(b)}")
            out = a + b if isinstance(op, ast.Add) else a - b
            return sp.ImmutableMatrix(out) if am else out
        if isinstance(op, ast.Mult):
            if am and bm:
                if self.latex:
                    return self._matmul(a, b)
                raise BadInput("use @ for matrix products (* multiplies by a number)")
            if not am and not bm and a.is_Rational and b.is_Rational and _bits(a) + _bits(b) > MAX_NUMBER_BITS:
                raise BadInput("number too large")
            out = a * b
            return sp.ImmutableMatrix(out) if am or bm else out
        if isinstance(op, ast.Div):
            if bm:
                raise BadInput("cannot divide by a matrix: write inv(W)")
            if b == 0:
                raise BadInput("division by zero")
            return sp.ImmutableMatrix(a / b) if am else a / b
        raise BadInput(f"operator {type(op).__name__} not allowed")  # pragma: no cover

    @staticmethod
    def _matmul(a, b):
        if a.shape[1] != b.shape[0]:
            raise BadInput(f"shapes do not match for a matrix product: {_shape(a)} @ {_shape(b)}")
        return sp.ImmutableMatrix(a * b)

    def _index(self, node: ast.Subscript):
        value = self._node(node.value)
        idx = node.slice
        parts = idx.elts if isinstance(idx, ast.Tuple) else [idx]
        nums = [int(self.build(p)) for p in parts]
        if isinstance(value, Vector):
            if len(nums) != 1 or not 1 <= nums[0] <= len(value):
                raise BadInput(f"softmax index must be an integer 1..{len(value)} (indices start at 1, as in the paper)")
            return value[nums[0] - 1]
        if isinstance(value, sp.MatrixBase):
            r, c = value.shape
            if len(nums) == 1 and 1 in (r, c):
                n = max(r, c)
                if not 1 <= nums[0] <= n:
                    raise BadInput(f"index {nums[0]} out of range 1..{n}")
                return value[nums[0] - 1]
            if len(nums) == 2 and 1 <= nums[0] <= r and 1 <= nums[1] <= c:
                return value[nums[0] - 1, nums[1] - 1]
            raise BadInput(f"index out of range for a {_shape(value)} (indices start at 1)")
        raise BadInput("indexing is only for softmax(...)[j], vectors v[i] and matrices W[i, j]")

    def _args(self, node: ast.Call, lo: int, hi: int | None) -> list:
        n = len(node.args)
        name = node.func.id
        if n < lo or (hi is not None and n > hi):
            want = f"{lo}" if hi == lo else f"{lo}..{hi}" if hi else f"at least {lo}"
            raise BadInput(f"{name}() takes {want} arguments, got {n}")
        return node.args

    def _call(self, node: ast.Call):
        name = node.func.id
        if name in self.scope.user_functions and name not in self._locals():
            return self._user_function(node)
        if name in self.scope.functions:
            return self._declared_function(node)
        spec = TABLE.get(name)
        if spec is None:
            from .teach import unknown_function
            raise BadInput(unknown_function(name, self.scope.function_names()))
        args = self._args(node, spec.lo, spec.hi)
        if name in SIMPLE_FUNCTIONS:
            x = self.build_scalar(args[0], f"{name}()")
            if name == "sqrt" and x.is_negative:
                raise BadInput("sqrt of a negative number")
            return SIMPLE_FUNCTIONS[name](x)
        if name in ("exp", "log", "ln", "sigmoid", "softplus", "relu"):
            xs = [self.build_scalar(a, f"{name}()") for a in args]
            x = xs[0]
            if name == "exp":
                return _exp(x)
            if name in ("log", "ln"):
                if x == 0:
                    raise BadInput("log(0) is undefined")
                if len(xs) == 2:
                    if xs[1] in (0, 1):
                        raise BadInput("log(x, b) needs a base b other than 0 and 1")
                    return sp.log(x) / sp.log(xs[1])
                return sp.log(x)
            if name == "sigmoid":
                return 1 / (1 + _exp(-x))
            if name == "softplus":
                return sp.log(1 + _exp(x))
            return sp.Max(0, x)
        if name in ("Max", "Min"):
            vals = [self.build_scalar(a, f"{name}()") for a in args]
            return (sp.Max if name == "Max" else sp.Min)(*vals)
        if name == "softmax":
            vals = [self.build_scalar(a, "softmax()") for a in args]
            e = [_exp(a) for a in vals]
            total = sp.Add(*e)
            return Vector(x / total for x in e)
        if name == "indicator":
            return sp.Piecewise((1, self._condition(args[0])), (0, True))
        if name in LIMIT_FUNCTIONS:
            return self._limits(node)
        if name == "Integral":
            return self._integral(node)
        if name in ("binomial", "factorial"):
            vals = [self.build_scalar(a, f"{name}()") for a in args]
            for v in vals:
                if v.is_Number and abs(v) > MAX_FACTORIAL:
                    raise BadInput(f"{name} of a number above {MAX_FACTORIAL}")
            return sp.binomial(*vals) if name == "binomial" else sp.factorial(vals[0])
        if name in ("trace", "det", "inv", "norm"):
            return self._matrix_function(name, self.build(args[0]))
        if name == "E":
            return self._expectation(args[0])
        if name == "diff":
            return self._diff(node)
        if name == "subs":
            return self._subs(node)
        if name == "grad":
            return self._grad(node)
        raise BadInput(f"unknown function {name!r}")  # pragma: no cover

    def _locals(self) -> set:
        return {k for frame in self.scope.local for k in frame}

    def _user_function(self, node: ast.Call):
        fn = self.scope.user_functions[node.func.id]
        n = len(fn.variables)
        if len(node.args) != n:
            raise BadInput(f"{node.func.id}() takes {n} argument{'s' if n != 1 else ''}, got {len(node.args)}")
        return fn(*[self.build_scalar(a, f"{node.func.id}()") for a in node.args])

    def _declared_function(self, node: ast.Call):
        name = node.func.id
        args = [self.build_scalar(a, f"{name}()") for a in node.args]
        if not args:
            raise BadInput(f"{name}() needs an argument")
        known = self.scope.functions.get(name)
        if known is not None and known != len(args):
            raise BadInput(f"{name} was used with {known} argument(s) before; a function has one arity")
        self.scope.functions[name] = len(args)
        return sp.Function(name, real=True)(*args)

    def _condition(self, node: ast.AST):
        if not isinstance(node, ast.Compare):
            raise BadInput("indicator(...) takes a condition, e.g. indicator(x > 0)")
        terms = [self.build_scalar(t, "a condition") for t in [node.left, *node.comparators]]
        rel = {"==": sp.Eq, "<=": sp.Le, ">=": sp.Ge, "<": sp.Lt, ">": sp.Gt}
        parts = [rel[COMPARE_OPS[type(o)]](a, b) for o, a, b in zip(node.ops, terms, terms[1:])]
        return sp.And(*parts) if len(parts) > 1 else parts[0]

    def _limits(self, node: ast.Call):
        name = node.func.id
        body_node, lim = node.args
        k_node, a_node, b_node = lim.elts
        a = self.build_scalar(a_node, f"a {name} bound")
        b = self.build_scalar(b_node, f"a {name} bound")
        for which, bound in (("first", a), ("last", b)):
            if not (bound.is_integer or (bound.free_symbols and all(s.is_integer for s in bound.free_symbols)
                                         and bound.is_integer is not False)):
                real = sorted(str(s) for s in bound.free_symbols if not s.is_integer)
                x = real[0] if real else "n"
                raise BadInput(f"{name} bounds must be integers: the {which} bound {sp.sstr(bound)} is not one"
                               + (f" ({', '.join(real)} not declared an integer)" if real else "")
                               + f"; declare it, e.g. --assume \"{x}: integer\" --assume \"{x} >= 1\"")
        k = sp.Dummy(k_node.id, integer=True)
        self.scope.local.append({k_node.id: k})
        try:
            body = self.build_scalar(body_node, f"the body of {name}")
        finally:
            self.scope.local.pop()
        cls = sp.Sum if name == "Sum" else sp.Product
        if (b - a).is_Integer:
            if int(b - a) + 1 > MAX_TERMS:
                raise BadInput(f"{name} over more than {MAX_TERMS} terms: use a symbolic bound (n: integer)")
            return cls(body, (k, a, b)).doit()
        return cls(body, (k, a, b))

    def _integral(self, node: ast.Call):
        from .integrals import build_integral
        self._in_integral += 1
        try:
            return build_integral(self, node, inner=self._in_integral > 1, numeric=self.numeric_integrals)
        finally:
            self._in_integral -= 1

    def _matrix_function(self, name: str, m):
        if not isinstance(m, sp.MatrixBase):
            if name == "norm":
                return sp.Abs(m)
            raise BadInput(f"{name}() needs a matrix (declare W: matrix(3, 3))")
        if name == "norm":
            return sp.sqrt(sp.Add(*[e**2 for e in m]))
        if m.shape[0] != m.shape[1]:
            raise BadInput(f"{name}() needs a square matrix, got a {_shape(m)}")
        if name == "trace":
            return m.trace()
        if m.shape[0] > MAX_DET:
            raise BadInput(f"inv/det up to {MAX_DET}×{MAX_DET}")
        return m.det() if name == "det" else _inv(m)

    def _expectation(self, node: ast.AST):
        from .expectation import expectation
        rvs = self.scope.random_variables()
        if not rvs:
            raise BadInput("E(...) needs a declared random variable, e.g. --assume \"X ~ Normal(mu, s)\"")
        self._in_expectation += 1
        try:
            inner = self.build(node)
        finally:
            self._in_expectation -= 1
        if isinstance(inner, sp.MatrixBase):
            return sp.ImmutableMatrix(inner.applyfunc(lambda e: expectation(e, rvs)))
        return expectation(inner, rvs)

    def _diff(self, node: ast.Call):
        """diff(expr, x[, k | y, ...]) — derivative(s) w.r.t. symbols; a reparametrised
        coordinate (theta) follows the chain rule through its dependents (v = softmax(theta))."""
        args = self._args(node, 2, 2 + MAX_DIFF_ORDER)
        expr = self.build(args[0])
        order: list[sp.Symbol] = []
        for a in args[1:]:
            if isinstance(a, ast.Name):
                declared = self.scope.resolve(a.id)
                if self._in_expectation and hasattr(declared, "dist") and hasattr(declared, "symbol"):
                    order.append(declared.symbol)  # E(diff(f(X), X)): the derivative at the random point
                    continue
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
            if isinstance(expr, sp.MatrixBase):
                expr = sp.ImmutableMatrix(expr.diff(x))
            else:
                expr = r.total_derivative(expr, x) if r else sp.diff(expr, x)
        return expr

    def _grad(self, node: ast.Call):
        """grad(e, w): the vector (or matrix) of ∂e/∂w_i, shaped like w."""
        expr_node, w_node = node.args
        if not isinstance(w_node, ast.Name):
            raise BadInput("grad(e, w): w is the name of a declared vector or matrix")
        w = self.scope.resolve(w_node.id)
        expr = self.build_scalar(expr_node, "grad(e, w): e")
        if isinstance(w, sp.Symbol):
            return sp.diff(expr, w)
        if not isinstance(w, sp.MatrixBase):
            raise BadInput("grad(e, w): w is a declared vector or matrix (v: vector(3)) or a symbol")
        return sp.ImmutableMatrix(w.applyfunc(lambda s: sp.diff(expr, s)))

    def _subs(self, node: ast.Call):
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
            declared = self.scope.resolve(target.id)
            if isinstance(declared, sp.MatrixBase) and all(isinstance(e, sp.Symbol) for e in declared):
                # subs(e, w, 0) for a declared vector or matrix: every entry (a number, or a value of w's shape)
                got = self.build(value)
                if isinstance(got, sp.MatrixBase) and got.shape != declared.shape:
                    raise BadInput(f"subs: {target.id} is a {_shape(declared)}, the value a {_shape(got)}")
                for k, entry in enumerate(declared):
                    mapping[entry] = got[k] if isinstance(got, sp.MatrixBase) else got
                continue
            mapping[self.scope.symbol(target.id)] = self.build_scalar(value, "a subs value")
        for kw in node.keywords:
            mapping[self.scope.symbol(kw.arg)] = self.build_scalar(kw.value, "a subs value")
        if not mapping:
            raise BadInput("subs: nothing to substitute")
        for x, value in mapping.items():  # v_j = 0 leaves the others on the smaller simplex exactly
            (self.scope.zeroed if value == 0 else self.scope.fixed).add(x)
        for x in list(mapping):
            r = self.scope.context.reparam_of(x)
            if r is not None and expr.has(*r.dependents):
                expr = expr.xreplace(dict(r.substitution))
        derivs = expr.atoms(sp.Derivative) if isinstance(expr, sp.Basic) else set()
        if any(set(mapping) & set(d.variables) for d in derivs):  # d/du f(u) at u = g(x): a Subs, kept exact
            return sp.Subs(expr, tuple(mapping), tuple(mapping.values()))
        out = expr.xreplace(mapping)
        return out.doit() if isinstance(out, sp.Basic) and out.has(sp.Subs) else out


def _number(value) -> sp.Expr:
    if isinstance(value, int):
        return sp.Integer(value)
    return sp.Rational(repr(value))  # the decimal as written: 0.1 -> 1/10


def limit_bounds(nodes: Iterable[ast.AST]) -> dict[str, ast.AST]:
    """Names used as the last bound of a Sum/Product (``n`` in ``Sum(f, (k, 1, n))``) -> the first bound."""
    out: dict[str, ast.AST] = {}
    for root in nodes:
        for n in ast.walk(root):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in LIMIT_FUNCTIONS \
                    and len(n.args) == 2 and isinstance(n.args[1], ast.Tuple) and len(n.args[1].elts) == 3:
                _, a, b = n.args[1].elts
                for m in ast.walk(b):
                    if isinstance(m, ast.Name):
                        out.setdefault(m.id, a)
    return out


def bound_names(nodes: Iterable[ast.AST]) -> set[str]:
    """Sum/Product index names and integration variables (bound inside their call), and ∞ written as an integral's
    bound (``oo``, no name of the step)."""
    from .integrals import INFINITY_NAMES
    out = set()
    for root in nodes:
        for n in ast.walk(root):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id in BINDING_FUNCTIONS \
                    and len(n.args) == 2 and isinstance(n.args[1], ast.Tuple) and n.args[1].elts \
                    and isinstance(n.args[1].elts[0], ast.Name):
                out.add(n.args[1].elts[0].id)
                if n.func.id == "Integral":
                    out |= {m.id for b in n.args[1].elts[1:] for m in ast.walk(b)
                            if isinstance(m, ast.Name) and m.id in INFINITY_NAMES}
    return out


def infer_integers(scope: Scope, nodes: Iterable[ast.AST]) -> None:
    """In the free context, an undeclared name used as a Sum/Product bound is an integer ``n ≥ a`` (the
    sum's first index), and one whose factorial is taken an integer ``n ≥ 0``, said so in the domain; declaring it
    (``n: integer``) overrides this."""
    if not scope.context.open_names:
        return
    from .variables import IntegerVar
    nodes = list(nodes)
    for name, first in limit_bounds(nodes).items():
        if name in scope.made or name in scope.user or name in scope.named or name in scope.context.symbols \
                or name in CONSTANTS or name in bound_names(nodes):
            continue
        lo = first.value if isinstance(first, ast.Constant) and isinstance(first.value, int) else 0
        sym = sp.Symbol(name, integer=True, **({"nonnegative": True} if lo >= 0 else {}))
        scope.made[name] = sym
        scope.inferred[sym] = IntegerVar(sym, lo, None, inferred=f"an integer ≥ {lo}, inferred from its use as "
                                                                  "a Sum/Product bound")
    for node in (n for root in nodes for n in ast.walk(root)):
        # n! (factorial(n)): n is a whole number, here as in the paper (Stirling's bound read with a real n had no
        # finite value at any point the float tier tried)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "factorial" and \
                len(node.args) == 1 and isinstance(node.args[0], ast.Name):
            name = node.args[0].id
            if name in scope.made or name in scope.user or name in scope.named or name in scope.context.symbols \
                    or name in CONSTANTS:
                continue
            sym = sp.Symbol(name, integer=True, nonnegative=True)
            scope.made[name] = sym
            scope.inferred[sym] = IntegerVar(sym, 0, None, inferred="an integer ≥ 0, inferred from its factorial")


class _DisplayScope(Scope):
    def resolve(self, name: str):
        for frame in reversed(self.local):
            if name in frame:
                return frame[name]
        return {"pi": sp.pi, "E": sp.E, "e": sp.E}.get(name, sp.Symbol(name))

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
        if name in LIMIT_FUNCTIONS:
            body, (k, a, b) = node.args[0], node.args[1].elts
            cls = sp.Sum if name == "Sum" else sp.Product
            return cls(self.build(body), (sp.Symbol(k.id), self.build(a), self.build(b)))
        if name == "Integral":
            from .integrals import bound_value
            body, (x, a, b) = node.args[0], node.args[1].elts
            return sp.Integral(self.build(body), (sp.Symbol(x.id), bound_value(self, a), bound_value(self, b)))
        if name in FUNCTIONS and name not in ("Max", "Min", "exp", "log", "sqrt", "Abs") or name not in TABLE:
            return sp.Function(name)(*[self.build(a) for a in node.args if not isinstance(a, ast.Compare)])
        return super()._call(node)

    def _binop(self, node):
        if isinstance(node.op, ast.MatMult):
            return sp.Function("matmul")(self.build(node.left), self.build(node.right))
        return super()._binop(node)


def display_latex(node: ast.expr) -> str | None:
    try:
        return sp.latex(DisplayBuilder().build(node))
    except Exception:  # display only: never fail a check over it
        return None
