"""Referee 30's kind items (session 47, helper s47-readc): what a display is, from the prose around it.  A display
followed by "with probability" is stated with probability; a chain that bounds the probability's value relates
numbers (a step) after its first link; a statement's "there exists f … such that" display is its conclusion (a goal)
unless the prose supposes the witness; a named event ("over the event $\\Omega_n$") does not make a derivation's
rows hypotheses.  Every snippet is written for these tests (no paper's text); each test failed on the code before
the fix unless it says it is a guard (some guards fail on it too: the rows they check were not steps then)."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import doc as _doc, tex_rows  # noqa: E402


def _kinds(rows):
    return [(r["status"], r["kind"]) for r in rows]


# 1. "with probability" after the display -------------------------------------------------------------------------
def test_a_display_followed_by_with_probability_is_probabilistic(tmp_path, capsys):
    # old: both links of the first display were steps (only prose before a display counted)
    body = _doc("A union bound over the net gives", "$$", r"(1 - t) x \leq y \leq (1 + t) x, \quad \forall q \in Q,",
                "$$", "with probability", "$$", r"\geq 1 - 2 e^{-c n}.", "$$")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["kind"] for r in rows] == ["probabilistic"] * 3, rows
    assert all(r["status"] == "not_a_step" for r in rows), rows


def test_a_display_that_holds_with_high_probability_after_it_is_probabilistic(tmp_path, capsys):
    # old: a step; "\] holds with high probability" says the display is an event
    body = _doc("Hence", r"\begin{equation}", r"x + y \leq 2 z", r"\end{equation}",
                "holds with high probability over the draw of the sample.")
    rows = tex_rows(tmp_path, capsys, body)
    assert _kinds(rows) == [("not_a_step", "probabilistic")], rows


def test_guard_an_assumption_that_holds_almost_surely_stays_a_hypothesis(tmp_path, capsys):
    # guard: "\begin{assumption} \[ ‖g‖ ≤ G \] almost surely." — the assumption's kind wins over the prose after it
    body = _doc(r"\begin{assumption}", "The gradients are bounded:", r"\begin{equation}", r"\|g\| \leq G",
                r"\end{equation}", "almost surely.", r"\end{assumption}")
    rows = tex_rows(tmp_path, capsys, body)
    assert _kinds(rows) == [("not_a_step", "hypothesis")], rows


def test_guard_a_false_step_followed_by_other_prose_is_refuted(tmp_path, capsys):
    # guard: prose after the display that states no probability ("with the constant c of Lemma 2") leaves it a step
    body = _doc(r"\begin{proof}", "We have", r"\begin{equation}", r"x + x = 3 x", r"\end{equation}",
                "with the constant $c$ of the lemma.", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert _kinds(rows) == [("refuted", "step")], rows


def test_guard_a_probability_stated_before_the_display_stays_probabilistic(tmp_path, capsys):
    # guard: "Then, with probability at least $1-\delta$, \[ … \]" (outside a proof) is still stated with probability
    body = _doc(r"Then, with probability at least $1 - \delta$,", r"\begin{equation}", r"x \leq y + z \leq 2 y",
                r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["kind"] for r in rows] == ["probabilistic", "probabilistic"], rows


# 2. the probability's value bounded: the links after the first relate numbers ----------------------------------
_UNION = "The number of such sets is $m$. By the union bound, the property fails with probability"


def test_the_bound_on_a_probabilitys_value_is_a_step_after_its_first_link(tmp_path, capsys):
    # old: both links probabilistic ("stated with probability (w.p.)"); the second bounds one number by another
    body = _doc(_UNION, r"\begin{equation}", r"\leq \binom{N}{k} 2 p^k \leq (e N / k)^k 2 p^k", r"\end{equation}",
                r"where $\binom{N}{k} \leq (e N / k)^k$ is used.")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["kind"] == "probabilistic", rows  # the probability itself (its left side is the prose's)
    assert rows[1]["kind"] == "step" and rows[1]["status"] in ("proved", "inconclusive"), rows


def test_guard_a_false_bound_on_a_probabilitys_value_is_refuted(tmp_path, capsys):
    # guard: a wrong link between the numbers is refuted (the fix cannot hide a real error)
    body = _doc(_UNION, r"\begin{equation}", r"\leq m p + m p = 3 m p", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["kind"] == "probabilistic", rows
    assert _kinds(rows[1:]) == [("refuted", "step")], rows


def test_guard_an_event_after_with_probability_and_a_value_stays_probabilistic(tmp_path, capsys):
    # guard: "with probability at least $1 - \delta$, \[ a \le b \le c \]": the display is the event, both links
    body = _doc(r"By the union bound, with probability at least $1 - \delta$ we have", r"\begin{equation}",
                r"x \leq y \leq 2 z", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["kind"] for r in rows] == ["probabilistic", "probabilistic"], rows


# 3. a statement's existential conclusion -------------------------------------------------------------------------
_WITNESS = r"(1 - \epsilon) \|u - v\|^2 \leq \|f(u) - f(v)\|^2 \leq (1 + \epsilon) \|u - v\|^2,"


def test_a_lemmas_there_exists_such_that_after_an_if_clause_is_its_goal(tmp_path, capsys):
    # old: hypothesis ("the property of a witness that the supposition provides"): the "if n ≥ n_0," clause closed
    # before "there exists", which is the lemma's conclusion
    body = _doc(r"\begin{lemma}", r"Let $\epsilon \in (0, 1)$. For every finite set $Q$, if $n \ge n_0$, there exists a "
                r"map $f$ such that", r"\begin{equation}", _WITNESS, r"\end{equation}", r"for all $u, v \in Q$.",
                r"\end{lemma}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["kind"] for r in rows] == ["goal", "goal"], rows


def test_a_bold_headed_lemmas_existential_conclusion_is_its_goal(tmp_path, capsys):
    # old: hypothesis; "{\bf Lemma 4} {\it …}" stands for a lemma environment
    body = _doc(r"{\bf Lemma 4} {\it Let $\epsilon \in (0, 1)$. For every finite set $Q$, if $n$ is an integer such "
                r"that $n \ge n_0$, there exists a mapping $f$ such that", r"\begin{equation}", _WITNESS,
                r"\end{equation}", r"for all $u, v \in Q$.}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["kind"] for r in rows] == ["goal", "goal"], rows


def test_guard_a_supposed_witness_in_a_lemma_stays_a_hypothesis(tmp_path, capsys):
    # guard: "Suppose there exists …", "If there exists … such that" (no clause closed between): the supposition
    for lead in ("Suppose that there exists a map $f$ such that", "If, for every $Q$, there exists a map $f$ such that"):
        body = _doc(r"\begin{lemma}", lead, r"\begin{equation}", _WITNESS, r"\end{equation}",
                    r"Then $Q$ embeds in $\mathbb{R}^n$.", r"\end{lemma}")
        rows = tex_rows(tmp_path, capsys, body)
        assert [r["kind"] for r in rows] == ["hypothesis", "hypothesis"], (lead, rows)


def test_guard_a_false_step_in_the_proof_after_the_lemma_is_refuted(tmp_path, capsys):
    body = _doc(r"\begin{lemma}", r"If $n \ge n_0$, there exists a map $f$ such that", r"\begin{equation}", _WITNESS,
                r"\end{equation}", r"\end{lemma}", r"\begin{proof}", "We have", r"\begin{equation}",
                r"x + x = 3 x", r"\end{equation}", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["kind"] for r in rows[:2]] == ["goal", "goal"], rows
    assert _kinds(rows[2:]) == [("refuted", "step")], rows


# 4. a named event does not make a derivation a hypothesis --------------------------------------------------------
_SPLIT = (r"Let $\tilde E = E/\delta$. On the event $\Omega = \{\tilde E \leq \frac{1}{2}\}$, a simple calculation "
          r"gives $-\log(1 - \tilde E) \leq 2 \tilde E$. We then split the expectation over the event $\Omega$, and "
          r"use the bound on each part:")


def test_rows_of_a_chain_after_over_the_event_omega_are_steps(tmp_path, capsys):
    # old: the third row "≤ 4 e^{a} S/√n" was a hypothesis ("an event or a condition the prose names")
    body = _doc(r"\begin{proof}", _SPLIT, r"\begin{align}",
                r"\mathbb{E} X &= \mathbb{P}[\tilde E \leq \tfrac12] \mathbb{E}[X | \tilde E \leq \tfrac12] \\",
                r"&\leq \frac{2 e^{a} S}{\sqrt{n}} \\", r"&\leq \frac{4 e^{a} S}{\sqrt{n}}", r"\end{align}",
                r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[-1]["kind"] == "step" and rows[-1]["status"] in ("proved", "inconclusive"), rows


def test_guard_a_false_row_after_over_the_event_is_refuted(tmp_path, capsys):
    body = _doc(r"\begin{proof}", _SPLIT, r"\begin{align}", r"x + x &= 3 x", r"\end{align}", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert _kinds(rows) == [("refuted", "step")], rows


def test_guard_the_events_the_prose_names_stay_hypotheses(tmp_path, capsys):
    # guard: "Consider the following two events:" — the display is the event (no name written before it)
    body = _doc(r"\begin{proof}", "Consider the following two events:", r"\begin{equation}", r"x \leq y",
                r"\end{equation}", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert _kinds(rows) == [("not_a_step", "hypothesis")], rows


def test_a_step_on_a_named_event_is_never_refuted(tmp_path, capsys):
    # "On the event $\Omega$: \[ … \]" (old: a hypothesis): a step that holds on the event — a counterexample off the
    # event refutes nothing, so a wrong-looking row is inconclusive (the event is an unread condition); a true one
    # still proved
    body = _doc(r"\begin{proof}", r"Let $\Omega = \{x \leq 1\}$. On the event $\Omega$:", r"\begin{align}",
                r"x + x &= 3 x \\", r"y + y &= 2 y", r"\end{align}", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert _kinds(rows) == [("inconclusive", "step"), ("proved", "step")], rows


def test_a_lemmas_given_clause_closed_by_its_comma_leaves_the_witness_its_goal(tmp_path, capsys):
    # "Given $\epsilon > 0$, there exists $\delta$ such that": the given-clause quantifies; the ∃ is the conclusion
    body = _doc(r"\begin{lemma}", r"Given $\epsilon > 0$, there exists $\delta > 0$ such that", r"\begin{equation}",
                r"|f(x) - f(y)| \leq \epsilon", r"\end{equation}", r"whenever $|x - y| \leq \delta$.", r"\end{lemma}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["kind"] for r in rows] == ["goal"], rows


def test_a_named_event_in_a_theorem_leaves_its_conclusion_a_goal(tmp_path, capsys):
    # old: a hypothesis ("an event … the prose names"); "Then, on the event $E$, \[ … \]" in a theorem is its conclusion (a goal), never a checked step
    body = _doc(r"\begin{theorem}", r"Let $E = \{x \leq 1\}$. Then, on the event $E$,", r"\begin{equation}",
                r"x + x \leq 3", r"\end{equation}", r"\end{theorem}")
    rows = tex_rows(tmp_path, capsys, body)
    assert _kinds(rows) == [("not_a_step", "goal")], rows
