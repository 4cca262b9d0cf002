"""A hypothesis whose end depends on other variables of the domain: ``η ≤ 1/λ_max(XᵀX/n)`` in one line.

:class:`Within` is a real symbol drawn *after* the domain's other variables, inside an interval whose ends are
SymPy expressions in their symbols, which may contain :func:`lambda_max` / :func:`lambda_min` of a symmetric matrix
expression (``XᵀX/n`` in a :class:`~theoryverify.domains.MatrixVar`'s entries)::

    X, w, y = tv.MatrixVar("X", (n, d)), tv.VectorVar("w", d), tv.VectorVar("y", n)
    eta = tv.Within("eta", 0, 1 / tv.lambda_max(X.matrix.T @ X.matrix / n))     # 0 < η ≤ 1/λ_max(XᵀX/n)
    tv.check_inequality(lhs, "<=", rhs, tv.Domain([X, w, y, eta]), seed)

Every point a check draws (boundary, Hypothesis, local optimiser, exact rationals, the shrinker's moves) has X,
w, y drawn as usual and η inside its interval *at that X*, so the hypothesis holds at every point by construction and
a counterexample names X, w, y and η together.  The spectral quantity is never rounded by hand:

- at an exact point (rationals: the exact tier, the shrinker) λ is bracketed by rationals, ``lo ≤ λ ≤ hi``, each
  side certified exactly (a Rayleigh quotient of a rational vector below λ_max; ``hi·I − M`` positive definite by an
  exact LDLᵀ above it), the end is evaluated over the bracket by interval arithmetic, and the side *inside* the
  hypothesis is taken (an upper end's least value, a lower end's greatest): η ≤ 1/hi ≤ 1/λ_max exactly;
- at a float point the same with λ from ``numpy.linalg.eigvalsh`` widened by a relative 1e-10 (far above its
  round-off), so a float draw is inside the hypothesis too.

An end that is infinite at a point (1/λ_max at X = 0 with an exact λ = 0) is taken ``OPEN_SPAN`` above the other end.
"""
from __future__ import annotations

import math
import re
from fractions import Fraction
from typing import Any, Mapping

import numpy as np
import sympy as sp

from .errors import TheoryverifyError

#: where an end is infinite at a point (1/λ_max at λ_max = 0), how far from the other end the value is drawn
OPEN_SPAN = 1000.0
#: the relative widening of a float eigenvalue (numpy's eigvalsh is accurate to ~1e-15 of the matrix's norm)
FLOAT_MARGIN = 1e-10


class DependentError(TheoryverifyError, ValueError):
    """A :class:`Within` or spectral quantity declared with bad arguments."""


class _Spectral(sp.Function):
    """λ of a symmetric matrix expression (an opaque atom in an end; bracketed exactly at a point)."""
    nargs = 1
    which = ""

    @classmethod
    def eval(cls, m):
        if isinstance(m, sp.Expr) and not isinstance(m, sp.MatrixBase) and not m.is_number:
            return None  # a matrix not yet given its entries (a printed/ draft's X^T X): an opaque atom, never a value
        if not isinstance(m, sp.MatrixBase):
            raise DependentError(f"{cls.__name__} takes a square SymPy matrix (e.g. X.matrix.T @ X.matrix / n), "
                                 f"got {type(m).__name__}")
        if m.shape[0] != m.shape[1]:
            raise DependentError(f"{cls.__name__} needs a square matrix, got shape {m.shape}")
        if m.free_symbols and any(sp.expand(m[i, j] - m[j, i]) != 0 for i in range(m.shape[0]) for j in range(i)):
            raise DependentError(f"{cls.__name__} needs a symmetric matrix (its eigenvalues are real): "
                                 f"{m.shape[0]}×{m.shape[0]} matrix is not symmetric in its symbols")
        return None

    def _latex(self, printer):
        return rf"\lambda_{{\{self.which}}}\left({printer._print(self.args[0])}\right)"


class lambda_max(_Spectral):
    """The largest eigenvalue of a symmetric matrix expression, for the end of a :class:`Within`.

    >>> import sympy as sp, theoryverify as tv
    >>> X = tv.MatrixVar("X", (3, 2))
    >>> L = tv.lambda_max(X.matrix.T @ X.matrix / 3)
    >>> tv.dependent.bracket(L, {s: sp.Integer(1) for s in X.symbols})   # X = all ones: XᵀX/3 = [[1, 1], [1, 1]]
    (Fraction(2, 1), Fraction(20000000000001, 10000000000000))
    """
    which = "max"


class lambda_min(_Spectral):
    """The least eigenvalue of a symmetric matrix expression (a strong-convexity constant μ), for a :class:`Within`.

    >>> import sympy as sp, theoryverify as tv
    >>> a = sp.Symbol("a")
    >>> lo, hi = tv.dependent.bracket(tv.lambda_min(sp.Matrix([[2, a], [a, 2]])), {a: sp.Integer(1)})
    >>> lo <= 1 <= hi and hi - lo < 1e-6
    True
    """
    which = "min"


def _positive_definite(m: list[list[Fraction]]) -> bool:
    """Exact LDLᵀ of a symmetric rational matrix: every pivot > 0."""
    a = [row[:] for row in m]
    k = len(a)
    for j in range(k):
        if a[j][j] <= 0:
            return False
        for i in range(j + 1, k):
            f = a[i][j] / a[j][j]
            if f:
                for c in range(j, k):
                    a[i][c] -= f * a[j][c]
    return True


def _frac(x) -> Fraction:
    if isinstance(x, Fraction):
        return x
    if isinstance(x, (int, np.integer)):
        return Fraction(int(x))
    x = sp.nsimplify(x) if isinstance(x, sp.Basic) and not x.is_Rational else x
    if isinstance(x, sp.Rational):
        return Fraction(int(x.p), int(x.q))
    return Fraction(float(x))


def _exact_bracket(m: list[list[Fraction]], which: str) -> tuple[Fraction, Fraction]:
    """(lo, hi) rationals with lo ≤ λ ≤ hi, each side certified exactly."""
    k = len(m)
    a = np.array([[float(v) for v in row] for row in m])
    w, v = np.linalg.eigh(a)
    idx = k - 1 if which == "max" else 0
    lam = float(w[idx])
    x = [Fraction(float(t)).limit_denominator(10**12) for t in v[:, idx]]
    nx = sum(t * t for t in x)
    ray = sum(x[i] * m[i][j] * x[j] for i in range(k) for j in range(k)) / nx if nx else Fraction(0)
    if all(m[i][j] == 0 for i in range(k) for j in range(k)):
        return Fraction(0), Fraction(0)
    delta = Fraction(max(1, math.ceil(float(np.abs(a).max()))), 10**13)  # certified at once, below FLOAT_MARGIN
    for _ in range(80):
        cand = Fraction(lam).limit_denominator(10**15) + (delta if which == "max" else -delta)
        shifted = [[(cand - m[i][j] if i == j else -m[i][j]) if which == "max" else
                    (m[i][j] - cand if i == j else m[i][j]) for j in range(k)] for i in range(k)]
        if _positive_definite(shifted):
            return (ray, cand) if which == "max" else (cand, ray)
        delta *= 4
    raise DependentError(f"lambda_{which}: could not certify an eigenvalue bound")


def _matrix_at(m: sp.MatrixBase, point: Mapping) -> sp.Matrix:
    return m.xreplace({s: sp.nsimplify(point[s]) if isinstance(point[s], float) else sp.sympify(point[s])
                       for s in m.free_symbols})


def bracket(atom: _Spectral, point: Mapping) -> tuple[Fraction, Fraction]:
    """Rationals ``lo ≤ λ ≤ hi`` for a :func:`lambda_max` / :func:`lambda_min` atom at an exact point (symbol →
    rational), each side certified exactly (see the module docstring)."""
    m = _matrix_at(atom.args[0], point)
    rows = [[_frac(m[i, j]) for j in range(m.shape[1])] for i in range(m.shape[0])]
    if any(rows[i][j] != rows[j][i] for i in range(len(rows)) for j in range(i)):
        raise DependentError(f"{type(atom).__name__}: the matrix is not symmetric at this point")
    return _exact_bracket(rows, atom.which)


def _float_value(atom: _Spectral, point: Mapping, fns: dict) -> tuple[float, float]:
    """(lo, hi) floats around λ at a float point (eigvalsh, widened by FLOAT_MARGIN)."""
    key = ("matrix", atom)
    if key not in fns:
        from .numeric import lambdify_generated
        syms = sorted(atom.args[0].free_symbols, key=str)
        # generated names (a matrix variable's X[0,0] is no identifier: lambdify re-dummified each of the 256 names
        # of a 32×8 X, a pass over the matrix each) and the entries' shared products computed once
        fns[key] = (syms, lambdify_generated(syms, atom.args[0], cse=True))
    syms, f = fns[key]
    a = np.asarray(f(*[float(point[s]) for s in syms]), dtype=float)
    if not np.all(np.isfinite(a)):
        return math.nan, math.nan
    w = np.linalg.eigvalsh((a + a.T) / 2)
    lam = float(w[-1] if atom.which == "max" else w[0])
    pad = FLOAT_MARGIN * max(1.0, float(np.abs(a).max()))
    return lam - pad, lam + pad


class Within:
    """A real symbol inside ``[lo, hi]`` whose ends are expressions in the domain's other symbols, possibly with
    :func:`lambda_max` / :func:`lambda_min` of a symmetric matrix (see the module docstring): the hypothesis
    ``0 < η ≤ 1/λ_max(XᵀX/n)`` declared where the domain is, drawn after the variables it names, exact where the
    draw is exact.  ``closed``: whether each end belongs (default ``(False, True)``: ``lo < η ≤ hi``).

    >>> import sympy as sp, theoryverify as tv
    >>> X = tv.MatrixVar("X", (2, 2), lo=-2, hi=2)
    >>> eta = tv.Within("eta", 0, 1 / tv.lambda_max(X.matrix.T @ X.matrix / 2))
    >>> d = tv.Domain([X, eta])
    >>> lhs = eta.symbol * tv.lambda_max(X.matrix.T @ X.matrix / 2)
    >>> sorted(d.describe().split("; "))[1]
    'eta ∈ (0, 1/λ_max(XᵀX/2)] at each point (drawn after X, λ bracketed by certified rationals at exact points)'
    >>> import random
    >>> p = d.rationals(random.Random(0))
    >>> M = sp.Matrix(2, 2, [p[s] for s in X.symbols])
    >>> bool(p[eta.symbol] * max((M.T * M / 2).eigenvals()) <= 1)   # η ≤ 1/λ_max(XᵀX/2) exactly
    True
    """

    def __init__(self, symbol, lo: Any, hi: Any, *, closed: tuple[bool, bool] = (False, True), text: str = ""):
        self.symbol = sp.Symbol(symbol, real=True) if isinstance(symbol, str) else symbol
        if not isinstance(self.symbol, sp.Symbol):
            raise DependentError(f"Within: the variable must be a symbol or a name, got {symbol!r}")
        self.lo, self.hi = (sp.sympify(e) for e in (lo, hi))
        for e in (self.lo, self.hi):
            for a in e.atoms(_Spectral):
                if not isinstance(a.args[0], sp.MatrixBase):
                    raise DependentError(f"Within({self.symbol}): {type(a).__name__}({a.args[0]}) needs the matrix's "
                                         f"entries (tv.MatrixVar(...).matrix, or tv.printed(display, shapes=...))")
        for end, e in (("lo", self.lo), ("hi", self.hi)):
            if self.symbol in e.free_symbols:
                raise DependentError(f"Within({self.symbol}): {end} = {e} depends on {self.symbol} itself")
        self.closed = tuple(bool(c) for c in closed)
        self.text = text
        self.symbols = (self.symbol,)
        self.depends = frozenset((self.lo.free_symbols | self.hi.free_symbols))
        self._fns: dict = {}

    # --- the ends at a point -----------------------------------------------------------------------------------
    def _atoms(self, e: sp.Expr) -> list:
        """The spectral atoms of an end (computed once: a traversal of XᵀX for a 32×8 X is not cheap)."""
        key = ("atoms", e)
        if key not in self._fns:
            self._fns[key] = sorted(e.atoms(_Spectral), key=sp.default_sort_key)
        return self._fns[key]

    def _end_exact(self, e: sp.Expr, point: Mapping, upper: bool):
        """The end at an exact point, on the side inside the hypothesis (a Rational), or None (undefined)."""
        atoms = self._atoms(e)
        subs = {}
        for a in atoms:
            lo, hi = bracket(a, point)
            subs[a] = sp.Rational(lo.numerator, lo.denominator) if lo == hi else \
                sp.AccumBounds(sp.Rational(lo.numerator, lo.denominator), sp.Rational(hi.numerator, hi.denominator))
        try:
            v = e.xreplace(subs)
            v = v.xreplace({s: sp.sympify(point[s]) for s in v.free_symbols if s in point})
            if isinstance(v, sp.AccumBounds):
                v = v.min if upper else v.max
            v = sp.sympify(v)
        except (ZeroDivisionError, TypeError, ValueError):
            return None
        if v.has(sp.zoo, sp.nan) or v in (sp.oo, -sp.oo) or not v.is_number:
            return None
        if not v.is_Rational:  # an irrational end (sqrt): a rational just inside it
            f = Fraction(str(sp.N(v, 40))).limit_denominator(10**15)
            step = Fraction(1, 10**14) * max(1, abs(f))
            v = sp.Rational(f - step if upper else f + step)
        return v

    def _end_float(self, e: sp.Expr, point: Mapping, upper: bool) -> float:
        atoms = self._atoms(e)
        brackets = [_float_value(a, point, self._fns) for a in atoms]
        key = ("end", e)
        if key not in self._fns:
            dummies = [sp.Dummy() for _ in atoms]
            plain = e.xreplace(dict(zip(atoms, dummies)))
            syms = sorted(plain.free_symbols - set(dummies), key=str)
            self._fns[key] = (syms, sp.lambdify(dummies + syms, plain, "math"))
        syms, f = self._fns[key]
        args = [float(point[s]) for s in syms]
        vals = []
        for combo in (np.array(np.meshgrid(*brackets)).reshape(len(atoms), -1).T if atoms else [[]]):
            try:
                vals.append(float(f(*combo, *args)))
            except (ZeroDivisionError, OverflowError, ValueError):
                vals.append(math.inf if upper else -math.inf)
        vals = [v for v in vals if not math.isnan(v)]
        if not vals:
            return math.nan
        return min(vals) if upper else max(vals)

    def ends(self, point: Mapping, exact: bool):
        """(lo, hi) at ``point``, each on the side inside the hypothesis; an infinite end is OPEN_SPAN from the
        other; (None, None) where the interval is undefined or empty."""
        if exact:
            lo, hi = self._end_exact(self.lo, point, False), self._end_exact(self.hi, point, True)
            if lo is None and hi is None:
                return None, None
            lo = hi - sp.Rational(OPEN_SPAN) if lo is None else lo
            hi = lo + sp.Rational(OPEN_SPAN) if hi is None else hi
            return (lo, hi) if lo <= hi else (None, None)
        lo, hi = self._end_float(self.lo, point, False), self._end_float(self.hi, point, True)
        if math.isnan(lo) or math.isnan(hi) or (math.isinf(lo) and math.isinf(hi)):
            return None, None
        lo = hi - OPEN_SPAN if math.isinf(lo) else lo
        hi = lo + OPEN_SPAN if math.isinf(hi) else hi
        return (lo, hi) if lo <= hi else (None, None)

    def place(self, u, point: Mapping, exact: bool):
        """The value at fraction ``u`` ∈ [0, 1] of the interval at ``point`` (an open end is never returned)."""
        lo, hi = self.ends(point, exact)
        if lo is None:
            return sp.nan if exact else math.nan
        if exact:
            u = sp.Rational(_frac(u))
            if (u == 0 and not self.closed[0]) or (u == 1 and not self.closed[1]):
                u = (u + sp.Rational(1, 2)) / 2
            return lo + (hi - lo) * u
        u = min(max(float(u), 0.0), 1.0)
        u = max(u, 1e-9) if not self.closed[0] else u
        u = min(u, 1 - 1e-9) if not self.closed[1] else u
        return float(lo + (hi - lo) * u)

    def fraction(self, value, point: Mapping) -> float:
        """Where ``value`` lies in the interval at ``point`` (0 at lo, 1 at hi): the inverse of :meth:`place`."""
        lo, hi = self.ends(point, False)
        if lo is None or hi == lo:
            return 0.5
        return min(max((float(value) - lo) / (hi - lo), 0.0), 1.0)

    def contains(self, point: Mapping) -> bool:
        """Whether the exact ``point`` satisfies the hypothesis (the shrinker's test; exact, on the safe side)."""
        lo, hi = self.ends(point, True)
        if lo is None:
            return False
        v = sp.sympify(point[self.symbol])
        return bool((v > lo or (v == lo and self.closed[0])) and (v < hi or (v == hi and self.closed[1])))

    # --- the variable protocol (the value is a fraction u of the interval until the domain places it) -------
    def floats(self):
        from .domains import strat
        return strat.reals(0.0, 1.0).map(lambda u: (u,))

    def rationals(self, rnd):
        return (sp.Rational(rnd.choice([0, 1, 1, 1, 2, 3, 4]), 4) if rnd.random() < 0.6 else
                sp.Rational(rnd.randint(0, 1000), 1000),)

    free_dim = 1

    def from_free(self, z):
        from .domains import expit
        return (float(expit(z[0])),)

    def boundary_values(self):
        return [(0.0,), (1.0,)]

    def center(self):
        return (0.5,)

    def at_setting(self, setting: Mapping[str, Any]) -> "Within":
        """This variable with every symbol of its ends that names a parameter of ``setting`` replaced by the
        setting's value (exactly: a float is its exact binary value), so that ``tv.Within("eta", 0, 2 / L)`` with
        L a declared parameter of the claim's ranges is 0 < η ≤ 2/L at each setting; ``self`` when no end names
        one.  The description keeps the declared end and says which values the setting gave.

        >>> import sympy as sp, theoryverify as tv
        >>> eta = tv.Within("eta", 0, 2 / sp.Symbol("L", positive=True))
        >>> at = eta.at_setting({"L": 4, "d": 2})
        >>> at.hi, at.describe()
        (1/2, 'eta ∈ (0, 2/L] with L = 4 (the setting)')
        """
        subs = {s: _exact(setting[str(s)]) for s in self.depends if str(s) in setting}
        if not subs:
            return self
        given = ", ".join(f"{s} = {setting[str(s)]:g}" if isinstance(setting[str(s)], float) else
                          f"{s} = {setting[str(s)]}" for s in sorted(subs, key=str))
        rest = sorted({str(s).split("[")[0] for s in self.depends if s not in subs})
        text = self.text or (f"{self.symbol} ∈ {self._interval_text()} with {given} (the setting"
                             + (f"; drawn after {', '.join(rest)})" if rest else ")"))
        return Within(self.symbol, self.lo.xreplace(subs), self.hi.xreplace(subs), closed=self.closed, text=text)

    def _interval_text(self) -> str:
        def show(e):
            return sp.sstr(e.xreplace({a: sp.Symbol(f"λ_{a.which}({_matrix_text(a.args[0])})", positive=True)
                                       for a in e.atoms(_Spectral)}))
        return (f"{'[' if self.closed[0] else '('}{show(self.lo)}, {show(self.hi)}"
                f"{']' if self.closed[1] else ')'}")

    def describe(self) -> str:
        if self.text:
            return self.text
        names = sorted({str(s).split("[")[0] for s in self.depends})
        return (f"{self.symbol} ∈ {self._interval_text()} at each point (drawn after {', '.join(names)}"
                + (", λ bracketed by certified rationals at exact points)" if self.lo.atoms(_Spectral) |
                   self.hi.atoms(_Spectral) else ")"))

    def __repr__(self):
        return f"Within({self.describe()})"


def _exact(value: Any) -> sp.Expr:
    """A setting's value as an exact SymPy number (a float's exact binary value; a SymPy value as it is)."""
    if isinstance(value, sp.Basic):
        return value
    if isinstance(value, (bool, np.bool_)):
        raise DependentError(f"Within: a setting's value {value!r} is not a number")
    if isinstance(value, (int, np.integer)):
        return sp.Integer(int(value))
    return sp.Rational(float(value))


def _matrix_text(m: sp.MatrixBase) -> str:
    """``XᵀX/6`` when the matrix is a multiple of a named MatrixVar's Gram matrix, else ``a k×k matrix in X``."""
    names = sorted({str(s).split("[")[0] for s in m.free_symbols})
    k = m.shape[0]
    if len(names) == 1:
        entries = {}
        for s in m.free_symbols:
            got = re.fullmatch(r".+\[(\d+),(\d+)\]", str(s))
            if got:
                entries[int(got[1]), int(got[2])] = s
        if entries:
            rows, cols = max(i for i, _ in entries) + 1, max(j for _, j in entries) + 1
            if cols == k and len(entries) == rows * cols:
                X = sp.Matrix(rows, cols, lambda i, j: entries[i, j])
                gram = X.T * X
                c = sp.cancel(m[0, 0] / gram[0, 0]) if gram[0, 0] != 0 else None
                if c is not None and c.is_Rational and c > 0 and \
                        all(sp.expand(m[i, j] - c * gram[i, j]) == 0 for i in range(k) for j in range(k)):
                    n = names[0]
                    return f"{n}ᵀ{n}" + ("" if c == 1 else f"/{1 / c}" if (1 / c).is_Integer else f"·{c}")
        return f"a {k}×{k} matrix in {names[0]}"
    return f"a {k}×{k} matrix"


class IntegerWithin(Within):
    """An integer symbol in ``[lo, hi]`` (both ends belong) whose ends are expressions in the domain's other
    symbols: ``n ∈ {d, …, 10000}`` of ``tv.Domain.assuming([d, n], ["d: integer", "n: integer", "1 <= d <= 50",
    "d <= n <= 10000"])``.  Placed like :class:`Within`, at the integer nearest the fraction's point inside the
    integers of the interval at that point; a point whose interval holds no integer has no value (NaN).

    >>> import sympy as sp, random, theoryverify as tv
    >>> d, n = sp.symbols("d n")
    >>> dom = tv.Domain([tv.IntegerRange(d, 1, 5), IntegerWithin(n, d, 3 * d)])
    >>> p = dom.rationals(random.Random(1)); p[n].is_Integer and p[d] <= p[n] <= 3 * p[d]
    True
    """

    def __init__(self, symbol, lo: Any, hi: Any, *, text: str = ""):
        super().__init__(symbol, lo, hi, closed=(True, True), text=text)

    def _integers(self, point: Mapping, exact: bool):
        lo, hi = self.ends(point, exact)
        if lo is None:
            return None, None
        a, b = (int(sp.ceiling(lo)), int(sp.floor(hi))) if exact else (math.ceil(lo - 1e-9), math.floor(hi + 1e-9))
        return (a, b) if a <= b else (None, None)

    def place(self, u, point: Mapping, exact: bool):
        a, b = self._integers(point, exact)
        if a is None:
            return sp.nan if exact else math.nan
        k = a + int(round(min(max(float(u), 0.0), 1.0) * (b - a)))
        return sp.Integer(k) if exact else float(k)

    def fraction(self, value, point: Mapping) -> float:
        a, b = self._integers(point, False)
        if a is None or a == b:
            return 0.5
        return min(max((float(value) - a) / (b - a), 0.0), 1.0)

    def contains(self, point: Mapping) -> bool:
        v = sp.sympify(point[self.symbol])
        return bool(v.is_integer) and super().contains(point)

    def at_setting(self, setting: Mapping[str, Any]) -> "Within":
        moved = super().at_setting(setting)
        return moved if moved is self else IntegerWithin(moved.symbol, moved.lo, moved.hi, text=moved.text)

    def _interval_text(self) -> str:
        return f"{{{sp.sstr(self.lo)}, …, {sp.sstr(self.hi)}}}"

    def describe(self) -> str:
        if self.text:
            return self.text
        names = sorted({str(s).split("[")[0] for s in self.depends})
        return f"{self.symbol} ∈ {self._interval_text()}, an integer (drawn after {', '.join(names)})"
