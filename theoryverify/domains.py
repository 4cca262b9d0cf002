"""Domains: where a claim's free symbols live.

A :class:`Domain` is a product of variables (a real interval, a positive quantity over decades,
a point of the simplex, ...).  Each variable knows how to draw float64 values (a Hypothesis
strategy), exact rationals (for the exact tier) and how to map an unconstrained vector onto
itself (for local optimisation by scipy).  Checks draw from the claim's declared domain, never
from SymPy's fixed complex box.
"""
from __future__ import annotations

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


def _simple_rational(rnd: random.Random, lo: Fraction, hi: Fraction) -> Fraction:
    """A rational in [lo, hi] with a small denominator (simple counterexamples first)."""
    q = rnd.choice([1, 2, 3, 4, 5, 7, 8, 10, 16, 32, 100])
    a, b = int(np.ceil(lo * q)), int(np.floor(hi * q))
    return Fraction(rnd.randint(a, b), q) if a <= b else (lo + hi) / 2


@dataclass(frozen=True)
class Interval:
    """A real symbol in [lo, hi]."""
    symbol: sp.Symbol
    lo: float
    hi: float

    @property
    def symbols(self):
        return (self.symbol,)

    def floats(self):
        return strat.reals(self.lo, self.hi).map(lambda x: (x,))

    def rationals(self, rnd):
        return (sp.Rational(_simple_rational(rnd, Fraction(self.lo), Fraction(self.hi))),)

    free_dim = 1

    def from_free(self, z):
        return (float(self.lo + (self.hi - self.lo) * expit(z[0])),)

    def to_free(self, x):
        u = np.clip((x[0] - self.lo) / (self.hi - self.lo), 1e-12, 1 - 1e-12)
        return np.array([logit(u)])


@dataclass(frozen=True)
class LogUniform:
    """A positive symbol spread over the decades of [lo, hi] (temperatures, step sizes)."""
    symbol: sp.Symbol
    lo: float
    hi: float

    @property
    def symbols(self):
        return (self.symbol,)

    def floats(self):
        return strat.log_uniform(self.lo, self.hi).map(lambda x: (x,))

    def rationals(self, rnd):
        e = rnd.uniform(np.log10(self.lo), np.log10(self.hi))
        f = Fraction(10.0**e).limit_denominator(10**6)
        return (sp.Rational(min(max(f, Fraction(self.lo)), Fraction(self.hi))),)

    free_dim = 1

    def from_free(self, z):
        a, b = np.log(self.lo), np.log(self.hi)
        return (float(np.exp(a + (b - a) * expit(z[0]))),)

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


def reals_domain(symbols: Iterable[sp.Symbol], lo: float = -3.0, hi: float = 3.0) -> Domain:
    return Domain(Interval(s, lo, hi) for s in symbols)
