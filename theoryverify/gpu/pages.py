"""The GPU report: ``index.md``, one Markdown page and one JSON file per paper, one figure per sweep.

Every page names the device (model, memory, driver, CUDA and torch versions), the commit, the seed, the time
and the wall time of the run; every sweep shows predicted against measured durations with the fitted law,
its confidence interval, the span of the grid, its verdict and whether it agrees with the CPU verdict.
"""
from __future__ import annotations

import json
import math
import textwrap
from pathlib import Path
from typing import Any, Iterable

from .runner import Outcome


def _g(x: Any, digits: int = 4) -> str:
    if x is None:
        return "—"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, float):
        return f"{x:.{digits}g}"
    return str(x)


def _agree(a: bool | None) -> str:
    return {True: "agrees", False: "**disagrees**", None: "—"}[a]


def _header(meta: dict) -> list[str]:
    hw = meta["hardware"]
    dev = hw["name"] + (f", {hw['memory_gib']} GiB" if hw.get("memory_gib") else "")
    lines = [f"- Device: {dev}" + (f"; driver {hw['driver']}" if hw.get("driver") else "")
             + (f"; CUDA {hw['cuda']}" if hw.get("cuda") else "") + f"; torch {hw['torch']}",
             f"- CPU for the speed ratios: {hw['cpu']} ({hw['cpu_threads']} torch threads)",
             f"- Commit: `{meta['commit']}`; seed: {meta['seed']}; generated: {meta['generated']}",
             f"- Wall time: {meta['wall_s']:.1f} s of a {meta['budget_s']:.0f} s budget"
             + ("; **dry run** (tiny sizes on the CPU: tests the command, decides nothing)" if meta["dry_run"] else ""),
             "- Versions: " + ", ".join(f"{k} {v}" for k, v in meta["versions"].items())]
    return lines


def _positive(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v > 0


def figure_of(result: dict, claim: str, declared: dict | None = None):
    """The figure of a result's plain rows (None under two points), drawn as the report draws a rate claim
    (:mod:`theoryverify.report.plots`): per group (``family``, ``part`` or ``series``) the measurement, the
    range over seeds as a band where a row records ``per_seed``, the paper's law from the column ``law_column``
    (default ``predicted``; with ``law_constant`` "best" scaled by the best constant, where Θ/O hides it) and a
    derived law from ``derived_column`` — the conventions the sweep declares (``declared``: its
    :attr:`~theoryverify.gpu.sweep.GpuSweep.figure`), which a result's own keys override; the y axis named by the quantity and wrapped,
    the verdict in the title, the fit, span and law in the caption."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    from ..report import plots

    x_name, rows = result["x_name"], result["rows"]
    conv = {**(declared or {}), **{k: result[k] for k in ("law_column", "law_constant", "derived_column") if k in result}}
    law_col = conv.get("law_column") or "predicted"
    derived_col = conv.get("derived_column")
    best = conv.get("law_constant") == "best"
    groups: dict = {}
    for row in rows:
        if _positive(row.get(x_name)) and _positive(row.get("measured")):
            key = next((str(row[k]) for k in ("family", "part", "series") if k in row), "")
            groups.setdefault(key, []).append(row)
    if sum(len(g) for g in groups.values()) < 2:
        return None
    fig, ax = plt.subplots(figsize=(6.0, 4.2))
    for i, (key, grp) in enumerate(groups.items()):
        grp = sorted(grp, key=lambda r: r[x_name])
        color, tag = f"C{i}", (f" ({key})" if key else "")
        xs = np.array([float(r[x_name]) for r in grp])
        ys = np.array([float(r["measured"]) for r in grp])
        seeds = [[float(v) for v in r["per_seed"] if _positive(v)] if isinstance(r.get("per_seed"), list) else []
                 for r in grp]
        if any(len(s_) > 1 for s_ in seeds):
            lo = [min(s_) if s_ else y for s_, y in zip(seeds, ys)]
            hi = [max(s_) if s_ else y for s_, y in zip(seeds, ys)]
            ax.fill_between(xs, lo, hi, color=color, alpha=0.2, gid=plots.BAND,
                            label=f"range over {max(len(s_) for s_ in seeds)} seeds{tag}")
        ax.plot(xs, ys, "o", color=color, gid=plots.MEASURED, label=plots.renderable(f"measured{tag}"))
        law = [(x, float(r[law_col])) for x, r in zip(xs, grp) if _positive(r.get(law_col))]
        if law:
            lx, lv = np.array([p_[0] for p_ in law]), np.array([p_[1] for p_ in law])
            c = float(np.exp(np.mean(np.log(ys[np.isin(xs, lx)] / lv)))) if best else 1.0
            what = f"paper's law{tag}" + (f" × {c:.3g} (best constant; Θ/O hides it)" if best else "")
            ax.plot(lx, c * lv, "--", color="k" if len(groups) == 1 else color, gid=plots.LAW,
                    label=plots.renderable(what))
        der = [(x, float(r[derived_col])) for x, r in zip(xs, grp) if derived_col and _positive(r.get(derived_col))]
        if der:
            ax.plot([p_[0] for p_ in der], [p_[1] for p_ in der], ":", color=color, linewidth=2, gid=plots.DERIVED,
                    label=plots.renderable(f"derived law{tag}"))
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(plots.renderable(x_name))
    ax.set_ylabel(plots.renderable(textwrap.fill(str(result["y_name"]), 40)), fontsize=9)
    ax.set_title(plots.renderable(textwrap.fill(f"{claim}: {result['verdict']}", 70)), fontsize=9)
    ax.legend(fontsize=7)
    fit = result.get("fit") or {}
    parts = []
    if fit.get("exponent") is not None:
        ci = fit.get("ci") or [None, None]
        parts.append(f"fit: exponent b = {_g(fit['exponent'])} (95 % CI [{_g(ci[0])}, {_g(ci[1])}], "
                     f"{fit.get('n_points', '?')} points); the paper: {_g(result.get('predicted_exponent'))}")
    if result.get("span_decades") is not None:
        parts.append(f"grid: {_g(result['span_decades'], 3)} decades in {x_name}")
    parts.append(f"law: {result.get('law', '')}")
    fig.text(0.01, -0.01, plots.renderable("\n".join(textwrap.fill(p_, 100) for p_ in parts)), fontsize=7, va="top",
             ha="left", transform=fig.transFigure)
    plots._log_ticks(ax)
    fig.tight_layout()
    plots._thin_ticks(ax, fig)
    return fig


def figure(result: dict, claim: str, path: Path, declared: dict | None = None) -> str | None:
    """The figure of :func:`figure_of`, written to ``path``; its file name, or None when there is none."""
    fig = figure_of(result, claim, declared)
    if fig is None:
        return None
    from ..report.plots import _save

    _save(fig, path)
    return path.name


def _rates(sp: dict, peaks: dict) -> list[str]:
    """The achieved rates of a speed record against the device's datasheet peaks (both FP64 peaks for FLOPs:
    matmul-heavy steps run on the tensor cores, elementwise ones on the vector units)."""
    out = []
    if sp.get("flop_rate"):
        fr = sp["flop_rate"]
        fracs = [f"{100 * fr / peaks[k]:.2g} % of the {label} peak ({peaks[k] / 1e12:.3g} TFLOP/s)"
                 for k, label in (("fp64", "FP64 vector"), ("fp64_tensor", "FP64 tensor-core")) if peaks.get(k)]
        out.append(f"{_g(fr, 3)} FLOP/s (counted FLOPs per step / time)" + (" = " + ", ".join(fracs) if fracs else ""))
    if sp.get("byte_rate"):
        br = sp["byte_rate"]
        out.append(f"{_g(br, 3)} B/s (counted bytes per step / time)" + (
            f" = {100 * br / peaks['bandwidth']:.2g} % of peak memory bandwidth ({peaks['bandwidth'] / 1e12:.3g} TB/s)"
            if peaks.get("bandwidth") else ""))
    return out


def sweep_section(paper: str, sw: dict, meta: dict, out: Path, declared: dict | None = None) -> list[str]:
    """One sweep's section, from its plain record (Outcome.as_dict(), also what the JSON file holds)."""
    lines = [f"## {sw['sweep']} — {sw['title']}", "",
             f"- Extends: `{sw['claim']}` ({sw['location']}); budget {sw['budget_s']:.1f} s, wall {sw['wall_s']:.1f} s"]
    r = sw.get("result")
    if not r:
        return lines + [f"- **error**: {sw.get('error')}", ""]
    cpu = r.get("cpu") or {}
    lines += [f"- Law under test: {r['law']}",
              f"- **GPU verdict: {r['verdict']}** — {r['reason']}",
              f"- CPU verdict: {cpu.get('verdict', '—')} over {cpu.get('range', '—')} → {_agree(r.get('agrees_with_cpu'))}",
              f"- Grid span: {_g(r.get('span_decades'), 3)} decades in {r['x_name']}"]
    fit = r.get("fit")
    if fit:
        lines.append(f"- Fitted exponent: {_g(fit.get('exponent'))} (95 % CI [{_g(fit['ci'][0])}, {_g(fit['ci'][1])}],"
                     f" {fit.get('n_points')} points); predicted {_g(r.get('predicted_exponent'))}")
    lines += [""]
    x = r["x_name"]
    cols = [x, "predicted", "measured"] + sorted({k for row in r["rows"] for k in row} - {x, "predicted", "measured"})
    lines += ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in r["rows"]:
        lines.append("| " + " | ".join(_g(row.get(c)) for c in cols) + " |")
    lines.append("")
    peaks = meta["hardware"].get("peaks") or {}
    for sp in sw.get("speeds", []):
        parts = [f"{_g(sp['device_s_per_step'], 3)} s/step on the device", f"{_g(sp['cpu_s_per_step'], 3)} s/step on the CPU",
                 f"ratio **{_g(sp.get('speedup'), 3)}×**"] + _rates(sp, peaks)
        lines.append(f"- Speed ({sp['label']}): " + "; ".join(parts))
    for pr in sw.get("precisions", []):
        lines.append(f"- Precision ({pr['label']}): float32 vs float64, max relative difference {_g(pr['max_rel_diff'], 3)} over {pr['n']} values")
    for n in r.get("notes", []):
        lines.append(f"- Note: {n}")
    fig = figure(r, sw["claim"], out / paper / f"{sw['sweep']}.png", declared)
    if fig:
        lines += ["", f"![{sw['sweep']}]({paper}/{fig})"]
    return lines + [""]


def paper_page(paper: str, sweeps: list[dict], meta: dict, out: Path, declared: dict | None = None) -> str:
    """``declared``: sweep name -> the figure conventions its registration declares (:func:`declared_figures`)."""
    page = [f"# GPU sweeps — {paper}", ""] + _header(meta) + [""]
    for sw in sweeps:
        page += sweep_section(paper, sw, meta, out, (declared or {}).get(sw["sweep"]))
    return "\n".join(page)


def _index_row(paper: str, sw: dict, meta: dict) -> str:
    r = sw.get("result") or {}
    sp = max((s.get("speedup") or 0 for s in sw.get("speeds", [])), default=None)
    cpu = (r.get("cpu") or {}).get("verdict", "—") if r else "—"
    return (f"| [{paper}]({paper}.md) | {sw['sweep']} | `{sw['claim']}` | {sw['verdict']} | {cpu} | "
            f"{_agree(r.get('agrees_with_cpu')) if r else '—'} | {_g(r.get('span_decades'), 3) if r else '—'} | "
            f"{_g(sp, 3) + '×' if sp else '—'} | {sw['wall_s']:.1f} | `{meta['commit']}`, {meta['generated']} |")


INDEX_HEAD = ["| paper | sweep | extends | GPU verdict | CPU verdict | agreement | span (decades) | best speed-up "
              "| wall (s) | run (commit, time) |", "|---|---|---|---|---|---|---|---|---|---|"]


def declared_figures(paper: str) -> dict[str, dict]:
    """Sweep name -> the figure conventions its registration declares now (empty when the paper's sweeps cannot
    be loaded: the figure then draws the recorded "predicted" column as the law)."""
    from .runner import NoSweeps, discover

    try:
        found, _missing = discover(paper)
    except NoSweeps:
        return {}
    return {s.name: dict(s.figure) for s in found.get(paper, [])}


def rebuild(out: Path) -> list[Path]:
    """index.md, the paper pages and their figures again from the per-paper JSON files in ``out`` (no sweep runs): for a report
    assembled from several runs (a paper rerun alone); every row names the run it came from."""
    files = sorted(p for p in out.glob("*.json"))
    if not files:
        raise FileNotFoundError(f"no <paper>.json in {out}")
    rows, metas, written = [], [], []
    for f in files:
        data = json.loads(f.read_text())
        paper = f.stem
        metas.append(data["meta"])
        (out / f"{paper}.md").write_text(paper_page(paper, data["sweeps"], data["meta"], out, declared_figures(paper)))
        written.append(out / f"{paper}.md")
        for sw in data["sweeps"]:
            rows.append(_index_row(paper, sw, data["meta"]))
    devices = sorted({m["hardware"]["name"] for m in metas})
    idx = ["# GPU sweeps", "", "Phase-duration and scaling verdicts extended beyond their CPU range "
           "(`python -m theoryverify.gpu`). Assembled from the runs named in the last column "
           "(each paper's page has its run's header).", "",
           f"- Device(s): {', '.join(devices)}",
           f"- Wall time of the runs: " + ", ".join(f"`{c}` {w:.1f} s" for c, w in sorted(
               {(m["commit"] + " " + m["generated"], float(m["wall_s"])) for m in metas})), ""] + INDEX_HEAD + rows
    (out / "index.md").write_text("\n".join(idx) + "\n")
    return written + [out / "index.md"]


def write(outcomes: Iterable[Outcome], missing: dict[str, str], meta: dict, out: Path) -> list[Path]:
    """Write the report under ``out``; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    outcomes = list(outcomes)
    written: list[Path] = []
    by_paper: dict[str, list[Outcome]] = {}
    for o in outcomes:
        by_paper.setdefault(o.paper, []).append(o)
    for paper, os_ in by_paper.items():
        (out / f"{paper}.md").write_text(paper_page(paper, [o.as_dict() for o in os_], meta, out,
                                                    {o.sweep.name: dict(o.sweep.figure) for o in os_}))
        (out / f"{paper}.json").write_text(json.dumps({"meta": meta, "sweeps": [o.as_dict() for o in os_]}, indent=1,
                                                      ensure_ascii=False))
        written += [out / f"{paper}.md", out / f"{paper}.json"]
    idx = ["# GPU sweeps", "", "Phase-duration and scaling verdicts extended beyond their CPU range "
           "(`python -m theoryverify.gpu`).", ""] + _header(meta) + [""] + INDEX_HEAD
    for o in outcomes:
        idx.append(_index_row(o.paper, o.as_dict(), meta))
    if missing:
        idx += ["", "Papers without a GPU sweep: " + "; ".join(f"{p} ({w})" for p, w in missing.items())]
    (out / "index.md").write_text("\n".join(idx) + "\n")
    written.append(out / "index.md")
    return written
