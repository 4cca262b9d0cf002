"""Verdicts: what a check concludes about a claim, with its evidence.

The strength order is fixed (principle 4): ``proved`` (symbolic) > ``holds`` (exact rational
points and/or float64 points, with counts and max error) > ``inconclusive``.  ``refuted`` always
carries a concrete counterexample (every parameter value) or the fitted numbers that exclude the
claim.  ``error`` means the check itself broke; it is never a statement about the paper.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from typing import Any, Mapping


class Status(str, Enum):
    """A verdict's status: proved (symbolically), holds (on the evidence), refuted (with a counterexample),
    inconclusive (and why), or error (the check itself failed).

    >>> Status("refuted") is Status.REFUTED
    True
    """
    PROVED = "proved"
    HOLDS = "holds"
    REFUTED = "refuted"
    INCONCLUSIVE = "inconclusive"
    ERROR = "error"

    def __str__(self) -> str:  # pragma: no cover - trivial
        return self.value


#: joins the names of nested parts in a combined verdict's counterexample ("outer › inner").
PART_SEP = " › "

#: Statuses that mean "the statement is true as far as we can tell".
TRUE_STATUSES = frozenset({Status.PROVED, Status.HOLDS})


def plain(value: Any) -> Any:
    """Convert numbers (numpy, sympy, Fraction) and containers into JSON-friendly values."""
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, (bool, str)) or value is None:
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, Fraction):
        return str(value) if value.denominator != 1 else int(value)
    if hasattr(value, "is_Rational") and getattr(value, "is_Rational"):
        return str(value) if value.q != 1 else int(value.p)  # sympy Rational / Integer
    if hasattr(value, "tolist") and not isinstance(value, float):
        return plain(value.tolist())  # numpy array / scalar, torch tensor
    try:
        f = float(value)
    except (TypeError, ValueError):
        return str(value)
    return f if math.isfinite(f) else str(f)


@dataclass(frozen=True)
class Verdict:
    """The outcome of one check.

    ``method`` names the tier that decided (e.g. ``"symbolic: expand"``, ``"exact rationals (40) +
    float64 (200)"``); ``evidence`` is a one-line human summary; ``details`` holds the numbers
    behind it (points tried, max error, tolerance, fitted exponent and interval, ...).
    """

    status: Status
    method: str
    evidence: str
    counterexample: Mapping[str, Any] | None = None
    details: Mapping[str, Any] = field(default_factory=dict)
    seed: int | None = None
    runtime_s: float = 0.0

    def __post_init__(self) -> None:
        if self.status is Status.REFUTED and not self.counterexample:
            raise ValueError("a refuted verdict must carry a counterexample (or the fitted numbers)")

    @property
    def holds(self) -> bool:
        return self.status in TRUE_STATUSES

    def with_timing(self, seed: int | None, runtime_s: float) -> "Verdict":
        return replace(self, seed=seed, runtime_s=runtime_s)

    def to_json(self) -> dict[str, Any]:
        return {
            "status": self.status.value,
            "method": self.method,
            "evidence": self.evidence,
            "counterexample": plain(self.counterexample) if self.counterexample else None,
            "details": plain(self.details),
            "seed": self.seed,
            "runtime_s": round(self.runtime_s, 4),
        }


def proved(method: str, evidence: str, **details: Any) -> Verdict:
    """A symbolic proof: ``method`` names the algebra, ``evidence`` what it showed.

    >>> proved("sympy.simplify", "lhs - rhs simplifies to 0").status.value
    'proved'
    """
    return Verdict(Status.PROVED, method, evidence, details=details)


def holds(method: str, evidence: str, **details: Any) -> Verdict:
    """The statement holds on the evidence (numbers, a sweep), without a proof.

    >>> holds("simulation", "12 steps, as Theorem 1 gives").status.value
    'holds'
    """
    return Verdict(Status.HOLDS, method, evidence, details=details)


def refuted(method: str, evidence: str, counterexample: Mapping[str, Any], **details: Any) -> Verdict:
    """The statement is false: ``counterexample`` is where (every refutation carries one).

    >>> refuted("exact arithmetic", "lhs 3 != rhs 2", {"n": 1}).counterexample
    {'n': 1}
    """
    return Verdict(Status.REFUTED, method, evidence, counterexample=dict(counterexample), details=details)


def inconclusive(method: str, evidence: str, **details: Any) -> Verdict:
    """Neither shown nor refuted; ``evidence`` says why (too few points, one configuration, not yet checked …).

    >>> inconclusive("not yet checked", "no check written").status.value
    'inconclusive'
    """
    return Verdict(Status.INCONCLUSIVE, method, evidence, details=details)


def error(method: str, evidence: str, **details: Any) -> Verdict:
    """The check itself failed (a bug or a bad input of the claim), not the statement.

    >>> error("sweep", "constant='printed' needs predicted=...").status.value
    'error'
    """
    return Verdict(Status.ERROR, method, evidence, details=details)


def combine(parts: Mapping[str, Verdict], method: str = "all of") -> Verdict:
    """Conjunction of sub-verdicts: refuted if any part is refuted (its counterexample, labelled),
    else error/inconclusive if any is, else holds (proved only if every part is proved)."""
    items = list(parts.items())
    for order in (Status.REFUTED, Status.ERROR, Status.INCONCLUSIVE):
        bad = [(k, v) for k, v in items if v.status is order]
        if bad:
            name, v = bad[0]
            ce = None
            if order is Status.REFUTED:  # keep every label of nested parts: "outer › inner"
                inner = dict(v.counterexample or {})
                label = name + (PART_SEP + str(inner["part"]) if inner.get("part") else "")
                ce = {"part": label, **{k: x for k, x in inner.items() if k != "part"}}
            return Verdict(order, f"{method}: {name}: {v.method}", f"[{name}] {v.evidence}",
                           counterexample=ce, details={k: x.to_json() for k, x in items})
    status = Status.PROVED if all(v.status is Status.PROVED for _, v in items) else Status.HOLDS
    evidence = "; ".join(f"[{k}] {v.evidence}" for k, v in items)
    return Verdict(status, f"{method} {len(items)} parts", evidence,
                   details={k: v.to_json() for k, v in items})
