"""A passing rate sweep inside a combined verdict (``tv.combine({"derived": ..., "rate": ...})``) gets its figure,
as a lone rate claim does (issue 29, second trial: only lone — there, refuted — sweeps were drawn, because the
figure maker read the top level of the details only).  Nested parts are labelled "outer › inner"; a part without a
sweep draws nothing.  One figure per claim: the part that decides the verdict (the first refuted one, else the
first part with a sweep)."""
import matplotlib.pyplot as plt

import theoryverify as tv
from theoryverify.report import plots
from test_report_plots import power_row


def test_each_rate_part_of_a_combined_verdict_is_drawn(tmp_path):
    lone = power_row()
    part = tv.Verdict(tv.Status.HOLDS, "fit", "ok", details=lone["details"])
    ident = tv.Verdict(tv.Status.PROVED, "sympy", "0 = 0")
    inner = tv.combine({"d=4": part})
    combined = tv.combine({"derived": ident, "1/D": part, "over d": inner})
    row = {**lone, "status": combined.status.value, "details": combined.to_json()["details"]}
    made = plots.plots_for(row, tmp_path)
    plt.close("all")
    assert [p.name for p in made] == ["demo_p2-t1_1-D_sweep.png"], made
    assert all(p.is_file() and p.stat().st_size > 1000 for p in made)
    bad = tv.Verdict(tv.Status.REFUTED, "fit", "no", {"x": 1}, details=lone["details"])
    worse = tv.combine({"derived": ident, "1/D": part, "over d": tv.combine({"d=4": bad})})
    row = {**lone, "status": worse.status.value, "details": worse.to_json()["details"]}
    assert [p.name for p in plots.plots_for(row, tmp_path)] == ["demo_p2-t1_over-d-d-4_sweep.png"]
    assert [p.name for p in plots.plots_for(lone, tmp_path)] == ["demo_p2-t1_sweep.png"]  # a lone sweep as before
    assert plots.plots_for({**lone, "details": {"derived": ident.to_json()}}, tmp_path) == []
    plt.close("all")


def test_every_swept_parameter_gets_its_figure_named_with_the_parameter(tmp_path):
    """Issue 29, author 5, defect 7: a claim swept over the gap and over ε drew only the deciding part, and the
    twin's file name dropped ε ("..._over_sweep.png")."""
    gap, eps = power_row(), power_row()
    eps["details"]["sweep"] = dict(eps["details"]["sweep"], param="epsilon")
    combined = tv.combine({"over gap": tv.Verdict(tv.Status.HOLDS, "fit", "ok", details=gap["details"]),
                           "over ε": tv.Verdict(tv.Status.REFUTED, "fit", "no", {"x": 1}, details=eps["details"])})
    row = {**gap, "status": combined.status.value, "details": combined.to_json()["details"]}
    made = plots.plots_for(row, tmp_path)
    plt.close("all")
    assert [p.name for p in made] == ["demo_p2-t1_over-epsilon_sweep.png", "demo_p2-t1_over-gap_sweep.png"]
    assert plots.part_slug("λ_1 sweep") == "lambda-1-sweep"
