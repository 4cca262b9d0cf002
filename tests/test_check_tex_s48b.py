"""Referee 32's kinds of display read from the prose around it (session 48, helper s48-readb): a long "let $X$ denote
…" before ``X = …``, a function's square introduced as ``σ^2(u) = …``, a name set to an ``\\argmin`` declared with
``\\DeclareMathOperator*``, and an algorithm's specification ("returns … for which").  Every snippet is written for
these tests (no paper's text); each test failed on the code before the fix unless it says it is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc as _doc  # noqa: E402

_LONG = ("the measure of the region in $\\mathbb{R}^n$ made of all the data vectors $z$ whose interpolants have a "
         "norm in the space $\\mathcal{H}_{a}$ no larger than the norm of the interpolant of the observed data $y$, "
         "which we use below as a size of the data")


# 1. "let $X$ denote <a long description>:" -------------------------------------------------------------------------
def test_a_long_let_denote_makes_the_first_link_a_definition(tmp_path, capsys):
    # old: the 300 characters of prose before the display no longer held "let", so V(a, y) = … was a step
    body = _doc("Let $B_n$ denote a constant, and let $V(a, y)$ denote " + _LONG + ":",
                r"\begin{align*}", r"V(a, y) &= \mathrm{vol}(Q(a, y)) \\", r"&= a^2 + a^2 .", r"\end{align*}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows][0] == ("not_a_step", "definition"), rows
    assert "announces" in rows[0]["reason"], rows
    assert rows[1]["kind"] == "step", rows  # the later link stays a step


def test_guard_a_false_later_link_after_the_announced_definition_is_refuted(tmp_path, capsys):
    body = _doc("Let $B_n$ denote a constant, and let $V(a)$ denote " + _LONG + ":",
                r"\begin{align*}", r"V(a) &= a^2 + a^2 \\", r"&= 3 a^2 .", r"\end{align*}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["kind"] == "definition" and rows[1]["status"] == "refuted", rows


def test_guard_let_naming_another_name_is_no_definition_of_the_left_side(tmp_path, capsys):
    # the sentence announces W, the display's left side is 2a + 2a: a step, refuted
    body = _doc("Let $W(a)$ denote " + _LONG + ":", r"\begin{equation*}", r"2 a + 2 a = 5 a .", r"\end{equation*}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["kind"] == "step" and rows[0]["status"] == "refuted", rows


# 2. σ^2(u) = … introduced ------------------------------------------------------------------------------------------
def test_a_function_square_introduced_is_a_definition_of_the_function(tmp_path, capsys):
    # old: "sigma ** 2 * u = transpose(u) * Sigma[infty] * u", a step (σ²·u of a σ nobody introduced)
    body = _doc("In this case the theorem identifies", r"\[", r"\Sigma_\infty = \bar{A}^{-1} S \bar{A}^{-\top},",
                r"\qquad", r"\sigma^2(u) = u^\top \Sigma_\infty u,", r"\]", "as the covariance target.")
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "definition")] * 2, rows
    assert rows[1]["read_as"].startswith("sigma(u) ** 2 ="), rows


def test_a_function_square_defined_with_colon_equals_is_the_function(tmp_path, capsys):
    # old: "sigma ** 2 * u := …" (the function rule of ':=' did not reach a name with a power)
    rows = tex_rows(tmp_path, capsys, _doc(r"\[ \sigma^2(u) := u^\top S u . \]"))
    assert rows[0]["read_as"].startswith("sigma(u) ** 2 :="), rows


def test_guard_a_name_written_before_keeps_its_product_reading(tmp_path, capsys):
    # a is a number written before the display: a^2(b) stays a²·b, and the false step is refuted
    body = _doc(r"\begin{proof}", "Let $a$ and $b$ be real numbers. We have", r"\[ a^2(b) = 2 a b . \]",
                r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["read_as"].startswith("a ** 2 * b"), rows
    assert rows[0]["status"] == "refuted", rows


def test_guard_a_power_times_a_bracket_of_sums_stays_a_product(tmp_path, capsys):
    body = _doc(r"\begin{proof}", "We have", r"\[ n^2(n + 1) = n^3 + n^2 , \qquad m^2(m + 1) = m^3 + 2 m^2 . \]",
                r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows


# 3. θ = \argmin … (\DeclareMathOperator*) ----------------------------------------------------------------------------
_ARGMIN = _doc(r"\usepackage{amsmath}", r"\DeclareMathOperator*{\argmin}{arg\,min}",
               r"\newcommand{\btheta}{{\boldsymbol{\theta}}}")


def test_a_name_set_to_a_declared_argmin_is_a_definition(tmp_path, capsys):
    # old: "thetabf = ⟦\operatorname{argmin}…⟧" a step: the declared \argmin became \operatorname{argmin}, which the
    # optimum rule did not know (and the braces of {\boldsymbol{\theta}} kept the lone-name rule off)
    body = _doc(r"The estimate, using empirical Bayes to estimate $\btheta$, is \cite{x}",
                r"\begin{equation*}", r"\sqrt{a}, \qquad \btheta = \argmin_{t} \left[ \log(t) + t \right] .",
                r"\end{equation*}")
    rows = tex_rows(tmp_path, capsys, body, preamble=_ARGMIN)
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "definition")], rows


def test_guard_a_false_step_beside_the_argmin_definition_is_refuted(tmp_path, capsys):
    body = _doc(r"\begin{proof}", "We have", r"\[ \btheta = \argmin_{t} (t - 1)^2 , \qquad 2 a + 2 a = 5 a . \]",
                r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body, preamble=_ARGMIN)
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "definition"), ("refuted", "step")], rows


# 4. "our algorithm returns G(f, ε) for which" ------------------------------------------------------------------------
def test_an_algorithm_specification_is_a_goal(tmp_path, capsys):
    # old: an inconclusive step
    body = _doc(r"Given $f$ and a tolerance $\varepsilon$, our algorithm returns the approximation $G(f,\varepsilon)$",
                r"for which", r"\begin{equation}", r"\lVert f - G(f,\varepsilon) \rVert_\infty \le \varepsilon",
                r"\qquad \forall f \in C.", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "goal")], rows
    assert "specification" in rows[0]["reason"], rows


def test_guard_a_derived_step_after_for_which_in_a_proof_is_refuted(tmp_path, capsys):
    body = _doc(r"\begin{proof}", "Running the algorithm, the method returns a point $x$ for which",
                r"\[ 2 x + 2 x = 5 x . \]", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows] == [("refuted", "step")], rows


def test_guard_an_algorithm_sentence_that_derives_stays_a_step(tmp_path, capsys):
    body = _doc(r"Our algorithm returns the point $x$, and hence we have", r"\[ 2 x + 2 x = 5 x . \]")
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows] == [("refuted", "step")], rows
