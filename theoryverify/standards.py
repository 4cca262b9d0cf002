"""Evidence standards, in one place, applied by the engine to every verdict.

:func:`enforce` runs inside :meth:`theoryverify.claims.Claim.run` on whatever verdict a claim's check returns,
so paper code cannot bypass it.  A paper may *tighten* the rules for a claim (``standards=STANDARDS.tightened(
min_decades=1.5)``), never loosen them (:meth:`Standards.tightened` raises).  The rules, next to
:data:`theoryverify.scaling.RULE` (which decides a fitted exponent) and rendered in the verdict's details:

- :data:`HYPOTHESES_RULE` — the evidence lies inside the statement's hypotheses (:mod:`theoryverify.conditions`);
- :data:`SPAN_RULE` — rate claims and fitted laws rest on grids spanning at least a decade;
- :data:`QUANTIFIER_RULE` — a statement quantified over parameters is tested at several values of each;
- :data:`CONVERGENCE_RULE` — a run that claims convergence shows it (:mod:`theoryverify.convergence`);
- :data:`MAIN_RESULT_RULE` — a main result's pass records evidence, what it ranges over and how it could have
  failed (:mod:`theoryverify.evidence_types`).

A verdict that fails a rule becomes *inconclusive*, says why in its evidence, and keeps what the check alone
concluded under ``details["downgraded"]``.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass, fields, replace
from typing import Any, Mapping, Sequence

import numpy as np

from .conditions import Condition, Over, violations
from .evidence import (configurations, coverage, deciding_path, level_configurations, node_at, part_coverages,
                       refuting_paths, supporting, sweeps)
from .evidence_types import read as read_typed, records_evidence
from .verdicts import PART_SEP
from .verdicts import Status, Verdict, error, plain

SPAN_RULE = ("Rate claims (Θ/O/Ω/'scales as') and every fitted law: a verdict other than inconclusive needs >= "
             "{min_points} grid points spanning >= {min_decades:g} decade(s) of the swept parameter for power and log "
             "laws, and for exponential laws a range over which the predicted quantity changes by a factor >= "
             "{min_exp_factor:g}; otherwise 'inconclusive: grid spans 0.4 decades (< 1)'. A rate verdict that records "
             "no sweep is inconclusive (a symbolic proof excepted). Every rate verdict prints its span; the full "
             "profile aims at >= {target_decades_full:g} decades.")
QUANTIFIER_RULE = ("A statement quantified over a parameter holds (or is proved by enumeration) only on evidence at "
                   ">= {min_values} distinct values of it, spread over its admissible range (a finite range: the "
                   "values cover >= {min_cover:.0%} of it on its scale; an unbounded linear range: max/min >= "
                   "{min_open_factor:g}; an unbounded log range: >= 1 decade); a proof over the parameter's symbolic "
                   "domain covers it; in a combined verdict every needed part that ranges over the parameter by itself (a "
                   "search, a sweep) must cover it on its own, so a proved part never masks a sampled one (parts at "
                   "one value each are pooled); otherwise 'inconclusive: one configuration' (or: too few values).")
HYPOTHESES_RULE = ("Every configuration the evidence rests on is checked against the statement's hypotheses: a "
                   "refutation with evidence outside them 'fails outside the stated hypotheses' (shown, not counted "
                   "as a finding) and a pass with evidence outside them is inconclusive; evidence that does not "
                   "record a parameter a hypothesis reads is an error of the claim.")
MAIN_RESULT_RULE = ("A pass (holds/proved) of a main result (a rate claim, a claim located at a theorem, "
                    "proposition or corollary, or one registered main=True: a main lemma, a phase duration) must "
                    "record evidence the standards read: a sweep, fit, configurations, coverage, fixed parameters, convergence diagnostics, a Monte-Carlo test, "
                    "typed evidence (theoryverify.evidence_types), or a symbolic proof naming its algebra, in some "
                    "part it rests on; otherwise it is inconclusive. Every main pass records what it quantifies over "
                    "(over=), the ranges covered, and how its check could have failed (details['main_result']).")
CONVERGENCE_RULE = ("A run that claims convergence passes only if its diagnostics show it: the distance to the derived "
                    "optimum within its tolerance (and the gradient norm within its tolerance, when given) and a last "
                    "stretch of the loss curve that has stopped moving.")

OUTSIDE_METHOD = "fails outside the stated hypotheses"


@dataclass(frozen=True)
class Standards:
    """The thresholds of the rules.  ``STANDARDS`` is the engine's; a claim may only tighten them."""

    min_decades: float = 1.0
    min_exp_factor: float = 10.0
    min_points: int = 4
    min_values: int = 3
    min_cover: float = 0.5
    min_open_factor: float = 2.0
    target_decades_full: float = 1.5

    #: for each field, +1 if larger is stricter, −1 if smaller is stricter
    _STRICTER = {"min_decades": 1, "min_exp_factor": 1, "min_points": 1, "min_values": 1, "min_cover": 1,
                 "min_open_factor": 1, "target_decades_full": 1}

    def tightened(self, **changes: Any) -> "Standards":
        """A copy with stricter thresholds; loosening any raises ``ValueError``."""
        names = {f.name for f in fields(self)}
        for name, value in changes.items():
            if name not in names:
                raise ValueError(f"unknown evidence standard {name!r}")
            if (value - getattr(self, name)) * self._STRICTER[name] < 0:
                raise ValueError(f"evidence standards can be tightened, never loosened: {name} = {value!r} is looser "
                                 f"than the engine's {getattr(self, name)!r}")
        return replace(self, **changes)

    def at_least_as_strict(self, other: "Standards") -> "Standards":
        """The stricter of ``self`` and ``other`` in every threshold."""
        return replace(self, **{f.name: max(getattr(self, f.name) * s, getattr(other, f.name) * s) * s
                                for f in fields(self) for s in [self._STRICTER[f.name]]})

    def rules(self) -> dict[str, str]:
        kw = {f.name: getattr(self, f.name) for f in fields(self)}
        return {"span": SPAN_RULE.format(**kw), "quantifier": QUANTIFIER_RULE.format(**kw),
                "hypotheses": HYPOTHESES_RULE, "convergence": CONVERGENCE_RULE, "main_result": MAIN_RESULT_RULE}


STANDARDS = Standards()


def require_min_points(min_points: int) -> None:
    """Engine helpers call this with a caller's ``min_points``: fewer than the standard is a loosening."""
    if min_points < STANDARDS.min_points:
        raise ValueError(f"min_points = {min_points} is looser than the evidence standard ({STANDARDS.min_points})")


# --- grid span --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Span:
    """How much of the swept parameter (or, for exponential laws, of the predicted quantity) a grid covers."""

    param: str
    decades: float | None  # None: cannot be measured (non-positive grid values on a linear scale)
    points: int
    measure: str  # "x" (decades of the parameter) or "predicted" (decades of the predicted quantity)

    def text(self) -> str:
        if self.decades is None:
            return f"grid span in {self.param} cannot be measured in decades (values <= 0)"
        if self.measure == "predicted":
            return f"predicted quantity changes by ×{10 ** self.decades:.3g} over the {self.param} grid"
        return f"grid spans {self.decades:.2f} decades in {self.param}"


def _family(fit: Mapping[str, Any]) -> str | None:
    if not fit:
        return None
    fam = fit.get("family")
    if fam:
        return str(fam)
    law = str(fit.get("law") or "")
    if "exp(b/" in law:
        return "exp"
    return "power" if "exponent" in fit and law else None


_LOGGED = re.compile(r"^\s*(?:log10|log|ln)\s*(?:\((?P<inner>.*)\)|\s(?P<bare>\S.*))\s*$")


def logged_quantity(param: str) -> str:
    """The quantity a log-valued grid is the log of ("log L" -> "L", "log(1/sigma)" -> "1/sigma"), whose decades
    its span counts (referee 16: "1.20 decades in log L" was 1.20 decades of L); another name is kept."""
    m = _LOGGED.match(str(param))
    if not m:
        return str(param)
    inner = (m.group("inner") if m.group("inner") is not None else m.group("bare")).strip()
    return inner or str(param)


def grid_span(sweep: Mapping[str, Any], fit: Mapping[str, Any]) -> Span:
    param = str(sweep.get("param") or "x")
    raw = [v for v in (sweep.get("x") or []) if isinstance(v, (int, float)) and math.isfinite(v)]
    x = np.asarray(raw, dtype=float)
    n = int(x.size)
    if n == 0:
        return Span(param, None, 0, "x")
    if _family(fit) == "exp-linear":  # y ≈ C·exp(b·x): decades of the predicted quantity over the grid
        b = float(fit.get("predicted_exponent") or fit.get("exponent") or 0.0)
        return Span(param, float(abs(b) * (x.max() - x.min()) / math.log(10)), n, "predicted")
    if _family(fit) == "exp":
        pred = sweep.get("predicted")
        if pred and all(isinstance(p, (int, float)) and p > 0 for p in pred):
            p = np.asarray(pred, dtype=float)
            return Span(param, float(abs(np.log10(p.max() / p.min()))), n, "predicted")
        b = float(fit.get("predicted_exponent") or fit.get("exponent") or 0.0)
        if np.all(x > 0):
            return Span(param, float(abs(b) * (1 / x.min() - 1 / x.max()) / math.log(10)), n, "predicted")
        return Span(param, None, n, "predicted")
    scale = sweep.get("scale", "linear")
    if scale == "log":  # the grid holds natural logs of the swept quantity: decades of the quantity, named so
        return Span(logged_quantity(param), float((x.max() - x.min()) / math.log(10)), n, "x")
    if scale == "log10":
        return Span(logged_quantity(param), float(x.max() - x.min()), n, "x")
    if np.any(x <= 0):
        return Span(param, None, n, "x")
    return Span(param, float(math.log10(x.max() / x.min())), n, "x")


def _rate_sweeps(vjson: Mapping[str, Any], rate_claim: bool) -> list[tuple[str, Span]]:
    out = []
    for path, sweep, fit, _ in sweeps(vjson):
        if rate_claim or _family(fit):
            out.append((path, grid_span(sweep, fit)))
    return out


def _span_ok(span: Span, std: Standards) -> bool:
    if span.decades is None or span.points < std.min_points:
        return False
    return span.decades >= (math.log10(std.min_exp_factor) if span.measure == "predicted" else std.min_decades) - 1e-9


def _span_failure(span: Span, std: Standards) -> str:
    if span.points < std.min_points:
        return f"grid has {span.points} points (< {std.min_points}) in {span.param}"
    if span.decades is None:
        return span.text()
    if span.measure == "predicted":
        return f"{span.text()} (< ×{std.min_exp_factor:g})"
    return f"{span.text()} (< {std.min_decades:g})"


# --- the rules --------------------------------------------------------------------------------

def downgrade(verdict: Verdict, rule: str, why: str, *, method: str | None = None, **extra: Any) -> Verdict:
    """``verdict`` made inconclusive by an evidence rule, keeping what the check alone concluded."""
    was = {"status": verdict.status.value, "method": verdict.method, "evidence": verdict.evidence,
           "counterexample": plain(verdict.counterexample) if verdict.counterexample else None, "rule": rule,
           "why": why}
    details = {**dict(verdict.details), "downgraded": was, **extra}
    return Verdict(Status.INCONCLUSIVE, method or verdict.method,
                   f"inconclusive: {why} (the check alone: {verdict.status.value}, {verdict.evidence})",
                   details=details, seed=verdict.seed, runtime_s=verdict.runtime_s)


def _with_note(verdict: Verdict, note: str, key: str, value: Any) -> Verdict:
    details = {**dict(verdict.details), key: value}
    evidence = verdict.evidence if note in verdict.evidence else f"{verdict.evidence}; {note}"
    return replace(verdict, evidence=evidence, details=details)


def apply_hypotheses(conditions: Sequence[Condition], verdict: Verdict) -> Verdict:
    """The hypotheses rule for a pass (refutations: :func:`judge_refutation`)."""
    if not conditions or verdict.status not in (Status.HOLDS, Status.PROVED):
        return verdict
    vjson = verdict.to_json()
    configs = configurations(vjson)
    labels = [c.label() for c in conditions]
    if not configs:
        return verdict  # a search over the declared domain: the domain encodes the hypotheses
    bad = violations(conditions, configs)
    missing = [b for b in bad if b.missing]
    if missing:
        return error("evidence vs hypotheses", missing[0].describe() + f" ({len(missing)} such)", hypotheses=labels,
                     was=vjson)
    checked = {"hypotheses": labels, "configurations_checked": len(configs)}
    if not bad:
        return _with_note(verdict, f"inside the stated hypotheses ({'; '.join(labels)})", "hypotheses_checked",
                          checked)
    why = f"{bad[0].describe()} ({len({id(b.config) for b in bad})} of {len(configs)} evidence configurations outside)"
    outside = {"violations": [{"hypothesis": b.condition.label(), "config": plain(dict(b.config))} for b in bad[:20]],
               **checked}
    return downgrade(verdict, "hypotheses", f"evidence outside the stated hypotheses: {why}",
                     outside_hypotheses=outside)


def _judge_leaf(leaf: Mapping[str, Any], fixed: Mapping[str, Any], conditions: Sequence[Condition],
                rate_claim: bool, std: Standards, *, own_level: bool = False) -> tuple[str, str, dict]:
    """('ok' | 'missing' | 'outside' | 'span', why, info) for one refuted part's evidence.

    ``own_level``: read only the configurations recorded at this node (an enclosing part consulted because the
    refuted leaf below it does not record what a hypothesis reads), not those of its deciding part again."""
    info: dict[str, Any] = {}
    if conditions:
        configs = level_configurations(leaf, fixed) if own_level else configurations(leaf, inherited=fixed)
        labels = [c.label() for c in conditions]
        if not configs:
            return "missing", (f"the refutation records no configuration to check against the hypotheses {labels} "
                               f"(record it: a counterexample, a sweep, details['configurations'], "
                               f"evidence.with_fixed)"), info
        bad = violations(conditions, configs)
        missing = [b for b in bad if b.missing]
        if missing:
            return "missing", missing[0].describe() + f" ({len(missing)} such)", info
        info = {"hypotheses": labels, "configurations_checked": len(configs)}
        if bad:
            why = (f"{bad[0].describe()} ({len({id(b.config) for b in bad})} of {len(configs)} evidence "
                   f"configurations outside)")
            info["violations"] = [{"hypothesis": b.condition.label(), "config": plain(dict(b.config))}
                                  for b in bad[:20]]
            return "outside", why, info
    narrow = [(p, sp) for p, sp in _rate_sweeps(leaf, rate_claim) if not _span_ok(sp, std)]
    if narrow:
        path, span = narrow[0]
        return "span", _span_failure(span, std) + (f" [{path}]" if path else ""), info
    return "ok", "", info


def judge_refutation(conditions: Sequence[Condition], verdict: Verdict, rate_claim: bool, std: Standards) -> Verdict:
    """A refutation stands if one of its refuted parts has evidence inside the hypotheses on a grid that meets the
    span rule (the deciding part first, then the others); otherwise it is made inconclusive ('fails outside the
    stated hypotheses', or the span rule) — or is an error of the claim when its evidence cannot be checked."""
    if verdict.status is not Status.REFUTED:
        return verdict
    vjson = verdict.to_json()
    paths = refuting_paths(vjson) or [()]
    judged = []
    for path in paths:
        # the leaf's own evidence, or — where the leaf does not record what a hypothesis reads — the nearest
        # enclosing part that does (e.g. configurations recorded once for a group of sub-fits)
        for depth in range(len(path), -1, -1):
            node, fixed = node_at(vjson, path[:depth])
            verdict_kind, why, info = _judge_leaf(node, fixed, conditions, rate_claim, std,
                                                  own_level=depth < len(path))
            if verdict_kind != "missing":
                break
        judged.append((path, verdict_kind, why, info))
        if verdict_kind == "ok":
            break
    path, kind, why, info = judged[-1]
    if kind == "ok":
        ce = dict(verdict.counterexample or {})
        decider = deciding_path(vjson)
        if path and list(path[:len(decider)]) != decider:  # a later refuted part (not one inside the deciding part)
            leaf, _ = node_at(vjson, path)
            ce = {"part": PART_SEP.join(path), **{k: v for k, v in (leaf.get("counterexample") or {}).items()
                                                   if k != "part"}}
            skipped = "; ".join(f"[{PART_SEP.join(p)}] {w}" for p, _, w, _ in judged[:-1])
            why_this = (f"decides: the parts before it do not meet the evidence standards: {skipped}" if skipped
                        else "decides: the first refuted part")  # never an empty clause
            verdict = replace(verdict, evidence=f"[{PART_SEP.join(path)}] {leaf.get('evidence')} ({why_this})")
        if conditions:
            ce["hypotheses"] = {lab: "satisfied" for lab in info.get("hypotheses", [])}
            verdict = _with_note(replace(verdict, counterexample=ce), "inside the stated hypotheses ("
                                 + "; ".join(info.get("hypotheses", [])) + ")", "hypotheses_checked", info)
        else:
            verdict = replace(verdict, counterexample=ce)
        return verdict
    path, kind, why, info = judged[0]  # none meets the standards: report the deciding part's reason
    if kind == "missing":
        return error("evidence vs hypotheses", why, was=vjson)
    if kind == "outside":
        outside = {k: v for k, v in info.items()}
        return downgrade(verdict, "hypotheses", f"{OUTSIDE_METHOD}: {why}", method=OUTSIDE_METHOD,
                         outside_hypotheses=outside)
    return downgrade(verdict, "span", why)


def _deciding_spans(vjson: Mapping[str, Any], spans: list[tuple[str, Span]]) -> list[tuple[str, Span]]:
    """The grids of a refutation's deciding part (named by its counterexample's ``part``): those at or below it,
    else those of the nearest enclosing level that has one."""
    dp = PART_SEP.join(deciding_path(vjson))
    if not dp:
        return []
    below = [(p, s) for p, s in spans if p == dp or p.startswith(dp + PART_SEP)]
    if below:
        return below
    above = [(p, s) for p, s in spans if dp.startswith(p + PART_SEP) or not p]
    depth = max((len(p) for p, _ in above), default=-1)
    return [(p, s) for p, s in above if len(p) == depth]


def apply_span(verdict: Verdict, rate_claim: bool, std: Standards) -> Verdict:
    """The span rule for a pass, and the span note on every verdict with a rate sweep (refutations are judged by
    :func:`judge_refutation`)."""
    vjson = verdict.to_json()
    spans = _rate_sweeps(vjson, rate_claim)
    if not spans:
        if rate_claim and verdict.status in (Status.HOLDS, Status.REFUTED):
            return downgrade(verdict, "span", "the rate verdict records no sweep (details['sweep']), so its grid "
                             "span cannot be checked")
        return verdict
    narrow = min(spans, key=lambda ps: (-1 if ps[1].decades is None else ps[1].decades))
    deciding = _deciding_spans(vjson, spans) if verdict.status is Status.REFUTED and len(spans) > 1 else []
    if deciding:  # the line names the grid the refutation rests on, not the narrowest of the claim's grids
        path, span = min(deciding, key=lambda ps: (-1 if ps[1].decades is None else ps[1].decades))
        note = (f"decided on {('[' + path + '] ') if path else ''}{span.text()} ({len(deciding)} of {len(spans)} "
                f"grids; narrowest of all: {narrow[1].text()}{' [' + narrow[0] + ']' if narrow[0] else ''})")
    else:
        note = narrow[1].text() if len(spans) == 1 else f"narrowest of {len(spans)} grids: {narrow[1].text()}"
    info = {"spans": [{"part": p or None, "param": s.param, "decades": s.decades, "points": s.points,
                       "measure": s.measure} for p, s in spans], "rule": std.rules()["span"]}
    if deciding:
        info["deciding"] = [{"part": p or None, "param": s.param, "decades": s.decades} for p, s in deciding]
    verdict = _with_note(verdict, note, "grid_span", info)
    if verdict.status is not Status.HOLDS:
        return verdict
    bad = [(p, s) for p, s in spans if not _span_ok(s, std)]
    if not bad:
        return verdict
    path, span = bad[0]
    where = f" [{path}]" if path else ""
    return downgrade(verdict, "span", _span_failure(span, std) + where)


def _covers(values: Mapping[str, Any], over: Over, std: Standards) -> str | None:
    """None if the evidence covers ``over``; else why not."""
    if values == "symbolic":
        return None
    n = int(values.get("distinct") or 0)
    lo, hi = values.get("min"), values.get("max")
    if n <= 1:
        shown = "" if lo is None else f" ({over.name} = {lo:g})"
        return f"one configuration{shown}"
    if n < std.min_values:
        return f"{over.name} takes {n} values (< {std.min_values})"
    if over.scale == "log" and (lo is None or lo <= 0):
        return f"{over.name} values are not all positive on a log scale"
    finite = math.isfinite(over.hi) and (over.scale == "linear" or over.lo > 0)
    if finite:
        if over.scale == "log":
            covered = math.log(hi / lo) / math.log(over.hi / over.lo)
        else:
            covered = (hi - lo) / (over.hi - over.lo)
        if covered < std.min_cover - 1e-12:
            return (f"{over.name} values [{lo:g}, {hi:g}] cover {math.floor(covered * 100)}% of the admissible range "
                    f"(< {std.min_cover:.0%})")
        return None
    if over.scale == "log":
        if hi / lo < 10 - 1e-9:
            return f"{over.name} values [{lo:g}, {hi:g}] span {math.log10(hi / lo):.2f} decades (< 1)"
        return None
    if lo > 0 and hi / lo < std.min_open_factor - 1e-12:
        return f"{over.name} values [{lo:g}, {hi:g}] span a factor {hi / lo:.3g} (< {std.min_open_factor:g})"
    return None


def _unrecorded_parts(vjson: Mapping[str, Any], name: str) -> str:
    """Where a too-narrow coverage of ``name`` comes from, and the fix: the parts that hold ``name`` at one value,
    and the parts (their sweeps named by their variable) that record no value of it — a sweep whose variable is a
    function of ``name`` (x = 1/log(1/ε) sweeping ε) is not recognised as sweeping it, so it must say so with
    ``declared=``.  Empty when every part records ``name``."""
    subs = supporting(vjson) or {"": vjson}
    fixed, silent = [], []
    for part, sub in subs.items():
        cov = coverage(sub).get(name)
        where = f"part '{part}'" if part else "the evidence"
        if cov is None:
            params = [sw.get("param") for _, sw, _, _ in sweeps(sub) if sw.get("param")]
            silent.append(f"{where}" + (f" (a sweep over {', '.join(dict.fromkeys(params))})" if params else ""))
        elif isinstance(cov, Mapping) and int(cov.get("distinct") or 0) <= 1 and cov.get("min") is not None:
            fixed.append(f"{where} ({name} = {cov['min']:g})")
    if not silent:
        return ""
    text = f" — {name} is fixed in {', '.join(fixed)};" if fixed else " —"
    return (f"{text} {', '.join(silent)} records no value of {name}: if it varies {name}, pass its values as "
            f"declared={{'{name}': [...]}} to that check (docs/verdicts.md)")


def apply_quantifiers(over: Sequence[Over], verdict: Verdict, std: Standards) -> Verdict:
    if not over or verdict.status not in (Status.HOLDS, Status.PROVED):
        return verdict
    from .ranges import extent
    try:
        over = extent(over)  # a dependent range (n ∈ [d, 4d]) measured against its extent over the others
    except ValueError as exc:
        return error("declared ranges", " ".join(str(exc).split()), was=verdict.to_json())
    cov = coverage(verdict.to_json())
    info = {"over": [o.to_json() for o in over], "coverage": {o.name: cov.get(o.name) for o in over},
            "rule": std.rules()["quantifier"]}
    missing = [o.name for o in over if o.name not in cov]
    if missing:
        if verdict.status is Status.PROVED and all(v == "symbolic" for v in cov.values()) and cov:
            pass
        else:
            return error("evidence vs quantifiers", f"the statement ranges over {', '.join(missing)} but the evidence "
                         f"records no value of {'it' if len(missing) == 1 else 'them'} (record "
                         f"{'it' if len(missing) == 1 else 'each'}: a sweep, details['configurations'], "
                         f"evidence.with_fixed)",
                         quantifiers=info, was=verdict.to_json())
    vjson = verdict.to_json()
    for o in over:
        if o.name not in cov:
            continue
        why = _covers(cov[o.name], o, std)
        if not why:  # a combined verdict is only as strong as its weakest needed part (a proof masks no sampling)
            for path, part in part_coverages(vjson, o.name):
                why = _covers(part, o, std)
                if why:
                    info["weakest_part"] = {"part": path or None, "coverage": part}
                    why = f"[{path}] {why}" if path else why
                    break
        if why:
            hint = _unrecorded_parts(vjson, o.name)
            return downgrade(verdict, "quantifier", f"{why}; the statement ranges over {o.label()}{hint}",
                             quantifiers=info)
    return _with_note(verdict, "covers " + ", ".join(o.label() for o in over), "quantifiers", info)


def _unconverged(vjson: Mapping[str, Any], path: str = "") -> list[tuple[str, Mapping[str, Any]]]:
    out = []
    conv = (vjson.get("details") or {}).get("convergence")
    if isinstance(conv, Mapping) and not conv.get("converged", False):
        out.append((path, conv))
    for name, sub in supporting(vjson).items():
        out += _unconverged(sub, f"{path} › {name}" if path else name)
    return out


def _has_convergence(vjson: Mapping[str, Any]) -> bool:
    if isinstance((vjson.get("details") or {}).get("convergence"), Mapping):
        return True
    return any(_has_convergence(sub) for sub in supporting(vjson).values())


def apply_convergence(converges: bool, verdict: Verdict) -> Verdict:
    if verdict.status is not Status.HOLDS:
        return verdict
    vjson = verdict.to_json()
    if converges and not _has_convergence(vjson):
        return error("convergence diagnostics", "the claim asserts convergence but its verdict carries no diagnostics "
                     "(theoryverify.convergence.diagnose)", was=vjson)
    bad = _unconverged(vjson)
    if not bad:
        return verdict
    path, conv = bad[0]
    where = f" [{path}]" if path else ""
    return downgrade(verdict, "convergence", f"run has not converged{where}: {conv.get('summary', '')}".rstrip(": "))


#: locations of main results (besides every rate claim): a theorem, proposition or corollary.  A lemma is a main
#: result only when its claim says so (``main=True``): the engine cannot tell a main lemma from an auxiliary one.
MAIN_LOCATION = re.compile(r"^\s*(Theorem|Thm|Proposition|Prop|Corollary|Cor)\b\.?", re.IGNORECASE)
#: a proved verdict's method that names its algebra (a symbolic proof is its own evidence)
ALGEBRA = re.compile(r"symbolic|sympy|algebra|exact|enumerat|closed form|rational", re.IGNORECASE)


def is_main_result(claim: Any) -> bool:
    declared = getattr(claim, "main", None)
    if declared is not None:
        return bool(declared)
    return str(getattr(claim.kind, "value", claim.kind)) == "rate" or bool(MAIN_LOCATION.match(claim.location or ""))


def _evidence_kinds(vjson: Mapping[str, Any]) -> list[str]:
    """The kinds of evidence this verdict and the parts it rests on record (typed or conventional)."""
    details = vjson.get("details") or {}
    kinds = list(read_typed(details, vjson.get("counterexample")))
    if records_evidence(details) and not kinds:
        kinds.append("conventional")
    if vjson.get("status") == "proved" and ALGEBRA.search(str(vjson.get("method") or "")):
        kinds.append("proof")
    for sub in supporting(vjson).values():
        kinds += [k for k in _evidence_kinds(sub) if k not in kinds]
    return list(dict.fromkeys(kinds))


def _could_have_failed(vjson: Mapping[str, Any], path: str = "") -> list[str]:
    typed = read_typed(vjson.get("details") or {})
    out = []
    if "could_have_failed" in typed:
        out.append((f"[{path}] " if path else "") + typed["could_have_failed"].text())
    for name, sub in supporting(vjson).items():
        out += _could_have_failed(sub, f"{path}{PART_SEP if path else ''}{name}")
    return out


def apply_main_result(claim: Any, verdict: Verdict) -> Verdict:
    """:data:`MAIN_RESULT_RULE`: a main result's pass without evidence is inconclusive; every main pass records
    ``over``, the ranges covered and how the check could have failed (``details["main_result"]``)."""
    if verdict.status not in (Status.HOLDS, Status.PROVED) or not is_main_result(claim):
        return verdict
    vjson = verdict.to_json()
    kinds = _evidence_kinds(vjson)
    cov = coverage(vjson)
    failed = _could_have_failed(vjson)
    record = {"over": [o.label() for o in claim.over] or None,
              "ranges": {k: cov[k] for k in sorted(cov)} or None,
              "could_have_failed": failed[:6] or None, "evidence": kinds, "rule": MAIN_RESULT_RULE}
    if not kinds:
        return downgrade(verdict, "main_result", "a main result's pass records no evidence (no sweep, fit, "
                         "configurations, coverage, fixed parameters, Monte-Carlo test, typed evidence or proof "
                         "naming its algebra), so nothing shows what it ranges over or that it could have failed",
                         main_result=record)
    return replace(verdict, details={**dict(verdict.details), "main_result": record})


def enforce(claim: Any, verdict: Verdict) -> Verdict:
    """Apply every evidence rule to ``verdict`` (a claim's raw verdict).  Errors and 'not checkable here'
    pass through unchanged."""
    if verdict.status is Status.ERROR or verdict.method == "not checkable here":
        return verdict
    std = STANDARDS.at_least_as_strict(claim.standards) if claim.standards is not None else STANDARDS
    rate = str(getattr(claim.kind, "value", claim.kind)) == "rate"  # Kind.RATE (claims imports this module)
    v = judge_refutation(claim.conditions, verdict, rate, std)
    v = apply_hypotheses(claim.conditions, v)
    if v.status is Status.ERROR:
        return v
    v = apply_span(v, rate, std)
    v = apply_quantifiers(claim.over, v, std)
    if v.status is Status.ERROR:
        return v
    v = apply_convergence(claim.converges, v)
    if v.status is Status.ERROR:
        return v
    return apply_main_result(claim, v)
