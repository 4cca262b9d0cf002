"""Referee 26's display-structure defects (session 45): a quantifier that opens an align row (``\\forall x,\\qquad
(x+1)^2 &= … \\\\ &= …``) taken as a side condition, so that its chain was never checked and the continuation rows
were "an empty side"; an align justification column (``& \\text{($f$ is $2$-Lipschitz)}``) glued into the formula;
the sides of a ⟺ chain checked as standalone relations.  Every snippet is written for these tests (no paper's
text); each test named ``..._old`` failed on the code before the fix."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc as _doc  # noqa: E402


def _align(*rows: str, lead: str = "We have") -> str:
    return _doc(lead, r"\begin{align*}", " \\\\\n".join(rows), r"\end{align*}")


def _eq(text: str, lead: str = "We have") -> str:
    return _doc(lead, r"\begin{equation}", text, r"\end{equation}")


# 1. a quantifier that opens a row scopes the chain --------------------------------------------------------------
def test_a_leading_forall_scopes_the_chain_and_a_planted_error_is_refuted_old(tmp_path, capsys):
    # old: the first link a "hypothesis (side condition)", the second "unreadable: an empty side" — error missed
    body = _align(r"\forall t \in \mathbb{R},\qquad (t - 2)^2 &= t^2 - 4t + 4",
                  r"&= t^2 - 4t + 5.")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows
    assert rows[1]["line"] == rows[0]["line"] + 1 and rows[1].get("first_wrong_step"), rows


def test_a_leading_forall_true_chain_is_proved_old(tmp_path, capsys):
    body = _align(r"\forall u,\quad (u + 3)(u - 3) &= u^2 - 9", r"&\le u^2.",
                  lead="For every real number,")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["proved", "proved"], rows
    assert all(r["kind"] != "hypothesis" for r in rows), rows


def test_text_for_all_opening_a_row_scopes_it_old(tmp_path, capsys):
    body = _align(r"\text{for all } s, \qquad (s + 1)^3 &= s^3 + 3s^2 + 3s + 1", r"&= s^3 + 3s^2 + 3s + 2")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows


def test_a_leading_forall_without_spacing_scopes_the_statement_after_its_comma_old(tmp_path, capsys):
    # old: "x \in R, (x - 1)^2 = …" all one side condition
    body = _eq(r"\forall w \in \mathbb{R}, (w - 1)^2 = w^2 - 2w + 2")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["refuted"], rows


def test_a_leading_bound_quantifier_keeps_its_bound_as_the_assumption_old(tmp_path, capsys):
    # old: z^3 \le z^2 was a side condition, never checked; now checked with 0 <= z <= 1 assumed
    body = _eq(r"\forall 0 \le z \le 1, z^3 \le z^2")
    rows = tex_rows(tmp_path, capsys, body)
    steps = [r for r in rows if r["kind"] != "hypothesis"]
    assert [r["status"] for r in steps] == ["proved"], rows
    assert any("z" in a and "1" in a for a in steps[0]["assumptions"]), rows
    false = tex_rows(tmp_path, capsys, _eq(r"\forall 0 \le z \le 1, z^2 \le z^3"))
    assert [r["status"] for r in false if r["kind"] != "hypothesis"] == ["inconclusive"], false  # never proved


def test_a_quantifier_over_bare_bounds_stays_a_condition(tmp_path, capsys):
    # "\forall x \ge 0, y \ge 0": two conditions; a trailing "\forall i, y_i \ge 0" is never a step
    rows = tex_rows(tmp_path, capsys, _eq(r"\forall x \ge 0, y \ge 0") +
                    _eq(r"f(x) = x^2 \quad \forall x \in S, \quad y_i \ge 0", "and"))
    assert all(r["status"] not in ("proved", "holds", "refuted", "inconclusive") for r in rows), rows


# 2. a justification written as words is the row's note, never part of its formula -------------------------------
def test_a_justification_column_is_a_note_not_a_factor_old(tmp_path, capsys):
    # old: "2a + c(f*i*s*2 - Lipschitz)" — the words glued on as a factor of c
    body = _doc(r"Let $a, b, c \ge 0$ be lengths.",
                _align(r"L &= p + q &", r"&\le 2p + q & \text{($h$ is $2$-Lipschitz)}", r"&= 2p + q", lead=""))
    rows = tex_rows(tmp_path, capsys, body)
    assert all("Lipschitz" not in (r["read_as"] or "") for r in rows), rows
    second = rows[1]
    assert second["read_as"] == "p + q <= 2 * p + q", rows
    assert "Lipschitz" in second.get("justification", ""), rows
    assert rows[2]["read_as"] == "2 * p + q = 2 * p + q" and rows[2]["status"] == "proved", rows


def test_a_spaced_justification_never_makes_a_false_refutation_old(tmp_path, capsys):
    # old: "b + c + 1·(g·i·s·c·o·n·v·e·x) = 1 + b + c" refuted — a true step refuted through a misreading
    body = _align(r"D &\le b + c", r"&= b + c + 1 \qquad \text{($g$ is convex)}", r"&= 1 + b + c",
                  r"&= c + b + 1 & \text{[$h$ monotone]}", r"&= b + 1 + c & \text{Jensen}",
                  lead="Let $b, c \\ge 0$.")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows[2:]] == ["proved", "proved", "proved"], rows
    assert [r.get("justification") for r in rows[1:]] == ["($g$ is convex)", None, "[$h$ monotone]", "Jensen"], rows


def test_because_after_a_row_is_its_condition_not_a_new_chain_old(tmp_path, capsys):
    # old: "\because c \ge 0" started a chain that the next row continued: "0 = b + c + 1"
    body = _align(r"D &\le b + c", r"&\le b + c + 1 \quad \because c \ge 0", r"&= 1 + b + c", lead="Let $b, c$ be reals.")
    rows = tex_rows(tmp_path, capsys, body)
    steps = [r for r in rows if r["kind"] != "hypothesis"]
    assert [r["read_as"] for r in steps] == ["D <= b + c", "b + c <= b + c + 1", "b + c + 1 = 1 + b + c"], rows
    assert not any(r["status"] == "unreadable" for r in rows), rows


def test_math_in_text_that_is_part_of_the_formula_is_kept(tmp_path, capsys):
    body = _eq(r"\text{tr}(AB) = \text{tr}(BA)") + _eq(r"x_{\text{max}} + 1 = 1 + x_{\text{max}}", "and")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["read_as"].startswith("trace(A * B)"), rows
    assert rows[1]["status"] == "proved" and not rows[1].get("justification"), rows


# 3. a chain of propositions joined by ⟺ / ⟹ is one statement -----------------------------------------------------
def _logic_rows(rows):
    return [r for r in rows if r["kind"] in ("equivalence", "implication")]


def test_no_side_of_an_iff_chain_is_checked_alone_old(tmp_path, capsys):
    # old: "w^2 <= 4 — false for some values (w = 3)": the middle side checked as a standalone relation
    body = _eq(r"w \text{ small} \iff w^2 \le 4 \iff -2 \le w \le 2", "A real $w$ is small in this sense:")
    rows = tex_rows(tmp_path, capsys, body)
    sides = [r for r in rows if r["status"] == "not_a_step"]
    assert sides and all(r["kind"] == "equivalence" for r in sides), rows
    checked = [r for r in rows if r["status"] != "not_a_step"]
    assert len(checked) == 1 and checked[0]["status"] == "proved", rows
    assert checked[0]["read_as"] == "(w ** 2 <= 4) <=> (-2 <= w and w <= 2)", rows


def test_a_false_equivalence_is_refuted_with_a_counterexample_old(tmp_path, capsys):
    body = _eq(r"v^2 < 1/4 \iff v < 3", "Note that")
    rows = tex_rows(tmp_path, capsys, body)
    eq = _logic_rows([r for r in rows if r["status"] != "not_a_step"])
    assert len(eq) == 1 and eq[0]["status"] == "refuted", rows
    assert eq[0]["counterexample"] == {"v": "1"} and eq[0].get("first_wrong_step"), rows


def test_an_equivalence_false_only_for_negative_names_is_left_open_in_the_authors_favour(tmp_path, capsys):
    # x² ≤ 1 ⟺ 0 ≤ x ≤ 1 fails only at x < 0; −γ²/μ ≥ −1/L ⟺ Lγ² ≤ μ only at L < 0 or μ < 0 (a thesis's step, with
    # L and μ positive constants, was refuted at L = −1): as for a step, a refutation must fail in the authors' favour
    rows = tex_rows(tmp_path, capsys, _eq(r"v^2 \le 1 \iff 0 \le v \le 1", "Note that") +
                    _eq(r"-\frac{g^2}{m} \ge -\frac{1}{L} \iff L g^2 \le m", "and"))
    eq = _logic_rows([r for r in rows if r["status"] != "not_a_step"])
    assert [r["status"] for r in eq] == ["inconclusive", "inconclusive"], rows
    assert all("no counterexample with every name positive" in r["reason"] for r in eq), rows


def test_an_equivalence_broken_over_align_rows_is_checked_link_by_link_old(tmp_path, capsys):
    body = _align(r"y^2 \le 9 &\iff (y - 3)(y + 3) \le 0", r"&\iff -3 \le y \le 3", r"&\Longleftrightarrow 1/2 \le y \le 2")
    rows = tex_rows(tmp_path, capsys, body)
    eq = [r for r in rows if r["status"] != "not_a_step"]
    assert [r["status"] for r in eq] == ["proved", "proved", "refuted"], rows
    assert all(r["kind"] == "equivalence" for r in rows), rows


def test_an_implication_from_a_definition_word_is_not_a_step_old(tmp_path, capsys):
    # old: "z^2 >= 4" checked on its own
    rows = tex_rows(tmp_path, capsys, _eq(r"z \text{ large} \implies z^2 \ge 4", "We say"))
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "implication")], rows


def test_a_chain_of_implications_is_checked_as_implications_old(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _eq(r"t \ge 2 \implies t^2 \ge 4 \implies t^2 \ge 5", "Hence"))
    imp = [r for r in rows if r["status"] != "not_a_step"]
    assert [r["status"] for r in imp] == ["proved", "refuted"], rows
    assert imp[1]["counterexample"] == {"t": "2"}, rows


def test_a_lone_implication_between_relations_keeps_its_consequent_checked(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _eq(r"a = 1 \implies a^2 = 1"))
    assert [r["status"] for r in rows if r["kind"] != "hypothesis"] == ["holds"] or \
        [r["status"] for r in rows if r["kind"] != "hypothesis"] == ["proved"], rows


def test_an_equivalence_in_two_names_is_refuted_or_left_open_never_proved(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _eq(r"|a| \le b \iff a \le 2b", "Recall") +
                    _eq(r"|a| \le b \iff -b \le a \le b", "and"))
    eq = [r for r in rows if r["status"] != "not_a_step"]
    assert eq[0]["status"] == "refuted" and eq[1]["status"] == "inconclusive", rows


# 4. a condition after a display that the checker cannot solve for a name ----------------------------------------
def test_an_unusable_condition_is_listed_never_a_reason_to_refuse_the_step_old(tmp_path, capsys):
    # old: every row "unreadable: cannot use assumption 'gamma * (L + 1) < 1'"
    body = _doc(r"Let $x > 0$. Then", r"\begin{equation*}", r"\gamma \cdot (L+1) x \leq x", r"\end{equation*}",
                r"with $\gamma \cdot (L+1) < 1$. Also", r"\begin{equation*}", r"y + 1 \leq y + 2", r"\end{equation*}",
                r"with $\gamma \cdot (L+1) < 1$.")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["inconclusive", "proved"], rows  # never refuted without its condition
    assert all(any("not usable" in a for a in r["assumptions"]) for r in rows), rows


def test_the_row_above_an_arrow_row_is_the_first_proposition_old(tmp_path, capsys):
    # old: every row of "&\ a \\ \Leftrightarrow &\ b \\ \Leftrightarrow &\ c" checked as a standalone relation
    body = _align(r"&\ F(u) - F(v) \ge \frac{1}{m}\left(G - F(v)\right)",
                  r"\Leftrightarrow &\ F(u) \ge \frac{1}{m} G + \left(1 - \frac{1}{m}\right) F(v)",
                  r"\Leftrightarrow &\ G - F(u) \le \left(1 - \frac{1}{m}\right)(G - F(v))", lead="It follows that")
    rows = tex_rows(tmp_path, capsys, body)
    assert len(rows) == 3 and all(r["status"] == "not_a_step" and r["kind"] == "equivalence" for r in rows), rows
