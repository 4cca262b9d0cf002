"""Float64 and high-precision evaluation of SymPy expressions.

Symbols are replaced by generated argument names before ``lambdify``, so no user-chosen name ever
reaches generated code.
"""
from __future__ import annotations

from typing import Callable, Mapping, Sequence

import mpmath
import numpy as np
import sympy as sp


def compile_float(expr: sp.Expr, symbols: Sequence[sp.Symbol], *, complex_ok: bool = False, cse: bool = False
                  ) -> Callable[[Mapping[sp.Symbol, float]], float]:
    """A float64 evaluator of ``expr`` over ``symbols`` (numpy; errors become nan).

    ``complex_ok``: where real arithmetic gives nan (a square root of a negative number inside |·|, the moduli of
    complex eigenvalues), evaluate again in complex128 and keep the value if it is real (imaginary part within
    1e-12 of its size) — a real-valued expression with complex intermediates then has float64 points.

    ``cse``: compile with common subexpressions computed once (``lambdify(cse=True)``): an expression built from
    matrix variables (``f(w − η∇f(w))`` of a 32×8 ``X``) is a DAG whose printed tree repeats each entry of
    ``∇f`` hundreds of times (6 CPU-s to compile and 6 ms a point, against 1.2 s and 0.1 ms).  The values may
    differ from the plain form's in the last bits (another order of operations), so it is off by default.

    >>> x = sp.Symbol("x")
    >>> f = sp.Abs(1 + sp.sqrt(x - 2))  # real for every x: |1 + i·√(2 − x)| below 2
    >>> compile_float(f, [x])({x: 1.0}), compile_float(f, [x], complex_ok=True)({x: 1.0})
    (nan, 1.4142135623730951)
    """
    fn = lambdify_generated(symbols, expr, cse=cse)

    def evaluate(point: Mapping[sp.Symbol, float]) -> float:
        with np.errstate(all="ignore"):
            try:
                value = fn(*[np.float64(point[s]) for s in symbols])
                out = float(np.real_if_close(value))
            except (ZeroDivisionError, OverflowError, ValueError, TypeError):
                out = float("nan")
            if out == out or not complex_ok:
                return out
            try:
                z = complex(fn(*[np.complex128(point[s]) for s in symbols]))
            except (ZeroDivisionError, OverflowError, ValueError, TypeError):
                return float("nan")
            return z.real if abs(z.imag) <= 1e-12 * max(1.0, abs(z.real)) else float("nan")

    return evaluate


def lambdify_generated(symbols: Sequence[sp.Symbol], expr, modules="numpy", *, cse: bool = False) -> Callable:
    """``sp.lambdify`` of ``expr`` (an expression, or a list of them) as a function of ``symbols``, with every
    symbol renamed to a generated argument name first, so no user-chosen name reaches generated code.

    Plain symbols with generated names, not ``Dummy``: lambdify re-dummifies every argument when any argument is
    a Dummy — one more full substitution of the expression per argument, which re-evaluates every ``Max`` and
    ``Heaviside`` in it and was most of the cost of compiling a large closed form (33.9 → 11.9 CPU-s for the
    knowledge paper's planted gradient test)."""
    exprs = [sp.sympify(e) for e in expr] if isinstance(expr, (list, tuple)) else sp.sympify(expr)
    pieces = exprs if isinstance(exprs, list) else [exprs]
    taken = {str(s) for e in pieces for s in getattr(e, "free_symbols", ())}
    names = [sp.Symbol(_fresh_name(i, taken)) for i in range(len(symbols))]
    swap = dict(zip(symbols, names))
    # ComplexInfinity (a closed form with a pole, e.g. a sum's at a bound) has no numpy name: the printer raised
    # KeyError('ComplexInfinity'); it is no finite value, so nan (the point is then unusable), never a number
    swap[sp.zoo] = sp.nan
    body = [e.xreplace(swap) for e in exprs] if isinstance(exprs, list) else exprs.xreplace(swap)
    return sp.lambdify(names, body, modules=modules, cse=True) if cse else sp.lambdify(names, body, modules=modules)


def _fresh_name(i: int, taken: set[str]) -> str:
    """A generated argument name for generated code: a Python identifier no symbol of the expression has."""
    name = f"_tv_arg{i}"
    while name in taken:
        name = "_" + name
    return name


def exact_value(expr: sp.Expr, point: Mapping[sp.Symbol, sp.Expr]) -> sp.Expr:
    """``expr`` at an exact point (rationals stay rationals); ``nan`` where SymPy cannot even form the value — a
    function whose argument is undefined there, e.g. ``Max(log(2), zoo)`` at a pole of one argument ("not
    comparable") — so that callers skip the point as outside the expression's natural domain.

    >>> x = sp.Symbol("x")
    >>> exact_value(sp.Max(sp.log(1 + x), -sp.log(1 - x)), {x: sp.Integer(1)})
    nan
    """
    try:
        return sp.sympify(expr).xreplace({s: sp.sympify(v) for s, v in point.items()})
    except (ValueError, TypeError):
        return sp.nan


def high_precision(expr: sp.Expr, point: Mapping[sp.Symbol, float], digits: int = 50) -> mpmath.mpf:
    """``expr`` at a float point taken exactly (each float as the rational it is), to ``digits``."""
    exact = {s: sp.Rational(float(v)) for s, v in point.items()}
    value = exact_value(expr, exact).evalf(digits)
    return mpmath.mpf(str(value)) if value.is_real else mpmath.mpf("nan")


def relative_error(a: float, b: float) -> float:
    """|a − b| / max(1, |b|): the float tiers' error measure."""
    if not (np.isfinite(a) and np.isfinite(b)):
        return float("nan")
    return abs(a - b) / max(1.0, abs(b))


def _entries(name: str, value) -> dict[str, float] | None:
    """An array-like value of a matrix or vector symbol as its entries by name (``X[0,1]``, ``w[2]``: the
    names :class:`~theoryverify.domains.MatrixVar` / ``VectorVar`` give them); None for a scalar."""
    if isinstance(value, (str, bytes, bool, np.bool_)) or not isinstance(value, (list, tuple, np.ndarray)):
        return None
    try:
        a = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"evaluate: the value of {name} must be a number or an array of numbers") from None
    if a.ndim not in (1, 2):
        raise ValueError(f"evaluate: the value of {name} must be a number, a vector or a matrix "
                         f"(got an array of shape {a.shape})")
    out = {f"{name}[{','.join(map(str, i))}]": float(v) for i, v in np.ndenumerate(a)}
    if a.ndim == 2 and a.shape[1] == 1:  # a column given as a matrix also names the entries of a vector
        out.update({f"{name}[{i}]": float(v) for i, v in enumerate(a[:, 0])})
    if a.ndim == 1:  # a vector given flat also names the entries of a one-column matrix
        out.update({f"{name}[{i},0]": float(v) for i, v in enumerate(a)})
    return out


def evaluate(expr, setting: Mapping, **values):
    """A printed display (a SymPy expression) as a float at one setting: its symbols are bound BY NAME to the
    setting's entries (a dict ``name → value`` such as one of ``tv.settings(over, seed)``, or ``Symbol → value``;
    keyword arguments add or override entries), extra entries are ignored, and a symbol the setting does not
    give is an error naming it — so a claim compares a display with a simulation without hand-written
    ``subs`` + ``float``.  Evaluated exactly first (each float as the rational it is, SymPy constants such as π
    kept), then to float64; a non-real value is an error.

    A matrix or vector (``tv.MatrixVar("X", (3, 2))``, ``tv.VectorVar("w", 2)``, whose entries are the symbols
    ``X[i,j]``, ``w[i]``) takes an array under its name (``{"X": [[1, 2], [3, 4], [5, 6]]}``), as does the setting
    ``Domain.named`` gives; a matrix display (a SymPy Matrix) gives a float array of its shape — a column vector a
    1-d array, as torch and numpy return a gradient.

    >>> import sympy as sp, theoryverify as tv
    >>> a, theta = sp.symbols("a theta", positive=True)
    >>> tv.evaluate(a * (sp.pi - theta) / sp.pi, {"a": 2.0, "theta": 0.5, "d": 3})
    1.6816901138162093
    >>> tv.evaluate(a**2, {"theta": 1.0}, a=3)
    9.0
    >>> X, w = tv.MatrixVar("X", (3, 2)).matrix, tv.VectorVar("w", 2).vector
    >>> tv.evaluate(X.T * X * w, {"X": [[1, 2], [3, 4], [5, 6]], "w": [1, 1]})
    array([ 79., 100.])
    >>> tv.evaluate(a * theta, {"a": 1.0})
    Traceback (most recent call last):
    ...
    ValueError: evaluate: the setting gives no value of theta (it has a)
    """
    given = {str(k): v for k, v in dict(setting).items()}
    given.update(values)
    for name, value in list(given.items()):
        entries = _entries(name, value)
        if entries is not None:
            del given[name]
            given.update({k: v for k, v in entries.items() if k not in given})
    body = sp.sympify(expr)
    missing = sorted(str(s) for s in body.free_symbols if str(s) not in given)
    if missing:
        shown = sorted({k.split("[")[0] + ("[…]" if "[" in k else "") for k in given})
        raise ValueError(f"evaluate: the setting gives no value of {', '.join(missing)} "
                         f"(it has {', '.join(shown) or 'nothing'})")
    point = {}
    for s in body.free_symbols:
        v = given[str(s)]
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.number, sp.Basic)):
            raise ValueError(f"evaluate: the value of {s} must be a number, got {v!r}")
        point[s] = sp.Rational(float(v)) if isinstance(v, (float, np.floating)) else sp.sympify(v)
    if isinstance(body, sp.MatrixBase):
        out = np.array([[_real(e, point) for e in row] for row in body.tolist()], dtype=float).reshape(body.shape)
        return out[:, 0] if body.shape[1] == 1 else out
    return _real(body, point)


def _real(body, point) -> float:
    value = complex(sp.N(body.xreplace(point), 30))
    if abs(value.imag) > 1e-12 * max(1.0, abs(value.real)):
        raise ValueError(f"evaluate: the display is not real at this setting ({value})")
    return float(value.real)
