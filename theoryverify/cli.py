"""``python -m theoryverify <command>``: verify, list, locations, papers, new-paper, diff.

``verify [--paper ID] [--claim ID ...] [--json] [--debug] [--fresh] [--jobs N | --scheduler ADDRESS]``: exit codes 0
every verdict is what the registry expects; 1 some verdict differs; 3 the only differences are inconclusive
verdicts of claims expected to pass (undecided, not wrong: :func:`exit_code`); 2 bad input (unknown paper or claim id, bad
option) with a one-line error; 130 interrupted (Ctrl-C: every finished claim is kept in the results store, shared
with the report, and the next run resumes from them).  Without ``--paper``/``--claim`` it runs every paper and
says so.  Progress goes to stderr (:mod:`theoryverify.resume`).  ``papers`` lists the installed papers and, for
each, whether its text and catalogue were found with the recorded checksum (:mod:`theoryverify.inputs`).
``new-paper NAME --dir DIR`` writes a paper package in the uniform layout (:mod:`theoryverify.scaffold`);
``diff OLD.json NEW.json`` lists the verdicts that changed between two ``verify --json`` runs
(:mod:`theoryverify.diffing`); ``review --paper ID [--latex]`` writes the paper's findings as a referee report
(:mod:`theoryverify.report.review`).
"""
from __future__ import annotations

import argparse
import json
import sys
from itertools import groupby
from typing import Sequence

from . import dispatch, inputs, profiles, registry, render, resume
from .claims import RunContext
from .devices import resolve_device
from .errors import TheoryverifyError
from .progress import note
from .seeds import DEFAULT_SEED
from .store import Store
from .verdicts import Status

COMMANDS = ("verify", "list", "locations", "papers", "new-paper", "diff", "review")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2 (never a usage dump or a traceback)
        sys.stderr.write(f"theoryverify: error: {message}\n")
        raise SystemExit(2)


def add_dispatch_options(p: argparse.ArgumentParser) -> None:
    """--jobs / --scheduler: run claims (and their sweeps) in parallel; results identical to a serial run."""
    group = p.add_mutually_exclusive_group()
    group.add_argument("--jobs", type=int, default=1, metavar="N", help="local worker processes (default 1: serial)")
    group.add_argument("--scheduler", metavar="ADDRESS", help="a running Dask scheduler, e.g. tcp://host:8786")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m theoryverify", description=__doc__,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    verify = sub.add_parser("verify", help="run registered claims and print their verdicts")
    verify.add_argument("--paper", help="paper id (e.g. icrecall)")
    verify.add_argument("--claim", action="append", default=[],
                        help="claim id (e.g. icrecall.table2; with --paper the prefix may be left out: table2) or catalogue id; repeatable (each one runs)")
    verify.add_argument("--json", action="store_true", help="print a JSON list of results")
    verify.add_argument("--wide", "--full-evidence", dest="wide", action="store_true",
                        help="print every column of the table whole (the evidence is cut at 70 characters otherwise)")
    verify.add_argument("--seed", type=int, default=DEFAULT_SEED)
    verify.add_argument("--profile", choices=["quick", "full"], default="quick")
    verify.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    verify.add_argument("--include-slow", action="store_true", help="also run claims tagged slow/gpu")
    verify.add_argument("--debug", action="store_true", help="show the traceback of a check that raised")
    verify.add_argument("--fresh", action="store_true",
                        help="ignore the results store (finished claims of earlier runs and reports)")
    add_dispatch_options(verify)
    sub.add_parser("list", help="list registered claims (id, catalogue id, kind, location, source)"
                   ).add_argument("--paper")
    loc = sub.add_parser("locations", help="the map from paper location to claim ids (generated)")
    loc.add_argument("--paper", required=True)
    sub.add_parser("papers", help="the installed papers, where each was found, and whether its text and catalogue "
                                  "were found (by checksum)")
    new = sub.add_parser("new-paper", help="write a new paper package in the uniform layout")
    new.add_argument("name", help="the paper id = its package name (a Python identifier, lower case)")
    new.add_argument("--dir", "--out", dest="dir", default=".",
                     help="the folder to create the package folder in (default: .)")
    new.add_argument("--from-tex", metavar="PAPER.tex", default=None,
                     help="draft the package from the paper's LaTeX: its numbered displays in printed/, its theorems "
                          "as claim stubs, its derivation chains as step-check claims, and a catalogue")
    new.add_argument("--title", default=None, help="the paper's title")
    diff = sub.add_parser("diff", help="verdicts that changed between two `verify --json` outputs")
    diff.add_argument("old")
    diff.add_argument("new")
    diff.add_argument("--json", action="store_true", help="print the changes as JSON")
    from .report import review
    review.add_arguments(sub.add_parser("review", help="a paper's findings as a referee report (Markdown, or "
                                                       "LaTeX with --latex)"))
    return parser


def _error(message: object) -> int:
    sys.stderr.write("theoryverify: error: " + " ".join(str(message).split()) + "\n")
    return 2


def main(argv: Sequence[str] | None = None) -> int:
    """The command; Ctrl-C anywhere ends it with one line and exit 130 (every finished claim kept)."""
    try:
        return _main(argv)
    except KeyboardInterrupt as exc:
        note(exc.line() if isinstance(exc, resume.Interrupted) else "interrupted; every finished claim is kept in "
             "the results store and the next run resumes from them")
        return 130


def _main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command is None:
        return _error(f"a command is required ({', '.join(COMMANDS)})")
    try:
        if args.command == "papers":
            return _papers()
        if args.command == "new-paper":
            from . import scaffold
            return scaffold.main(args)
        if args.command == "diff":
            from . import diffing
            return diffing.main(args)
        if args.command == "review":
            from .report import review
            return review.main(args)
        return _claims_command(args)
    except TheoryverifyError as exc:
        return _error(exc)


def _selected(paper: str | None, claims: Sequence[str]) -> list:
    """The claims ``--paper``/``--claim`` select: with several ``--claim``, each one's, in the order given and
    once each (an unknown one is an error, never dropped)."""
    if not claims:
        return registry.claims(paper=paper)
    out, seen = [], set()
    for cid in claims:
        for c in registry.claims(paper=paper, claim=cid):
            if c.id not in seen:
                seen.add(c.id)
                out.append(c)
    return out


def _claims_command(args: argparse.Namespace) -> int:
    selected = _selected(args.paper, getattr(args, "claim", None) or [])
    if args.command == "list":
        for c in selected:
            print(f"{c.id}\t{c.catalogue_id or '-'}\t{c.kind.value}\t{c.location}\t{c.source}")
        return 0
    if args.command == "locations":
        for where, ids in registry.locations(args.paper).items():
            print(f"{where}\t{', '.join(ids)}")
        return 0
    try:
        device = resolve_device(args.device)
    except ValueError as exc:
        return _error(exc)
    if args.jobs < 1:
        return _error("--jobs must be at least 1")
    profiles.load()
    if not (args.include_slow or args.claim or args.profile == "full"):
        selected = [c for c in selected if not c.tags_for(args.profile)]
    ctx = RunContext(seed=args.seed, profile=args.profile, device=device)
    store = Store(resume.store_root(dict.fromkeys(c.paper for c in selected)))
    run = resume.ClaimRun(selected, ctx, store, fresh=args.fresh)
    every = "" if args.paper or args.claim else f"no --paper or --claim: every paper ({', '.join(run.papers)}); "
    note(every + run.first_line())
    resume.missing_inputs_note(run.papers)
    rows: list = []
    with dispatch.using(args.jobs, args.scheduler):
        for pid, items in groupby(run.items, key=lambda p: p.claim.paper):
            rows += run.compute(list(items), desc=pid, jobs=args.jobs, scheduler=args.scheduler)
    results = [resume.result_of(p.claim, row, ctx) for p, row in zip(run.items, rows)]
    if args.json:
        print(json.dumps([r.to_json() for r in results], indent=1, ensure_ascii=False))
    else:
        print(render.table(results, wide=args.wide))
        print(render.summary(results))
    if args.debug:
        for r in results:
            tb = (r.verdict.details or {}).get("traceback")
            if tb:
                sys.stderr.write(f"--- {r.claim.id}: the check raised ---\n{tb}\n")
    note(run.last_line())
    return exit_code(results)


def exit_code(results) -> int:
    """``verify``'s exit code: 0 every verdict is what the registry expects (or its input is unavailable here);
    3 the only differences are claims expected to pass that came out inconclusive (undecided, not wrong: e.g. a
    Monte-Carlo rejection that did not replicate, which happens to a true claim at rate about 1 − confidence);
    1 otherwise (a refutation, an error, a planted error not caught, a pass where a refutation was expected)."""
    differ = [r for r in results if not (r.as_expected or r.unavailable)]
    if not differ:
        return 0
    undecided = all(r.verdict.status is Status.INCONCLUSIVE and r.claim.expect_for(r.context.profile) is None
                    for r in differ)
    return 3 if undecided else 1


def run_claims(claims, ctx: RunContext, *, jobs: int = 1, scheduler: str | None = None):
    """Results of ``claims`` in order: serially, or through the engine's dispatcher (:mod:`theoryverify.dispatch`)
    with ``jobs`` local processes or a Dask ``scheduler`` — identical results either way (every claim's seed
    derives from its id)."""
    if jobs == 1 and not scheduler:
        return [c.run(ctx) for c in claims]
    from . import dispatch
    return dispatch.run_claims(claims, ctx, jobs=jobs, scheduler=scheduler)


def _papers() -> int:
    """``python -m theoryverify papers``: each installed paper, its package and where it was declared; then its
    text and catalogue: found with the recorded checksum, found with another one, or missing (and which variable
    names their folder)."""
    mods = registry.paper_modules()
    where = dict((m, w) for w, m in registry.paper_sources())
    changed = 0
    for pid, mod in mods.items():
        print(f"{pid}\t{mod.__name__}\t{where.get(mod.__name__, '?')}\t{mod.PAPER.title}")
        for inp in inputs.of_paper(pid):
            state = {inputs.FOUND: "found, " + ("sha256 as recorded" if inp.expected else "no checksum recorded"),
                     inputs.DIFFERS: f"differs: sha256 {inp.sha256}, recorded {inp.expected}",
                     inputs.MISSING: f"missing: put it in ${inp.variable}"}[inp.state]
            use = "" if inp.used else " (read by no claim: the report does not need it)"
            print(f"  {inp.kind}\t{inp.name}\t{state}{use}\t{inp.path or '-'}")
            changed += inp.changes_report
    for name, why in registry.broken_papers().items():
        print(f"(broken)\t{name}\t{why}")
    print(f"{changed} input(s) the reports read are missing or differ from the recorded ones"
          + (": reports made here differ from the committed ones (python -m theoryverify.report refuses "
             "without --allow-missing)" if changed else ""))
    return 0
