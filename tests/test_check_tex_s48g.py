"""Referee items of session 48 (helper s48-readg), from two unseen statistics papers (a conclique-based Gibbs
sampler's ergodicity proofs; robust sparse regression).  Every snippet is a small reproducer made from the shape of
the paper's lines; each test failed on the code before its fix unless it says it is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc as _doc  # noqa: E402


# 1. "for $k = 1$ and $v = 1$ and with any constants $j,u > 0$ such that $ju < 1$" after a display ------------------
def _after_display(row: str) -> str:
    return _doc(r"\begin{proof}", "It then holds that", "$$", row, "$$",
                r"for $k = 1$ and $v = 1$ and with any constants $j,u > 0$ such that $ju < 1$. This verifies the claim.",
                r"\end{proof}")


def test_listed_bound_and_such_that_after_a_display_are_its_conditions(tmp_path, capsys):
    # old: "1 ≤ u + 1" inconclusive ("false for some values (e.g. u = -1)"): the prose after the display gives
    # j, u > 0 (each name) and ju < 1, and none of them was read
    rows = tex_rows(tmp_path, capsys, _after_display(r"1 \le u + 1 = u + v \quad \text{and} \quad j u \le 1"))
    assert [r["status"] for r in rows] == ["proved", "proved", "proved"], rows
    assert any("u > 0" in a for a in rows[0]["assumptions"]), rows


def test_guard_a_false_step_under_the_listed_bound_is_still_refuted(tmp_path, capsys):
    # guard: with j, u > 0 and v = 1, "u + 1 ≤ 1" is false for every u > 0: refuted, never hidden by the new conditions
    rows = tex_rows(tmp_path, capsys, _after_display(r"u + 1 \le v"))
    assert rows[0]["status"] == "refuted", rows


# 2. \int_A f(x) dμ(x): the domain of integration is no factor of the integrand -------------------------------------
_SET_A = r"Let $A \in \mathcal{F}$ be such that $F(A) = \int_A f(\boldsymbol x) d\mu(\boldsymbol x) = 0$ holds." + "\n"


def test_an_integral_domain_is_not_evidence_of_a_number(tmp_path, capsys):
    # old: "\int_A f(x)" counted A as a factor (A times f), so A_{2i}(y(N_i)) in a later section was read silently as
    # A[2*i] * ybf(Ncal[i]) — a product — where the paper writes the natural parameter functions A_{1i}(·), A_{2i}(·)
    body = _SET_A + _doc(r"We may bound",
                         r"\[ \left(\frac{A_{2i}(\boldsymbol y(\mathcal{N}_i))}{A_{1i}(\boldsymbol y(\mathcal{N}_i))}"
                         r"\right)^{1/2} \le \left(\frac{A_{2i}(\boldsymbol y(\mathcal{N}_i))}"
                         r"{A_{1i}(\boldsymbol y(\mathcal{N}_i))}\right)^{1/2} + \eta . \]")
    rows = tex_rows(tmp_path, capsys, body)
    assert len(rows) == 1 and "A[2 * i] *" not in rows[0]["read_as"], rows
    assert "A_2i(" in rows[0]["read_as"], rows


def test_guard_a_number_times_a_bracket_stays_a_product(tmp_path, capsys):
    # guard: "2A" makes A a number; A(x + 1) = Ax + A is A times the bracket (proved), and A(x + 1) = Ax is refuted
    body = _SET_A.replace(r"\int_A", r"2 A \int_B") + _doc(r"\begin{proof}", "We have",
                                                          r"\begin{align*} A (x + 1) &= A x + A , \\",
                                                          r"A (x + 1) &= A x . \end{align*}", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows
