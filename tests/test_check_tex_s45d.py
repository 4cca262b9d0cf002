"""Referee 27's coverage and reading items (session 45, helper s45-readd): unbraced one-digit fraction arguments
(``\\tfrac12``), typesetting-only commands that refused readable rows, a product of two sums reusing one index, and
reasons that say what is true.  Every snippet is written for these tests (no paper's text); each test failed on the
code before the fix unless it says it is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import displays, tex_rows, doc as _doc, proof_align as _proof  # noqa: E402


# 1. \tfrac12: an unbraced argument is one token, a digit one token ------------------------------------------------
def test_unbraced_digit_fraction_arguments_take_one_digit_each(tmp_path, capsys):
    # old: "\tfrac12 x^2" read as 12/x * … (the whole number 12 the numerator, x the denominator)
    rows = tex_rows(tmp_path, capsys, _proof(r"\tfrac12 x^2 + \dfrac1n x &= \frac{x^2}{2} + \frac{x}{n} , \\",
                                              r"\frac{1}2 y + \tfrac13 y &= \frac{5 y}{6} , \\",
                                              r"\tfrac12 z^2 &= \frac{z^2}{3} ."))
    assert [r["status"] for r in rows] == ["proved", "proved", "refuted"], rows
    assert "1 / 2 * z ** 2" in rows[2]["read_as"], rows


# 2. typesetting-only commands ------------------------------------------------------------------------------------
_STACK_MACROS = _doc(r"\newcommand*{\stk}[3][lr]{\mathrel{\smashoperator[#1]{\mathop{#2}^{#3}}}}",
                     r"\newcommand*{\lxeq}[1]{\stk[l]{=}{#1}}",
                     r"\renewcommand*{\stackrel}[2]{\;\mkern-\thickmuskip\mathop{#2}\limits^{#1}\;\mkern-\thickmuskip}")


def test_stacked_operator_relations_are_rewritten_as_stackrel(tmp_path, capsys):
    # \mathrel{\smashoperator[l]{\mathop{=}^{(a)}}} is \stackrel{(a)}{=} (read since session 46: the label is kept as the
    # link's justification and blocks a refutation, tests/test_check_tex_s46a.py)
    from theoryverify.check.tex import run
    text = r"a &\mathrel{\smashoperator[l]{\mathop{=}^{(\ref{e})}}} b \;\mkern-\thickmuskip c"
    assert run.stacked_relations(text) == r"a &\stackrel{(\ref{e})}{=} b  c"


def test_a_stacked_relation_citing_a_fact_gets_no_refutation(tmp_path, capsys):
    # guard (thesis gd:1776 shape): "d - n \lxeq{(\ref{e})} n + 1" holds by d = 2n + 1 stated elsewhere: never refuted;
    # a true identity with a label is proved as before (session 46: the rewrite is read)
    body = _proof(r"2 w + w &\stackrel{(\ref{eq:q})}{=} 3 w \mkern 2mu , \\",
                  r"d - n &\lxeq{(\ref{eq:q})} n + 1 .")
    rows = tex_rows(tmp_path, capsys, body, preamble=_STACK_MACROS)
    assert [r["status"] for r in rows] == ["proved", "inconclusive"], rows
    assert all("eq:q" in r["justification"] for r in rows), rows


def test_smash_cancel_mathclap_and_qedhere_are_typesetting(tmp_path, capsys):
    # old: "unknown LaTeX command \smash" and "cannot read '.'" (a row ending ".\qedhere")
    body = _proof(r"\smash[b]{x^2} - \cancel{y} + y &= \mathclap{x}^2 \\",
                  r"d + d &= 2 d .\qedhere \\", r"e + e &= 2 e .\qed")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["proved", "proved", "proved"], rows


def test_cancelto_is_refused_with_its_reason(tmp_path, capsys):
    # old: "unknown LaTeX command \cancelto"; x struck out as becoming 0: which one is meant is not settled
    rows = tex_rows(tmp_path, capsys, _proof(r"\cancelto{0}{z} + 1 &= 1 ."))
    assert rows[0]["status"] == "unreadable" and "cancelto" in rows[0]["reason"] and \
        "not settled" in rows[0]["reason"], rows


# 3. a product of two sums reusing the index ----------------------------------------------------------------------
def test_a_second_sum_that_rebinds_a_complete_summands_index_is_a_product(tmp_path, capsys):
    # old: nested (Σ_j a_j Σ_j b_j), then "a malformed binding", ambiguous; the inner j shadows the outer: a product
    rows = tex_rows(tmp_path, capsys, _proof(
        r"\sum_{j=1}^{n} 2 a_j \sum_{j=1}^{n} b_j &= 2 \left(\sum_{k=1}^{n} a_k\right) \left(\sum_{k=1}^{n} b_k\right) , \\",
        r"\sum_{j=1}^{3} j \sum_{j=1}^{2} j &= 20 ."))
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows
    assert rows[0]["read_as"].startswith("Sum(2 * a[j], (j, 1, n)) * Sum(b[j], (j, 1, n))"), rows


def test_a_rebound_index_whose_outer_summand_does_not_use_it_stays_ambiguous(tmp_path, capsys):
    # guard: Σ_k c(i) Σ_{k=i+1}: the outer summand has no k (its index is likely a typo for i): not a product
    rows = tex_rows(tmp_path, capsys, displays(r"\sum_{k=0}^{t-1} c_i \sum_{k=i+1}^{T} q^{k} = t c_i \sum_{m=i+1}^{T} q^{m}"))
    assert rows[0]["status"] == "ambiguous" and "bound again" in rows[0]["reason"], rows


# 4. reasons that say what is true ---------------------------------------------------------------------------------
def test_an_underbrace_over_an_inner_product_inside_a_product_is_one_factor(tmp_path, capsys):
    # old: "a \underbrace over a sum inside a product" — the minus sign is inside ⟨ , ⟩, the braced term one factor
    rows = tex_rows(tmp_path, capsys, _proof(
        r"q - 2 h \underbrace{\langle g, w - v\rangle}_{\ge 0} + h^2 &= q + h^2 - 2 h \langle g, w - v\rangle , \\",
        r"q - 2 h \underbrace{\langle g, w - v\rangle}_{\ge 0} + h^2 &= q + h^2 - h \langle g, w - v\rangle ."))
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows


def test_an_underbrace_over_a_sum_inside_a_product_is_still_refused(tmp_path, capsys):
    # guard: 2\underbrace{a + b}_{c}: 2a + b or 2(a + b)? not read
    rows = tex_rows(tmp_path, capsys, displays(r"2 \underbrace{a + b}_{c} = 2 a + 2 b"))
    assert rows[0]["status"] == "unreadable" and "over a sum inside a product" in rows[0]["reason"], rows


def test_plus_minus_is_read_as_its_two_sign_choices(tmp_path, capsys):
    # old: "unknown LaTeX command \pm (closest: …)"; a ± row is two relations, one per sign choice — refused until
    # session 46, checked under both since (tests/test_check_tex_s46c.py has the cases where they differ)
    rows = tex_rows(tmp_path, capsys, _proof(r"(a \pm b)^2 &= a^2 \pm 2ab + b^2 , \\", r"\mp y + 1 &= 1 \mp y ."))
    assert [r["status"] for r in rows] == ["proved", "proved"], rows
    assert "for both sign choices" in rows[0]["reason"] and "-y + 1 = 1 - y" in rows[1]["read_as"], rows


def test_a_quotation_in_a_text_label_is_prose_and_a_backquote_in_math_is_not_read(tmp_path, capsys):
    # old: "character '`' is not allowed here" for ``…'' typed in an \underbrace's \text label
    rows = tex_rows(tmp_path, capsys, _proof(r"q - \underbrace{(2 a + a)}_{\text{``a tripled''}} &= q - 3 a , \\",
                                              r"q + `a &= q + a ."))
    assert rows[0]["status"] == "proved", rows
    assert rows[1]["status"] == "unreadable" and "`" in rows[1]["reason"], rows  # guard: math is never prose


# 5. an update rule named by prose that mentions a probability ---------------------------------------------------
def test_a_recursion_whose_convergence_holds_with_probability_one_is_an_update(tmp_path, capsys):
    # old: kind "probabilistic" ("with probability one" earlier in the sentence); the display is the rule itself
    body = _doc(r"\begin{proof}", r"A proof of convergence with probability one of the recursion", r"\begin{align*}",
                r"z_{n+1} = z_n - a_n ( q(z_n) + e_{n+1} )", r"\end{align*}", r"towards the limit.", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "update")], rows


def test_a_display_stated_with_probability_stays_probabilistic(tmp_path, capsys):
    # guard: "with probability at least 1 - d, the iterates satisfy" names no rule just before the display
    body = _doc(r"\begin{proof}", r"With probability at least $1 - d$, the iterates satisfy", r"\begin{align*}",
                r"z_{n+1} = z_n - a_n g_n", r"\end{align*}", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["kind"] == "probabilistic", rows
