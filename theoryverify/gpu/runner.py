"""Find the papers' GPU sweeps, share the wall-time budget among them, run them, keep every outcome.

Discovery: for each registered paper, the module ``<paper package>.experiments.gpu`` and its ``SWEEPS``.  A
paper without one is skipped (and listed); a sweep that fails becomes an ``error`` outcome with its one-line
reason and the others still run.  Budget: what is left of the total is split evenly over the sweeps still to
run, so a fast sweep leaves more for the next one.
"""
from __future__ import annotations

import importlib
import time
import traceback
from dataclasses import dataclass, field
from typing import Callable

from .sweep import GpuContext, GpuResult, GpuSweep

MODULE = "experiments.gpu"


class NoSweeps(Exception):
    """The selection has no GPU sweep to run."""


@dataclass
class Outcome:
    """One sweep's run: its result (or the error that stopped it) with the context's records."""

    paper: str
    sweep: GpuSweep
    budget_s: float
    wall_s: float
    result: GpuResult | None = None
    error: str | None = None
    speeds: list = field(default_factory=list)
    precisions: list = field(default_factory=list)
    log: list = field(default_factory=list)

    @property
    def verdict(self) -> str:
        return self.result.verdict if self.result else "error"

    def as_dict(self) -> dict:
        s = self.sweep
        return {"paper": self.paper, "sweep": s.name, "claim": s.claim, "location": s.location, "title": s.title,
                "budget_s": round(self.budget_s, 2), "wall_s": round(self.wall_s, 2), "verdict": self.verdict,
                "error": self.error, "result": self.result.as_dict() if self.result else None,
                "speeds": self.speeds, "precisions": self.precisions, "log": self.log}


def discover(paper: str | None = None) -> tuple[dict[str, list[GpuSweep]], dict[str, str]]:
    """Paper id -> its sweeps; and paper id -> why it has none (no module, or an import error)."""
    from ..registry import broken_papers, paper_modules

    mods = paper_modules()
    if paper is not None and paper not in mods:
        known = ", ".join(mods) or "none"
        broken = broken_papers()
        extra = f" ({'; '.join(broken.values())})" if broken else ""
        raise NoSweeps(f"unknown paper {paper!r} (registered: {known}){extra}")
    found: dict[str, list[GpuSweep]] = {}
    missing: dict[str, str] = {}
    for pid, mod in mods.items():
        if paper is not None and pid != paper:
            continue
        name = f"{mod.__name__}.{MODULE}"
        try:
            gm = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name in (name, f"{mod.__name__}.experiments"):
                missing[pid] = f"no {name} module"
                continue
            missing[pid] = f"cannot import {name}: {type(exc).__name__}: {exc}"
            continue
        except Exception as exc:  # a broken sweep module must not stop the others
            missing[pid] = f"cannot import {name}: {type(exc).__name__}: {exc}"
            continue
        sweeps = list(getattr(gm, "SWEEPS", []))
        bad = [s for s in sweeps if not isinstance(s, GpuSweep)]
        if bad or not sweeps:
            missing[pid] = f"{name}.SWEEPS must be a non-empty list of theoryverify.GpuSweep"
            continue
        found[pid] = sweeps
    if not found:
        raise NoSweeps("no GPU sweep found: " + "; ".join(f"{p}: {w}" for p, w in missing.items()))
    return found, missing


def run_all(found: dict[str, list[GpuSweep]], *, device: str, seed: int, budget_s: float, dry_run: bool,
            hardware, only: str | None = None, log: Callable[[str], None] = print,
            after_each: Callable[[list[Outcome]], None] | None = None) -> list[Outcome]:
    """Run every sweep (``only``: the one with that name) and return the outcomes in paper order."""
    import torch

    todo = [(p, s) for p, sweeps in found.items() for s in sweeps if only in (None, s.name)]
    if not todo:
        raise NoSweeps(f"no sweep named {only!r}")
    t0 = time.perf_counter()
    outcomes: list[Outcome] = []
    for i, (paper, sweep) in enumerate(todo):
        left = budget_s - (time.perf_counter() - t0)
        share = max(left, 0.0) / (len(todo) - i)
        log(f"[{paper}] {sweep.name}: budget {share:.1f} s")
        torch.manual_seed(seed)
        ctx = GpuContext(device, seed, share, dry_run, hardware=hardware,
                         log=lambda m, _p=paper, _s=sweep.name: log(f"[{_p}] {_s}: {m}"))
        start = time.perf_counter()
        result = error = None
        try:
            got = sweep.run(ctx)
            if not isinstance(got, GpuResult):
                raise TypeError(f"run() returned {type(got).__name__}, not a GpuResult")
            result = got
        except Exception as exc:  # one failing sweep does not stop the run
            tb = traceback.extract_tb(exc.__traceback__)
            where = f" (at {tb[-1].filename.rsplit('/', 1)[-1]}:{tb[-1].lineno})" if tb else ""
            error = f"{type(exc).__name__}: {exc}{where}"
            log(f"[{paper}] {sweep.name}: ERROR {error}")
        wall = time.perf_counter() - start
        outcomes.append(Outcome(paper, sweep, share, wall, result, error, list(ctx.speeds), list(ctx.precisions),
                                list(ctx.messages)))
        log(f"[{paper}] {sweep.name}: {outcomes[-1].verdict} in {wall:.1f} s")
        if device == "cuda":
            torch.cuda.empty_cache()
        if after_each:
            after_each(outcomes)
    return outcomes
