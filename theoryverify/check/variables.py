"""Domain variables of the ``free`` context, honest about where they search.

They follow the engine's variable protocol (:class:`theoryverify.domains.Variable`: float draws, exact
rational draws, unconstrained coordinates for the local optimiser, boundary points, a centre, a
description), so :func:`~theoryverify.checks.check_identity` and
:func:`~theoryverify.checks.check_inequality` search them like any other domain.

- :class:`RealGroup` — real symbols with bounds (``0 < p < 1``, ``x >= 0``, none) and order relations
  between them (``a < b``).  An unbounded side is searched over many decades: a real line from 1e-6 to
  1e6 in magnitude in both signs (so a bare ``x <= 10`` is refuted), a half line ``x > a`` at distances
  1e-6…1e6 from ``a``; closed ends are searched exactly (``x >= 0`` tries 0).  Members are drawn one after
  the other in an order compatible with the relations, each inside the interval its bounds and the
  members already drawn leave, so every draw satisfies the relations by construction.
- :class:`FiniteSet` — ``y in {-1, 1}``; :class:`IntegerVar` — ``n: integer`` with optional bounds.  The
  checker enumerates both (:mod:`.discrete`); they implement the protocol too so that any engine check
  handed one still samples it correctly.

Where an engine check draws floats, these draws stay within magnitudes 1e3 (float64 cancellation at 1e6
could fake a disagreement); the extreme decades are the boundary points, which the engine confirms at
50 digits before it reports anything.
"""
from __future__ import annotations

import math
import random
import weakref
from dataclasses import dataclass
from fractions import Fraction
from typing import Mapping, Sequence

import numpy as np
import sympy as sp

from ..domains import DomainError

ZCLIP_HALF = 6.0  # half line: distances 10**z, |z| ≤ 6
ZCLIP_LINE = 7.0  # real line: |x| = 10**(|z| - 1) beyond 1, so up to 1e6
SIMPLE = [Fraction(v) for v in ("0", "1", "-1", "2", "-2", "1/2", "3", "-1/2", "10", "-3", "1/10", "-10", "100")]
SIMPLE_FIRST = 6  # exact points per random source that use simple values

_COUNTS: "weakref.WeakKeyDictionary[random.Random, dict]" = weakref.WeakKeyDictionary()


def _expit(z: float) -> float:
    if z >= 0:
        return 1.0 / (1.0 + math.exp(-z)) if z != math.inf else 1.0
    if z == -math.inf:
        return 0.0
    e = math.exp(z)
    return e / (1.0 + e)


def _logit(u: float) -> float:
    u = min(max(u, 1e-15), 1 - 1e-15)
    return math.log(u / (1 - u))


@dataclass(frozen=True)
class Member:
    """One real symbol of a :class:`RealGroup` with its own bounds (None: unbounded on that side)."""
    symbol: sp.Symbol
    lo: Fraction | None = None
    hi: Fraction | None = None
    lo_closed: bool = False
    hi_closed: bool = False


def number(v) -> Fraction | float:
    """An exact value as a Fraction, a float as itself (for comparisons with exact bounds)."""
    if isinstance(v, float):
        return v
    if isinstance(v, sp.Rational):
        return Fraction(int(v.p), int(v.q))
    if isinstance(v, (int, Fraction)):
        return Fraction(v)
    return float(v)


def _fmt(x: Fraction | float | None) -> str:
    if x is None:
        return "∞"
    if isinstance(x, Fraction) and x.denominator != 1 and x.denominator < 1000:
        return f"{x.numerator}/{x.denominator}"
    return f"{float(x):g}"


def sign_flags(L, Lc: bool, H, Hc: bool, nonpositive: bool = True) -> dict[str, bool]:
    """SymPy's assumption flags for a real name between the ends ``L`` and ``H`` (None: unbounded; ``Lc``, ``Hc``:
    closed): positive, nonnegative, negative, nonpositive (where ``nonpositive``) or only real."""
    if L is not None and (L > 0 or (L == 0 and not Lc)):
        return {"positive": True}
    if L is not None and L == 0:
        return {"nonnegative": True}
    if H is not None and (H < 0 or (H == 0 and not Hc)):
        return {"negative": True}
    if nonpositive and H is not None and H == 0:
        return {"nonpositive": True}
    return {"real": True}


class RealGroup:
    """Real symbols with bounds and order relations ``members[i] < members[j]`` (``strict``) or ``<=``.

    Effective bounds are propagated along the relations once (``a < b``, ``b <= 1`` gives ``a < 1``);
    infeasible bounds are a :class:`~theoryverify.domains.DomainError`."""

    def __init__(self, members: Sequence[Member], relations: Sequence[tuple[int, int, bool]] = (),
                 bounds: Sequence[tuple[int, sp.Expr, bool, bool]] = ()):
        self.members = tuple(members)
        self.relations = tuple(relations)
        self.symbols = tuple(m.symbol for m in self.members)
        # expression bounds (i, expr, closed, upper): members[i] <= expr (upper) or >= expr, expr of other members
        self.bounds = tuple((i, sp.sympify(e), bool(c), bool(u)) for i, e, c, u in bounds)
        index = {sym: n for n, sym in enumerate(self.symbols)}
        self._bound_deps = []
        for i, e, _, _ in self.bounds:
            deps = sorted(index[x] for x in e.free_symbols if x in index)
            if i in deps or len(deps) != len(e.free_symbols):
                raise DomainError(f"a bound on {self.symbols[i]} must be an expression of the other real variables")
            self._bound_deps.append(deps)
        self._bound_fns = [sp.lambdify([self.symbols[d] for d in deps], e, "math")
                           for (_, e, _, _), deps in zip(self.bounds, self._bound_deps)]
        k = len(self.members)
        edges = [(d, i) for (i, _, _, _), deps in zip(self.bounds, self._bound_deps) for d in deps]
        self.order = _topological(k, self.relations, edges)
        if len(self.order) != k:
            raise DomainError(f"these relations form a cycle (each needs another drawn first): "
                              f"{_cycle_text(self, set(self.order))}; drop one, or write it with a name it does not "
                              f"depend on")
        lo = [(m.lo, m.lo_closed) for m in self.members]
        hi = [(m.hi, m.hi_closed) for m in self.members]
        for _ in range(k + 1):  # propagate bounds along the relations
            changed = False
            for i, j, strict in self.relations:
                if hi[j][0] is not None and (hi[i][0] is None or hi[j][0] < hi[i][0]
                                             or (hi[j][0] == hi[i][0] and hi[i][1] and (strict or not hi[j][1]))):
                    new = (hi[j][0], hi[j][1] and not strict)
                    if new != hi[i]:
                        hi[i], changed = new, True
                if lo[i][0] is not None and (lo[j][0] is None or lo[i][0] > lo[j][0]
                                             or (lo[i][0] == lo[j][0] and lo[j][1] and (strict or not lo[i][1]))):
                    new = (lo[i][0], lo[i][1] and not strict)
                    if new != lo[j]:
                        lo[j], changed = new, True
            if not changed:
                break
        for m, (a, ac), (b, bc) in zip(self.members, lo, hi):
            if a is not None and b is not None and (a > b or (a == b and not (ac and bc))):
                raise DomainError(f"the assumptions leave no values for {m.symbol}")
        self.lo, self.hi = lo, hi

    # --- sign analysis -------------------------------------------------------------------------
    def parametrisations(self, suffix: str = "_d") -> list[dict[sp.Symbol, sp.Expr]]:
        """Each member written through fresh signed symbols so that every point of the group is reached
        (``lam_2 < lam_1``, ``0 < lam_2`` → ``lam_2 = t``, ``lam_1 = t + s`` with t, s > 0): a member is its anchor
        plus (or minus) a positive slack, or nonnegative for ``<=``: another member it is ordered against, an
        expression bound, or a numeric bound — the other constraints are dropped, so the image covers the group's
        region (a superset), and a sign SymPy reads off the rewritten expression holds on the whole group.  Three
        rewritings (duplicates dropped): anchors below preferred, anchors above preferred, and relations on either
        side before numeric bounds (``eta <= 1/L`` with ``L >= 1/100`` needs ``L = 1/100 + t``, ``eta = 1/L − s``);
        a fourth keeps both ends of a member between an open numeric lower end and an expression bound (``0 < eta <=
        1/h``: ``eta = (1/h)/(1 + s)``, so ``2 − eta·h ≥ 1`` is read off)."""
        k = len(self.members)
        lower_rel = {j: [] for j in range(k)}  # j -> [(i, strict)]: x_i < x_j
        upper_rel = {i: [] for i in range(k)}  # i -> [(j, strict)]
        for i, j, strict in self.relations:
            lower_rel[j].append((i, strict))
            upper_rel[i].append((j, strict))
        out = []
        for mode in ("below", "above", "relations", "between"):
            below_first = mode != "above"
            done: dict[int, sp.Expr] = {}

            def slack(n: int, closed: bool) -> sp.Symbol:
                return sp.Symbol(f"{self.symbols[n]}{suffix}", **({"nonnegative": True} if closed else {"positive": True}))

            def resolve(n: int, visiting: frozenset) -> sp.Expr | None:
                if n in done:
                    return done[n]
                if n in visiting:
                    return None
                inner = visiting | {n}
                (lo, lo_closed) = self.lo[n]
                if mode == "between" and lo is not None and not lo_closed:
                    # a < x ≤ e (0 < eta <= 1/h): x = a + (e − a)/(1 + s), s ≥ 0, reaches every point of (a, e] —
                    # both ends at once, so 1 − eta·h ≥ 0 and eta > 0 are both read off (the other modes keep one)
                    for (i, e, closed, upper) in self.bounds:
                        if i != n or not upper:
                            continue
                        subs = {}
                        for x in e.free_symbols:
                            r = resolve(self.symbols.index(x), inner) if x in self.symbols else None
                            if r is None:
                                break
                            subs[x] = r
                        else:
                            a = sp.Rational(Fraction(lo))
                            done[n] = a + (e.xreplace(subs) - a) / (1 + slack(n, closed))
                            return done[n]
                options, numbers = [], []
                for side in ((True, False) if below_first else (False, True)):
                    sign = 1 if side else -1
                    for m, strict in (lower_rel[n] if side else upper_rel[n]):
                        options.append(("member", m, not strict, sign))
                    for (i, e, closed, upper) in self.bounds:
                        if i == n and upper != side:
                            options.append(("expr", e, closed, sign))
                    (b, bc) = self.lo[n] if side else self.hi[n]
                    if b is not None:
                        (numbers if mode == "relations" else options).append(("number", b, bc, sign))
                options += numbers  # "relations": a relation on either side before a numeric bound
                for what, anchor, closed, sign in options:
                    if what == "member":
                        base = resolve(anchor, inner)
                    elif what == "expr":
                        subs = {}
                        for x in anchor.free_symbols:
                            r = resolve(self.symbols.index(x), inner) if x in self.symbols else None
                            if r is None:
                                break
                            subs[x] = r
                        else:
                            base = anchor.xreplace(subs)
                            done[n] = base + sign * slack(n, closed)
                            return done[n]
                        continue
                    else:
                        base = sp.Rational(Fraction(anchor))  # a float bound exactly as the float it is
                    if base is not None:
                        done[n] = base + sign * slack(n, closed)
                        return done[n]
                done[n] = sp.Symbol(f"{self.symbols[n]}{suffix}", real=True)
                return done[n]

            for n in range(k):
                resolve(n, frozenset())
            sub = {self.symbols[n]: done[n] for n in range(k)}
            if sub not in out:
                out.append(sub)
        return out

    # --- identity (domains are compared and hashed by value) -----------------------------------
    def _key(self):
        return (self.members, self.relations, self.bounds)

    def __eq__(self, other):
        return isinstance(other, RealGroup) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return f"RealGroup({self.describe()})"

    # --- the sequential map ---------------------------------------------------------------------
    def _interval(self, i: int, values: dict[int, float | Fraction]) -> tuple:
        """(L, L_closed, H, H_closed) for member i given the values of the members drawn before it."""
        L, Lc = self.lo[i]
        H, Hc = self.hi[i]
        for a, b, strict in self.relations:
            if b == i and a in values:
                v = values[a]
                if L is None or v > L or (v == L and strict):
                    L, Lc = v, not strict
            if a == i and b in values:  # only when a caller draws out of order
                v = values[b]
                if H is None or v < H or (v == H and strict):
                    H, Hc = v, not strict
        for n, (j, _, closed, upper) in enumerate(self.bounds):
            if j != i or not all(d in values for d in self._bound_deps[n]):
                continue
            v = self._bound_value(n, values)
            if v is None:
                return None
            if upper and (H is None or v < H or (v == H and not closed)):
                H, Hc = v, closed
            if not upper and (L is None or v > L or (v == L and not closed)):
                L, Lc = v, closed
        return L, Lc, H, Hc

    def _bound_value(self, n: int, values) -> Fraction | float | None:
        """Expression bound n at the values drawn so far: exact (a Fraction) when they are exact and the bound
        is rational, else a float; None where it is undefined."""
        deps = self._bound_deps[n]
        args = [values[d] for d in deps]
        try:
            if all(isinstance(a, (Fraction, int)) or isinstance(a, sp.Rational) for a in args):
                e = self.bounds[n][1].xreplace({self.symbols[d]: sp.Rational(a) if not isinstance(a, Fraction)
                                                else sp.Rational(a.numerator, a.denominator)
                                                for d, a in zip(deps, args)})
                if e.is_Rational:
                    return Fraction(int(e.p), int(e.q))
                f = float(e.evalf(30))
            else:
                f = float(self._bound_fns[n](*[float(a) for a in args]))
        except (ZeroDivisionError, ValueError, OverflowError, TypeError):
            return None
        return f if math.isfinite(f) else None

    @staticmethod
    def _empty(L, Lc, H, Hc) -> bool:
        return L is not None and H is not None and (L > H or (L == H and not (Lc and Hc)))

    @staticmethod
    def _kind(L, H) -> str:
        return "finite" if L is not None and H is not None else "above" if L is not None else \
            "below" if H is not None else "line"

    def _to_value(self, z: float, L, H) -> float:
        kind = self._kind(L, H)
        if kind == "finite" and _log_spread(L, H):  # [μ, 1e4·μ]: every decade alike, not the top one mostly
            return float(L) * (float(H) / float(L)) ** _expit(z)
        if kind == "finite":
            return float(L) + (float(H) - float(L)) * _expit(z)
        if kind == "above":
            return float(L) + 10.0 ** min(z, ZCLIP_HALF) if z != -math.inf else float(L)
        if kind == "below":
            return float(H) - 10.0 ** min(z, ZCLIP_HALF) if z != -math.inf else float(H)
        z = max(min(z, ZCLIP_LINE), -ZCLIP_LINE)
        return z if abs(z) <= 1 else math.copysign(10.0 ** (abs(z) - 1), z)

    def _to_z(self, x: float, L, H) -> float:
        kind = self._kind(L, H)
        if kind == "finite" and _log_spread(L, H):
            return _logit(math.log(max(x, float(L)) / float(L)) / math.log(float(H) / float(L)))
        if kind == "finite":
            span = float(H) - float(L)
            return _logit((x - float(L)) / span) if span > 0 else 0.0
        if kind == "above":
            return math.log10(max(x - float(L), 1e-300))
        if kind == "below":
            return math.log10(max(float(H) - x, 1e-300))
        return x if abs(x) <= 1 else math.copysign(math.log10(abs(x)) + 1, x)

    def _map(self, zs: Sequence[float]) -> tuple[float, ...] | None:
        """Values from free coordinates, member by member; ``-inf``/``+inf`` mean "exactly at the lower /
        upper end" (None where that end is open or infinite)."""
        values: dict[int, float] = {}
        for i in self.order:
            got = self._interval(i, values)
            if got is None or self._empty(*got):
                return None
            L, Lc, H, Hc = got
            kind = self._kind(L, H)
            z = float(zs[i])
            if z == -math.inf:
                if kind in ("finite", "above") and Lc:
                    v = float(L)
                elif kind == "below" and Hc:
                    v = float(H)
                else:
                    return None
            elif z == math.inf:
                if kind == "finite" and Hc:
                    v = float(H)
                else:
                    return None
            else:
                v = self._to_value(z, L, H)
                if L is not None and (v < float(L) or (v == float(L) and not Lc)):
                    v = float(np.nextafter(float(L), math.inf))
                if H is not None and (v > float(H) or (v == float(H) and not Hc)):
                    v = float(np.nextafter(float(H), -math.inf))
            values[i] = v
        return tuple(values[i] for i in range(len(self.members)))

    # --- the variable protocol ------------------------------------------------------------------
    @property
    def free_dim(self) -> int:
        return len(self.members)

    def from_free(self, z):
        out = self._map([max(min(float(v), 40.0), -40.0) for v in np.asarray(z, dtype=float)])
        return out if out is not None else self._fallback()

    def _fallback(self) -> tuple[float, ...]:
        """The point a draw that found no interval returns: one inside the group when any is known (the centre may
        lie outside: eta > 2/L beside eta < 1/L leaves every L without an eta), else the centre — which a check
        must then not take for a point of the domain (:meth:`inside_point` is None: no point was found)."""
        inside = self.inside_point()
        return tuple(float(v) for v in inside) if inside is not None else self.center()

    def to_free(self, x):
        values: dict[int, float] = {}
        zs = [0.0] * len(self.members)
        for i in self.order:
            got = self._interval(i, values)
            L, H = (got[0], got[2]) if got is not None and not self._empty(*got) else (None, None)
            zs[i] = self._to_z(float(x[i]), L, H)
            values[i] = float(x[i])
        return np.array(zs)

    def _z_range(self, i: int) -> float:
        kind = self._kind(self.lo[i][0], self.hi[i][0])
        return {"finite": 8.0, "above": 3.0, "below": 3.0, "line": 4.0}[kind]

    def floats(self):
        from hypothesis import strategies as st
        parts = [st.floats(-self._z_range(i), self._z_range(i), allow_nan=False) for i in range(len(self.members))]
        return st.tuples(*parts).map(lambda zs: self._map(zs) or self._fallback())

    def rationals(self, rnd: random.Random):
        counts = _COUNTS.setdefault(rnd, {})
        k = counts.get(self, 0)
        counts[self] = k + 1
        values = self._draw_exact(rnd, k)
        if values is None:
            # no interval left after 20 draws: a point known to lie inside, else the centre (outside the group —
            # the callers that decide test membership, and a domain with no point found is decided by none)
            inside = self.inside_point()
            values = dict(enumerate(inside)) if inside is not None else \
                {i: Fraction(v).limit_denominator(10**6) for i, v in enumerate(self.center())}
        return tuple(sp.Rational(values[i].numerator, values[i].denominator) for i in range(len(self.members)))

    def _draw_exact(self, rnd: random.Random, k: int) -> dict[int, Fraction] | None:
        """One exact draw, member by member inside the interval the others leave; None when every one of up to 20
        attempts met an empty interval (expression bounds: the ends depend on the members drawn before)."""
        for attempt in range(20 if self.bounds else 1):  # expression bounds: redraw when the interval is empty
            values: dict[int, Fraction] = {}
            for pos, i in enumerate(self.order):
                got = self._interval(i, values)
                if got is None or self._empty(*got):
                    break
                L, Lc, H, Hc = got
                simple = k + pos + attempt if k < SIMPLE_FIRST else None
                values[i] = self._rational(i, L, Lc, H, Hc, rnd, simple)
            else:
                return values
        return None

    def inside_point(self) -> tuple[Fraction, ...] | None:
        """An exact point that satisfies every bound and relation of the group, or None when none was found: the
        centre, the boundary values, then exact draws.  None is no proof that the group is empty
        (:meth:`proved_empty` is), only that the search found no point in it — a check over it decides nothing."""
        cached = self.__dict__.get("_inside", False)
        if cached is not False:
            return cached
        found = None
        candidates = [self.center()] + list(self.boundary_values())
        for p in candidates:
            exact = tuple(Fraction(v) if isinstance(v, float) else number(v) for v in p)
            if all(isinstance(v, Fraction) for v in exact) and self.contains_values(exact):
                found = exact
                break
        if found is None:
            rnd = random.Random(len(self.members) * 7919 + len(self.bounds))
            for k in range(40):
                values = self._draw_exact(rnd, k)
                if values is not None:
                    exact = tuple(values[i] for i in range(len(self.members)))
                    if self.contains_values(exact):
                        found = exact
                        break
        self.__dict__["_inside"] = found
        return found

    def proved_empty(self) -> str | None:
        """Why no point satisfies the group's bounds and relations, when SymPy proves it ("eta < 1/L and eta > 2/L
        with L > 0: 1/L − 2/L < 0"), else None.  For each member, each upper end (a numeric bound, a member it lies
        below, an expression bound) against each lower end: the upper minus the lower is negative (or not positive
        where an end is open) at every point of the other members' sign ranges.  Constant bounds that leave no values
        are refused when the group is built (a DomainError); this finds what the expression bounds rule out.  Worked
        out once per group (every step over the domain asks, as :meth:`inside_point`'s search is)."""
        if "_proved_empty_why" not in self.__dict__:
            self.__dict__["_proved_empty_why"] = self._proved_empty()
        return self.__dict__["_proved_empty_why"]

    def _proved_empty(self) -> str | None:
        if not self.bounds:
            return None
        # fresh symbols signed by the group's own (propagated) bounds, never by the flags a caller gave its symbols
        fresh = {self.symbols[n]: sp.Dummy(str(self.symbols[n]), **sign_flags(L, Lc, H, Hc))
                 for n, ((L, Lc), (H, Hc)) in enumerate(zip(self.lo, self.hi))}
        names = {v: k for k, v in fresh.items()}
        for n in range(len(self.members)):
            uppers, lowers = [], []  # (expression, closed, text)
            (L, Lc), (H, Hc) = self.lo[n], self.hi[n]
            if H is not None:
                uppers.append((sp.Rational(Fraction(H)), Hc, _fmt(H)))
            if L is not None:
                lowers.append((sp.Rational(Fraction(L)), Lc, _fmt(L)))
            for a, b, strict in self.relations:
                if a == n:
                    uppers.append((fresh[self.symbols[b]], not strict, str(self.symbols[b])))
                if b == n:
                    lowers.append((fresh[self.symbols[a]], not strict, str(self.symbols[a])))
            for i, e, closed, upper in self.bounds:
                if i == n:
                    (uppers if upper else lowers).append((e.xreplace(fresh), closed, sp.sstr(e)))
            if not any(isinstance(u, sp.Expr) and u.free_symbols for u, _, _ in uppers + lowers):
                continue  # numbers and members only: the propagation at construction decided these
            for u, uc, ut in uppers:
                for lo_, lc, lt in lowers:
                    if not (u.free_symbols or lo_.free_symbols):
                        continue
                    try:
                        gap = sp.cancel(sp.together(u - lo_))
                    except Exception:  # SymPy's own failure: no proof
                        continue
                    empty = gap.is_negative is True or (gap.is_nonpositive is True and not (uc and lc))
                    if empty:
                        x = self.symbols[n]
                        signs = sorted({f"{names[s]} {'> 0' if s.is_positive else '>= 0' if s.is_nonnegative else '< 0' if s.is_negative else '<= 0'}"
                                        for s in gap.free_symbols if s in names and
                                        (s.is_positive or s.is_nonnegative or s.is_negative or s.is_nonpositive)})
                        return (f"{x} {'<=' if uc else '<'} {ut} and {x} {'>=' if lc else '>'} {lt}"
                                + (f" with {', '.join(signs)}" if signs else "")
                                + f": {ut} − ({lt}) = {sp.sstr(gap.xreplace(names))} is "
                                + ("negative" if gap.is_negative else "not positive"))
        return None

    def _rational(self, i, L, Lc, H, Hc, rnd, simple_index) -> Fraction:
        def ok(f: Fraction) -> bool:
            return (L is None or f > L or (f == L and Lc)) and (H is None or f < H or (f == H and Hc))
        ends = [e for e, c in ((L, Lc), (H, Hc)) if e is not None and c and isinstance(e, Fraction)]
        if ends and any(j == i for j, *_ in self.bounds) and rnd.random() < 0.5:
            return rnd.choice(ends)  # an end set by an expression bound, exactly (eta = 1/L): ties are decided
        if simple_index is not None:
            cands = [f for f in SIMPLE if ok(f)]
            if L is not None:
                cands += [f for f in (Fraction(L) + 1, Fraction(L) + Fraction(1, 2)) if ok(f)]
            if H is not None:
                cands += [f for f in (Fraction(H) - 1, Fraction(H) - Fraction(1, 2)) if ok(f)]
            if L is not None and H is not None:
                cands.append((Fraction(L) + Fraction(H)) / 2)
            cands = list(dict.fromkeys(cands))
            if cands:
                return cands[simple_index % len(cands)]
        # exact points stay within magnitudes 1e4: 50-digit evaluation of an expression that is exactly 0 at
        # x = 1e6 (exp(1e6) beside exp(-1e6)) can take SymPy minutes; the decades beyond are boundary points
        span = {"finite": 6.0, "above": 4.0, "below": 4.0, "line": 5.0}[self._kind(L, H)]
        for _ in range(8):
            x = self._to_value(rnd.uniform(-span, span), L, H)
            mag = max(abs(x), 1e-12)
            f = Fraction(x).limit_denominator(max(10, int(min(1e9, 1000 / mag))))
            if ok(f):
                return f
        if L is not None and H is not None:
            return (Fraction(L) + Fraction(H)) / 2
        return Fraction(L) + 1 if L is not None else Fraction(H) - 1 if H is not None else Fraction(0)

    def _probe_z(self, i: int) -> list[float]:
        if any(j == i for j, *_ in self.bounds):  # the interval depends on the others: probe every kind's points
            return [-math.inf, -13.8, -6.0, -3.0, 0.0, 0.30103, 1.0, 3.0, 6.0, 13.8, math.inf]
        kind = self._kind(self.lo[i][0], self.hi[i][0])
        if kind == "finite":
            return [-math.inf, -13.8, 0.0, 13.8, math.inf]
        if kind in ("above", "below"):
            return [-math.inf, -6.0, -3.0, 0.0, 0.30103, 3.0, 6.0]
        return [0.0, 1e-6, -1e-6, 1.0, -1.0, 1.30103, -1.30103, 4.0, -4.0, 7.0, -7.0]

    def boundary_values(self, limit: int = 48):
        """Closed ends exactly, points near open ends, ties of non-strict relations, small integers and the
        decades of unbounded sides (1e-6…1e6)."""
        import itertools
        lists = [self._probe_z(i) for i in range(len(self.members))]
        total = int(np.prod([len(x) for x in lists]))
        if total <= 4 * limit:
            combos = list(itertools.product(*lists))
        else:  # a fixed pseudo-random selection (a stride can lock one list on one value)
            rng = random.Random(len(lists) * 1009 + total)
            combos = [tuple(x[0] for x in lists)] + \
                [tuple(x[rng.randrange(len(x))] for x in lists) for _ in range(4 * limit)]
        out = []
        for zs in combos:
            p = self._map(zs)
            if p is not None and all(math.isfinite(v) for v in p) and self.contains_values(p):
                out.append(p)
        out = list(dict.fromkeys(out))
        if len(out) > limit:
            step = len(out) / limit
            out = [out[int(n * step)] for n in range(limit)]
        return out

    def center(self):
        zs = [1.0 if self._kind(self.lo[i][0], self.hi[i][0]) == "line" else 0.0 for i in range(len(self.members))]
        return self._map(zs) or tuple(0.0 for _ in self.members)

    def contains_values(self, values: Sequence) -> bool:
        """Whether the values (floats or exact) satisfy every bound and relation."""
        for (L, Lc), (H, Hc), v in zip(self.lo, self.hi, values):
            if L is not None and (v < L or (v == L and not Lc)):
                return False
            if H is not None and (v > H or (v == H and not Hc)):
                return False
        for i, j, strict in self.relations:
            a, b = values[i], values[j]
            if a > b or (strict and a == b):
                return False
        as_dict = dict(enumerate(values))
        for n, (i, _, closed, upper) in enumerate(self.bounds):
            v = self._bound_value(n, as_dict)
            if v is None:
                return False
            x = values[i]
            if (upper and (x > v or (x == v and not closed))) or (not upper and (x < v or (x == v and not closed))):
                return False
        return True

    def contains(self, point: Mapping[sp.Symbol, object]) -> bool:
        try:
            return self.contains_values([number(point[s]) for s in self.symbols])
        except (KeyError, TypeError, ValueError):
            return False

    def describe(self) -> str:
        parts = []
        for i, m in enumerate(self.members):
            ties = [self.symbols[a] for a, b, _ in self.relations if b == i]
            ties += [self.symbols[d] for n, (j, *_rest) in enumerate(self.bounds) if j == i for d in self._bound_deps[n]]
            parts.append(_describe_member(m.symbol, self.members[i], ", ".join(dict.fromkeys(map(str, ties)))))
        rel = [f"{self.symbols[i]} {'<' if s else '≤'} {self.symbols[j]}" for i, j, s in self.relations]
        for i, e, closed, upper in self.bounds:
            deps = ", ".join(str(self.symbols[d]) for d in self._bound_deps[self.bounds.index((i, e, closed, upper))])
            sign = ("≤" if closed else "<") if upper else ("≥" if closed else ">")
            after = f"drawn after {deps}, " if deps else "drawn "  # a bound naming no other symbol (eta > 0/h)
            rel.append(f"{self.symbols[i]} {sign} {sp.sstr(e)} ({self.symbols[i]} {after}within "
                       "the bound: every point satisfies it)")
        return "; ".join(rel + parts)


#: a finite interval [a, b] with 0 < a and b/a >= LOG_SPREAD is drawn log-uniformly (each decade alike)
LOG_SPREAD = 100.0


def _log_spread(L, H) -> bool:
    return float(L) > 0 and float(H) >= LOG_SPREAD * float(L)


def _describe_member(sym, m: Member, tied: str = "") -> str:
    if tied:  # its interval comes from the other symbols (mu <= L <= 10000*mu): not "L ∈ ℝ"
        own = "" if m.lo is None and m.hi is None else f"; own bounds {_describe_member(sym, m).split(' (searched')[0]}"
        return (f"{sym} drawn after {tied}, inside the interval the relations give{own} (log-uniformly when it is "
                f"positive and spans >= {LOG_SPREAD:g}×, e.g. [μ, 1e4·μ]; uniformly otherwise; its ends and ties "
                f"are boundary points)")
    if m.lo is None and m.hi is None:
        return f"{sym} ∈ ℝ (searched: 0, small integers, magnitudes 1e-6…1e6 in both signs)"
    if m.hi is None:
        return (f"{sym} ∈ {'[' if m.lo_closed else '('}{_fmt(m.lo)}, ∞) (searched: "
                f"{'the end, ' if m.lo_closed else ''}distances 1e-6…1e6 above {_fmt(m.lo)})")
    if m.lo is None:
        return (f"{sym} ∈ (-∞, {_fmt(m.hi)}{']' if m.hi_closed else ')'} (searched: "
                f"{'the end, ' if m.hi_closed else ''}distances 1e-6…1e6 below {_fmt(m.hi)})")
    ends = "the ends" if m.lo_closed and m.hi_closed else "the closed end" if m.lo_closed or m.hi_closed else \
        "points 1e-6 inside the open ends"
    return (f"{sym} ∈ {'[' if m.lo_closed else '('}{_fmt(m.lo)}, {_fmt(m.hi)}{']' if m.hi_closed else ')'}"
            f" (searched: {ends} and the interior)")


def _topological(k: int, relations, edges=()) -> list[int]:
    succ = {i: [] for i in range(k)}
    indeg = [0] * k
    for a, b in [(r[0], r[1]) for r in relations] + list(edges):
        succ[a].append(b)
        indeg[b] += 1
    ready = [i for i in range(k) if indeg[i] == 0]
    order = []
    while ready:
        i = ready.pop(0)
        order.append(i)
        for j in succ[i]:
            indeg[j] -= 1
            if indeg[j] == 0:
                ready.append(j)
    return order  # shorter than k: the members left out lie on a cycle (or after one)


def _cycle_text(group: "RealGroup", ordered: set[int]) -> str:
    """The relations among the members that could not be ordered, named (``mu <= lam``, ``lam <= L``, ``mu >=
    L/10000``): each is drawn after what it depends on, and these depend on each other."""
    left = set(range(len(group.members))) - ordered
    names = group.symbols
    parts = [f"{names[a]} {'<' if strict else '<='} {names[b]}" for a, b, strict in group.relations
             if a in left and b in left]
    parts += [f"{names[i]} {'<' if upper and not closed else '<=' if upper else '>' if not closed else '>='} {e}"
              for i, e, closed, upper in group.bounds if i in left and e.free_symbols & {names[j] for j in left}]
    return ", ".join(parts)


def real(symbol: sp.Symbol, lo=None, hi=None, lo_closed=False, hi_closed=False) -> RealGroup:
    """One real symbol with optional bounds (None: unbounded on that side)."""
    return RealGroup([Member(symbol, None if lo is None else Fraction(lo), None if hi is None else Fraction(hi),
                             lo_closed, hi_closed)])


class FiniteSet:
    """A symbol taking each of a few exact values (``y in {-1, 1}``); enumerated by the checker."""

    def __init__(self, symbol: sp.Symbol, values: Sequence):
        if not values:
            raise DomainError(f"{symbol} in {{}}: the set is empty")
        self.symbol = symbol
        self.values = tuple(dict.fromkeys(sp.Rational(v) if not isinstance(v, sp.Basic) else v for v in values))
        self.symbols = (symbol,)

    def _key(self):
        return (self.symbol, self.values)

    def __eq__(self, other):
        return isinstance(other, FiniteSet) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def cases(self) -> list:
        return list(self.values)

    exhaustive = True

    def floats(self):
        from hypothesis import strategies as st
        return st.sampled_from([float(v) for v in self.values]).map(lambda x: (x,))

    def rationals(self, rnd):
        return (rnd.choice(self.values),)

    free_dim = 0

    def from_free(self, z):
        return (float(self.values[0]),)

    def to_free(self, x):
        return np.zeros(0)

    def boundary_values(self):
        return [(float(v),) for v in self.values]

    def center(self):
        return (float(self.values[0]),)

    def contains(self, point) -> bool:
        return point.get(self.symbol) in self.values

    def describe(self) -> str:
        return f"{self.symbol} ∈ {{{', '.join(map(str, self.values))}}}"


class IntegerVar:
    """An integer symbol ``n`` with optional bounds; the checker enumerates small values first
    (:meth:`cases`), then reasons symbolically.  ``hi`` None: unbounded above (searched up to ``lo + reach``)."""

    reach = 1000

    def __init__(self, symbol: sp.Symbol, lo: int | None = None, hi: int | None = None, inferred: str = ""):
        if lo is not None and hi is not None and lo > hi:
            raise DomainError(f"the assumptions leave no integer values for {symbol}")
        self.symbol, self.lo, self.hi, self.inferred = symbol, lo, hi, inferred
        self.symbols = (symbol,)

    def _key(self):
        return (self.symbol, self.lo, self.hi)

    def __eq__(self, other):
        return isinstance(other, IntegerVar) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    @property
    def exhaustive(self) -> bool:
        return self.lo is not None and self.hi is not None and self.hi - self.lo < 64

    def cases(self, small: int = 12, spread: int = 6, seed: int = 0) -> list[int]:
        """Small values first (every value of a short range), then a few larger ones spread over decades."""
        if self.exhaustive:
            return list(range(self.lo, self.hi + 1))
        if self.lo is not None:
            first = list(range(self.lo, self.lo + small))
            far = [self.lo + d for d in (20, 50, 100)[:spread]]
        elif self.hi is not None:
            first = list(range(self.hi, self.hi - small, -1))
            far = [self.hi - d for d in (20, 50, 100)[:spread]]
        else:
            first = [0] + [s * k for k in range(1, small // 2 + 1) for s in (1, -1)]
            far = [s * d for d in (20, 50, 100) for s in (1, -1)][:spread]
        return [n for n in dict.fromkeys(first + far) if self.admits(n)]

    def admits(self, n) -> bool:
        return (self.lo is None or n >= self.lo) and (self.hi is None or n <= self.hi)

    def floats(self):
        from hypothesis import strategies as st
        lo = self.lo if self.lo is not None else (self.hi - 2 * self.reach if self.hi is not None else -self.reach)
        hi = self.hi if self.hi is not None else lo + 2 * self.reach
        return st.integers(lo, hi).map(lambda n: (float(n),))

    def rationals(self, rnd):
        return (sp.Integer(rnd.choice(self.cases())),)

    free_dim = 0

    def from_free(self, z):
        return (float(self.cases()[0]),)

    def to_free(self, x):
        return np.zeros(0)

    def boundary_values(self):
        return [(float(n),) for n in self.cases()[:4]]

    def center(self):
        return (float(self.cases()[0]),)

    def contains(self, point) -> bool:
        v = point.get(self.symbol)
        try:
            return sp.Integer(v) == v and self.admits(int(v))
        except (TypeError, ValueError):
            return False

    def describe(self) -> str:
        lo = "-∞" if self.lo is None else str(self.lo)
        hi = "∞" if self.hi is None else str(self.hi)
        why = f" ({self.inferred})" if self.inferred else ""
        if self.exhaustive:
            return f"{self.symbol} ∈ {{{self.lo}, …, {self.hi}}} (integers){why}"
        return f"{self.symbol} integer in [{lo}, {hi}]{why}"


ENTRY_SEARCH = "0, small integers, magnitudes 1e-6…1e6 in both signs"


class EntryGroup(RealGroup):
    """The real entries of a declared matrix or vector (``W: matrix(2, 2)``, ``v: vector(3)``), each searched
    like an unbounded real scalar: 0, small integers and magnitudes 1e-6…1e6 in both signs (so ``norm(v) <= 6``
    is refuted), described as one matrix rather than entry by entry."""

    def __init__(self, name: str, kind: str, shape: tuple[int, ...], symbols: Sequence[sp.Symbol]):
        super().__init__([Member(s) for s in symbols])
        self.name, self.kind, self.shape = name, kind, tuple(shape)

    def _key(self):
        return (self.name, self.kind, self.shape, self.members)

    def __eq__(self, other):
        return isinstance(other, EntryGroup) and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def describe(self) -> str:
        what = {"vector": f"{self.shape[0]}-vector", "symmetric": f"symmetric {self.shape[0]}×{self.shape[0]} matrix"}\
            .get(self.kind, f"{self.shape[0]}×{self.shape[-1]} matrix")
        return f"{self.name} ({what}), every entry ∈ ℝ (searched: {ENTRY_SEARCH})"
