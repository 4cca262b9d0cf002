"""Figures that stand alone (issue 28, item 4), read through their matplotlib objects: the y axis named by the
quantity, the paper's law drawn (best constant where Θ hides it), the band over seeds, thresholds, the verdict in
the title, a caption, log laws on a log-x axis, every glyph rendered, no overlapping tick labels.  Planted: each
part removed from a good figure, and the pre-issue figure (y axis "measured", no band), must be caught."""
import warnings

import matplotlib.pyplot as plt
import numpy as np
import pytest

from theoryverify.report import plots


def power_row(**sweep_extra):
    """T1 = Θ(K log K): 4 seeds per grid point, measured ∝ K^1.6 (refuted), the law's values as "predicted"."""
    K = np.array([8, 16, 32, 64, 128, 256], dtype=float)
    rng = np.random.default_rng(0)
    measured = [list(2.0 * k ** 1.6 * (1 + 0.05 * rng.standard_normal(4))) for k in K]
    sweep = {"param": "K", "x": list(K), "measured": measured, "predicted": list(K * np.log(K)),
             "ratio": None, "ratio_of": "measured / predicted", **sweep_extra}
    fit = {"exponent": 1.6, "ci": [1.58, 1.62], "predicted_exponent": 1.0, "margin": 0.15, "family": "power",
           "law": "T1 ≈ C·K^b", "bound": "theta", "rule": "r"}
    return {"id": "demo.p2-t1", "location": "Prop. 2", "statement": "T_f^1 = Θ(K log K)", "status": "refuted",
            "details": {"sweep": sweep, "fit": fit}}


def log_row():
    """The tutorial's rate: steps n ≈ a0 + a1·log(1/ε), the grid recorded as logs (scale "log")."""
    eps = np.logspace(-2, -10, 9)
    x = np.log(1 / eps)
    a1 = 1 / -np.log(0.9)
    return {"id": "demo.rate", "location": "Theorem 1", "statement": "steps grow like log(1/ε)", "status": "holds",
            "details": {"sweep": {"param": "log(1/eps)", "x": list(x), "measured": list(3 + a1 * x),
                                  "predicted": None, "ratio": None, "ratio_of": None, "scale": "log"},
                        "fit": {"exponent": a1, "ci": [a1 - 0.01, a1 + 0.01], "predicted_exponent": a1,
                                "margin": 0.5, "family": "polynomial", "coefficient": "a1",
                                "coefficients": [3.0, a1], "law": "steps ≈ a0 + a1·log(1/eps)", "rule": "r"}}}


def _gids(fig):
    ax = fig.axes[0]
    return {a.get_gid(): a for a in [*ax.lines, *ax.collections] if a.get_gid()}


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_a_good_rate_figure_has_every_part():
    r = power_row(thresholds=[{"value": 500.0, "label": "τ = 500"}])
    fig = plots.rate_figure(r)
    assert plots.problems(fig, r) == []
    ax = fig.axes[0]
    assert ax.get_ylabel() == "T1" and ax.get_xlabel() == "K" and "refuted" in ax.get_title()
    assert ax.get_xscale() == ax.get_yscale() == "log"
    gids = _gids(fig)
    assert {plots.MEASURED, plots.BAND, plots.LAW, plots.FIT, plots.THRESHOLD} <= set(gids)
    assert "best constant" in gids[plots.LAW].get_label()  # Θ hides the constant: the best one is drawn
    caption = " ".join(t.get_text() for t in fig.texts)
    assert "exponent b = 1.6" in caption and "decades" in caption and "4 seeds" in caption


@pytest.mark.parametrize("plant, complaint", [
    (lambda fig: fig.axes[0].set_ylabel("measured"), "y axis not named by the quantity"),
    (lambda fig: fig.axes[0].set_ylabel(""), "y axis not named by the quantity"),
    (lambda fig: _gids(fig)[plots.LAW].remove(), "the paper's law is not drawn"),
    (lambda fig: _gids(fig)[plots.BAND].remove(), "no band over seeds"),
    (lambda fig: _gids(fig)[plots.THRESHOLD].remove(), "a threshold the claim is about is not drawn"),
    (lambda fig: fig.axes[0].set_title("p2-t1"), "no verdict in the title"),
    (lambda fig: [t.set_text("") for t in fig.texts], "no caption"),
    (lambda fig: (fig.axes[0].set_yscale("linear"), fig.axes[0].set_yticks(np.linspace(0, 8000, 40))),
     "tick labels overlap"),
])
def test_planted_failures_are_caught(plant, complaint):
    r = power_row(thresholds=[500.0])
    fig = plots.rate_figure(r)
    assert plots.problems(fig, r) == []
    plant(fig)
    assert complaint in plots.problems(fig, r)


def test_the_pre_issue_figure_is_caught():
    """The figure the report drew before: measured points on log-log axes, y label "measured", no band."""
    r = power_row()
    fig, ax = plt.subplots()
    ax.loglog(r["details"]["sweep"]["x"], [np.median(m) for m in r["details"]["sweep"]["measured"]], "o")
    ax.set_xlabel("K")
    ax.set_ylabel("measured")
    ax.set_title(r["id"])
    found = plots.problems(fig, r)
    assert {"y axis not named by the quantity", "no measurement", "the paper's law is not drawn",
            "no band over seeds", "no verdict in the title", "no caption"} <= set(found)


def test_a_log_law_is_drawn_on_a_log_x_axis_through_the_points():
    r = log_row()
    fig = plots.rate_figure(r)
    assert plots.problems(fig, r) == []
    ax = fig.axes[0]
    assert ax.get_xscale() == "log" and ax.get_yscale() == "linear" and ax.get_xlabel() == "1/eps"
    law = _gids(fig)[plots.LAW]
    lx, ly = law.get_data()
    sweep = r["details"]["sweep"]
    shown = np.exp(sweep["x"])
    on_line = np.interp(np.log(shown), np.log(lx), ly)
    assert np.max(np.abs(on_line - np.array(sweep["measured"])) / np.array(sweep["measured"])) < 0.02


def test_every_glyph_renders():
    assert plots.renderable("𝓡(t) costs $5") == "${\\mathcal{R}}$(t) costs \\$5"
    r = power_row(quantity="𝓡(T1) ≥ ½")
    fig = plots.rate_figure(r)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # matplotlib warns "Glyph ... missing from font(s)"
        fig.canvas.draw()
    assert "mathcal" in fig.axes[0].get_ylabel()


def test_the_quantity_comes_from_the_claim():
    r = power_row()
    r["details"]["fit"]["law"] = "y ≈ C·K^b"  # a law that names no quantity: the statement's left side
    assert plots.quantity(r, r["details"]["sweep"], r["details"]["fit"]) == "T_f^1"
    r["statement"] = "grows quickly"
    assert plots.quantity(r, {}, {}) == "the quantity of Prop. 2"


def test_a_narrow_log_axis_has_several_distinct_tick_labels():
    """1.00 to 1.02 on a log axis: four labels that differ (not one "1", not "1.005×10⁰")."""
    r = power_row()
    sweep = r["details"]["sweep"]
    sweep["measured"] = [1.0 + 0.004 * i for i in range(len(sweep["x"]))]
    sweep["predicted"] = None
    fig = plots.rate_figure(r)
    fig.canvas.draw()
    labels = [t.get_text() for t in fig.axes[0].yaxis.get_ticklabels() if t.get_visible() and t.get_text()]
    assert len(set(labels)) >= 3 and plots.problems(fig, r) == []


# --- thresholds and reported values on every kind of figure (issue 28, item 4) -----------------------------------

def trajectory_row(**extra):
    """α_c against t with τ = 0.05 the claim is about (p1-filter-cs's shape), recorded on the trajectory."""
    t = list(range(0, 60, 5))
    return {"id": "demo.filter", "location": "Prop. 1 (15)", "statement": "max α_c ≤ τ", "status": "refuted",
            "details": {"trajectory": {"x": t, "series": {"max α_c [c,s_i]": [1 / 3 - 0.001 * i for i in t]},
                                       "boundaries": [50], "ylabel": "max α_c", **extra}}}


def curve_row(**extra):
    """A reproduction: the loss curve against epochs with the paper's reported values (Fig. 1's prose)."""
    return {"id": "demo.fig1", "location": "Fig. 1", "statement": "loss ≈ 0.6 by t = 30", "status": "refuted",
            "details": {"curve": {"x": [0, 30, 110, 200], "y": [1.0, 0.08, 0.02, 0.01], "yerr": [0, .01, .01, .01],
                                  "xlabel": "epoch t", "ylabel": "prediction loss", "logy": True, **extra}}}


def _remove(fig, gid):
    [a.remove() for a in [*fig.axes[0].lines, *fig.axes[0].collections] if a.get_gid() == gid]


@pytest.mark.parametrize("make, row", [
    (plots.trajectory_figure, lambda: trajectory_row(thresholds=[{"value": 0.05, "label": "τ = 0.05"}])),
    (plots.curve_figure, lambda: curve_row(thresholds=[{"value": 50, "label": "t = 50", "axis": "x"}])),
])
def test_a_threshold_recorded_but_not_drawn_is_a_problem(make, row):
    r = row()
    fig = make(r)
    assert plots.problems(fig, r) == []
    assert plots.THRESHOLD in _gids(fig)
    _remove(fig, plots.THRESHOLD)
    assert "a threshold the claim is about is not drawn" in plots.problems(fig, r)


def test_a_vertical_threshold_is_a_vertical_line():
    r = curve_row(thresholds=[{"value": 50, "label": "t = 50", "axis": "x"}])
    x, _y = _gids(plots.curve_figure(r))[plots.THRESHOLD].get_data()
    assert list(x) == [50, 50]


def test_reported_values_recorded_but_not_drawn_are_a_problem():
    r = curve_row(paper_points=[[30, 0.6], [110, 0.1]])
    fig = plots.curve_figure(r)
    assert plots.problems(fig, r) == []
    stars = _gids(fig)[plots.REPORTED]
    assert [list(map(float, v)) for v in stars.get_data()] == [[30.0, 110.0], [0.6, 0.1]]
    _remove(fig, plots.REPORTED)
    assert "the paper's reported values are not drawn" in plots.problems(fig, r)


def test_a_curve_with_a_spread_needs_its_band():
    r = curve_row()
    fig = plots.curve_figure(r)
    assert plots.problems(fig, r) == []
    _remove(fig, plots.BAND)
    assert "no band over seeds" in plots.problems(fig, r)


def test_typed_references_are_drawn_on_their_figure_only():
    """A typed Threshold for the trajectory and a Reported for every figure: the trajectory draws both; a sweep of
    the same row draws the reported values but not the trajectory's threshold."""
    from theoryverify import evidence_types as et
    from theoryverify.verdicts import refuted
    r = trajectory_row()
    v = et.attach(refuted("m", "e", {"t": 50}, **r["details"]), et.Threshold(0.05, "τ = 0.05", figure="trajectory"),
                  et.Reported(((10, 0.2),), "Fig. 1"))
    r["details"] = dict(v.details)
    fig = plots.trajectory_figure(r)
    assert plots.problems(fig, r) == []
    assert {plots.THRESHOLD, plots.REPORTED} <= set(_gids(fig))
    assert "Fig. 1" in _gids(fig)[plots.REPORTED].get_label()
    _remove(fig, plots.THRESHOLD)
    assert plots.problems(fig, r) == ["a threshold the claim is about is not drawn"]
    ths, reps = et.references(r["details"], "sweep")
    assert ths == [] and len(reps) == 1


def _drawn_as_printed(declared: str, coefficient: float) -> dict:
    """A rate row whose claim tests its constant (``declared``, the fit's ``coefficient``): its figure draws the
    paper's law with the printed constant (K·log K, ×1), never the best one; the row, for the caller's twin."""
    r = power_row()
    r["details"]["fit"]["constant"] = {"tested": True, "declared": declared, "coefficient": coefficient}
    law = _gids(plots.rate_figure(r))[plots.LAW]
    assert law.get_label() == "paper's law (its printed constant)"
    K = np.array(r["details"]["sweep"]["x"])
    assert np.allclose(np.sort(law.get_ydata()), np.sort(K * np.log(K)), rtol=1e-3)
    plt.close("all")
    return r


def test_a_printed_constant_is_drawn_as_printed_not_rescaled():
    """constant='printed': the claim tests the printed constant, so the figure draws it (×1), never the best one;
    planted: the same row without the declaration draws the best constant."""
    r = _drawn_as_printed("printed", 2.0)
    del r["details"]["fit"]["constant"]
    assert "best constant" in _gids(plots.rate_figure(r))[plots.LAW].get_label()


def test_an_asymptotic_constant_is_drawn_as_printed_and_only_a_real_bound_hides_one():
    """Issue 29, author 5, defect 7: a refuted twin (constant='asymptotic', measured/printed → 0.5) was drawn as
    "paper's law × 0.498 (best constant; Θ/O hides it)", hiding the refuted constant; and an O bound said "Θ/O"."""
    _drawn_as_printed("asymptotic", 0.5)
    r = power_row()
    r["details"]["fit"]["bound"] = "big_o"
    assert _gids(plots.rate_figure(r))[plots.LAW].get_label().endswith("(best constant; O hides it)")


def test_a_law_with_a_log_factor_is_drawn_as_that_law_not_as_a_pure_power():
    """Defect 7: a sweep with no predicted values whose law is x·log(1/x) was drawn as x^1: the paper's line must
    be proportional to x·log(1/x) (planted: the same row without the log factor is a pure power)."""
    x = np.logspace(-4, -2, 5)
    y = 3 * x * np.log(1 / x)
    row = {"id": "demo.sampled", "location": "Theorem 5", "statement": "E sin² = Õ(1/T)", "status": "holds",
           "details": {"sweep": {"param": "1/T", "x": list(x), "measured": list(y), "predicted": None},
                       "fit": {"exponent": 1.0, "ci": [0.98, 1.02], "predicted_exponent": 1.0, "margin": 0.2,
                               "family": "power", "law": "E ≈ C·(1/T)^b·log(T)^1", "bound": "big_o",
                               "log_power": 1.0, "rule": "r"}}}
    line = _gids(plots.rate_figure(row))[plots.LAW]
    assert line.get_label() == "paper's law: exponent 1·log(T)^1 (best constant)"
    lx, ly = np.asarray(line.get_xdata()), np.asarray(line.get_ydata())
    ratio = ly / (lx * np.log(1 / lx))
    assert np.allclose(ratio, ratio[0], rtol=1e-4)
    plt.close("all")
    del row["details"]["fit"]["log_power"]
    line = _gids(plots.rate_figure(row))[plots.LAW]
    lx, ly = np.asarray(line.get_xdata()), np.asarray(line.get_ydata())
    assert not np.allclose(ly / (lx * np.log(1 / lx)), (ly / (lx * np.log(1 / lx)))[0], rtol=1e-2)


def test_a_saved_figure_is_rasterised_once(tmp_path, monkeypatch):
    """The tick-label pass (:func:`plots._thin_ticks`) lays the figure out without drawing its pixels: savefig
    rasterises it once (it drew twice, ~5 CPU-s over the four papers' 110 figures); the bytes are the same (the
    committed reports' PNGs, tests/test_report_reproducible.py)."""
    from matplotlib.figure import Figure

    calls = []  # one per draw of the figure that paints (a layout pass disables the renderer's draw_* methods)
    draw = Figure.draw
    monkeypatch.setattr(Figure, "draw", lambda self, renderer: (
        calls.append("layout" if "draw_path" in vars(renderer) else "paint"), draw(self, renderer))[1])
    assert plots.rate_plot(power_row(thresholds=[{"value": 500.0, "label": "τ = 500"}]), tmp_path / "a.png")
    assert (tmp_path / "a.png").stat().st_size > 0 and calls.count("paint") == 1, calls
