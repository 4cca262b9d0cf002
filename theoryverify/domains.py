"""Domains: where a claim's free symbols live.

A :class:`Domain` is a product of variables (a real interval, a positive quantity over decades,
a point of the simplex, ...).  Each variable knows how to draw float64 values (a Hypothesis
strategy), exact rationals (for the exact tier), how to map an unconstrained vector onto
itself (for local optimisation by scipy), its boundary (endpoints of a closed interval, the
vertices and edge midpoints of the simplex) and a central point.  Checks draw from the claim's
declared domain, never from SymPy's fixed complex box, and search its boundary explicitly
(:meth:`Domain.boundary_points`: the corners of the box and each variable's boundary with the
others at their centre); :meth:`Domain.describe` names the domain a verdict searched.

Besides real variables: :class:`IntegerRange` (an integer symbol; small integers are tried first) and
:class:`MatrixVar` / :class:`VectorVar` (a matrix or vector of real entry symbols, drawn as arrays that shrink
towards zeros and small integers).
"""
from __future__ import annotations

import itertools
import math
import random
import re
import weakref
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Iterable, Mapping, Protocol, Sequence

import numpy as np
import sympy as sp

from .errors import TheoryverifyError


class _OnFirstUse:
    """A module imported when one of its attributes is first read: Hypothesis (and the strategies built on it)
    costs a fifth of a second to import, and a step-checker statement that is proved symbolically never draws."""

    def __init__(self, name: str, package: str | None = None):
        self._name, self._package, self._module = name, package, None

    def __getattr__(self, attr: str):
        if self._module is None:
            import importlib
            self._module = importlib.import_module(self._name, self._package)
        return getattr(self._module, attr)


st = _OnFirstUse("hypothesis.strategies")
strat = _OnFirstUse(".strategies", __package__)


class Variable(Protocol):
    symbols: tuple[sp.Symbol, ...]

    def floats(self) -> st.SearchStrategy[tuple[float, ...]]: ...
    def rationals(self, rnd: random.Random) -> tuple[sp.Rational, ...]: ...
    @property
    def free_dim(self) -> int: ...
    def from_free(self, z: np.ndarray) -> tuple[float, ...]: ...
    def to_free(self, x: Sequence[float]) -> np.ndarray: ...
    def boundary_values(self) -> list[tuple[float, ...]]: ...
    def center(self) -> tuple[float, ...]: ...
    def describe(self) -> str: ...


def expit(z):
    """scipy.special.expit, imported on first use (SciPy's special functions cost a quarter second to import, and
    the step checker's cold start does not need them)."""
    from scipy.special import expit as f
    return f(z)


def logit(u):
    """scipy.special.logit, imported on first use (see :func:`expit`)."""
    from scipy.special import logit as f
    return f(u)


def _simple_rational(rnd: random.Random, lo: Fraction, hi: Fraction) -> Fraction:
    """A rational in [lo, hi] with a small denominator (simple counterexamples first)."""
    q = rnd.choice([1, 2, 3, 4, 5, 7, 8, 10, 16, 32, 100])
    a, b = int(np.ceil(lo * q)), int(np.floor(hi * q))
    return Fraction(rnd.randint(a, b), q) if a <= b else (lo + hi) / 2


def _inside(f: Fraction, lo: Fraction, hi: Fraction, closed: tuple[bool, bool]) -> Fraction:
    """``f`` moved off an open end (to the midpoint between that end and the centre)."""
    mid = (lo + hi) / 2
    if (f == lo and not closed[0]) or (f == hi and not closed[1]):
        return (f + mid) / 2
    return f


def _clip_open(v: float, lo: float, hi: float, closed: tuple[bool, bool]) -> float:
    """``v`` kept inside [lo, hi], and off an open end (float rounding can land exactly on it)."""
    a = lo if closed[0] else float(np.nextafter(lo, np.inf))
    b = hi if closed[1] else float(np.nextafter(hi, -np.inf))
    return min(max(v, a), b) if closed != (True, True) else v


#: how far inside an open end of an Interval a value is kept, relative to the interval's width: the search
#: reaches the end's neighbourhood but never a subnormal float such as 4.9e-324 for (0, 1]
OPEN_END = 1e-9


def _off_open_end(v: float, lo: float, hi: float, closed: tuple[bool, bool]) -> float:
    """``v`` kept at least ``OPEN_END`` × width inside an open end of [lo, hi] (closed ends: unchanged)."""
    width = hi - lo
    if not closed[0]:
        v = max(v, lo + OPEN_END * width)
    if not closed[1]:
        v = min(v, hi - OPEN_END * width)
    return v


def _ends(lo: float, hi: float, closed: tuple[bool, bool]) -> list[tuple[float, ...]]:
    return [(float(v),) for v, c in zip((lo, hi), closed) if c]


def real_bound(value, what: str) -> float:
    """A domain's end as a float: a Python or numpy number, or a SymPy number such as ``sp.pi`` or ``sp.Rational(1,
    2)`` (converted with ``float``, so ``Interval(theta, 0, sp.pi)`` means θ ∈ [0, 3.141592653589793]); anything else
    (a symbol, an expression with free symbols, a string) is refused in one line, when the domain is built.

    >>> import sympy as sp
    >>> real_bound(sp.pi, "hi")
    3.141592653589793
    >>> real_bound(sp.Symbol("n"), "hi")
    Traceback (most recent call last):
    ...
    theoryverify.domains.DomainError: hi must be a real number (a SymPy number such as pi is converted), got n
    """
    if isinstance(value, bool):
        raise DomainError(f"{what} must be a real number, got {value!r}")
    if isinstance(value, (int, float)):
        return value
    if isinstance(value, np.generic) and np.isrealobj(value):
        return value.item()
    if isinstance(value, sp.Basic) and value.is_number and value.is_extended_real:
        return int(value) if value.is_Integer else float(value)
    raise DomainError(f"{what} must be a real number (a SymPy number such as pi is converted), got {value}")


def _real_ends(obj, name: str) -> None:
    """Convert (or refuse) a frozen domain's ``lo`` and ``hi`` in place (see :func:`real_bound`)."""
    for end in ("lo", "hi"):
        object.__setattr__(obj, end, real_bound(getattr(obj, end), f"{name}({obj.symbol}): {end}"))


def _bracket(lo: float, hi: float, closed: tuple[bool, bool]) -> str:
    return ("[" if closed[0] else "(") + f"{lo:g}, {hi:g}" + ("]" if closed[1] else ")")


@dataclass(frozen=True)
class Interval:
    """A real symbol in [lo, hi] (``closed``: whether each end belongs to the domain; open ends are not
    searched as boundary points, and the search comes within ``OPEN_END`` (1e-9) × the width of them).  The ends may be SymPy numbers (``sp.pi``): they are converted to floats here.

    >>> import sympy as sp
    >>> Interval(sp.Symbol("theta"), 0, sp.pi, closed=(False, False)).describe()
    'theta ∈ (0, 3.14159)'
    """
    symbol: sp.Symbol
    lo: float
    hi: float
    closed: tuple[bool, bool] = (True, True)

    def __post_init__(self) -> None:
        _real_ends(self, "Interval")

    def boundary_values(self):
        return _ends(self.lo, self.hi, self.closed)

    def center(self):
        return ((self.lo + self.hi) / 2.0,)

    def describe(self):
        return f"{self.symbol} ∈ {_bracket(self.lo, self.hi, self.closed)}"

    @property
    def symbols(self):
        return (self.symbol,)

    def floats(self):
        if self.closed == (True, True):
            return strat.reals(self.lo, self.hi).map(lambda x: (x,))
        return st.floats(self.lo, self.hi, allow_nan=False, allow_infinity=False, exclude_min=not self.closed[0],
                         exclude_max=not self.closed[1]).map(lambda x: (_off_open_end(x, self.lo, self.hi,
                                                                                     self.closed),))

    def rationals(self, rnd):
        lo, hi = Fraction(self.lo), Fraction(self.hi)
        return (sp.Rational(_inside(_simple_rational(rnd, lo, hi), lo, hi, self.closed)),)

    free_dim = 1

    def from_free(self, z):
        return (_off_open_end(float(self.lo + (self.hi - self.lo) * expit(z[0])), self.lo, self.hi, self.closed),)

    def to_free(self, x):
        u = np.clip((x[0] - self.lo) / (self.hi - self.lo), 1e-12, 1 - 1e-12)
        return np.array([logit(u)])


@dataclass(frozen=True)
class LogUniform:
    """A positive symbol spread over the decades of [lo, hi] (temperatures, step sizes); SymPy-number ends are
    converted to floats, as for :class:`Interval`."""
    symbol: sp.Symbol
    lo: float
    hi: float
    closed: tuple[bool, bool] = (True, True)

    def __post_init__(self) -> None:
        _real_ends(self, "LogUniform")

    def boundary_values(self):
        return _ends(self.lo, self.hi, self.closed)

    def center(self):
        return (float(np.sqrt(self.lo * self.hi)),)

    def describe(self):
        return f"{self.symbol} ∈ {_bracket(self.lo, self.hi, self.closed)} (log-uniform)"

    @property
    def symbols(self):
        return (self.symbol,)

    def floats(self):
        if self.closed == (True, True):
            return strat.log_uniform(self.lo, self.hi).map(lambda x: (x,))
        a = self.lo if self.closed[0] else float(np.nextafter(self.lo, np.inf))
        b = self.hi if self.closed[1] else float(np.nextafter(self.hi, 0.0))
        return strat.log_uniform(self.lo, self.hi).map(lambda x: (min(max(x, a), b),))

    def rationals(self, rnd):
        e = rnd.uniform(np.log10(self.lo), np.log10(self.hi))
        f = Fraction(10.0**e).limit_denominator(10**6)
        lo, hi = Fraction(self.lo), Fraction(self.hi)
        return (sp.Rational(_inside(min(max(f, lo), hi), lo, hi, self.closed)),)

    free_dim = 1

    def from_free(self, z):
        a, b = np.log(self.lo), np.log(self.hi)
        return (_clip_open(float(np.exp(a + (b - a) * expit(z[0]))), self.lo, self.hi, self.closed),)

    def to_free(self, x):
        a, b = np.log(self.lo), np.log(self.hi)
        u = np.clip((np.log(x[0]) - a) / (b - a), 1e-12, 1 - 1e-12)
        return np.array([logit(u)])


@dataclass(frozen=True)
class Simplex:
    """Symbols that together form a point of the probability simplex."""
    symbols: tuple[sp.Symbol, ...]
    boundary: bool = True

    def floats(self):
        return strat.simplex(len(self.symbols), self.boundary)

    def rationals(self, rnd):
        k = len(self.symbols)
        w = [rnd.choice([0, 1, 1, 2, 3, 5, 8, 13]) if self.boundary else rnd.randint(1, 13) for _ in range(k)]
        if sum(w) == 0:
            w[0] = 1
        total = sum(w)
        return tuple(sp.Rational(x, total) for x in w)

    @property
    def free_dim(self):
        return len(self.symbols)

    def from_free(self, z):
        e = np.exp(z - np.max(z))
        return tuple((e / e.sum()).tolist())

    def to_free(self, x):
        return np.log(np.maximum(np.asarray(x, dtype=float), 1e-300))

    def boundary_values(self):
        """Vertices and edge midpoints (through ``from_free``, so subclasses that map or lift points keep
        their constraints); none for an open simplex."""
        if not self.boundary:
            return []
        k = len(self.symbols)
        out = []
        for i in range(k):
            z = np.full(k, -np.inf)
            z[i] = 0.0
            out.append(tuple(float(t) for t in self.from_free(z)))
        for i in range(k):
            for j in range(i + 1, k):
                if len(out) >= 4 * k + 8:
                    break
                z = np.full(k, -np.inf)
                z[i] = z[j] = 0.0
                out.append(tuple(float(t) for t in self.from_free(z)))
        return list(dict.fromkeys(out))

    def center(self):
        return tuple(float(t) for t in self.from_free(np.zeros(len(self.symbols))))

    def describe(self):
        names = ", ".join(map(str, self.symbols))
        return f"({names}) on the probability simplex" + (" (faces included)" if self.boundary else " (interior)")


@dataclass(frozen=True)
class FlooredSimplex(Simplex):
    """Simplex points with every coordinate ≥ ``floor``: v = floor + (1 − k·floor)·s, s on the simplex.
    Keeps ratios such as v1/v2 finite under scipy polishing (which otherwise runs to v ~ 1e-200)."""
    floor: float = 1e-6

    def _lift(self, s):
        k = len(self.symbols)
        return tuple(self.floor + (1 - k * self.floor) * np.asarray(s, dtype=float))

    def floats(self):
        return super().floats().map(self._lift)

    def rationals(self, rnd):
        k, f = len(self.symbols), sp.Rational(self.floor)
        return tuple(f + (1 - k * f) * r for r in super().rationals(rnd))

    def from_free(self, z):
        return self._lift(super().from_free(z))

    def to_free(self, x):
        k = len(self.symbols)
        s = (np.asarray(x, dtype=float) - self.floor) / (1 - k * self.floor)
        return super().to_free(np.maximum(s, 1e-300))

    def describe(self):
        return super().describe().replace("simplex", f"simplex with every coordinate ≥ {self.floor:g}")


@dataclass(frozen=True)
class Fixed:
    """A symbol held at one exact value (e.g. n = 3)."""
    symbol: sp.Symbol
    value: sp.Rational

    @property
    def symbols(self):
        return (self.symbol,)

    def floats(self):
        return st.just((float(self.value),))

    def rationals(self, rnd):
        return (sp.Rational(self.value),)

    free_dim = 0

    def from_free(self, z):
        return (float(self.value),)

    def to_free(self, x):
        return np.zeros(0)

    def boundary_values(self):
        return []

    def center(self):
        return (float(self.value),)

    def describe(self):
        return f"{self.symbol} = {self.value}"


class DomainError(TheoryverifyError, ValueError):
    """A variable declared with bad arguments (raised by the integer, matrix and vector variables)."""


# Where each random source stands in an integer variable's list of first values (see IntegerRange.rationals).
_FIRST_VALUES: "weakref.WeakKeyDictionary[random.Random, dict]" = weakref.WeakKeyDictionary()


@dataclass(frozen=True)
class IntegerRange:
    """An integer symbol n ∈ {lo, …, hi} (sizes, counts, orders of a sum).

    Counterexamples come at small integers first: the exact tier's first points are the ``small`` smallest
    values and ``hi`` (in that order, for each fresh random source), then integers drawn with a bias towards the
    small end; the float tier draws integers (Hypothesis shrinks a failure towards the smallest); the boundary
    searched by the checks is the same list.  Exact values are SymPy Integers."""
    symbol: sp.Symbol
    lo: int
    hi: int
    small: int = 3

    def __post_init__(self):
        for name in ("lo", "hi", "small"):
            value = getattr(self, name)
            ok = isinstance(value, (int, np.integer, sp.Integer)) or (isinstance(value, float) and value.is_integer())
            if isinstance(value, bool) or not ok:
                raise DomainError(f"IntegerRange {name} must be an integer, got {value!r}")
            object.__setattr__(self, name, int(value))
        if self.small < 1:
            raise DomainError(f"IntegerRange small must be ≥ 1, got {self.small}")
        if self.lo > self.hi:
            raise DomainError(f"IntegerRange needs lo ≤ hi, got {self.lo}, {self.hi}")

    @property
    def symbols(self):
        return (self.symbol,)

    def _first(self) -> list[int]:
        return list(dict.fromkeys([*range(self.lo, min(self.hi, self.lo + self.small - 1) + 1), self.hi]))

    def floats(self):
        return st.integers(self.lo, self.hi).map(lambda n: (float(n),))

    def rationals(self, rnd):
        seen = _FIRST_VALUES.setdefault(rnd, {})
        k = seen.get(self, 0)
        seen[self] = k + 1
        first = self._first()
        if k < len(first):
            return (sp.Integer(first[k]),)
        span = self.hi - self.lo
        if rnd.random() < 0.5:  # the small end: lo + a geometric-ish offset
            return (sp.Integer(self.lo + min(span, int(rnd.expovariate(0.3)))),)
        return (sp.Integer(rnd.randint(self.lo, self.hi)),)

    free_dim = 1

    def from_free(self, z):
        return (float(round(self.lo + (self.hi - self.lo) * float(expit(z[0])))),)

    def to_free(self, x):
        if self.hi == self.lo:
            return np.zeros(1)
        u = np.clip((x[0] - self.lo) / (self.hi - self.lo), 1e-12, 1 - 1e-12)
        return np.array([logit(u)])

    def boundary_values(self):
        return [(float(v),) for v in self._first()]

    def center(self):
        return (float((self.lo + self.hi) // 2),)

    def describe(self):
        inner = ", ".join(map(str, range(self.lo, self.hi + 1))) if self.hi - self.lo < 4 else \
            f"{self.lo}, {self.lo + 1}, …, {self.hi}"
        return f"{self.symbol} ∈ {{{inner}}} (integers)"


class MatrixVar:
    """A matrix of real symbols, every entry in [lo, hi]; points map each entry symbol to a value.

    Build it from a SymPy matrix of distinct symbols, or from a name and a shape (entries ``A[i,j]``; with
    ``symmetric=True`` a square matrix whose entries below the diagonal repeat those above).  Use
    :attr:`matrix` in expressions.  Float draws are arrays that shrink towards zeros and small integers
    (:func:`theoryverify.strategies.arrays`); exact draws have entries in {0, ±1, ±2} first (the first
    ``small_first`` points of each random source), then half small integers, half simple rationals; the
    boundary is the all-``lo`` and all-``hi`` matrices and each entry at an end with the others at the centre."""

    def __init__(self, symbols_or_name, shape: tuple[int, int] | None = None, lo: float = -3.0, hi: float = 3.0,
                 *, symmetric: bool = False):
        if isinstance(symbols_or_name, str):
            if shape is None or len(tuple(shape)) != 2 or min(shape) < 1:
                raise DomainError(f"MatrixVar {symbols_or_name!r} needs a shape (rows, cols)")
            rows, cols = (int(v) for v in shape)
            if symmetric and rows != cols:
                raise DomainError("a symmetric MatrixVar must be square")
            name = symbols_or_name
            entry = (lambda i, j: sp.Symbol(f"{name}[{min(i, j)},{max(i, j)}]", real=True)) if symmetric else \
                (lambda i, j: sp.Symbol(f"{name}[{i},{j}]", real=True))
            matrix = sp.ImmutableMatrix(rows, cols, lambda i, j: entry(i, j))
        elif isinstance(symbols_or_name, sp.MatrixBase):
            matrix = sp.ImmutableMatrix(symbols_or_name)
            if shape is not None and tuple(shape) != matrix.shape:
                raise DomainError(f"MatrixVar shape {tuple(shape)} does not match the matrix's {matrix.shape}")
            if not all(isinstance(e, sp.Symbol) for e in matrix):
                raise DomainError("every entry of a MatrixVar's matrix must be a symbol")
        else:
            raise DomainError("MatrixVar takes a SymPy matrix of symbols, or a name and a shape")
        if not (np.isfinite(lo) and np.isfinite(hi) and lo < hi):
            raise DomainError(f"MatrixVar needs finite lo < hi, got {lo}, {hi}")
        self.matrix: sp.ImmutableMatrix = matrix
        self.lo, self.hi = float(lo), float(hi)
        self.symbols: tuple[sp.Symbol, ...] = tuple(dict.fromkeys(matrix))

    def _key(self):
        return (type(self), self.matrix, self.lo, self.hi)

    def __eq__(self, other):
        return isinstance(other, MatrixVar) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return f"{type(self).__name__}({self.describe()})"

    @property
    def shape(self) -> tuple[int, int]:
        return self.matrix.shape

    def floats(self):
        k = len(self.symbols)
        return strat.arrays((k,), self.lo, self.hi).map(lambda a: tuple(float(v) for v in a))

    #: how many exact points (per random source) have only small-integer entries before rationals are mixed in
    small_first = 6

    def rationals(self, rnd):
        lo, hi = Fraction(self.lo), Fraction(self.hi)
        small = [v for v in (0, 1, -1, 2, -2) if lo <= v <= hi]
        seen = _FIRST_VALUES.setdefault(rnd, {})
        k = seen.get(self, 0)
        seen[self] = k + 1
        p_small = 1.0 if k < self.small_first else 0.5
        return tuple(sp.Rational(rnd.choice(small) if small and rnd.random() < p_small else
                                 _simple_rational(rnd, lo, hi)) for _ in self.symbols)

    @property
    def free_dim(self):
        return len(self.symbols)

    def from_free(self, z):  # one array call (expit per entry cost 2 µs each, 256 entries of a 32×8 X per point)
        return tuple((self.lo + (self.hi - self.lo) * expit(np.asarray(z, dtype=float))).tolist())

    def to_free(self, x):
        u = np.clip((np.asarray(x, dtype=float) - self.lo) / (self.hi - self.lo), 1e-12, 1 - 1e-12)
        return logit(u)

    def boundary_values(self):
        k, mid = len(self.symbols), (self.lo + self.hi) / 2.0
        out = [(self.lo,) * k, (self.hi,) * k]
        for i in range(k):
            for end in (self.lo, self.hi):
                out.append(tuple(end if j == i else mid for j in range(k)))
        return list(dict.fromkeys(out))

    def center(self):
        return ((self.lo + self.hi) / 2.0,) * len(self.symbols)

    def describe(self):
        rows, cols = self.shape
        what = f"{rows}-vector" if cols == 1 else f"{rows}×{cols} matrix"
        first = str(self.matrix[0, 0])
        name = first.split("[")[0] if "[" in first else "(" + ", ".join(map(str, self.symbols[:3])) + \
            (", …" if len(self.symbols) > 3 else "") + ")"
        return f"{name} ({what}), entries in [{self.lo:g}, {self.hi:g}]"

    def value(self, point: Mapping[sp.Symbol, float]) -> np.ndarray:
        """The matrix at a point of a domain, as a float array."""
        return np.array([[float(point[e]) for e in row] for row in self.matrix.tolist()])


class VectorVar(MatrixVar):
    """A column vector of real symbols (entries ``x[i]``), every entry in [lo, hi]; :attr:`vector` is the
    SymPy column.  Same draws, shrinking and boundary as :class:`MatrixVar`."""

    def __init__(self, symbols_or_name, dim: int | None = None, lo: float = -3.0, hi: float = 3.0):
        if isinstance(symbols_or_name, str):
            if dim is None or int(dim) < 1:
                raise DomainError(f"VectorVar {symbols_or_name!r} needs a dimension")
            name = symbols_or_name
            column = sp.ImmutableMatrix(int(dim), 1, lambda i, j: sp.Symbol(f"{name}[{i}]", real=True))
        elif isinstance(symbols_or_name, (list, tuple, sp.MatrixBase)):
            column = sp.ImmutableMatrix(list(symbols_or_name))
            if dim is not None and int(dim) != column.shape[0]:
                raise DomainError(f"VectorVar dim {dim} does not match its {column.shape[0]} symbols")
        else:
            raise DomainError("VectorVar takes a sequence of symbols, or a name and a dimension")
        super().__init__(column, None, lo, hi)

    @property
    def vector(self) -> sp.ImmutableMatrix:
        return self.matrix


#: an integer declaration of the assumption language: ``d: integer`` (``natural``: ≥ 0; ``positive integer``: ≥ 1)
INTEGER_KIND = re.compile(r"\s*(\w+)\s*:\s*(integer|int|natural|nonnegative integer|positive integer)\s*")


def _integer_kinds(texts: list, named: Mapping) -> tuple[list, set]:
    """The assumptions without their integer declarations of ``named`` symbols (a natural's ``>= 0`` kept as a
    bound), and the names declared integers: :meth:`Domain.assuming` reads their bounds and relations as reals',
    then makes each an integer variable."""
    rest, integers = [], set()
    for t in texts:
        m = INTEGER_KIND.fullmatch(str(t))
        if m and m.group(1) in named:
            integers.add(m.group(1))
            low = {"natural": 0, "nonnegative integer": 0, "positive integer": 1}.get(m.group(2))
            if low is not None:
                rest.append(f"{m.group(1)} >= {low}")
        else:
            rest.append(t)
    return rest, integers


def _split_integers(group, mine: Mapping, integers: set) -> tuple[list, list]:
    """A group of the assumptions read as reals, split into its real symbols (a RealGroup, if any) and its integer
    ones: an :class:`IntegerRange` for an integer with constant bounds, an
    :class:`~theoryverify.dependent.IntegerWithin` for one bounded by other names (``d <= n <= 10000``).  A real
    bounded by an integer is refused (one line)."""
    from .check.variables import Member, RealGroup
    from .dependent import IntegerWithin

    syms = [mine[s] for s in group.symbols]
    is_int = [str(s) in integers for s in group.symbols]
    lows: dict[int, list] = {i: [] for i, b in enumerate(is_int) if b}
    highs: dict[int, list] = {i: [] for i, b in enumerate(is_int) if b}
    for i, m in enumerate(group.members):
        if is_int[i]:
            if m.lo is not None:
                lows[i].append(sp.ceiling(m.lo) if m.lo_closed else sp.floor(m.lo) + 1)
            if m.hi is not None:
                highs[i].append(sp.floor(m.hi) if m.hi_closed else sp.ceiling(m.hi) - 1)

    def refuse(real: int, integer: int):
        raise DomainError(f"Domain.assuming: the real {syms[real]} is bounded by the integer {syms[integer]}: bound "
                          f"the integer by the real instead, or give {syms[real]} a range of its own")
    relations = []
    pos = {i: k for k, i in enumerate(group.order)}  # the group's drawing order: a relation bounds the later name
    for a, b, strict in group.relations:  # members[a] < members[b] (strict) or <=
        if not (is_int[a] or is_int[b]):
            relations.append((a, b, strict))
        elif pos[a] < pos[b]:  # b drawn after a: a lower bound on b
            if not is_int[b]:
                refuse(b, a)
            lows[b].append(sp.floor(syms[a]) + 1 if strict else syms[a])
        else:  # a drawn after b: an upper bound on a
            if not is_int[a]:
                refuse(a, b)
            highs[a].append(sp.ceiling(syms[b]) - 1 if strict else syms[b])
    bounds = []
    index = {s: i for i, s in enumerate(group.symbols)}
    for i, e, closed, upper in group.bounds:
        deps = [index[x] for x in e.free_symbols if x in index]
        if is_int[i]:
            e = e.xreplace(mine)
            (highs if upper else lows)[i].append(e if closed else (sp.ceiling(e) - 1 if upper else sp.floor(e) + 1))
        elif any(is_int[d] for d in deps):
            refuse(i, next(d for d in deps if is_int[d]))
        else:
            bounds.append((i, e, closed, upper))
    keep = [i for i, b in enumerate(is_int) if not b]
    new = {old: k for k, old in enumerate(keep)}
    reals = [RealGroup([Member(syms[i], group.members[i].lo, group.members[i].hi, group.members[i].lo_closed,
                               group.members[i].hi_closed) for i in keep],
                       [(new[a], new[b], st) for a, b, st in relations],
                       [(new[i], e.xreplace(mine), c, u) for i, e, c, u in bounds])] \
        if keep else []
    ints = []
    for i in lows:
        if not lows[i] or not highs[i]:
            side = "lower" if not lows[i] else "upper"
            raise DomainError(f"Domain.assuming: the integer {syms[i]} has no {side} bound: give it one "
                              f"(\"1 <= {syms[i]} <= 50\", or relative to another name)")
        lo, hi = (sp.Max(*lows[i]) if len(lows[i]) > 1 else lows[i][0]), \
            (sp.Min(*highs[i]) if len(highs[i]) > 1 else highs[i][0])
        if lo.is_number and hi.is_number:
            ints.append(IntegerRange(syms[i], int(lo), int(hi)))
        else:
            ints.append(IntegerWithin(syms[i], lo, hi))
    return reals, ints


def _drawing_order(dependents: list) -> list:
    """Integer variables bounded by other names, each after the integers its bounds name."""
    out, placed = [], set()
    while dependents:
        ready = [v for v in dependents if not (v.depends & {w.symbol for w in dependents if w is not v})]
        if not ready:
            raise DomainError(f"Domain.assuming: the integers {', '.join(str(v.symbol) for v in dependents)} bound "
                              "each other in a cycle")
        out += ready
        placed |= {v.symbol for v in ready}
        dependents = [v for v in dependents if v not in ready]
    return out


class Domain:
    """A product of variables; points are dicts ``{symbol: value}``."""

    def __init__(self, variables: Iterable[Variable], derived: Mapping[str, Any] | None = None):
        self.variables = tuple(variables)
        syms = [s for v in self.variables for s in v.symbols]
        if len(set(syms)) != len(syms):
            raise ValueError("a symbol appears in two variables of one domain")
        self.symbols: tuple[sp.Symbol, ...] = tuple(syms)
        from .dependent import Within
        #: variables drawn after the others, inside ends that depend on them (tv.Within: 0 < η ≤ 1/λ_max(XᵀX/n))
        self.dependents: tuple = tuple(v for v in self.variables if isinstance(v, Within))
        before = {s for v in self.variables if not isinstance(v, Within) for s in v.symbols}
        for v in self.dependents:
            stray = sorted(map(str, v.depends - before))
            if stray:
                raise DomainError(f"Domain: {v.symbol}'s range names {', '.join(stray[:3])}, which "
                                  f"{'is' if len(stray) == 1 else 'are'} not among the domain's variables before it "
                                  f"(a parameter of the claim's declared ranges: give the variables as a list, "
                                  f"domain=[..., tv.Within(...)], to an _over check, which puts in each setting's "
                                  f"value)")
            before |= set(v.symbols)
        #: quantities the statement ranges over that are functions of the symbols (κ = L/μ): the checks record
        #: their values at the points they evaluate, so the quantifier rule can read them (``over()`` gives ranges)
        self.derived: dict[str, sp.Expr] = {str(k): sp.sympify(e) for k, e in dict(derived or {}).items()}
        stray = [k for k, e in self.derived.items() if not e.free_symbols <= set(syms)]
        if stray:
            raise DomainError(f"Domain: derived {stray[0]} uses symbols the domain does not declare")

    def over(self, *names: str) -> tuple:
        """The declared ranges (:class:`~theoryverify.conditions.Over`) of this domain's real symbols and derived
        quantities — what a claim's ``over=`` takes, so each range is typed once: the bounds the assumptions imply
        (``1e-3 <= mu <= 10``, ``mu <= L <= 10000*mu`` gives L ∈ [0.001, 1e5]; κ = L/μ ∈ [1, 1e4]), log scale where
        the range is positive and spans >= 100×.  A derived quantity's range is its extremes over the domain's
        boundary points (every end and tie of the relations: exact for a quantity monotone in each symbol, as
        L/μ is).  ``names`` picks some, in that order (default: all).

        >>> import sympy as sp, theoryverify as tv
        >>> mu, L = sp.symbols("mu L", positive=True)
        >>> d = tv.Domain.assuming([mu, L], ["1e-3 <= mu <= 10", "mu <= L <= 10000*mu"], derived={"kappa": L / mu})
        >>> [(o.name, o.lo, o.hi, o.scale) for o in d.over()]
        [('L', 0.001, 100000.0, 'log'), ('mu', 0.001, 10.0, 'log'), ('kappa', 1.0, 10000.0, 'log')]
        """
        from .conditions import Over

        from .dependent import IntegerWithin
        ranges = self._implied_ranges()
        integers = {str(v.symbol) for v in self.variables if isinstance(v, (IntegerRange, IntegerWithin))}
        points = self.boundary_points()  # ends and ties of every relation: a monotone quantity's extremes
        for name, e in self.derived.items():
            from .numeric import compile_float
            f = compile_float(e, self.symbols)
            vals = [x for x in (f(p) for p in points) if math.isfinite(x)]
            if vals:
                ranges[name] = (min(vals), max(vals))
        out = []
        for key, (lo, hi) in ranges.items():
            name = str(key)
            if names and name not in names or not (math.isfinite(lo) and lo < hi):
                continue
            out.append(Over(name, lo, hi, scale="log" if lo > 0 and hi >= 100 * lo else "linear",
                            integer=name in integers))
        if names:
            missing = [n for n in names if n not in {o.name for o in out}]
            if missing:
                raise DomainError(f"Domain.over: no finite range for {', '.join(missing)} (known: "
                                  f"{', '.join(str(k) for k in ranges)})")
            out.sort(key=lambda o: names.index(o.name))
        return tuple(out)

    def _implied_ranges(self) -> dict:
        """symbol → (lo, hi) floats its bounds and relations imply (interval arithmetic, in drawing order)."""
        from .check.variables import RealGroup

        out: dict = {}
        for v in self.variables:
            if isinstance(v, RealGroup):
                iv = {}
                for i in v.order:
                    lo = -math.inf if v.lo[i][0] is None else float(v.lo[i][0])
                    hi = math.inf if v.hi[i][0] is None else float(v.hi[i][0])
                    for a, b, _ in v.relations:
                        if b == i and a in iv:
                            lo = max(lo, iv[a][0])
                        if a == i and b in iv:
                            hi = min(hi, iv[b][1])
                    for n, (j, e, _, upper) in enumerate(v.bounds):
                        if j != i:
                            continue
                        val = e.subs({v.symbols[d]: sp.AccumBounds(*iv[d]) for d in v._bound_deps[n]})
                        lo_b, hi_b = (float(val.min), float(val.max)) if isinstance(val, sp.AccumBounds) else \
                            (float(val), float(val))
                        hi, lo = (min(hi, hi_b), lo) if upper else (hi, max(lo, lo_b))
                    iv[i] = (lo, hi)
                for _ in range(len(v.members)):  # a relation to a symbol drawn later (lam <= L, L drawn after lam)
                    for a, b, _strict in v.relations:
                        iv[a] = (iv[a][0], min(iv[a][1], iv[b][1]))
                        iv[b] = (max(iv[b][0], iv[a][0]), iv[b][1])
                for i in range(len(v.members)):
                    out[v.symbols[i]] = iv[i]
            elif isinstance(v, (Interval, IntegerRange)):
                out[v.symbol] = (float(v.lo), float(v.hi))
        from .dependent import Within
        for v in self.dependents:  # an integer n ∈ {d, …, 4d}: its ends over the ranges of what they name
            known = {k: sp.AccumBounds(*r) for k, r in out.items() if all(map(math.isfinite, r)) and r[0] < r[1]}
            known.update({k: r[0] for k, r in out.items() if r[0] == r[1]})
            ends = []
            for e, pick in ((v.lo, "min"), (v.hi, "max")):
                try:
                    val = sp.sympify(e).xreplace(known)
                    val = getattr(val, pick) if isinstance(val, sp.AccumBounds) else val
                    ends.append(float(val))
                except Exception:  # noqa: BLE001 - an end it cannot bound (λ_max of a matrix): unbounded here
                    ends.append(-math.inf if pick == "min" else math.inf)
            if isinstance(v, Within):
                out[v.symbol] = tuple(ends)
        return out

    def __repr__(self) -> str:
        return f"Domain({', '.join(type(v).__name__ + str(v.symbols) for v in self.variables)})"

    @classmethod
    def assuming(cls, symbols, assumptions: Iterable[str], variables: Iterable[Variable] = (),
                 derived: Mapping[str, Any] | None = None) -> "Domain":
        """A domain of real symbols given by bounds and relations between them, in the step checker's assumption
        language (``python -m theoryverify.check --assume``): ``"0.01 <= L <= 100"``, ``"mu <= lam"``,
        ``"0 < eta <= 1/L"``.  The engine draws each symbol after those its bounds depend on, inside them (a
        reparametrisation it owns), so every point satisfies every relation and a counterexample is in the paper's
        own symbols.  A relation between two symbols bounds the one without a finite range of its own, however it is
        spelled (``L <= 1/eta`` with ``0.01 <= L <= 100``, ``eta > 0``: eta is drawn after L, in (0, 1/L]).
        ``symbols``: the paper's symbols (a list, named in the assumptions by their names, or a dict
        name → symbol, e.g. ``{"lam": lam}`` for a symbol named ``lambda``); ``variables``: other variables of the
        domain (matrices...).  A symbol declared ``"d: integer"`` (``natural``: ≥ 0, ``positive integer``: ≥ 1) is
        an integer: with constant bounds a :class:`IntegerRange`, bounded by other names (``"d <= n <= 10000"``) an
        integer drawn after them inside that range (:class:`~theoryverify.dependent.IntegerWithin`); ``over()``
        gives both as integer ranges and a counterexample prints them as integers.  A real bounded by an integer is
        refused.  A bad assumption is a one-line :class:`DomainError`.

        >>> import sympy as sp, theoryverify as tv
        >>> L, eta = sp.symbols("L eta", positive=True)
        >>> d = tv.Domain.assuming([L, eta], ["0.01 <= L <= 100", "0 < eta <= 1/L"])
        >>> tv.check_inequality(eta * L, "<=", 1, d, seed=0).status.value in ("proved", "holds")
        True
        >>> v = tv.check_inequality(eta * L, "<=", sp.Rational(1, 2), d, seed=0)
        >>> v.status.value, sorted(k for k in v.counterexample if k in ("L", "eta"))
        ('refuted', ['L', 'eta'])
        >>> tv.Domain.assuming([L], ["L <= eta"])
        Traceback (most recent call last):
        ...
        theoryverify.domains.DomainError: Domain.assuming: the assumptions name eta, which is not among the symbols (L)
        """
        from .check.assume import free_with_assumptions
        from .check.parser import BadInput
        from .check.variables import Member, RealGroup

        named = {str(k): v for k, v in symbols.items()} if isinstance(symbols, Mapping) else \
            {str(s): s for s in symbols}
        texts = [assumptions] if isinstance(assumptions, str) else list(assumptions)
        texts, integers = _integer_kinds(texts, named)
        try:
            ctx = free_with_assumptions(texts)
        except (BadInput, DomainError) as exc:
            raise DomainError(f"Domain.assuming: {' '.join(str(exc).split())}") from None
        out, counts = [], []
        bare = sorted(set(integers) - {str(s) for g in ctx.variables for s in g.symbols})
        if bare:
            raise DomainError(f"Domain.assuming: the integer {', '.join(bare)} has no range: bound it "
                              f"(\"1 <= {bare[0]} <= 50\", or relative to another name: \"d <= {bare[0]} <= 10000\")")
        for group in ctx.variables:
            if type(group) is not RealGroup:
                raise DomainError(f"Domain.assuming declares real symbols only; give {', '.join(map(str, group.symbols))}"
                                  f" as variables= (tv.MatrixVar, tv.IntegerRange...)")
            unknown = [str(s) for s in group.symbols if str(s) not in named]
            if unknown:
                raise DomainError(f"Domain.assuming: the assumptions name {', '.join(unknown)}, which "
                                  f"{'is' if len(unknown) == 1 else 'are'} not among the symbols ({', '.join(named)})")
            if not group.contains_values(group.center()):  # no point found inside: never a vacuous pass
                raise DomainError(f"Domain.assuming: the assumptions on {', '.join(map(str, group.symbols))} leave no "
                                  f"point the engine can draw (they may contradict each other: {group.describe()})")
            mine = {s: named[str(s)] for s in group.symbols}
            if any(str(sym) in integers for sym in group.symbols):
                reals, ints = _split_integers(group, mine, integers)
                out += reals
                counts += ints
                continue
            out.append(RealGroup([Member(mine[m.symbol], m.lo, m.hi, m.lo_closed, m.hi_closed) for m in group.members],
                                 group.relations, [(i, e.xreplace(mine), c, u) for i, e, c, u in group.bounds]))
        fixed = [v for v in counts if isinstance(v, IntegerRange)]
        domain = cls([*fixed, *out, *variables, *_drawing_order([v for v in counts if v not in fixed])],
                     derived=derived)
        if len(fixed) < len(counts):  # each integer bounded by other names knows its least value (sign analysis)
            ranges = domain._implied_ranges()
            for v in counts:
                if v not in fixed:
                    v.implied_lo = ranges.get(v.symbol, (-math.inf,))[0]
        return domain

    def covers(self, expr: sp.Expr) -> set[sp.Symbol]:
        """Free symbols of ``expr`` that this domain does not declare."""
        return set(expr.free_symbols) - set(self.symbols)

    def _placed(self, point: dict, exact: bool) -> dict:
        """``point`` with each :class:`~theoryverify.dependent.Within` variable (drawn as a fraction of its
        interval) placed inside its interval at the other variables' values."""
        for v in self.dependents:
            point[v.symbol] = v.place(point[v.symbol], point, exact)
        return point

    def contains_dependents(self, point: Mapping) -> bool:
        """Whether the exact ``point`` satisfies every :class:`~theoryverify.dependent.Within` hypothesis (True
        when there is none): the shrinker's test after it moves a coordinate such as an entry of X."""
        return all(v.contains(point) for v in self.dependents)

    def contains(self, point: Mapping) -> bool:
        """Whether ``point`` satisfies every hypothesis a variable of the domain can test (the step checker's
        bounds and relations, finite sets, integers; a :class:`~theoryverify.dependent.Within` at an exact point).
        A refutation stands only at a point inside; variables that draw only inside their ranges (an Interval, a
        simplex) have no test and pass."""
        exact = all(isinstance(point.get(s), (sp.Rational, int, Fraction)) for s in self.symbols)
        for v in self.variables:
            test = getattr(v, "contains", None)
            if test is None or (v in self.dependents and not exact):
                continue  # (a Within's exact test at a float point could reject its own rounded draw)
            try:
                if not test(point):
                    return False
            except (KeyError, TypeError, ValueError):
                return False
        return True

    def floats(self) -> st.SearchStrategy[dict[sp.Symbol, float]]:
        parts = [v.floats() for v in self.variables]
        return st.tuples(*parts).map(lambda vals: self._placed(
            {s: x for v, xs in zip(self.variables, vals) for s, x in zip(v.symbols, xs)}, False))

    def rationals(self, rnd: random.Random) -> dict[sp.Symbol, sp.Rational]:
        return self._placed({s: x for v in self.variables for s, x in zip(v.symbols, v.rationals(rnd))}, True)

    def named(self, point: Mapping[sp.Symbol, float]) -> dict[str, object]:
        """A point as the paper names it: each matrix or vector variable (entries ``X[i,j]``, ``w[i]``) as one
        float array under its name (a vector 1-d), every other symbol as a float under its name — what
        ``tv.check_agreement`` hands its two functions when given a Domain, and what ``tv.evaluate`` takes.

        >>> import sympy as sp
        >>> d = Domain([VectorVar("w", 2), Interval(sp.Symbol("eta"), 0, 1)])
        >>> d.named({d.symbols[0]: 1.0, d.symbols[1]: -2.0, d.symbols[2]: 0.5})
        {'w': array([ 1., -2.]), 'eta': 0.5}
        """
        out: dict[str, object] = {}
        for v in self.variables:
            name = _array_name(v)
            if name is None:
                out.update({str(s): float(point[s]) for s in v.symbols})
            else:
                a = v.value(point)
                out[name] = a[:, 0] if isinstance(v, VectorVar) else a
        return out

    @property
    def free_dim(self) -> int:
        return sum(v.free_dim for v in self.variables)

    def from_free(self, z: np.ndarray) -> dict[sp.Symbol, float]:
        out, i = {}, 0
        for v in self.variables:
            xs = v.from_free(np.asarray(z[i:i + v.free_dim], dtype=float))
            out.update(zip(v.symbols, xs))
            i += v.free_dim
        return self._placed(out, False)

    def to_free(self, point: Mapping[sp.Symbol, float]) -> np.ndarray:
        parts = [np.array([logit(min(max(v.fraction(point[v.symbol], point), 1e-12), 1 - 1e-12))])
                 if v in self.dependents else v.to_free([point[s] for s in v.symbols]) for v in self.variables]
        return np.concatenate(parts) if parts else np.zeros(0)

    def describe(self) -> str:
        """The domain in words, for verdicts ("T ∈ [0.01, 10] (log-uniform); (v1, …) on the simplex")."""
        return "; ".join(_describe(v) for v in self.variables)

    def boundary_points(self, limit: int = 64) -> list[dict[sp.Symbol, float]]:
        """Points on the boundary of the domain's closed parts: every corner of the product of the variables'
        boundaries (deterministically thinned to ``limit`` when there are more), then each variable's boundary
        with the other variables at their centres.  Variables without a boundary stay at their centre."""
        bounds = [list(_boundary(v)) or [tuple(v.center())] for v in self.variables]
        centers = [tuple(v.center()) for v in self.variables]
        if not any(_boundary(v) for v in self.variables):
            return []
        total = int(np.prod([len(b) for b in bounds], dtype=float)) if bounds else 0
        corners: list[tuple] = []
        if total <= limit:
            corners = list(itertools.product(*bounds))
        else:  # first and last combinations, then a fixed stride through the rest
            step = total / limit
            for n in range(limit):
                idx, rest = [], int(n * step)
                for b in reversed(bounds):
                    idx.append(b[rest % len(b)])
                    rest //= len(b)
                corners.append(tuple(reversed(idx)))
        faces = [tuple(centers[:i]) + (b,) + tuple(centers[i + 1:])
                 for i, v in enumerate(self.variables) for b in _boundary(v)]
        out, seen = [], set()
        for combo in corners + faces:
            point = self._placed({s: x for v, xs in zip(self.variables, combo) for s, x in zip(v.symbols, xs)},
                                 False)
            key = tuple(point[s] for s in self.symbols)
            if any(hasattr(v, "contains_values") and not v.contains_values(tuple(point[s] for s in v.symbols))
                   for v in self.variables):
                continue  # a centre outside its group (no point of it was found): no boundary point of the domain
            if key not in seen:
                seen.add(key)
                out.append(point)
        return out


def _array_name(v) -> str | None:
    """The common name of a matrix/vector variable's entries (``X`` for ``X[0,0]``…), else None."""
    if not isinstance(v, MatrixVar):
        return None
    names = {str(e).split("[")[0] if "[" in str(e) else None for e in v.matrix}
    return names.pop() if len(names) == 1 and None not in names else None


def _boundary(v) -> list[tuple[float, ...]]:
    fn = getattr(v, "boundary_values", None)
    return list(fn()) if callable(fn) else []


def _describe(v) -> str:
    fn = getattr(v, "describe", None)
    return fn() if callable(fn) else f"{type(v).__name__}{tuple(map(str, v.symbols))}"


def reals_domain(symbols: Iterable[sp.Symbol], lo: float = -3.0, hi: float = 3.0) -> Domain:
    return Domain(Interval(s, lo, hi) for s in symbols)
