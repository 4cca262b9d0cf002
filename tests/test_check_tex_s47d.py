"""Referees 29/30's token, name and row-splitting items (session 47, helper s47-readd): a relation sign inside a
brace group never splits a row (even after an unbalanced bracket), a value function's superscript policy
``V^{\\pi_{k+1}}`` is one name, ``\\Re`` / ``\\Im`` are the real and imaginary part, and a paper's paired-delimiter
macros.  Every snippet is written for these tests (no paper's text); each test failed on the code before the fix
unless it says it is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc as _doc  # noqa: E402


def _align(*rows: str) -> str:
    return _doc("We have", r"\begin{align}", *rows, r"\end{align}")


# 1. a relation inside a brace group never splits a row ------------------------------------------------------------
def test_a_sim_inside_a_subscript_never_splits_a_row_after_an_unbalanced_paren(tmp_path, capsys):
    # old: the stray ')' left the bracket count at -1, so the '{' of "\mathbb{E}_{Y \sim \beta}" brought it to 0 and
    # the row was cut at that \sim: a spurious asymptotic row and a fragment starting "\beta}[…"
    rows = tex_rows(tmp_path, capsys, _align(
        r"A_n &= \mathbb{E} \Big| f(Y_1)) - \mathbb{E}_{Y \sim \beta}[g(Y)] \Big| \\",
        r"&= \mathbb{E} | h(x) | ."))
    assert all(r["kind"] != "asymptotic" for r in rows), rows
    assert not any(r["latex"].startswith("\\beta}") for r in rows), rows
    assert rows[0]["status"] == "unreadable", rows
    assert "unbalanced brackets" in rows[0]["reason"], rows


def test_guard_a_sim_between_two_sides_is_still_an_asymptotic_row(tmp_path, capsys):
    # guard: the brace count must not hide a real \sim, nor a \sim after a stray ')' outside every group
    rows = tex_rows(tmp_path, capsys, _align(r"f(n) &\sim g(n) , \\", r"h(n)) &\sim n^2 ."))
    assert [r["kind"] for r in rows] == ["asymptotic", "asymptotic"], rows


def test_guard_a_false_step_beside_a_subscript_sim_is_still_refuted(tmp_path, capsys):
    # guard: a balanced row with \sim in a subscript is read as one relation, and a false step there refuted
    rows = tex_rows(tmp_path, capsys, _align(r"\mathbb{E}_{Y \sim \beta}[Y] + a &= \mathbb{E}_{Y \sim \beta}[Y] + 2 a ."),
                    preamble="")
    assert len(rows) == 1 and rows[0]["status"] == "refuted", rows


# 2. V^{\pi_{k+1}}: a value function of an iteration's policy is one name ------------------------------------------
def test_a_policy_with_a_compound_index_labels_the_value_function(tmp_path, capsys):
    # old: "V ** pivar[k + 1]" (V to the power π_{k+1}) — and the row proved on that misreading
    rows = tex_rows(tmp_path, capsys, _align(r"V^{\pi_{k+1}} + V^{\pi_{k+1}} &= 2 V^{\pi_{k+1}} , \\",
                                             r"V^{\pi_{k+1}} - V^{\pi_k} &\ge 0 , \\",
                                             r"Q^{\pi_{t-1}}(s, a) &= Q^{\pi_{t - 1}}(s,a) ."))
    assert all("**" not in (r["read_as"] or "") for r in rows), rows
    assert "Vsup[pi_kp1]" in rows[0]["read_as"] and rows[0]["status"] == "proved", rows
    assert "Vsup[pi_k]" in rows[1]["read_as"], rows
    assert rows[2]["read_as"] == "Qsup_pi_tm1(s, a) = Qsup_pi_tm1(s, a)", rows


def test_guard_a_false_step_on_a_policy_value_is_refuted_and_a_power_stays_a_power(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _align(r"V^{\pi_{k+1}} + 1 &= V^{\pi_{k+1}} , \\",
                                             r"x^{k+1} &= x^k x ."))
    assert rows[0]["status"] == "refuted" and "Vsup[pi_kp1]" in rows[0]["read_as"], rows
    assert rows[1]["read_as"].startswith("x ** (k + 1)"), rows


# 3. \Re / \Im: the real and imaginary part ------------------------------------------------------------------------
def test_real_and_imaginary_parts_are_read_as_the_unspecified_functions_re_and_im(tmp_path, capsys):
    # old: "unknown LaTeX command \Re (closest: \le, \ge)" on every row
    rows = tex_rows(tmp_path, capsys, _align(r"\Re(z) + \Re(z) &= 2 \Re(z) , \\",
                                             r"\Re \langle x, y \rangle &\le \|x\| \|y\| , \\",
                                             r"\Im w &= \Im w ."))
    assert [r["read_as"] for r in rows] == ["Re(z) + Re(z) = 2 * Re(z)", "Re(inner(x, y)) <= norm(x) * norm(y)",
                                            "Im(w) = Im(w)"], rows
    assert rows[0]["status"] == "proved" and rows[1]["status"] == "inconclusive", rows


def test_a_real_part_without_an_argument_is_unreadable_saying_why(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _align(r"g(x) &= \Re^n ."))
    assert rows[0]["status"] == "unreadable" and "\\Re with no argument" in rows[0]["reason"], rows


def test_guard_a_false_step_on_a_real_part_is_refuted_and_nothing_is_assumed_of_it(tmp_path, capsys):
    # guard: Im(w) = Im(w) + 1 is false whatever Im means; Re(z) = z is no refutation (z may be complex) nor proof
    rows = tex_rows(tmp_path, capsys, _align(r"\Im(w) &= \Im(w) + 1 , \\", r"\Re(z) &= z ."))
    assert [r["status"] for r in rows] == ["refuted", "inconclusive"], rows


# 4. a paper's paired delimiters and one-argument macros (JMLR-ORFF-style preamble) ---------------------------------
_PAIRED = _doc(r"\usepackage{mathtools}",
               r"\DeclarePairedDelimiter\norm{\lVert}{\rVert}",
               r"\DeclarePairedDelimiter\inner{\langle}{\rangle}",
               r"\newcommand\conj[1]{\overline{#1}}",
               r"\makeatletter",
               r"\let\oldnorm\norm",
               r"\def\norm{\@ifstar{\oldnorm}{\oldnorm*}}",
               r"\renewcommand\paragraph{\@startsection{paragraph}{4}{0pt}{1ex}{-1em}{\bfseries}}",
               r"\newcommand\mysection{\@startsection{section}{1}{0pt}{1ex}{1ex}{\bfseries}}",
               r"\makeatother")


def test_a_macro_argument_across_a_line_break_expands_beside_a_refused_macro(tmp_path, capsys):
    # old: the paragraph held a refused macro (a class's \paragraph, a \mysection), so it was expanded line by line,
    # and \inner{x, y -  / z} (its argument across a line break) failed on both lines: "macro expansion failed:
    # \inner: unbalanced braces or brackets in its argument"
    body = _doc(r"\paragraph{Bounds} We have", r"\begin{equation}", r"a = \inner{x, y -", r"  z} + \norm{x +",
                r"  y}_{\mathcal{H}} .", r"\end{equation}", "",
                r"\mysection Then", r"\begin{equation}", r"b = \inner{x,", r"  y}_{\mathcal{H}} + 1 .", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body, preamble=_PAIRED)
    assert [r["read_as"] for r in rows] == ["a = inner(x, y - z) + norm_H(x + y)", "b = inner(x, y) + 1"], rows


def test_a_sized_inner_product_with_its_space_is_the_inner_product(tmp_path, capsys):
    # old: \inner{x, y}_{\mathcal{Y}} expands to \left\langle x, y\right\rangle_{\mathcal{Y}}, read as one unknown
    # (the unsized \langle x, y\rangle_{\mathcal{Y}} was the inner product)
    rows = tex_rows(tmp_path, capsys, _align(r"\inner{x, y}_{\mathcal{Y}} + \inner{x, y}_{\mathcal{Y}} &= "
                                             r"2 \left\langle x, y\right\rangle_{\mathcal{Y}} ."), preamble=_PAIRED)
    assert rows[0]["read_as"] == "inner(x, y) + inner(x, y) = 2 * inner(x, y)", rows


def test_guard_a_false_inner_product_step_is_refuted_and_a_conjugate_of_a_sum_says_why(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _align(r"\inner{x, y}_{\mathcal{Y}} &= \inner{x, y}_{\mathcal{Y}} + 1 , \\",
                                             r"\conj{a + b} &= \conj{a} + \conj{b} ."), preamble=_PAIRED)
    assert rows[0]["status"] == "refuted", rows
    assert rows[1]["status"] == "unreadable" and "accent over an expression" in rows[1]["reason"], rows


def test_a_policy_superscript_on_a_lowercase_or_word_name_applied_is_the_policy_function(tmp_path, capsys):
    # old: d_\rho^\pi(s) read as d_ρ to the power of the constant π times s; \mathrm{adv}_i^\pi(s, \alpha) as
    # adv_i(s, α) ** π (the f^2(x) convention with π for the 2)
    rows = tex_rows(tmp_path, capsys, _align(r"\mathrm{adv}_{i}^{\pi}(s, \alpha) &= Q_{i}^{\pi}(s, \alpha) - V_{i}(s) , \\",
                                             r"\tilde{d}_{\rho}^{\pi}\left(s\right) + 1 &= \tilde{d}_{\rho}^{\pi}(s) ."))
    assert rows[0]["read_as"] == "advsup_i_pi(s, alpha) = Qsup_i_pi(s, alpha) - V_i(s)", rows
    assert "dtildesup_rho_pi(s)" in rows[1]["read_as"] and "**" not in rows[1]["read_as"], rows
    assert rows[1]["status"] in ("refuted", "ambiguous"), rows  # false under both readings: never proved


def test_a_blackboard_or_calligraphic_superscript_labels_the_name(tmp_path, capsys):
    # old: V(\pi_\lambda^{\mathbb{A}}) read V(pivar[lam] ** Abb) — a policy to the power of a set
    rows = tex_rows(tmp_path, capsys, _align(r"V(\pi_{\lambda}^{\mathbb{A}}) - V(\pi_{\lambda}^{\mathbb{B}}) &= 0 , \\",
                                             r"a^{\mathbb{A}}_i + 1 &= a_i^{\mathbb{A}} , \\",
                                             r"y^{2} + y^{\mathcal{S}} &= y \cdot y + y^\mathcal{S} ."))
    assert rows[0]["read_as"] == "V(pivarsup[lam, Abb]) - V(pivarsup[lam, Bbb]) = 0", rows
    assert rows[1]["read_as"] == "asup[i, Abb] + 1 = asup[i, Abb]" and rows[1]["status"] == "refuted", rows
    assert rows[2]["read_as"] == "y ** 2 + ysup[Scal] = y * y + ysup[Scal]" and rows[2]["status"] == "proved", rows


def test_a_decorated_policy_superscript_on_a_name_applied_is_the_policy_function(tmp_path, capsys):
    # old: \tilde{d}_\rho^{\pi^{\mathbb{A}}}(s) read dtilde[rho] ** pivar ** Abb * s
    rows = tex_rows(tmp_path, capsys, _align(r"\tilde{d}_{\rho}^{\pi^{\mathbb{A}}}(s) + 1 &= "
                                             r"\tilde{d}_{\rho}^{\pi^{\mathbb{A}}}(s) ."))
    assert rows[0]["read_as"] == "dtildesup_rho_pisupAbb(s) + 1 = dtildesup_rho_pisupAbb(s)", rows
    assert rows[0]["status"] == "refuted", rows
