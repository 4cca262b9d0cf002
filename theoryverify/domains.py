"""Domains: where a claim's free symbols live.

A :class:`Domain` is a product of variables (a real interval, a positive quantity over decades,
a point of the simplex, ...).  Each variable knows how to draw float64 values (a Hypothesis
strategy), exact rationals (for the exact tier), how to map an unconstrained vector onto
itself (for local optimisation by scipy), its boundary (endpoints of a closed interval, the
vertices and edge midpoints of the simplex) and a central point.  Checks draw from the claim's
declared domain, never from SymPy's fixed complex box, and search its boundary explicitly
(:meth:`Domain.boundary_points`: the corners of the box and each variable's boundary with the
others at their centre); :meth:`Domain.describe` names the domain a verdict searched.
"""
from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterable, Mapping, Protocol, Sequence

import numpy as np
import sympy as sp
from hypothesis import strategies as st
from scipy.special import expit, logit

from . import strategies as strat


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


def _ends(lo: float, hi: float, closed: tuple[bool, bool]) -> list[tuple[float, ...]]:
    return [(float(v),) for v, c in zip((lo, hi), closed) if c]


def _bracket(lo: float, hi: float, closed: tuple[bool, bool]) -> str:
    return ("[" if closed[0] else "(") + f"{lo:g}, {hi:g}" + ("]" if closed[1] else ")")


@dataclass(frozen=True)
class Interval:
    """A real symbol in [lo, hi] (``closed``: whether each end belongs to the domain; open ends are not
    searched as boundary points)."""
    symbol: sp.Symbol
    lo: float
    hi: float
    closed: tuple[bool, bool] = (True, True)

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
                         exclude_max=not self.closed[1]).map(lambda x: (x,))

    def rationals(self, rnd):
        lo, hi = Fraction(self.lo), Fraction(self.hi)
        return (sp.Rational(_inside(_simple_rational(rnd, lo, hi), lo, hi, self.closed)),)

    free_dim = 1

    def from_free(self, z):
        return (_clip_open(float(self.lo + (self.hi - self.lo) * expit(z[0])), self.lo, self.hi, self.closed),)

    def to_free(self, x):
        u = np.clip((x[0] - self.lo) / (self.hi - self.lo), 1e-12, 1 - 1e-12)
        return np.array([logit(u)])


@dataclass(frozen=True)
class LogUniform:
    """A positive symbol spread over the decades of [lo, hi] (temperatures, step sizes)."""
    symbol: sp.Symbol
    lo: float
    hi: float
    closed: tuple[bool, bool] = (True, True)

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


class Domain:
    """A product of variables; points are dicts ``{symbol: value}``."""

    def __init__(self, variables: Iterable[Variable]):
        self.variables = tuple(variables)
        syms = [s for v in self.variables for s in v.symbols]
        if len(set(syms)) != len(syms):
            raise ValueError("a symbol appears in two variables of one domain")
        self.symbols: tuple[sp.Symbol, ...] = tuple(syms)

    def __repr__(self) -> str:
        return f"Domain({', '.join(type(v).__name__ + str(v.symbols) for v in self.variables)})"

    def covers(self, expr: sp.Expr) -> set[sp.Symbol]:
        """Free symbols of ``expr`` that this domain does not declare."""
        return set(expr.free_symbols) - set(self.symbols)

    def floats(self) -> st.SearchStrategy[dict[sp.Symbol, float]]:
        parts = [v.floats() for v in self.variables]
        return st.tuples(*parts).map(
            lambda vals: {s: x for v, xs in zip(self.variables, vals) for s, x in zip(v.symbols, xs)})

    def rationals(self, rnd: random.Random) -> dict[sp.Symbol, sp.Rational]:
        return {s: x for v in self.variables for s, x in zip(v.symbols, v.rationals(rnd))}

    @property
    def free_dim(self) -> int:
        return sum(v.free_dim for v in self.variables)

    def from_free(self, z: np.ndarray) -> dict[sp.Symbol, float]:
        out, i = {}, 0
        for v in self.variables:
            xs = v.from_free(np.asarray(z[i:i + v.free_dim], dtype=float))
            out.update(zip(v.symbols, xs))
            i += v.free_dim
        return out

    def to_free(self, point: Mapping[sp.Symbol, float]) -> np.ndarray:
        parts = [v.to_free([point[s] for s in v.symbols]) for v in self.variables]
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
            point = {s: x for v, xs in zip(self.variables, combo) for s, x in zip(v.symbols, xs)}
            key = tuple(point[s] for s in self.symbols)
            if key not in seen:
                seen.add(key)
                out.append(point)
        return out


def _boundary(v) -> list[tuple[float, ...]]:
    fn = getattr(v, "boundary_values", None)
    return list(fn()) if callable(fn) else []


def _describe(v) -> str:
    fn = getattr(v, "describe", None)
    return fn() if callable(fn) else f"{type(v).__name__}{tuple(map(str, v.symbols))}"


def reals_domain(symbols: Iterable[sp.Symbol], lo: float = -3.0, hi: float = 3.0) -> Domain:
    return Domain(Interval(s, lo, hi) for s in symbols)
