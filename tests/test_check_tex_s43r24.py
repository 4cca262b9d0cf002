"""Referee 24's false "proved" verdicts (session 43): a name with a superscript and a subscript followed by a
bracket (``G^A_{m,q}(3t)``) read as a product under both readings of "power or label?", and a numeric superscript
on an applied function (``U^1_\\beta(x, \\mu)``) read silently as the first power.  Every snippet is written for these
tests (no paper's text); each test named ``..._old`` failed on the code before the fix."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc as _doc  # noqa: E402


def _statuses(rows):
    return [r["status"] for r in rows]


# 1. a labelled function applied --------------------------------------------------------------------------------
def test_a_labelled_distribution_function_applied_is_never_doubled_old(tmp_path, capsys):
    # old: G^A_{m,q}(3t) read as G_{m,q}^A·(3t) and as ⟦G^A_{m,q}⟧·(3t): the false step "proved under both readings"
    body = _doc(r"Write $G^A_{m,q}$ for the cumulative distribution function of the sum of $m$ draws. Then",
                r"\begin{equation}", r"G^A_{m,q}(3t) = 3 G^A_{m,q}(t).", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows and rows[0]["status"] not in ("proved", "holds"), rows


def test_a_labelled_function_applied_inside_a_product_is_never_multiplied_old(tmp_path, capsys):
    body = _doc(r"Write $G^A_{m,y}$ for the distribution function. For $t \ge 0$,",
                r"\begin{equation}", r"\eta\left(1 - G^A_{m,y}(3t)\right) = \eta - 3\eta t G^A_{m,y}.",
                r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows and rows[0]["status"] not in ("proved", "holds"), rows


def test_a_labelled_function_applied_keeps_a_true_step(tmp_path, capsys):
    body = _doc(r"Write $G^A_{m,q}$ for the cumulative distribution function of the sum of $m$ draws. Then",
                r"\begin{equation}", r"G^A_{m,q}(3t) + 1 = 1 + G^A_{m,q}(3t).", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert _statuses(rows) == ["proved"], rows


def test_a_labelled_function_applied_is_read_as_an_application_old(tmp_path, capsys):
    # the step is true for G applied (the same value twice), false for G·(3t) against G·3·t written apart: it is
    # only proved when the bracket is the function's argument
    body = _doc(r"Write $G^A_{m,q}$ for the cumulative distribution function of the sum of $m$ draws. Then",
                r"\begin{equation}", r"G^A_{m,q}(3t) - G^A_{m,q}(3t) = 0.", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert _statuses(rows) == ["proved"], rows
    assert "* (3 * t)" not in (rows[0].get("read_as") or ""), rows


# 2. a numeric superscript on an applied function ---------------------------------------------------------------
def test_a_superscript_one_on_an_applied_function_is_not_the_first_power_old(tmp_path, capsys):
    # old: |U^1_β(x, μ) − U_β(x, μ)| = 0 proved (U^1 read as the first power of U_β(x, μ))
    body = _doc(r"For the one-step value $U^1_\beta$ and the limit value $U_\beta$ we then have",
                r"\begin{equation}", r"|U^1_\beta(x, \mu_2) - U_\beta(x, \mu_2)| = 0.", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows and rows[0]["status"] not in ("proved", "holds"), rows


def test_numeric_labels_on_an_applied_function_are_not_powers_old(tmp_path, capsys):
    # old: U^3 − U^1 = U(U − 1)(U + 1) proved as powers of U_β(x, μ)
    body = _doc(r"Thus", r"\begin{equation}",
                r"U^3_\beta(x, \mu) - U^1_\beta(x, \mu) = U_\beta(x, \mu)\left(U_\beta(x, \mu)^2 - 1\right).",
                r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows and rows[0]["status"] not in ("proved", "holds"), rows


def test_a_numerically_labelled_function_keeps_a_true_step(tmp_path, capsys):
    body = _doc(r"Thus", r"\begin{equation}",
                r"U^1_\beta(x, \mu) + U_\beta(x, \mu) = U_\beta(x, \mu) + U^1_\beta(x, \mu).", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert _statuses(rows) == ["proved"], rows


def test_a_squared_function_of_one_argument_stays_a_square(tmp_path, capsys):
    # σ^2_max(P) = σ_max(P)²: a plain square keeps its reading (and its verdicts)
    body = _doc(r"We have", r"\begin{equation}",
                r"\sigma^2_{\max}(P) - \sigma_{\max}(P)^2 = 0.", r"\end{equation}",
                r"and", r"\begin{equation}", r"x^2 + 2x + 1 = (x + 1)^2.", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert _statuses(rows) == ["proved", "proved"], rows


# 3. an equation to solve is no step ------------------------------------------------------------------------------
def test_an_equation_solved_afterwards_is_not_a_step_old(tmp_path, capsys):
    # old: checked as an identity (refuted as read, saved only by the new-symbol rescue)
    body = _doc(r"With a uniform prior the condition simplifies to", r"\[", r"\mu = \frac{c}{c+d} + \beta \mu^2 .",
                r"\]", r"which we solve by bisection.")
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "definition")], rows


def test_a_value_that_solves_an_equation_is_defined_not_checked(tmp_path, capsys):
    body = _doc(r"The threshold $w$ is the value of $\mu$ which solves", r"\begin{equation}",
                r"\mu = c + \beta \mu^2 - d .", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "definition")], rows


def test_a_definition_according_to_an_equation_is_not_a_step_old(tmp_path, capsys):
    body = _doc(r"For a rule $\rho$ we define the long-run score according to", r"\[",
                r"S^\rho_\beta(\mathbf{z}) = \beta S^\rho_\beta(\mathbf{z}) + c .", r"\]")
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "definition")], rows


def test_a_step_that_reduces_to_an_identity_is_still_checked(tmp_path, capsys):
    # "reduces to" without an equation to solve stays a derivation: a wrong one is refuted, a true one proved
    body = _doc(r"The sum reduces to", r"\[", r"(c + d)^2 = c^2 + 2cd + d^2 ,", r"\]", r"which we use below.",
                r"and", r"\[", r"(c + d)^2 = c^2 + d^2 .", r"\]")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows


# 1b. a policy's (Greek-labelled) function applied ----------------------------------------------------------------
def test_a_policy_labelled_value_applied_is_never_a_power_times_the_bracket_old(tmp_path, capsys):
    # old: Q^π_β(2x) read as Q_β^π·(2x): the false "Q^π_β(2x) = 2Q^π_β(x)" proved
    body = _doc(r"We have", r"\begin{equation}", r"Q^\pi_\beta(2x) = 2 Q^\pi_\beta(x).", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows and rows[0]["status"] not in ("proved", "holds"), rows


def test_a_policy_labelled_value_keeps_a_true_step_and_a_power_keeps_its_reading(tmp_path, capsys):
    body = _doc(r"We have", r"\begin{equation}", r"Q^\pi_\beta(x) + 1 = 1 + Q^\pi_\beta(x).", r"\end{equation}",
                r"and", r"\begin{equation}", r"q^k_i (1 - q_i) + q^k_i q_i = q^k_i .", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert _statuses(rows) == ["proved", "proved"], rows
