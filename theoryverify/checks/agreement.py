"""Agreement of two float64 computations of the same quantity over drawn parameters.

Used for autograd cross-checks (SymPy-derived gradient vs torch autograd of an independent
torch model) and for numeric identities between implementations.  Both sides may be scalars, arrays,
tensors, (nested) sequences or mappings: their structure is compared first (a shape or key mismatch is
refuted with both shapes, :mod:`theoryverify.checks.containers`), then every entry.  The error measure is
max |a − b| / max(1, |b|) over all entries; the worst case is searched with ``target()`` and a failing
draw is shrunk.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np
import sympy as sp
from hypothesis import strategies as st

from ..conditions import Over
from ..domains import Domain
from ..roundoff import fmt_error
from ..evidence_types import CouldHaveFailed, attach
from ..verdicts import Verdict, holds, inconclusive, plain, refuted
from .containers import ShapeMismatch, pair_entries
from .search import ROUNDOFF_SCORE, search


def max_relative_error(a: Any, b: Any) -> float:
    """max |a − b| / max(1, |b|) over every entry (structures compared first: ``ShapeMismatch`` when they
    differ, ``TypeError`` for what cannot be compared); nan if an entry is not finite."""
    entries = pair_entries(a, b, symbolic=False)
    if not entries:
        return 0.0
    x = np.asarray([complex(e.lhs) for e in entries])
    y = np.asarray([complex(e.rhs) for e in entries])
    if not (np.all(np.isfinite(x)) and np.all(np.isfinite(y))):
        return float("nan")
    return float(np.max(np.abs(x - y) / np.maximum(1.0, np.abs(y))))


def check_agreement(derived: Callable[[Any], Any], reference: Callable[[Any], Any],
                    strategy: "st.SearchStrategy | Domain", seed: int, *, rtol: float = 1e-10,
                    n: int | None = None, names: tuple[str, str] = ("derived", "autograd"),
                    describe: Callable[[Any], dict] | None = None) -> Verdict:
    """``derived(x) ≈ reference(x)`` within ``rtol`` for every drawn ``x``: refuted at the first draw (shrunk)
    where they differ, holds after ``n`` draws (Hypothesis' default when None) with the largest error found.

    - ``strategy``: what ``x`` is.  A :class:`~theoryverify.domains.Domain` draws its variables, and ``x`` is the
      point as the paper names it (:meth:`Domain.named`): ``{"X": array (3, 2), "w": array (2,), "eta": float}``
      for ``tv.MatrixVar("X", (3, 2))``, ``tv.VectorVar("w", 2)``, ``tv.LogUniform(eta, …)`` — the settings a
      counterexample then names.  Any Hypothesis strategy works too (``tv.strategies.arrays((k,))``...).
    - ``derived``, ``reference``: functions of ``x`` returning the two computations — a number, an array or
      tensor, or a (nested) sequence or mapping of them; their structure (shapes, keys) must match, then every
      entry within ``rtol`` in max |a − b| / max(1, |b|).  ``tv.evaluate(display, x)`` is a printed display at
      a named point (a matrix display as an array).
    - ``names``: what the two sides are called in the verdict (``("derived", "autograd")``).
    - ``describe``: ``x`` → dict, the counterexample's settings (default: the named point for a Domain, else
      ``{"input": x}``); both sides' values are added.

    >>> import numpy as np, sympy as sp, theoryverify as tv
    >>> X, w = tv.MatrixVar("X", (3, 2)), tv.VectorVar("w", 2)
    >>> printed = X.matrix.T * X.matrix * w.vector
    >>> d = tv.Domain([X, w])
    >>> tv.check_agreement(lambda v: tv.evaluate(printed, v), lambda v: v["X"].T @ v["X"] @ v["w"], d, 0,
    ...                    n=20).status.value
    'holds'
    >>> v = tv.check_agreement(lambda v: tv.evaluate(2 * printed, v), lambda v: v["X"].T @ v["X"] @ v["w"], d, 0,
    ...                        n=20)
    >>> v.status.value, sorted(v.counterexample)
    ('refuted', ['X', 'autograd', 'derived', 'w'])
    """
    from ..domains import Domain

    if isinstance(strategy, Domain):
        domain = strategy
        strategy = domain.floats().map(domain.named)
        if describe is None:
            describe = lambda x: {k: plain(v) for k, v in x.items()}  # noqa: E731 - the settings by name
    elif not isinstance(strategy, st.SearchStrategy):
        raise TypeError(f"check_agreement draws from a tv.Domain or a Hypothesis strategy, "
                        f"not a {type(strategy).__name__}")
    mismatch: list[tuple[Any, ShapeMismatch]] = []

    def score(x):
        try:
            return max_relative_error(derived(x), reference(x)) / rtol
        except ShapeMismatch as exc:  # structure differs: a failure at any draw
            mismatch.append((x, exc))
            return 1e300

    res = search(strategy, score, fails=lambda s: s > 1.0, seed=seed, max_examples=n, target_floor=ROUNDOFF_SCORE)
    if mismatch:
        x, exc = mismatch[0]
        ce = dict(describe(x)) if describe else {"input": plain(x)}
        side = {"lhs": names[0], "rhs": names[1]}
        ce.update({side.get(k[:3], k[:3]) + k[3:] if k[:3] in side else k: v for k, v in exc.counterexample.items()})
        return refuted(f"{names[0]} vs {names[1]}: shape comparison",
                       exc.text.replace("lhs", names[0]).replace("rhs", names[1]), ce, tolerance=rtol)
    if res.failure is not None:
        x = res.failure
        ce = dict(describe(x)) if describe else {"input": plain(x)}
        ce[names[0]] = plain(derived(x))
        ce[names[1]] = plain(reference(x))
        return refuted(f"{names[0]} vs {names[1]}, float64",
                       f"relative error {res.failure_score * rtol:.3g} > {rtol:g}", ce, tolerance=rtol,
                       **({"shrinking": f"stopped after {res.shrink_steps} steps (the step budget)"}
                          if res.shrink_cut else {}))
    finite = res.tried - res.nonfinite
    if finite < 5:
        return inconclusive("float64 agreement", f"only {finite} finite comparisons", tried=res.tried)
    max_err = max(res.worst_score, 0.0) * rtol
    v = holds(f"{names[0]} vs {names[1]}, float64 ({finite} draws)",
              f"{finite} drawn points; max rel. error {fmt_error(max_err)} ≤ tol {rtol:g}",
              float_points=finite, max_error=max_err, tolerance=rtol, coverage=res.coverage())
    return attach(v, CouldHaveFailed("search", f"a relative error > {rtol:g} between {names[0]} and {names[1]} "
                                               f"at any of the {finite} drawn points would refute"))


def _domain_at(domain: Any, config: dict, what: str) -> "Domain":
    """One setting's domain: ``domain`` itself, or ``domain(config)`` (a ValueError naming what it returned)."""
    from ..domains import Domain, _array_name

    got = domain(dict(config)) if callable(domain) and not isinstance(domain, Domain) else domain
    if not isinstance(got, Domain):
        raise ValueError(f"{what}: the domain must be a tv.Domain or a function of the setting returning one, "
                         f"got {type(got).__name__}")
    names = set()
    for v in got.variables:
        name = _array_name(v)
        names |= {name} if name else {str(s) for s in v.symbols}
    clash = sorted(names & set(config))
    if clash:
        raise ValueError(f"{what}: the setting and its domain both name {', '.join(clash)}")
    return got


def check_agreement_over(over: Any, derived: Callable[[Any], Any], reference: Callable[[Any], Any], domain: Any,
                         seed: int, *, settings_n: int = 3, draws: int = 2, rtol: float = 1e-10,
                         n: int | None = None, names: tuple[str, str] = ("derived", "autograd")) -> Verdict:
    """:func:`check_agreement` at every setting of the declared ranges ``over``, in one call: the settings are
    ``tv.settings(over, seed, n=settings_n, draws=draws)`` and the verdicts are combined by
    :func:`theoryverify.check_over` (the refuting setting named, the settings after it not run, each setting
    recorded as a configuration, so the quantifier and span rules read what ran) — as
    :func:`theoryverify.check_mc_gradient_over` does for a Monte Carlo gradient.

    - ``domain``: a :class:`~theoryverify.domains.Domain`, or ``domain(config)`` → the Domain of one setting (a
      ``tv.MatrixVar("X", (config["n"], config["d"]))`` for each shape), whose points are drawn; or None: the
      setting is the whole point, and the two sides are compared once there (a closed form against a
      simulation at each setting, ``rtol=0`` for an exact count);
    - ``derived(x)``, ``reference(x)``: as :func:`check_agreement`, ``x`` being the drawn point by name with the
      setting's values added (``x["X"]`` an array, ``x["n"]`` the setting's n; a name both in the setting and in
      its domain is an error).  A side that returns a SymPy expression or matrix — a printed display built in
      this setting's shapes — is evaluated at ``x`` by :func:`theoryverify.evaluate`.  ``rtol``, ``n`` (draws per
      setting) and ``names`` as :func:`check_agreement`.

    >>> import theoryverify as tv
    >>> over = [tv.Over("n", 1, 4, integer=True), tv.Over("d", 1, 3, integer=True)]
    >>> shape = lambda c: tv.Domain([tv.MatrixVar("X", (c["n"], c["d"])), tv.VectorVar("w", c["d"])])
    >>> def printed(x):                          # the display Xᵀ X w / n, in this setting's shapes
    ...     X, w = tv.MatrixVar("X", (x["n"], x["d"])).matrix, tv.VectorVar("w", x["d"]).vector
    ...     return X.T * X * w / x["n"]
    >>> numpy_side = lambda x: x["X"].T @ x["X"] @ x["w"] / x["n"]
    >>> v = tv.check_agreement_over(over, printed, numpy_side, shape, seed=0, n=10)
    >>> v.status.value, len(v.details["configurations"])
    ('holds', 10)
    >>> v = tv.check_agreement_over(over, printed, lambda x: x["X"].T @ x["X"] @ x["w"], shape, seed=0, n=10)
    >>> v.status.value, v.counterexample["part"]          # no 1/n: refuted at the first setting with n ≥ 2
    ('refuted', 'n=4, d=1')
    >>> halvings = lambda c: sum(1 for k in range(64) if c["N"] >> k)    # a count, simulated at each setting
    >>> import math
    >>> N = [tv.Over("N", 1, 10**6, scale="log", integer=True)]
    >>> tv.check_agreement_over(N, lambda c: math.floor(math.log2(c["N"])) + 1, halvings, None, 0,
    ...                         rtol=0).status.value
    'holds'
    >>> v = tv.check_agreement_over(N, lambda c: math.ceil(math.log2(c["N"])), halvings, None, 0, rtol=0)
    >>> v.status.value, v.counterexample["part"], v.counterexample["derived"], v.counterexample["autograd"]
    ('refuted', 'N=1', 0, 1)
    """
    from ..ranges import check_over
    from ..verdicts import error

    from ..displays import at_setting, domain_with

    def side(fn: Callable, x: dict, dom: Any = None) -> Any:
        got = at_setting(fn, x, dom)
        if isinstance(got, (sp.Basic, sp.MatrixBase)):
            from ..numeric import evaluate
            return evaluate(got, x)
        return got

    def once(config: dict) -> Verdict:
        a, b = side(derived, dict(config)), side(reference, dict(config))
        try:
            err = max_relative_error(a, b)
        except ShapeMismatch as exc:
            return refuted(f"{names[0]} vs {names[1]}: shape comparison",
                           exc.text.replace("lhs", names[0]).replace("rhs", names[1]), {**config}, tolerance=rtol)
        if not err <= rtol:  # nan (a side not finite) included
            return refuted(f"{names[0]} vs {names[1]} at the setting",
                           f"relative error {err:.3g} > {rtol:g}" if err == err else "a side is not finite",
                           {**plain(config), names[0]: plain(a), names[1]: plain(b)}, tolerance=rtol)
        return holds(f"{names[0]} vs {names[1]} at the setting", f"relative error {fmt_error(err)} ≤ tol {rtol:g}",
                     max_error=err, tolerance=rtol)

    def at(config: dict, seed: int) -> Verdict:
        try:
            dom = domain_with(domain, config, (derived, reference), "check_agreement_over")
            if dom is None:
                return once(config)
            dom = _domain_at(dom, config, "check_agreement_over")
        except ValueError as exc:
            return error("agreement over declared ranges", str(exc))
        return check_agreement(lambda x: side(derived, {**config, **x}, dom),
                               lambda x: side(reference, {**config, **x}, dom), dom, seed, rtol=rtol, n=n, names=names)

    return check_over([over] if isinstance(over, Over) else list(over), at, seed, n=settings_n, draws=draws)


_ROUNDINGS = ("ceil", "floor", "round")


def check_count_over(over: Any, formula: Any, count: Callable[[Any], Any], seed: int, *, rounding: str = "ceil",
                     fixed: "dict | None" = None, settings_n: int = 4, draws: int = 8,
                     names: tuple[str, str] = ("printed", "simulated")) -> Verdict:
    """A count (steps, iterations, samples) a simulation takes against the printed formula that gives it, at every
    setting of the declared ranges ``over``, in one call: exact, ``count(setting) == ⌈formula⌉`` (``rounding``:
    ``"ceil"``, ``"floor"`` or ``"round"``), no tolerance.  ``formula``: ``tv.printed(display).rhs``, a SymPy
    expression in the parameters' names, or a function of the setting; ``count(setting)``: a whole number.  A
    formula within round-off (1e-9 relative) of the point where its rounding jumps is not decided by float
    arithmetic: there both neighbouring counts are accepted, and the evidence says so.  The settings and their
    combination are :func:`theoryverify.check_over`'s (``settings_n``, ``draws``); ``fixed``: values held at every
    setting (the formula's other symbols, ``{"e_0": 1}``), given to both sides; the first refuting setting is the
    counterexample, with the formula's value, its rounding and the count.

    >>> import math, sympy as sp, theoryverify as tv
    >>> N = [tv.Over("N", 1, 10**6, scale="log", integer=True)]
    >>> halvings = lambda c: sum(1 for k in range(64) if c["N"] >> k)   # bits of N, counted
    >>> tv.check_count_over(N, sp.log(sp.Symbol("N"), 2) + 1, halvings, 0, rounding="floor").status.value
    'holds'
    >>> v = tv.check_count_over(N, sp.log(sp.Symbol("N"), 2), halvings, 0, rounding="floor")   # the + 1 dropped
    >>> v.status.value, v.counterexample["part"], v.counterexample["simulated"], v.counterexample["rounded"]
    ('refuted', 'N=1', 1, 0)
    """
    import math

    from ..displays import at_setting
    from ..numeric import evaluate
    from ..ranges import check_over
    from ..verdicts import error

    if rounding not in _ROUNDINGS:
        raise ValueError(f"check_count_over: rounding is one of {', '.join(_ROUNDINGS)}, got {rounding!r}")
    over = [over] if isinstance(over, Over) else list(over)
    held = dict(fixed or {})
    both = sorted(set(held) & {o.name for o in over})
    if both:
        raise ValueError(f"check_count_over: {', '.join(both)} both declared and fixed")

    def at(config: dict) -> Verdict:
        config = {**config, **held}
        value = at_setting(formula, config)
        if isinstance(value, (sp.Basic, sp.MatrixBase)):
            value = evaluate(value, config)
        value, got = float(value), count(dict(config))
        if isinstance(got, float) and got.is_integer():
            got = int(got)
        if not isinstance(got, (int, np.integer)) or isinstance(got, bool):
            return error("count against the printed formula", f"the {names[1]} count is not a whole number: {got!r}")
        got = int(got)
        what = f"{names[1]} count vs {rounding}({names[0]}) at the setting"
        if not math.isfinite(value):
            return refuted(what, f"the {names[0]} formula is not finite ({value})", {**plain(config), names[0]: value,
                                                                                     names[1]: got}, tolerance=0)
        target = {"ceil": math.ceil, "floor": math.floor, "round": round}[rounding](value)
        jump = round(value - 0.5) + 0.5 if rounding == "round" else round(value)  # where the rounding jumps
        allowed = {target}
        at_jump = abs(value - jump) <= 1e-9 * max(1.0, abs(value))
        if at_jump:
            allowed = {math.floor(jump), math.floor(jump) + 1} if rounding == "round" else \
                {int(jump), int(jump) + 1} if rounding == "ceil" else {int(jump) - 1, int(jump)}
        if got not in allowed:
            return refuted(what, f"{names[1]} {got} != {rounding}({value:.6g}) = {target}",
                           {**plain(config), names[0]: value, "rounded": target, names[1]: got}, tolerance=0)
        note = f" ({names[0]} {value:.12g} is within round-off of a jump: {sorted(allowed)} accepted)" if at_jump else ""
        return holds(what, f"{names[1]} {got} = {rounding}({value:.6g}){note}", max_error=0.0, tolerance=0)

    return check_over(over, at, seed, n=settings_n, draws=draws)
