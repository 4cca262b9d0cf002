"""Referee 33's "Suppose … we have \\[ … \\]. Then …" (session 49): a display the sentence supposes, with the
consequence drawn after it, is a hypothesis — never a step to check or a goal.  Every snippet is written for these
tests (no paper's text); each test failed on the code before the fix unless it says it is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc as _doc  # noqa: E402


def test_a_supposed_display_followed_by_then_is_a_hypothesis(tmp_path, capsys):
    # old: a step (the supposition 2 a ≤ a, false for a > 0, was refuted as if the paper had derived it)
    body = _doc("Let $a > 0$. Suppose that for this $a$ we have", r"\begin{equation}", r"2 a \le a .",
                r"\end{equation}", "Then $a \\le 0$, a contradiction.")
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "hypothesis")], rows
    assert "supposes" in rows[0]["reason"], rows


def test_a_supposition_in_a_lemma_is_its_hypothesis_not_its_goal(tmp_path, capsys):
    body = _doc(r"\begin{lemma} Assume that for all $x$ we have", r"\begin{equation}", r"g(x) \le 2 x^2 .",
                r"\end{equation}", r"Then $g(1) \le 2$. \end{lemma}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["kind"] for r in rows] == ["hypothesis"], rows


def test_guard_a_derived_display_after_suppose_then_stays_a_step(tmp_path, capsys):
    # the sentence draws the display ("Suppose b > 0; then we have"): a step, and a false one is refuted
    body = _doc("Suppose $b > 0$; then we have", r"\begin{equation}", r"(b + 1)^2 = b^2 + 1 .", r"\end{equation}",
                "Then we go on.")
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows] == [("refuted", "step")], rows


def test_guard_no_then_after_the_display_keeps_the_old_reading(tmp_path, capsys):
    body = _doc("Suppose $b > 0$. We have", r"\begin{equation}", r"(b + 1)^2 = b^2 + 1 .", r"\end{equation}",
                "which is wrong.")
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows] == [("refuted", "step")], rows


# μ[f]: a measure applied to a function -------------------------------------------------------------------------------
def test_a_measure_applied_to_a_function_in_square_brackets_is_one_unknown(tmp_path, capsys):
    # old: read mu * f (the product of two numbers)
    body = _doc("For the measure,", r"\begin{equation}", r"\mu[f] = \int f \, d\mu .", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert len(rows) == 1 and "mu * f" not in rows[0]["read_as"] and "mu[f]" in rows[0]["read_as"], rows
    assert rows[0]["status"] == "inconclusive", rows


def test_guard_a_false_step_about_a_measure_applied_is_still_refuted(tmp_path, capsys):
    body = _doc("For the measure,", r"\begin{equation}", r"\mu[f] + 2 = \mu[f] + 3 = \int f \, d\mu + 3 .",
                r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "refuted" and "mu[f]" in rows[0]["read_as"], rows


def test_guard_square_brackets_without_an_integral_against_the_name_are_unchanged(tmp_path, capsys):
    body = _doc("Then", r"\begin{equation}", r"c[f] = \int f \, d\mu .", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert "c[f]" not in rows[0]["read_as"], rows


# "We say … if \[ … \]": the display defines a property --------------------------------------------------------------
def test_we_say_if_makes_the_display_the_definition_of_a_property(tmp_path, capsys):
    # old: a hypothesis ("the condition of the prose's 'if …'")
    body = _doc("We say that $f$ is $L$-smooth if", r"\begin{equation}",
                r"\|\nabla f(x) - \nabla f(y)\| \le L \|x - y\| .", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "definition")], rows
    assert "defines a property" in rows[0]["reason"], rows


def test_a_property_defined_by_an_equation_gives_its_name_no_value(tmp_path, capsys):
    # "a is admissible if a = b + c" says nothing of a's value: a later a = b + c + 1 is not decided by it
    body = _doc("We say that $a$ is admissible if", r"\begin{equation}", r"a = b + c .", r"\end{equation}",
                "Hence", r"\begin{equation}", r"a + 1 = b + c + 1 .", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["kind"] == "definition", rows
    assert rows[1]["status"] not in ("proved", "holds"), rows


# \usepackage{diffcoeff}: \diffp, \diff ------------------------------------------------------------------------------
def _diffcoeff(tmp_path, capsys, *rows: str, preamble: str = "\\usepackage{amsmath,diffcoeff}\n") -> list[dict]:
    return tex_rows(tmp_path, capsys, _doc("Then", *rows), preamble=preamble)


def test_diffcoeff_derivatives_are_read_as_the_package_typesets_them(tmp_path, capsys):
    # old: \diffp unknown (no definition in the paper): every row unreadable
    rows = _diffcoeff(tmp_path, capsys, r"\begin{equation}", r"\diffp{(x^2 y)}{x} = 2 x y", r"\end{equation}", "and",
                      r"\begin{equation}", r"\diff[2]{t^3}{t} = 6 t", r"\end{equation}")
    assert [r["status"] for r in rows] == ["proved", "proved"], rows
    assert rows[1]["read_as"].startswith("diff(t ** 3, t, t)"), rows


def test_guard_a_wrong_diffcoeff_derivative_is_refuted(tmp_path, capsys):
    rows = _diffcoeff(tmp_path, capsys, r"\begin{equation}", r"\diffp{x^2 y}{x} = x y", r"\end{equation}")
    assert [r["status"] for r in rows] == ["refuted"], rows


def test_guard_the_papers_own_diffp_wins_and_no_package_means_no_reading(tmp_path, capsys):
    rows = _diffcoeff(tmp_path, capsys, r"\begin{equation}", r"\diffp{x}{y} = x y", r"\end{equation}",
                      preamble="\\usepackage{diffcoeff}\n\\newcommand{\\diffp}[2]{#1 #2}\n")
    assert rows[0]["status"] == "proved" and "diff" not in rows[0]["read_as"], rows
    rows = _diffcoeff(tmp_path, capsys, r"\begin{equation}", r"\diffp{(x^2 y)}{x} = 2 x y", r"\end{equation}",
                      preamble="")
    assert rows[0]["status"] not in ("proved", "holds", "refuted"), rows


def test_braced_and_empty_derivative_orders_are_numeric_orders(tmp_path, capsys):
    # old: \partial^{2} (braced) was read as a symbolic order, one unknown; ^{} likewise
    rows = _diffcoeff(tmp_path, capsys, r"\begin{equation}",
                      r"\frac{\partial^{2} (x^3)}{\partial x^{2}} = 6 x = 3 x + 3 x", r"\end{equation}", preamble="")
    assert rows[0]["read_as"].startswith("diff(x ** 3, x, x)") and rows[0]["status"] != "refuted", rows
