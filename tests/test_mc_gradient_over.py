"""check_mc_gradient_over: the gradient of a sampled model at every setting of declared ranges, with the data each
setting samples from and the parameters it differentiates declared separately, and a resolution chosen to decide
within a stated sample budget (issue 29, held-out author 6, defect 10: data had to go into θ with wrt=, per-setting
sampler closures, and the default resolution was inconclusive)."""
from __future__ import annotations

import numpy as np

import theoryverify as tv

OVER = [tv.Over("d", 2, 4, integer=True), tv.Over("n", "d", "3*d", integer=True)]


def _data(c, rng):
    return {"X": rng.standard_normal((c["n"], c["d"])), "y": rng.standard_normal(c["n"])}


def _params(c, rng):
    return {"w": rng.standard_normal(c["d"])}


def _row(p, rng, m):
    i = rng.integers(p["n"], size=m)
    return p["X"][i], p["y"][i]


def _loss(th, z):
    return (z[0] @ th["w"] - z[1]) ** 2 / 2


def _grad(p):
    return {"w": p["X"].T @ (p["X"] @ p["w"] - p["y"]) / p["n"]}


def test_one_random_row_is_unbiased_at_every_setting():
    v = tv.check_mc_gradient_over(OVER, _loss, _grad, _row, 3, data=_data, params=_params, settings_n=2, draws=1)
    assert v.status.value == "holds", v.evidence
    configs = v.details["configurations"]
    assert all(c["d"] <= c["n"] <= 3 * c["d"] for c in configs) and len({c["d"] for c in configs}) >= 2
    choice = v.details["resolution_choice"]
    assert choice["relative"] in (0.05, 0.1, 0.25) and choice["samples_per_setting"] <= choice["budget"]
    label = next(iter(v.details["drawn"]))
    assert set(v.details["drawn"][label]) == {"X", "y", "w"}


def test_a_missing_one_over_n_is_refuted_naming_the_setting_and_its_data():
    wrong = lambda p: {"w": p["X"].T @ (p["X"] @ p["w"] - p["y"])}  # noqa: E731
    v = tv.check_mc_gradient_over(OVER, _loss, wrong, _row, 3, data=_data, params=_params, settings_n=2, draws=0)
    assert v.status.value == "refuted"
    assert {"X", "y", "w"} <= set(v.counterexample["drawn"])


def test_a_budget_too_small_says_how_many_samples_would_decide():
    v = tv.check_mc_gradient_over(OVER, _loss, _grad, _row, 3, data=_data, params=_params, settings_n=2, draws=0,
                                  budget=50)
    assert v.status.value == "inconclusive"
    assert "samples per setting (budget=50)" in v.evidence and v.details["resolution_choice"]["needed"]["0.25"] > 50


def test_declaration_errors_are_one_line():
    v = tv.check_mc_gradient_over(OVER, _loss, _grad, _row, 3, data=_data, params=None)
    assert v.status.value == "error" and "params=" in v.evidence
    v = tv.check_mc_gradient_over(OVER, _loss, _grad, _row, 3, data=_data, params=lambda c, rng: {"X": np.zeros(2)})
    assert v.status.value == "error" and "twice" in v.evidence
