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
from hypothesis import strategies as st

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
