"""Runs of many claims that resume: ``verify`` and the report share one results store of finished claims.

A claim's result is stored under (claim id, seed, profile, device, the hash of its code closure, library
versions, and — for a paper whose claims read its text — the text's checksum, :func:`theoryverify.inputs.store_key`)
as soon as it is back, so a run stopped by Ctrl-C keeps every finished claim and the next run computes only the
rest.  A result that is "not checkable here" (an input is missing) or an ``error`` (the check broke) is not
stored: neither is a verdict, and the next run tries again.

Progress goes to stderr only (:mod:`theoryverify.progress`): a first line says what will run ("4 papers, 426
claims, quick profile; 312 from the results store"), each paper's claims show a bar on a terminal or a line per
batch elsewhere, and a last line says what was reused and what was computed.  An interrupt is re-raised as
:class:`Interrupted` (a ``KeyboardInterrupt``) carrying how many claims this run finished.
"""
from __future__ import annotations

import os
import time
from contextlib import closing
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from . import dispatch, environment, inputs
from .claims import Claim, Result, RunContext
from .closure import closure_version
from .progress import Batches, duration, note
from .store import CACHE_ENV, Store
from .verdicts import Status, Verdict

#: where finished claims are kept (relative to the working directory), shared by ``verify`` and the report —
#: unless :func:`store_root` finds the papers' project folder or ``$THEORYVERIFY_CACHE``
STORE_ROOT = Path(".theoryverify-cache") / "report"
_DEFAULT_STORE_ROOT = STORE_ROOT
#: CACHE_ENV (theoryverify.store): a folder for the results store, whatever the working directory (its ``report/``
#: holds finished claims, beside the claims' sweep points)


def store_root(papers: Iterable[str] = ()) -> Path:
    """The results store of a run of ``papers``: ``$THEORYVERIFY_CACHE/report`` when that is set; else, when
    every paper's package lies in one project folder (the folder above the package holds a ``pyproject.toml``: a
    paper written with ``new-paper``, run without installing or installed with ``pip install -e``), that
    folder's ``.theoryverify-cache/report`` — so a run from the package folder and one from its parent reuse the
    same results; else ``.theoryverify-cache/report`` in the working directory (:data:`STORE_ROOT`).

    >>> import os
    >>> os.environ.pop(CACHE_ENV, None) is None and str(store_root())
    '.theoryverify-cache/report'
    """
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]) / "report"
    if STORE_ROOT != _DEFAULT_STORE_ROOT:  # set by a caller (tests point it at a temporary folder)
        return STORE_ROOT
    from . import registry
    folders = set()
    for paper in papers:
        try:
            module = registry.paper_modules().get(paper)
        except Exception:  # a registry that cannot load: the working directory, as before
            return STORE_ROOT
        where = getattr(module, "__file__", None)
        project = Path(where).resolve().parent.parent if where else None
        if project is None or not (project / "pyproject.toml").is_file() or "site-packages" in project.parts:
            return STORE_ROOT
        folders.add(project)
    return folders.pop() / STORE_ROOT if len(folders) == 1 else STORE_ROOT


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a run; ``finished``: the claims this run computed and kept before it."""

    def __init__(self, finished: int, left: int) -> None:
        super().__init__(f"interrupted with {finished} claims finished, {left} left")
        self.finished, self.left = finished, left

    def line(self) -> str:
        kept = ("no claim finished in this run" if not self.finished else
                "the claim finished in this run is kept in the results store; the next run resumes from it"
                if self.finished == 1 else f"the {self.finished} claims finished in this run are kept in the "
                "results store; the next run resumes from them")
        return f"interrupted ({self.left} claims not computed); {kept}"


def code_version(claim: Claim) -> str:
    """Hash of the source closure of the claim's module (its paper code, the engine code it uses, the user's helpers): a
    change in any of it invalidates the stored result; rendering code is not in the closure."""
    return closure_version(claim.module) if claim.module else "unknown"


@dataclass
class Planned:
    claim: Claim
    key: dict[str, Any] | None  # None: never stored (a claim built ad hoc, with no module to hash)
    row: dict[str, Any] | None  # the stored row, or None (to compute)


def storable(row: dict[str, Any]) -> bool:
    """Is this row a verdict worth keeping (not "not checkable here", not a check that broke)?"""
    return not row.get("unavailable") and row.get("status") != Status.ERROR.value


class ClaimRun:
    """The claims of one run, looked up in the store; :meth:`compute` runs the missing ones."""

    def __init__(self, claims: Sequence[Claim], ctx: RunContext, store: Store, *, fresh: bool = False,
                 prefix: str = "theoryverify") -> None:
        self.ctx, self.store, self.fresh, self.prefix = ctx, store, fresh, prefix
        versions = environment.versions()
        extra: dict[str, dict[str, str]] = {}
        self.items: list[Planned] = []
        for c in claims:
            if not c.module:
                self.items.append(Planned(c, None, None))
                continue
            if c.paper not in extra:
                extra[c.paper] = inputs.store_key(c.paper)
            key = {"claim": c.id, "seed": ctx.seed, "profile": ctx.profile, "device": ctx.device,
                   "code": code_version(c), "versions": versions}
            if extra[c.paper]:
                key["inputs"] = extra[c.paper]
            found, row = (False, None) if fresh else store.get(key)
            self.items.append(Planned(c, key, row if found and isinstance(row, dict) else None))
        self.reused = sum(p.row is not None for p in self.items)
        self.computed = 0
        self.unstored = 0
        self.start = time.monotonic()

    @property
    def papers(self) -> list[str]:
        return list(dict.fromkeys(p.claim.paper for p in self.items))

    def first_line(self) -> str:
        """"4 papers, 426 claims, quick profile; 312 from the results store, 114 to compute"."""
        n, m = len(self.papers), len(self.items)
        where = ("the results store is ignored (--fresh)" if self.fresh else
                 f"{self.reused} from the results store ({self.store.root})")
        return (f"{n} paper{'s' * (n != 1)}, {m} claim{'s' * (m != 1)}, {self.ctx.profile} profile; {where}, "
                f"{m - self.reused} to compute")

    def last_line(self) -> str:
        unstored = f" ({self.unstored} not stored: not checkable here or the check broke)" if self.unstored else ""
        return (f"done: {self.reused} claim{'s' * (self.reused != 1)} reused from the results store, "
                f"{self.computed} computed in "
                f"{duration(time.monotonic() - self.start)}{unstored}")

    def compute(self, items: Sequence[Planned], *, desc: str, jobs: int = 1, scheduler: str | None = None,
                on_compute: Callable[[str], None] | None = None) -> list[dict[str, Any]]:
        """The rows of ``items`` in order: stored rows reused, the others computed through the dispatcher and
        stored each as soon as it is back, with progress on stderr."""
        out: list[Any] = [p.row for p in items]
        missing = [i for i, p in enumerate(items) if p.row is None]
        if not missing:
            return out
        bar = Batches(len(missing), desc, prefix=self.prefix)
        try:
            computed = dispatch.iter_results([items[i].claim for i in missing], self.ctx, jobs=jobs,
                                             scheduler=scheduler)
            with closing(computed):
                for i in missing:
                    if on_compute:
                        on_compute(items[i].claim.id)
                    row = next(computed).to_json()
                    p = items[i]
                    if p.key is not None and storable(row):
                        row = self.store.put(p.key, row)
                    else:
                        self.unstored += 1
                    out[i] = p.row = row
                    self.computed += 1
                    bar.update(1)
        except Interrupted:
            raise
        except KeyboardInterrupt:
            left = sum(p.row is None for p in self.items)
            raise Interrupted(self.computed, left) from None
        finally:
            bar.close()
        return out


def result_of(claim: Claim, row: dict[str, Any], ctx: RunContext) -> Result:
    """The :class:`Result` a row was made from (``Claim.run(ctx)``), for a front-end that prints Results."""
    verdict = Verdict(Status(row["status"]), row["method"], row["evidence"], row.get("counterexample"),
                      row.get("details") or {}, row.get("seed"), float(row.get("runtime_s") or 0.0))
    if claim.profile and ctx.profile != claim.profile:  # as Claim.run: a variant claim runs under its own profile
        ctx = replace(ctx, profile=claim.profile)
    return Result(claim, verdict, ctx.for_claim(claim.id, claim.params_for(ctx.profile)))


def missing_inputs_note(papers: Iterable[str], prefix: str = "theoryverify") -> list[inputs.Input]:
    """One warning line per paper text that the run's claims read and that is missing or differs (the verdicts
    that quote it are then "not checkable here"); returns them.  A catalogue changes no verdict."""
    absent = [i for i in inputs.absent(papers) if i.kind == "text"]
    for inp in absent:
        note(f"warning: input {inp.line()}", prefix)
    return absent
