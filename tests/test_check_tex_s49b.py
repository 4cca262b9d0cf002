"""Assumptions that cannot hold together, and prose lists of hypotheses (session 49, helper s49-b; referee finding
X2 and the repro files x2b.tex / x2c.tex): a refutation's counterexample must lie inside the step's hypotheses, a
step whose hypotheses no point satisfies gets no verdict (never a vacuous "holds"), and every item of "Suppose
$b > 0$, $c > 0$, … and …" is read.  Every snippet is written for these tests (no paper's text); each test failed on
the code before the fix unless it says it is a guard."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import sympy as sp

sys.path.insert(0, str(Path(__file__).parent))
from texrows import tex_rows, doc as _doc  # noqa: E402

from theoryverify.check.assume import conflict, free_with_assumptions  # noqa: E402
from theoryverify.check.decide import decide_sides, no_point  # noqa: E402
from theoryverify.domains import Domain  # noqa: E402


def _inside(row: dict, **bounds) -> None:
    """The row's counterexample satisfies each ``name=(lo, hi)`` open bound (None: unbounded)."""
    ce = row["counterexample"]
    for name, (lo, hi) in bounds.items():
        v = sp.Rational(ce[name])
        assert (lo is None or v > lo) and (hi is None or v < hi), (name, ce)


# 1. no refutation at a point outside the hypotheses ------------------------------------------------------------------
def test_contradictory_expression_bounds_are_not_refuted_at_a_point_outside(tmp_path, capsys):
    # old (x2b.tex:9): refuted "violated at an exact point", counterexample L = 0, eta = 0 (violates eta > 0)
    body = _doc(r"Let $\eta > 0$ and $L > 0$. Suppose $\eta L < 1$ and $\eta L > 2$. Then",
                r"\begin{equation}", r"\eta^2 L^2 \le \eta L - 5.", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "inconclusive", rows
    assert "cannot hold together" in rows[0]["reason"] and "eta * L > 2" in rows[0]["reason"], rows
    assert not rows[0].get("counterexample"), rows


def test_the_engine_refutes_no_step_over_a_domain_with_no_point():
    ctx = free_with_assumptions(["eta > 0", "L > 0", "eta*L < 1", "eta*L > 2"])
    group = ctx.variables[0]
    assert group.proved_empty() and group.inside_point() is None
    # the draw that finds no interval falls back to a point the group does not contain — never a counterexample
    p = group.rationals(random.Random(0))
    assert not group.contains(dict(zip(group.symbols, p)))
    domain = Domain(ctx.variables)
    assert "cannot hold together" in no_point(domain)
    eta, L = sorted(group.symbols, key=str)
    v = decide_sides(eta**2 * L**2, "<=", eta * L - 5, domain, seed=0)
    assert v.status.value == "inconclusive" and "cannot hold together" in v.evidence, v


def test_guard_a_feasible_expression_bound_still_refutes_inside_it():
    ctx = free_with_assumptions(["eta > 0", "L > 0", "eta*L < 1", "eta*L > 1/2"])
    group = ctx.variables[0]
    assert group.proved_empty() is None and group.inside_point() is not None
    domain = Domain(ctx.variables)
    assert no_point(domain) is None
    eta, L = sorted(group.symbols, key=str)
    v = decide_sides(eta * L, "<=", sp.Rational(2, 3), domain, seed=0)
    assert v.status.value == "refuted", v
    point = {s: sp.Rational(v.counterexample[str(s)]) for s in group.symbols}
    assert group.contains(point), v.counterexample


# 2. contradictory hypotheses: no verdict, the contradiction named --------------------------------------------------
def test_contradictory_constant_bounds_give_no_verdict_and_are_read(tmp_path, capsys):
    # old (x2c.tex:5): "a > 2 (stated in the prose; not read)", inconclusive "the display's side condition could
    # not be read" — the contradiction was never named
    body = _doc(r"Suppose $a < 1$ and $a > 2$. Then", r"\begin{equation}", r"a^2 \le a - 5.", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "inconclusive", rows
    assert "its assumptions cannot hold together: a < 1 and a > 2" in rows[0]["reason"], rows
    assert "a > 2 (stated in the prose)" in rows[0]["assumptions"], rows


def test_a_contradictory_if_aside_does_not_make_a_false_step_hold(tmp_path, capsys):
    # referee X2's kind: "if … then converged and" — a true-looking pass would be vacuous (x2c.tex:13 held)
    body = _doc(r"If $a < 1$ and $a > 2$, then the method has converged and", r"\begin{equation}",
                r"a^2 \ge a - 5.", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "inconclusive" and "cannot hold together" in rows[0]["reason"], rows


def test_a_contradiction_on_other_names_does_not_silence_a_step():
    # guard: the conflict is looked for among the assumptions bearing on the step's names only
    assert conflict(["x > 0", "a < 1", "a > 2"]) == ["a < 1", "a > 2"]
    assert conflict(["eta > 0", "L > 0", "eta*L < 1"]) is None


def test_guard_a_false_step_under_consistent_hypotheses_is_refuted_inside_them(tmp_path, capsys):
    body = _doc(r"Let $\eta > 0$ and $L > 0$. Suppose $\eta L < 1$ and $\eta L > 1/2$. Then",
                r"\begin{equation}", r"\eta^2 L^2 \le \eta L - 5.", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "refuted", rows
    ce = rows[0]["counterexample"]
    prod = sp.Rational(ce["eta"]) * sp.Rational(ce["L"])
    assert sp.Rational(ce["eta"]) > 0 and sp.Rational(ce["L"]) > 0 and sp.Rational(1, 2) < prod < 1, ce


def test_guard_an_unrelated_case_in_the_paragraph_leaves_the_step_checked(tmp_path, capsys):
    body = _doc(r"Suppose $a < 1$ and $a > 2$. Let $x > 0$. Then", r"\begin{equation}", r"x^2 \le x - 5.",
                r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "refuted", rows
    _inside(rows[0], x=(0, None))


# 3. every item of a prose list of hypotheses -----------------------------------------------------------------------
def test_every_item_of_a_comma_list_after_suppose_is_read(tmp_path, capsys):
    # old (x2c.tex:9): only b > 0 was read; refuted at c = 0 (outside c > 0)
    body = _doc(r"Suppose $b > 0$, $c > 0$, $b c < 1$ and $b c > 2$. Then", r"\begin{equation}",
                r"b^2 c^2 \le b c - 5.", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "inconclusive" and "cannot hold together" in rows[0]["reason"], rows
    for a in ("b > 0", "c > 0", "b * c < 1", "b * c > 2"):
        assert f"{a} (stated in the prose)" in rows[0]["assumptions"], rows


def test_guard_a_consistent_comma_list_is_read_and_its_false_twin_refuted_inside_it(tmp_path, capsys):
    body = _doc(r"Suppose $b > 0$, $c > 1$, $b c < 1$ and $b c > 1/2$. Then", r"\begin{equation}",
                r"b^2 c^2 \le b c - 5.", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert rows[0]["status"] == "refuted", rows
    assert "c > 1 (stated in the prose)" in rows[0]["assumptions"], rows
    ce = rows[0]["counterexample"]
    b, c = sp.Rational(ce["b"]), sp.Rational(ce["c"])
    assert b > 0 and c > 1 and sp.Rational(1, 2) < b * c < 1, ce


def test_an_item_after_a_comma_under_if_is_listed_not_read(tmp_path, capsys):
    # "if $x > 0$, $y > 0$ …": the comma may end the condition — the item is stated, not read, and blocks a refutation
    body = _doc(r"If $x > 0$, $y > 0$ and we have", r"\begin{equation}", r"y \le -1.", r"\end{equation}")
    rows = tex_rows(tmp_path, capsys, body)
    assert "y > 0 (stated in the prose; not read)" in rows[0]["assumptions"], rows
    assert rows[0]["status"] != "refuted", rows


def test_an_equivalence_under_contradictory_hypotheses_gets_no_verdict(tmp_path, capsys):
    # old: "false at a = -2" (outside a > 2, which was not read); the arrow itself is now not checked, and a
    # guard: the same arrow under a consistent hypothesis is still proved
    body = _doc(r"Suppose $a < 1$ and $a > 2$. Then", r"\begin{equation}", r"a^2 \le 1 \iff a \le 5", r"\end{equation}",
                r"Let $x > 0$. Then", r"\begin{equation}", r"x^2 \le 1 \iff x \le 1", r"\end{equation}")
    rows = [r for r in tex_rows(tmp_path, capsys, body) if r["kind"] == "equivalence" and r["status"] != "not_a_step"]
    assert [r["status"] for r in rows] == ["inconclusive", "proved"], rows
    assert "cannot hold together: a < 1 and a > 2" in rows[0]["reason"], rows
