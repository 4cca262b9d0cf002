"""The report renders a value by what its key says it is (issue 14), never by the length of the list: an
interval as [lo, hi], a shape or an index as (3, 1), values per seed as median [min, max] (n = k), any other
vector entry by entry to 4 significant digits."""
import math

import numpy as np
import pytest

from theoryverify.report import markdown
from theoryverify.report.markdown import evidence_text, fmt, meaning


@pytest.mark.parametrize("key, value, shown", [
    # intervals: the two ends, never a median of them
    ("ci", [1.0131, 1.0592], "[1.013, 1.059]"),
    ("CI (95%)", [-0.125, -0.125], "[-0.125, -0.125]"),
    ("x_range", [0.5, 20], "[0.5, 20]"),
    ("confidence interval", (0.1, 0.2), "[0.1, 0.2]"),
    # shapes and indices: a tuple of integers
    ("shape", [3, 1], "(3, 1)"),
    ("W_shape", [7], "(7,)"),
    ("index", [2, 0], "(2, 0)"),
    ("argmax", [1.0, 4.0], "(1, 4)"),
    ("indices", [[0, 1], [2, 3]], "[(0, 1), (2, 3)]"),
    # values per seed
    ("per seed", [3.0, 1.0, 2.0], "2 [1, 3] (n = 3)"),
    ("durations_over_seeds", [10, 40, 20, 30], "25 [10, 40] (n = 4)"),
    ("loss per_seed", [0.5], "0.5 (n = 1)"),
    ("per seed", [1.0, math.nan, 3.0], "2 [1, 3] (n = 3, 1 NaN)"),
    # anything else: the vector itself, 4 significant digits
    ("grid", [8, 16, 32, 64], "[8, 16, 32, 64]"),
    ("x", [0.123456, 2.0], "[0.1235, 2]"),
    (None, [1.5, 2.5, 3.5], "[1.5, 2.5, 3.5]"),
    ("N", list(range(4, 16)), "[4, 5, 6, 7, 8, 9, …, 15] (n = 12)"),
    ("V", [[0.7071067811865475, 0.0], [0.0, 0.7071067811865475]], "[[0.7071, 0], [0, 0.7071]]"),
    ("seeds", [0, 1, 2], "[0, 1, 2]"),  # the seeds themselves, not values per seed
    ("flags", [True, False], "[True, False]"),
    ("argmax_set", ["r1", "r3"], "[r1, r3]"),
    # scalars and mappings (each value by its own key, or its parent's when its own says nothing)
    ("b", 1.03412, "1.034"),
    ("n", 7, "7"),
    ("T1", {"fitted_exponent": -0.004064198, "ci": [-0.0101604, 0.0]},
     "{fitted_exponent: -0.004064, ci: [-0.01016, 0]}"),
    ("ratio_range_per_N_f", {"20": [0.5, 2.0], "40": [0.25, 4.0]}, "{20: [0.5, 2], 40: [0.25, 4]}"),
    ("x", None, "None"),
])
def test_values_are_rendered_by_meaning(key, value, shown):
    assert fmt(value, key) == shown


def test_the_length_of_a_list_does_not_decide():
    """Two numbers are an interval, a shape or a point according to the key, not a per-seed sample."""
    pair = [3, 1]
    assert {fmt(pair, k) for k in ("ci", "shape", "point", "per seed")} == {"[3, 1]", "(3, 1)", "2 [1, 3] (n = 2)"}
    assert fmt(pair, "ci") == fmt(pair, "point") == "[3, 1]" and "n =" not in fmt(pair)


def test_a_meaning_that_does_not_fit_the_value_falls_back_to_the_vector():
    assert fmt([1, 2, 3], "ci") == "[1, 2, 3]"  # three numbers are not an interval
    assert fmt([0.5, 1.5], "index") == "[0.5, 1.5]"  # non-integers are not an index
    assert fmt(["not reached", 3], "per seed") == "[not reached, 3]"
    assert fmt([], "ci") == "[]"


@pytest.mark.parametrize("key, what", [
    ("ci", "interval"), ("fit_CI", "interval"), ("price", None),  # whole words only: "price" holds no "ci"
    ("position", "index"), ("positive", None), ("time index", "index"),
    ("per seed", "per_seed"), ("loss_over_seeds", "per_seed"), ("seeds", None), ("n_seeds", None),
    ("seed", None), (None, None), (3, None),
])
def test_meaning_reads_the_words_of_the_key(key, what):
    assert meaning(key) == what


def test_arrays_render_like_lists():
    assert fmt(np.array([[1.0, 2.5]]), "M") == "[[1, 2.5]]"
    assert fmt(np.array([3, 1]), "shape") == "(3, 1)"
    assert fmt(np.float64(math.pi)) == "3.142" and fmt(np.int64(5)) == "5" and fmt(np.array(2.5)) == "2.5"


def test_counterexample_in_the_evidence_is_rendered_by_meaning():
    row = {"evidence": "CI excludes the prediction",
           "counterexample": {"fitted_exponent": 1.0341, "ci": [1.0131, 1.0592], "grid": [8, 16, 32, 64, 128, 256],
                              "shape": [3, 1], "x": [0.1234567, 0.5]}}
    text = evidence_text(row)
    assert "ci=[1.013, 1.059]" in text and "grid=[8, 16, 32, 64, 128, 256]" in text
    assert "shape=(3, 1)" in text and "x=[0.1235, 0.5]" in text and "n =" not in text


SWEPT = {
    "id": "demo.rate", "location": "Thm 1", "statement": "y = Θ(x^2)", "kind": "rate", "status": "holds",
    "as_expected": True, "method": "fit", "evidence": "ok", "catalogue_id": None, "choices": {},
    "details": {"sweep": {"param": "x", "x": [1, 2, 4, 8],
                          "measured": [[1.1, 0.9, 1.0], [4.0], 16.3, [60.0, 66.0]],
                          "predicted": [1, 4, 16, 64], "ratio": [1.0, 1.0, 1.02, 0.98]},
                "fit": {"exponent": 1.98, "ci": [1.9, 2.05], "predicted_exponent": 2, "margin": 0.1,
                        "rule": "holds if CI within predicted ± margin"}},
}


def test_sweep_tables_show_the_measured_values_per_seed():
    lines = markdown.bounds_section([SWEPT], {})
    rows = [line for line in lines if line.startswith("| ") and not line.startswith("| x ")]
    assert rows == ["| 1 | 1 | 1 [0.9, 1.1] (n = 3) | 1 |",
                    "| 2 | 4 | 4 (n = 1) | 1 |",
                    "| 4 | 16 | 16.3 | 1.02 |",
                    "| 8 | 64 | 63 [60, 66] (n = 2) | 0.98 |"]
    assert any("CI 0.95: [1.9, 2.05]" in line for line in lines)
