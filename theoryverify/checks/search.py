"""Counterexample search with Hypothesis: ``target()`` pushes towards the worst point, and a
failing point is shrunk before it is reported.

Reproducibility: recent Hypothesis releases seed generation with numeric and string literals collected from
every *local* module loaded in the process, so the examples drawn for one claim would depend on which other
modules happen to be imported (one paper or four; a pytest session or a report run).  :func:`search` switches
that pool off while it runs (:func:`_without_local_constants`), so the same seed draws the same examples
whatever else is loaded."""
from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import seed as hseed
from hypothesis import strategies as st
from hypothesis import target


class _Found(Exception):
    pass


@dataclass
class SearchResult:
    tried: int = 0
    nonfinite: int = 0
    worst: Any = None
    worst_score: float = -math.inf
    failure: Any = None  # the shrunk failing example, if any
    failure_score: float | None = None
    top: list[tuple[float, Any]] = field(default_factory=list)  # a few of the worst points
    seen: dict[Any, list] = field(default_factory=dict)  # per coordinate of dict-valued draws: [min, max, values]

    def _record(self, x: Any, score: float, keep: int = 5) -> None:
        self.tried += 1
        if isinstance(x, dict):
            for k, v in x.items():
                if isinstance(v, (int, float)) and math.isfinite(v):
                    c = self.seen.setdefault(k, [v, v, set()])
                    c[0], c[1] = min(c[0], v), max(c[1], v)
                    if len(c[2]) < 1000:
                        c[2].add(v)
        if not math.isfinite(score):
            self.nonfinite += 1
            return
        if score > self.worst_score:
            self.worst, self.worst_score = x, score
        self.top.append((score, x))
        self.top.sort(key=lambda t: -t[0])
        del self.top[keep:]


    def coverage(self, symbols=None) -> dict[str, dict]:
        """What the drawn points covered, per coordinate: min, max and the number of distinct values (capped
        at 1000) — read by the quantifier rule (:mod:`theoryverify.standards`)."""
        keys = list(symbols) if symbols is not None else list(self.seen)
        return {str(k): {"min": self.seen[k][0], "max": self.seen[k][1], "distinct": len(self.seen[k][2])}
                for k in keys if k in self.seen}


@contextmanager
def _without_local_constants():
    """Hypothesis's pool of literals from loaded local modules, emptied for the duration (a private API:
    if it moves, the search still runs, only without this guarantee)."""
    try:
        from hypothesis.internal.conjecture import providers as P
        original, cache = P._get_local_constants, P.CONSTANTS_CACHE
        empty = P.Constants()
    except (ImportError, AttributeError):  # pragma: no cover - another Hypothesis layout
        yield
        return
    cache.cache.clear()
    P._get_local_constants = lambda: empty
    try:
        yield
    finally:
        P._get_local_constants = original
        cache.cache.clear()


def default_examples() -> int:
    """The active Hypothesis profile's ``max_examples`` (ci / thorough / default)."""
    return settings.default.max_examples


def search(strategy: st.SearchStrategy, score: Callable[[Any], float], *, fails: Callable[[float], bool],
           seed: int, max_examples: int | None = None, label: str = "badness") -> SearchResult:
    """Run ``score`` over examples of ``strategy`` (maximising it with ``target``) and stop at the
    first example with ``fails(score)``, shrunk by Hypothesis.  Deterministic given ``seed``."""
    result = SearchResult()
    n = max_examples or default_examples()

    @settings(max_examples=n, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck),
              phases=[Phase.explicit, Phase.generate, Phase.target, Phase.shrink])
    @given(strategy)
    def probe(x: Any) -> None:
        s = float(score(x))
        result._record(x, s)
        if math.isfinite(s):
            target(max(min(s, 1e300), -1e300), label=label)
            if fails(s):
                result.failure, result.failure_score = x, s
                raise _Found
    try:
        with _without_local_constants():
            hseed(seed)(probe)()
    except _Found:
        pass
    except BaseExceptionGroup as group:  # pragma: no cover - several distinct failures
        if not group.subgroup(_Found):
            raise
    return result


def examples(strategy: st.SearchStrategy, seed: int, n: int) -> list[Any]:
    """``n`` examples of ``strategy`` (generation only, no shrinking), deterministic given ``seed`` and
    independent of what else is imported (see the module docstring)."""
    out: list[Any] = []

    @settings(max_examples=n, deadline=None, database=None, derandomize=False,
              suppress_health_check=list(HealthCheck), phases=[Phase.generate])
    @given(strategy)
    def collect(x: Any) -> None:
        out.append(x)
    with _without_local_constants():
        hseed(seed)(collect)()
    return out
