"""Referee 25's reading items (session 44): ASCII ``<u, v>`` inner products read as the relations < and >, a
labelled half-step ``y^m_t`` of an update block checked as a step (a power of y_t), and readable rows refused
(``\\overset``/``\\underset`` limits and accents, ``\\parallel`` norms, ``R_\\pi``, an expectation sign with no
bracket).  Every snippet is written for these tests (no paper's text); each test failed on the code before the fix
unless it says it is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import displays, tex_rows, doc as _doc  # noqa: E402


# 1. ASCII angle brackets -----------------------------------------------------------------------------------------
def test_ascii_angle_brackets_after_a_relation_or_at_a_row_start_are_an_inner_product(tmp_path, capsys):
    # old: cut into "c < u", "2 < u" (a hypothesis) and "an empty side" pieces
    body = _doc(r"Let $p, q \in \mathbb{R}^{m}$ and $s > 0$.", r"\begin{proof}", r"Then",
                r"\[ <p, s q> = s <p, q> . \]", r"and", r"\[ 2 <p, q> \le <p, p> + <q, q> . \]", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert len(rows) == 2, rows
    assert all("inner(" in (r["read_as"] or "") for r in rows), rows
    assert [r["status"] for r in rows] != ["unreadable"] * 2, rows
    assert not any(r["status"] in ("proved", "holds", "refuted") and "<" in r["read_as"].replace("<=", "")
                   for r in rows), rows


def test_ascii_angle_pair_that_may_be_two_comparisons_is_ambiguous_never_proved(tmp_path, capsys):
    # old: "x + 1 < x + 2" and "b > b - 1" were each proved as comparisons; "< x + 2, b >" may be an inner product
    rows = tex_rows(tmp_path, capsys, displays(r"x + 1 < x + 2, b > b - 1"))
    assert rows and all(r["status"] == "ambiguous" for r in rows), rows
    assert "inner product" in rows[0]["reason"], rows


def test_comparisons_with_a_relation_inside_stay_comparisons(tmp_path, capsys):
    # guard: "0 < a \le b" has no comma, "x < y, z = w" a relation inside: never brackets
    rows = tex_rows(tmp_path, capsys, displays(r"a + 1 < a + 2 \le a + 3"))
    assert [r["status"] for r in rows] == ["proved", "proved"], rows


def test_a_bound_in_a_sum_subscript_is_not_an_angle_pair(tmp_path, capsys):
    # guard: \sum_{j<i, k>0} holds "<" and ">" with a comma between, inside a subscript
    body = displays(r"\sum_{j<i, k>0} a_{jk} + 1 = 1 + \sum_{j<i, k>0} a_{jk}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] != ["ambiguous"], rows


# 2. a labelled half-step of an update block --------------------------------------------------------------------------
def test_a_half_step_of_an_update_block_is_an_update_and_its_label_no_power(tmp_path, capsys):
    # old: "z^{h}_{k} = z_k + η g_k(…)" was checked as a step with z^h read as the power z_k ** h
    body = _doc(r"The extra-step scheme with rate $\eta$ reads", r"\begin{align}", r"\begin{split}",
                r"z^{h}_{k} &= z_{k} + \eta (c_{k} - z_{k}),\\",
                r"z_{k+1} &= z_{k} + \eta (c_{k} - z^{h}_{k}).", r"\end{split}", r"\end{align}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "update"), ("not_a_step", "update")], rows
    assert "**" not in rows[0]["read_as"] and "**" not in rows[1]["read_as"], rows


def test_a_power_with_a_letter_exponent_outside_an_update_block_stays_a_power(tmp_path, capsys):
    # guard: no update of x_{t+1} in the display: x^n_t is x_t to the n
    rows = tex_rows(tmp_path, capsys, displays(r"x^{n}_{t} = x_{t} x^{n-1}_{t}"))
    assert rows[0]["kind"] != "update" and "**" in rows[0]["read_as"], rows


# 3. readable rows that were refused ----------------------------------------------------------------------------------
def test_overset_underset_limits_on_a_sum_and_a_sup(tmp_path, capsys):
    # old: "unknown LaTeX command \overset" / "\underset"
    body = displays(r"\overset{n}{\underset{i = 1}{\sum}} 3 w_i = 3 \sum_{i=1}^{n} w_i",
                    r"\underset{i, j}{\sup} |b_{ij}| + 2 = 2 + \sup_{i,j} |b_{ij}|",
                    r"\overset{n}{\underset{i = 1}{\sum}} w_i = n w_1")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows[:2]] == ["proved", "proved"], rows
    assert "Sum(" in rows[0]["read_as"] and "(i, 1, n)" in rows[0]["read_as"], rows
    assert rows[2]["status"] not in ("proved", "holds"), rows


def test_overset_accent_and_parallel_norm(tmp_path, capsys):
    # old: "unknown LaTeX command \overset" and "unknown LaTeX command \parallel"
    body = displays(r"\overset{\sim}{w} + v = v + \tilde{w}", r"\parallel w \parallel^2 + 1 = 1 + \|w\|^2")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["proved", "proved"], rows
    assert "wtilde" in rows[0]["read_as"] and "norm(w)" in rows[1]["read_as"], rows


def test_overset_label_on_a_relation_is_still_the_relation(tmp_path, capsys):
    # guard: \overset{(a)}{=} stays "=" with a label
    rows = tex_rows(tmp_path, capsys, displays(r"(u + 1)^2 \overset{(a)}{=} u^2 + 2u + 1"))
    assert [r["status"] for r in rows] == ["proved"], rows


def test_a_greek_pi_subscript_without_braces(tmp_path, capsys):
    # old: "cannot read the subscript '\\pi'" (R_{\pi} was read)
    rows = tex_rows(tmp_path, capsys, displays(r"V_\pi + R_\pi = R_{\pi} + V_{\pi}"))
    assert [r["status"] for r in rows] == ["proved"], rows


def test_expectation_without_a_bracket_of_a_sum_or_a_function(tmp_path, capsys):
    # old: "an expectation sign E not followed by a bracket is not read"
    body = _doc(r"Let $Y_k$ be random.", displays(r"4 \frac{\mathbf{E} \sum_{k=1}^{m} Y_k}{2} = "
                                                  r"2 \mathbf{E} \sum_{k=1}^{m} Y_k",
                                                  r"\mathbb{E} \exp(Y_1) \le \mathbb{E} \exp(Y_1)"))
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["proved", "proved"], rows


def test_expectation_without_a_bracket_before_a_plus_is_ambiguous(tmp_path, capsys):
    # E exp(Y) + 1: the expectation of exp(Y), or of exp(Y) + 1? both shown, no verdict (old: refused)
    body = _doc(r"Let $Y$ be random.", displays(r"\mathbb{E} \exp(Y) + 1 = 1 + \mathbb{E} \exp(Y)"))
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["ambiguous"], rows
    assert len(rows[0]["readings"]) == 2, rows


def test_a_period_typed_inside_a_closing_norm_is_punctuation(tmp_path, capsys):
    # old: "expected '\right', got '.'"
    rows = tex_rows(tmp_path, capsys, displays(r"\left\| v + w \right\|^2 = \left\| w + v . \right\|^2",
                                               r"\left( a + b \right)^2 = \left( b + a . \right)^2"))
    assert rows[0]["status"] != "unreadable" and rows[0]["read_as"] == "norm(v + w) ** 2 = norm(w + v) ** 2", rows
    assert rows[1]["status"] == "proved", rows


def test_a_null_delimiter_period_is_kept():
    # guard: \left. … \right. are delimiters, not punctuation
    from theoryverify.check.tex.reading import tokens_of
    texts = [t.text for t in tokens_of(r"\left. x \right. + a.}", 0)]
    assert texts[:2] == ["\\left", "."] and texts[3:5] == ["\\right", "."] and texts[-2:] == ["a", "}"], texts


# 4. a label written as a capitalised word applied, in a superscript --------------------------------------------------
def test_a_superscript_label_with_a_lowercase_o_is_not_little_o():
    # old: W^{Co(θ̌)} (the "coupled" W) made the row "asymptotic" through the o( of Co(
    from theoryverify.check.tex.kinds import ASYMP_RE
    assert not ASYMP_RE.search(r"W_{i, s}^{C o(\check{\theta}_{t})}Z_{i, s}")
    assert ASYMP_RE.search(r"f(n) = n + o(n)") and ASYMP_RE.search(r"x^{o(1)}")


def _labels(src: str) -> set[str]:
    from theoryverify.check.latex import Token
    from theoryverify.check.tex.grammar import PaperParser
    from theoryverify.check.tex.reading import tokens_of
    p = PaperParser([*tokens_of(src, 0), Token("end", "", len(src))], None, set())
    p.expr()
    return p.labels


def test_a_capitalised_word_applied_in_a_superscript_is_asked_power_or_label():
    # old: θ̃_t^{H(θ̌_t)} and W^{Co(θ̌)} were read as powers with no question (checked as steps in a paper)
    assert _labels(r"\tilde{\theta}_{t}^{H(\check{\theta}_{t})} - x")
    assert _labels(r"W_{i,s}^{Co(\check{\theta}_{t})}")
    # guards: e^{H(p)} is exp, γ^{N(t)} a power of a bare name
    assert not _labels(r"e^{H(p)}") and not _labels(r"\gamma^{N(t)}")


def test_expectation_without_a_bracket_of_a_power_is_ambiguous(tmp_path, capsys):
    # E g(Y)^2: E[g(Y)^2] or (E g(Y))^2? both shown, no verdict (old: refused); E Σ_k Y_k^2 is no such question
    body = _doc(r"Let $Y_k$ be random.", displays(r"\mathbb{E} g(Y_1)^2 = \mathbb{E} g(Y_1)^2 \cdot 1",
                                                  r"2 \mathbb{E} \sum_{k=1}^{m} Y_k^2 = \mathbb{E} \sum_{k=1}^{m} Y_k^2 "
                                                  r"\cdot 2"))
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "ambiguous", rows
    assert rows[1]["status"] != "ambiguous" and rows[1]["status"] != "unreadable", rows


def test_a_comparison_with_a_negative_number_is_never_taken_for_brackets(tmp_path, capsys):
    # "x < a, b > -1": b > -1 is a comparison; nothing forces brackets, so both readings stay open (ambiguous)
    rows = tex_rows(tmp_path, capsys, displays(r"x < x + 1, b > -1 + b - 1"))
    assert rows and all(r["status"] == "ambiguous" for r in rows) and not any("inner" in r["read_as"] for r in rows), \
        rows
