"""Gaussian moments and expectations, exactly: Isserlis/Wick products and E over a Gaussian of a polynomial.

Papers on linear models, random features and in-context regression are full of identities such as
E[x xᵀ A x xᵀ] = 2ΣAΣ + tr(AΣ)Σ or E[x⁴] = 3σ⁴.  This module computes the left-hand side exactly, with a
symbolic or numeric covariance, so the check can compare it with the printed right-hand side:

- :func:`pairings` and :func:`isserlis_moment` — Isserlis' theorem: for x ~ N(0, C),
  E[x_{i1} ⋯ x_{i2m}] = Σ over the (2m − 1)!! perfect pairings of Π C[a, b] (odd moments vanish);
- :func:`gaussian_expectation` — E[p(x)] for x ~ N(μ, C) and a polynomial p, by writing x = μ + y and reducing
  each monomial of y with Stein's identity E[y_i f(y)] = Σ_j C_ij E[∂_j f(y)] (the same sum as the pairings,
  without enumerating them; memoised per monomial);
- :func:`expectation_by_sympy_stats` — the same expectation by ``sympy.stats`` (a univariate ``Normal`` or a
  ``MultivariateNormal``), an independent route used to cross-check the two above where SymPy can do it;
- :func:`check_gaussian_expectation` — the check: decides "E[expr] = claimed" by the exact expectation
  (``proved`` when the difference is exactly or symbolically 0, ``refuted`` with the exact value otherwise —
  through :func:`theoryverify.checks.check_identity` when the identity has free parameters such as σ or ρ),
  optionally cross-checked by Monte Carlo (:func:`theoryverify.checks.montecarlo.check_mc_mean`).
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache
from typing import Any, Iterator, Mapping, Sequence

import numpy as np
import sympy as sp

from .domains import Domain
from .errors import TheoryverifyError
from .numeric import lambdify_generated
from .seeds import pyrandom
from .timelimit import bounded
from .verdicts import Status, Verdict, error, holds, proved, refuted


class GaussianInputError(TheoryverifyError, ValueError):
    """Bad input to a Gaussian computation (shapes, a non-symmetric covariance, a non-polynomial)."""


# ---------------------------------------------------------------------------------------------- inputs


def _matrix(cov: Any, d: int) -> sp.ImmutableMatrix:
    """The covariance as a d×d SymPy matrix (a scalar is a variance when d = 1); symmetric, and positive
    semidefinite when numeric."""
    if isinstance(cov, str):
        raise GaussianInputError("the covariance is text; build it with SymPy (never parsed from a string)")
    try:
        if d == 1 and np.ndim(np.asarray(cov, dtype=object)) == 0:
            c = sp.ImmutableMatrix([[sp.sympify(cov)]])
        else:
            c = sp.ImmutableMatrix(np.asarray(cov, dtype=object).tolist() if not isinstance(cov, sp.MatrixBase)
                                   else cov)
    except (TypeError, ValueError, sp.SympifyError) as exc:
        raise GaussianInputError(f"cannot read the covariance as a matrix: {exc}") from None
    if c.shape != (d, d):
        raise GaussianInputError(f"the covariance has shape {c.shape}; {d} variables need ({d}, {d})")
    if any(sp.expand(c[i, j] - c[j, i]) != 0 for i in range(d) for j in range(i + 1, d)):
        raise GaussianInputError("the covariance is not symmetric")
    if not c.free_symbols:
        try:
            eig = np.linalg.eigvalsh(np.asarray(c.evalf(), dtype=float))
        except (TypeError, ValueError):
            raise GaussianInputError("the covariance has non-real entries") from None
        if eig.min() < -1e-12 * max(1.0, abs(eig).max()):
            raise GaussianInputError(f"the covariance is not positive semidefinite (eigenvalue {eig.min():.3g})")
    return c


def _mean(mean: Any, d: int) -> tuple[sp.Expr, ...]:
    if mean is None or (np.ndim(np.asarray(mean, dtype=object)) == 0 and sp.sympify(mean) == 0):
        return (sp.Integer(0),) * d
    if isinstance(mean, str):
        raise GaussianInputError("the mean is text; build it with SymPy")
    flat = list(mean) if not isinstance(mean, sp.MatrixBase) else list(mean)
    if d == 1 and np.ndim(np.asarray(mean, dtype=object)) == 0:
        flat = [mean]
    if len(flat) != d:
        raise GaussianInputError(f"the mean has {len(flat)} entries for {d} variables")
    return tuple(sp.sympify(m) for m in flat)


def _variables(variables: Any) -> tuple[sp.Symbol, ...]:
    if isinstance(variables, sp.Symbol):
        variables = (variables,)
    vs = tuple(variables)
    if not vs or not all(isinstance(v, sp.Symbol) for v in vs):
        raise GaussianInputError("variables must be a non-empty sequence of SymPy symbols")
    if len(set(vs)) != len(vs):
        raise GaussianInputError("a variable is listed twice")
    return vs


# -------------------------------------------------------------------------------- Isserlis / Wick


def pairings(items: Sequence[Any]) -> Iterator[list[tuple[Any, Any]]]:
    """Every perfect pairing of ``items`` (by position; (k − 1)!! of them for even k, none for odd k)."""
    items = list(items)
    if not items:
        yield []
        return
    if len(items) % 2:
        return
    first, rest = items[0], items[1:]
    for i, other in enumerate(rest):
        for tail in pairings(rest[:i] + rest[i + 1:]):
            yield [(first, other), *tail]


def isserlis_moment(cov: Any, indices: Sequence[int]) -> sp.Expr:
    """E[x_{i1} x_{i2} ⋯ x_{ik}] for x ~ N(0, cov), by Isserlis' theorem: the sum over all pairings of the
    positions of Π cov[i_a, i_b] (0 for odd k).  ``indices`` may repeat (E[x_0⁴] = 3·cov[0,0]²)."""
    idx = [int(i) for i in indices]
    d = int(np.shape(np.asarray(cov, dtype=object))[0]) if np.ndim(np.asarray(cov, dtype=object)) else 1
    c = _matrix(cov, d)
    if any(not 0 <= i < d for i in idx):
        raise GaussianInputError(f"index out of range for a {d}×{d} covariance: {idx}")
    total = sp.Integer(0)
    for pairing in pairings(idx):
        term = sp.Integer(1)
        for a, b in pairing:
            term *= c[a, b]
        total += term
    return sp.expand(total)


def _moments(c: sp.ImmutableMatrix):
    """E[y^α] for y ~ N(0, c) and a multi-index α, by Stein's identity (memoised)."""
    d = c.shape[0]

    @lru_cache(maxsize=None)
    def moment(alpha: tuple[int, ...]) -> sp.Expr:
        total = sum(alpha)
        if total == 0:
            return sp.Integer(1)
        if total % 2:
            return sp.Integer(0)
        i = next(k for k, a in enumerate(alpha) if a)
        rest = list(alpha)
        rest[i] -= 1  # E[y_i y^rest] = Σ_j C_ij · rest_j · E[y^(rest − e_j)]
        out = sp.Integer(0)
        for j in range(d):
            if rest[j] and c[i, j] != 0:
                lower = list(rest)
                lower[j] -= 1
                out += c[i, j] * rest[j] * moment(tuple(lower))
        return sp.expand(out)

    return moment


def gaussian_expectation(expr: Any, variables: Any, mean: Any = None, cov: Any = None) -> sp.Expr:
    """E[expr] for (variables) ~ N(mean, cov), exactly; ``expr`` must be a polynomial in the variables (its
    coefficients may hold other symbols: σ, ρ, a matrix's entries).  ``mean``: None (zero) or d values;
    ``cov``: a d×d matrix (SymPy, nested lists or numpy), or a variance when d = 1 (None: the identity).
    A SymPy matrix ``expr`` is taken entry by entry (E[x xᵀ] = C + μμᵀ).  Raises :class:`GaussianInputError`
    (one line) on bad input."""
    if isinstance(expr, sp.MatrixBase):
        return sp.ImmutableMatrix(expr.shape[0], expr.shape[1],
                                  [gaussian_expectation(e, variables, mean, cov) for e in expr])
    vs = _variables(variables)
    d = len(vs)
    c = _matrix(sp.eye(d) if cov is None else cov, d)
    mu = _mean(mean, d)
    try:
        e = sp.sympify(expr)
    except (sp.SympifyError, TypeError) as exc:
        raise GaussianInputError(f"cannot read the expression: {exc}") from None
    if isinstance(expr, str) or not isinstance(e, sp.Expr):
        raise GaussianInputError("the expression must be a SymPy expression (never parsed from text)")
    ys = [sp.Dummy(f"y{i}") for i in range(d)]
    shifted = sp.expand(e.xreplace({v: m + y for v, m, y in zip(vs, mu, ys)}))
    if not shifted.is_polynomial(*ys):
        raise GaussianInputError(f"E over a Gaussian is computed for polynomials in {list(map(str, vs))}; "
                                 f"{sp.sstr(e)[:60]} is not one (use check_mc_mean for other functions)")
    poly = sp.Poly(shifted, *ys)
    moment = _moments(c)
    return sp.expand(sum((coeff * moment(tuple(alpha)) for alpha, coeff in poly.terms()), sp.Integer(0)))


def expectation_by_sympy_stats(expr: Any, variables: Any, mean: Any = None, cov: Any = None, *,
                               seconds: float = 10.0) -> sp.Expr | None:
    """E[expr] by ``sympy.stats`` (an independent route, for cross-checks): a univariate ``Normal`` for one
    variable, a ``MultivariateNormal`` otherwise.  ``None`` when SymPy cannot do it within ``seconds``
    (multivariate symbolic covariances are usually out of its reach)."""
    from sympy import stats as sps

    vs = _variables(variables)
    d = len(vs)
    c = _matrix(sp.eye(d) if cov is None else cov, d)
    mu = _mean(mean, d)

    def run() -> sp.Expr:
        if d == 1:
            x = sps.Normal("X_tv", mu[0], sp.sqrt(c[0, 0]))
            return sp.simplify(sps.E(sp.sympify(expr).xreplace({vs[0]: x})))
        m = sps.MultivariateNormal("M_tv", list(mu), c)
        return sp.simplify(sps.E(sp.sympify(expr).xreplace({v: m[i] for i, v in enumerate(vs)})))

    try:
        return bounded(run, seconds, cpu=True)  # CPU time: the same answer on a loaded machine
    except (NotImplementedError, ValueError, TypeError):
        return None


# ------------------------------------------------------------------------------------------ the check


def _text(e: Any, limit: int | None = None) -> str:
    """``e`` on one line (a matrix as its nested rows), cut to ``limit`` characters."""
    out = sp.sstr(e.tolist() if isinstance(e, sp.MatrixBase) else e).replace("\n", " ")
    return out if limit is None or len(out) <= limit else out[:limit - 1] + "…"


def _is_float_valued(*exprs: sp.Expr) -> bool:
    return any(e.atoms(sp.Float) for e in exprs)


def check_gaussian_expectation(expr: Any, variables: Any, mean: Any, cov: Any, claimed: Any, *,
                               domain: Domain | None = None, seed: int = 0, rtol: float = 1e-12,
                               mc_samples: int = 0, mc_at: Mapping[sp.Symbol, Any] | None = None,
                               confidence: float = 0.99) -> Verdict:
    """Decide "E[expr] = claimed" for (variables) ~ N(mean, cov).

    The expectation is computed exactly (:func:`gaussian_expectation`).  With no free parameters left, the two
    numbers are compared exactly (``proved`` / ``refuted`` with both values; with float inputs, within
    ``rtol``: ``holds``).  With parameters (σ, ρ, …) the identity E = claimed is decided by
    :func:`theoryverify.checks.check_identity` on ``domain``, which must declare them (symbolic proof, else
    a refutation at an exact rational point).  ``mc_samples > 0`` adds a Monte-Carlo cross-check of the claimed
    value at one parameter point (``mc_at``, default an exact point drawn from the domain) — a disagreement with
    an exact ``proved`` is reported as an error (it would be an engine bug).  ``expr`` and ``claimed`` may be
    SymPy matrices (compared entry by entry)."""
    from .checks.identity import check_identity  # local: the checks package imports this module's neighbours

    try:
        vs = _variables(variables)
        expr = sp.Matrix(expr) if isinstance(expr, (list, tuple)) else expr
        exact = gaussian_expectation(expr, vs, mean, cov)
        if isinstance(claimed, str):
            raise GaussianInputError("the claimed value is text; build it with SymPy")
        want = sp.ImmutableMatrix(claimed) if isinstance(claimed, (list, tuple, sp.MatrixBase)) else sp.sympify(claimed)
        if not isinstance(want, (sp.Expr, sp.MatrixBase)):
            raise GaussianInputError("the claimed value must be a SymPy expression or matrix, not "
                                     f"{type(claimed).__name__}")
    except (GaussianInputError, sp.SympifyError, TypeError, ValueError) as exc:
        return error("Gaussian expectation", str(exc))
    if want.free_symbols & set(vs):
        return error("Gaussian expectation", f"the claimed value still depends on the random variables "
                     f"{sorted(map(str, want.free_symbols & set(vs)))}")
    params = sorted((exact.free_symbols | want.free_symbols), key=str)
    label = f"E[{_text(sp.sympify(expr), 50)}]"
    matrix = isinstance(exact, sp.MatrixBase) or isinstance(want, sp.MatrixBase)
    shapes = [getattr(e, "shape", ()) for e in (exact, want)]
    if shapes[0] != shapes[1]:
        return refuted("shape comparison", f"{label} has shape {shapes[0] or 'scalar'}; the claimed value has "
                       f"{shapes[1] or 'scalar'}", {"exact_shape": list(shapes[0]), "claimed_shape": list(shapes[1])})
    if matrix and domain is None and not params:
        domain = Domain([])
    if not params and not matrix:
        verdict = _compare_numbers(exact, want, label, rtol)
    else:
        if domain is None:
            return error("Gaussian expectation", f"parameters {list(map(str, params))} need a domain "
                         "(e.g. Domain([LogUniform(sigma, 0.1, 10)]))")
        verdict = check_identity(exact, want, domain, seed, rtol=rtol)
        method = f"Wick/Isserlis expansion, then {verdict.method}"
        if verdict.status is Status.REFUTED:
            ce = dict(verdict.counterexample or {})
            ce = {"claimed": ce.pop("rhs", None), "exact": ce.pop("lhs", None), **ce}
            verdict = refuted(method, f"{label} ≠ claimed: {verdict.evidence}; exact E = {_text(exact, 120)}", ce,
                              exact_expectation=_text(exact), **dict(verdict.details))
        else:
            verdict = replace(verdict, method=method, evidence=f"{label} = claimed: {verdict.evidence}",
                              details={**dict(verdict.details), "exact_expectation": _text(exact)})
    if mc_samples and verdict.holds:
        return _with_monte_carlo(verdict, expr, vs, mean, cov, want, domain, mc_at, seed, mc_samples, confidence)
    return verdict


def _compare_numbers(exact: sp.Expr, want: sp.Expr, label: str, rtol: float) -> Verdict:
    method = "Wick/Isserlis expansion, exact evaluation"
    if _is_float_valued(exact, want):
        a, b = complex(sp.N(exact)), complex(sp.N(want))
        rel = abs(a - b) / max(1.0, abs(b))
        if rel <= rtol:
            return holds(method + " (float inputs)", f"{label} = {sp.N(exact, 12)} agrees with the claimed "
                         f"{sp.N(want, 12)} (relative error {rel:.3g} ≤ {rtol:g})", exact_expectation=str(exact),
                         tolerance=rtol)
        return refuted(method + " (float inputs)", f"{label} = {sp.N(exact, 12)}, not the claimed {sp.N(want, 12)} "
                       f"(relative error {rel:.3g} > {rtol:g})", {"exact": sp.N(exact, 15), "claimed": sp.N(want, 15)},
                       tolerance=rtol)
    diff = sp.simplify(exact - want)
    if diff == 0:
        return proved(method, f"{label} = {_text(exact, 120)} exactly, as claimed", exact_expectation=_text(exact))
    if diff.is_zero is None:  # not decided symbolically (nested radicals, …): decide at 50 digits
        approx = sp.N(diff, 50)
        if approx.is_number and abs(approx) < sp.Float("1e-40", 50):
            return holds(method + " (50-digit evaluation)", f"{label} = {_text(exact, 120)} agrees with the claimed "
                         f"value to 50 digits", exact_expectation=_text(exact))
    return refuted(method, f"{label} = {_text(exact, 120)} exactly, not the claimed {_text(want, 120)} "
                   f"(difference {_text(diff, 80)})", {"exact": exact, "claimed": want, "difference": diff},
                   exact_expectation=_text(exact))


def _with_monte_carlo(verdict: Verdict, expr: Any, vs: tuple[sp.Symbol, ...], mean: Any, cov: Any, want: sp.Expr,
                      domain: Domain | None, mc_at: Mapping[sp.Symbol, Any] | None, seed: int, n: int,
                      confidence: float) -> Verdict:
    """Append a Monte-Carlo estimate of E[expr] against the claimed value at one parameter point."""
    from .checks.montecarlo import check_mc_mean

    d = len(vs)
    point = dict(mc_at or {})
    if domain is not None and not mc_at:  # a generic exact point (a centre such as 0 can make both sides vanish)
        point = domain.rationals(pyrandom(seed))
    sub = {s: sp.sympify(v) for s, v in point.items()}
    try:
        c = np.asarray(_matrix(sp.eye(d) if cov is None else cov, d).xreplace(sub).evalf(), dtype=float)
        mu = np.asarray([float(m.xreplace(sub)) for m in _mean(mean, d)], dtype=float)
    except (TypeError, ValueError):
        return error("Gaussian expectation: Monte Carlo", "the Monte-Carlo point leaves parameters free; give "
                     "mc_at or a domain")
    entries = list(expr) if isinstance(expr, sp.MatrixBase) else [sp.sympify(expr)]
    bodies = [e.xreplace(sub) for e in entries]
    loose = set().union(*(b.free_symbols for b in bodies)) - set(vs)
    if loose:
        return error("Gaussian expectation: Monte Carlo", "the Monte-Carlo point leaves parameters of the expression "
                     f"free: {sorted(map(str, loose))}")
    fns = [lambdify_generated(vs, b) for b in bodies]  # no user-chosen name reaches generated code
    try:
        target = [float(t) for t in (list(want.xreplace(sub)) if isinstance(want, sp.MatrixBase)
                                     else [want.xreplace(sub)])]
    except (TypeError, ValueError):
        return error("Gaussian expectation: Monte Carlo", "the claimed value is not a number at the Monte-Carlo point")

    def sample(rng: np.random.Generator, m: int) -> np.ndarray:
        x = rng.multivariate_normal(mu, c, size=m, method="eigh")
        return np.stack([np.broadcast_to(np.asarray(f(*x.T), dtype=float), (m,)) for f in fns], axis=1)

    mc = check_mc_mean(sample, target, seed, n=n, confidence=confidence,
                       resolution=[0.05 * max(1.0, abs(t)) for t in target])
    details = {**dict(verdict.details), "monte_carlo": mc.to_json(), "monte_carlo_point": {str(k): v for k, v in
                                                                                          point.items()}}
    if mc.status is Status.REFUTED:
        return error("Gaussian expectation: exact vs Monte Carlo", f"the exact tier says {verdict.status.value} but "
                     f"Monte Carlo disagrees: {mc.evidence}", **details)
    where = ", ".join(f"{k} = {v}" for k, v in point.items()) or "the given values"
    return replace(verdict, method=verdict.method + f" + Monte Carlo ({mc.status.value})",
                   evidence=verdict.evidence + f"; Monte Carlo at {where}: {mc.evidence}", details=details)
