"""Markdown rendering of a paper's results (issue 5).  Pure functions of result dicts.

Determinism: the output depends only on the results, the run settings and the environment;
the generation time is confined to one line of its own, so two runs with the same seed,
profile and device give byte-identical Markdown apart from that line.
"""
from __future__ import annotations

import math
import numbers
import re
from collections import Counter
from typing import Any, Iterable, Mapping, Sequence

from ..evidence import sweeps
from ..findings import Finding
from ..locations import location_refs, ref_key

STATUSES = ("proved", "holds", "refuted", "inconclusive", "error")
FINDINGS = tuple(f.value for f in Finding)
GENERATED_PREFIX = "Generated: "
#: the one line a page re-rendered from its stored rows adds under the run's lines (:mod:`.rerender`)
RENDERED_PREFIX = "- Page rendered from the stored rows at commit "


def rendered_line(run: Mapping[str, Any]) -> list[str]:
    """``[line]`` when the page was re-rendered from stored rows (``run["rendered"]``: the commit), else ``[]``."""
    return [f"{RENDERED_PREFIX}`{run['rendered']}` (`--rerender`)"] if run.get("rendered") else []

#: why a verdict was made inconclusive by an evidence rule (details["downgraded"]["rule"]) -> section heading
RULE_HEADINGS = {"span": "grid too narrow or too few points", "quantifier": "too few configurations",
                 "convergence": "run not converged", "hypotheses": "evidence outside the stated hypotheses",
                 "main_result": "a main result's pass that records no evidence"}


def cell(text: Any, width: int | None = None) -> str:
    """A Markdown table cell: one line, pipes escaped."""
    s = " ".join(str(text if text is not None else "").split()).replace("|", "\\|")
    if width and len(s) > width:
        s = s[: width - 1] + "…"
    return s


def anchor(claim_id: str) -> str:
    return "claim-" + claim_id.replace(".", "-").lower()


def table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> list[str]:
    lines = ["| " + " | ".join(cell(h) for h in header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return lines


#: how a value is rendered follows what its key says it is (the words of the key, lower case; issue 14).
#: an interval, shown "[lo, hi]":
INTERVAL_WORDS = frozenset({"ci", "interval", "range", "bounds", "bracket"})
#: a shape or an index, shown "(3, 1)":
INDEX_WORDS = frozenset({"shape", "index", "indices", "idx", "position", "pos", "argmax", "argmin", "coords"})
#: one value per seed ("per seed", "durations_over_seeds"), shown "median [min, max] (n = k)":
SEED_WORDS = frozenset({"seed", "seeds"})
PER_WORDS = frozenset({"per", "over", "across", "by", "each"})
#: the key of a sweep table's measured cell: the values of one grid point, one per seed.
PER_SEED = "per seed"
#: a vector longer than this is shown by its first entries, its last one and its length.
VECTOR_SHOWN = 8


def meaning(key: Any) -> str | None:
    """What a key says its value is: "per_seed", "interval", "index", or None (nothing special: a number, a point,
    a vector).  A bare ``seeds`` key is not per-seed values: the papers use it for the list of seeds themselves."""
    words = re.findall(r"[^\W_]+", str(key).lower()) if key is not None else []
    if any(w in SEED_WORDS and i and words[i - 1] in PER_WORDS for i, w in enumerate(words)):
        return "per_seed"
    if INTERVAL_WORDS.intersection(words):
        return "interval"
    if INDEX_WORDS.intersection(words):
        return "index"
    return None


def fmt(x: Any, key: Any = None) -> str:
    """A value rendered by its meaning, which its key names (:func:`meaning`), never by its length.

    Numbers to 4 significant digits; values per seed as "median [min, max] (n = k)"; an interval as "[lo, hi]";
    a shape or an index as "(3, 1)"; any other list (a point, a vector, a matrix) entry by entry, shortened with
    "…" beyond :data:`VECTOR_SHOWN` entries; a mapping as "{key: value, …}", each value by its own key.
    """
    return _render(x, meaning(key))


def _is_number(v: Any) -> bool:
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def _render(x: Any, what: str | None) -> str:
    if isinstance(x, bool) or x is None or isinstance(x, str):
        return str(x)
    if isinstance(x, numbers.Integral):
        return str(int(x))
    if isinstance(x, numbers.Real):
        return f"{float(x):.4g}"
    if isinstance(x, Mapping):
        return "{" + ", ".join(f"{k}: {_render(v, meaning(k) or what)}" for k, v in x.items()) + "}"
    if hasattr(x, "tolist") and not isinstance(x, (list, tuple)):  # a NumPy array or a torch tensor
        x = x.tolist()
        if not isinstance(x, list):
            return _render(x, what)
    if not isinstance(x, (list, tuple)):
        return str(x)
    if x and all(map(_is_number, x)):
        if what == "per_seed":
            return _per_seed(x)
        if what == "interval" and len(x) == 2:
            return f"[{_render(x[0], None)}, {_render(x[1], None)}]"
        if what == "index" and all(isinstance(v, numbers.Integral) or float(v).is_integer() for v in x):
            return "(" + ", ".join(str(int(v)) for v in x) + ("," if len(x) == 1 else "") + ")"
    shown = [_render(v, what) for v in x]
    if len(shown) <= VECTOR_SHOWN:
        return "[" + ", ".join(shown) + "]"
    return "[" + ", ".join(shown[: VECTOR_SHOWN - 2] + ["…", shown[-1]]) + f"] (n = {len(shown)})"


def _per_seed(x: Sequence[Any]) -> str:
    """One value per seed: the median with the range and the count (NaNs counted apart)."""
    v = sorted(float(a) for a in x if not math.isnan(a))
    nan = len(x) - len(v)
    count = f"n = {len(x)}" + (f", {nan} NaN" if nan else "")
    if not v:
        return f"NaN ({count})"
    if len(v) == 1:
        return f"{v[0]:.4g} ({count})"
    mid = (v[(len(v) - 1) // 2] + v[len(v) // 2]) / 2
    return f"{mid:.4g} [{v[0]:.4g}, {v[-1]:.4g}] ({count})"


def evidence_text(r: Mapping[str, Any]) -> str:
    parts = [r["evidence"]]
    ce = r.get("counterexample")
    if ce:
        shown = ", ".join(f"{k}={fmt(v, k)}" for k, v in list(ce.items())[:12])
        parts.append(f"counterexample: {shown}")
    fit = (r.get("details") or {}).get("fit")
    if fit and "exponent" in fit:
        ci = fit.get("ci") or ["?", "?"]
        parts.append(f"fitted exponent {fmt(fit['exponent'])} [{fmt(ci[0])}, {fmt(ci[1])}] vs predicted "
                     f"{fmt(fit.get('predicted_exponent'))}")
    return "; ".join(parts)


def header(paper: Mapping[str, str], run: Mapping[str, Any]) -> list[str]:
    dev = run["device_info"]
    lines = [f"# {paper['title']}", "",
             f"- Paper: `{paper['file']}` (id `{paper['id']}`, catalogue `{paper['spec']}`)"
             + (f"; package: {run['paper_version']}" if run.get("paper_version") else ""),
             f"- Command: `{run['command']}`",
             f"- Profile: `{run['profile']}`; seed: `{run['seed']}`",
             "- Device: " + ", ".join(f"{k}={v}" for k, v in dev.items()),
             "- Versions: " + ", ".join(f"{k} {v}" for k, v in run["versions"].items()),
             f"- {run.get('commit_label') or 'Git commit'}: `{run['commit']}`",
             f"{GENERATED_PREFIX}{run['generated']}", *rendered_line(run)]
    if run.get("coverage"):
        lines.append(f"- Catalogue coverage: {run['coverage']}")
    if run.get("not_run"):
        lines.append(f"- Not run on this device (GPU-sized, tagged `gpu`): {len(run['not_run'])} claims: "
                     + ", ".join(f"`{c}`" for c in run["not_run"]))
    return lines + [""]


def summary(results: Sequence[Mapping[str, Any]]) -> list[str]:
    by_status = Counter(r["status"] for r in results)
    by_kind: dict[str, Counter] = {}
    for r in results:
        by_kind.setdefault(r["kind"], Counter())[r["status"]] += 1
    lines = ["## Summary", "", f"{len(results)} claims: " +
             ", ".join(f"{by_status[s]} {s}" for s in STATUSES if by_status[s]) + ".", ""]
    lines += table(["kind", *STATUSES, "total"],
                   [[k, *[c[s] for s in STATUSES], sum(c.values())] for k, c in sorted(by_kind.items())])
    unexpected = [r for r in results if not r["as_expected"] and not r.get("unavailable")]
    missing = [r for r in results if r.get("unavailable")]
    if missing:
        lines += ["", f"**{len(missing)} claims are not checkable here** (an input outside the repository is "
                  f"missing: {cell(missing[0]['unavailable'])}): " +
                  ", ".join(f"[`{r['id']}`](#{anchor(r['id'])})" for r in missing)]
    if unexpected:
        lines += ["", f"**{len(unexpected)} verdicts differ from the registry's expectation:** " +
                  ", ".join(f"[`{r['id']}`](#{anchor(r['id'])})" for r in unexpected)]
    lines += ["", "Refutations by finding class: " + finding_counts(results) + "."]
    lines += findings_sections(results) + standards_section(results)
    return lines + [""]


def finding_of(r: Mapping[str, Any]) -> str | None:
    """The finding class of a refuted row ("unclassified" for a refutation the registry did not expect)."""
    if r["status"] != "refuted":
        return None
    return r.get("finding") or "unclassified"


def finding_counts(results: Sequence[Mapping[str, Any]]) -> str:
    counts = Counter(finding_of(r) for r in results if r["status"] == "refuted")
    shown = [f"{counts[f]} {f}" for f in (*FINDINGS, "unclassified") if counts[f]]
    return ", ".join(shown) if shown else "none"


def _item(r: Mapping[str, Any], text: str) -> str:
    return f"- [`{r['id']}`](#{anchor(r['id'])}) ({r['location']}): {cell(text)}"


def findings_sections(results: Sequence[Mapping[str, Any]]) -> list[str]:
    """One section per finding class: only `erratum` is listed under "Errata"."""
    lines: list[str] = []
    for f in Finding:
        rows = [r for r in results if finding_of(r) == f.value]
        if f is not Finding.ERRATUM and not rows:
            continue
        lines += ["", f"### {f.heading} ({len(rows)})", ""]
        if not rows:
            lines.append("None found.")
        for r in rows:
            text = r.get("reason") or r["evidence"]
            readings = r.get("readings")
            if readings:
                others = "; ".join(f"{k} — {v}" for k, v in (readings.get("others") or {}).items())
                text += f" [reading tested: {readings.get('tested')}; other readings: {others}]"
            if r.get("despite_reconstruction"):
                text += f" [independent of the reconstruction: {r['despite_reconstruction']}]"
            if r.get("supports"):
                text += " [statement: " + ", ".join(r["supports"]) + "]"
            lines.append(_item(r, text))
    odd = [r for r in results if finding_of(r) == "unclassified"]
    if odd:
        lines += ["", f"### Refuted, not registered as a finding ({len(odd)})", ""]
        lines += [_item(r, r["evidence"]) for r in odd]
    return lines


def standards_section(results: Sequence[Mapping[str, Any]]) -> list[str]:
    """Verdicts the evidence rules made inconclusive: outside the hypotheses first (refutations that do not
    count), then each rule."""
    lines: list[str] = []
    outside = [r for r in results if r.get("outside_hypotheses")]
    if outside:
        lines += ["", f"### Fails outside the stated hypotheses ({len(outside)}; not counted as findings)", ""]
        lines += [_item(r, r["evidence"]) for r in outside]
    by_rule: dict[str, list] = {}
    for r in results:
        was = (r.get("details") or {}).get("downgraded")
        if r["status"] == "inconclusive" and was and not r.get("outside_hypotheses"):
            by_rule.setdefault(was.get("rule", "?"), []).append(r)
    if by_rule:
        total = sum(map(len, by_rule.values()))
        lines += ["", f"### Inconclusive by the evidence standards ({total})", "",
                  "What the check alone concluded is kept in the claim's details; the rules are in "
                  "`theoryverify/standards.py`.", ""]
        for rule, rows in sorted(by_rule.items()):
            lines.append(f"- {RULE_HEADINGS.get(rule, rule)} ({len(rows)}): " + ", ".join(
                f"[`{r['id']}`](#{anchor(r['id'])}) (was {r['details']['downgraded']['status']})" for r in rows))
    return lines


def claims_table(results: Sequence[Mapping[str, Any]]) -> list[str]:
    lines = ["## Claims", "",
             "Regenerate any row with `python -m theoryverify verify --claim <id>`.", ""]
    rows = []
    for r in results:
        rows.append([f'<a id="{anchor(r["id"])}"></a>`{r["id"]}`' + (f' (`{r["source"]}`)' if r.get("source") else ""),
                     r.get("catalogue_id") or "—",
                     r["location"], cell(r["statement"], 160), r["kind"],
                     f"**{r['status']}**" + (f" ({finding_of(r)})" if finding_of(r) else "")
                     + (" — outside the hypotheses" if r.get("outside_hypotheses") else "")
                     + ("" if r["as_expected"] else " (not checkable here)" if r.get("unavailable")
                        else " (unexpected)"),
                     r["method"], cell(evidence_text(r), 300)])
    return lines + table(["id", "catalogue", "location", "statement", "kind", "verdict", "method",
                          "evidence"], rows) + [""]


def _ranges(ranges: Mapping[str, Any] | None) -> str:
    if not ranges:
        return "—"
    out = []
    for name, c in list(ranges.items())[:6]:
        if c == "symbolic":
            out.append(f"{name}: symbolic")
        elif isinstance(c, Mapping) and c.get("min") is not None:
            out.append(f"{name} ∈ [{fmt(c['min'])}, {fmt(c['max'])}] ({c.get('distinct', '?')} values)")
        elif isinstance(c, Mapping):
            out.append(f"{name}: {c.get('distinct', '?')} values")
    return "; ".join(out) + ("; …" if len(ranges) > 6 else "")


def main_results_section(results: Sequence[Mapping[str, Any]]) -> list[str]:
    """Beside each main result's pass: what it quantifies over (``over=``), the ranges its evidence covered, and
    how the check could have failed (``details["main_result"]``, :data:`theoryverify.standards.MAIN_RESULT_RULE`)."""
    rows = []
    for r in results:
        rec = (r.get("details") or {}).get("main_result")
        if not rec or r["status"] not in ("holds", "proved"):
            continue
        failed = rec.get("could_have_failed") or ["not recorded"]
        rows.append([f"[`{r['id']}`](#{anchor(r['id'])})", f"**{r['status']}**",
                     cell(", ".join(rec.get("over") or []) or "not declared", 120), cell(_ranges(rec.get("ranges")), 200),
                     cell("; ".join(failed), 300)])
    if not rows:
        return []
    return ["## Main results: what each pass covers and how it could have failed", "",
            "A main result (a theorem, proposition, corollary, lemma or rate) passes only on evidence the standards "
            "read (`theoryverify/standards.py`, MAIN_RESULT_RULE).", ""] + \
        table(["claim", "verdict", "over", "ranges covered", "could it have failed"], rows) + [""]


#: at most this many sweeps of one claim are tabulated (the JSON rows hold every one)
MAX_SWEEPS_SHOWN = 8


def _sweep_lines(sweep: Mapping[str, Any], fit: Mapping[str, Any]) -> list[str]:
    x, meas = sweep.get("x", []), sweep.get("measured", [])
    pred = sweep.get("predicted") or [None] * len(x)
    ratio = sweep.get("ratio") or [None] * len(x)
    lines = table([sweep.get("param") or "x", "predicted", "measured", sweep.get("ratio_of") or "measured / predicted"],
                  [[fmt(a), fmt(b) if b is not None else "—", fmt(c, PER_SEED), fmt(d) if d is not None else "—"]
                   for a, b, c, d in zip(x, pred, meas, ratio)])
    if fit and "exponent" in fit:
        ci = fit.get("ci") or ["?", "?"]
        what = (f"Fitted coefficient {fit.get('coefficient', '')}".rstrip() if fit.get("family") == "polynomial"
                else "Fitted exponent")
        law = f" ({cell(fit['law'])})" if fit.get("law") else ""
        lines += ["", f"{what}{law} **{fmt(fit.get('exponent'))}** (CI {fmt(fit.get('confidence', 0.95))}: "
                  f"[{fmt(ci[0])}, {fmt(ci[1])}]) vs predicted **{fmt(fit.get('predicted_exponent'))}** "
                  f"± {fmt(fit.get('margin'))}."]
        if fit.get("rule"):
            lines += ["", f"Rule: {cell(fit['rule'])}"]
    return lines


def bounds_section(results: Sequence[Mapping[str, Any]], images: Mapping[str, str]) -> list[str]:
    """Every sweep a verdict rests on (its own and its parts'), with the fit, the rule and the grid span."""
    lines = ["## Bounds vs empirics", ""]
    swept = [(r, list(sweeps(r))) for r in results]
    swept = [(r, sw) for r, sw in swept if sw]
    if not swept:
        return lines + ["No rate or phase-duration claim has a sweep in this run.", ""]
    for r, sw in swept:
        lines += [f"### `{r['id']}` — {r['location']}", "", cell(r["statement"]), ""]
        for path, sweep, fit, _ in sw[:MAX_SWEEPS_SHOWN]:
            if path:
                lines += [f"Part *{cell(path)}*:", ""]
            lines += _sweep_lines(sweep, fit) + [""]
        if len(sw) > MAX_SWEEPS_SHOWN:
            lines += [f"({len(sw) - MAX_SWEEPS_SHOWN} more sweeps of this claim are in its JSON row.)", ""]
        span = (r.get("details") or {}).get("grid_span")
        if span:
            widths = ", ".join(f"{s['param']}: " + ("not measurable" if s["decades"] is None else
                               f"{s['decades']:.2f} decades" + (" of the predicted quantity"
                                                                if s.get("measure") == "predicted" else ""))
                               + f" ({s['points']} points)" for s in span["spans"])
            lines += [f"Grid span: {widths}. Evidence standard: {cell(span.get('rule', ''))}", ""]
        lines += [f"Verdict: **{r['status']}** — {cell(r['evidence'])}. "
                  f"Regenerate: `python -m theoryverify verify --claim {r['id']}`", ""]
        if r["id"] in images:
            lines += [f"![{r['id']}]({images[r['id']]})", ""]
    return lines


def reproduction_section(results: Sequence[Mapping[str, Any]]) -> list[str]:
    lines = ["## Reproductions and recorded choices", ""]
    chosen = [r for r in results if r.get("choices") or r["kind"] == "reproduction"]
    if not chosen:
        return lines + ["No claim in this run records an open or reconstruction choice.", ""]
    for r in chosen:
        lines.append(f"- `{r['id']}` ({r['location']}) — **{r['status']}**: {cell(r['evidence'], 200)}")
        for k, v in sorted((r.get("choices") or {}).items()):
            lines.append(f"  - {cell(k)}: {cell(v)}")
    return lines + [""]


def plots_section(results: Sequence[Mapping[str, Any]], images: Mapping[str, str],
                  gallery: Mapping[str, Sequence[str]]) -> list[str]:
    """Trajectories (phase boundaries dotted) and reproduction curves (paper's values starred)."""
    rows = [(r, p) for r in results for p in gallery.get(r["id"], ()) if p != images.get(r["id"])]
    if not rows:
        return []
    lines = ["## Trajectories and reproduction curves", ""]
    for r, path in rows:
        lines += [f"### `{r['id']}` — {r['location']} (**{r['status']}**)", "",
                  f"![{r['id']}]({path})", "",
                  f"Regenerate: `python -m theoryverify verify --claim {r['id']}`", ""]
    return lines


def locations_section(results: Sequence[Mapping[str, Any]]) -> list[str]:
    """Paper location (Lemma 6, Eq. 12, …) → the claims that check it, generated from the claims' locations."""
    where: dict[str, list[Mapping[str, Any]]] = {}
    for r in results:
        for ref in location_refs(r["location"]):
            where.setdefault(ref, []).append(r)
    if not where:
        return []
    lines = ["## Where each part of the paper is checked", ""]
    rows = [[ref, ", ".join(f"[`{r['id'].split('.', 1)[1]}`](#{anchor(r['id'])}) {r['status']}" for r in rs)]
            for ref, rs in sorted(where.items(), key=lambda kv: ref_key(kv[0]))]
    return lines + table(["paper location", "claims (verdict)"], rows) + [""]


def paper_page(paper: Mapping[str, str], run: Mapping[str, Any], results: Sequence[Mapping[str, Any]],
               images: Mapping[str, str], gallery: Mapping[str, Sequence[str]] | None = None) -> str:
    lines = header(paper, run) + summary(results) + claims_table(results) + main_results_section(results) + \
        bounds_section(results, images) + plots_section(results, images, gallery or {}) + \
        reproduction_section(results) + locations_section(results)
    return "\n".join(lines).rstrip() + "\n"


def index_page(run: Mapping[str, Any], rows: Sequence[Mapping[str, Any]]) -> str:
    lines = ["# theoryverify reports", "", f"- Command: `{run['command']}`",
             f"- Profile: `{run['profile']}`; seed: `{run['seed']}`; device: {run['device_info']['name']}",
             f"- {run.get('commit_label') or 'Git commit'}: `{run['commit']}`", f"{GENERATED_PREFIX}{run['generated']}",
             *rendered_line(run)]
    if run.get("missing_inputs"):  # only then: a report made with every input has no such line
        lines.append("- Missing inputs (this report differs from one made with them; see `python -m theoryverify "
                     "papers`): " + "; ".join(cell(m) for m in run["missing_inputs"]))
    lines += ["", "Claims and findings are counted by distinct claim (a claim and its profile twin, e.g. `x` and "
              "`x-full`, count once); refuted claims are counted by finding class; only `erratum` says the paper is "
              "wrong (see `docs/verdicts.md`). Each paper's rows, whole, are in `<paper>.json`.", ""]
    runs = {(r.get("run") or {}).get("commit", run["commit"]) + " " + (r.get("run") or {}).get("generated", "")
            for r in rows}
    several = len(runs) > 1  # rows written by separate runs (a profile folder built paper by paper)
    if several:
        lines += ["Rows come from separate runs; each names its own commit and time (the header is the latest run).", ""]
    unavailable = any(r.get("unavailable") for r in rows)  # the column only where some claim could not be checked
    lines += table(["paper", "claims", *STATUSES, *(["not checkable here"] if unavailable else []), *FINDINGS,
                    "outside hypotheses", "profile", "device", "report", *(["run"] if several else [])],
                   [[r["title"], r["n"], *[r["counts"].get(s, 0) for s in STATUSES],
                     *([r.get("unavailable", 0)] if unavailable else []),
                     *[r["findings"].get(f, 0) for f in FINDINGS], r.get("outside", 0),
                     run["profile"], run["device_info"]["device"], f"[{r['id']}.md]({r['id']}.md)",
                     *([f"`{(r.get('run') or {}).get('commit', '?')}`, {(r.get('run') or {}).get('generated', '?')}"]
                       if several else [])]
                    for r in rows])
    return "\n".join(lines).rstrip() + "\n"
