"""``python -m theoryverify.gpu``: the engine side of the GPU sweeps, and the whole command as a dry run.

The dry run (tiny sizes, CPU, seconds) is what keeps the command from rotting between the rare sessions that
have a GPU: it runs every paper's sweep through the same code path and writes the same report."""
from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest
import torch

import theoryverify as tv
from theoryverify.gpu import pages
from theoryverify.gpu.__main__ import main
from theoryverify.gpu.hardware import describe, peaks_for
from theoryverify.gpu.runner import discover, run_all


def _result(verdict="holds", **kw):
    return tv.GpuResult(law="T ∝ x", x_name="x", y_name="T", rows=[{"x": 1, "measured": 1.0, "predicted": 1.0},
                                                                     {"x": 10, "measured": 10.0, "predicted": 10.0}],
                        verdict=verdict, reason="planted", **kw)


def test_result_refuses_an_unknown_verdict():
    with pytest.raises(ValueError, match="verdict"):
        _result("passes")


def test_a_failing_sweep_is_an_error_outcome_and_the_others_still_run(tmp_path):
    def boom(ctx):
        raise RuntimeError("planted failure")

    def ok(ctx):
        assert ctx.budget_s > 0 and ctx.device == "cpu" and ctx.dry_run
        return _result()

    def wrong_type(ctx):
        return {"verdict": "holds"}

    found = {"p": [tv.GpuSweep("a", "p.a", "Thm 1", "boom", boom), tv.GpuSweep("b", "p.b", "Thm 2", "ok", ok),
                   tv.GpuSweep("c", "p.c", "Thm 3", "dict", wrong_type)]}
    out = run_all(found, device="cpu", seed=0, budget_s=9.0, dry_run=True, hardware=describe("cpu"), log=lambda m: None)
    assert [o.verdict for o in out] == ["error", "holds", "error"]
    assert "planted failure" in out[0].error and "GpuResult" in out[2].error
    assert out[1].budget_s == pytest.approx(out[1].budget_s) and all(o.budget_s <= 9.0 for o in out)
    meta = {"hardware": describe("cpu").as_dict(), "commit": "abc", "seed": 0, "generated": "now", "budget_s": 9.0,
            "wall_s": 1.0, "dry_run": True, "versions": {"torch": torch.__version__}}
    pages.write(out, {"q": "no module"}, meta, tmp_path)
    index = (tmp_path / "index.md").read_text()
    assert "| error |" in index and "| holds |" in index and "q (no module)" in index
    page = (tmp_path / "p.md").read_text()
    assert "planted failure" in page and "Commit: `abc`" in page and "seed: 0" in page
    assert json.loads((tmp_path / "p.json").read_text())["sweeps"][1]["verdict"] == "holds"


def test_speed_and_precision_records_on_cpu():
    ctx = tv.GpuContext("cpu", 0, 5.0, True, hardware=describe("cpu"))

    def make_step(device):
        x = torch.ones(64, 64, dtype=torch.float64, device=device)
        return lambda: x @ x

    rec = ctx.speed(make_step, label="matmul", flops=2 * 64**3, bytes=3 * 8 * 64 * 64, steps=3, cpu_steps=2)
    assert rec["device_s_per_step"] > 0 and rec["speedup"] == pytest.approx(1.0) and rec["flop_rate"] > 0
    pr = ctx.compare_dtypes(lambda dt: torch.tensor([1.0, 3.0], dtype=dt) / 3, "thirds")
    assert 0 < pr["max_rel_diff"] < 1e-6
    planted = ctx.compare_dtypes(lambda dt: np.array([1.0]) if dt == torch.float64 else np.array([1.1]), "planted")
    assert planted["max_rel_diff"] == pytest.approx(0.1)


def test_peaks_are_known_for_the_lent_gpus_and_absent_otherwise():
    assert peaks_for("NVIDIA H100 80GB HBM3")["bandwidth"] == 3.35e12
    assert peaks_for("NVIDIA H200")["bandwidth"] == 4.8e12
    assert peaks_for("NVIDIA H100 PCIe")["bandwidth"] == 2.0e12
    assert peaks_for("Some CPU") == {}


@pytest.mark.parametrize("argv, message", [
    (["--dry-run", "--budget", "-1"], "--budget must be > 0"),
    (["--dry-run", "--paper", "nosuchpaper"], "unknown paper 'nosuchpaper'"),
])
def test_bad_input_is_one_line_and_exit_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.skipif(torch.cuda.is_available(), reason="on a GPU machine the default run is allowed")
def test_without_cuda_the_full_run_asks_for_dry_run(capsys):
    assert main([]) == 2
    assert "--dry-run" in capsys.readouterr().err


def test_the_gpu_modules_import_without_tqdm_ruptures_threadpoolctl():
    """The GPU machine has no tqdm, ruptures, threadpoolctl or loky: the sweep modules that say they need none of
    them import in a fresh interpreter where those are blocked.  One interpreter for the three papers (each start
    costs ~2 CPU-s of imports; this was one per paper, in tests/<paper>/test_gpu_sweep.py); a failure names the
    module."""
    code = ("import sys\n"
            "for m in ('tqdm', 'ruptures', 'threadpoolctl', 'loky'): sys.modules[m] = None\n"
            "import derivations.icrecall.experiments.gpu as ic\n"
            "assert ic.SWEEPS and ic.SWEEPS[0].claim == 'icrecall.T3-L11-time', ic.SWEEPS\n"
            "import derivations.knowledge.experiments.gpu as kn\n"
            "assert kn.SWEEPS[0].run is kn.run, kn.SWEEPS\n"
            "import derivations.inductionheads.experiments.gpu as ih\n"
            "assert ih.SWEEPS and ih.SWEEPS[0].claim.startswith('inductionheads.'), ih.SWEEPS\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]


def test_dry_run_of_every_paper_writes_the_whole_report(tmp_path):
    found, missing = discover()
    rc = main(["--dry-run", "--out", str(tmp_path), "--seed", "3"])
    assert rc == 0, (tmp_path / "index.md").read_text() if (tmp_path / "index.md").exists() else "no index"
    index = (tmp_path / "index.md").read_text()
    for paper, sweeps in found.items():
        for s in sweeps:
            assert f"| {s.name} | `{s.claim}` |" in index
        page = (tmp_path / f"{paper}.md").read_text()
        for needle in ("Device:", "Commit:", "seed: 3", "Wall time:", "dry run", "GPU verdict", "CPU verdict",
                       "Grid span", "Speed ("):
            assert needle in page, (paper, needle)
        data = json.loads((tmp_path / f"{paper}.json").read_text())
        assert data["meta"]["seed"] == 3 and data["meta"]["hardware"]["kind"] == "cpu"
        for sw in data["sweeps"]:
            r = sw["result"]
            assert r["verdict"] in ("holds", "refuted", "inconclusive") and r["rows"] and r["reason"]
            assert r["cpu"].get("claim") == sw["claim"] and sw["speeds"]
            assert r["span_decades"] is None or math.isfinite(r["span_decades"])


def test_rebuild_reproduces_the_pages_from_the_json_and_refuses_an_empty_folder(tmp_path, capsys):
    def ok(ctx):
        return _result()

    found = {"p": [tv.GpuSweep("b", "p.b", "Thm 2", "ok", ok)]}
    out = run_all(found, device="cpu", seed=0, budget_s=5.0, dry_run=True, hardware=describe("cpu"), log=lambda m: None)
    meta = {"hardware": describe("cpu").as_dict(), "commit": "abc", "seed": 0, "generated": "now", "budget_s": 5.0,
            "wall_s": 1.0, "dry_run": True, "versions": {"torch": torch.__version__}}
    pages.write(out, {}, meta, tmp_path)
    page = (tmp_path / "p.md").read_text()
    assert main(["--rebuild", str(tmp_path)]) == 0
    assert (tmp_path / "p.md").read_text() == page
    assert "| [p](p.md) | b | `p.b` | holds |" in (tmp_path / "index.md").read_text()
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["--rebuild", str(empty)]) == 2
    assert "no <paper>.json" in capsys.readouterr().err


# --- the GPU figure (issue 28, item 4): the paper's law, not the derived closed form, drawn as the law -------------

def _p2_t1_like():
    """Measured ∝ K² (the derived law, recorded as "predicted"), the paper's Θ(K log K) in the column "K ln K"."""
    rows = [{"part": "N→∞", "K": K, "measured": float(K * K), "predicted": float(K * K), "K ln K": K * math.log(K),
             "per_seed": [K * K * 0.98, K * K * 1.02]} for K in (8, 32, 128, 512)]
    return tv.GpuResult(law="Θ(K log K)", x_name="K", y_name="c0·T1 (Phase-I steps, rescaled by the step-size factor c0)",
                        rows=rows, verdict="refuted", reason="planted", predicted_exponent=0.0,
                        fit={"exponent": 0.8, "ci": [0.7, 0.9], "n_points": 4}, span_decades=1.8).as_dict()


def _lines(fig):
    ax = fig.axes[0]
    return {a.get_gid(): a for a in [*ax.lines, *ax.collections] if a.get_gid()}


def test_the_gpu_figure_draws_the_papers_law_with_its_best_constant_and_the_derived_law_apart():
    from theoryverify.report import plots
    declared = {"law_column": "K ln K", "law_constant": "best", "derived_column": "predicted"}
    fig = pages.figure_of(_p2_t1_like(), "demo.p2-t1", declared)
    assert plots.problems(fig, {"status": "refuted"}) == []
    gids = _lines(fig)
    assert {plots.MEASURED, plots.BAND, plots.LAW, plots.DERIVED} <= set(gids)
    K, law = gids[plots.LAW].get_data()
    ratio = np.asarray(law) / (np.asarray(K) * np.log(K))
    assert np.allclose(ratio, ratio[0]) and "best constant" in gids[plots.LAW].get_label()
    # the law misses the measurement (K² against K ln K): the figure shows why the title says refuted
    assert max(abs(np.log(np.asarray(law) / np.asarray(K, float) ** 2))) > 1.0
    assert all(len(line) <= 40 for line in fig.axes[0].get_ylabel().split("\n"))  # wrapped, never cut
    assert "refuted" in fig.axes[0].get_title() and "exponent b = 0.8" in fig.texts[0].get_text()


def test_the_gpu_figure_without_a_law_column_draws_predicted_as_the_law():
    from theoryverify.report import plots
    fig = pages.figure_of(_p2_t1_like(), "demo.p2-t1")
    gids = _lines(fig)
    assert plots.DERIVED not in gids and list(gids[plots.LAW].get_data()[1]) == [64.0, 1024.0, 16384.0, 262144.0]
    with pytest.raises(ValueError, match="law_constant"):
        tv.GpuSweep("s", "demo.c", "Thm 1", "t", lambda ctx: None, figure={"law_constant": "fitted"})
    with pytest.raises(ValueError, match="unknown keys"):
        tv.GpuSweep("s", "demo.c", "Thm 1", "t", lambda ctx: None, figure={"law": "K"})


def test_a_rebuilt_page_draws_the_law_its_sweep_declares_now(tmp_path):
    """--rebuild from an older run's JSON (no conventions recorded): the registered sweep's ``figure`` applies, so
    iclnonlinear's p2-t1 figure draws K ln K, not the derived law, as the paper's."""
    from theoryverify.report import plots
    declared = pages.declared_figures("iclnonlinear")
    assert declared["p2-t1-K"] == {"law_column": "K ln K", "law_constant": "best", "derived_column": "predicted"}
    fig = pages.figure_of(_p2_t1_like(), "iclnonlinear.p2-t1", declared["p2-t1-K"])
    assert {plots.LAW, plots.DERIVED} <= set(_lines(fig))
