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
