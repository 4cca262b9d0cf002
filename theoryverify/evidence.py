"""What a verdict's evidence rests on: its configurations, its sweeps and the values each parameter took.

Each level's evidence is read as objects (:func:`theoryverify.evidence_types.read`): the typed record a check
attached, completed by the conventional keys below (so older verdicts read the same).

Read off a verdict's JSON form (``Verdict.to_json()``), so that nested parts of a combined verdict (whose
details hold their parts' JSON) are read the same way.  Checks record their evidence in ``details``:

- ``details["configurations"]``: an explicit list of the configurations (parameter name → value) the
  verdict rests on;
- ``details["sweep"]``: a sweep over one parameter (``param``, grid ``x``; :func:`scaling.sweep_details`),
  with ``details["sweep"]["fixed"]`` the parameters held fixed along it and ``details["sweep"]["declared"]`` the
  statement's parameters that vary along it (name → value per grid point; e.g. N for a fit in 1/N);
- ``details["fixed"]``: parameters held fixed for everything at this level (:func:`with_fixed`);
- ``details["coverage"]``: per parameter, what a search covered (``{"values": [...]}`` or ``{"min", "max",
  "distinct"}``, or ``"symbolic"`` for a proof over the parameter's whole domain);
- otherwise, a refutation's configuration is its counterexample.

The deciding evidence of a refuted combined verdict is the refuting part, named by the counterexample's
``part`` (nested parts joined by :data:`PART_SEP`); :func:`refuting_paths` lists every refuted part, the deciding
one first, so that the standards can accept a later one that meets them.
"""
from __future__ import annotations

import math
from dataclasses import replace
from typing import Any, Iterator, Mapping

from .evidence_types import read
from .verdicts import PART_SEP, Verdict, plain

#: counterexample keys that describe the evidence rather than a parameter value.
META_KEYS = frozenset({"part", "lhs", "rhs", "difference", "hypotheses", "fitted_exponent", "ci", "predicted_exponent",
                       "margin", "param", "grid", "bound", "values", "fitted_coefficient", "coefficient", "predicted"})


def with_fixed(verdict: Verdict, **values: Any) -> Verdict:
    """``verdict`` with ``values`` recorded as parameters held fixed for all of its evidence (e.g. the n of
    a model built at n = 3), so that hypotheses and quantifiers can be checked against them."""
    details = dict(verdict.details)
    details["fixed"] = {**dict(details.get("fixed") or {}), **plain(values)}
    return replace(verdict, details=details)


def is_part(value: Any) -> bool:
    return isinstance(value, Mapping) and {"status", "method", "evidence"} <= set(value)


def parts(vjson: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """The sub-verdicts (JSON) of a combined verdict, by name: the details' values that are verdicts, and those
    of a ``details["parts"]`` mapping (a layout some checks use)."""
    details = vjson.get("details") or {}
    out = {k: v for k, v in details.items() if is_part(v)}
    nested = details.get("parts")
    if isinstance(nested, Mapping):
        out.update({k: v for k, v in nested.items() if is_part(v) and k not in out})
    return out


def refuting_paths(vjson: Mapping[str, Any], path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Paths (part names) to every refuted leaf of a refuted verdict, the deciding one (named by the
    counterexample's ``part``) first."""
    def leaves(node: Mapping[str, Any], at: tuple[str, ...]) -> list[tuple[str, ...]]:
        if node.get("status") != "refuted":
            return []
        subs = {k: v for k, v in parts(node).items() if v.get("status") == "refuted"}
        if not subs:
            return [at]
        return [leaf for name, sub in subs.items() for leaf in leaves(sub, at + (name,))]

    out = leaves(vjson, path)
    first = tuple(deciding_path(vjson))
    out.sort(key=lambda p: p != first)
    return out


def deciding_path(vjson: Mapping[str, Any]) -> list[str]:
    ce = vjson.get("counterexample") or {}
    label = ce.get("part")
    return [p for p in str(label).split(PART_SEP) if p] if label not in (None, "") else []


def node_at(vjson: Mapping[str, Any], path: tuple[str, ...]) -> tuple[Mapping[str, Any], dict[str, Any]]:
    """The part at ``path`` and the fixed parameters inherited on the way down."""
    node, fixed = vjson, {}
    for name in path:
        fixed = _fixed(node.get("details") or {}, fixed)
        node = parts(node)[name]
    return node, fixed


def _fixed(details: Mapping[str, Any], inherited: Mapping[str, Any]) -> dict[str, Any]:
    return {**inherited, **dict(details.get("fixed") or {})}


PASSING = ("holds", "proved")


def supporting(vjson: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """The parts a verdict rests on: for a pass, its passing parts (a refuted or inconclusive part stored in a
    passing verdict's details is a negative control or a note, not evidence); otherwise every part."""
    subs = parts(vjson)
    if vjson.get("status") in PASSING:
        return {k: v for k, v in subs.items() if v.get("status") in PASSING}
    return subs


def sweeps(vjson: Mapping[str, Any], inherited: Mapping[str, Any] | None = None, path: str = ""
           ) -> Iterator[tuple[str, Mapping[str, Any], Mapping[str, Any], dict[str, Any]]]:
    """(path, sweep, fit, fixed) for the sweep at this level and in every supporting part below it."""
    details = vjson.get("details") or {}
    fixed = _fixed(details, inherited or {})
    typed = read(details)
    if "sweep" in typed:
        yield path, details["sweep"], details.get("fit") or {}, {**fixed, **dict(typed["sweep"].fixed)}
    for name, sub in supporting(vjson).items():
        yield from sweeps(sub, fixed, f"{path}{PART_SEP if path else ''}{name}")


def _scalar(v: Any) -> bool:
    return isinstance(v, (int, float, str, bool)) and not isinstance(v, bool) or v is None


def configurations(vjson: Mapping[str, Any], *, deep: bool = True,
                   inherited: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """The configurations this verdict's evidence rests on (see the module docstring).

    For a refuted verdict only its deciding part is read; otherwise (``deep``) every part."""
    if vjson.get("status") == "refuted":
        node, fixed = vjson, dict(inherited or {})
        path = str((vjson.get("counterexample") or {}).get("part") or "")
        for name in [p for p in path.split(PART_SEP) if p]:
            fixed = _fixed(node.get("details") or {}, fixed)
            sub = parts(node).get(name)
            if sub is None:
                break
            node = sub
        return _level(node, fixed, counterexample=True)
    out = _level(vjson, dict(inherited or {}), counterexample=False)
    if deep:
        fixed = _fixed(vjson.get("details") or {}, inherited or {})
        for sub in supporting(vjson).values():
            out += configurations(sub, deep=True, inherited=fixed)
    return out


def level_configurations(node: Mapping[str, Any], inherited: Mapping[str, Any] | None = None) -> list[dict[str, Any]]:
    """The configurations recorded at ``node``'s own level (explicit, a sweep, or its counterexample), without
    following a refuted node's deciding part: what an enclosing part says when the refuted leaf below it does not
    record a parameter a hypothesis reads."""
    return _level(node, dict(inherited or {}), counterexample=True)


def _level(node: Mapping[str, Any], inherited: Mapping[str, Any], *, counterexample: bool) -> list[dict[str, Any]]:
    details = node.get("details") or {}
    fixed = _fixed(details, inherited)
    typed = read(details, node.get("counterexample") if counterexample else None)
    if "configurations" in typed:
        return [{**fixed, **dict(c)} for c in typed["configurations"].configs]
    if "sweep" in typed and typed["sweep"].parameter:
        return typed["sweep"].configurations(fixed)
    if "counterexample" in typed:
        point = {k: v for k, v in typed["counterexample"].point.items() if k not in META_KEYS and _scalar(v)}
        return [{**fixed, **point}]
    return [dict(fixed)] if fixed else []


def coverage(vjson: Mapping[str, Any]) -> dict[str, Any]:
    """Per parameter: the set of values the evidence covered, or ``"symbolic"`` (a proof over its domain),
    merged over every part and every configuration."""
    values: dict[str, set] = {}
    ranges: dict[str, list[float]] = {}
    symbolic: set[str] = set()

    def visit(node: Mapping[str, Any]) -> None:
        typed = read(node.get("details") or {})
        cov = typed["coverage"].parameters if "coverage" in typed else {}
        for name, c in cov.items():
            if c == "symbolic":
                symbolic.add(name)
            elif isinstance(c, Mapping) and "values" in c:
                values.setdefault(name, set()).update(_hashable(v) for v in c["values"])
            elif isinstance(c, Mapping) and {"min", "max", "distinct"} <= set(c):
                ranges.setdefault(name, []).append((float(c["min"]), float(c["max"]), int(c["distinct"])))
        for sub in supporting(node).values():
            visit(sub)

    visit(vjson)
    for config in configurations(vjson):
        for name, v in config.items():
            if _scalar(v) and v is not None:
                values.setdefault(name, set()).add(_hashable(v))
    out: dict[str, Any] = {}
    for name in set(values) | set(ranges) | symbolic:
        if name in symbolic:
            out[name] = "symbolic"
            continue
        nums = sorted(float(v) for v in values.get(name, ()) if isinstance(v, (int, float)) and math.isfinite(v))
        lo = min([*nums, *(r[0] for r in ranges.get(name, []))], default=None)
        hi = max([*nums, *(r[1] for r in ranges.get(name, []))], default=None)
        distinct = max([len(values.get(name, ())), *(r[2] for r in ranges.get(name, []))], default=0)
        out[name] = {"min": lo, "max": hi, "distinct": distinct}
    return out


def _merge(records: list[Any]) -> Any:
    """One parameter's coverage from several records (a value, ``"symbolic"``, or a ``{"min", "max", "distinct"}``
    range): ``"symbolic"`` if every record is; otherwise the numeric records pooled (a proof does not stand in for
    sampled values beside it)."""
    if records and all(r == "symbolic" for r in records):
        return "symbolic"
    nums, ranges = set(), []
    for r in records:
        if isinstance(r, Mapping):
            ranges.append((float(r["min"]), float(r["max"]), int(r["distinct"])))
        elif r != "symbolic" and isinstance(r, (int, float)) and math.isfinite(r):
            nums.add(r)
    lo = min([*nums, *(x[0] for x in ranges)], default=None)
    hi = max([*nums, *(x[1] for x in ranges)], default=None)
    return {"min": lo, "max": hi, "distinct": max([len(nums), *(x[2] for x in ranges)], default=0)}


def _own_records(node: Mapping[str, Any], name: str, inherited: Mapping[str, Any]) -> list[Any]:
    """What ``node``'s own level records of parameter ``name`` (its coverage, its configurations, its fixed
    values), not its parts'."""
    out: list[Any] = []
    typed = read(node.get("details") or {})
    c = (typed["coverage"].parameters if "coverage" in typed else {}).get(name)
    if c == "symbolic":
        out.append("symbolic")
    elif isinstance(c, Mapping) and "values" in c:
        out += [v for v in c["values"] if isinstance(v, (int, float))]
    elif isinstance(c, Mapping) and {"min", "max", "distinct"} <= set(c):
        out.append({k: c[k] for k in ("min", "max", "distinct")})
    for config in _level(node, dict(inherited), counterexample=False):
        v = config.get(name)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            out.append(v)
    return out


def _ranged(cov: Any) -> bool:
    return cov == "symbolic" or (isinstance(cov, Mapping) and int(cov.get("distinct") or 0) > 1)


def part_coverages(vjson: Mapping[str, Any], name: str, inherited: Mapping[str, Any] | None = None,
                   path: str = "") -> list[tuple[str, Any]]:
    """The coverage of parameter ``name`` by each needed part that ranges over it on its own (a proof over its
    domain, a search, a sweep: ``"symbolic"`` or several values), each to be judged apart: a combined verdict is
    only as strong as its weakest needed part, so a proved or well-spread part never masks a sibling that sampled
    a narrow range.  Parts that each record one value of ``name`` (the settings of a loop) are not judged alone —
    their values are pooled in the whole verdict's :func:`coverage` — and a level that itself records several
    values of ``name`` (the settings of :func:`theoryverify.check_over`) vouches for everything below it.
    Returns ``(path, coverage)`` pairs, coverage as :func:`coverage` gives it.

    >>> proof = {"status": "proved", "method": "m", "evidence": "e", "details": {"coverage": {"L": "symbolic"}}}
    >>> narrow = {"status": "holds", "method": "m", "evidence": "e",
    ...           "details": {"coverage": {"L": {"min": 39.0, "max": 9e4, "distinct": 40}}}}
    >>> both = {"status": "holds", "method": "all of", "evidence": "e", "details": {"a": proof, "b": narrow}}
    >>> coverage(both)["L"], [p for p, _ in part_coverages(both, "L")]
    ('symbolic', ['a', 'b'])
    """
    fixed = _fixed(vjson.get("details") or {}, inherited or {})
    own = _own_records(vjson, name, inherited or {})
    subs = supporting(vjson)
    if not subs:
        cov = _merge(own) if own else None
        return [(path, cov)] if cov is not None and _ranged(cov) else []
    if own and _ranged(_merge(own)):
        whole = coverage(vjson).get(name)  # this level enumerates the values itself: the pool of its subtree
        return [(path, whole)] if whole is not None else []
    return [entry for sub_name, sub in subs.items()
            for entry in part_coverages(sub, name, fixed, f"{path}{PART_SEP if path else ''}{sub_name}")]


def _hashable(v: Any) -> Any:
    return tuple(v) if isinstance(v, list) else v
