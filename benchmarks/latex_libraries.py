"""Side-by-side benchmark: third-party LaTeX-to-SymPy readers vs. our reader, on the corpus's relations.

A script, not part of the package and not run by CI (issue 26, item 8, "Libraries, measured").

For every relation our reader finds in every present corpus paper (``Paper([main]).read()``; a paper whose
files are absent is skipped), each library is given the relation's LaTeX (``Relation.latex``: ``lhs OP rhs``
after the paper's macros are expanded) with a per-relation time limit:

* ``math-verify`` / ``latex2sympy2_extended.latex2sympy``          (side venv, antlr4 4.13)
* ``sympy.parsing.latex.parse_latex`` with the antlr backend        (side venv, antlr4 4.11)
* ``sympy.parsing.latex.parse_latex(..., backend="lark")``         (same side venv as antlr)

The libraries are NOT dependencies of this project and their antlr runtimes conflict, so they run in two
separate virtual environments, as child processes (see benchmarks/tex_corpus/README.md for the pip commands).

Parsed = no exception within the time limit and the result is (or contains) a SymPy relation.
Faithfulness is judged by hand on a fixed random sample (seed 26) of 60 relations that at least one library
parsed; the judgments live in ``latex_libraries_judgments.json`` (keyed by paper, file, line and a hash of the
LaTeX) and this script only counts them. ``--write-md`` rewrites ``latex_libraries.md``'s table.

    .venv/bin/python benchmarks/latex_libraries.py \\
        --sympy-python /work/libvenv/bin/python --mathverify-python /work/libvenv-mv/bin/python
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import select
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
MANIFEST = HERE / "tex_corpus" / "manifest.json"
JUDGMENTS = HERE / "latex_libraries_judgments.json"
MD = HERE / "latex_libraries.md"
SEED, SAMPLE = 26, 60
LIBRARIES = ("latex2sympy", "sympy-antlr", "sympy-lark")

# The worker runs inside a side venv: one JSON line in (index, latex), one JSON line out per relation.
WORKER = r'''
import json, signal, sys, time

class Timeout(BaseException):  # BaseException: a library's "except Exception" must not swallow it
    pass

def _alarm(signum, frame):
    raise Timeout()

which, limit = sys.argv[1], float(sys.argv[2])
if which == "latex2sympy":
    from latex2sympy2_extended import latex2sympy as parse
else:
    from sympy.parsing.latex import parse_latex
    backend = "antlr" if which == "sympy-antlr" else "lark"
    parse = lambda s: parse_latex(s, backend=backend)
from sympy.core.relational import Relational
from sympy import Basic

def has_relation(x):
    if isinstance(x, Relational):
        return True
    if isinstance(x, (list, tuple, set, frozenset)):
        return any(has_relation(y) for y in x)
    if isinstance(x, Basic):
        return any(isinstance(a, Relational) for a in x.atoms(Relational)) if hasattr(x, "atoms") else False
    return False

signal.signal(signal.SIGALRM, _alarm)
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    job = json.loads(line)
    out = {"i": job["i"], "ok": False, "relation": False, "result": None, "error": None}
    t = time.perf_counter()
    signal.setitimer(signal.ITIMER_REAL, limit)
    try:
        r = parse(job["latex"])
        signal.setitimer(signal.ITIMER_REAL, 0)
        out["ok"] = True
        out["result"] = str(r)[:2000]
        out["type"] = type(r).__name__
        out["relation"] = has_relation(r)
    except Timeout:
        out["error"] = "timeout"
    except BaseException as e:  # noqa: BLE001 - a parser failing in any way is a result
        signal.setitimer(signal.ITIMER_REAL, 0)
        out["error"] = (type(e).__name__ + ": " + str(e).splitlines()[0] if str(e) else type(e).__name__)[:200]
    out["ms"] = (time.perf_counter() - t) * 1000
    print(json.dumps(out), flush=True)
'''


def key(rel: dict) -> str:
    h = hashlib.sha256(rel["latex"].encode()).hexdigest()[:10]
    return f'{rel["paper"]}:{rel["file"]}:{rel["line"]}:{h}'


def our_relations(corpus: Path) -> tuple[list[dict], dict]:
    sys.path.insert(0, str(REPO))
    from theoryverify.check.tex.run import Paper

    manifest = json.loads(MANIFEST.read_text())
    rels, info = [], {"present": [], "absent": [], "seconds": 0.0}
    for p in manifest["papers"]:
        main = corpus / p["slug"] / p["main"]
        if not all((corpus / p["slug"] / f["path"]).is_file() for f in p["files"]):
            info["absent"].append(p["slug"])
            continue
        t = time.perf_counter()
        paper = Paper([str(main)])
        paper.read()
        info["seconds"] += time.perf_counter() - t
        info["present"].append(p["slug"])
        for r in paper.relations:
            rels.append({"paper": p["slug"], "file": r.file, "line": r.line, "latex": r.latex,
                         "status": r.status, "read_as": r.read_as})
    return rels, info


def run_library(which: str, python: str, rels: list[dict], limit: float) -> list[dict]:
    """Feed every relation to a worker; a worker that hangs past the limit (+5 s) is killed and restarted."""
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(WORKER)
        worker = f.name
    results: list[dict | None] = [None] * len(rels)
    i = 0
    while i < len(rels):
        proc = subprocess.Popen([python, worker, which, str(limit)], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        ready = proc.stdout.readline()
        if not ready:
            raise SystemExit(f"{which}: the worker under {python} did not start (is the library installed?)")
        while i < len(rels):
            proc.stdin.write(json.dumps({"i": i, "latex": rels[i]["latex"]}) + "\n")
            proc.stdin.flush()
            t = time.perf_counter()
            r, _, _ = select.select([proc.stdout], [], [], limit + 5)
            line = proc.stdout.readline() if r else ""
            if not line:  # hung in C code or died: count as a timeout and restart the worker
                proc.kill()
                proc.wait()
                results[i] = {"i": i, "ok": False, "relation": False, "result": None,
                              "error": "timeout (killed)", "ms": (time.perf_counter() - t) * 1000}
                i += 1
                break
            results[i] = json.loads(line)
            i += 1
        else:
            proc.stdin.close()
            proc.wait()
    os.unlink(worker)
    return results  # type: ignore[return-value]


def sample(rels: list[dict], parsed: dict[str, list[dict]]) -> list[int]:
    cands = [i for i in range(len(rels)) if any(parsed[lib][i]["relation"] for lib in parsed)]
    return sorted(random.Random(SEED).sample(cands, min(SAMPLE, len(cands))))


def table(rels, info, parsed, picked, judgments) -> str:
    n = len(rels)
    rows = ["| reader | parsed (has a relation) | faithful on the sample (60) | ms per relation (mean / median) |",
            "|---|---|---|---|"]

    def faithful(name):
        js = [judgments.get(key(rels[i]), {}).get(name) for i in picked]
        js = [j for j in js if j is not None]
        if not js:
            return "not judged"
        good = sum(1 for j in js if j["verdict"] == "faithful")
        read = sum(1 for j in js if j["verdict"] != "not parsed")
        return (f"{good}/{len(js)} = {100 * good / len(js):.0f}% of the sample; "
                f"{good}/{read} = {100 * good / max(read, 1):.0f}% of what it parsed there")

    read = sum(1 for r in rels if r["status"] != "unreadable")
    with_read_as = sum(1 for r in rels if r["read_as"])
    rows.append(f"| ours (`Paper.read()`) | {read}/{n} = {100 * read / n:.1f}% (status not unreadable; "
                f"{with_read_as} = {100 * with_read_as / n:.1f}% with a read_as) | {faithful('ours')} | "
                f"{1000 * info['seconds'] / n:.1f} (whole paper: expansion + reading, two passes) |")
    for lib in parsed:
        res = parsed[lib]
        ok = sum(1 for r in res if r["relation"])
        exc = sum(1 for r in res if not r["ok"])
        to = sum(1 for r in res if (r["error"] or "").startswith("timeout"))
        ms = sorted(r["ms"] for r in res)
        rows.append(f"| {lib} | {ok}/{n} = {100 * ok / n:.1f}% ({exc} raised, {to} timed out, "
                    f"{n - ok - exc} returned no relation) | {faithful(lib)} | "
                    f"{sum(ms) / n:.1f} / {ms[n // 2]:.1f} |")
    return "\n".join(rows)


def judgment_lines(rels, picked, judgments) -> str:
    """One line per sampled relation: where it is, a short excerpt, and each reader's verdict."""
    short = {"faithful": "ok", "unfaithful": "WRONG", "not parsed": "-"}
    lines = []
    for n, i in enumerate(picked):
        r, j = rels[i], judgments.get(key(rels[i]), {})
        tex = r["latex"] if len(r["latex"]) <= 70 else r["latex"][:67] + "..."
        parts = []
        for name in ("ours",) + LIBRARIES:
            v = j.get(name)
            if v is None:
                parts.append(f"{name}: not judged")
            else:
                parts.append(f"{name}: {short[v['verdict']]}" + (f" ({v['note']})" if v["note"] else ""))
        lines.append(f"{n + 1}. `{r['paper']}:{r['file']}:{r['line']}` `{tex}` - " + "; ".join(parts))
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", default=os.environ.get("THEORYVERIFY_TEX_CORPUS", str(REPO / ".corpus")))
    ap.add_argument("--sympy-python", default="/work/libvenv/bin/python",
                    help="python of the side venv with sympy>=1.13, antlr4-python3-runtime==4.11.*, lark")
    ap.add_argument("--mathverify-python", default="/work/libvenv-mv/bin/python",
                    help="python of the side venv with math-verify (latex2sympy2_extended)")
    ap.add_argument("--timeout", type=float, default=5.0, help="seconds per relation per library")
    ap.add_argument("--out", default=str(HERE / "latex_libraries.out.json"),
                    help="raw results (holds third-party LaTeX: not committed)")
    ap.add_argument("--reuse", metavar="OUT_JSON", help="skip the runs: recount an earlier --out file")
    ap.add_argument("--write-md", action="store_true", help="replace the table in latex_libraries.md")
    args = ap.parse_args()

    if args.reuse:  # recount from an earlier run's raw results (after editing the judgments)
        old = json.loads(Path(args.reuse).read_text())
        info, args.timeout = old["info"], old["timeout_s"]
        rels = [{k: r[k] for k in ("paper", "file", "line", "latex", "status", "read_as")} for r in old["relations"]]
        parsed = {lib: [r[lib] for r in old["relations"]] for lib in LIBRARIES}
    else:
        rels, info = our_relations(Path(args.corpus))
        if not rels:
            raise SystemExit(f"no corpus paper present under {args.corpus}")
        parsed = {}
        for lib, py in (("latex2sympy", args.mathverify_python), ("sympy-antlr", args.sympy_python),
                        ("sympy-lark", args.sympy_python)):
            t = time.perf_counter()
            parsed[lib] = run_library(lib, py, rels, args.timeout)
            print(f"{lib}: {time.perf_counter() - t:.1f} s")
    print(f"papers present: {len(info['present'])}, absent: {info['absent']}; relations: {len(rels)}")
    picked = sample(rels, parsed)
    judgments = json.loads(JUDGMENTS.read_text())["judgments"] if JUDGMENTS.exists() else {}
    tab = table(rels, info, parsed, picked, judgments)
    print(tab)
    missing = [key(rels[i]) for i in picked if key(rels[i]) not in judgments]
    if missing:
        print(f"{len(missing)} sampled relations not judged yet (see {args.out})")
    if args.reuse:
        args.out = os.devnull
    Path(args.out).write_text(json.dumps({
        "info": info, "timeout_s": args.timeout,
        "relations": [dict(r, key=key(r), **{lib: parsed[lib][i] for lib in parsed}) for i, r in enumerate(rels)],
        "sample": [key(rels[i]) for i in picked]}, indent=1))
    if args.write_md and MD.exists():
        text = MD.read_text()
        start, end = "<!-- table -->", "<!-- /table -->"
        a, b = text.index(start) + len(start), text.index(end)
        text = text[:a] + "\n" + tab + "\n" + text[b:]
        start, end = "<!-- judgments -->", "<!-- /judgments -->"
        a, b = text.index(start) + len(start), text.index(end)
        MD.write_text(text[:a] + "\n" + judgment_lines(rels, picked, judgments) + "\n" + text[b:])


if __name__ == "__main__":
    main()
