"""Referee 28's remaining reading defects (session 45, helper s45-readf): a computation announced after a goal ("we
want to show …, and to that end we evaluate") read as the goal, "we call the quantity … = …" checked as a step, and
readable rows refused.  Every snippet is written for these tests (no paper's text); each fix's test failed on the code
before it."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows  # noqa: E402

POSITIVE = ("proved", "holds")


# 1. a goal, then "to that end we evaluate": the display is a computation -------------------------------------------
def test_evaluation_after_goal_is_checked(tmp_path, capsys):
    # old: kind goal, so the false evaluation 1/6 · 2 · 5 = 1/(2π) was never checked
    rows = tex_rows(tmp_path, capsys, "We want to show that the bias shrinks like $1/n$, and to that end\n"
                    "we compute the constant in front:\n\\begin{align*}\n\\frac{1}{6}\\cdot 2 \\cdot 5 &= \\frac{1}{2\\pi} .\n"
                    "\\end{align*}\n")
    assert [r["status"] for r in rows] == ["refuted"], rows


def test_genuine_goal_stays_goal(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, "\\begin{proof}\nWe want to show that $u$ is small:\n\\[\n u \\le v + 1 .\n\\]\n"
                    "\\end{proof}\n")
    assert rows[0]["kind"] == "goal", rows


# 2. "We call the quantity … = …": a definition --------------------------------------------------------------------
def test_we_call_is_a_definition(tmp_path, capsys):
    # old: checked as a step (inconclusive) once the same letter had been used earlier
    rows = tex_rows(tmp_path, capsys, "Above, $\\mathcal{Q}$ was the flip $g \\mapsto g(-\\cdot)$.\n"
                    "Fix a cost $c$. We call the quantity\n\\begin{equation*}\n"
                    "\\mathcal{Q}_{\\mu}(h, z) = \\frac{1}{M}\\sum_{j=1}^{M} c(u_j, h, z_j) + \\mu \\lVert h \\rVert^2\n"
                    "\\end{equation*}\nthe penalised cost of $h$. Then we have\n\\[\n (a+b)^2 = a^2 + 2ab + b^2 + 1 .\n\\]\n")
    assert rows[0]["kind"] == "definition", rows
    assert rows[1]["status"] == "refuted", rows  # a step after it is still checked


def test_which_we_call_after_is_a_definition(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, "Above, $\\mathcal{Q}$ was the flip.\nFix a cost $c$. Throughout,\n"
                    "\\begin{equation*}\n\\mathcal{Q}_{\\mu}(h) = \\mu \\lVert h \\rVert^2 + c(h) ,\n\\end{equation*}\n"
                    "which we call the penalised cost.\n")
    assert rows[0]["kind"] == "definition", rows


# 3. readable rows refused ---------------------------------------------------------------------------------------
def test_braket_set_builder_is_read(tmp_path, capsys):
    # old: "unknown LaTeX command \Set" (braket.sty's set-builder braces)
    rows = tex_rows(tmp_path, capsys, "We have\n\\[\n \\mathbb{P}\\Set{ (u_j)_{j=1}^M | \\lVert A \\rVert \\ge t } "
                    "\\le 2 e^{-M} \\le 2 .\n\\]\n", preamble="\\usepackage{amsmath,braket}\n")
    assert all("unknown" not in (r.get("reason") or "") + str(r) for r in rows), rows
    assert all(r["status"] != "unreadable" for r in rows), rows
    assert "\\mid" in rows[0]["read_as"], rows  # the first | is the separator, not an absolute value


def test_braket_bar_rewrite():
    from theoryverify.check.tex.run import braket_sets
    assert braket_sets(r"\Set{x | \lvert x \rvert < 1}") == r"\left\{x  \mid  \lvert x \rvert < 1\right\}"
    assert braket_sets(r"\set{a, b}") == r"\{a, b\}"
    assert braket_sets(r"\set{\left| y \right| | y \in A}") == r"\{\left| y \right|  \mid  y \in A\}"
    assert braket_sets(r"\set{\|v\| | v}") == r"\{\|v\|  \mid  v\}"


def test_enskip_is_spacing(tmp_path, capsys):
    # old: "unknown LaTeX command \enskip" — the false step was never checked
    rows = tex_rows(tmp_path, capsys, "We have\n\\[\n \\enskip (a+b)^2 = a^2 + b^2 \\enskip\n\\]\n")
    assert [r["status"] for r in rows] == ["refuted"], rows


def test_braced_bold_covariance_is_the_operator(tmp_path, capsys):
    # old: "unexpected '}'" on {\mathbf{Cov}}_ρ[…] (a paper's macro for a bold Cov braced in a group of its own)
    rows = tex_rows(tmp_path, capsys, "We have\n\\[\n {\\mathbf{Cov}}_{\\rho}\\left[ U, W \\right] = "
                    "{\\mathbf{{E}}}_{\\rho}\\left[ U W \\right] - {\\mathbf{{E}}}_{\\rho}[U] {\\mathbf{{E}}}_{\\rho}[W] ,\n\\]\n"
                    "and\n\\[\n {\\mathbf{Var}}[U + W] = {\\mathbf{Var}}[U] + {\\mathbf{Var}}[W] .\n\\]\n")
    assert all(r["status"] != "unreadable" for r in rows), rows
    assert all(r["status"] not in POSITIVE + ("refuted",) for r in rows), rows  # opaque: nothing decided
    assert "Cov" in rows[0]["read_as"] and "Var" in rows[1]["read_as"], rows


def test_adjoint_of_an_applied_map_is_read(tmp_path, capsys):
    # old: "cannot read '*' as an exponent or argument" for ψ(x)^* w
    rows = tex_rows(tmp_path, capsys, "We have\n\\[\n \\widetilde{\\psi}(x)^* w = \\frac{1}{M}\\sum_{k=1}^M C(u_k) w_k\n\\]\n"
                    "and\n\\[\n \\psi(x)^{*} w = w \\psi(x)^{*} \n\\]\n")
    assert all(r["status"] != "unreadable" for r in rows), rows
    assert "adjoint(" in rows[0]["read_as"] and "**" not in rows[0]["read_as"], rows
    assert rows[1]["status"] not in POSITIVE, rows  # an adjoint applied is an operator: no commuting verdict


def test_direct_sum_refused_with_its_reason(tmp_path, capsys):
    # old: "expected a name in braces, got '\\bigoplus'" (no reason a reader can act on)
    rows = tex_rows(tmp_path, capsys, "We have\n\\[\n v = \\frac{1}{\\sqrt{M}}\\operatorname{\\bigoplus}_{k=1}^M y_k \n\\]\n")
    assert rows[0]["status"] not in POSITIVE + ("refuted",), rows
    assert "direct sum" in str(rows[0]), rows


# 4. words inside an event's brackets do not cut the row -------------------------------------------------------------
def test_and_inside_probability_brackets_keeps_one_relation(tmp_path, capsys):
    # old: cut at "\mbox{ and }", then split at the event's own \ge: fragments refused ("cannot read '\right' here")
    rows = tex_rows(tmp_path, capsys, "We have\n\\begin{align*}\n\\Pb{T < \\infty \\mbox{ and } W_T \\geq \\sqrt{2 T + c}}\n"
                    "& \\leq 3 \\exp ( - c ) .\n\\end{align*}\nand\n\\[\n a \\le b \\text{ and } u \\ge v\n\\]\n",
                    preamble="\\newcommand{\\Pb}[1]{\\mathrm{Prob}\\left[#1\\right]}\n")
    assert len(rows) == 3, rows  # one relation, then the two joined by "and" outside any bracket
    assert rows[0]["status"] != "unreadable" and "<=" in rows[0]["read_as"], rows
    assert rows[0]["status"] not in POSITIVE + ("refuted",), rows


def test_braced_bold_probability_before_a_set_is_the_sign(tmp_path, capsys):
    # old (and with \Set read): {\mathbf{{Pr}}}\left\{…\right\} read as Prbf times the set
    rows = tex_rows(tmp_path, capsys, "We have\n\\[\n {\\mathbf{{Pr}}}\\left\\{ Z \\ge t \\right\\} \\le e^{-t} .\n\\]\n")
    assert "Prbf *" not in rows[0]["read_as"] and "Pr" in rows[0]["read_as"], rows
    assert rows[0]["status"] not in POSITIVE + ("refuted", "unreadable"), rows


def test_thereto_consider_after_goal_is_checked(tmp_path, capsys):
    # old: "We want to show …, and thereto consider the ratio:" made the computation below a goal
    rows = tex_rows(tmp_path, capsys, "We want to show that the gap is of order $1/t$, and thereto consider\n"
                    "the constant:\n\\begin{align*}\n\\frac{1}{6}\\cdot 2 \\cdot 5 &= \\frac{1}{2\\pi} .\n\\end{align*}\n")
    assert [r["status"] for r in rows] == ["refuted"], rows
