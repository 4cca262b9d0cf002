"""Identity checks: ``lhs == rhs`` on a domain.

Both sides are scalars, SymPy matrices, (nested) sequences or mappings; they are compared element by
element after their shapes (or keys) are compared — a shape mismatch is refuted with both shapes, and
anything else (a string, an arbitrary object) is a clear error, never a silent coercion
(:func:`theoryverify.checks.containers.pair_entries`).

Tiers, strongest first (principle 4):
1. symbolic: every entry's difference simplifies to 0 under a hard time limit   -> ``proved``;
2. exact rational points of the domain: any nonzero entry                       -> ``refuted`` (exact);
3. float64 points — the domain's boundary (:meth:`Domain.boundary_points`), then points drawn by the
   domain's Hypothesis strategy, searched for the largest relative error with ``target()`` and shrunk
   -> ``refuted`` if a point exceeds the tolerance *and* the excess is confirmed at 50 digits, else
   ``holds`` with counts, the domain searched and the max error.
"""
from __future__ import annotations

import time
from typing import Any, Mapping, Sequence

import sympy as sp

from ..domains import Domain
from ..numeric import compile_float, exact_value, high_precision, relative_error
from ..roundoff import fmt_error
from ..seeds import pyrandom
from ..timelimit import bounded
from ..evidence_types import CouldHaveFailed, Proof, attach
from ..verdicts import Verdict, error, holds, inconclusive, proved, refuted
from .containers import Entry, ShapeMismatch, pair_entries
from .search import ROUNDOFF_SCORE, search, settings_of_the_sides, shrunk

SIMPLIFIERS = (
    ("expand", sp.expand),
    ("cancel", lambda d: sp.cancel(sp.together(d))),
    ("simplify", sp.simplify),
)


def symbolic_zero(diff: sp.Expr, seconds: float) -> str | None:
    """The name of the first simplifier that reduces ``diff`` to 0 within ``seconds`` in all."""
    if diff == 0:
        return "structural"
    deadline = time.process_time() + seconds  # CPU time: the same answer on a loaded machine
    for name, fn in SIMPLIFIERS:
        left = deadline - time.process_time()
        if left <= 0:
            return None
        out = bounded(lambda: fn(diff), left, cpu=True)
        if out is not None and out == 0:
            return name
    return None


def _point(point: Mapping[sp.Symbol, object]) -> dict[str, object]:
    return {str(s): v for s, v in sorted(point.items(), key=lambda kv: str(kv[0]))}


def _entry_key(label: str | None) -> dict[str, str]:
    return {"entry": label} if label is not None else {}


def _scale(lhs: sp.Expr, rhs: sp.Expr, point) -> sp.Float:
    """max(1, |lhs|, |rhs|) at the point, 50 digits: a difference of 50-digit values is only known to that
    relative accuracy (an absolute 1e-40 would refute an identity between sides of size 1e300)."""
    out = sp.Float(1, 50)
    for side in (lhs, rhs):
        v = exact_value(side, point).evalf(50)
        if v.is_number and v.is_real is not False and v.is_finite is not False:
            out = max(out, abs(v))
    return out


def _residual(diff: sp.Expr, point, value) -> str:
    """The refuting residual as evidence: the difference ``lhs − rhs`` as an expression where it has a short form,
    with its value at the point named — never the value alone as if it were the residual (author 10: "lhs − rhs =
    -2 ≠ 0 exactly" for −2η²h², which is −2 at η = h = 1).

    >>> import sympy as sp
    >>> eta, h = sp.symbols("eta h")
    >>> _residual(1 - (1 - eta*h)**2 - eta*h*(2 + eta*h), {eta: 1, h: 1}, -2)
    'lhs − rhs = -2*eta**2*h**2 (= -2 ≠ 0 exactly at eta = 1, h = 1)'
    >>> _residual(sp.Integer(1) / 4, {eta: 1}, sp.Rational(1, 4))
    'lhs − rhs = 1/4 ≠ 0 exactly'"""
    names = {str(s) for s in getattr(diff, "free_symbols", ())}
    at = [f"{k} = {v}" for k, v in _point(point).items() if k in names]
    where = f" at {', '.join(at[:6])}{', …' if len(at) > 6 else ''}" if at else ""

    def short():
        return sp.factor(sp.cancel(diff))
    try:
        shown = bounded(short, 0.5, cpu=True) if names else None
    except Exception:  # a form SymPy cannot factor (matrix entries, unknown functions): the value alone
        shown = None
    text = " ".join(str(shown).split()) if shown is not None else ""
    if not text or not getattr(shown, "free_symbols", None) or len(text) > 80:
        return f"lhs − rhs = {value} ≠ 0 exactly{where}"
    return f"lhs − rhs = {text} (= {value} ≠ 0 exactly{where})"


def exact_points(diff: sp.Expr, domain: Domain, seed: int, n: int,
                 lhs: sp.Expr, rhs: sp.Expr, label: str | None = None) -> tuple[int, Verdict | None]:
    """Evaluate ``diff`` at ``n`` exact rational points; a refutation if any is provably nonzero.
    Returns (points decided exactly or at 50 digits, refutation or None).  A point where the value is
    neither a rational nor a real number at 50 digits is not counted."""
    rnd = pyrandom(seed)
    exact = 0
    for _ in range(n):
        point = domain.rationals(rnd)
        value = exact_value(diff, point)
        if value.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
            continue  # outside the expression's natural domain (a pole)
        if value.is_Rational:
            exact += 1
            if value != 0:
                return exact, refuted(
                    "exact rational point", _residual(diff, point, value),
                    {**_entry_key(label), **_point(point), "lhs": exact_value(lhs, point),
                     "rhs": exact_value(rhs, point)}, difference=value)
            continue
        approx = value.evalf(50)
        if not (approx.is_number and approx.is_real is not False):
            continue  # undecided here: not counted as agreement
        if abs(approx) > sp.Float("1e-40", 50) and abs(approx) <= sp.Float("1e-40", 50) * _scale(lhs, rhs, point):
            continue  # huge sides (exp(lam*...) at lam = 1e6) cancel below 50 digits: undecided, not counted
        exact += 1
        if abs(approx) > sp.Float("1e-40", 50):
            return exact, refuted(
                "rational point, 50-digit evaluation", f"lhs − rhs ≈ {sp.N(approx, 6)} ≠ 0 (50 digits)",
                {**_entry_key(label), **_point(point), "lhs": sp.N(exact_value(lhs, point), 15),
                 "rhs": sp.N(exact_value(rhs, point), 15)}, difference=sp.N(approx, 20))
    return exact, None


@settings_of_the_sides
def check_identity(lhs: Any, rhs: Any, domain: Domain, seed: int, *, rtol: float = 1e-12,
                   n_rational: int = 12, n_float: int | None = None,
                   symbolic_seconds: float = 3.0, try_symbolic: bool = True) -> Verdict:
    """Decide ``lhs == rhs`` for every point of ``domain`` (see the module docstring): proved when the difference
    simplifies to 0 (and exact points agree), refuted by an exact counterexample, else holds on the points tried.

    >>> import sympy as sp, theoryverify as tv
    >>> w, x = sp.symbols("w x")
    >>> domain = tv.Domain([tv.Interval(w, -3, 3), tv.Interval(x, -3, 3)])
    >>> tv.check_identity(sp.diff((w*x)**2 / 2, w), w * x**2, domain, seed=0).status.value
    'proved'
    >>> v = tv.check_identity(sp.diff((w*x)**2 / 2, w), 2 * w * x**2, domain, seed=0)
    >>> v.status.value, sorted(v.counterexample)[:2]
    ('refuted', ['lhs', 'rhs'])
    """
    try:
        entries = pair_entries(lhs, rhs, symbolic=True)
    except ShapeMismatch as mismatch:
        return refuted("shape comparison", mismatch.text, mismatch.counterexample)
    missing = set().union(*(domain.covers(e.lhs) | domain.covers(e.rhs) for e in entries)) if entries else set()
    if missing:
        return error("domain", f"symbols without a declared domain: {sorted(map(str, missing))}")
    if not entries:
        return inconclusive("identity", "nothing to compare (empty containers)")
    deadline = time.process_time() + symbolic_seconds  # CPU time: not moved by other processes' load
    hows: list[str | None] = []
    for e in entries:
        left = deadline - time.process_time()
        hows.append(symbolic_zero(e.lhs - e.rhs, left) if try_symbolic and left > 0 else None)
    n_exact = 0
    for i, e in enumerate(entries):
        got, refutation = exact_points(e.lhs - e.rhs, domain, seed + i, n_rational, e.lhs, e.rhs, e.label)
        n_exact = max(n_exact, got) if i else got
        if refutation is not None:
            if hows[i]:  # a symbolic proof contradicted by an exact point is an engine bug
                return error("symbolic vs exact", f"simplifier {hows[i]} said 0 but an exact point disagrees")
            return shrunk(refutation, e.lhs, "==", e.rhs, domain)  # a short fraction, not a drawn one
    shape = _shape_note(entries)
    if all(hows):
        how = "/".join(sorted(set(hows)))  # type: ignore[arg-type]
        v = proved(f"symbolic: {how}", f"lhs − rhs simplifies to 0 ({how}){shape}; "
                   f"{n_exact} rational points agree (exact or 50 digits)", exact_points=n_exact,
                   entries=len(entries), domain=domain.describe(),
                   coverage={str(s): "symbolic" for s in domain.symbols})
        return attach(v, Proof(f"SymPy {how} of lhs − rhs to 0", tuple(str(s) for s in domain.symbols)),
                      CouldHaveFailed("by construction", f"an identity of algebra: lhs − rhs simplifies to 0 by "
                                      f"{how} over the whole domain (the {n_exact} exact rational points, which "
                                      f"would refute any non-identity, agree)"))
    open_entries = [e for e, h in zip(entries, hows) if not h]
    return float_points(open_entries, domain, seed, rtol=rtol, n=n_float, n_exact=n_exact, shape=shape)


def _with_boundary(cov: dict, points) -> dict:
    """The drawn points' coverage widened by the boundary points evaluated (κ = 1 at μ = L is evidence too)."""
    out = {k: dict(v) for k, v in cov.items()}
    for p in points:
        for s, v in p.items():
            try:
                x = float(v)
            except (TypeError, ValueError):
                continue
            c = out.setdefault(str(s), {"min": x, "max": x, "distinct": 0})
            c["min"], c["max"] = min(c["min"], x), max(c["max"], x)
            c["distinct"] = min(1000, c["distinct"] + 1)
    return out


def _shape_note(entries: Sequence[Entry]) -> str:
    if len(entries) == 1:
        return "" if entries[0].label is None else " in its one entry"
    return f" in all {len(entries)} entries"


def float_points(entries: Sequence[Entry], domain: Domain, seed: int, *, rtol: float,
                 n: int | None, n_exact: int = 0, shape: str = "") -> Verdict:
    fns = [(e, compile_float(e.lhs, domain.symbols, complex_ok=True), compile_float(e.rhs, domain.symbols,
                                                                                   complex_ok=True))
           for e in entries]

    def worst(point) -> tuple[float, Entry | None]:
        best, which = float("-inf"), None
        for e, f_l, f_r in fns:
            r = relative_error(f_l(point), f_r(point))
            if r != r:  # nan: a non-finite entry makes the point unusable
                return float("nan"), e
            if r > best:
                best, which = r, e
        return best, which

    derived = {k: compile_float(e, domain.symbols) for k, e in getattr(domain, "derived", {}).items()}
    seen_derived: dict[str, set] = {k: set() for k in derived}

    def score(point):  # > 1 means the tolerance is exceeded
        for k, f in derived.items():  # κ = L/μ at every point evaluated: what the quantifier rule reads
            x = f(point)
            if x == x and len(seen_derived[k]) < 100000:
                seen_derived[k].add(x)
        return worst(point)[0] / rtol

    def confirm(p) -> Verdict | None:
        _, e = worst(p)
        assert e is not None
        hi = high_precision(e.lhs - e.rhs, p)
        scale = max(1.0, abs(float(high_precision(e.rhs, p))))
        f_l = compile_float(e.lhs, domain.symbols, complex_ok=True)
        f_r = compile_float(e.rhs, domain.symbols, complex_ok=True)
        if abs(float(hi)) / scale > rtol:
            return shrunk(refuted("float64 search + 50-digit confirmation",
                                  f"relative error {abs(float(hi)) / scale:.3g} > {rtol:g} (confirmed at 50 digits)",
                                  {**_entry_key(e.label), **_point(p), "lhs": f_l(p), "rhs": f_r(p)}, tolerance=rtol,
                                  domain=domain.describe()), e.lhs, "==", e.rhs, domain, rtol=rtol)
        return None

    def exact_score(p) -> float:  # the 50-digit relative error at p, over the tolerance
        _, e = worst(p)
        hi = high_precision(e.lhs - e.rhs, p)
        return abs(float(hi)) / max(1.0, abs(float(high_precision(e.rhs, p)))) / rtol

    corners = domain.boundary_points()
    corner_scores = []
    scores_ok = []  # which boundary points were evaluated (they count towards coverage, as drawn points do)
    resolved = 0  # boundary points where float64 disagreed but 50 digits agree (cancellation)
    for p in corners:
        s = score(p)
        scores_ok.append(s == s)
        if s == s:
            if s > 1.0:
                found = confirm(p)
                if found is not None:
                    return found
                s, resolved = exact_score(p), resolved + 1  # the reported error is the one that decided
            corner_scores.append(s)
    res = search(domain.floats(), score, fails=lambda s: s > 1.0, seed=seed, max_examples=n,
                 target_floor=ROUNDOFF_SCORE)
    if res.failure is not None:
        found = confirm(res.failure)
        if found is not None:
            return found
        return inconclusive("float64 search", "float64 disagreement not confirmed at 50 digits "
                            "(cancellation); tolerance cannot decide", point=_point(res.failure))
    finite = res.tried - res.nonfinite
    if finite < 10 and n_exact == 0:
        return inconclusive("float64 points", f"only {finite} finite evaluations", tried=res.tried)
    max_err = max([res.worst_score, *corner_scores, 0.0]) * rtol
    nb = len(corner_scores)
    why_few = ""
    if res.nonfinite:  # say why points asked for did not count (issue 29, item 2: "0 float64 points", no reason)
        why_few = (f" ({res.nonfinite} of {res.tried} drawn float64 points not counted: a side is not a finite real "
                   f"number there — a pole, an overflow, or a complex value)")
    v = holds(f"exact rationals ({n_exact}) + float64 ({finite}" + (f" + {nb} boundary" if nb else "") + ")",
                 f"{n_exact} rational points (exact or 50 digits) and {finite} float64 points"
                 + (f" + {nb} boundary points" if nb else "") + f"{shape}{why_few}; max rel. error {fmt_error(max_err)} "
                 f"≤ tol {rtol:g}" + (f" ({resolved} boundary point{'s' if resolved > 1 else ''} where float64 "
                                      f"disagreed, agreeing at 50 digits)" if resolved else ""), exact_points=n_exact, float_points=finite, boundary_points=nb,
                 max_error=max_err, tolerance=rtol, nonfinite=res.nonfinite, domain=domain.describe(),
                 coverage={**_with_boundary(res.coverage(domain.symbols), [p for p, sc in zip(corners, scores_ok) if sc]),
                           **{k: {"min": min(v), "max": max(v), "distinct": min(len(v), 1000)}
                              for k, v in seen_derived.items() if v}})
    return attach(v, CouldHaveFailed("search", f"any of the {n_exact} exact and {finite} float64 points (boundary "
                                               f"included) with relative error > {rtol:g}, confirmed at 50 digits, "
                                               f"would refute"))
