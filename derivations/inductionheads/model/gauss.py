"""Gaussian expectation identities behind the explicit losses (19) and (22) — the tool's reading of
Lemmas D.3 and D.4 (App. D; their statements are lost, spec IH-LD3/LD4-gauss).

Everything is derived with SymPy ``integrate`` from the standard normal density, with the
assumptions declared (``s = 1 - 2A > 0``); nothing here is transcribed.

Reading recorded for the lost lemmas (spec: "D.3: two identities; D.4: one hypothesis and one
conclusion"):

* **D.3 (i)**  ``E[e^{b x}] = e^{b²/2}`` for every real b            (x ~ N(0,1));
* **D.3 (ii)** ``E[e^{a x²/2}] = (1 - a)^{-1/2}`` for a < 1;
* **D.4**      *Let |c| < 1*; then ``E[e^{c x z}] = (1 - c²)^{-1/2}``  (x, z iid N(0,1)).

D.4 follows from D.3 by conditioning on x (D.3 (i) with b = c x, then D.3 (ii) with a = c²).  The
general one-variable rule used by :func:`expect` is
``E[x^m e^{A x² + B x}] = ∂_B^m [ (1-2A)^{-1/2} e^{B²/(2(1-2A))} ]``, finite iff ``A < 1/2``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
import sympy as sp

_x = sp.Symbol("x", real=True)
_s = sp.Symbol("s", positive=True)      # s = 1 - 2A > 0 (declared: the convergence hypothesis)
_B = sp.Symbol("B", real=True)

# Symbols of the lemma statements.
b = sp.Symbol("b", real=True)
a = sp.Symbol("a", real=True)
c = sp.Symbol("c", real=True)


def density(x: sp.Symbol) -> sp.Expr:
    """The standard normal density φ(x)."""
    return sp.exp(-x ** 2 / 2) / sp.sqrt(2 * sp.pi)


@lru_cache(maxsize=None)
def _centred_integral() -> sp.Expr:
    """∫ e^{-s y²/2} dy / √(2π) for s > 0, by SymPy integrate."""
    return sp.integrate(sp.exp(-_s * _x ** 2 / 2) / sp.sqrt(2 * sp.pi), (_x, -sp.oo, sp.oo))


@lru_cache(maxsize=None)
def _base_mgf() -> sp.Expr:
    """∫ e^{-s x²/2 + B x} dx / √(2π) for s > 0: complete the square, -s x²/2 + B x = -s (x - B/s)²/2 +
    B²/(2s) (checked by expansion), and the shift x → x + B/s leaves the integral over R unchanged."""
    shifted = -_s * (_x - _B / _s) ** 2 / 2 + _B ** 2 / (2 * _s)
    if sp.expand(shifted - (-_s * _x ** 2 / 2 + _B * _x)) != 0:  # pragma: no cover - algebra guard
        raise AssertionError("completing the square failed")
    return sp.exp(_B ** 2 / (2 * _s)) * _centred_integral()


def base_mgf_by_integrate() -> sp.Expr:
    """The same integral by direct SymPy integrate (slow, ~1 s; used by the full-profile claim)."""
    raw = sp.integrate(sp.exp(-_s * _x ** 2 / 2 + _B * _x) / sp.sqrt(2 * sp.pi), (_x, -sp.oo, sp.oo))
    return sp.simplify(raw)


@lru_cache(maxsize=None)
def monomial_moment(m: int) -> sp.Expr:
    """E[x^m e^{A x² + B x}] as a function of (s = 1-2A, B), s > 0: ∂_B^m of the base integral
    (differentiation under the integral sign, legitimate for s > 0)."""
    return sp.diff(_base_mgf(), _B, m)


def divergent_when_not_positive() -> bool:
    """For s = -t <= 0 the integrand e^{-s x²/2 + B x} is >= 1 on the tail x·sign(B) >= 0, so the
    expectation is infinite: the exponent t x²/2 + |B| x is non-negative for x >= 0 (SymPy's
    assumption system decides it)."""
    t = sp.Symbol("t", nonnegative=True)
    bp = sp.Symbol("bp", nonnegative=True)
    xp = sp.Symbol("xp", nonnegative=True)
    return bool((t * xp ** 2 / 2 + bp * xp).is_nonnegative)


@dataclass
class Expectation:
    """The value of an expectation and the convergence conditions collected while computing it."""
    value: sp.Expr
    conditions: list = field(default_factory=list)


def _split_term(term: sp.Expr, var: sp.Symbol) -> tuple[sp.Expr, int, sp.Expr]:
    """term = coeff · var^m · exp(E) with coeff free of var; returns (coeff, m, E)."""
    coeff, m, expo = sp.Integer(1), 0, sp.Integer(0)
    for f in sp.Mul.make_args(term):
        if isinstance(f, sp.exp):
            expo += f.args[0]
        elif f == var:
            m += 1
        elif f.is_Pow and f.base == var and f.exp.is_Integer and f.exp >= 0:
            m += int(f.exp)
        elif f.has(var):
            raise ValueError(f"factor {f} is not of the form var^m or exp(quadratic)")
        else:
            coeff *= f
    return coeff, m, sp.expand(expo)


def expect(expr: sp.Expr, var: sp.Symbol, conditions: list | None = None) -> sp.Expr:
    """E over var ~ N(0,1) of a sum of terms poly(var)·exp(quadratic in var).

    Each term's exponent is split as A var² + B var + C; the term's expectation is
    coeff · e^C · monomial_moment(m)(s=1-2A, B).  The condition ``1 - 2A > 0`` (finite expectation)
    is appended to ``conditions`` whenever A is not identically 0."""
    out = sp.Integer(0)
    for term in sp.Add.make_args(sp.expand(expr, power_base=False, log=False, mul=True, multinomial=True)):
        coeff, m, expo = _split_term(term, var)
        poly = sp.Poly(expo, var)
        if poly.degree() > 2:
            raise ValueError(f"exponent {expo} is not quadratic in {var}")
        A = poly.coeff_monomial(var ** 2)
        B = poly.coeff_monomial(var)
        C = poly.coeff_monomial(1)
        if A != 0 and conditions is not None:
            conditions.append(sp.expand(1 - 2 * A) > 0)
        out += coeff * sp.exp(C) * monomial_moment(m).subs({_s: 1 - 2 * A, _B: B})
    return out


def expect_all(expr: sp.Expr, variables: list[sp.Symbol]) -> Expectation:
    """Iterated expectation over independent N(0,1) variables, in the given order (inner first)."""
    conds: list = []
    val = expr
    for v in variables:
        val = expect(val, v, conds)
    return Expectation(sp.expand(val), conds)


# --------------------------------------------------------------------------------------------------
# The three identities (reading of D.3 / D.4), each derived by integrate, with its hypothesis.

def d3_exp_linear() -> tuple[sp.Expr, sp.Expr]:
    """D.3 (i): (derived E[e^{b x}], stated e^{b²/2}); no hypothesis."""
    derived = sp.simplify(sp.integrate(sp.exp(b * _x) * density(_x), (_x, -sp.oo, sp.oo)))
    return derived, sp.exp(b ** 2 / 2)


def d3_exp_quadratic() -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """D.3 (ii): (derived E[e^{a x²/2}] for a < 1, stated (1-a)^{-1/2}, hypothesis a < 1).
    Derived with the positive symbol s = 1 - a, then s → 1 - a."""
    derived = sp.integrate(sp.exp(-_s * _x ** 2 / 2) / sp.sqrt(2 * sp.pi), (_x, -sp.oo, sp.oo))
    return sp.simplify(derived.subs(_s, 1 - a)), (1 - a) ** sp.Rational(-1, 2), a < 1


def d4_bilinear() -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """D.4: (derived E[e^{c x z}], stated (1-c²)^{-1/2}, hypothesis |c| < 1), by iterated expectation
    (z first, then x) with :func:`expect`; the hypothesis is the collected condition."""
    z = sp.Symbol("z", real=True)
    conds: list = []
    inner = expect(sp.exp(c * _x * z), z, conds)
    outer = expect(inner, _x, conds)
    hyp = sp.And(*conds) if conds else sp.true
    return sp.simplify(outer), (1 - c ** 2) ** sp.Rational(-1, 2), hyp


def d4_domain() -> sp.Set:
    """The set of real c where D.4's expectation is finite, solved from the collected condition."""
    _, _, hyp = d4_bilinear()
    return sp.solveset(hyp, c, domain=sp.S.Reals) if not isinstance(hyp, sp.And) else \
        sp.Intersection(*[sp.solveset(h, c, domain=sp.S.Reals) for h in hyp.args])


# --------------------------------------------------------------------------------------------------
# Monte Carlo estimators of the three identities (numpy; ctx-seeded generators are passed in).

def mc_exp_linear(bv: float, n: int, rng: np.random.Generator) -> tuple[float, float]:
    """(mean, standard error) of e^{b x}."""
    v = np.exp(bv * rng.standard_normal(n))
    return float(v.mean()), float(v.std(ddof=1) / np.sqrt(n))


def mc_exp_quadratic(av: float, n: int, rng: np.random.Generator) -> tuple[float, float]:
    """(mean, SE) of e^{a x²/2}; finite variance needs a < 1/2."""
    v = np.exp(av * rng.standard_normal(n) ** 2 / 2)
    return float(v.mean()), float(v.std(ddof=1) / np.sqrt(n))


def mc_bilinear(cv: float, n: int, rng: np.random.Generator) -> tuple[float, float]:
    """(mean, SE) of e^{c x z}; finite variance needs |c| < 1/2 (E[e^{2cxz}] finite)."""
    v = np.exp(cv * rng.standard_normal(n) * rng.standard_normal(n))
    return float(v.mean()), float(v.std(ddof=1) / np.sqrt(n))


def bilinear_mgf(cv) -> np.ndarray:
    """(1 - c²)^{-1/2}, the D.4 value (numpy; nan outside |c| < 1)."""
    cv = np.asarray(cv, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(np.abs(cv) < 1, 1.0 / np.sqrt(np.abs(1 - cv ** 2)), np.nan)


def effective_sample_size(weights: np.ndarray) -> float:
    """Kish effective sample size (Σw)²/Σw² of non-negative MC summands (heavy-tail diagnostic)."""
    w = np.abs(np.asarray(weights, dtype=float))
    return float(w.sum() ** 2 / (w ** 2).sum())


def mc_verdict(name: str, estimate: float, se: float, formula: float, rtol: float, n: int, **extra):
    """Spec §4.2 Monte Carlo rule: |MC - formula| <= max(rtol·|formula|, 3 SE) -> holds, else refuted
    (counterexample: the numbers).  ``extra`` (parameter values, ESS) goes into details/counterexample."""
    from theoryverify import holds, refuted
    gap = abs(estimate - formula)
    allowed = max(rtol * abs(formula), 3 * se)
    info = dict(mc=estimate, se=se, formula=formula, gap=gap, allowed=allowed, n=n, **extra)
    if np.isfinite(estimate) and gap <= allowed:
        return holds("Monte Carlo vs formula", f"{name}: MC {estimate:.6g} ± {se:.2g} vs {formula:.6g} "
                     f"(gap {gap:.2g} <= {allowed:.2g}, n = {n})", **info)
    return refuted("Monte Carlo vs formula", f"{name}: MC {estimate:.6g} ± {se:.2g} vs {formula:.6g} "
                   f"(gap {gap:.3g} > max({rtol:g}·|f|, 3 SE) = {allowed:.3g}, n = {n})", info)
