"""Relations with a label set over them (session 46, helper s46-reada): ``\\stackrel{(a)}{=}``,
``\\overset{(\\ref{e})}{\\le}``, ``\\underset{(b)}{\\le}``, ``\\overset{\\text{Lem. 2}}{=}`` and what a paper's own macros
expand to (``\\mathrel{\\smashoperator[l]{\\mathop{=}^{(\\ref{e})}}}``, ``\\mathop{<}\\limits^{(a)}``).  The label is the
link's justification: kept in the row (``justification``), and, since it may cite a fact the display does not state
("d − n = n + 1" by d = 2n + 1 stated elsewhere), a link false as an identity is inconclusive with its
counterexample, never refuted.  A true identity is proved as before, and an unlabelled false link beside it is still
refuted and the chain's first wrong step.  Every snippet is written for these tests (no paper's text); each test
failed on the code before the change unless it says it is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import displays, tex_rows, doc as _doc, proof_align as _proof  # noqa: E402


#: a thesis-style set of macros: a relation set as an operator with its label above it
_STACK_MACROS = _doc(r"\newcommand*{\stk}[3][lr]{\mathrel{\smashoperator[#1]{\mathop{#2}^{#3}}}}",
                     r"\newcommand*{\lxeq}[1]{\stk[l]{=}{#1}}",
                     r"\newcommand*{\lxle}[1]{\stk[l]{\le}{#1}}",
                     r"\renewcommand*{\stackrel}[2]{\;\mkern-\thickmuskip\mathop{#2}\limits^{#1}\;\mkern-\thickmuskip}")


# 1. the label is the link's justification ----------------------------------------------------------------------
def test_the_label_over_a_relation_is_kept_as_the_justification(tmp_path, capsys):
    # old: the label was dropped (no "justification" in the row)
    rows = tex_rows(tmp_path, capsys, _proof(r"2 w + w &\stackrel{(a)}{=} 3 w \\",
                                              r"&\overset{\text{Lem. 2}}{\le} 3 w + w^2 \\",
                                              r"&\underset{(\ref{eq:b})}{\le} 3 w + 2 w^2 ."))
    assert [r["status"] for r in rows] == ["proved", "proved", "proved"], rows
    assert "(a)" in rows[0]["justification"], rows
    assert rows[1]["justification"] == "labelled Lem. 2", rows
    assert "eq:b" in rows[2]["justification"], rows


def test_an_empty_label_is_no_justification(tmp_path, capsys):
    # guard: \stackrel{}{=} and \xlongequal{} carry nothing: no justification, a false step still refuted
    rows = tex_rows(tmp_path, capsys, _proof(r"v + v &\stackrel{}{=} 2 v \\", r"&\xlongequal{} 3 v ."),
                    preamble="\\usepackage{extarrows}\n")
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows
    assert not any("justification" in r for r in rows), rows


# 2. a labelled link false as an identity: inconclusive, with its counterexample ------------------------------------
def test_a_labelled_link_false_as_an_identity_is_inconclusive_with_its_counterexample(tmp_path, capsys):
    # old: refuted (d − n = n + 1 holds by d = 2n + 1, which the label cites)
    rows = tex_rows(tmp_path, capsys, _proof(r"d - n &\stackrel{(\ref{eq:dim})}{=} n + 1 , \\",
                                              r"u + u &\overset{(b)}{\le} u ."))
    assert [r["status"] for r in rows] == ["inconclusive", "inconclusive"], rows
    assert all(r.get("counterexample") for r in rows), rows
    assert "cites (\\ref{eq:dim})" in rows[0]["reason"] and "as read on its own" in rows[0]["reason"], rows
    assert not any(r.get("first_wrong_step") for r in rows), rows


def test_a_label_citing_a_key_that_writes_a_relation_is_no_condition(tmp_path, capsys):
    # old: \lxeq{(\ref{eq: dim=2n+1})} was read as the condition "dim = 2n+1" (the key's "="), and the step refuted
    body = _proof(r"d - n &\lxeq{(\ref{eq: dim=2n+1})} n + 1 , \\", r"u + u &\stackrel{(\ref{eq:u<1})}{<} u .")
    rows = tex_rows(tmp_path, capsys, body, preamble=_STACK_MACROS)
    assert [r["status"] for r in rows] == ["inconclusive", "inconclusive"], rows
    assert "cites (\\ref{eq: dim=2n+1})" in rows[0]["reason"] and not rows[0]["assumptions"], rows


def test_the_same_steps_without_a_label_are_still_refuted(tmp_path, capsys):
    # guard: the label is what withholds the verdict; the same false steps unlabelled are refuted
    rows = tex_rows(tmp_path, capsys, _proof(r"d - n &= n + 1 , \\", r"u + u &\le u ."))
    assert [r["status"] for r in rows] == ["refuted", "refuted"], rows


def test_an_unlabelled_false_link_after_a_labelled_one_is_the_first_wrong_step(tmp_path, capsys):
    # guard: the chain's other links keep their own verdicts; the first wrong step is the first *refuted* link
    rows = tex_rows(tmp_path, capsys, _proof(r"d - n &\stackrel{(a)}{=} n + 1 \\", r"&= n + 2 ."))
    assert [r["status"] for r in rows] == ["inconclusive", "refuted"], rows
    assert rows[1].get("first_wrong_step") and not rows[0].get("first_wrong_step"), rows


def test_a_condition_over_a_relation_still_refutes_under_it(tmp_path, capsys):
    # guard: \overset{p = 1/2}{=} states a condition, which is assumed (not cited): false under it, refuted
    rows = tex_rows(tmp_path, capsys, _proof(r"p + p &\overset{p = 1/2}{=} 3 ."))
    assert rows[0]["status"] == "refuted", rows


def test_a_relation_marked_with_an_exclamation_is_no_claim(tmp_path, capsys):
    # old: "0 \overset{!}{=} a - b" (set to hold) refuted at a = 1, b = 0
    rows = tex_rows(tmp_path, capsys, _proof(r"0 &\overset{!}{=} a - b ."))
    assert rows[0]["status"] == "inconclusive" and "marked !" in rows[0]["reason"], rows


# 3. a paper's own stacking macros are read (READ_STACKED_OPERATORS is gone) ---------------------------------------
def test_a_stacked_operator_relation_is_read_with_its_label(tmp_path, capsys):
    # old: \mathrel{\smashoperator[l]{\mathop{=}^{(\ref{e})}}} was left unread (the rewrite was switched off)
    body = _proof(r"2 w + w &\lxeq{(\ref{eq:q})} 3 w \mkern 2mu , \\",
                  r"d - n &\lxeq{(\ref{eq:q})} n + 1 , \\",
                  r"a^2 + 1 &\stackrel{(c)}{<} a^2 + 2 , \\",
                  r"a^2 + 3 &\lxle{(d)} a^2 + 2 .")
    rows = tex_rows(tmp_path, capsys, body, preamble=_STACK_MACROS)
    assert [r["status"] for r in rows] == ["proved", "inconclusive", "proved", "inconclusive"], rows
    assert "eq:q" in rows[0]["justification"] and "(c)" in rows[2]["justification"], rows
    assert rows[1].get("counterexample") and rows[3].get("counterexample"), rows


def test_a_stacked_operator_relation_without_a_label_is_still_refuted(tmp_path, capsys):
    # guard: \mathop{=}\limits^{} (no label) after the rewrite: a false step stays refuted
    rows = tex_rows(tmp_path, capsys, displays(r"d - n \mathop{=}\limits^{} n + 1"))
    assert rows[0]["status"] == "refuted", rows


# 4. a label over an arrow (⟹, ⟺): what it opens may rest on the fact it cites ---------------------------------------
def test_a_labelled_implication_withholds_its_consequents_refutation(tmp_path, capsys):
    # old: "x > 2 \stackrel{(b)}{\implies} x > 3" was one chain with no arrow (both sides "a range of a name")
    rows = tex_rows(tmp_path, capsys, _proof(r"x > 2 &\stackrel{(b)}{\implies} x > 3 ."))
    row = next(r for r in rows if r["read_as"] == "x > 3")
    assert row["status"] == "inconclusive" and "cites (b)" in row["reason"] and "(b)" in row["justification"], rows


def test_a_labelled_equivalence_is_inconclusive_and_an_unlabelled_one_refuted(tmp_path, capsys):
    # old: "2u > u \stackrel{(a)}{\iff} u > 5" was no equivalence (the arrow inside the label's braces was not cut);
    # guard: the same equivalence unlabelled is refuted (false with every name positive, in (0, 1) or at least 1)
    rows = tex_rows(tmp_path, capsys, _proof(r"2 u > u &\stackrel{(a)}{\iff} u > 5 , \\", r"2 v > v &\iff v > 5 ."))
    eq = {r["read_as"]: r for r in rows if r["kind"] == "equivalence" and "<=>" in (r["read_as"] or "")}
    assert eq["(2 * u > u) <=> (u > 5)"]["status"] == "inconclusive", rows
    assert eq["(2 * u > u) <=> (u > 5)"].get("counterexample") and "cites (a)" in eq["(2 * u > u) <=> (u > 5)"]["reason"]
    assert eq["(2 * v > v) <=> (v > 5)"]["status"] == "refuted", rows


def test_an_equality_in_distribution_is_no_identity_of_values(tmp_path, capsys):
    # old: "u \stackrel{\mathcal{D}}{=} -u" (a symmetric law) refuted at u = 1 as an identity of values
    # (since session 47, tests/test_check_tex_s47b.py: a relation labelled as one between laws is not_a_step,
    # probabilistic — never checked pointwise, not even the true u + u = 2u — and \stackrel{d}{=} is no definition sign)
    rows = tex_rows(tmp_path, capsys, _proof(r"u &\stackrel{\mathcal{D}}{=} - u , \\", r"v &\overset{\text{law}}{=} - v , \\",
                                              r"u + u &\stackrel{\mathcal{D}}{=} 2 u ."))
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "probabilistic")] * 3, rows
    assert all("in distribution" in r["reason"] for r in rows), rows
