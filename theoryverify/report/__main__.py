"""python -m theoryverify.report [--paper ID ...] [--profile quick|full] [--device auto|cpu|cuda]
[--seed N] [--out DIR] [--fresh] [--allow-missing] [--jobs N | --scheduler ADDRESS]
python -m theoryverify.report --rerender [--profile quick|full] [--paper ID ...] [--out DIR]

``--rerender`` runs no claim: it re-writes the pages (.md, .html, figures) and the index of ``reports/<profile>`` (or
``--out``) from the rows stored there (``<paper>.json``), with today's page code.  Each header keeps the metadata of
the run that computed the rows (``<paper>.run.json``; for a page written before those files, read back from its
header, strictly) and adds the line "Page rendered from the stored rows at commit <X> (`--rerender`)"
(:mod:`theoryverify.report.rerender`).

Exit codes: 0 written; 2 bad input, or an input outside the repository (a paper's text or catalogue, see
``python -m theoryverify papers``) is missing or differs from the recorded one, so the report would differ from
the committed one (``--allow-missing`` writes it anyway, and its index says which inputs were missing);
130 interrupted (Ctrl-C: every finished claim is kept in the results store and the next run resumes)."""
from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from .. import inputs, profiles, registry
from ..cli import add_dispatch_options
from ..devices import resolve_device
from ..errors import TheoryverifyError
from ..progress import note
from ..resume import Interrupted
from ..seeds import DEFAULT_SEED
from .build import PREFIX, build


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        sys.stderr.write(f"theoryverify.report: error: {message}\n")
        raise SystemExit(2)


def _without_dispatch(argv) -> list[str]:
    """The command line without --jobs/--scheduler (and --allow-missing): where claims ran does not change the
    report, which shows the same command (and bytes) as a serial run; --allow-missing changes nothing when every
    input is present, and when one is missing the index says so."""
    out, skip = [], False
    for arg in argv:
        if skip:
            skip = False
        elif arg in ("--jobs", "--scheduler"):
            skip = True
        elif arg != "--allow-missing" and not arg.startswith(("--jobs=", "--scheduler=")):
            out.append(arg)
    return out


def main(argv=None) -> int:
    """The command; Ctrl-C anywhere ends it with one line and exit 130 (every finished claim kept)."""
    try:
        return _main(argv)
    except KeyboardInterrupt as exc:
        note(exc.line() if isinstance(exc, Interrupted) else "interrupted; every finished claim is kept in the "
             "results store and the next run resumes from them", PREFIX)
        return 130


def _main(argv=None) -> int:
    p = _Parser(prog="python -m theoryverify.report", description=__doc__,
                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--paper", action="append", default=None, help="paper id (repeatable; default: all)")
    p.add_argument("--claim", action="append", default=[], help="restrict to these claim ids (repeatable; with --paper the prefix may be left out)")
    p.add_argument("--profile", choices=["quick", "full"], default="quick")
    p.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED)
    p.add_argument("--out", type=Path, default=None,
                   help="output folder (default: reports/<profile>, so a quick run never overwrites the full report)")
    p.add_argument("--fresh", action="store_true", help="ignore the results store")
    p.add_argument("--allow-missing", action="store_true",
                   help="write the report even when a paper's text or catalogue is missing or differs from the "
                        "recorded one (the index then lists them; see `python -m theoryverify papers`)")
    p.add_argument("--rerender", action="store_true",
                   help="run no claim: re-write the pages and the index from the rows stored in the output folder")
    add_dispatch_options(p)
    args = p.parse_args(argv)
    if args.rerender:
        return _rerender(args, p)
    if args.jobs < 1:
        p.error("--jobs must be at least 1")
    known = registry.papers()
    papers = args.paper or sorted(known)
    bad = [x for x in papers if x not in known]
    if bad:  # an unknown id, or a paper that failed to load: the registry raises the one-line reason
        try:
            registry.claims(paper=bad[0])
        except TheoryverifyError as exc:
            sys.stderr.write("theoryverify.report: error: " + " ".join(str(exc).split()) + "\n")
        return 2
    try:
        device = resolve_device(args.device)
        args.claim = [registry.qualified(cid, papers) for cid in args.claim]  # --paper p --claim x: p.x
        for cid in args.claim:
            owner = registry.claims(claim=cid)[0].paper
            if args.paper and owner not in papers:
                raise registry.UnknownName(f"claim {cid!r} belongs to paper {owner!r}, not "
                                           f"{' or '.join(map(repr, papers))} (use --paper {owner}, or give --claim alone)")
    except (ValueError, registry.UnknownName) as exc:
        sys.stderr.write("theoryverify.report: error: " + " ".join(str(exc).split()) + "\n")
        return 2
    changed = [i for i in inputs.absent(papers) if i.changes_report]
    if changed and not args.allow_missing:
        sys.stderr.write("theoryverify.report: error: the report would differ from the committed one: "
                         + "; ".join(i.line() for i in changed) + " (see `python -m theoryverify papers` and the "
                         "README's \"Paper texts and catalogues\"; --allow-missing writes the report without them)\n")
        return 2
    for i in inputs.absent(papers):  # no recorded checksum, so no reference report to differ from: a note, exit 0
        if not i.changes_report:
            sys.stderr.write(f"theoryverify.report: note: {i.line()}; the paper records no checksum for it, so the "
                             "report is written without it\n")
    profiles.load()
    if args.out is None:
        args.out = Path("reports") / args.profile
    shown = ["python", "-m", "theoryverify.report", *_without_dispatch(argv if argv is not None else sys.argv[1:])]
    try:
        summary = build(papers, profile=args.profile, device=device, seed=args.seed, out=args.out,
                        fresh=args.fresh, command=shlex.join(shown), only=args.claim, jobs=args.jobs,
                        scheduler=args.scheduler)
    except TheoryverifyError as exc:  # e.g. an unreachable scheduler: one line, never a traceback
        sys.stderr.write("theoryverify.report: error: " + " ".join(str(exc).split()) + "\n")
        return 2
    for row in summary["rows"]:
        counts = ", ".join(f"{v} {k}" for k, v in sorted(row["counts"].items()))
        found = ", ".join(f"{v} {k}" for k, v in sorted(row["findings"].items())) or "none"
        caught = (f"; planted errors: {row['planted']['caught']} of {row['planted']['total']} caught"
                  if row.get("planted") else "")
        print(f"{row['id']}: {row['n']} claims ({counts}; refuted by class: {found}{caught}) -> "
              f"{args.out / (row['id'] + '.md')} (and .html)")
    print(f"index: {args.out / 'index.md'}")
    return 0


def _rerender(args, p) -> int:
    """``--rerender``: the pages from the stored rows (no claim runs, so the run options do not apply)."""
    if args.claim or args.fresh:
        p.error("--rerender runs no claim: --claim and --fresh do not apply")
    from .rerender import rerender
    out = args.out if args.out is not None else Path("reports") / args.profile
    try:
        rows = rerender(out, args.paper or ())
    except (TheoryverifyError, OSError, ValueError) as exc:
        sys.stderr.write("theoryverify.report: error: " + " ".join(str(exc).split()) + "\n")
        return 2
    for row in (r for r in rows if not args.paper or r["id"] in args.paper):  # the index lists the others too
        print(f"{row['id']}: re-rendered from {out / (row['id'] + '.json')} -> {out / (row['id'] + '.md')} (and .html)")
    print(f"index: {out / 'index.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
