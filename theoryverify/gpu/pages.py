"""The GPU report: ``index.md``, one Markdown page and one JSON file per paper, one figure per sweep.

Every page names the device (model, memory, driver, CUDA and torch versions), the commit, the seed, the time
and the wall time of the run; every sweep shows predicted against measured durations with the fitted law,
its confidence interval, the span of the grid, its verdict and whether it agrees with the CPU verdict.
"""
from __future__ import annotations

import json
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


def _figure(o: Outcome, path: Path) -> str | None:
    r = o.result
    if r is None:
        return None
    pts = [(row.get(r.x_name), row.get("measured"), row.get("predicted")) for row in r.rows]
    pts = [(x, m, p) for x, m, p in pts if isinstance(x, (int, float)) and isinstance(m, (int, float)) and x > 0 and m > 0]
    if len(pts) < 2:
        return None
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 3.6))
    xs = [p[0] for p in pts]
    ax.loglog(xs, [p[1] for p in pts], "o", label="measured (GPU)")
    pred = [(x, p) for x, _, p in pts if isinstance(p, (int, float)) and p > 0]
    if pred:
        ax.loglog([p[0] for p in pred], [p[1] for p in pred], "-", label="predicted")
    ax.set_xlabel(r.x_name)
    ax.set_ylabel(r.y_name)
    ax.set_title(f"{o.sweep.claim}: {r.verdict}", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110, metadata={"Software": None})
    plt.close(fig)
    return path.name


def _sweep_section(o: Outcome, out: Path) -> list[str]:
    s, r = o.sweep, o.result
    lines = [f"## {s.name} — {s.title}", "",
             f"- Extends: `{s.claim}` ({s.location}); budget {o.budget_s:.1f} s, wall {o.wall_s:.1f} s"]
    if r is None:
        return lines + [f"- **error**: {o.error}", ""]
    cpu = r.cpu or {}
    lines += [f"- Law under test: {r.law}",
              f"- **GPU verdict: {r.verdict}** — {r.reason}",
              f"- CPU verdict: {cpu.get('verdict', '—')} over {cpu.get('range', '—')} → {_agree(r.agrees_with_cpu)}",
              f"- Grid span: {_g(r.span_decades, 3)} decades in {r.x_name}"]
    fit = r.as_dict()["fit"]
    if fit:
        lines.append(f"- Fitted exponent: {_g(fit.get('exponent'))} (95 % CI [{_g(fit['ci'][0])}, {_g(fit['ci'][1])}],"
                     f" {fit.get('n_points')} points); predicted {_g(r.predicted_exponent)}")
    lines += [""]
    cols = [r.x_name, "predicted", "measured"] + sorted({k for row in r.rows for k in row} - {r.x_name, "predicted", "measured"})
    lines += ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    for row in r.rows:
        lines.append("| " + " | ".join(_g(row.get(c)) for c in cols) + " |")
    lines.append("")
    for sp in o.speeds:
        parts = [f"{_g(sp['device_s_per_step'], 3)} s/step on the device", f"{_g(sp['cpu_s_per_step'], 3)} s/step on the CPU",
                 f"ratio **{_g(sp.get('speedup'), 3)}×**"]
        if sp.get("flop_rate"):
            parts.append(f"{_g(sp['flop_rate'], 3)} FLOP/s" + (f" = {100 * sp['flop_fraction']:.2g} % of peak" if sp.get("flop_fraction") else ""))
        if sp.get("byte_rate"):
            parts.append(f"{_g(sp['byte_rate'], 3)} B/s" + (f" = {100 * sp['bandwidth_fraction']:.2g} % of peak bandwidth" if sp.get("bandwidth_fraction") else ""))
        lines.append(f"- Speed ({sp['label']}): " + "; ".join(parts))
    for pr in o.precisions:
        lines.append(f"- Precision ({pr['label']}): float32 vs float64, max relative difference {_g(pr['max_rel_diff'], 3)} over {pr['n']} values")
    for n in r.notes:
        lines.append(f"- Note: {n}")
    fig = _figure(o, out / o.paper / f"{s.name}.png")
    if fig:
        lines += ["", f"![{s.name}]({o.paper}/{fig})"]
    return lines + [""]


def write(outcomes: Iterable[Outcome], missing: dict[str, str], meta: dict, out: Path) -> list[Path]:
    """Write the report under ``out``; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    outcomes = list(outcomes)
    written: list[Path] = []
    by_paper: dict[str, list[Outcome]] = {}
    for o in outcomes:
        by_paper.setdefault(o.paper, []).append(o)
    for paper, os_ in by_paper.items():
        page = [f"# GPU sweeps — {paper}", ""] + _header(meta) + [""]
        for o in os_:
            page += _sweep_section(o, out)
        (out / f"{paper}.md").write_text("\n".join(page))
        (out / f"{paper}.json").write_text(json.dumps({"meta": meta, "sweeps": [o.as_dict() for o in os_]}, indent=1,
                                                      ensure_ascii=False))
        written += [out / f"{paper}.md", out / f"{paper}.json"]
    idx = ["# GPU sweeps", "", "Phase-duration and scaling verdicts extended beyond their CPU range "
           "(`python -m theoryverify.gpu`).", ""] + _header(meta) + ["",
           "| paper | sweep | extends | GPU verdict | CPU verdict | agreement | span (decades) | best speed-up | wall (s) |",
           "|---|---|---|---|---|---|---|---|---|"]
    for o in outcomes:
        r = o.result
        sp = max((s.get("speedup") or 0 for s in o.speeds), default=None)
        idx.append(f"| [{o.paper}]({o.paper}.md) | {o.sweep.name} | `{o.sweep.claim}` | {o.verdict} | "
                   f"{(r.cpu or {}).get('verdict', '—') if r else '—'} | {_agree(r.agrees_with_cpu) if r else '—'} | "
                   f"{_g(r.span_decades, 3) if r else '—'} | {_g(sp, 3) + '×' if sp else '—'} | {o.wall_s:.1f} |")
    if missing:
        idx += ["", "Papers without a GPU sweep: " + "; ".join(f"{p} ({w})" for p, w in missing.items())]
    (out / "index.md").write_text("\n".join(idx) + "\n")
    written.append(out / "index.md")
    return written
