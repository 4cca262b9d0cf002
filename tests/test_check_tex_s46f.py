"""Referee 29's false refutations and wrong kinds (session 46, helper s46-readf): a value or a scaling the prose of
the paragraph sets ("let σ² = 1/M", "let σ² ∼ 1/M"), a stationarity (saddle-point) condition, and the kinds of side
conditions, first definitions, transition kernels, "where … are given by" and "consider …-perturbed policies".
Every snippet is written for these tests (no paper's text); each test failed on the code before the fix unless it
says it is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc as _doc  # noqa: E402


def _row(rows: list[dict], needle: str) -> dict:
    hits = [r for r in rows if needle in (r.get("read_as") or "")]
    assert hits, rows
    return hits[0]


# 1. a value or a scaling the paragraph's prose sets ---------------------------------------------------------------
_NORM = (r"\mathcal{N} :=\left( \frac{1}{\sqrt{(2 \pi \sigma^2)^M}} \right)^{n}", r" =\left( \frac{M}{2\pi} \right)^{n M/2} .")


def _gauss(setting: str, rhs: str = _NORM[1], between: str = "") -> str:
    return _doc(f"The data are Gaussian. If we let {setting}, the data vectors have unit norm.",
                r"The expected norm is", r"\begin{equation}", r"\mathbb{E}[ \| \xi \|^2 ] = M \sigma^2 .", r"\end{equation}",
                between + r"The normalization is", r"\begin{align}", _NORM[0], rhs, r"\end{align}")


def test_a_power_set_by_let_in_the_paragraph_is_substituted(tmp_path, capsys):
    # old: refuted (σ free); "let σ² = 1/M" two sentences before, in the same paragraph, makes the step true
    rows = tex_rows(tmp_path, capsys, _gauss(r"$\sigma^{2}=\tfrac{1}{M}$"))
    step = _row(rows, "(M / (2 * pi)) ** (n * M / 2)")
    # (not proved: ((M/2π)^{M/2})^n = (M/2π)^{nM/2} needs M > 0, which nothing says; but no longer refuted)
    assert step["status"] == "inconclusive", step
    assert any("set in the prose" in a for a in step["assumptions"]), step


def test_a_power_set_by_let_is_substituted_into_a_step_that_then_is_proved(tmp_path, capsys):
    # old: refuted (a free); "Let $a^2 = 2b$" makes a^4 = 4b^2 true
    body = _doc(r"Let $a^{2} = 2 b$. Then the fourth power is", r"\begin{equation}", r"a^4 + b^2 = 5 b^2 .",
                r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "proved", rows


def test_guard_a_false_step_under_a_power_set_by_let_is_not_proved(tmp_path, capsys):
    # guard: a^4 + b^2 = 4 b^2 is false with a² = 2b (refuted as read only: the prose may mean it otherwise)
    body = _doc(r"Let $a^{2} = 2 b$. Then the fourth power is", r"\begin{equation}", r"a^4 + b^2 = 4 b^2 .",
                r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "inconclusive" and "refuted as read with" in rows[0]["reason"], rows


def test_guard_a_lone_name_of_a_power_set_by_let_blocks_its_refutation(tmp_path, capsys):
    # guard: a² = 2b leaves a = ±√(2b): a step on a alone is not refuted on a sign of the checker's choosing
    body = _doc(r"Let $a^{2} = 2 b$. Then", r"\begin{equation}", r"a \cdot a^{3} = 4 b^2 + a - a .",
                r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] != "refuted", rows


def test_a_power_set_by_let_leading_into_the_display_is_substituted(tmp_path, capsys):
    # the referee's 01b: the sentence that sets the value ends in "is", not "we have"
    body = _doc(r"The data are Gaussian. If we let $\sigma^{2}=\tfrac{1}{M}$, the normalization is",
                r"\begin{align}", *_NORM, r"\end{align}")
    step = _row(tex_rows(tmp_path, capsys, body), "(M / (2 * pi)) ** (n * M / 2)")
    assert step["status"] == "inconclusive", step
    assert any("set in the prose" in a for a in step["assumptions"]), step


def test_guard_a_wrong_step_under_the_set_power_is_not_proved(tmp_path, capsys):
    # guard: with σ² = 1/M the exponent nM/2 written as nM is false: never proved (refuted as read at most)
    rows = tex_rows(tmp_path, capsys, _gauss(r"$\sigma^{2}=\tfrac{1}{M}$", r" =\left( \frac{M}{2\pi} \right)^{n M} ."))
    step = _row(rows, "(M / (2 * pi)) ** (n * M)")
    assert step["status"] not in ("proved", "holds"), step


def test_guard_a_power_set_in_another_paragraph_is_not_used(tmp_path, capsys):
    # guard: a blank line ends the paragraph; the step is then false as written and still refuted
    rows = tex_rows(tmp_path, capsys, _gauss(r"$\sigma^{2}=\tfrac{1}{M}$", between="\n\n"))
    step = _row(rows, "(M / (2 * pi)) ** (n * M / 2)")
    assert step["status"] == "refuted", step


def test_a_scaling_set_by_let_blocks_a_refutation(tmp_path, capsys):
    # old: refuted; "let σ² ∼ 1/M" sets a scaling the checker cannot use as a value: inconclusive, saying so
    rows = tex_rows(tmp_path, capsys, _gauss(r"$\sigma^{2}\sim\tfrac{1}{M}$"))
    step = _row(rows, "(M / (2 * pi)) ** (n * M / 2)")
    assert step["status"] == "inconclusive", step
    assert "scaling" in step["reason"], step


def test_guard_a_scaling_of_another_name_blocks_nothing(tmp_path, capsys):
    # guard: "let τ ∼ 1/M" says nothing of σ: the step is still refuted
    rows = tex_rows(tmp_path, capsys, _gauss(r"$\tau\sim\tfrac{1}{M}$"))
    step = _row(rows, "(M / (2 * pi)) ** (n * M / 2)")
    assert step["status"] == "refuted", step


def test_guard_a_case_value_is_not_a_standing_value(tmp_path, capsys):
    # guard: "If n is even, let $k = n/2$" is a case, not a value for the paragraph: the false step stays refuted
    body = _doc(r"If $n$ is even, let $k = n/2$. Otherwise we round. In general we have",
                r"\begin{equation}", r"2 k + 1 = k + 3 .", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "refuted", rows


# 2. a stationarity condition is an equation to solve ---------------------------------------------------------------
def _saddle(rows_tex: str, lead: str = r"At the saddle point we have stationarity,") -> str:
    return _doc(r"Let $I(a,b) = -ab + \frac12 \ln a$. " + lead, r"\begin{align}", rows_tex, r"\end{align}")


def test_a_stationarity_condition_is_a_constraint_not_a_refuted_step(tmp_path, capsys):
    # old: "-b + 1/(2a) = 0" refuted; it is the condition that fixes the saddle point
    rows = tex_rows(tmp_path, capsys, _saddle(r"\frac{\partial}{\partial a}I(a,b) = -b+\frac{1}{2a}=0"))
    cond = _row(rows, "-b + 1 / (2 * a) = 0")
    assert cond["status"] == "not_a_step" and cond["kind"] == "constraint", cond
    assert not any(r["status"] == "refuted" for r in rows), rows


def test_setting_the_derivative_to_zero_gives_an_equation(tmp_path, capsys):
    rows = tex_rows(tmp_path, capsys, _saddle(r"2 a - 1 = 0", lead=r"Setting the derivative of $f$ to zero gives"))
    assert rows[0]["kind"] == "constraint", rows


def test_guard_a_false_derivative_before_the_stationarity_condition_is_refuted(tmp_path, capsys):
    # guard: the link that computes the derivative is still a step: d/da (a² − 2a) is 2a − 2, not 2a − 1
    rows = tex_rows(tmp_path, capsys, _saddle(r"\frac{d}{d a}\left(a^2 - 2 a\right) = 2 a - 1 = 0"))
    assert rows[0]["status"] == "refuted", rows
    assert rows[1]["kind"] == "constraint", rows


def test_guard_an_arithmetic_zero_at_a_critical_point_is_still_checked(tmp_path, capsys):
    # guard: "2 − 3 = 0" at a critical point is arithmetic (no unknown), not an equation: refuted
    rows = tex_rows(tmp_path, capsys, _saddle(r"2 - 3 = 0", lead=r"At the critical point $a = 1$ we have"))
    assert rows[0]["status"] == "refuted", rows


# 3. kinds ------------------------------------------------------------------------------------------------------------
def test_a_range_beside_a_definition_is_its_side_condition(tmp_path, capsys):
    # old: "λ ≥ λ_0" a step ("refuted as read, but …"); it is the range of the defined density's argument
    body = _doc(r"We model a power-law tail with a hard lower cut-off $\lambda_0>0$:", r"\begin{equation}",
                r"\rho_{\alpha}(\lambda)= (\alpha-1)\,\lambda_0^{\alpha-1}\, \lambda^{-\alpha}, \qquad \lambda\ge\lambda_0, "
                r"\qquad \alpha\in\{2,3,4\}.", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    side = _row(rows, "lam >= lam[0]")
    assert side["status"] == "not_a_step" and side["kind"] == "hypothesis", side


def test_guard_a_false_inequality_beside_a_definition_is_still_a_step(tmp_path, capsys):
    # guard: "(x+1)² ≤ x² + 1" beside a definition is no range of its argument (a side is not the bare argument):
    # still a step, refuted
    body = _doc(r"\begin{proof}", r"We have", r"\begin{equation}", r"f(x)= x^2, \qquad (x+1)^2 \le x^2 + 1 .",
                r"\end{equation}", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows if "x ** 2 + 1" in (r.get("read_as") or "")] == ["refuted"], rows


def test_the_first_use_of_a_name_is_its_definition_whatever_commands_the_value_writes(tmp_path, capsys):
    # old: a step; the m of \mathrm d had been taken for a use of m on the right side
    body = _doc(r"Let $\rho_\alpha$ be a density on $[\lambda_0,\infty)$.", r"Algebraic moments exist only up to order $\alpha-2$:",
                r"\begin{equation}", r"m_{k}= \int_{\lambda_0}^{\infty}\lambda^{k}\rho_{\alpha}(\lambda)\, \mathrm d\lambda .",
                r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "not_a_step" and rows[0]["kind"] == "definition", rows


def test_guard_a_first_use_that_writes_its_own_name_is_still_a_step(tmp_path, capsys):
    # guard: m = 2m − m + 1 writes m on the right (beside \mathrm{d}): a false step, refuted
    body = _doc(r"Algebraic moments exist only up to order $\alpha-2$:", r"\begin{equation}",
                r"m = 2 m - m + \mathrm{d}^{0} .", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "refuted", rows


def test_a_transition_kernel_in_a_proof_step_is_no_probability_statement(tmp_path, capsys):
    # old: not_a_step probabilistic "a probability (P(…))"
    body = _doc(r"\begin{proof}", r"Let $P(s'|s,a)$ be the transition kernel. Then", r"\begin{align}",
                r"\sum_{s'} 2 P(s'|s,a) x_{s'} \le \sum_{s'} 3 P(s'|s,a) x_{s'} .", r"\end{align}", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["kind"] == "step", rows


def test_a_kernel_of_states_written_as_commands_is_no_probability_statement(tmp_path, capsys):
    # old: probabilistic; the paper's states are macros (\rstate, unread here): P(\rstate'|\rstate, \pure) is still
    # a kernel, the row a step (unreadable for its unknown commands, but no probability statement)
    body = _doc(r"\begin{proof}", r"Then", r"\begin{align}",
                r"\sum_{\rstate'} 2 P(\rstate'|\rstate, \pure) x_{\rstate'} \le \sum_{\rstate'} 3 P(\rstate'|\rstate, \pure) "
                r"x_{\rstate'} .", r"\end{align}", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["kind"] == "step", rows


def test_guard_a_probability_of_an_event_is_still_probabilistic(tmp_path, capsys):
    # guard: P(|X| > t) (an event, its bars absolute values) and a side that is a probability stay probabilistic
    body = _doc(r"\begin{proof}", r"Then", r"\begin{align}", r"2 P(|X| > t) \le 3 P(|X| > t) , \qquad P(s'|s,a) \le 1 .",
                r"\end{align}", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["kind"] for r in rows] == ["probabilistic", "probabilistic"], rows


def test_guard_a_side_that_is_the_papers_own_probability_stays_probabilistic(tmp_path, capsys):
    # guard (games App-MARL:122 shape): \prob^{π}(s_1 = s' | s_0) = π(a'|s') P(s'|s, a): the left side is a probability
    body = _doc(r"\begin{proof}", r"Then", r"\begin{align}", r"\prob^{\pi}(s_1 = s' | s_0) = \pi(a'|s') P(s'|s,a) .",
                r"\end{align}", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["kind"] == "probabilistic", rows


def test_where_the_error_terms_are_given_by_defines_their_powers(tmp_path, capsys):
    # old: ψ_n² = ½‖V_n‖² the lemma's conclusion (goal)
    body = _doc(r"\newtheorem{lemma}{Lemma}", r"\begin{lemma}", r"For all $n$, we have", r"\begin{equation}",
                r"E_{n+1} \leq E_n + \gamma_n \xi_n + \gamma_n^2 \psi_n^2,", r"\end{equation}",
                r"where the error terms $\xi_n$ and $\psi_n$ are given by", r"\begin{equation}",
                r"\xi_n = \langle U_n, X_n - p\rangle \quad\text{and}\quad \psi_n^2 = \tfrac12 \|V_n\|^2 .",
                r"\end{equation}", r"\end{lemma}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["kind"] for r in rows] == ["goal", "definition", "definition"], rows


def test_guard_a_power_in_a_lemmas_conclusion_is_still_its_goal(tmp_path, capsys):
    # guard: "Then ψ_n² = …" after "where … given by" in an earlier sentence: the conclusion
    body = _doc(r"\newtheorem{lemma}{Lemma}", r"\begin{lemma}", r"Let $V_n$ be given. Then", r"\begin{equation}",
                r"\psi_n^2 = \tfrac12 \|V_n\|^2 .", r"\end{equation}", r"\end{lemma}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["kind"] == "goal", rows


def test_objects_the_proof_considers_are_defined_not_goals(tmp_path, capsys):
    # old: goal ("such that" earlier in the sentence); the display gives the perturbed policies considered
    body = _doc(r"\begin{proof}", r"Our first task is to bound the directional derivative of the value function.",
                r"To that end, let $\pi,\pi'$ be policies and $u$ such that $\|u\|=1$, and consider $\lambda$-perturbed policies",
                r"\begin{equation}", r"\begin{aligned}", r"\pi_{\lambda}^{a}(b\vert s) &=(\pi_i+\lambda u,\pi_{-i}) \\",
                r"\pi_{\lambda}^{c}(b\vert s) &=(\pi_i'+\lambda u,\pi_{-i}')", r"\end{aligned}", r"\end{equation}",
                r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["kind"] for r in rows] == ["definition", "definition"], rows


def test_guard_what_suffices_is_still_a_goal(tmp_path, capsys):
    # guard: "Consider u …; it suffices to show that": the aim comes after "consider": the display is the goal
    body = _doc(r"\begin{proof}", r"Consider $u$ with $\|u\|=1$; it suffices to show that", r"\begin{equation}",
                r"\|u\|^2 + u = 1 + u .", r"\end{equation}", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["kind"] == "goal", rows


def test_where_given_by_names_a_term_whose_macro_is_not_read(tmp_path, capsys):
    # old: goal (the left side unread: an unknown command); the statement's where-clause names it
    body = _doc(r"\newtheorem{lemma}{Lemma}", r"\begin{lemma}", r"For all $n$, we have", r"\begin{equation}",
                r"E_{n+1} \leq E_n + \gamma_n b_n,", r"\end{equation}",
                r"where the error term $b_n$ is given by", r"\begin{equation}",
                r"\sbias_{n} = \poldiam B_n .", r"\end{equation}", r"\end{lemma}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["kind"] for r in rows] == ["goal", "definition"], rows
