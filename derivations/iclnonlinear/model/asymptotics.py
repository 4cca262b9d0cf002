"""Exponent bookkeeping for the paper's asymptotic statements (spec §2 (d)–(f)).

An asymptotic term "Θ(K^a δ^b ε^c …·log(…))" is an :class:`Order`: a symbol (``"Theta"``, ``"O"`` or
``"Omega"``) and a positive SymPy magnitude.  Products follow the usual rules (Θ·Θ = Θ, O·Θ = O, Ω·Θ = Ω;
O·Ω is undetermined).  Two orders are compared by *explicit limits* of the ratio of their magnitudes, one
parameter at a time (K → ∞, δ → 0, ε → 0, …; the others fixed at a generic sample point) and along named
coupled paths (e.g. K = 2/ε, or the sharp-regime boundary L = c/(Δδ), δ → 0):

* every limit finite and positive → same order; ratio → 0 → the derived term is smaller; → ∞ → larger;
* "derived ⇒ claimed" holds iff, in every limit, the symbols allow it (same order: Θ ⇒ anything, O ⇒ O,
  Ω ⇒ Ω; smaller: Θ/O ⇒ O; larger: Θ/Ω ⇒ Ω).

Each limit is computed exactly from the leading term coef·x^α·|log x|^β of the ratio (:func:`leading`: products,
sums, constant powers and logs, structurally), with ``sympy.limit`` as the fallback for anything else.  The power
exponents α of each magnitude (log factors give 0) are reported alongside, so a mismatch names e.g. "exponent of ε:
derived 2, stated 1".
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

import sympy as sp

K, delta, eps, L, Delta, eta = sp.symbols("K delta epsilon L Delta eta", positive=True)
c = sp.Symbol("c", positive=True)  # a free positive constant of a coupled path
a = sp.Symbol("a", positive=True)  # p_k = a/K: the Θ(1) constant of p_k = Θ(1/K)
t = sp.Symbol("t", positive=True)  # the path parameter
PARAMS = (K, delta, eps, L, Delta, eta)

#: a generic admissible point (K ≥ 2, 0 < δ, ε < 1, c < a) used to read off the sign of a limit
SAMPLE = {K: 8, delta: sp.Rational(1, 10), eps: sp.Rational(1, 10), L: 1, Delta: 3, eta: 1, c: sp.Rational(1, 2), a: 1}

SYMBOLS = ("Theta", "O", "Omega")
_MUL = {("Theta", "Theta"): "Theta", ("Theta", "O"): "O", ("O", "Theta"): "O", ("O", "O"): "O",
        ("Theta", "Omega"): "Omega", ("Omega", "Theta"): "Omega", ("Omega", "Omega"): "Omega"}
#: sums of non-negative terms: Θ(a) + O(b) = O(a + b) (the lower side is lost), Θ(a) + Ω(b) = Ω(a + b)
_ADD = {("Theta", "Theta"): "Theta", ("Theta", "O"): "O", ("O", "Theta"): "O", ("O", "O"): "O",
        ("Omega", "Omega"): "Omega", ("Omega", "Theta"): "Omega", ("Theta", "Omega"): "Omega"}


@dataclass(frozen=True)
class Order:
    """``symbol(magnitude)``, magnitude a positive SymPy expression in :data:`PARAMS`."""

    symbol: str
    magnitude: sp.Expr

    def __post_init__(self) -> None:
        if self.symbol not in SYMBOLS:
            raise ValueError(f"unknown asymptotic symbol {self.symbol!r}")

    def __mul__(self, other: "Order | sp.Expr | int") -> "Order":
        if not isinstance(other, Order):
            return Order(self.symbol, self.magnitude * sp.sympify(other))
        key = (self.symbol, other.symbol)
        if key not in _MUL:
            raise ValueError(f"{self} · {other}: an O times an Ω has no order")
        return Order(_MUL[key], self.magnitude * other.magnitude)

    __rmul__ = __mul__

    def __add__(self, other: "Order") -> "Order":
        """Sum of two non-negative terms (e.g. q(T) = q(T₀) + η·rate·(T − T₀))."""
        key = (self.symbol, other.symbol)
        if key not in _ADD:
            raise ValueError(f"{self} + {other}: an O plus an Ω has no order")
        return Order(_ADD[key], self.magnitude + other.magnitude)

    def __pow__(self, n: int) -> "Order":
        return Order(self.symbol, self.magnitude ** n)

    def upper(self) -> "Order":
        """The O side (Θ and O give O; Ω has no upper side)."""
        if self.symbol == "Omega":
            raise ValueError(f"{self} has no upper bound")
        return Order("O", self.magnitude)

    def exponents(self, params: Sequence[sp.Symbol] = PARAMS) -> dict[str, sp.Expr]:
        return exponents(self.magnitude, params)

    def __str__(self) -> str:
        return f"{self.symbol}({sp.sstr(self.magnitude)})"


def THETA(x) -> Order:
    return Order("Theta", sp.sympify(x))


def O(x) -> Order:  # noqa: E743 - the paper's name
    return Order("O", sp.sympify(x))


def OMEGA(x) -> Order:
    return Order("Omega", sp.sympify(x))


#: where each parameter goes in the paper's asymptotics (K ≥ Θ(1/ε), N ≥ Θ(K³), δ, ε = o(1))
DEFAULT_DIRECTIONS = {K: sp.oo, delta: 0, eps: 0}


@dataclass(frozen=True)
class Path:
    """A coupled limit: substitute ``subs`` (expressions in :data:`t`), then t → ``point``."""

    name: str
    subs: Mapping[sp.Symbol, sp.Expr]
    point: object = 0


#: K ≥ Θ(1/ε) (Thms 1–2) at its edge
PATH_K_EPS = Path("K = 2/ε, ε → 0", {K: 2 / t, eps: t}, 0)
#: the sharp regime L = Ω(1/(Δδ)) at the threshold, δ → 0
PATH_SHARP_EDGE = Path("L = c/(Δδ) (sharp-regime threshold), δ → 0", {L: c / (Delta * t), delta: t}, 0)
#: deep in the sharp regime: L → ∞ at fixed δ, Δ
PATH_SHARP_DEEP = Path("L → ∞ (sharp regime, δ, Δ fixed)", {L: 1 / t}, 0)


#: where every parameter goes when its power exponent is read off (monomials: any direction gives the same)
EXPONENT_DIRECTIONS = {**DEFAULT_DIRECTIONS, L: sp.oo, Delta: sp.oo, eta: 0}


class Unsupported(Exception):
    """The expression is outside the monomial × log class handled structurally (fall back to sp.limit)."""


def _nonzero(expr: sp.Expr) -> bool:
    """Not identically zero: nonzero at the generic sample point (else decided by ``simplify``)."""
    v = sp.N(expr.subs(SAMPLE), 30) if expr.free_symbols else sp.N(expr, 30)
    if v.is_number and abs(complex(v)) > 1e-20:
        return True
    return sp.simplify(expr) != 0


def leading(expr: sp.Expr, x: sp.Symbol, point) -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """Leading behaviour coef·x^α·|log x|^β of a positive ``expr`` as x → point (0 or ∞), for expressions built
    from products, sums, constant powers and logs of such expressions (exact, structural)."""
    if not expr.has(x):
        return expr, sp.Integer(0), sp.Integer(0)
    if expr == x:
        return sp.Integer(1), sp.Integer(1), sp.Integer(0)
    if expr.is_Mul:
        coef, al, be = sp.Integer(1), sp.Integer(0), sp.Integer(0)
        for f in expr.args:
            c_, a_, b_ = leading(f, x, point)
            coef, al, be = coef * c_, al + a_, be + b_
        return coef, al, be
    if expr.is_Pow and not expr.exp.has(x):
        c_, a_, b_ = leading(expr.base, x, point)
        return c_ ** expr.exp, a_ * expr.exp, b_ * expr.exp
    if isinstance(expr, sp.log):
        c_, a_, b_ = leading(expr.args[0], x, point)
        if a_ != 0:
            return (a_ if point == sp.oo else -a_), sp.Integer(0), sp.Integer(1)
        if b_ == 0 and _nonzero(c_ - 1):
            return sp.log(c_), sp.Integer(0), sp.Integer(0)
        raise Unsupported(expr)
    if expr.is_Add:
        terms = [leading(f, x, point) for f in expr.args]
        sign = 1 if point == sp.oo else -1
        key = lambda tm: (sign * tm[1], tm[2])  # noqa: E731 - dominance order of x^α |log x|^β
        keys = [key(tm) for tm in terms]
        if any(not all(v.is_number for v in k_) for k_ in keys):
            raise Unsupported(expr)
        top = max(keys)
        coef = sp.Add(*[tm[0] for tm, k_ in zip(terms, keys) if k_ == top])
        if not _nonzero(coef):
            raise Unsupported(expr)
        return coef, sign * top[0], top[1]
    raise Unsupported(expr)


def exponents(expr: sp.Expr, params: Sequence[sp.Symbol] = PARAMS) -> dict[str, sp.Expr]:
    """Leading power exponent of ``expr`` in each parameter (log factors give 0), read off as each parameter goes
    to its :data:`EXPONENT_DIRECTIONS` point with the others fixed."""
    out = {}
    for x in params:
        try:
            out[str(x)] = leading(expr, x, EXPONENT_DIRECTIONS[x])[1]
        except Unsupported:
            el = sp.limit(x * sp.diff(sp.log(expr), x), x, EXPONENT_DIRECTIONS[x])
            out[str(x)] = sp.nsimplify(el.subs(SAMPLE) if el.free_symbols else el)
    return out


def _value_at_sample(value: sp.Expr) -> sp.Expr:
    v = value.subs(SAMPLE) if value.free_symbols else value
    return v if v.has(sp.oo, sp.zoo, -sp.oo) else sp.N(v, 30)


def _classify(value: sp.Expr) -> str:
    """'same' (finite positive), 'smaller' (0) or 'larger' (∞) at the sample point."""
    v = _value_at_sample(value)
    if v == 0:
        return "smaller"
    if v.has(sp.oo, sp.zoo, -sp.oo):
        return "larger"
    if v.is_positive and v.is_finite:
        return "same"
    raise ValueError(f"unclassifiable limit {value!r} (not positive at the sample point: inadmissible)")


def _limit(r: sp.Expr, x: sp.Symbol, point) -> tuple[str, str]:
    """(shown value, class) of lim r as x → point: structural leading term, else sp.limit."""
    try:
        coef, al, be = leading(r, x, point)
    except Unsupported:
        lim = sp.limit(r, x, point, "+" if point == 0 else "-")
        return sp.sstr(lim), _classify(lim)
    if al == 0 and be == 0:
        return sp.sstr(coef if coef.has(sp.log) else sp.cancel(coef)), _classify(coef)
    if _classify(coef) != "same":
        raise ValueError(f"leading coefficient {coef} of {r} as {x} → {point} is not positive (inadmissible limit)")
    grows = (al > 0 if point == sp.oo else al < 0) if al != 0 else be > 0
    shape = f"({sp.sstr(coef)})*{x}**{sp.sstr(al)}" + (f"*|log {x}|**{sp.sstr(be)}" if be else "")
    return ("oo" if grows else "0") + f" (~ {shape})", "larger" if grows else "smaller"


def ratio_limits(a: sp.Expr, b: sp.Expr, directions: Mapping[sp.Symbol, object] | None = None,
                 paths: Sequence[Path] = ()) -> dict[str, tuple[str, str]]:
    """{limit name: (limit value, class)} of a/b, one parameter at a time and along each path."""
    r = sp.expand_log(a / b, force=True)
    out = {}
    for x, point in (DEFAULT_DIRECTIONS if directions is None else directions).items():
        out[f"{x} -> {point}"] = _limit(r, x, point)
    for p in paths:
        rp = sp.expand_log(r.subs(p.subs, simultaneous=True), force=True)
        out[p.name] = _limit(rp, t, p.point)
    return out


_ALLOWED = {"same": {("Theta", "Theta"), ("Theta", "O"), ("Theta", "Omega"), ("O", "O"), ("Omega", "Omega")},
            "smaller": {("Theta", "O"), ("O", "O")},
            "larger": {("Theta", "Omega"), ("Omega", "Omega")}}


@dataclass(frozen=True)
class Comparison:
    """Does ``derived`` imply ``claimed``?  (``ok`` with the limits and exponents behind it.)"""

    derived: Order
    claimed: Order
    limits: Mapping[str, tuple[str, str]]
    ok: bool
    failing: tuple[str, ...] = field(default_factory=tuple)
    params: tuple = PARAMS  # the parameters whose power exponents are compared (admissible directions only)

    def exponent_mismatch(self) -> dict[str, dict[str, object]]:
        d, s = self.derived.exponents(self.params), self.claimed.exponents(self.params)
        return {k: {"derived": d[k], "stated": s[k]} for k in d if d[k] != s[k]}

    def summary(self) -> dict:
        return {"derived": str(self.derived), "claimed": str(self.claimed), "implies": self.ok,
                "limits of derived/claimed": {k: v[0] for k, v in self.limits.items()},
                "failing limits": list(self.failing),
                "exponent mismatch": {k: {a: sp.sstr(b) for a, b in v.items()}
                                      for k, v in self.exponent_mismatch().items()},
                "symbols": [self.derived.symbol, self.claimed.symbol]}


def implies(derived: Order, claimed: Order, directions: Mapping[sp.Symbol, object] | None = None,
            paths: Sequence[Path] = (), exponent_params: Sequence[sp.Symbol] = PARAMS) -> Comparison:
    """Is ``derived`` (what the premises give) at least as strong as ``claimed`` (what is written)?"""
    lims = ratio_limits(derived.magnitude, claimed.magnitude, directions, paths)
    pair = (derived.symbol, claimed.symbol)
    failing = tuple(name for name, (_, cls) in lims.items() if pair not in _ALLOWED[cls])
    return Comparison(derived, claimed, lims, not failing, failing, tuple(exponent_params))
