"""Referee 23's soundness defects (session 43): a definition of a power (``ŝ² = …`` after "I set"), reasons and
prose definitions checked as steps, word wrappers (``\\mbox``, ``\\textbf``) deleted in math, array columns
concatenated, ``\\implies`` antecedents checked as steps, ``ΔX`` beside the paper's own ``Δ``.  Every snippet is
written for these tests (no paper's text); each test failed on the code before the fix."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc as _doc  # noqa: E402


# 1. a definition of a power of a name ----------------------------------------------------------------------------
def test_a_squared_name_set_in_prose_is_a_definition_that_a_later_step_uses(tmp_path, capsys):
    # old: the definition was checked as a step and never used: the true step after it was refuted
    body = _doc(r"To estimate it, I set", r"$$\hat{r}^2 = \hat{p}^2 - \hat{q}^2 .$$",
                r"\begin{proof}", r"Rewriting, we find that",
                r"$$ \hat{m}^2\hat{p}^2\left(\frac{\hat{r}^2}{\hat{q}^2}\right) = "
                r"\hat{m}^2\hat{p}^2\left(\frac{\hat{p}^2 - \hat{q}^2}{\hat{q}^2}\right) $$", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "definition"), ("proved", "step")], rows


def test_a_wrong_step_after_a_power_definition_is_still_refuted(tmp_path, capsys):
    body = _doc(r"Throughout, let", r"$$\hat{r}^2 = \hat{p}^2 - \hat{q}^2 .$$",
                r"\begin{proof}", r"Rewriting, we find that",
                r"$$ \hat{m}^2\hat{p}^2\left(\frac{\hat{r}^2}{\hat{q}^2}\right) = "
                r"\hat{m}^2\hat{p}^2\left(\frac{\hat{p}^2 + \hat{q}^2}{\hat{q}^2}\right) $$",
                r"and", r"$$ \hat{r}^4 = (\hat{p}^2 - \hat{q}^2)^2 $$", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["not_a_step", "refuted", "proved"], rows


def test_a_name_whose_square_is_defined_is_never_refuted_on_its_sign(tmp_path, capsys):
    # r̂² = 1 leaves r̂ = ±1: "r̂ + 1 = 2" may be what the paper means, never refuted with r̂ free
    body = _doc(r"Define", r"$$\hat{r}^2 = \hat{p}^2 - \hat{q}^2 .$$", r"\begin{proof}", r"Then",
                r"$$ \hat{r} + 1 = \hat{r}^2 - \hat{p}^2 + \hat{q}^2 + 2 $$", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[1]["status"] == "inconclusive", rows
    assert "power" in rows[1]["reason"], rows


def test_a_squared_name_the_right_side_writes_is_no_definition(tmp_path, capsys):
    body = _doc(r"We set", r"$$ x^2 = x + 1 $$")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["kind"] != "definition", rows


def test_a_display_after_using_the_fact_that_is_a_reason(tmp_path, capsys):
    # old: "w = 2v + 1" and "v = 3" (what the step cites) were checked as steps; "v = 3" was refuted
    body = _doc(r"\begin{proof}", r"Rewriting, we find that", r"$$ u^2 (v + w) = u^2 v + u^2 w $$",
                r"using the fact that", r"$$ v = 3 ,$$",
                r"we get", r"$$ u^2 (v + w) = u^2 v + u w $$", r"The bound holds because",
                r"$$ u^2 + 2u + 1 = (u + 1)^2 = (u + 2)^2 $$", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    # (a chain after "holds because" proves the claim: its steps are checked)
    assert [r["status"] for r in rows] == ["proved", "not_a_step", "refuted", "proved", "refuted"], rows


def test_prose_definitions_are_not_steps(tmp_path, capsys):
    body = _doc(r"Let $g(t)$ be a blend of the two guesses, namely",
                r"\begin{equation} g(t) = t \hat{p} + (1 - t)\hat{q} \end{equation}",
                r"Likewise,", r"$$-\hat{H} = k\,Z'Z $$", r"is the obvious estimator of $-H$.",
                r"A basic layer at vertex $j$ is:", r"\begin{equation} z_j = \sigma_1 + c_j \end{equation}",
                r"The operator $F$ obeys", r"\begin{equation} |F(x + h) - F(x)| \le K |h|, \end{equation}",
                r"where $K$ is its Lipschitz constant.")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["not_a_step"] * 4, rows
    assert [r["kind"] for r in rows] == ["definition", "definition", "definition", "hypothesis"], rows


def test_a_derived_display_after_namely_without_let_is_still_a_step(tmp_path, capsys):
    body = _doc(r"\begin{proof}", r"Collecting terms, we obtain the bound, namely", r"$$ 2 a + a = 4 a $$",
                r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "refuted", rows


# 2. word wrappers in maths are names, and relations side by side stay apart ---------------------------------------
def test_two_wrapped_names_set_side_by_side_are_never_chained(tmp_path, capsys):
    # old: both \mbox{…} deleted, "= u + v" then continued by "= u + 2v": u + v = u + 2v refuted (fabricated)
    body = _doc(r"Comparing the two prices, we obtain",
                r"$$\mbox{Price(X)} = u + v,\quad \quad \mbox{Price(Y)} = u + 2v.$$")
    rows = tex_rows(tmp_path, capsys, body)
    assert len(rows) == 2 and all(r["status"] != "refuted" for r in rows), rows
    assert all("Price" in (r["read_as"] or "") for r in rows), rows


def test_words_wrapped_with_spaces_leave_no_fabricated_chain(tmp_path, capsys):
    body = _doc(r"Comparing, we obtain", r"$$\mbox{price of X} = u + v,\quad \mbox{price of Y} = u + 2v.$$")
    rows = tex_rows(tmp_path, capsys, body)
    assert all(r["status"] != "refuted" and "u + v = u + 2" not in (r["read_as"] or "") for r in rows), rows


def test_a_bold_text_name_is_kept(tmp_path, capsys):
    # old: \textbf{p} deleted, "2 + c = c + 2"-like remains read as a wrong relation and refuted
    body = _doc(r"\begin{proof}", r"Since numbers commute with vectors,", r"$$ 3\,\textbf{p} + c = c + \textbf{p}\, 3 $$",
                r"and so", r"$$ 3\,\textbf{p} + c = c + \textbf{q}\, 3 $$", r"and", r"$$ 3\,\textbf{p} + c = c + \textbf{p}\, 4 $$",
                r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["proved", "inconclusive", "refuted"], rows
    assert "pbf" in rows[0]["read_as"], rows


def test_a_bold_name_beside_its_plain_twin_is_ambiguous(tmp_path, capsys):
    # \textbf{p} and p: one vector written two ways, or two names? never refuted on one reading
    body = _doc(r"\begin{proof}", r"Hence", r"$$ \textbf{p} - p = 0 $$", r"and", r"$$ \mathbf{p} + p = p + \mathbf{p} $$",
                r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["ambiguous", "proved"], rows


def test_an_upright_word_applied_is_a_function_and_prose_is_still_cut(tmp_path, capsys):
    body = _doc(r"\begin{proof}", r"We get", r"$$ a\,\mbox{Gain} + 1 = 1 + \mbox{Gain}\,a \quad \mbox{for all } a $$",
                r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "proved" and "Gain" in rows[0]["read_as"], rows


# 3. array and matrix columns ---------------------------------------------------------------------------------------
def test_array_columns_are_never_concatenated(tmp_path, capsys):
    # old: the & were dropped, [p & q] and [p q] read alike: proved
    body = _doc(r"\begin{proof}", r"We have",
                r"$$ \left[\begin{array}{cc} p & q \end{array}\right] = \left[\begin{array}{cc} p q \end{array}\right] $$",
                r"and", r"$$ \begin{bmatrix} p & q \\ r & s \end{bmatrix} = \begin{bmatrix} p q \\ r s \end{bmatrix} $$",
                r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["inconclusive", "inconclusive"], rows


def test_the_same_array_on_both_sides_is_still_proved(tmp_path, capsys):
    body = _doc(r"\begin{proof}", r"We have",
                r"$$ \begin{pmatrix} p & q \end{pmatrix} = \begin{pmatrix} p & q \end{pmatrix} $$", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "proved", rows


# 4. implications -----------------------------------------------------------------------------------------------------
def test_an_antecedent_is_the_consequents_condition_not_a_step(tmp_path, capsys):
    # old: "c = 3" and "c^2 = 9" were each checked alone and refuted
    body = _doc(r"\begin{proof}", r"Hence", r"\begin{eqnarray*}", r" c = 3 &\implies& c^2 = 9 \\",
                r" c = 3 &\Rightarrow& c^2 = 8", r"\end{eqnarray*}", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    got = sorted((r["read_as"] or r["latex"].strip(), r["status"]) for r in rows)
    assert got == [("c ** 2 = 8", "refuted"), ("c ** 2 = 9", "holds"), ("c = 3", "not_a_step"),
                   ("c = 3", "not_a_step")], rows


def test_an_implication_never_multiplies_its_two_sides(tmp_path, capsys):
    # old: "m > k \implies D(m) \to \infty" was read m > k·D(m)
    body = _doc(r"\begin{proof}", r"Hence", r"\begin{eqnarray*}", r" m > k &\implies& D(m) \rightarrow \infty",
                r"\end{eqnarray*}", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert all("k * D" not in (r["read_as"] or "") and r["status"] not in ("refuted", "proved", "holds")
               for r in rows), rows


# 5. ΔX beside the paper's own Δ ------------------------------------------------------------------------------------
def test_delta_before_a_name_is_ambiguous_where_the_paper_writes_delta_alone(tmp_path, capsys):
    # old: ΔY read as Δ·Y (Δ the paper's operator) and ((Y + ΔY) − Y)/Y = Δ proved
    body = _doc(r"Let $\Delta$ be the graph operator, so that $Q(g) = g^T \Delta g$.", r"\begin{proof}",
                r"For a change $\Delta Y$ of the inputs,", r"$$ \frac{(Y + \Delta Y) - Y}{Y} = \Delta .$$",
                r"and", r"$$ (Y + \Delta Y) - Y = \Delta Y + 0 $$", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["ambiguous", "proved"], rows  # the second holds under both readings


def test_delta_before_a_name_in_a_wrong_step_is_never_proved(tmp_path, capsys):
    body = _doc(r"Let $\Delta$ be the graph operator, so that $Q(g) = g^T \Delta g$.", r"\begin{proof}", r"Then",
                r"$$ (Y + \Delta Y) - Y = 2\Delta Y $$", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] in ("refuted", "ambiguous", "inconclusive"), rows


# 6. a product reading powers the factor the paper powers ------------------------------------------------------------
def test_the_product_reading_powers_the_bracket_written_with_the_power(tmp_path, capsys):
    # old: shown as k ** (-1) * (p + q) but checked as (k·(p + q))⁻¹: the second reading was refuted, though
    # k·(p + q)⁻¹ = k/(p + q) holds
    body = _doc(r"\begin{proof}", r"Hence", r"$$ k\left(p + q\right)^{-1} = \frac{k}{p+q} $$", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "ambiguous", rows
    assert "second reading: proved" in rows[0]["reason"], rows
    assert "k * (p + q) ** (-1)" in " ".join(rows[0].get("readings") or []), rows


def test_the_product_reading_of_a_wrong_step_is_not_proved(tmp_path, capsys):
    body = _doc(r"\begin{proof}", r"Hence", r"$$ k\left(p + q\right)^{-1} = \frac{p+q}{k} $$", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "ambiguous" and "second reading: refuted" in rows[0]["reason"], rows
