"""Build the Markdown reports: run the registry's claims (through the results store), render
each paper's page and the index.  Re-implements no check: every verdict comes from
``Claim.run``."""
from __future__ import annotations

import json

import datetime as _dt
import time
from contextlib import closing
from importlib import metadata
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Sequence

from .. import catalogue, dispatch, environment, registry
from ..claims import Claim, RunContext
from ..progress import progress
from ..closure import closure_version
from ..store import Store
from . import markdown, plots

def code_version(claim: Claim) -> str:
    """Hash of the source closure of the claim's module (its paper code, the engine, the user's helpers): a
    change in any of it invalidates the cached verdict; rendering code is not in the closure."""
    return closure_version(claim.module) if claim.module else "unknown"


def paper_version(paper_id: str) -> str:
    """The version of the distribution that ships the paper package (or "unversioned")."""
    name = registry.module_of(paper_id).__name__.split(".")[0]
    try:
        dists = metadata.packages_distributions().get(name, [])
        return f"{dists[0]} {metadata.version(dists[0])}" if dists else "unversioned"
    except (metadata.PackageNotFoundError, IndexError):
        return "unversioned"


def select(paper_id: str, profile: str, only: Sequence[str] = (), device: str = "cpu") -> list[Claim]:
    """The claims a report of ``profile`` runs: the quick profile skips claims tagged slow or gpu; the full
    profile runs them all, except GPU-sized ones on a CPU (listed in the page as not run here)."""
    claims = registry.claims(paper=paper_id)
    if only:
        claims = [c for c in claims if c.id in only or c.catalogue_id in only]
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
            and (not only or c.id in only or c.catalogue_id in only)]


def run_paper(paper_id: str, ctx: RunContext, store: Store, fresh: bool, only: Sequence[str] = (),
              on_compute: Callable[[str], None] | None = None, *, jobs: int = 1,
              scheduler: str | None = None) -> list[dict[str, Any]]:
    """The JSON rows of the paper's selected claims: cached rows reused (unless ``fresh``), the missing ones
    computed through the engine's dispatcher (``jobs`` local processes or a Dask ``scheduler``; serial by
    default — the same rows either way) and stored each as soon as it is back, so an interrupted run
    resumes.  ``on_compute(claim_id)`` is called before each claim is computed."""
    versions = environment.versions()
    claims = select(paper_id, ctx.profile, only, ctx.device)
    keys = [{"claim": c.id, "seed": ctx.seed, "profile": ctx.profile, "device": ctx.device,
             "code": code_version(c), "versions": versions} for c in claims]
    out: list[Any] = [None] * len(claims)
    missing = []
    for i, key in enumerate(keys):
        found, value = (False, None) if fresh else store.get(key)
        if found:
            out[i] = value
        else:
            missing.append(i)
    computed = dispatch.iter_results([claims[i] for i in missing], ctx, jobs=jobs, scheduler=scheduler)
    with closing(computed):
        for i in progress(missing, desc=paper_id, unit="claim"):
            if on_compute:
                on_compute(claims[i].id)
            out[i] = store.put(keys[i], next(computed).to_json())
    return out


def write_paper(paper, results: list[dict[str, Any]], run: dict[str, Any], out: Path) -> dict[str, Any]:
    img_dir = out / paper.id
    images: dict[str, str] = {}  # the sweep plot shown in the bounds-vs-empirics section
    gallery: dict[str, list[str]] = {}  # every plot of a claim
    for r in results:
        made = plots.plots_for(r, img_dir)
        gallery[r["id"]] = [f"{paper.id}/{p.name}" for p in made]
        sweep = [p for p in gallery[r["id"]] if p.endswith("_sweep.png")]
        if sweep:
            images[r["id"]] = sweep[0]
    cov = catalogue.coverage(paper.spec, (r.get("catalogue_id") for r in results))
    run = dict(run, coverage=cov.line() if cov else f"unknown (catalogue `{paper.spec}` not found; set "
               f"{catalogue.SPEC_DIR_ENV})", paper_version=paper_version(paper.id))
    page = markdown.paper_page(vars(paper), run, results, images, gallery)
    (out / f"{paper.id}.md").write_text(page, encoding="utf-8")
    counts = Counter(r["status"] for r in results)
    findings = Counter(markdown.finding_of(r) for r in results if r["status"] == "refuted")
    return {"id": paper.id, "title": paper.title, "n": len(results), "counts": counts, "findings": findings,
            "errata": findings.get("erratum", 0), "outside": sum(bool(r.get("outside_hypotheses")) for r in results)}


def build(papers: Sequence[str], *, profile: str, device: str, seed: int, out: Path, fresh: bool,
          command: str, only: Sequence[str] = (), store_root: Path | None = None,
          on_compute: Callable[[str], None] | None = None, jobs: int = 1,
          scheduler: str | None = None) -> dict[str, Any]:
    """Run (or reuse) every selected claim of ``papers`` and write their pages and the index to ``out``.
    ``jobs``/``scheduler``: compute the missing claims in parallel (:mod:`theoryverify.dispatch`; one pool for
    all papers); the pages are the same as a serial run's."""
    out.mkdir(parents=True, exist_ok=True)
    store = Store(store_root or Path(".theoryverify-cache") / "report")
    ctx = RunContext(seed=seed, profile=profile, device=device)
    run = {"command": command, "profile": profile, "seed": seed,
           "device_info": environment.device_info(device), "versions": environment.versions(),
           "commit": environment.git_commit()}
    rows, timings = [], {}
    start_all = time.perf_counter()
    with dispatch.using(jobs, scheduler):
        for pid in papers:
            start = time.perf_counter()
            results = run_paper(pid, ctx, store, fresh, only, on_compute, jobs=jobs, scheduler=scheduler)
            timings[pid] = time.perf_counter() - start
            now = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
            page_run = dict(run, generated=f"{now}; runtime {timings[pid]:.1f} s",
                            not_run=gpu_sized(pid, profile, device, only))
            if not only:  # a whole paper's page: figures of claims that no longer plot must not linger
                for old in (out / pid).glob("*.png"):
                    old.unlink()
            rows.append(write_paper(registry.papers()[pid], results, page_run, out))
    now = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
    total = time.perf_counter() - start_all
    run["generated"] = f"{now}; runtime {total:.1f} s (" + ", ".join(
        f"{k} {v:.1f} s" for k, v in timings.items()) + ")"
    for row in rows:
        row["run"] = {"commit": run["commit"], "generated": f"{now}"}
    listed = _with_earlier_rows(out, rows, run["profile"]) if not only else rows
    (out / "index.md").write_text(markdown.index_page(run, listed), encoding="utf-8")
    return {"rows": rows, "timings": timings}


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
