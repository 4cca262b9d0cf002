"""Referee 31's kind items (session 47, helper s47-readg): what a display is in optimisation papers and proofs — "we
must have" after a rule is a consequence, an optimisation problem's rows without "s.t." are its constraints and its
objective row names the objective, "define … such that" / "there exist … such that" give the chosen objects'
property, and a set-builder broken by ``\\\\`` is one row.  Every snippet is written for these tests (no paper's
text); each test failed on the code before the fix unless it says it is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc  # noqa: E402


def _kinds(rows):
    return [(r["latex"], r["status"], r["kind"]) for r in rows]


# 1. "we must have": a consequence in a proof, not what is to be shown --------------------------------------------
def test_we_must_have_after_a_rule_is_a_step(tmp_path, capsys):
    # old: not_a_step/goal "the prose states it as what is to be shown or chosen"
    rows = tex_rows(tmp_path, capsys, doc(r"\begin{proof}", "Then, again from the ordering rule, we must have",
                                          r"\begin{equation}", r" u(p) \ge u(q).", r"\end{equation}", r"\end{proof}"))
    assert [r["kind"] for r in rows] == ["step"], rows


def test_we_must_have_false_step_is_refuted_and_show_that_stays_goal(tmp_path, capsys):
    # guard: a false step after "we must have" is refuted; "we show that" and "we must show" stay goals
    rows = tex_rows(tmp_path, capsys, doc(r"\begin{proof}", "Hence, by the rule above, we must have",
                                          r"\begin{equation}", r" (a+1)^2 = a^2 + 1 .", r"\end{equation}",
                                          "Now we show that", r"\begin{equation}", r" v(p) \le w(q) .",
                                          r"\end{equation}", "Next we must show that", r"\begin{equation}",
                                          r" v(r) \le w(r) .", r"\end{equation}", r"\end{proof}"))
    assert _kinds(rows)[0][1:] == ("refuted", "step"), rows
    assert [r["kind"] for r in rows[1:]] == ["goal", "goal"], rows


# 2. an optimisation problem's rows -------------------------------------------------------------------------------
def test_problem_rows_without_st_are_constraints_and_the_objective_row_defines(tmp_path, capsys):
    # old: the objective row a step (ambiguous), "x_i + x_j = c^k" a step (ambiguous), "l <= x_i" a hypothesis
    rows = tex_rows(tmp_path, capsys, doc("At every iteration it is easy to solve the subproblem:",
                                          r"\begin{align}",
                                          r" &\min_{y_1,y_2} q(y_1,y_2)= g(y_1,y_2)+ \frac{1}{2} (y_1-b)^2\\",
                                          r" &y_1+y_2 = c^k\\", r" &l \le y_1", r"\end{align}"))
    assert [r["kind"] for r in rows] == ["definition", "constraint", "constraint"], rows


def test_the_objective_row_of_an_st_problem_is_a_definition(tmp_path, capsys):
    # old: "f(x, θ) = Σ …" (the objective, named) was classed constraint, "a row of an optimisation problem (s.t.)"
    rows = tex_rows(tmp_path, capsys, doc("We study the problem", r"\begin{align}",
                                          r"\min_{x,\theta} & \quad f(x,\theta) = \sum_{i=1}^n (x_i - \theta)^2 \\",
                                          r"\text{s.t.} & \quad l \leq x \leq u \\", r"& \quad x_1 + x_2 = 1",
                                          r"\end{align}"))
    assert [r["kind"] for r in rows] == ["definition", "constraint", "constraint", "constraint"], rows


def test_a_derivation_that_starts_with_min_stays_a_chain_of_steps(tmp_path, capsys):
    # guard: "\min_x … &= … \\ &= …" continues a chain (its rows start with a relation): steps, a false one refuted;
    # two minima on two rows are two facts, no problem's constraints
    rows = tex_rows(tmp_path, capsys, doc(r"\begin{proof}", "We have", r"\begin{align*}",
                                          r"\min_{x} (x^2 + 1) &\le (0^2 + 1) \\", r"&= 2 .",
                                          r"\end{align*}", r"\end{proof}"))
    assert rows[1]["kind"] == "step" and rows[1]["status"] == "refuted", rows
    assert "constraint" not in [r["kind"] for r in rows], rows
    rows = tex_rows(tmp_path, capsys, doc(r"\begin{proof}", "We have", r"\begin{align*}",
                                          r"&\min_{x} (x^2 + 1) = 1 \\", r"&\max_{x} (1 - x^2) = 1 .",
                                          r"\end{align*}", r"\end{proof}"))
    assert "constraint" not in [r["kind"] for r in rows], rows


# 3. the property of chosen objects ------------------------------------------------------------------------------
def test_define_such_that_gives_the_defining_property(tmp_path, capsys):
    # old: inconclusive/step ("refuted as read, but the right side introduces …")
    rows = tex_rows(tmp_path, capsys, doc(r"\begin{proof}",
                                          r"We can define a subset $J_1 \subseteq J$ such that $\forall j_i \in J_1$ "
                                          "we have", r"\begin{equation}", r" j_i < j_{i+1} \le j_i + 3m .",
                                          r"\end{equation}", r"\end{proof}"))
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "definition")] * 2, rows


def test_there_exist_such_that_in_a_proof_gives_the_witnesses_property(tmp_path, capsys):
    # old: inconclusive/step; the witnesses' property is what the proof obtains (a hypothesis for what follows)
    rows = tex_rows(tmp_path, capsys, doc(r"\begin{proof}",
                                          r"We can say that there exist $\hat s$ and $a(t), b(t)$ such that:",
                                          r"\begin{equation}", r" t \le a(t) < b(t) \le 3 m", r"\end{equation}",
                                          r"\end{proof}"))
    assert {r["kind"] for r in rows} == {"hypothesis"}, rows


def test_such_that_guards(tmp_path, capsys):
    # guard: "define … such that …. Then we have" + a false step: refuted; an ∃-property in a lemma's statement
    # stays its goal; outside a proof "there exists u … such that" stays a step (tests/test_check_tex.py)
    rows = tex_rows(tmp_path, capsys, doc(r"\begin{proof}", r"We define a set $S$ such that $0 \in S$. Then we have",
                                          r"\begin{equation}", r" (b+1)^2 = b^2 + 1 .", r"\end{equation}",
                                          r"\end{proof}", r"\begin{lemma}", r"There exist $p$ and $q$ such that",
                                          r"\begin{equation}", r" p < q .", r"\end{equation}", r"\end{lemma}"))
    assert _kinds(rows)[0][1:] == ("refuted", "step"), rows
    assert rows[1]["kind"] == "goal", rows


# 4. a set-builder broken across rows -----------------------------------------------------------------------------
def test_a_set_builder_broken_by_a_row_break_is_one_definition(tmp_path, capsys):
    # old: two rows, "C^* := \{C … |C| > 1" and "g(C) = g^*\}" (a definition of g(C) of its own)
    rows = tex_rows(tmp_path, capsys, doc(r"We define", r"\begin{equation}", r"\begin{split}",
                                          r" C^*&:=\{C\subseteq V \mid |C| > 1, \\",
                                          r" &\kern8em g(C) = g^*  \},", r"\end{split}", r"\end{equation}"),
                    preamble="\\usepackage{amsmath}\n")
    assert len(rows) == 1 and rows[0]["kind"] == "definition", rows
    assert "g(C) = g^*" in rows[0]["latex"], rows


def test_rows_outside_set_braces_still_split(tmp_path, capsys):
    # guard: a closed {…} on a row does not join the rows after it; a false step on the next row is refuted
    rows = tex_rows(tmp_path, capsys, doc(r"\begin{proof}", "We have", r"\begin{align*}",
                                          r"A &= \{x \mid x > 1\} , \\", r"(c+1)^2 &= c^2 + 1 .",
                                          r"\end{align*}", r"\end{proof}"))
    assert len(rows) == 2 and rows[1]["status"] == "refuted", rows
