"""Referee 31's derivative, convergence and silent-product items (session 48, helper s48-reade): ``\\partial_{x_i} f(x̄)``,
``\\partial_i f``, ``\\frac{\\partial f}{\\partial x_i}(x̄)`` (a partial derivative at a point), ``X_n \\xrightarrow{d} X``
(convergence of random variables) and ``i(k_i)`` (a name indexing the argument of its own application).  Every
snippet is written for these tests (no paper's text); each test failed on the code before the fix unless it says it
is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc as _doc  # noqa: E402


def _proof(*displays: str) -> str:
    """A proof with each of ``displays`` as its own equation, led in by "Then"."""
    return _doc(r"\begin{proof}", *(f"Then\n\\begin{{equation}}\n{d}\n\\end{{equation}}" for d in displays),
                r"\end{proof}")


# 1. \partial_{x_i} f(x̄), \partial_{x_i} f, \partial_i f(x̄) ------------------------------------------------------
def test_a_subscripted_partial_at_a_point_is_read_as_the_fraction_is(tmp_path, capsys):
    # old: \partial_{x_i} … unreadable ("\partial_{x} with x a name"); \partial_i f(\bar x) read as
    # diff(f, i)·x̄ — 0 ≥ 0, "proved"
    rows = tex_rows(tmp_path, capsys, _proof(
        r"\partial_{x_i} f(\bar x) - \partial_{x_j} f(\bar x) \ge 0 .",
        r"\partial_i f(\bar x) \ge \partial_j f(\bar x) .",
        r"\partial_{x_2} f(\bar x) = \frac{\partial f(\bar x)}{\partial x_2} .",
        r"\partial_2 f(\bar x) = \frac{\partial f(\bar x)}{\partial x_2} ."))
    # (f(x̄) is also written inside a fraction here, where f·x̄ is a reading too: both readings, no verdict)
    assert [r["status"] for r in rows][:2] == ["ambiguous", "ambiguous"] and "no verdict" in rows[0]["reason"], rows
    assert [r["status"] for r in rows][2:] == ["proved", "proved"], rows
    assert "⟦\\partial f/\\partial x_i⟧(xbar)" in rows[0]["read_as"], rows
    assert "⟦\\partial f/\\partial x_i⟧(xbar)" in rows[1]["read_as"], rows  # ∂_i f(x̄): ∂f/∂x_i at x̄
    assert "diff(f, i)" not in rows[1]["read_as"], rows


def test_a_subscripted_partial_of_a_bare_name_is_one_unknown(tmp_path, capsys):
    # old: unreadable; \partial_{x_i} f is f's partial, one unknown (as ∂f/∂x_i), never d(constant) = 0
    rows = tex_rows(tmp_path, capsys, _proof(r"\partial_{x_i} f \ge \partial_{x_j} f ."))
    assert [r["status"] for r in rows] == ["inconclusive"], rows
    assert rows[0]["read_as"] == "⟦\\partial_{x_i}f⟧ >= ⟦\\partial_{x_j}f⟧", rows


def test_a_subscripted_partial_of_a_scalar_function_is_computed(tmp_path, capsys):
    # old: unreadable; \partial_x f(\bar x) is f'(x̄), the same as ∂f(x̄)/∂x (proved for every f)
    rows = tex_rows(tmp_path, capsys, _proof(r"\partial_x f(\bar x) = \frac{\partial f(\bar x)}{\partial x} ."))
    assert [r["status"] for r in rows] == ["proved"], rows
    assert "subs(diff(f(x), x), x, xbar)" in rows[0]["read_as"], rows


def test_a_subscripted_partial_of_an_expression_is_still_checked(tmp_path, capsys):
    # guard: ∂_x (x² y) = 2xy proved, = 3xy refuted (the fix cannot hide a real error)
    rows = tex_rows(tmp_path, capsys, _proof(r"\partial_x (x^2 y) = 2 x y .", r"\partial_x (x^2 y) = 3 x y ."))
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows


def test_an_index_partial_of_a_function_of_several_arguments_is_one_unknown(tmp_path, capsys):
    # ∂_i f(x, y): no single point to take a component of — one unknown partial of f, never d/di of f(x, y) = 0
    rows = tex_rows(tmp_path, capsys, _proof(r"\partial_i f(x, y) = 0 ."))
    assert rows[0]["status"] == "inconclusive", rows
    assert "⟦\\partial_{i} f⟧(x, y)" in rows[0]["read_as"], rows


# 2. \frac{\partial f}{\partial x_i}(x̄): the derivative, then evaluated at the point --------------------------------
def test_a_derivative_evaluated_at_a_point_is_the_partial_at_that_point(tmp_path, capsys):
    # old: ⟦\frac{\partial f}{\partial x_2}⟧(x̄), another unknown than ∂f(x̄)/∂x_2 (the equality ambiguous/inconclusive)
    rows = tex_rows(tmp_path, capsys, _proof(
        r"\frac{\partial f}{\partial x_2}(\bar x) = \frac{\partial f(\bar x)}{\partial x_2} .",
        r"\frac{\partial f}{\partial x_i}(\bar x) - \frac{\partial f}{\partial x_j}(\bar x) \ge 0 ."))
    assert rows[0]["status"] == "proved", rows
    assert rows[0]["read_as"].startswith("⟦\\partial f/\\partial x_2⟧(xbar) ="), rows
    assert rows[1]["status"] == "inconclusive", rows  # an unknown function's partials: never 0 − 0 ≥ 0
    assert "⟦\\partial f/\\partial x_i⟧(xbar)" in rows[1]["read_as"], rows


def test_a_derivative_at_a_point_of_a_defined_function_is_computed(tmp_path, capsys):
    # f(x) := x³ defined: df/dx(x̄) = 3x̄² proved (old: one unknown, inconclusive); = 2x̄² is not proved (its
    # refutation is held back as ∂f(x̄)/∂x's is: the evaluation's bound x counts as a name on one side only)
    body = _doc(r"Let", r"\begin{equation}", r"f(x) := x^3 .", r"\end{equation}",
                _proof(r"\frac{d f}{d x}(\bar x) = 3 \bar x^2 .", r"\frac{d f}{d x}(\bar x) = 2 \bar x^2 ."))
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["not_a_step", "proved", "inconclusive"], rows
    assert "refuted as read" in rows[2]["reason"], rows


def test_a_density_at_a_point_stays_one_unknown(tmp_path, capsys):
    # guard: dμ/dν(x) (no variable of the point) is the density applied, as before — never d/dν of μ(x) = 0
    rows = tex_rows(tmp_path, capsys, _proof(r"\frac{d \mu}{d \nu}(x) = 0 ."))
    assert rows[0]["status"] == "inconclusive", rows
    assert "⟦\\frac{d\\mu}{d\\nu}⟧(x)" in rows[0]["read_as"], rows


# 4. convergence arrows ------------------------------------------------------------------------------------------
def test_convergence_arrows_are_probabilistic_rows(tmp_path, capsys):
    # old: no row at all (\to separates a map's domain from its range)
    body = _doc(*(f"We have\n\\begin{{equation}}\n{d}\n\\end{{equation}}" for d in (
        r"\sqrt{n}(\hat\theta_n - \theta) \xrightarrow{d} N(0, \sigma^2) .",
        r"X_n \xrightarrow{\mathcal{D}} X .",
        r"X_n \overset{d}{\to} X .",
        r"X_n \stackrel{d}{\longrightarrow} X .",
        r"\hat\theta_n \xrightarrow{p} \theta .",
        r"\hat\theta_n \xrightarrow{a.s.} \theta .",
        r"\hat\theta_n \xrightarrow[n \to \infty]{\text{a.s.}} \theta .")))
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "probabilistic")] * 7, rows
    assert " ->_d " in rows[0]["read_as"] and " ->_p " in rows[4]["read_as"] and " ->_a.s. " in rows[5]["read_as"], rows
    assert "convergence in distribution" in rows[0]["reason"], rows
    assert "convergence in probability" in rows[4]["reason"], rows
    assert "convergence almost surely" in rows[5]["reason"] and "almost surely" in rows[6]["reason"], rows


def test_a_chain_with_a_convergence_arrow_still_checks_its_equalities(tmp_path, capsys):
    # guard: "a = b \xrightarrow{p} c": the equality is a step (refuted when false), the arrow a probabilistic row;
    # an arrow labelled with no mode (a limit, k → ∞) gives no row, as before
    body = _doc("We have", r"\begin{equation}", r"2 X_n + X_n = 3 X_n \xrightarrow{p} 3 \mu .", r"\end{equation}",
                "We have", r"\begin{equation}", r"2 X_n + X_n = 4 X_n \xrightarrow{p} 3 \mu .", r"\end{equation}",
                "Also", r"\begin{equation}", r"x_k \xrightarrow{k \to \infty} x^* .", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows] == [
        ("proved", "step"), ("not_a_step", "probabilistic"), ("refuted", "step"), ("not_a_step", "probabilistic")], rows


# 5. i(k_i): the name indexes its own argument -------------------------------------------------------------------
def test_a_name_indexing_its_own_argument_is_no_silent_product(tmp_path, capsys):
    # old: i(k_i) read as i·k_i ("a number times a bracket", as α(1 − α)) although the paper applies i(k), i(l(k))
    body = _doc(r"\begin{proof}", r"There exist $\hat i$ and indices $l(k)$ such that", r"\begin{equation}",
                r"i(k_i) = \hat i .", r"\end{equation}", "Hence", r"\begin{equation}", r"i(k) = i(l(k)) .",
                r"\end{equation}", "and", r"\begin{equation}", r"i(k_i) + 1 = i(k_i) + 2 .", r"\end{equation}",
                r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["read_as"] == "i(k[i]) = ihat", rows
    assert "i * k" not in rows[2]["read_as"] and rows[2]["status"] == "refuted", rows  # guard: still refuted


def test_a_name_inside_its_own_bracket_is_still_a_product(tmp_path, capsys):
    # guard: α(1 − α) and p_i(1 − p_i) stay a number times a bracket (α(1 − α) ≤ 1/4 proved)
    rows = tex_rows(tmp_path, capsys, _proof(r"\alpha(1 - \alpha) = \alpha - \alpha^2 .",
                                             r"p_i(1 - p_i) = p_i - p_i^2 ."))
    assert [r["status"] for r in rows] == ["proved", "proved"], rows
