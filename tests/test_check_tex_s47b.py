"""Referee 30's "what kind a display is" items (session 47, helper s47-readb): an update written with its argument
(``f_{t+1}(\\cdot) = T(g_t)``) or two steps ahead (``x_{t+2} = A(x_t)``) is an update, and the indexed function it
updates has one name on both sides; a name a chain writes for the first time on the right of ``=`` that the prose
after the display defines ("where we have set Ẽ_n = …") does not make the link a definition of its left side; and a
relation labelled as one between laws (``\\stackrel{d}{=}``, ``\\overset{\\mathcal{D}}{=}``: equal in distribution) is
probabilistic, never a definition sign, a citation label, nor an identity checked pointwise.  Every snippet is
written for these tests (no paper's text); each test failed on the code before the fix unless it says it is a
guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc as _doc, proof_align as _proof  # noqa: E402


def _by_read(rows: list[dict]) -> dict[str, dict]:
    return {r["read_as"]: r for r in rows if r.get("read_as")}


# 1. an update written with its argument, or two steps ahead ---------------------------------------------------------
def test_an_update_of_an_applied_family_is_an_update(tmp_path, capsys):
    # old: "h_{k+1}(\cdot) = S_a(q_k)" not_a_step/definition ("the first use of the left side's name") and
    # "q_{k+1}(\cdot) = S_b(h_{k+1})" inconclusive/step: the "k+1 on the left" rule missed a family applied
    rows = tex_rows(tmp_path, capsys, _doc("At iteration $k$, the two potentials are refreshed:", r"\begin{align}",
                                           r"h_{k+1}(\cdot) &= S_{a}(q_k), \quad q_{k+1}(\cdot) = S_{b}(h_{k+1})",
                                           r"\end{align}"))
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "update")] * 2, rows


def test_the_updated_family_has_one_name_on_both_sides(tmp_path, capsys):
    # old: h_{k+1} was "h_kp1" applied on the left of one row and "h[k + 1]" handed to S_b on the right of the next
    rows = tex_rows(tmp_path, capsys, _doc("At iteration $k$, the two potentials are refreshed:", r"\begin{align}",
                                           r"h_{k+1}(\cdot) &= S_{a}(q_k), \quad q_{k+1}(\cdot) = S_{b}(h_{k+1})",
                                           r"\end{align}"))
    assert rows[0]["read_as"].startswith("h_kp1("), rows
    assert "S_b(h_kp1)" in rows[1]["read_as"], rows


def test_a_recursion_two_steps_ahead_is_an_update(tmp_path, capsys):
    # old: "z_{k+2} = B_{\omega_k}(z_k)" after "the following recursion" was read as a step
    rows = tex_rows(tmp_path, capsys, _doc("We have the following recursion:", r"\begin{equation}",
                                           r"z_{k+2} = B_{\omega_k}(z_k).", r"\end{equation}"))
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "update")], rows


def test_guard_updates_keep_definitions_and_false_steps(tmp_path, capsys):
    # guard: ':=' still defines an applied family at k+1; a later false link of an update chain is still refuted;
    # a name at k set from itself at k+2 (a later index on the right) is no recursion, and its false step is refuted
    rows = tex_rows(tmp_path, capsys, _doc(
        "We define", r"\begin{equation}", r"p_{k+1}(x) := 2 x + 1 .", r"\end{equation}",
        r"\begin{proof}", "Then", r"\begin{align*}",
        r"r_{k+1}(y) &= 2 r_k(y) = r_k(y) + r_k(y) + 1 , \\",
        r"w_k + w_k &= 3 w_{k+2} .",
        r"\end{align*}", r"\end{proof}"))
    kinds = [(r["status"], r["kind"]) for r in rows]
    assert kinds[0] == ("not_a_step", "definition"), rows
    assert kinds[1] == ("not_a_step", "update"), rows
    assert rows[2]["status"] == "refuted", rows
    assert rows[3]["kind"] == "step" and rows[3]["status"] in ("refuted", "inconclusive"), rows


# 2. a name the prose after the display defines -----------------------------------------------------------------------
def test_a_name_defined_in_the_prose_after_the_display_is_no_definition_of_the_left(tmp_path, capsys):
    # old: "max(…) = -log(1 - Ftilde_m)" not_a_step/definition ("names Ftilde … defines it"), though the prose after the
    # display defines F̃_m and the link is the step that substitutes it
    rows = tex_rows(tmp_path, capsys, _doc(
        r"For $m$ large enough, $F_m < c$ and", r"\begin{equation}",
        r"s \leq \max ( \log(1 + \frac{F_m}{c}), - \log(1 - \frac{F_m}{c}) ) = - \log(1 - \tilde F_m),",
        r"\end{equation}", r"where we have set $\tilde F_m = \frac{F_m}{c}$."))
    link = next(r for r in rows if "Ftilde" in (r.get("read_as") or ""))
    assert (link["status"], link["kind"]) == ("inconclusive", "step"), rows
    # (the reason may say the prose after the display defines F̃_m; it must not call the link a definition of it)
    assert "after the display" in link["justification"] and "defines it" not in link["reason"], rows
    assert "first appearance" not in link["reason"], rows


def test_guard_a_chain_naming_a_constant_and_a_false_step_beside_a_where_clause(tmp_path, capsys):
    # guard: with no such prose, a chain's new constant is still named by it ("= 2 C_7"); a false step whose names are
    # all known, in a display followed by a where-clause, is still refuted
    rows = tex_rows(tmp_path, capsys, _proof(r"b + b &\le 2 b + 1 = 2 C_7 ,", "") +
                    _doc(r"Hence", r"\begin{equation}", r"u + u = 3 u + \tilde G_m ,", r"\end{equation}",
                         r"\begin{equation}", r"v + v = 3 v ,", r"\end{equation}",
                         r"where we have set $\tilde G_m = 0$."))
    by = _by_read(rows)
    assert by["2 * b + 1 = 2 * C[7]"]["kind"] == "definition", rows
    assert by["v + v = 3 * v"]["status"] == "refuted", rows


def test_guard_a_where_clause_defining_another_name_leaves_the_new_constant_named(tmp_path, capsys):
    # guard: the prose after the display defines ε, not the new C_2: the chain still names C_2
    rows = tex_rows(tmp_path, capsys, _doc(r"\begin{proof}", "We have", r"\begin{equation}",
                                           r"b + b \le 2 b + 1 = \epsilon C_2 ,", r"\end{equation}",
                                           r"where we set $\epsilon = 1$.", r"\end{proof}"))
    assert _by_read(rows)["2 * b + 1 = epsilon * C[2]"]["kind"] == "definition", rows


# 3. equal in distribution ---------------------------------------------------------------------------------------------
def test_an_equality_in_distribution_is_probabilistic(tmp_path, capsys):
    # old: "\stackrel{d}{=}" and "\overset{d}{=}" read as ':=' (definitions); "\overset{\mathcal{D}}{=}" a step
    # inconclusive with the distribution note
    rows = tex_rows(tmp_path, capsys, _doc(
        "Since the law of $Y$ is symmetric,", r"\begin{equation}",
        r"Y \stackrel{d}{=} -Y, \qquad Z \overset{d}{=} 2 Z, \qquad U \overset{\mathcal{D}}{=} -U, "
        r"\qquad V \stackrel{\mathrm{d}}{=} V + 1 .", r"\end{equation}"))
    assert len(rows) == 4, rows
    assert all((r["status"], r["kind"]) == ("not_a_step", "probabilistic") for r in rows), rows
    assert all("in distribution" in r["reason"] for r in rows), rows
    assert not any(r.get("justification") for r in rows), rows  # d is no citation label
    assert not any(":=" in (r.get("read_as") or "") for r in rows), rows


def test_guard_citation_labels_definitions_and_false_steps_beside_a_law(tmp_path, capsys):
    # guard: a parenthesised (d) is a citation label (a false link inconclusive with its counterexample); \text{def}
    # and := define; an unlabelled false step next to an equality in distribution is refuted
    rows = tex_rows(tmp_path, capsys, _proof(
        r"a + a &\stackrel{(d)}{=} 3 a , \\", r"H &\stackrel{\text{def}}{=} a + 1 , \\", r"K &:= a + 2 , \\",
        r"X &\stackrel{d}{=} -X , \\", r"c + c &= 3 c ."))
    by = _by_read(rows)
    assert by["a + a = 3 * a"]["status"] == "inconclusive" and "(d)" in by["a + a = 3 * a"]["justification"], rows
    assert by["H := a + 1"]["kind"] == "definition" and by["K := a + 2"]["kind"] == "definition", rows
    assert by["X =_d -X"]["kind"] == "probabilistic", rows
    assert by["c + c = 3 * c"]["status"] == "refuted", rows
