"""``python -m theoryverify.gpu``: run the papers' GPU sweeps and write ``reports/gpu/``.

    python -m theoryverify.gpu                 # on cuda, 270 s budget, writes reports/gpu/
    python -m theoryverify.gpu --dry-run       # tiny sizes on the CPU in seconds (a CI test); writes a temp dir
    python -m theoryverify.gpu --paper icrecall --sweep NAME --out DIR --budget S --seed N
    python -m theoryverify.gpu --rebuild reports/gpu   # index and figures again from the JSON files

Exit status: 0 when every sweep ran (whatever its verdict), 1 when a sweep failed, 2 on bad input.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path

DEFAULT_BUDGET = 270.0     # of the 5 minutes on one H100, leaving start-up and writing the report
DRY_BUDGET = 60.0


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m theoryverify.gpu", description=__doc__.split("\n")[0])
    p.add_argument("--dry-run", action="store_true", help="tiny sizes on the CPU (seconds); decides nothing")
    p.add_argument("--paper", help="only this paper's sweeps")
    p.add_argument("--sweep", help="only the sweep with this name")
    p.add_argument("--out", help="output folder (default reports/gpu; a temporary folder for --dry-run)")
    p.add_argument("--budget", type=float, help=f"total wall seconds for the sweeps (default {DEFAULT_BUDGET:g}; "
                                               f"{DRY_BUDGET:g} for --dry-run)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rebuild", metavar="DIR", help="rebuild DIR/index.md and the figures from DIR/<paper>.json "
                                                    "(a report assembled from several runs); runs no sweep")
    p.add_argument("--device", choices=("auto", "cuda", "cpu"), default="auto",
                   help="auto: cuda when present (a run without --dry-run needs cuda unless --device cpu)")
    return p


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.rebuild:
        from . import pages
        try:
            written = pages.rebuild(Path(args.rebuild))
        except (FileNotFoundError, KeyError, ValueError) as exc:
            print(f"error: cannot rebuild {args.rebuild}: {exc}", file=sys.stderr)
            return 2
        print(f"rebuilt {args.rebuild}: index.md and {len(written) - 1} pages")
        return 0
    import torch

    from .. import __version__
    from ..environment import git_commit, versions
    from . import pages
    from .hardware import describe
    from .runner import NoSweeps, discover, run_all

    if args.budget is not None and not args.budget > 0:
        print("error: --budget must be > 0 seconds", file=sys.stderr)
        return 2
    cuda = torch.cuda.is_available()
    if args.device == "cuda" and not cuda:
        print("error: --device cuda but no CUDA device is available", file=sys.stderr)
        return 2
    device = "cpu" if args.dry_run and args.device == "auto" else ("cuda" if args.device == "auto" and cuda else args.device)
    if device == "auto":
        print("error: no CUDA device here; use --dry-run (tiny sizes) or --device cpu (full sizes on the CPU)",
              file=sys.stderr)
        return 2
    budget = args.budget or (DRY_BUDGET if args.dry_run else DEFAULT_BUDGET)
    out = Path(args.out) if args.out else (Path(tempfile.mkdtemp(prefix="theoryverify-gpu-dry-")) if args.dry_run
                                           else Path("reports/gpu"))
    try:
        found, missing = discover(args.paper)
    except NoSweeps as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    hw = describe(device)
    vers = versions()
    vers["theoryverify"] = __version__
    meta = {"hardware": hw.as_dict(), "commit": os.environ.get("THEORYVERIFY_COMMIT") or git_commit(),
            "seed": args.seed, "generated": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "budget_s": budget, "wall_s": 0.0, "dry_run": args.dry_run, "versions": vers,
            "command": "python -m theoryverify.gpu " + " ".join(argv if argv is not None else sys.argv[1:])}
    t0 = time.perf_counter()

    def checkpoint(outcomes):
        meta["wall_s"] = time.perf_counter() - t0
        pages.write(outcomes, missing, meta, out)

    print(f"theoryverify.gpu: {hw.name} ({device}); budget {budget:g} s; out {out}", flush=True)
    try:
        outcomes = run_all(found, device=device, seed=args.seed, budget_s=budget, dry_run=args.dry_run, hardware=hw,
                           only=args.sweep, log=lambda m: print(m, flush=True), after_each=checkpoint)
    except NoSweeps as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    checkpoint(outcomes)
    print(f"wrote {out}/index.md ({len(outcomes)} sweeps, {meta['wall_s']:.1f} s)")
    for o in outcomes:
        print(f"  {o.paper:15s} {o.sweep.name:28s} {o.verdict:12s} {o.wall_s:6.1f} s" + (f"  {o.error}" if o.error else ""))
    return 1 if any(o.error for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
