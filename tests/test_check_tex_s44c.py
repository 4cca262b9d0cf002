"""Referee 25's critical soundness defects (session 44): subscripts of a styled P dropped, two norms (and inner
products) of different subscripts read as one, ``g^0_i(y)`` read as a power times y, ``λ_max(·)`` flipped paper-wide
to a number times its argument, an equation to solve (and a data model) checked as a step.  Every snippet is written
for these tests (no paper's text); each test failed on the code before the fix."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc as _doc  # noqa: E402


def _proof(*displays: str) -> str:
    parts = [r"\begin{proof}"]
    for d in displays:
        parts += [r"We have", r"\[", d, r"\]"]
    return _doc(*parts, r"\end{proof}")


def _statuses(rows):
    return [r["status"] for r in rows]


POSITIVE = ("proved", "holds")


# 1. the scripts of a styled P --------------------------------------------------------------------------------------
def test_bold_p_keeps_its_subscripts(tmp_path, capsys):
    # old: both read as Pbb, so P_x v − P_y v = 0 was proved
    rows = tex_rows(tmp_path, capsys, _doc(r"Let $\mathbf{P}_{u}$ and $\mathbf{P}_{w}$ be two projections.",
                                           _proof(r"\mathbf{P}_{u} z - \mathbf{P}_{w} z = 0 .",
                                                  r"\mathbf{P}_{a_t,t} z - \mathbf{P}_{a_s,s} z = 0 .")))
    assert all(r["status"] not in POSITIVE for r in rows), rows
    assert "Pbf[u]" in rows[0]["read_as"] and "Pbf[w]" in rows[0]["read_as"], rows


def test_blackboard_p_without_a_bracket_keeps_its_subscript(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _proof(r"\mathbb{P}_{n} + \mathbb{P}_{m} = 2 \mathbb{P}_{n} ."))
    assert rows[0]["status"] not in POSITIVE, rows
    assert "Pbb[n]" in rows[0]["read_as"] and "Pbb[m]" in rows[0]["read_as"], rows


def test_a_bold_p_step_that_holds_is_still_proved(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _proof(r"\mathbf{P}_{u} z + \mathbf{P}_{w} z - \mathbf{P}_{u} z = "
                                             r"\mathbf{P}_{w} z ."))
    assert _statuses(rows) == ["proved"], rows


# 2. injective names for labelled norms and inner products ----------------------------------------------------------
NEAR = [(r"G_{t-1}", r"G_{t}^{-1}"), (r"G_{t+1}", r"G_{t1}"), (r"M_{ij}", r"M_{i,j}")]


def test_norms_of_near_colliding_subscripts_are_different_functions(tmp_path, capsys):
    # old: ‖v‖_{G_{t−1}} and ‖v‖_{G_t^{−1}} were both norm_Gt1, so their equality was proved
    rows = tex_rows(tmp_path, capsys, _doc(r"Let $G_t$ and $M_{ij}$ be positive definite.",
                                           _proof(*[rf"\|v\|_{{{a}}} = \|v\|_{{{b}}} ." for a, b in NEAR])))
    assert len(rows) == 3 and all(r["status"] not in POSITIVE for r in rows), rows
    for r in rows:
        lhs, rhs = r["read_as"].split(" = ")
        assert lhs.split("(")[0] != rhs.split("(")[0], r


def test_the_same_labelled_norm_is_one_function(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _proof(r"\|v\|_{G_{t-1}} + \|w\|_{G_{t}^{-1}} = \|w\|_{G_t^{-1}} + "
                                             r"\|v\|_{G_{t - 1}} .",
                                             r"\|A\|_{F} + \|B\|_{\mathrm{F}} = \|B\|_F + \|A\|_F ."))
    assert _statuses(rows) == ["proved", "proved"], rows


def test_inner_products_of_different_subscripts_are_different(tmp_path, capsys):
    # old: the subscript was dropped: ⟨u, v⟩_A = ⟨u, v⟩_B read inner(u, v) = inner(u, v), proved
    rows = tex_rows(tmp_path, capsys, _doc(r"Let $A, B$ be positive definite.",
                                           _proof(r"\langle u, v\rangle_{A} = \langle u, v\rangle_{B} .",
                                                  r"\langle u, v\rangle_{G_t} + 1 = 1 + \langle u, v\rangle_{G_t} .")))
    assert rows[0]["status"] not in POSITIVE, rows
    assert rows[1]["status"] == "proved", rows


def test_inner_products_of_two_named_spaces_are_different(tmp_path, capsys):
    # ⟨f, g⟩_{\mathcal H} stays the inner product; two indexed spaces are two (old: both the one inner, proved)
    rows = tex_rows(tmp_path, capsys, _proof(r"\langle u, v\rangle_{\mathcal{H}_1} = \langle u, v\rangle_{\mathcal{H}_2} ."))
    assert rows[0]["status"] not in POSITIVE, rows


# 3. a labelled function applied ------------------------------------------------------------------------------------
def test_a_zero_superscript_on_an_applied_name_is_never_silently_a_power(tmp_path, capsys):
    # old: g^0_i(y) read g_i^0·y = y, so Σ_{i≤t} g^0_i(y) = (t+1)y was proved
    rows = tex_rows(tmp_path, capsys, _proof(r"\sum_{i=0}^{t} g^{0}_{i}(y) = (t+1)\, y .",
                                             r"\sum_{i=0}^{t} w^{0}(y_i) = \sum_{i=0}^{t} y_i ."))
    assert [r["status"] for r in rows] == ["ambiguous", "ambiguous"], rows


def test_a_family_the_paper_defines_is_applied(tmp_path, capsys):
    # old: f^0_t(y) read f_t^0·y = y (f^i_t(x) defined in the prose): proved
    body = _doc(r"For $x\in\mathbb{R}$ define $h^{i}_{t}(x) = (c_{i} x)^{2}$.",
                _proof(r"h^{0}_{t}(y) + h^{k}_{t}(z) = y + h^{k}_{t}(z) .",
                       r"h^{0}_{t}(y) + h^{k}_{t}(z) = h^{k}_{t}(z) + h^{0}_{t}(y) ."))
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] not in POSITIVE, rows
    assert "hsup_t_n0(y)" in rows[0]["read_as"], rows
    assert rows[1]["status"] == "proved", rows


def test_a_letter_labelled_name_applied_is_not_silently_a_product(tmp_path, capsys):
    # old: h^m_j(2x) read h_j^m·2x: the false h^m_j(2x) = 2h^m_j(x) proved; q^k_i(1 − q_i) keeps its power
    rows = tex_rows(tmp_path, capsys, _proof(r"r^{m}_{j}(2x) = 2 r^{m}_{j}(x) .",
                                             r"q^k_i (1 - q_i) + q^k_i q_i = q^k_i ."))
    assert rows[0]["status"] not in POSITIVE, rows
    assert rows[1]["status"] == "proved", rows


# 4. spectral functions ---------------------------------------------------------------------------------------------
def test_lambda_max_is_never_flipped_to_a_product(tmp_path, capsys):
    # old: one row with 2λ_max\!(A) made λ_max a number paper-wide: λ_max(A + B) = λ_max(A) + λ_max(B) proved
    rows = tex_rows(tmp_path, capsys, _proof(r"\exp\left(\lambda_{\max}\!\left(A\right)\right) \le "
                                             r"\lambda_{\max}\!\left(\exp\left(A\right)\right) .",
                                             r"2\lambda_{\max}\!\left(A\right) \le 3 .",
                                             r"\lambda_{\max}\!\left(A + B\right) = \lambda_{\max}\!\left(A\right) + "
                                             r"\lambda_{\max}\!\left(B\right) .",
                                             r"\sigma_{\min}(C + D) = \sigma_{\min}(C) + \sigma_{\min}(D) ."))
    assert all(r["status"] not in POSITIVE for r in rows), rows
    assert "lam_smax(A + B)" in rows[2]["read_as"], rows


def test_a_spectral_identity_that_holds_is_still_proved(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _proof(r"2\lambda_{\max}\!\left(A\right) = \lambda_{\max}(A) + "
                                             r"\lambda_{\max}\!\left(A\right) ."))
    assert _statuses(rows) == ["proved"], rows


# 5. an equation to solve, a data model -----------------------------------------------------------------------------
def test_an_equation_to_solve_is_not_refuted(tmp_path, capsys):
    # old: refuted (θ = 0)
    body = _doc(r"Two iterative schemes that solve the scalar equation \eqref{e1} given by:",
                r"\begin{equation}\label{e1}", r"5\theta = 10 .", r"\end{equation}",
                r"We study methods to solve the linear system", r"\[ M w = c \]",
                r"Suppose $u$ satisfies the equation", r"\[ u^2 = u + 1 . \]")
    rows = tex_rows(tmp_path, capsys, body)
    assert [(r["status"], r["kind"]) for r in rows] == [("not_a_step", "definition")] * 3, rows


def test_a_step_after_an_equation_to_solve_is_still_checked(tmp_path, capsys):
    body = _doc(r"We solve the equation", r"\[ 5\theta = 10 . \]",
                r"\begin{proof}", r"Dividing both sides by five, we get", r"\[ \frac{5\theta}{5} = 2\theta . \]",
                r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert _statuses(rows) == ["not_a_step", "refuted"], rows


def test_a_data_model_is_not_a_step(tmp_path, capsys):
    # old: checked as a step (inconclusive only because the right side brings new names)
    body = _doc(r"\subsection{Setting}", r"Let $\mathcal{D}_{t}$ hold the data observed before round $t$:",
                r"\[ \mathcal{D}_{t} = \bigcup_{s<t}\{R_{s}\}. \]",
                r"Given $\mathcal{D}_{t}$ the learner pulls $a_{t}$ and receives a reward $R_{a_{t},t}$. "
                r"In the linear model the rewards are linear in the features, given by:",
                r"\[ R_{a_{t},t} = Z_{a_{t},t}^{\top}\beta + \epsilon_{a_{t},t} , \]", r"where $\beta$ is unknown.",
                r"\begin{proof}", r"Hence", r"\[ R_{a_t,t} - \epsilon_{a_t,t} = Z_{a_t,t}^{\top}\beta + 1 . \]",
                r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[1]["kind"] == "definition" and "model" in rows[1]["reason"], rows
    assert rows[2]["kind"] == "step", rows


def test_a_thin_space_before_a_bracket_is_no_application(tmp_path, capsys):
    # (a step size written α\,(…): only \! marks an application; counting \, had made α a function and lost the
    # product reading of this wrong step, tdrp's one genuine refutation likewise)
    body = _doc(r"The update is $w_{t+1} = w_t + \alpha\,(g_t - w_t)$ and $v_{t+1} = v_t + \alpha\,(h_t - v_t)$.",
                _proof(r"\alpha\,(a + b) - \alpha\,(a - b) = 0 ."))
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[-1]["status"] == "ambiguous", rows  # (with \, counted: α a function, the product reading lost)
