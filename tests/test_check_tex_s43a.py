"""Session 43 (referee 22, defects 5, 8, 10): standard notation read, soundly — sums, products and argument lists
written with an ellipsis, orderings with an elided middle, plain TeX's ``\\over`` in groups, ``\\wedge``/``\\vee`` as
min/max, set-builder braces and unbraced indicators, ``\\check \\bm x``, ``\\mathbb E \\int``, iterated sums.  Each
reading comes with a planted wrong step of the same kind that is not proved.  Snippets are written for these tests
(no paper's text)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import displays, tex_rows  # noqa: E402

PRE = "Let $n \\ge 1$ and $x_1, x_2 > 0$.\n"


def _rows(tmp_path, capsys, *bodies, pre=PRE):
    return tex_rows(tmp_path, capsys, pre + displays(*bodies), preamble="\\usepackage{dsfont}\n\\usepackage{bm}\n")


# --- 1. ellipses ---------------------------------------------------------------------------------------------------
def test_a_sum_written_with_an_ellipsis_is_the_sum_its_terms_determine(tmp_path, capsys):
    # old: the elided terms were one unknown (x_1 + ⟦x_2 + ⋯ + x_n⟧ + x_n), so no identity with ∑ was proved
    rows = _rows(tmp_path, capsys, r"x_1 + x_2 + \dots + x_n = \sum_{i=1}^{n} x_i",
                 r"u_0^2 + \cdots + u_{n-1}^2 = \sum_{k=0}^{n-1} u_k^2",
                 r"a_1 \cdot a_2 \cdot \ldots \cdot a_n = \prod_{j=1}^{n} a_j")
    assert [r["status"] for r in rows] == ["proved"] * 3, rows
    assert rows[0]["read_as"].startswith("Sum(x[iota], (iota, 1, n))"), rows


def test_a_product_of_factors_side_by_side_with_an_ellipsis(tmp_path, capsys):
    # old: "ellipses (\cdots) cannot be read as a formula" (a product by juxtaposition)
    rows = _rows(tmp_path, capsys, r"a_1 a_2 \cdots a_n = \prod_{j=1}^{n} a_j",
                 r"\lambda_1 \cdots \lambda_K = \prod_{k=1}^{K} \lambda_k", r"a_1 a_2 \cdots a_n = \prod_{j=2}^{n} a_j",
                 r"b / a_1 a_2 \cdots a_n = 1", r"p_1(x_1) \cdots p_n(x_n) = 1")
    assert [r["status"] for r in rows[:3]] == ["proved", "proved", "inconclusive"], rows
    # b / a_1 a_2 ⋯ (is a_1 alone divided?), p_n(x_n) (applied?): not guessed
    assert [r["status"] for r in rows[3:]] == ["unreadable", "unreadable"], rows


def test_a_wrong_sum_with_an_ellipsis_is_not_proved(tmp_path, capsys):
    rows = _rows(tmp_path, capsys, r"x_1 + \dots + x_n = \sum_{i=2}^{n} x_i",
                 r"x_1 + \dots + x_n + 1 = \sum_{i=1}^{n} x_i",
                 r"u_0^2 + \cdots + u_{n-1}^2 = \sum_{k=0}^{n} u_k^2")
    assert all(r["status"] not in ("proved", "holds") for r in rows), rows


def test_an_ellipsis_whose_terms_fix_no_index_is_not_read_as_a_sum(tmp_path, capsys):
    # odd indices, an alternating sign: no sum from 1 to n is guessed (the elided terms stay one unknown)
    rows = _rows(tmp_path, capsys, r"x_1 + x_3 + \dots + x_n = \sum_{i=1}^{n} x_i",
                 r"x_1 - x_2 + \dots + x_n = \sum_{i=1}^{n} x_i")
    assert [r["status"] for r in rows] == ["inconclusive", "inconclusive"], rows
    assert all("Sum(x[iota]" not in r["read_as"] and "\\dots" in r["read_as"] for r in rows), rows


def test_a_sum_read_from_an_ellipsis_is_never_refuted_on_a_count_its_terms_exclude(tmp_path, capsys):
    # x_1 + x_2 + ⋯ + x_n writes two terms, so n ≥ 2; the sum from 1 to n does not say so: no refutation at n = 1
    rows = _rows(tmp_path, capsys, r"x_1 + x_2 + \dots + x_n \ge x_2")
    assert rows[0]["status"] != "refuted", rows


def test_an_argument_list_with_an_ellipsis_is_read(tmp_path, capsys):
    # old: "ellipses (\cdots) cannot be read as a formula"
    rows = _rows(tmp_path, capsys, r"g(x_1, \ldots, x_n) + 1 = 1 + g(x_1, \ldots, x_n)",
                 r"g(x_1, \ldots, x_n) = g(y_1, \ldots, y_n)",
                 r"\max(x_1, \ldots, x_n) \ge x_2")
    assert rows[0]["status"] == "proved", rows
    assert rows[1]["status"] == "inconclusive" and rows[2]["status"] == "inconclusive", rows


def test_an_ordering_with_an_elided_middle_checks_no_elided_link(tmp_path, capsys):
    # old: every link with \dots classed a hypothesis, and so was a bound whose side holds f(x_1, …, x_n)
    rows = _rows(tmp_path, capsys, r"x_1 \le x_2 \le \cdots \le x_n",
                 r"|g(x_1, \ldots, x_n) - g(y_1, \ldots, y_n)| \le |g(x_1, \ldots, x_n)| + |g(y_1, \ldots, y_n)|")
    assert [r["kind"] for r in rows] == ["step", "elided", "elided", "step"], rows
    assert rows[1]["status"] == rows[2]["status"] == "not_a_step", rows
    assert rows[0]["status"] != "refuted", rows


# --- 2. set-builder and indicator contents --------------------------------------------------------------------------
def test_a_set_builder_is_one_set(tmp_path, capsys):
    # old: "unknown LaTeX command \colon", "expected '\}', got ':'", "expected '\right', got '\mid'"
    rows = _rows(tmp_path, capsys, r"|\{ y \colon y^2 \le 1 \}| + 1 = 1 + |\{ y \colon y^2 \le 1 \}|",
                 r"\left|\{ y : g(y) \neq 0 \}\right| + 0 = \left|\{ y : g(y) \neq 0 \}\right|",
                 r"\mu\{ y : g(y) > 0 \} + \mu\{ y : g(y) > 0 \} = 2\mu\{ y : g(y) > 0 \}")
    assert [r["status"] for r in rows] == ["proved"] * 3, rows  # one relation each: \le, \neq, > inside never split


def test_a_union_of_a_set_builder_family_is_one_set(tmp_path, capsys):
    # old: "unknown LaTeX command \cup" (a union written as a prefix of the family)
    rows = _rows(tmp_path, capsys, r"S \cap \cup \left\{ h^{-1}(r) \colon r \in [R] \right\} = S \cap \cup \left\{ h^{-1}(r) \colon r \in [R] \right\}",
                 r"|\cup \{ A_r \colon r \le 2 \}| \le |\cup \{ A_r \colon r \le 3 \}|")
    assert rows[0]["status"] == "proved", rows
    assert rows[1]["status"] == "inconclusive", rows


def test_different_sets_are_different_unknowns(tmp_path, capsys):
    rows = _rows(tmp_path, capsys, r"\mu\{ y : g(y) > 0 \} = \mu\{ y : g(y) > 1 \}",
                 r"|\{ y \colon y^2 < 1 \}| = 2")
    assert [r["status"] for r in rows] == ["inconclusive", "inconclusive"], rows
    assert "mu *" not in rows[0]["read_as"], rows  # μ{…} is the measure of the set, never μ times it


def test_an_unbraced_indicator_is_read(tmp_path, capsys):
    # old: "unknown LaTeX command \mathds"
    rows = _rows(tmp_path, capsys, r"\mathds 1\{ x_1 \in A \} + 1 = 1 + \mathds 1\{ x_1 \in A \}",
                 r"\mathbb 1\{ Y \sim Q \} + \mathbb 1\{ Y \sim Q \} = 2 \mathbb 1\{ Y \sim Q \}")
    assert [r["status"] for r in rows] == ["proved", "proved"], rows


def test_an_unbraced_indicator_of_a_condition_is_that_condition(tmp_path, capsys):
    rows = _rows(tmp_path, capsys, r"\mathds 1\{ x_1 > 2 \} \le \frac{x_1}{2}", r"\mathds 1\{ x_1 > 2 \} \ge 1")
    assert "indicator(x[1] > 2)" in rows[0]["read_as"] or "indicator(x_1 > 2)" in rows[0]["read_as"], rows
    assert rows[1]["status"] not in ("proved", "holds"), rows


# --- 3. \wedge, \over, \check, \mathbb E \int, iterated sums, a map as an argument -----------------------------------
def test_wedge_and_vee_are_min_and_max(tmp_path, capsys):
    # old: "unknown LaTeX command \wedge"
    rows = _rows(tmp_path, capsys, r"\min(a, b) = a \wedge b", r"\max(a, b) = a \vee b",
                 r"r^{-2(\alpha \wedge 1)} = \left(r^{-(\alpha \wedge 1)}\right)^2")
    assert [r["status"] for r in rows] == ["proved"] * 3, rows


def test_wedge_between_relations_or_beside_a_sum_is_refused(tmp_path, capsys):
    rows = _rows(tmp_path, capsys, r"x \le y \wedge y \le z", r"t \wedge s + 1 \le t + 1",
                 r"\mathbb{1}\{ x > 0 \wedge y > 0 \} \le 1", r"a \wedge b \ge a")
    assert [r["status"] for r in rows[:3]] == ["unreadable", "unreadable", "unreadable"], rows
    assert "'and'" in rows[0]["reason"] and "which" in rows[2]["reason"], rows
    assert "Min" not in (rows[3]["read_as"] or ""), rows  # "and" inside the indicator: never min(0, y)
    assert rows[4]["status"] not in ("proved", "holds"), rows  # min(a, b) ≥ a is false for b < a


def test_over_inside_a_group_is_a_fraction(tmp_path, capsys):
    # old: "expected '}', got '\over'", "expected '\right', got '\over'", "write \frac{\partial f}{\partial x}"
    rows = _rows(tmp_path, capsys, r"\sqrt{n \over 4} = \frac{\sqrt{n}}{2}", r"\left(n \over 2\right)^2 = \frac{n^2}{4}",
                 r"{\partial g \over \partial x} = \frac{\partial g}{\partial x}")
    assert [r["status"] for r in rows] == ["proved"] * 3, rows


def test_a_wrong_fraction_written_with_over_is_refuted(tmp_path, capsys):
    rows = _rows(tmp_path, capsys, r"\left(n \over 2\right)^2 = \frac{n^2}{2}", r"\sqrt{n \over 4} = \sqrt{n}")
    assert [r["status"] for r in rows] == ["refuted", "refuted"], rows


def test_over_in_round_brackets_is_no_group(tmp_path, capsys):
    # (a \over b) is no TeX group (the bar takes the whole formula): never read as a/b
    rows = _rows(tmp_path, capsys, r"(n \over 2) = \frac{n}{2}")
    assert rows[0]["status"] == "unreadable", rows


def test_check_over_a_bold_letter(tmp_path, capsys):
    # old: "expected a letter, got '\bm'"
    rows = _rows(tmp_path, capsys, r"\check \bm x - \check{\bm x} = 0", r"\check \bm x - \bm x = 0")
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows


def test_an_expectation_of_an_integral_without_brackets(tmp_path, capsys):
    # old: "an expectation sign E not followed by a bracket is not read"
    rows = _rows(tmp_path, capsys, r"\mathbb E \int_0^1 g(t) dt + 1 = 1 + \mathbb E \int_0^1 g(t) dt",
                 r"\mathbb E \int_0^1 g(t) dt = \mathbb E \int_0^2 g(t) dt")
    assert [r["status"] for r in rows] == ["proved", "inconclusive"], rows


def test_an_iterated_sum_with_an_ellipsis_is_one_unknown(tmp_path, capsys):
    # old: "ellipses (\cdots) cannot be read as a formula"
    rows = _rows(tmp_path, capsys, r"\sum_{k_1=0}^{n}\cdots\sum_{k_p=0}^{n} 1 + 0 = \sum_{k_1=0}^{n}\cdots\sum_{k_p=0}^{n} 1",
                 r"\sum_{k_1=0}^{n}\cdots\sum_{k_p=0}^{n} 2 = 2\sum_{k_1=0}^{n}\cdots\sum_{k_p=0}^{n} 1")
    assert [r["status"] for r in rows] == ["proved", "inconclusive"], rows


def test_a_map_as_an_argument(tmp_path, capsys):
    # old: "unexpected ','" (\operatorname{Exp} read as an expectation sign waiting for its operand)
    rows = _rows(tmp_path, capsys, r"\omega(\operatorname{Exp}_{x}, \epsilon) + 1 = 1 + \omega(\operatorname{Exp}_{x}, \epsilon)")
    assert rows[0]["status"] == "proved", rows


def test_a_sum_index_written_with_another_letter_is_the_same_sum(tmp_path, capsys):
    # old: ∑_k a_k − ∑_i a_i did not simplify to 0 (one dummy per index name)
    rows = _rows(tmp_path, capsys, r"\sum_{k=1}^{n} a_k = \sum_{i=1}^{n} a_i",
                 r"\sum_{k=1}^{n} \sum_{i=1}^{k} a_i = \sum_{k=1}^{n} \sum_{i=1}^{n} a_i")
    assert rows[0]["status"] == "proved", rows
    assert rows[1]["status"] not in ("proved", "holds"), rows
