"""python -m theoryverify.report [--paper ID ...] [--profile quick|full] [--device auto|cpu|cuda]
[--seed N] [--out DIR] [--fresh]"""
from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from .. import profiles, registry
from ..devices import resolve_device
from ..seeds import DEFAULT_SEED
from .build import build


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):
        sys.stderr.write(f"theoryverify.report: error: {message}\n")
        raise SystemExit(2)


def main(argv=None) -> int:
    p = _Parser(prog="python -m theoryverify.report", description=__doc__)
    p.add_argument("--paper", action="append", default=None, help="paper id (repeatable; default: all)")
    p.add_argument("--claim", action="append", default=[], help="restrict to these claim ids (repeatable)")
    p.add_argument("--profile", choices=["quick", "full"], default="quick")
    p.add_argument("--device", choices=["auto", "cpu", "cuda"], default="auto")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED)
    p.add_argument("--out", type=Path, default=Path("reports"))
    p.add_argument("--fresh", action="store_true", help="ignore the results store")
    args = p.parse_args(argv)
    known = registry.papers()
    papers = args.paper or sorted(known)
    bad = [x for x in papers if x not in known]
    if bad:
        sys.stderr.write(f"theoryverify.report: error: unknown paper id {bad[0]!r} "
                         f"(known: {', '.join(sorted(known))})\n")
        return 2
    try:
        device = resolve_device(args.device)
        for cid in args.claim:
            registry.claims(claim=cid)
    except (ValueError, registry.UnknownName) as exc:
        sys.stderr.write(f"theoryverify.report: error: {exc}\n")
        return 2
    profiles.load()
    shown = ["python", "-m", "theoryverify.report", *(argv if argv is not None else sys.argv[1:])]
    summary = build(papers, profile=args.profile, device=device, seed=args.seed, out=args.out,
                    fresh=args.fresh, command=shlex.join(shown), only=args.claim)
    for row in summary["rows"]:
        counts = ", ".join(f"{v} {k}" for k, v in sorted(row["counts"].items()))
        found = ", ".join(f"{v} {k}" for k, v in sorted(row["findings"].items())) or "none"
        print(f"{row['id']}: {row['n']} claims ({counts}; refuted by class: {found}) -> "
              f"{args.out / (row['id'] + '.md')}")
    print(f"index: {args.out / 'index.md'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
