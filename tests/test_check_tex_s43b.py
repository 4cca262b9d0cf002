"""Session 43 (reading, part b): a map the paper declares is applied, not offered as a product (σ: ℝ → ℝ with
``σ * φ(t)``, a convolution at t; ``δ(X, x, K)`` with three arguments beside a number δ); tuples as arguments; the
kinds of displays after "there exists … satisfying", "by definition … and therefore", "can be equivalently written
as", "it suffices that"; and a step whose unknowns cancel to a residual that is decided like any step (referee 20's
``… + ‖v_k‖² = …``).  Snippets are written for these tests."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import displays, tex_rows  # noqa: E402


# --- 4. unknowns that cancel to a residual -------------------------------------------------------------------------

def test_unknowns_that_cancel_leave_a_residual_that_is_decided(tmp_path, capsys):
    # old: all three "depends on unknowns" / "an inequality between unknowns is not decided"
    body = displays(r"\frac{k+1}{2}\big(f(x_{k+1}) - f_\star\big) + \|v_k\|^2 = \frac{k}{2}\big(f(x_{k+1}) - f_\star\big)"
                    r" + \frac{1}{2}\big(f(x_{k+1}) - f_\star\big)",
                    r"f(x) + (a + b)^2 \le f(x) + 4 a b",
                    r"g(t) + a^2 + 2 a b + b^2 + c^2 = g(t) + (a + b)^2")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["refuted", "refuted", "refuted"], rows
    assert "every unknown cancels" in rows[0]["reason"], rows[0]
    assert "cancelledvalue" not in rows[1]["reason"] and "cancelledvalue" not in str(rows[1]["counterexample"]), rows[1]


def test_unknowns_that_cancel_soundness(tmp_path, capsys):
    # true residuals are proved, never refuted; unknowns that do not cancel (f(x) vs f(y), f(k+1) vs f(1+k) as written,
    # a call inside a sum that binds its argument) decide nothing
    body = displays(r"f(x) + (a + b)^2 \ge f(x) + 4 a b",
                    r"h(t) + (a - b)^2 + 2 a b = h(t) + a^2 + b^2",
                    r"f(x) + a^2 = f(y) + a^2 + 1",
                    r"g(k + 1) - g(1 + k) + c^2 = 0",
                    r"\sum_{k=1}^{n} f(k) + c^2 = \sum_{k=1}^{n} f(k)",
                    r"g(t) + a^2 + 2 a b + b^2 = g(t) + (a + b)^2 + c^2")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows[:2]] == ["proved", "proved"], rows
    assert [r["status"] for r in rows[2:5]] == ["inconclusive"] * 3, rows
    # every other guard stands: a name the right side introduces (c) still withholds the refutation
    assert rows[5]["status"] == "inconclusive" and "introduces c" in rows[5]["reason"], rows[5]


def test_an_ambiguous_name_whose_terms_cancel_is_refuted_only_under_both_readings(tmp_path, capsys):
    # η(a + b): a function applied or a product — the step is false under both readings, and says so
    rows = tex_rows(tmp_path, capsys, displays(r"\eta(a + b) + c^2 = \eta(a + b)"))
    assert rows[0]["status"] == "refuted" and "both readings" in rows[0]["reason"], rows


# --- 1. a map the paper declares ------------------------------------------------------------------------------------

MAP = "Let $\\sigma : \\mathbb{R} \\to \\mathbb{R}$ be continuous and let $\\phi$ be a bump function with $\\phi(0) = 1$.\n"


def test_a_convolution_of_declared_maps_at_a_point_is_no_product(tmp_path, capsys):
    # old: σ * φ(t) read as σ·φ(t), σ then written bare beside σ(t − y): "σ(…): a function applied, or a product?"
    body = MAP + displays(r"\sigma * \phi(t) + \sigma(t - y) - \sigma(t - y) = \sigma * \phi(t)",
                          r"\sigma * \phi(t) + 1 = \sigma * \phi(t) + 2")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows
    assert "sigma * phi" not in rows[0]["read_as"], rows[0]


def test_a_function_of_several_arguments_beside_a_number_of_its_name(tmp_path, capsys):
    # old: δ(X, x, K) beside a bare δ in the chain: "δ(…): a function applied, or a product?" (δ times a tuple)
    body = ("Let $\\delta(X, x, K) := \\sup\\{r : B(x, r) \\subset K\\}$ and $\\delta > 0$.\n" +
            displays(r"\delta(X, x, K) + \delta - \delta \ge \delta(X, x, K)",
                     r"\delta(X, x, K) + \delta \le \delta(X, x, K)"))
    rows = tex_rows(tmp_path, capsys, body)
    # read as the function applied (the name δ as a number beside it is the paper's, undecided here: no verdict)
    assert [r["status"] for r in rows] == ["inconclusive", "inconclusive"], rows
    assert all(r["read_as"].startswith("delta(X, x, K) + delta") for r in rows), rows


def test_a_declared_map_written_as_a_number_in_the_chain_stays_ambiguous(tmp_path, capsys):
    # soundness: σ declared a map but the chain writes 4σ² too — σ(a + b) could be σ·(a + b): both readings, no verdict;
    # a constant σ (σ > 0, never a map) keeps the product σ · φ(t), never a convolution
    body = MAP + displays(r"4 \sigma^2 + \sigma(a + b) = 4 \sigma^2 + \sigma a + \sigma b",
                          r"\sqrt{\sigma} + \sigma(a + b) = \sqrt{\sigma} + \sigma a + \sigma b")
    rows = tex_rows(tmp_path, capsys, body)
    assert all(r["status"] == "ambiguous" and len(r["readings"]) == 2 for r in rows), rows
    body = "Let $\\sigma > 0$ be a constant and $\\phi(0) = 1$.\n" + displays(r"\sigma * \phi(t) = \phi(t) \sigma")
    rows = tex_rows(tmp_path, capsys, body, name="q.tex")
    assert rows[0]["status"] == "proved" and "sigma * phi(t)" in rows[0]["read_as"], rows


# --- 2. tuples as arguments -----------------------------------------------------------------------------------------

def test_tuples_as_arguments_and_a_tuple_side_are_read(tmp_path, capsys):
    # old: all three "a tuple or interval (',' inside brackets) is not read"
    body = displays(r"d((u, t), (u, s)) \le d((u, t), (u, s)) + 1",
                    r"(B_n)_R(e_0, x) + (B_n)_R(e_1, x) = (B_n)_R(e_1, x) + (B_n)_R(e_0, x)",
                    r"r = (r_1, r_2, r_3)")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["proved", "proved", "inconclusive"], rows
    assert "tup(u, t)" in rows[0]["read_as"], rows[0]
    # a subscripted name applied to two arguments is applied (old: refused; then "a function applied, or a product?")
    rows = tex_rows(tmp_path, capsys, displays(r"\omega\left(\psi, d_{Y \times [0, 1)}\left((u, t), (u, s)\right)\right)"
                                               r" \le \omega\left(\psi, d_{Y \times [0, 1)}\left((u, t), (u, s)\right)\right)"),
                    name="q.tex")
    assert rows[0]["status"] == "proved", rows


def test_tuples_soundness(tmp_path, capsys):
    # two different tuples are two values (never proved equal); a false step around the same tuple is refuted; a tuple
    # inside arithmetic stays refused (no componentwise sum read)
    body = displays(r"d((u, t), (u, s)) = d((u, s), (u, t))",
                    r"d((u, t), (u, s)) + 1 = d((u, t), (u, s)) + 2",
                    r"(u, v) + (w, s) = (u + w, v + s)")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["inconclusive", "refuted", "unreadable"], rows


# --- 3. kinds -------------------------------------------------------------------------------------------------------

STATEMENTS = "\\usepackage{amsthm}\n\\newtheorem{theorem}{Theorem}\n\\newtheorem{lemma}{Lemma}\n"


def test_what_a_statement_says_exists_is_its_conclusion(tmp_path, capsys):
    # old: "there exists a family F satisfying [display]" classed a hypothesis of the lemma
    body = ("\\begin{lemma}\nLet $m \\ge 2$. There exists a family $F$ satisfying\n\\[\n|F| \\geq \\exp(m \\log q / 2).\n"
            "\\]\n\\end{lemma}\n\\begin{proof}\nTaking the radius $m/4$ gives\n\\[\n"
            "(4 e)^{m/4} q^{m/4} \\leq \\exp\\left(\\frac{1}{4} m \\log q\\right).\n\\]\n\\end{proof}\n")
    rows = tex_rows(tmp_path, capsys, body, preamble=STATEMENTS)
    assert [(r["kind"], r["status"]) for r in rows] == [("goal", "not_a_step"), ("step", "refuted")], rows
    assert not any("F" in a for a in rows[1]["assumptions"]), rows[1]
    # soundness: what the statement supposes exists stays its hypothesis
    rows = tex_rows(tmp_path, capsys, body.replace("There exists", "Suppose there exists"), name="q.tex",
                    preamble=STATEMENTS)
    assert rows[0]["kind"] == "hypothesis", rows
    rows = tex_rows(tmp_path, capsys, body.replace("There exists a family $F$ satisfying",
                                                   "Let $q$ be such that there exists a family $F$ with"),
                    name="r.tex", preamble=STATEMENTS)
    assert rows[0]["kind"] == "hypothesis", rows


def test_derived_by_definition_and_rewritten_displays_are_steps(tmp_path, capsys):
    # old: "by definition T(y) = y and therefore [display]" and "can be equivalently written as [display]" were
    # definitions (no check): now steps — a wrong rewrite of the defined g is refuted, a right one proved
    body = ("Let $c > 0$ and\n\\[\ng(x) := (x + 1)^2 .\n\\]\n\\begin{proof}\n"
            "If $y \\notin U$ then by definition $T(y) = y$ and therefore\n\\[\n\\rho(y, T(y)) = \\rho(y, T(y)) + 0 .\n\\]\n"
            "Then $g$ can be equivalently written as\n\\[\ng(x) = x^2 + 2 x + 1 .\n\\]\n"
            "The function $g$ can be equivalently written as follows:\n\\[\ng(x) = x^2 + 2 x .\n\\]\n"
            "By definition,\n\\[\nh(x) = x^3 + c .\n\\]\n\\end{proof}\n")
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["kind"], r["status"]) for r in rows[1:]] == [("step", "proved"), ("step", "proved"), ("step", "refuted"),
                                                            ("definition", "not_a_step")], rows


def test_a_requirement_after_an_aim_is_no_step(tmp_path, capsys):
    # old: "We want both terms below ε/2. For the second term, this yields n ≥ …" checked as a step
    body = ("\\begin{proof}\nWe want both terms of the sum below $\\epsilon/2$. For the second term, this yields\n\\[\n"
            "n \\geq \\left( \\frac{2 c}{\\epsilon} \\right)^{2}.\n\\]\n"
            "Since $n \\ge 1$ and $c > 0$, this yields\n\\[\nn + c \\geq 1 .\n\\]\n\\end{proof}\n")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["kind"] for r in rows] == ["goal", "step"], rows


def test_an_unknown_inside_an_operator_on_functions_is_not_one_value(tmp_path, capsys):
    # soundness: d/dx f(x) is no value of f: with f(x) replaced by one number there, its derivative would vanish and
    # "f'(x) + f(x) + c = f(x) + c" would be proved
    rows = tex_rows(tmp_path, capsys, displays(r"\frac{d}{dx} f(x) + f(x) + c = f(x) + c"))
    assert rows[0]["status"] == "inconclusive", rows


def test_a_name_the_prose_calls_a_function_is_applied(tmp_path, capsys):
    # old: "g(a + b)" with nothing else said of g: "a function applied, or a product?"
    body = "Let $g$ be a smooth function.\n" + displays(r"g(a + b) + 1 = g(a + b) + 2", r"g(a + b) = g(b + a)")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["refuted", "proved"], rows
    # soundness: the math also writes g as a number (2g): both readings, no verdict
    body = "Let $g$ be a smooth function.\n" + displays(r"2 g + g(a + b) = 2 g + g a + g b")
    rows = tex_rows(tmp_path, capsys, body, name="q.tex")
    assert rows[0]["status"] == "ambiguous" and len(rows[0]["readings"]) == 2, rows
