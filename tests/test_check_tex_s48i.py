"""Session 48, helper s48-readi: a function applied in square brackets to a set or partition (``h_γ[𝒫]``) is no
product; "with probability $q_i$" describing how a random object is drawn is no high-probability claim; "we have
functions \\[ g_1(y) = … \\]" introduces (defines) the functions.  Every snippet is written for these tests (no
paper's text); each test failed on the code before the fix unless it says it is a guard."""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc as _doc, proof_align as _proof  # noqa: E402


# 1. h_γ[𝒫]: a function of a partition, applied in square brackets -------------------------------------------------
def test_function_of_a_partition_in_square_brackets_is_applied_not_multiplied(tmp_path, capsys):
    # old: "h_{\gamma}[\mathcal{P}_N] = h_{\gamma}[\mathcal{P}_{N-1}]" read as h_gamma * Pcal[N] = h_gamma * Pcal[N - 1]
    rows = tex_rows(tmp_path, capsys, _proof(r"h_{\gamma}[\mathcal{P}_N] &= h_{\gamma}[\mathcal{P}_{N-1}] ."))
    assert len(rows) == 1, rows
    assert "h_gamma *" not in rows[0]["read_as"] and "*" not in rows[0]["read_as"], rows
    assert rows[0]["status"] not in ("proved", "holds", "refuted"), rows


def test_function_of_a_partition_false_step_is_still_refuted(tmp_path, capsys):
    # guard: the applied reading still refutes a false step (the same value, plus one) and proves a true one
    rows = tex_rows(tmp_path, capsys, _proof(r"h_{\gamma}[\mathcal{P}] + 1 &= h_{\gamma}[\mathcal{P}] , \\",
                                              r"2 h_{\gamma}[\mathcal{P}'] &= h_{\gamma}[\mathcal{P}'] + h_{\gamma}[\mathcal{P}'] ."))
    assert [r["status"] for r in rows] == ["refuted", "proved"], rows


def test_function_of_a_set_expression_in_square_brackets_is_applied(tmp_path, capsys):
    # old: "h_{\gamma}\big[\{C\} \cup \{…\}\big]" read as h_gamma * union(C, …) (a number times a set); a bracket of
    # numbers keeps its product (guard: c[a + b] = ca + cb is proved, c[a + b] = ca is refuted)
    u = r"\big[\{C\} \cup \{ \{i\} \mid i \in V \setminus C\}\big]"
    rows = tex_rows(tmp_path, capsys, _proof(rf"h_{{\gamma}}{u} + 1 &\ge h_{{\gamma}}{u} , \\",
                                              r"h_{\gamma}[\{C\} \cup D] + 1 &= h_{\gamma}[\{C\} \cup D] , \\",
                                              r"h_{\gamma}[\left\{C\right\} \cup D] &\ge h_{\gamma}[\left\{C\right\} \cup D] + 1 , \\",
                                              r"c[a + b] &= c a + c b , \\", r"c[a + b] &= c a ."))
    assert all("h_gamma *" not in r["read_as"] for r in rows), rows
    assert [r["status"] for r in rows] == ["proved", "refuted", "refuted", "proved", "refuted"], rows


def test_short_letter_index_in_square_brackets_is_unchanged(tmp_path, capsys):
    # guard: A[j] around a plain letter keeps its old reading (the product, ambiguous with the indexed name)
    rows = tex_rows(tmp_path, capsys, _proof(r"A[j] + A[j] &= 3 A[j] ."))
    assert rows[0]["status"] not in ("proved", "holds"), rows


# 2. "with probability $q_i$" describing a random construction ------------------------------------------------------
def test_random_construction_with_probability_is_no_probabilistic_statement(tmp_path, capsys):
    # old: kind probabilistic ("stated with probability (w.p.)"): the sentence only says how the permutation is drawn
    # (and, once that was dropped, the integral "defined" by "denote": "we similarly have" now reads as a result)
    body = _doc(r"\begin{proof}",
                r"Letting $\sigma$ denote the $i$th permutation with probability $q_i$ for $i = 1, \ldots, m$, we similarly have",
                r"\begin{align*}", r"\int f(x) k(y, x) d\mu(x) &= \int f(x) k(y, x) d\mu(x) + 0 .", r"\end{align*}", r"\end{proof}",
                r"\begin{proof}", r"Each index is chosen with probability $p$, and then", r"\begin{align*}",
                r"b + b &= 3 b .", r"\end{align*}", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert [r.get("kind") for r in rows] == ["step", "step"], rows
    assert [r["status"] for r in rows] == ["proved", "refuted"], rows


def test_with_probability_at_least_stays_probabilistic(tmp_path, capsys):
    # guard: a bound that holds with some probability is still probabilistic (no step, no verdict)
    body = _doc(r"\begin{proof}", r"Each index is chosen with probability $p$. With probability at least $1-\delta$,",
                r"\[ b + b \le 3 b . \]", r"\end{proof}",
                r"We have, with probability at least $1-\delta$, \[ c + c \le 1 . \]")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[-1].get("kind") == "probabilistic", rows
    assert all(r["status"] != "refuted" for r in rows), rows


# 3. "we have functions \[ g_1(y) = … \]" ---------------------------------------------------------------------------
def test_we_have_functions_defines_them(tmp_path, capsys):
    # old: "ambiguous step" (g_1 was used in an earlier proof, so not a first use; "we have" read as a result)
    body = _doc(r"\begin{proof}", r"Let $g_1(y) = y$ and $g_2(y) = 2 y$. Then $g_1(1) = 1$.", r"\end{proof}",
                r"\begin{proof}", r"Denoting the locations by $s_i$, we have functions",
                r"\[ g_1(y) = y^2 + 1 , \qquad g_2(y) = 3 y . \]", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    got = [(r.get("kind"), r["status"]) for r in rows if "g_1(y)" in r["read_as"] or "g_2(y)" in r["read_as"]]
    assert got == [("definition", "not_a_step")] * 2, rows


def test_we_have_that_the_functions_satisfy_is_still_a_step(tmp_path, capsys):
    # guard: "we have" before a relation between values of defined functions is a step, refuted when false
    body = _doc(r"\begin{proof}", r"Define the function", r"\[ g(y) = y^2 . \]", r"Then we have",
                r"\[ g(2) = 5 . \]", r"\end{proof}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[-1]["status"] == "refuted", rows
