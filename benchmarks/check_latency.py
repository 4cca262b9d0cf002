"""Latency of single checks in a warm session (``python -m theoryverify.check``'s engine path).

Median and 95th percentile over a fixed list of statements from the step contexts (true steps and
planted one-error versions, identities and inequalities), each run ``--repeat`` times after one
warm-up check per context.  Goal (issue 6): median ≤ 1 s, p95 ≤ 3 s.

    python benchmarks/check_latency.py [--repeat 3] [--json]

``--smoke`` checks the first two statements of each context once, with no warm-up (a check that the script still runs, for
tests/test_benchmarks.py; its timings mean nothing).
"""
from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np

from theoryverify.check import Session

SUM = "(v1*diff(L1,v1)+v2*diff(L1,v2)+v3*diff(L1,v3)+v4*diff(L1,v4)+v5*diff(L1,v5)+v6*diff(L1,v6))"

STATEMENTS: dict[tuple[str, tuple[str, ...]], list[str]] = {
    ("icrecall.n3", ()): [
        "diff(L1, v1) == 2/T*((p_r1+p_r3)*v2 + (p_r2+p_r4)*v4 - v2)",        # Eq. (4)
        "diff(L1, v1) == 2/T*((p_r1+p_r3)*v2 + (p_r2+p_r5)*v4 - v2)",        # Eq. (4), index error
        "diff(L1, v3) == 2/T*((p_r1+p_r6)*v4 + (p_r2+p_r5)*v2 - v4)",        # Eq. (6)
        "diff(L1, v5) == 2/T*((p_r3+p_r5)*v4 - (p_r4+p_r6)*v2)",             # Eq. (8), sign error
        "l_r2 == (v1+v4)**2 + (v2+v3)**2 + v5**2",                           # Table 2
        "l_r2 == (v1+v4)**2 + (v2+v3)**2 + v4**2",                           # Table 2, index error
        "l_a1 == l_a3",
        "p_r1+p_r2+p_r3+p_r4+p_r5+p_r6 == 1",
        f"diff(L1, theta1) == v1*(diff(L1, v1) - {SUM})",                    # Eq. (10)
        f"diff(L1, theta1) == v1*(diff(L1, v1) + {SUM})",                    # Eq. (10), sign error
        "L1 >= 0",
        "L1 <= log(6)",                                                      # false bound
        "l_r1 <= 1",
    ],
    ("free", ("T > 0",)): [
        "(x + 1)**2 == x**2 + 2*x + 1",
        "(x + 1)**2 == x**2 + x + 1",
        "exp(log(T)) == T",
        "sqrt(x**2) == x",
        "exp(x) >= 1 + x",
        "exp(x) >= 1 + x + x**2/2",
        "1/9 + 1/9 == 2/9",
    ],
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--smoke", action="store_true", help="two statements per context, once each")
    args = ap.parse_args()
    if args.smoke:
        args.repeat = 1
    times, rows = [], []
    for (ctx, assume), statements in STATEMENTS.items():
        statements = statements[:2] if args.smoke else statements
        session = Session(ctx, assume)
        if not args.smoke:
            session.check(statements[0])  # warm-up
        for text in statements:
            for _ in range(args.repeat):
                start = time.perf_counter()
                v = session.check(text)
                dt = time.perf_counter() - start
                times.append(dt)
                rows.append({"context": ctx, "statement": text, "verdict": v.status.value, "seconds": round(dt, 3)})
    summary = {"checks": len(times), "median_s": round(statistics.median(times), 3),
               "p95_s": round(float(np.percentile(times, 95)), 3), "max_s": round(max(times), 3)}
    if args.json:
        print(json.dumps({"summary": summary, "rows": rows}, indent=1))
        return
    for r in rows[:: args.repeat]:
        mine = [x["seconds"] for x in rows if x["statement"] == r["statement"] and x["context"] == r["context"]]
        print(f"{statistics.median(mine):6.2f} s  {r['verdict']:12s} [{r['context']}] {r['statement'][:80]}")
    print(f"\n{summary['checks']} checks: median {summary['median_s']} s, p95 {summary['p95_s']} s, "
          f"max {summary['max_s']} s")


if __name__ == "__main__":
    main()
