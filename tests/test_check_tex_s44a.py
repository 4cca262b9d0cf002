"""Referees 23-24's structural defects (session 44): a capital function with a symbol for a superscript, applied
(``F^\\beta_{a,b}(2\\lambda)``, ``V^{K_2}_\\gamma(y, \\lambda)``, ``F^{-B}_{n,p}(u)``), read as a power times the
bracket or refused as a tuple; a relation inside ``\\left[ … \\mid … \\right]``, ``P(X < a)`` or a bracket broken over
two rows, splitting the display into fragments; equalities between events or sets (``\\{\\tau < n\\} = \\{S_n > 0\\}``)
refused or checked as numbers; a fact cited in prose right after a display ("since $w = u$", "using the fact that
$\\hat r^2 = …$") ignored, so that the step it justifies was refuted.  Every snippet is written for these tests (no
paper's text); each test named ``..._old`` failed on the code before the fix."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc as _doc  # noqa: E402


def _eq(text: str, lead: str = "We have") -> str:
    return _doc(lead, r"\begin{equation}", text, r"\end{equation}")


def _statuses(rows):
    return [r["status"] for r in rows]


# 1. a capital function with a symbol for a superscript, applied ------------------------------------------------
def test_a_greek_labelled_function_applied_is_never_doubled_old(tmp_path, capsys):
    # old: F^β_{a,b}(2λ) read as F_{a,b}^β·2λ — the false step "proved"
    body = _doc(r"Let $F^\beta_{a,b}$ be the distribution function of the beta law.",
                _eq(r"F^\beta_{a, b}(2\lambda) = 2 F^\beta_{a, b}(\lambda)"),
                _eq(r"G^{\beta}(2 u) = 2 G^{\beta}(u)", "and"),
                _eq(r"F^{-B}_{n, p}(2 u) = 2 F^{-B}_{n, p}(u)", "and"),
                _eq(r"V^{K_2}_\gamma(2 u) = 2 V^{K_2}_\gamma(u)", "and"))
    rows = tex_rows(tmp_path, capsys, body)
    assert len(rows) == 4, rows
    for r in rows:
        assert r["status"] not in ("proved", "holds"), r
        assert "**" not in (r.get("read_as") or ""), r


def test_a_labelled_function_of_two_arguments_is_read_old(tmp_path, capsys):
    # old: "a tuple or interval (',' inside brackets) is not read" for V^{K_2}_γ(y, λ) and V^{K_2}_γ(y, v^K_γ(y))
    body = _doc(r"Let $V^K_\gamma(y, \lambda)$ be the value and $v^K_\gamma(y)$ the index.",
                _eq(r"V^{K_2}_\gamma(y, \lambda) + 1 = 1 + V^{K_2}_\gamma(y, \lambda)"),
                _eq(r"V^{K_2}_\gamma(y, v^K_\gamma(y)) - V^{K_2}_\gamma(y, v^K_\gamma(y)) = 0", "and"))
    rows = tex_rows(tmp_path, capsys, body)
    assert _statuses(rows) == ["proved", "proved"], rows
    assert "Vsup_gamma_K2(y, lam)" in rows[0]["read_as"], rows


def test_a_labelled_function_keeps_a_false_step_unproved_old(tmp_path, capsys):
    body = _doc(r"Let $V^K_\gamma(y, \lambda)$ be the value.",
                _eq(r"V^{K_2}_\gamma(y, \lambda) + 1 = 2 + V^{K_2}_\gamma(y, \lambda)"),
                _eq(r"F^B_{n,p}(2k) = 2F^B_{n,p}(k)", "and"))
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "refuted", rows
    assert rows[1]["status"] not in ("proved", "holds"), rows


def test_a_lowercase_power_before_a_bracket_keeps_its_power(tmp_path, capsys):
    body = _doc(_eq(r"\gamma^{t}(1 - \gamma) = \gamma^{t} - \gamma^{t + 1}"),
                _eq(r"p^k_i(1 - p_i) = p_i^k - p_i^{k + 1}", "and"))
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["read_as"].startswith("gamma ** t * (1 - gamma)"), rows
    assert rows[1]["read_as"].startswith("p[i] ** k * (1 - p[i])"), rows


# 2. relations inside delimiters --------------------------------------------------------------------------------
def test_a_conditional_expectation_with_a_thick_space_is_one_side_old(tmp_path, capsys):
    # old: the row was cut at "\;" inside \left[ … \right]: "cannot read '\right' here" on every row
    body = _doc(r"\begin{proof}", r"We get", r"\begin{align}",
                r"&\mathsf{E}\left[ a + b \mid \tau > K, \; y \right] \nonumber \\",
                r"&\qquad \le \mathsf{E}\left[ a + c \mid \tau > K, \; y \right] \\",
                r"&\qquad = \mathsf{E}\left[ c + a \mid \tau > K, \; y \right]", r"\end{align}", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert len(rows) == 2 and all(r["status"] == "inconclusive" for r in rows), rows
    assert rows[0]["read_as"].count("⟦") == 2, rows


def test_a_stray_bracket_inside_a_sized_pair_splits_nothing_old(tmp_path, capsys):
    # old: the paper's extra ')' inside \left[ … \right] let the '>' of the condition split the chain ("K, y …" left)
    body = _doc(r"\begin{proof}", r"We get", r"\begin{align}",
                r"&\mathsf{E}\left[ X + \frac{R(\tau, y)}{2} \mid \tau > K, \;y \right] \nonumber \\",
                r"&\qquad \le \mathsf{E}\left[ X + \frac{\max(a, m(b)))}{2} \mid \tau > K, \;y \right] \nonumber\\",
                r"&\qquad = \mathsf{E}\left[ X + \frac{\max(a, m(b))}{2} \mid \tau > K, \;y \right]",
                r"\end{align}", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert len(rows) == 2, rows
    assert not any((r.get("latex") or "").lstrip().startswith("K") for r in rows), rows
    assert all(r["status"] != "unreadable" for r in rows), rows


def test_a_bracket_broken_over_two_rows_and_closed_by_a_sized_bracket_old(tmp_path, capsys):
    # old: "\mathbb{P}\left( … \right. \\ … < η \bigg)": split at '<' into fragments ("cannot read ')' here")
    body = _doc(r"\begin{proof}", r"we have", r"\begin{align}",
                r"&\mathbb{P}\left( a u < \eta \right) \nonumber \\",
                r"&\qquad = \mathbb{P}\left( a \mathsf{E}\left[ X \mid y \right] \right. \nonumber\\",
                r"&\hspace{6em} + b \mathsf{E}\left[ Z \mid y\right] < \eta \bigg) \\",
                r"&\qquad \le \mathbb{P}\left( a u + b < \eta \right)", r"\end{align}", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert len(rows) == 2, rows
    assert all(r["status"] == "not_a_step" and r["kind"] == "probabilistic" for r in rows), rows
    assert all("cannot read" not in r["reason"] for r in rows), rows


def test_a_probability_of_an_event_written_with_a_plain_p_is_read_old(tmp_path, capsys):
    # old: "a probability (P(…)); expected ')', got '<'"
    rows = tex_rows(tmp_path, capsys, _eq(r"2 P(X < a) = P(X < a) + P(X < a)"))
    assert rows[0]["status"] == "not_a_step" and rows[0]["kind"] == "probabilistic", rows
    assert "expected" not in rows[0]["reason"] and rows[0]["read_as"], rows


def test_a_probability_of_an_event_in_braces_is_no_product_old(tmp_path, capsys):
    # old: "expected '\right', got '\leq'"; P·{…} must never be the reading
    rows = tex_rows(tmp_path, capsys, _eq(r"P\left\{a \leq \Lambda \leq b\right\} = 1 - \alpha", "Suppose that"))
    assert rows[0]["read_as"] and "P *" not in rows[0]["read_as"], rows


# 3. relations between events and sets --------------------------------------------------------------------------
def test_equal_events_are_not_a_step_old(tmp_path, capsys):
    # old: "expected '\}', got '<'" (and "expected '\right'" for \left\{ … \right\})
    body = _doc(r"\begin{proof}", _eq(r"\{ \tau < n \} = \{ S_n > 0 \}"),
                r"and", r"\begin{align}",
                r"\left\{ (1-g) V(y, \eta) < \eta \right\} & = \left\{ u < \eta \right\} \nonumber \\",
                r"& \subseteq \left\{ u < 2\eta \right\}", r"\end{align}", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert len(rows) == 2, rows
    assert all(r["status"] == "not_a_step" and r["kind"] == "set" for r in rows), rows
    assert all("event" in r["reason"] for r in rows), rows


def test_equal_set_builders_are_not_checked_as_numbers_old(tmp_path, capsys):
    # old: checked as a step between two unknown numbers (inconclusive)
    rows = tex_rows(tmp_path, capsys, _doc(r"\begin{proof}", _eq(r"\{ x : x \ge 0\} = \{ y : y \ge 0 \}"),
                                           r"\end{proof}"))
    assert rows[0]["status"] == "not_a_step" and rows[0]["kind"] == "set", rows


def test_a_name_equal_to_an_event_defines_it_and_a_count_stays_a_step(tmp_path, capsys):
    body = _doc(r"\begin{proof}", _eq(r"A_n = \{ S_n > 0 \}"),
                _eq(r"|\{ i : x_i > 0 \}| + 1 = 1 + |\{ i : x_i > 0 \}|", "and"), r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["kind"] == "definition", rows
    assert rows[1]["kind"] == "step" and rows[1]["status"] == "proved", rows


# 4. a fact cited in prose right after a display ----------------------------------------------------------------
def test_a_fact_cited_inline_after_a_step_is_used_old(tmp_path, capsys):
    # old: both steps refuted — the fact each one rests on ("since $w = u$", "using the fact that $\hat r^2 = …$")
    # was never read
    body = _doc(r"\begin{proof}", r"Rewriting, we find that",
                r"$$ \hat{m}^2\left(\frac{\hat{r}^2}{\hat{q}^2}\right) = "
                r"\hat{m}^2\left(\frac{\hat{p}^2 - \hat{q}^2}{\hat{q}^2}\right) $$",
                r"using the fact that $\hat{r}^2 = \hat{p}^2 - \hat{q}^2$. Also", r"$$ 2 u + w = 3 u $$",
                r"since $w_1 = u$ and $w = u$. Finally", r"$$ 2 u + w_1 = 3 u $$", r"since $w_1 = u$.",
                r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert _statuses(rows) == ["proved", "proved", "proved"], rows
    assert any("w = u" in a for a in rows[1]["assumptions"]), rows


def test_a_step_false_under_the_fact_it_cites_is_refuted_as_read_only_old(tmp_path, capsys):
    # the fact may carry the typo: no refutation stands on it (old: the fact was ignored and the step refuted on
    # a value of w of the checker's choosing)
    body = _doc(r"\begin{proof}", r"Also", r"$$ 2 u + w = 4 u $$", r"since $w = u$.", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "inconclusive", rows
    assert "cites right after the display" in rows[0]["reason"], rows


def test_a_cited_fact_that_contradicts_a_power_definition_is_not_used(tmp_path, capsys):
    # "I set r̂² = p̂² − q̂²" … "using the fact that $\hat r = \hat p^2 - \hat q^2$" (a typo: r̂ for r̂²): the
    # definition decides, the cited typo is not substituted (it would refute a true step)
    body = _doc(r"To estimate it, I set", r"$$\hat{r}^2 = \hat{p}^2 - \hat{q}^2 .$$",
                r"\begin{proof}", r"Rewriting, we find that",
                r"$$ \hat{m}^2\left(\frac{\hat{r}^2}{\hat{q}^2}\right) = "
                r"\hat{m}^2\left(\frac{\hat{p}^2 - \hat{q}^2}{\hat{q}^2}\right) $$",
                r"using the fact that $\hat{r} = \hat{p}^2 - \hat{q}^2$.", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert _statuses(rows) == ["not_a_step", "proved"], rows


def test_a_where_clause_after_a_display_still_refutes(tmp_path, capsys):
    body = _doc(r"\begin{proof}", r"And", r"$$ 2 z + y = 5 z $$", r"where $y = 2 z$.", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "refuted", rows
