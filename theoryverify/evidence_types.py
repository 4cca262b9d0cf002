"""Typed evidence: what a verdict rests on, as small objects the checks build and the standards read.

The standards used to find a verdict's evidence by key conventions on its ``details`` (``"sweep"``, ``"fixed"``,
``"configurations"``, ``"coverage"``, ...), so a check that named a key differently fell silently outside them.
Here each kind of evidence is a frozen dataclass:

- :class:`Sweep` — one swept parameter: its grid, the span in decades, what was held fixed, the statement's
  parameters that vary along it (``declared``);
- :class:`Fit` — a fitted law: its coefficient (exponent or constant), interval, prediction and sub-windows;
- :class:`Configurations` — explicit configurations (parameter → value) the verdict rests on;
- :class:`Counterexample` — a refutation's point;
- :class:`Coverage` — per parameter, what a search covered (values, a range, or ``"symbolic"``);
- :class:`Proof` — an identity proved by algebra, naming the algebra (a tautology is *proved*, never *holds*);
- :class:`Sampling` — a Monte-Carlo test: sample size, test, correction, tail diagnostic;
- :class:`CouldHaveFailed` — why the check could have failed: a planted twin that fails, the power of the test,
  or the reason it is true by construction.

Two more records are *references*, not evidence (no verdict rests on them, so they never count towards the
standards): :class:`Threshold` — a value the claim is about (τ = 0.05 in "α_c ≤ τ"), and :class:`Reported` — the
paper's reported values a reproduction is compared with.  The report's figures draw both (:func:`references`
collects them), and a figure that omits one is a problem (:func:`theoryverify.report.plots.problems`).

Checks attach them with :func:`attach`.  They serialise to the same JSON ``details`` as before: a sweep, a fit,
configurations and coverage into their conventional keys (one form, never two that could disagree), the other
kinds under ``details["typed_evidence"]``, so reports and older readers stay correct.  :func:`read` gives a
verdict level's evidence as objects, whichever way a check recorded it — the one reading path of
:mod:`theoryverify.evidence` and :mod:`theoryverify.standards`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, fields, replace
from typing import Any, Mapping, Sequence

from .verdicts import Verdict, plain

#: the details key of the typed record
KEY = "typed_evidence"

#: the kinds of could-have-failed records
FAIL_KINDS = ("planted twin", "test power", "search", "by construction")


def _decades(values: Sequence[Any], scale: str) -> float | None:
    xs = [float(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)]
    if len(xs) < 2:
        return 0.0 if xs else None
    if scale == "log":
        return (max(xs) - min(xs)) / math.log(10)
    if scale == "log10":
        return max(xs) - min(xs)
    if min(xs) <= 0:
        return None
    return math.log10(max(xs) / min(xs))


class _Typed:
    kind: str = ""

    def to_json(self) -> dict[str, Any]:
        return plain({f.name: getattr(self, f.name) for f in fields(self)})  # type: ignore[arg-type]

    @classmethod
    def from_json(cls, data: Mapping[str, Any]):
        names = {f.name for f in fields(cls)}  # type: ignore[arg-type]
        return cls(**{k: v for k, v in dict(data).items() if k in names})


@dataclass(frozen=True)
class Sweep(_Typed):
    parameter: str
    values: tuple
    span_decades: float | None = None
    fixed: Mapping[str, Any] = field(default_factory=dict)
    declared: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    scale: str = "linear"
    kind = "sweep"

    def configurations(self, inherited: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
        """One configuration per grid point: the fixed parameters, the swept one, and the declared ones."""
        base = {**dict(inherited or {}), **dict(self.fixed)}
        return [{**base, self.parameter: x, **{k: v[i] for k, v in self.declared.items() if i < len(v)}}
                for i, x in enumerate(self.values)]

    @classmethod
    def from_details(cls, sweep: Mapping[str, Any]) -> "Sweep":
        scale = str(sweep.get("scale") or "linear")
        values = tuple(sweep.get("x") or ())
        return cls(str(sweep.get("param") or ""), values, _decades(values, scale), dict(sweep.get("fixed") or {}),
                   dict(sweep.get("declared") or {}), scale)


@dataclass(frozen=True)
class Fit(_Typed):
    law: str
    coefficient: float | None
    interval: tuple | None = None
    predicted: float | None = None
    margin: float | None = None
    subwindows: tuple | None = None
    family: str | None = None
    kind = "fit"

    @classmethod
    def from_details(cls, fit: Mapping[str, Any]) -> "Fit":
        ci = fit.get("ci")
        sub = fit.get("subwindow")
        return cls(str(fit.get("law") or ""), fit.get("exponent"), tuple(ci) if ci else None,
                   fit.get("predicted_exponent"), fit.get("margin"), tuple(sub) if sub else None, fit.get("family"))


@dataclass(frozen=True)
class Configurations(_Typed):
    configs: tuple
    kind = "configurations"


@dataclass(frozen=True)
class Counterexample(_Typed):
    point: Mapping[str, Any]
    kind = "counterexample"


@dataclass(frozen=True)
class Coverage(_Typed):
    """What a search covered, per parameter: ``{"min", "max", "distinct"}``, ``{"values": [...]}`` or
    ``"symbolic"`` (a proof over its whole domain) — read by the quantifier rule.

    >>> import theoryverify as tv
    >>> v = tv.attach(tv.holds("search", "agrees"), tv.Coverage({"L": {"min": 1e-3, "max": 1e5, "distinct": 80}}))
    >>> v.details["coverage"]["L"]["max"]
    100000.0
    """

    parameters: Mapping[str, Any]
    kind = "coverage"


@dataclass(frozen=True)
class Proof(_Typed):
    """A symbolic proof: ``algebra`` names what showed it, ``over`` the symbols it holds for.

    >>> import theoryverify as tv
    >>> tv.attach(tv.proved("symbolic: expand", "0"), tv.Proof("SymPy expand", ("x",))).details["typed_evidence"]["attached"]
    ['proof']
    """

    algebra: str
    over: tuple = ()
    kind = "proof"


@dataclass(frozen=True)
class Sampling(_Typed):
    """A Monte-Carlo test: ``n`` samples, the ``test`` used, its multiplicity ``correction`` and ``confidence``.

    >>> import theoryverify as tv
    >>> tv.Sampling(n=10000, test="t-test", confidence=0.99).kind
    'sampling'
    """

    n: Any
    test: str
    correction: str | None = None
    confidence: float | None = None
    tail: Mapping[str, Any] | None = None
    kind = "sampling"


@dataclass(frozen=True)
class CouldHaveFailed(_Typed):
    """How the check could have failed: ``how`` is one of :data:`FAIL_KINDS`; ``detail`` says it in words (the
    planted twin and how it fails, the smallest error the test would catch, or why it is true by construction).

    >>> import theoryverify as tv
    >>> v = tv.attach(tv.holds("search", "agrees"), tv.CouldHaveFailed("search", "any point off by > 1e-12"))
    >>> v.details["typed_evidence"]["could_have_failed"]
    {'how': 'search', 'detail': 'any point off by > 1e-12'}
    """

    how: str
    detail: str
    kind = "could_have_failed"

    def __post_init__(self) -> None:
        if self.how not in FAIL_KINDS:
            raise ValueError(f"could-have-failed: how must be one of {FAIL_KINDS}, got {self.how!r}")

    def text(self) -> str:
        return f"{self.how}: {self.detail}"


def _finite(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


#: the figures of a row (the ``details`` key each is drawn from)
FIGURES = ("sweep", "trajectory", "curve")


@dataclass(frozen=True)
class Threshold(_Typed):
    """A value the claim is about, drawn as a labelled line: ``axis`` "y" a horizontal line at ``value`` (a level
    such as τ in "α_c ≤ τ"), "x" a vertical one (a time or size such as T_1); ``figure`` names the figure it
    belongs on (one of :data:`FIGURES`; None: every figure of the row)."""

    value: float
    label: str
    axis: str = "y"
    figure: str | None = None
    kind = "threshold"

    def __post_init__(self) -> None:
        if not _finite(self.value):
            raise ValueError(f"threshold: value must be a finite number, got {self.value!r}")
        if self.axis not in ("x", "y"):
            raise ValueError(f"threshold: axis must be 'x' or 'y', got {self.axis!r}")
        if self.figure is not None and self.figure not in FIGURES:
            raise ValueError(f"threshold: figure must be one of {FIGURES} or None, got {self.figure!r}")


@dataclass(frozen=True)
class Reported(_Typed):
    """The paper's reported values, as (x, y) points, and where it reports them (``source``: "Fig. 1(a)",
    "Table 3", "Sec. 6 prose"); drawn over a reproduction's measurement."""

    points: tuple
    source: str
    figure: str | None = None
    kind = "reported"

    def __post_init__(self) -> None:
        pts = tuple(tuple(p) for p in self.points)
        if not pts or any(len(p) != 2 or not all(_finite(v) for v in p) for p in pts):
            raise ValueError(f"reported: points must be (x, y) pairs of finite numbers, got {self.points!r}")
        if self.figure is not None and self.figure not in FIGURES:
            raise ValueError(f"reported: figure must be one of {FIGURES} or None, got {self.figure!r}")
        object.__setattr__(self, "points", pts)


#: reference kinds (not evidence) and the list in the typed record that holds them
REFERENCES = {"threshold": "thresholds", "reported": "reported"}


def _spec_thresholds(spec: Mapping[str, Any]) -> list[dict[str, Any]]:
    raw = spec.get("thresholds") or ([spec["threshold"]] if spec.get("threshold") is not None else [])
    out = []
    for t in raw if isinstance(raw, (list, tuple)) else [raw]:
        if isinstance(t, Mapping) and _finite(t.get("value")):
            out.append({"value": float(t["value"]), "label": t.get("label"), "axis": t.get("axis") or "y"})
        elif _finite(t):
            out.append({"value": float(t), "label": None, "axis": "y"})
    return out


def _spec_reported(spec: Mapping[str, Any]) -> list[dict[str, Any]]:
    out = []
    pts = [tuple(p) for p in spec.get("paper_points") or [] if isinstance(p, (list, tuple)) and len(p) == 2
           and all(_finite(v) for v in p)]
    if pts:
        out.append({"points": pts, "source": None})
    rep = spec.get("reported")
    for r in (rep if isinstance(rep, (list, tuple)) else [rep] if rep else []):
        if isinstance(r, Mapping):
            pts = [tuple(p) for p in r.get("points") or [] if isinstance(p, (list, tuple)) and len(p) == 2
                   and all(_finite(v) for v in p)]
            if pts:
                out.append({"points": pts, "source": r.get("source")})
    return out


def references(details: Mapping[str, Any], figure: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The thresholds ({"value", "label", "axis"}) and reported values ({"points", "source"}) that the row's
    ``figure`` (one of :data:`FIGURES`) must draw: those its own record names (``details[figure]["thresholds"]``,
    ``["threshold"]``, ``["paper_points"]``, ``["reported"]``) and the typed ones for that figure or for every
    figure."""
    spec = details.get(figure)
    spec = spec if isinstance(spec, Mapping) else {}
    ths, reps = _spec_thresholds(spec), _spec_reported(spec)
    record = details.get(KEY)
    record = record if isinstance(record, Mapping) else {}
    for data in record.get("thresholds") or []:
        try:
            t = Threshold.from_json(data)
        except (TypeError, ValueError):
            continue
        if t.figure in (None, figure):
            ths.append({"value": float(t.value), "label": t.label, "axis": t.axis})
    for data in record.get("reported") or []:
        try:
            r = Reported.from_json(data)
        except (TypeError, ValueError):
            continue
        if r.figure in (None, figure):
            reps.append({"points": list(r.points), "source": r.source})
    return ths, reps


TYPES = {t.kind: t for t in (Sweep, Fit, Configurations, Counterexample, Coverage, Proof, Sampling, CouldHaveFailed)}


#: kinds serialised into the conventional keys of ``details`` (the one JSON form that reports and older readers
#: know); the others live under ``details["typed_evidence"]``
CONVENTIONAL = {"sweep": "sweep", "fit": "fit", "configurations": "configurations", "coverage": "coverage"}


def _conventional(item: _Typed, old: Mapping[str, Any] | None) -> Any:
    old = dict(old or {}) if isinstance(old, Mapping) else {}
    if isinstance(item, Sweep):
        out = {**old, "param": item.parameter, "x": list(item.values)}
        if item.fixed:
            out["fixed"] = {**dict(old.get("fixed") or {}), **dict(item.fixed)}
        if item.declared:
            out["declared"] = {**dict(old.get("declared") or {}), **{k: list(v) for k, v in item.declared.items()}}
        if item.scale != "linear":
            out["scale"] = item.scale
        return plain(out)
    if isinstance(item, Fit):
        new = {"law": item.law, "exponent": item.coefficient, "ci": item.interval, "predicted_exponent": item.predicted,
               "margin": item.margin, "subwindow": item.subwindows, "family": item.family}
        return plain({**old, **{k: v for k, v in new.items() if v is not None}})
    if isinstance(item, Configurations):
        return plain([dict(c) for c in item.configs])
    if isinstance(item, Coverage):
        return plain({**old, **dict(item.parameters)})
    raise TypeError(type(item).__name__)


def attach(verdict: Verdict, *items: _Typed) -> Verdict:
    """``verdict`` with ``items`` recorded: sweeps, fits, configurations and coverage in their conventional keys
    (merged with what is there), thresholds and reported values appended to the lists ``"thresholds"`` and
    ``"reported"`` of ``details["typed_evidence"]``, the other kinds under it by kind; the record's
    ``"attached"`` lists every kind a check attached."""
    details = dict(verdict.details or {})
    record = dict(details.get(KEY) or {})
    attached = list(record.get("attached") or [])
    for item in items:
        if not isinstance(item, _Typed):
            raise TypeError(f"not typed evidence: {type(item).__name__}")
        if item.kind in CONVENTIONAL:
            details[CONVENTIONAL[item.kind]] = _conventional(item, details.get(CONVENTIONAL[item.kind]))
        elif item.kind in REFERENCES:  # several of each: a list, never counted as evidence by :func:`read`
            record[REFERENCES[item.kind]] = [*list(record.get(REFERENCES[item.kind]) or []), item.to_json()]
        else:
            record[item.kind] = item.to_json()
        if item.kind not in attached:
            attached.append(item.kind)
    record["attached"] = attached
    details[KEY] = record
    return replace(verdict, details=details)


def read(details: Mapping[str, Any], counterexample: Mapping[str, Any] | None = None) -> dict[str, _Typed]:
    """One verdict level's evidence as objects (kind → object), from its conventional keys (``sweep``, ``fit``,
    ``configurations``, ``coverage``, the counterexample, ``could_have_failed``) and the typed record."""
    out: dict[str, _Typed] = {}
    sweep = details.get("sweep")
    if isinstance(sweep, Mapping) and sweep.get("x") is not None:
        out["sweep"] = Sweep.from_details(sweep)
    fit = details.get("fit")
    if isinstance(fit, Mapping) and fit:
        out["fit"] = Fit.from_details(fit)
    configs = details.get("configurations")
    if configs and isinstance(configs, (list, tuple)) and all(isinstance(c, Mapping) for c in configs):
        out["configurations"] = Configurations(tuple(dict(c) for c in configs))
    cov = details.get("coverage")
    if isinstance(cov, Mapping) and cov:
        out["coverage"] = Coverage(dict(cov))
    if counterexample:
        out["counterexample"] = Counterexample(dict(counterexample))
    cf = details.get("could_have_failed")
    if isinstance(cf, Mapping) and cf.get("how") in FAIL_KINDS:
        out["could_have_failed"] = CouldHaveFailed(str(cf["how"]), str(cf.get("detail") or ""))
    record = details.get(KEY)
    for kind, data in (dict(record) if isinstance(record, Mapping) else {}).items():
        if kind in TYPES and kind not in CONVENTIONAL and isinstance(data, Mapping):
            try:
                out[kind] = TYPES[kind].from_json(data)
            except (TypeError, ValueError):
                continue
    return out


#: conventional keys (beside the typed ones) that are evidence of what a pass rests on
EVIDENCE_KEYS = ("fixed", "convergence", "components", "events", "exact_points", "float_points", "cases")


def records_evidence(details: Mapping[str, Any]) -> bool:
    """Does this level record any evidence, typed or conventional?"""
    return bool(read(details)) or any(details.get(k) for k in EVIDENCE_KEYS)
