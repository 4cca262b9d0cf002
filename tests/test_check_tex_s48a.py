"""Referee 32's matrix and increment notation (session 48, helper s48-reada): a sans-serif 𝖯 that is a matrix, not
the probability (``\\mathsf{P}(\\mathsf{P}^T \\mathsf{K}^{-1} \\mathsf{P})^{-1}``), the transpose written before the
subscript (``\\mathsf{V}^T_a``), side clauses that name the parts of a decomposition, and ``\\Delta M_l`` as one
increment.  Every snippet is written for these tests (no paper's text); each test failed on the code before the fix
unless it says it is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import doc, proof_align, tex_rows  # noqa: E402

_MATRICES = doc(r"\newcommand{\mP}{\mathsf{P}}", r"\newcommand{\mK}{\mathsf{K}}", r"\newcommand{\by}{{\boldsymbol{y}}}")


# 1. 𝖯(𝖯ᵀ𝖪⁻¹𝖯)⁻¹: a matrix product, never the probability of (…) to the power −1 ---------------------------------
def test_sans_serif_p_transposed_in_the_paper_is_a_matrix(tmp_path, capsys):
    # old: "… * ⟦\mathsf{P}(\mathsf{P}^T\mathsf{K}^{-1}\mathsf{P})⟧ ** (-1) * ⟦\mathsf{P}^T\mathsf{K}^{-1}y⟧"
    body = doc(r"Let $\mP$ and $\mK$ be matrices and $\by$ a vector. Then", r"\begin{equation}",
               r"e \le \sqrt{\by^T \mK^{-1} \mP (\mP^T \mK^{-1} \mP)^{-1} \mP^T \mK^{-1} \by} .", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body, preamble=_MATRICES)
    assert "Psf * (transpose(Psf) * Ksf ** (-1) * Psf) ** (-1) * transpose(Psf) * Ksf ** (-1) * ybf" in \
        rows[0]["read_as"], rows
    assert "⟦" not in rows[0]["read_as"], rows


def test_a_bold_p_transposed_in_its_own_bracket_is_a_matrix(tmp_path, capsys):
    # 𝐏(𝐏ᵀx): the bracket holds 𝐏 transposed — no probability of an expression in the measure itself
    rows = tex_rows(tmp_path, capsys, doc("We have", r"\begin{equation}", r"a = \mathbf{P}(\mathbf{P}^T x)",
                                          r"\end{equation}"))
    assert rows[0]["read_as"].startswith("a = Pbf * (transpose(Pbf) * x)"), rows


def test_guard_expectations_of_transposes_and_of_expectations_stay_expectations(tmp_path, capsys):
    # guard (rrthesis shapes): 𝔼[ε εᵀ], 𝔼[𝔼[X | G]] — a covariance and a tower, never a matrix 𝔼 times a bracket
    rows = tex_rows(tmp_path, capsys, doc("We have", r"\begin{equation}",
                                          r"a = \mathbb{E}[\varepsilon \varepsilon^\top] + \mathbb{E}[\mathbb{E}[X | G]]"
                                          r" + \mathbf{E}[x x^T]", r"\end{equation}"))
    assert rows[0]["read_as"].count("⟦") == 3 and "Ebb *" not in rows[0]["read_as"], rows


def test_guard_a_probability_and_an_expectation_stay_opaque(tmp_path, capsys):
    # guard: 𝖯(X > t), 𝐏(Y ≤ 1), 𝔼[X²] in a paper with no transposed P: the probability (expectation), one unknown
    rows = tex_rows(tmp_path, capsys, doc("We have", r"\begin{equation}",
                                          r"a \le \mathsf{P}(X > t)^{-1} + \mathbf{P}(Y \le 1) + \mathbb{E}[X^2]",
                                          r"\end{equation}"))
    assert rows[0]["read_as"].count("⟦") == 3 and "Psf" not in rows[0]["read_as"], rows


def test_guard_a_false_matrix_step_is_still_refuted(tmp_path, capsys):
    # guard: with 𝖯 read as a matrix, a wrong step on it is refuted (the fix hides no error)
    body = proof_align(r"\mP (\mP^T \mP) + \mP (\mP^T \mP) &= 3 \mP (\mP^T \mP) .")
    rows = tex_rows(tmp_path, capsys, body, preamble=_MATRICES)
    assert rows[0]["status"] == "refuted" and "Psf" in rows[0]["read_as"], rows


# 2. 𝖵^T_a is transpose(𝖵_a); side clauses name the parts ------------------------------------------------------------
def test_transpose_before_the_subscript(tmp_path, capsys):
    # old: ⟦V^T_a⟧, ⟦\mathsf{V}^T_{\text{eye}}⟧ (opaque)
    rows = tex_rows(tmp_path, capsys, doc("We have", r"\begin{equation}",
                                          r"K = V^T_a + W^\top_{i,j} + \mathsf{V}^T_{\text{eye}}", r"\end{equation}"))
    assert rows[0]["read_as"].startswith("K = transpose(V[a]) + transpose(W[i, j]) + transpose(Vsf["), rows


def test_side_clauses_after_a_comma_define_the_parts(tmp_path, capsys):
    # old: the links K_a = …, K_b = … were steps (inconclusive); they give the values of the two parts, written for
    # the first time in this display
    body = doc(r"Let $\mathsf{K}$ be a Gram matrix. One can decompose it as", r"\begin{equation}",
               r"\mathsf{K} = \mathsf{V} \mathsf{L} \mathsf{V}^T = \mathsf{K}_a + \mathsf{K}_b, \qquad",
               r"\mathsf{K}_a = \mathsf{V}_a \mathsf{L}_a \mathsf{V}^T_a, \quad \mathsf{K}_b = \mathsf{V}_b "
               r"\mathsf{L}_b \mathsf{V}^T_b,", r"\end{equation}", "where the parts are visible and invisible.")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["kind"] for r in rows] == ["step", "step", "definition", "definition"], rows
    assert [r["status"] for r in rows[:2]] == ["inconclusive", "inconclusive"], rows
    assert rows[2]["read_as"] == "Ksf[a] = Vsf[a] * Lsf[a] * transpose(Vsf[a])", rows


def test_guard_a_side_clause_on_a_known_name_is_still_a_step(tmp_path, capsys):
    # guard: the name after the comma is written before the display, so its link is a step — and a false one refuted
    body = doc(r"Let $b$ be given. Then", r"\begin{equation}", r"a = 2 b, \qquad b + b = 3 b,", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[1]["kind"] == "step" and rows[1]["status"] == "refuted", rows


# 3. ΔM_l: one increment ----------------------------------------------------------------------------------------------
def test_a_single_delta_before_a_name_is_an_increment(tmp_path, capsys):
    # old: "Delta * M[l] := …" (one ΔX in the paper: the rule wanted two)
    body = doc(r"\begin{proof}", "Set", r"\begin{equation}", r"\Delta M_l := Q_l (e(Z_l) - e(Z_{l-1})) .",
               r"\end{equation}", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["read_as"].startswith("DeltaM[l] := "), rows


def test_a_defined_increment_beside_a_lone_delta(tmp_path, capsys):
    # the paper also writes Δ alone (α Δ): the defined side is still one name (nobody defines a product); its uses
    # are checked under both readings, and a false step is refuted under both
    body = doc(r"The bias is $\alpha \Delta$ with $\Delta = 2$. Set", r"\begin{equation}",
               r"\Delta M_l := Q_l (e(Z_l) - e(Z_{l-1})) .", r"\end{equation}",
               proof_align(r"\Delta M_l + \Delta M_l &= 2 \Delta M_l , \\", r"\Delta M_l + \Delta M_l &= 3 \Delta M_l ."))
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["read_as"].startswith("DeltaM[l] := "), rows
    assert [r["status"] for r in rows[1:]] == ["proved", "refuted"], rows
    assert "DeltaM[l]" in rows[2]["reason"], rows


def test_guard_an_indexed_delta_keeps_the_question_open(tmp_path, capsys):
    # guard (as tests/test_check_tex.py): the paper writes Δ_i, a quantity Δ with an index: Δt stays Δ times t
    rows = tex_rows(tmp_path, capsys, doc("We have", r"\begin{equation}", r"\Delta_i t = 2 \Delta t",
                                          r"\end{equation}"))
    assert rows[0]["read_as"].startswith("Delta[i] * t = 2 * Delta * t"), rows


def test_guard_a_false_increment_step_is_refuted(tmp_path, capsys):
    # guard: ΔX one name, a wrong step on it is refuted
    rows = tex_rows(tmp_path, capsys, proof_align(r"\Delta x + \Delta x &= 3 \Delta x ."))
    assert rows[0]["status"] == "refuted" and "Deltax" in rows[0]["read_as"], rows


# 4. (1 − αa)^{(i−1)/2}: a bracket inside the exponent's arithmetic is a power ---------------------------------------
def test_a_bracket_in_the_exponents_arithmetic_is_a_power(tmp_path, capsys):
    # old: unreadable "a parenthesised superscript on an expression is not read"
    rows = tex_rows(tmp_path, capsys, proof_align(r"(1 - a)^{(i - 1)/2} (1 - a)^{(i + 1)/2} &= (1 - a)^{i} , \\",
                                                  r"(1 - a)^{(i - 1)/2} (1 - a)^{(i + 1)/2} &= (1 - a)^{i + 1} ."))
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows  # (the second: a planted false step)
    assert "(1 - a) ** ((i - 1) / 2)" in rows[0]["read_as"], rows


def test_guard_a_bracketed_label_on_an_expression_stays_unreadable(tmp_path, capsys):
    # guard: (1 − a)^{(k)} — a power k or a label k? Unreadable, and the reason says why
    rows = tex_rows(tmp_path, capsys, proof_align(r"(1 - a)^{(k)} &= b ."))
    assert rows[0]["status"] == "unreadable" and "a power k, or a label" in rows[0]["reason"], rows


def test_guard_a_row_whose_left_side_is_an_opaque_sup_stays_a_step(tmp_path, capsys):
    # guard (rkhsadapt 611 shape): "sup … = K(x, x), \\ sup … = …" — the second row's left side is no name (an opaque
    # supremum): a step, never "first written here"
    body = doc("We have", r"\begin{gather}", r"\sup_{g \le 1} \lvert g(x) \rvert^2 = K(x,x), \\",
               r"\sup_{g \le 1} \lvert g(t) - g(x) \rvert^2 = K(t,t) + K(x,x) - 2 K(t,x).", r"\end{gather}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["kind"] for r in rows] == ["step", "step"], rows
