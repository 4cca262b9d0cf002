"""``python -m theoryverify verify [--paper ID] [--claim ID] [--json]``.

Exit codes: 0 every verdict is what the registry expects; 1 some verdict differs; 2 bad input
(unknown paper or claim id, bad option) with a one-line error.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from . import profiles, registry, render
from .claims import RunContext
from .devices import resolve_device
from .findings import RegistrationError
from .seeds import DEFAULT_SEED


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2 (never a usage dump or a traceback)
        sys.stderr.write(f"theoryverify: error: {message}\n")
        raise SystemExit(2)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m theoryverify", description=__doc__)
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    verify = sub.add_parser("verify", help="run registered claims and print their verdicts")
    verify.add_argument("--paper", help="paper id (e.g. icrecall)")
    verify.add_argument("--claim", help="claim id (e.g. icrecall.table2) or catalogue id")
    verify.add_argument("--json", action="store_true", help="print a JSON list of results")
    verify.add_argument("--seed", type=int, default=DEFAULT_SEED)
    verify.add_argument("--profile", choices=["quick", "full"], default="quick")
    verify.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    verify.add_argument("--include-slow", action="store_true", help="also run claims tagged slow/gpu")
    sub.add_parser("list", help="list registered claims (id, catalogue id, kind, location, source)"
                   ).add_argument("--paper")
    loc = sub.add_parser("locations", help="the map from paper location to claim ids (generated)")
    loc.add_argument("--paper", required=True)
    sub.add_parser("papers", help="the installed papers and where each was found")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command is None:
        sys.stderr.write("theoryverify: error: a command is required (verify, list, locations, papers)\n")
        return 2
    if args.command == "papers":
        return _papers()
    try:
        selected = registry.claims(paper=args.paper, claim=getattr(args, "claim", None))
    except (registry.UnknownName, RegistrationError) as exc:
        sys.stderr.write(f"theoryverify: error: {exc}\n")
        return 2
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
        sys.stderr.write(f"theoryverify: error: {exc}\n")
        return 2
    profiles.load()
    if not (args.include_slow or args.claim or args.profile == "full"):
        selected = [c for c in selected if not c.tags_for(args.profile)]
    ctx = RunContext(seed=args.seed, profile=args.profile, device=device)
    results = [c.run(ctx) for c in selected]
    if args.json:
        print(json.dumps([r.to_json() for r in results], indent=1, ensure_ascii=False))
    else:
        print(render.table(results))
        print(render.summary(results))
    return 0 if all(r.as_expected or r.unavailable for r in results) else 1


def _papers() -> int:
    """``python -m theoryverify papers``: each installed paper, its package and where it was declared."""
    mods = registry.paper_modules()
    where = dict((m, w) for w, m in registry.paper_sources())
    for pid, mod in mods.items():
        print(f"{pid}\t{mod.__name__}\t{where.get(mod.__name__, '?')}\t{mod.PAPER.title}")
    for name, why in registry.broken_papers().items():
        print(f"(broken)\t{name}\t{why}")
    return 0
