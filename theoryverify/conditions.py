"""The hypotheses a statement is conditioned on, and the parameters it quantifies over.

A paper's statement holds *under* hypotheses ("K ≥ Θ(1/ε)", "T < T0", "n ≥ 3").  A claim declares them as
:class:`Condition` predicates over a configuration (a mapping from parameter names to values), with the
constants chosen for Θ/O recorded.  (They are called conditions here so that they are not confused with the
Hypothesis testing library.)  The engine evaluates every condition on every configuration the evidence rests
on (:mod:`theoryverify.evidence`): a refutation whose evidence lies outside them is not an erratum, and a
pass whose evidence lies outside them is not a pass (:mod:`theoryverify.standards`).

A statement quantified over parameters ("for all n ≥ 3", "for every T < T0") declares what it ranges over
with :class:`Over`; "holds" then needs evidence at several values of each, spread over the range.

Evidence that does not depend on a parameter records it as :data:`ANY` (e.g. a supremum attained at the start
of every window, whatever ε ends it: ``fixed={"K": 4, "eps": ANY}``); a condition reading it is then satisfied
there — the author asserts the evidence holds for every value, admissible ones included.

Conditions are Python predicates written by the claim author (never parsed from text)::

    K_EPS = Condition("K ≥ c/ε", lambda c: c["K"] >= 1.0 / c["eps"], needs=("K", "eps"),
                      location="standing assumption, Sec. 3", constants={"c": 1.0})
    N_GE_3 = at_least("n", 3)
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, Sequence


#: the value of a parameter the evidence does not depend on (it holds for every value of it)
ANY = "any"


@dataclass(frozen=True)
class Condition:
    """One hypothesis of a statement: ``test(config)`` is true inside it.  ``needs``: the parameter names
    the test reads (a configuration without one of them cannot be checked against it)."""

    text: str
    test: Callable[[Mapping[str, Any]], bool] = field(compare=False, repr=False)
    needs: tuple[str, ...]
    location: str = ""
    constants: Mapping[str, float] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if not self.needs:
            raise ValueError(f"condition {self.text!r}: name the parameters it reads (needs=...)")

    def label(self) -> str:
        consts = ", ".join(f"{k} = {v:g}" if isinstance(v, (int, float)) else f"{k} = {v}"
                           for k, v in self.constants.items())
        return self.text + (f" ({consts})" if consts else "")

    def evaluate(self, config: Mapping[str, Any]) -> bool | None:
        """True/False inside/outside; None if the configuration lacks a needed parameter."""
        if any(name not in config for name in self.needs):
            return None
        if any(config[name] == ANY for name in self.needs):
            return True  # the evidence holds for every value of that parameter, admissible ones included
        try:
            return bool(self.test(config))
        except (TypeError, ValueError, ZeroDivisionError, ArithmeticError) as exc:
            raise ValueError(f"condition {self.text!r} could not be evaluated at {dict(config)}: {exc}") from exc

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "needs": list(self.needs), "location": self.location,
                "constants": dict(self.constants)}


def _cmp(name: str, op: str, bound: float, text: str | None, location: str) -> Condition:
    ops = {">=": (lambda a, b: a >= b, "≥"), ">": (lambda a, b: a > b, ">"),
           "<=": (lambda a, b: a <= b, "≤"), "<": (lambda a, b: a < b, "<")}
    fn, sym = ops[op]
    return Condition(text or f"{name} {sym} {bound:g}", lambda c: fn(float(c[name]), bound), (name,), location)


def at_least(name: str, bound: float, *, text: str | None = None, location: str = "") -> Condition:
    """The hypothesis ``name ≥ bound`` on a claim's configurations (``conditions=`` of ``ClaimSet.add``).

    >>> c = at_least("N", 2, location="Thm 1")
    >>> c.text, c.evaluate({"N": 3}), c.evaluate({"N": 1})
    ('N ≥ 2', True, False)
    """
    return _cmp(name, ">=", bound, text, location)


def above(name: str, bound: float, *, text: str | None = None, location: str = "") -> Condition:
    """The hypothesis ``name > bound``.

    >>> above("eta", 0).evaluate({"eta": 0.0})
    False
    """
    return _cmp(name, ">", bound, text, location)


def at_most(name: str, bound: float, *, text: str | None = None, location: str = "") -> Condition:
    """The hypothesis ``name ≤ bound``.

    >>> at_most("eta", 0.5, text="η ≤ 1/2").text
    'η ≤ 1/2'
    """
    return _cmp(name, "<=", bound, text, location)


def below(name: str, bound: float, *, text: str | None = None, location: str = "") -> Condition:
    """The hypothesis ``name < bound``.

    >>> below("k", 0.5).evaluate({"k": 0.25})
    True
    """
    return _cmp(name, "<", bound, text, location)


@dataclass(frozen=True)
class Over:
    """A parameter the statement quantifies over, with its admissible range [lo, hi] (hi may be inf).

    ``scale``: "linear" or "log" (how "spread over the range" is measured); ``integer`` for counts.

    An end may depend on other declared parameters: a short arithmetic expression in their names (numbers, names,
    ``+ - * / **``, parentheses; read without ``eval``), e.g. ``Over("n", lo="d", hi="4*d", integer=True)`` for
    n ∈ {d, …, 4d}.  :func:`theoryverify.settings` / :func:`theoryverify.check_over` then draw n inside [d, 4d] at
    each setting of d, and the quantifier rule measures n's span against its extent over the declared d."""

    name: str
    lo: float
    hi: float = math.inf
    scale: str = "linear"
    integer: bool = False
    text: str = ""

    def __post_init__(self) -> None:
        from .domains import real_bound  # SymPy-number ends (sp.pi) become floats; anything else: one line

        import sympy as sp

        from .ranges import bound_names  # an end in the other parameters ("4*d"): checked, kept as text

        for end in ("lo", "hi"):
            value = getattr(self, end)
            if isinstance(value, str) or (isinstance(value, sp.Basic) and value.free_symbols):
                text = value if isinstance(value, str) else str(value)
                names = bound_names(text, f"Over({self.name!r}): {end}")
                if self.name in names:
                    raise ValueError(f"Over({self.name!r}): {end} = {text!r} depends on {self.name} itself")
                object.__setattr__(self, end, text.strip())
            else:
                object.__setattr__(self, end, real_bound(value, f"Over({self.name!r}): {end}"))
        if self.scale not in ("linear", "log"):
            raise ValueError(f"Over({self.name!r}): scale must be 'linear' or 'log'")
        if not self.depends_on and not self.lo < self.hi:
            raise ValueError(f"Over({self.name!r}): need lo < hi")
        if self.scale == "log" and not isinstance(self.lo, str) and self.lo < 0:
            raise ValueError(f"Over({self.name!r}): a log-scale range needs lo >= 0")

    @property
    def depends_on(self) -> tuple[str, ...]:
        """The other parameters an end is written in (``()`` for a fixed range)."""
        from .ranges import bound_names
        return tuple(dict.fromkeys(n for e in (self.lo, self.hi) if isinstance(e, str) for n in bound_names(e, "")))

    def label(self) -> str:
        lo = self.lo if isinstance(self.lo, str) else f"{self.lo:g}"
        hi = self.hi if isinstance(self.hi, str) else "∞" if math.isinf(self.hi) else f"{self.hi:g}"
        return self.text or f"{self.name} ∈ [{lo}, {hi}]" + (" (integers)" if self.integer else "")

    def to_json(self) -> dict[str, Any]:
        hi = self.hi if isinstance(self.hi, str) or math.isfinite(self.hi) else "inf"
        return {"name": self.name, "lo": self.lo, "hi": hi,
                "scale": self.scale, "integer": self.integer, "text": self.label()}


@dataclass(frozen=True)
class Outside:
    """A configuration of the evidence that falls outside a condition (or cannot be checked against it)."""

    condition: Condition
    config: Mapping[str, Any]
    missing: bool = False  # the configuration lacks a needed parameter

    def describe(self) -> str:
        shown = ", ".join(f"{k} = {_short(self.config[k])}" for k in self.condition.needs if k in self.config)
        if self.missing:
            gone = [k for k in self.condition.needs if k not in self.config]
            return f"'{self.condition.label()}' cannot be checked: the evidence does not record {', '.join(gone)}"
        return f"'{self.condition.label()}' fails at {shown}"


def _short(v: Any) -> str:
    return f"{v:.4g}" if isinstance(v, float) else str(v)


def violations(conditions: Sequence[Condition], configs: Iterable[Mapping[str, Any]]) -> list[Outside]:
    """Every (condition, configuration) pair where the configuration is outside or cannot be checked."""
    out: list[Outside] = []
    for config in configs:
        for cond in conditions:
            ok = cond.evaluate(config)
            if ok is None:
                out.append(Outside(cond, config, missing=True))
            elif not ok:
                out.append(Outside(cond, config))
    return out
