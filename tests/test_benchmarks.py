"""Every script in benchmarks/ still runs, at a tiny size, so that a moved module or a changed API fails CI
rather than the next person who measures something (issue 30, item 6: a moved module broke
dynamics_speedup.py unnoticed).  Timings printed at these sizes mean nothing; only that the scripts run.

The scripts run from the checkout under test (``PYTHONPATH`` = the repository root), in a subprocess, as a
user would run them.  ``latex_libraries.py`` needs the third-party corpus and two side virtual environments
(benchmarks/tex_corpus/README.md): its ``--help`` and its recount (``--reuse``) always run; its reading of a
paper and its library workers run on this repository's own test paper (tests/data/tex_paper), the workers
only where the side environments exist (skipped, with the reason, elsewhere)."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks"
TEX_PAPER = ROOT / "tests" / "data" / "tex_paper"
SMOKED = {"check_latency.py", "dynamics_speedup.py", "latex_libraries.py"}


def _run(*args: str, timeout: float = 240) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("THEORYVERIFY_")}
    env.update(PYTHONPATH=str(ROOT), MPLBACKEND="Agg", PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=timeout)


def _show(p: subprocess.CompletedProcess) -> str:
    return f"rc {p.returncode}\n{p.stdout[-2000:]}\n{p.stderr[-3000:]}"


def test_every_benchmark_script_has_a_smoke_test():
    assert {p.name for p in BENCH.glob("*.py")} == SMOKED, "add a smoke test for the new benchmark script"


def test_dynamics_speedup_runs_and_agrees():
    done = _run(str(BENCH / "dynamics_speedup.py"), "--smoke", "--device", "cpu")
    assert done.returncode == 0, _show(done)
    assert "configurations: 4 (2 T x 2 seeds), steps: 5" in done.stdout and "same results: True" in done.stdout
    assert done.stdout.strip().splitlines()[-1].startswith("speedup: ")


def test_check_latency_runs_and_its_planted_statements_fail():
    done = _run(str(BENCH / "check_latency.py"), "--smoke", "--json")
    assert done.returncode == 0, _show(done)
    out = json.loads(done.stdout)
    assert out["summary"]["checks"] == 2 * 2
    verdicts = {r["statement"]: r["verdict"] for r in out["rows"]}
    # each context's second statement is a planted one-error version of its first
    assert verdicts["diff(L1, v1) == 2/T*((p_r1+p_r3)*v2 + (p_r2+p_r5)*v4 - v2)"] == "refuted"
    assert verdicts["(x + 1)**2 == x**2 + x + 1"] == "refuted"
    assert verdicts["(x + 1)**2 == x**2 + 2*x + 1"] in ("proved", "holds")


def _latex_libraries():
    spec = importlib.util.spec_from_file_location("latex_libraries_bench", BENCH / "latex_libraries.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_latex_libraries_help_and_recount(tmp_path):
    done = _run(str(BENCH / "latex_libraries.py"), "--help", timeout=60)
    assert done.returncode == 0 and "--reuse" in done.stdout, _show(done)
    rel = {"paper": "p", "file": "main.tex", "line": 3, "latex": "a = b", "status": "proved", "read_as": "a == b"}
    lib = {"ok": True, "relation": True, "result": "Eq(a, b)", "error": None, "ms": 1.0}
    bad = {"ok": False, "relation": False, "result": None, "error": "timeout", "ms": 5000.0}
    old = {"info": {"present": ["p"], "absent": [], "seconds": 0.01}, "timeout_s": 5.0,
           "relations": [dict(rel, **{"latex2sympy": lib, "sympy-antlr": bad, "sympy-lark": lib})], "sample": []}
    (tmp_path / "old.json").write_text(json.dumps(old))
    done = _run(str(BENCH / "latex_libraries.py"), "--reuse", str(tmp_path / "old.json"), timeout=60)
    assert done.returncode == 0, _show(done)
    assert "papers present: 1, absent: []; relations: 1" in done.stdout
    assert "| sympy-antlr | 0/1 = 0.0% (1 raised, 1 timed out" in done.stdout
    assert "| latex2sympy | 1/1 = 100.0%" in done.stdout


def _tiny_manifest(tmp_path: Path) -> Path:
    files = [{"path": str(p.relative_to(TEX_PAPER))} for p in sorted(TEX_PAPER.rglob("*")) if p.is_file()]
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps({"papers": [{"slug": "tex_paper", "main": "main.tex", "files": files},
                                               {"slug": "absent", "main": "main.tex",
                                                "files": [{"path": "main.tex"}]}]}))
    return manifest


def test_latex_libraries_reads_a_paper_and_skips_an_absent_one(tmp_path, monkeypatch):
    bench = _latex_libraries()
    monkeypatch.setattr(bench, "MANIFEST", _tiny_manifest(tmp_path))
    rels, info = bench.our_relations(TEX_PAPER.parent)
    assert info["present"] == ["tex_paper"] and info["absent"] == ["absent"]
    assert len(rels) > 5 and all(r["latex"] and r["paper"] == "tex_paper" for r in rels)


@pytest.mark.parametrize("which,venv", [("latex2sympy", "/work/libvenv-mv"), ("sympy-antlr", "/work/libvenv"),
                                        ("sympy-lark", "/work/libvenv")])
def test_latex_libraries_worker_parses(which, venv):
    python = Path(venv) / "bin" / "python"
    if not python.exists():
        pytest.skip(f"the side environment of {which} is not here ({venv}; benchmarks/tex_corpus/README.md)")
    bench = _latex_libraries()
    rels = [{"latex": "(x + 1)^2 = x^2 + 2 x + 1"}, {"latex": "\\frac{a}{b} \\le c"}]
    out = bench.run_library(which, str(python), rels, limit=20.0)
    assert [r["i"] for r in out] == [0, 1]
    assert out[0]["ok"] and out[0]["relation"], out[0]
