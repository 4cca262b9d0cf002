"""``python -m theoryverify.check.benchmark [--cli N] [--json]``: the step checker's speed over a fixed list;
``--papers``: the real-paper benchmark (:mod:`.tex.bench`: read %, false alarms, planted errors, time per paper).

A benchmark, not a timed test (timings depend on the machine and its load): it checks :data:`STEPS` — one
or more of each construct, true steps and planted errors, proved, holding and refuted — through the API
(:func:`theoryverify.check.check`, one warm process, as a notebook or the REPL uses it) and prints the p50,
p95 and maximum wall time per step; then it starts ``python -m theoryverify.check`` ``N`` times on a plain
statement and prints the cold start (wall, and the CPU time of the process and its children, which a loaded
machine does not inflate).  Each step's expected verdict is checked too, so a fast wrong answer is not
mistaken for a fast right one.
"""
from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time

# (assumptions, statement, expected status); LaTeX steps start with "latex:"
STEPS: list[tuple[tuple[str, ...], str, str]] = [
    ((), "(x + 1)**2 == x**2 + 2*x + 1", "proved"),
    ((), "(x + 1)**2 == x**2 + x + 1", "refuted"),
    ((), "diff(sigmoid(x), x) == sigmoid(x)*(1 - sigmoid(x))", "proved"),
    ((), "diff(sigmoid(x), x) == sigmoid(x)*(1 + sigmoid(x))", "refuted"),
    ((), "diff(log(1 + exp(-y*w*x)), w) == -y*x*sigmoid(-y*w*x)", "proved"),
    ((), "diff(softplus(x), x) == sigmoid(x)", "proved"),
    ((), "tanh(x) == 2*sigmoid(2*x) - 1", "proved"),
    ((), "log(e) == 1", "proved"),
    ((), "sin(pi/6) == 1/2", "proved"),
    ((), "x <= 10", "refuted"),
    ((), "exp(x) >= 1 + x", "holds"),
    (("x <= 2",), "exp(x) <= 1 + x + x**2", "refuted"),
    (("0 < p < 1",), "p*(1 - p) <= 1/4", "proved"),
    (("0 < p < 1",), "p*(1 - p) <= 1/5", "refuted"),
    (("x, y > 0",), "(x + y)/2 >= sqrt(x*y)", "holds"),
    (("x > -1",), "log(1 + x) <= x", "holds"),
    (("a < b",), "exp(a) < exp(b)", "holds"),
    (("y in {-1, 1}",), "y**2 == 1", "proved"),
    (("n: integer", "n >= 1"), "Sum(k, (k, 1, n)) == n*(n + 1)/2", "proved"),
    (("n: integer", "n >= 1"), "Sum(k, (k, 1, n)) == n*(n - 1)/2", "refuted"),
    (("n: integer", "n >= 0", "-1 < r < 1"), "Sum(r**k, (k, 0, n)) == (1 - r**(n + 1))/(1 - r)", "proved"),
    (("n: integer", "n >= 0", "x >= -1"), "(1 + x)**n >= 1 + n*x", "holds"),
    (("n: integer", "n >= 0"), "2**n >= n**2", "refuted"),
    (("W: matrix(2, 2)",), "det(W.T @ W) == det(W)**2", "proved"),
    (("W: matrix(2, 2)",), "det(W.T @ W) == det(W)", "refuted"),
    (("v: vector(3)", "A: symmetric(3)"), "grad(v.T @ A @ v, v) == 2*A @ v", "proved"),
    (("X ~ Normal(mu, s)",), "E(X**2) == mu**2 + s**2", "proved"),
    (("X ~ Normal(mu, s)",), "E(exp(X)) == exp(mu + s**2)", "refuted"),
    (("X ~ Bernoulli(p)",), "E(X**3) == p", "proved"),
    (("f: function",), "diff(f(x)**2, x) == 2*f(x)*diff(f(x), x)", "proved"),
    (("f: function",), "f(x)**2 > 0", "refuted"),
    ((), "(x + 1)**2 == x**2 + 2*x + 1 <= 2*x**2 + 2", "holds"),
    ((), "(x + 1)**2 == x**2 + 2*x + 1 <= x**2 + 2", "refuted"),
    ((), "latex:\\frac{d}{dx} \\sigma(x) = \\sigma(x)(1 - \\sigma(x))", "proved"),
    ((), "latex:\\left(a + b\\right)^2 \\le 2 a^2 + 2 b^2", "holds"),  # proved within the 0.3 s CPU proof budget
    (("n: integer", "n >= 1"), "latex:\\sum_{k=1}^{n} k^2 = \\frac{n(n+1)(2n+1)}{6}", "proved"),
    (("x > 0",), "latex:\\log(1 + x) > x", "refuted"),
    ((), "x^2 == 1", "error"),
    ((), "sigmod(x) == 1", "error"),
]

PLAIN = "(x + 1)**2 == x**2 + 2*x + 1"


def _quantile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, max(0, round(q * (len(xs) - 1))))]


def api(steps=STEPS) -> dict:
    """Wall time per step through the API, after one warm-up check (imports)."""
    from . import check
    check("x == x")
    rows = []
    for assume, text, expected in steps:
        latex = text.startswith("latex:")
        start = time.perf_counter()
        v = check(text[6:] if latex else text, assume=list(assume), latex=latex)
        rows.append({"statement": text, "assume": list(assume), "seconds": round(time.perf_counter() - start, 3),
                     "status": v.status.value, "expected": expected,
                     "ok": v.status.value == expected or (expected == "holds" and v.status.value == "proved")})
    times = [r["seconds"] for r in rows]
    return {"steps": len(rows), "p50": round(statistics.median(times), 3), "p95": round(_quantile(times, 0.95), 3),
            "max": round(max(times), 3), "wrong": [r for r in rows if not r["ok"]], "rows": rows}


def cold_start(n: int, statement: str = PLAIN) -> dict:
    """``n`` fresh ``python -m theoryverify.check STATEMENT`` processes: wall and CPU seconds (median)."""
    walls, cpus = [], []
    for _ in range(n):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run([sys.executable, "-m", "theoryverify.check", statement], capture_output=True, check=False)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return {"statement": statement, "runs": n, "wall_median": round(statistics.median(walls), 3),
            "wall_min": round(min(walls), 3), "cpu_median": round(statistics.median(cpus), 3)}


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "--papers" in argv:  # the real-paper benchmark (theoryverify.check.tex.bench)
        argv.remove("--papers")
        from .tex.bench import main as papers
        return papers(argv)
    p = argparse.ArgumentParser(prog="python -m theoryverify.check.benchmark", description=__doc__.split("\n")[0])
    p.add_argument("--cli", type=int, default=5, metavar="N", help="cold-start runs (0: skip)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    out = {"api": api()}
    if args.cli:
        out["cli"] = cold_start(args.cli)
    if args.json:
        print(json.dumps(out, indent=1))
    else:
        a = out["api"]
        for r in a["rows"]:
            print(f"{r['seconds']:6.2f} s  {r['status']:<12} {'' if r['ok'] else '(expected ' + r['expected'] + ') '}"
                  f"{r['statement']}")
        print(f"API: {a['steps']} steps, p50 {a['p50']} s, p95 {a['p95']} s, max {a['max']} s; "
              f"{len(a['wrong'])} unexpected verdicts")
        if "cli" in out:
            c = out["cli"]
            print(f"CLI cold start ({c['runs']} runs, {c['statement']!r}): wall median {c['wall_median']} s "
                  f"(min {c['wall_min']} s), CPU median {c['cpu_median']} s")
    return 1 if out["api"]["wrong"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
