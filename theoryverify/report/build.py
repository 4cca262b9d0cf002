"""Build the reports: run the registry's claims (through the results store), render each paper's
Markdown page, its HTML page (:mod:`.html`) and the index.  Re-implements no check: every verdict comes from
``Claim.run``."""
from __future__ import annotations

import json

import datetime as _dt
import time
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, Sequence

from .. import catalogue, dispatch, environment, inputs, registry, resume
from ..claims import Claim, RunContext
from ..progress import note
from ..store import Store
from . import cards, html, markdown, page, plots

PREFIX = "theoryverify.report"  # the name on the report's stderr lines

code_version = resume.code_version  # the hash that keys a stored result (kept here for older imports)


def paper_version(paper_id: str) -> str:
    """The version of the distribution that ships the paper package (or "unversioned"), and the git commit of the
    repository that holds the package when that is not the engine's."""
    module = registry.module_of(paper_id)
    name = module.__name__.split(".")[0]
    folders = list(getattr(module, "__path__", []))
    commit = next(filter(None, (environment.paper_commit(f) for f in folders)), None)
    at = f", git commit {commit}" if commit else ""  # the paper's own repository, when not the engine's
    if not commit and folders and not is_shipped(paper_id):  # no repository at all: say so, and which files ran
        at = (", not under version control (files sha256 "
              + "+".join(environment.paper_digest(f) for f in folders) + ")")
    try:
        dists = metadata.packages_distributions().get(name, [])
        return (f"{dists[0]} {metadata.version(dists[0])}" if dists else "unversioned") + at
    except (metadata.PackageNotFoundError, IndexError):
        return "unversioned" + at


def is_shipped(paper_id: str) -> bool:
    """Whether the paper package lies in the engine's own repository (an example it ships): then the report's
    "Git commit" is the paper's too; otherwise that commit is only the engine's, and the header says so."""
    module = registry.module_of(paper_id)
    return any(environment.in_engine_repository(f) for f in getattr(module, "__path__", []))


def engine_commit_label(paper_id: str) -> str:
    """The header's name for the engine's commit: "Git commit" for a shipped paper, "Engine commit" (theoryverify
    itself, not the paper) for an author's package."""
    return "Git commit" if is_shipped(paper_id) else "Engine commit (theoryverify, not the paper)"


def runtime_text(seconds: float, computed: int) -> str:
    """The header's runtime: "reused from the results store" when no claim was computed (the run took no time
    because nothing ran, which "runtime 0.0 s" hid)."""
    return f"runtime {seconds:.1f} s" if computed else "every result reused from the results store"


def select(paper_id: str, profile: str, only: Sequence[str] = (), device: str = "cpu") -> list[Claim]:
    """The claims a report of ``profile`` runs: the quick profile skips claims tagged slow or gpu; the full
    profile runs them all, except GPU-sized ones on a CPU (listed in the page as not run here)."""
    claims = registry.claims(paper=paper_id)
    if only:
        claims = [c for c in claims if c.id in only or set(c.catalogue_ids) & set(only)]
    if profile == "quick":
        claims = [c for c in claims if not c.tags_for("quick")]
    elif device != "cuda":
        claims = [c for c in claims if "gpu" not in c.tags_for(profile)]
    return claims


def gpu_sized(paper_id: str, profile: str, device: str, only: Sequence[str] = ()) -> list[str]:
    """Ids of the claims a full-profile report on a CPU leaves out because they are GPU-sized."""
    if profile == "quick" or device == "cuda":
        return []
    return [c.id for c in registry.claims(paper=paper_id) if "gpu" in c.tags_for(profile)
            and (not only or c.id in only or set(c.catalogue_ids) & set(only))]


#: beside each page, the run that computed its rows (what its header names), read by :mod:`.rerender`
RUN_SUFFIX = ".run.json"
#: beside the index, the run its header names
INDEX_RUN = "index.run.json"


def write_run(path: Path, run: dict[str, Any]) -> None:
    """The run's metadata, machine-readable, in the order the header shows it; never the re-render mark."""
    kept = {k: v for k, v in run.items() if k != "rendered"}
    path.write_text(json.dumps(kept, indent=1, ensure_ascii=False, default=str) + "\n",
                    encoding="utf-8")


def write_paper(paper, results: list[dict[str, Any]], run: dict[str, Any], out: Path) -> dict[str, Any]:
    cov = catalogue.coverage_line(paper.spec, catalogue.row_ids(results), paper.id)  # with the ids a claim covers
    return render_paper(paper, results, dict(run, coverage=cov, paper_version=paper_version(paper.id)), out)


def render_paper(paper, results: list[dict[str, Any]], run: dict[str, Any], out: Path) -> dict[str, Any]:
    """Write the paper's page (.md), rows (.json), HTML page, figures and run metadata (.run.json) from its rows
    and ``run`` (the header's metadata, coverage and package version included); return its index row."""
    img_dir = out / paper.id
    gallery: dict[str, list[str]] = {}  # every plot of a claim
    for r in results:
        gallery[r["id"]] = [f"{paper.id}/{p.name}" for p in plots.plots_for(r, img_dir)]
    write_run(out / f"{paper.id}{RUN_SUFFIX}", run)
    # the page read in five minutes (finding cards, passes by section, glossary), and every row whole beside it
    (out / f"{paper.id}.md").write_text(page.paper_page(vars(paper), run, results, gallery), encoding="utf-8")
    (out / f"{paper.id}.json").write_text(page.rows_json(results), encoding="utf-8")
    # the same rows as one self-contained page with finding cards and filters (issue 28), figures inlined
    (out / f"{paper.id}.html").write_text(html.paper_html(vars(paper), run, results, gallery, out), encoding="utf-8")
    made = cards.cards(results)  # counted by distinct claim: a profile twin pair is one claim, one finding
    findings = cards.finding_counts(made)
    row = {"id": paper.id, "title": paper.title, "n": len(made), "rows": len(results),
           "counts": cards.status_counts(made), "findings": findings, "errata": findings.get("erratum", 0),
           "outside": sum(c.outside_hypotheses for c in made)}
    planted = cards.planted_errors(results)
    if planted:  # only then (an index of papers without planted twins is unchanged)
        row["planted"] = {"caught": sum(p.caught for p in planted), "total": len(planted)}
    unavailable = sum(bool(r.get("unavailable")) for r in results)
    if unavailable:  # only then: an index made with every input has no such key (and no such column)
        row["unavailable"] = unavailable
    return row


def build(papers: Sequence[str], *, profile: str, device: str, seed: int, out: Path, fresh: bool,
          command: str, only: Sequence[str] = (), store_root: Path | None = None,
          on_compute: Callable[[str], None] | None = None, jobs: int = 1,
          scheduler: str | None = None) -> dict[str, Any]:
    """Run (or reuse) every selected claim of ``papers`` and write their pages and the index to ``out``.
    ``jobs``/``scheduler``: compute the missing claims in parallel (:mod:`theoryverify.dispatch`; one pool for
    all papers); the pages are the same as a serial run's.  Progress (what will run, each paper's claims, what
    was reused and computed) goes to stderr (:mod:`theoryverify.resume`); Ctrl-C raises
    :class:`~theoryverify.resume.Interrupted` with every finished claim kept in the store."""
    out.mkdir(parents=True, exist_ok=True)
    store = Store(store_root or resume.store_root(papers))
    ctx = RunContext(seed=seed, profile=profile, device=device)
    absent = inputs.absent(papers)
    run = {"command": command, "profile": profile, "seed": seed,
           "device_info": environment.device_info(device), "versions": environment.versions(),
           "commit": environment.git_commit(), "missing_inputs": [i.line() for i in absent]}
    selected = {pid: select(pid, profile, only, device) for pid in papers}
    claim_run = resume.ClaimRun([c for pid in papers for c in selected[pid]], ctx, store, fresh=fresh, prefix=PREFIX)
    note(claim_run.first_line(), PREFIX)
    rows, timings, computed = [], {}, {}
    start_all = time.perf_counter()
    first = 0
    with dispatch.using(jobs, scheduler):
        for pid in papers:
            start = time.perf_counter()
            items = claim_run.items[first:first + len(selected[pid])]
            first += len(selected[pid])
            before = claim_run.computed
            results = claim_run.compute(items, desc=pid, jobs=jobs, scheduler=scheduler, on_compute=on_compute)
            timings[pid] = time.perf_counter() - start
            computed[pid] = claim_run.computed - before
            now = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
            page_run = dict(run, generated=f"{now}; {runtime_text(timings[pid], computed[pid])}",
                            not_run=gpu_sized(pid, profile, device, only), commit_label=engine_commit_label(pid))
            if not only:  # a whole paper's page: figures of claims that no longer plot must not linger
                for old in (out / pid).glob("*.png"):
                    old.unlink()
            rows.append(write_paper(registry.papers()[pid], results, page_run, out))
    now = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    total = time.perf_counter() - start_all
    run["generated"] = f"{now}; runtime {total:.1f} s (" + ", ".join(
        f"{k} {timings[k]:.1f} s" if computed[k] else f"{k} reused from the results store" for k in timings) + ")"
    if not any(computed.values()):
        run["generated"] = f"{now}; {runtime_text(total, 0)}"
    if papers and not all(is_shipped(pid) for pid in papers):
        run["commit_label"] = "Engine commit (theoryverify)"
    for row in rows:
        row["run"] = {"commit": run["commit"], "generated": f"{now}"}
    listed = _with_earlier_rows(out, rows, run["profile"]) if not only else rows
    (out / "index.md").write_text(markdown.index_page(run, listed), encoding="utf-8")
    write_run(out / INDEX_RUN, run)
    note(claim_run.last_line(), PREFIX)
    return {"rows": rows, "timings": timings, "missing_inputs": absent, "reused": claim_run.reused,
            "computed": claim_run.computed}


INDEX_ROWS = "index.json"


def _with_earlier_rows(out: Path, rows: list[dict[str, Any]], profile: str) -> list[dict[str, Any]]:
    """``rows`` plus the index rows of the papers an earlier whole-paper run of the same profile wrote into ``out``
    (a full-profile folder is built one paper at a time), each keeping the commit and time of its own run; the
    rows are kept in ``out/index.json``.  A paper no longer installed, or whose page is gone, is dropped."""
    path = out / INDEX_ROWS
    try:
        earlier = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    except (OSError, ValueError):
        earlier = {}
    if earlier.get("profile") != profile:
        earlier = {}
    known = registry.papers()
    merged = {r["id"]: r for r in earlier.get("rows", []) if r["id"] in known and (out / f"{r['id']}.md").exists()}
    merged.update({r["id"]: r for r in rows})
    ordered = [merged[pid] for pid in known if pid in merged]
    path.write_text(json.dumps({"profile": profile, "rows": ordered}, indent=1, sort_keys=True, default=dict) + "\n",
                    encoding="utf-8")
    return ordered
