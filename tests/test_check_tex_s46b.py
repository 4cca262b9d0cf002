"""Known misreadings left by session 45's referees (session 46, helper s46-readb): a kernel called with two arguments
read as ambiguous with a product, an operator applied to a difference then evaluated, braces that made two names of
one, ``\\star`` and ``\\bigoplus``, and a power inside a binomial sum.  Every snippet is written for these tests (no
paper's text); each test failed on the code before the fix unless it says it is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows  # noqa: E402

VERDICTS = ("proved", "holds", "refuted")


def _proof(*rows: str, lead: str = "") -> str:
    return "\n".join([lead, r"\begin{proof}", "We have", r"\begin{align*}", *rows, r"\end{align*}", r"\end{proof}"]) + "\n"


# 1. a name called with two or more arguments is a function ----------------------------------------------------------
_KERNEL = (r"The kernel is $K(x, z) = K_e(x - z)$ for all $x, z$, and $K_e^{dec, gauss}$ is its decomposable "
           r"Gaussian signature.")


def test_a_kernel_called_with_two_arguments_makes_its_signature_a_function(tmp_path, capsys):
    # old: K_e(2δ) "a function applied, or a product?" — K_e^{dec, gauss} (a label of two words) counted as a power
    # of K_e, so the paper "used K_e as a number" and overruled K(x, z)'s two arguments
    rows = tex_rows(tmp_path, capsys, _proof(r"K_e(2\delta) + K_e(\delta) &= K_e(\delta) + K_e(2\delta) , \\",
                                             r"K_e(2\delta) - K_e(2\delta) &= 1 .", lead=_KERNEL))
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows  # (the second a guard: still refuted)
    assert rows[0]["read_as"] == "K_e(2 * delta) + K_e(delta) = K_e(delta) + K_e(2 * delta)", rows


def test_several_arguments_overrule_a_power_of_the_same_name(tmp_path, capsys):
    # old: K_e^2 \le 1 made K_e a number, and K_e(2δ) ambiguous although the paper calls K(x, z) and maps K_e
    lead = (r"Let $K_e: \mathcal{X} \to \mathcal{L}(\mathcal{Y})$ with $K(x, z) = K_e(x - z)$ and $K_e^2 \le 1$.")
    rows = tex_rows(tmp_path, capsys, _proof(r"K_e(2\delta) + K_e(\delta) &= K_e(\delta) + K_e(2\delta) , \\",
                                             r"K_e(2\delta) + K_e(\delta) &= 2 K_e(2\delta) .", lead=lead))
    assert rows[0]["status"] == "proved", rows
    assert rows[1]["status"] not in VERDICTS[:2], rows  # guard: a false step is never proved


def test_a_kernel_starred_elsewhere_stays_a_function_of_two_arguments(tmp_path, capsys):
    # guard (the referee's shape, already read so): K^*(x, z) and K^* y elsewhere, K(x, z) applied
    lead = r"The adjoint $K^* y$ and the optimal kernel $K^*(x, z)$ are given."
    rows = tex_rows(tmp_path, capsys, _proof(r"K(x, z) + K(z, x) &= K(z, x) + K(x, z) , \\",
                                             r"K(x, z) - K(x, z) &= 2 .", lead=lead))
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows
    assert "K(x, z)" in rows[0]["read_as"], rows


# 2. an operator applied to a difference, then evaluated at a point --------------------------------------------------
def test_an_operator_applied_to_a_difference_then_evaluated_is_read(tmp_path, capsys):
    # old: "a tuple or interval (',' inside brackets) is not read" (𝒯^π·(Q_1 − Q_2)·(s, a))
    rows = tex_rows(tmp_path, capsys, _proof(
        r"\mathcal{T}^\pi (Q_1 - Q_2)(s,a) &= \mathcal{T}^\pi (Q_1 - Q_2)(s,a) , \\",
        r"\mathcal{T}^\pi Q_1(s,a) - \mathcal{T}^\pi Q_2(s,a) &= \mathcal{T}^\pi (Q_1 - Q_2)(s,a) , \\",
        r"(\mathcal{T}^\pi Q_1)(s, a) - (\mathcal{T}^\pi Q_2)(s, a) &= \mathcal{T}^\pi(Q_1 - Q_2)(s,a) .",
        lead=r"Let $\mathcal{T}^\pi$ be the Bellman operator of $\pi$."))
    assert all(r["status"] != "unreadable" for r in rows), rows
    assert "Tcalsup_pi_applied(Q[1] - Q[2], s, a)" in rows[0]["read_as"], rows
    # never a verdict on linearity: 𝒯^π Q_1 − 𝒯^π Q_2 = 𝒯^π(Q_1 − Q_2) needs a linear operator
    assert rows[1]["status"] not in VERDICTS and rows[2]["status"] not in VERDICTS, rows
    assert "(s, a)" in rows[2]["read_as"] and "Tcalsup_pi_Q_1 *" not in rows[2]["read_as"], rows


def test_an_operator_applied_to_a_difference_is_never_a_power_of_pi(tmp_path, capsys):
    # old: 𝒯^π(Q_1 − Q_2) read as Tcal ** pi * (Q_1 - Q_2) and refuted
    rows = tex_rows(tmp_path, capsys, _proof(r"\mathcal{T}^\pi (Q_1 - Q_2) &= 0 ."))
    assert rows[0]["status"] not in VERDICTS and "**" not in (rows[0]["read_as"] or ""), rows


def test_a_difference_of_functions_evaluated_at_a_point_is_the_difference_of_values(tmp_path, capsys):
    # old: "a tuple or interval" for (Q_1 − Q_2)(s, a); a number times a pair is nothing, so Q_1, Q_2 are functions
    rows = tex_rows(tmp_path, capsys, _proof(r"(Q_1 - Q_2)(s, a) &= Q_1(s, a) - Q_2(s, a) , \\",
                                             r"(Q_1 - 2 Q_2)(s, a) &= Q_1(s, a) - Q_2(s, a) - Q_2(s, a) , \\",
                                             r"(Q_1 - Q_2)(s, a) &= Q_2(s, a) - Q_1(s, a) ."))
    assert [r["status"] for r in rows[:2]] == ["proved", "proved"], rows
    assert rows[2]["status"] not in ("proved", "holds"), rows  # guard: the sign swapped is never proved


def test_a_bracket_of_numbers_times_a_letter_stays_a_product(tmp_path, capsys):
    # guard: (a − b)(c) with nothing saying a, b are functions is the product (a − b)·c, checked as before
    rows = tex_rows(tmp_path, capsys, _proof(r"(a - b)(c) &= a c - b c , \\", r"(a - b)(c) &= a c + b c ."))
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows


# 3. braces change no label ----------------------------------------------------------------------------------------
def test_braced_and_unbraced_policy_labels_are_one_name(tmp_path, capsys):
    # old: V^{\pi}(s) was Vsup_pivar, V^\pi(s) Vsup_pi (two names; the braced π even counted as π applied to s)
    rows = tex_rows(tmp_path, capsys, _proof(r"V^{\pi}(s) - V^\pi(s) &= 0 , \\",
                                             r"Q^{\pi}(s, a) - Q^\pi(s,a) &= 0 , \\",
                                             r"V^{\pi_k}(s) - V^{\pi_{k}}(s) &= 0 , \\",
                                             r"V^{\pi^*}(s) - V^{\pi^\star}(s) &= 0 , \\",
                                             r"V^{\pi}(s) - V^\pi(s) &= 1 ."))
    assert [r["status"] for r in rows] == ["proved", "proved", "proved", "proved", "refuted"], rows
    assert "Vsup_pistar(s)" in rows[3]["read_as"], rows  # the label V^{\pi^*} has alone (was Vsup_pivarstar)
    assert "Vsup_pi(s) - Vsup_pi(s)" in rows[0]["read_as"], rows
    assert "Vsup_pi_k(s)" in rows[2]["read_as"], rows  # old: V ** pivar[k] * s


def test_an_accented_value_with_a_braced_label_is_never_refuted(tmp_path, capsys):
    # old: \hat{V}^{\pi}(s) - \hat{V}^\pi(s) = 0 refuted, as Vhat ** pivar * s - Vhat ** pi * s
    rows = tex_rows(tmp_path, capsys, _proof(r"\hat{V}^{\pi}(s) - \hat{V}^\pi(s) &= 0 ."))
    assert rows[0]["status"] == "proved" and "Vhatsup_pi(s)" in rows[0]["read_as"], rows


def test_braced_subscripts_and_stars_are_one_name(tmp_path, capsys):
    # guard: x_{t} and x_t, x^{*} and x^*, x^{\star} and x^\star were already one name each
    rows = tex_rows(tmp_path, capsys, _proof(r"x_{t} - x_t &= 0 , \\", r"x^{*} - x^* &= 0 , \\",
                                             r"x^{\star} - x^* &= 0 , \\", r"x_{t} - x_t &= 1 ."))
    assert [r["status"] for r in rows] == ["proved", "proved", "proved", "refuted"], rows


# 4. \star and \bigoplus -----------------------------------------------------------------------------------------
def test_star_as_a_label_is_the_starred_name(tmp_path, capsys):
    # guard: x^\star is x^* (one name), a false step with it still refuted
    rows = tex_rows(tmp_path, capsys, _proof(r"f(x^\star) - f(x^*) &= 0 , \\", r"x^\star + x^\star &= 3 x^* ."))
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows


def test_a_star_operation_and_a_direct_sum_are_refused_with_their_reason(tmp_path, capsys):
    # old: "unknown LaTeX command \star (closest: \tau, …)", "unknown LaTeX command \bigoplus"
    rows = tex_rows(tmp_path, capsys, _proof(r"a \star b &= b \star a , \\",
                                             r"\bigoplus_{i} V_i &= V_1 \oplus V_2 , \\",
                                             r"\operatorname{\bigoplus}_{i=1}^N y_i &= y ."))
    assert [r["status"] for r in rows] == ["unreadable"] * 3, rows
    assert "the operation \\star" in rows[0]["reason"] and "unknown" not in rows[0]["reason"], rows
    assert all("direct sum" in r["reason"] for r in rows[1:]), rows


# 5. r_i^k in a binomial sum, r_i^{(k)} a label ------------------------------------------------------------------
_ITERATES = r"Let $x^{k+1} = x^k - g^k$ be the iterates."


def test_a_power_inside_a_binomial_sum_is_a_power(tmp_path, capsys):
    # old: "r[i]^k: a power, or a name with a superscript label (an iterate)?" in a paper whose k indexes iterates;
    # inside \sum_k with \binom{n}{k}, k counts and r_i^k is the power (the binomial theorem)
    rows = tex_rows(tmp_path, capsys, _proof(r"\sum_{k=0}^{n} \binom{n}{k} r_i^k &= (1 + r_i)^n , \\",
                                             r"\sum_{k=0}^{n} \binom{n}{k} r_i^k &= (2 + r_i)^n .", lead=_ITERATES))
    assert rows[0]["status"] in ("proved", "holds") and rows[1]["status"] == "refuted", rows
    assert "r[i] ** k" in rows[0]["read_as"], rows


def test_a_bracketed_superscript_in_a_binomial_sum_stays_a_label(tmp_path, capsys):
    # guard: r_i^{(k)} is a label (the k-th r_i), never a power, inside the sum or not
    rows = tex_rows(tmp_path, capsys, _proof(r"\sum_{k=0}^{n} \binom{n}{k} r_i^{(k)} &= (1 + r_i)^n , \\",
                                             r"r_i^{(k)} + r_i^{(k)} &= 2 r_i^{(k)} .", lead=_ITERATES))
    assert "rsup[i, k]" in rows[0]["read_as"] and rows[0]["status"] not in VERDICTS, rows
    assert rows[1]["status"] == "proved" and "**" not in rows[1]["read_as"], rows


def test_an_iterate_summed_without_a_binomial_stays_a_question(tmp_path, capsys):
    # guard: \sum_k x^k where k indexes iterates (an average of iterates?) is still asked, never read as a power
    rows = tex_rows(tmp_path, capsys, _proof(r"\sum_{k=1}^{n} y^k &= \frac{y - y^{n+1}}{1 - y} .", lead=_ITERATES))
    assert rows[0]["status"] not in VERDICTS, rows
