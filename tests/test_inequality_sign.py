"""``check_inequality``'s sign-analysis tier: what the step checker proves, the engine proves — and only from the
domain (a symbol's own assumptions are not trusted), never a refutation; a false inequality is still refuted."""
from __future__ import annotations

import sympy as sp

import theoryverify as tv
from theoryverify.checks.inequality import sign_analysis

N, n, x, y = sp.Symbol("N"), sp.Symbol("n", integer=True), sp.Symbol("x"), sp.Symbol("y")
DN = tv.Domain([tv.Interval(N, 1, 100)])


def test_simple_sign_cases_are_proved():
    for lhs, op, rhs, domain in [
        (1 + 2 / N, ">", 0, DN),
        (1 / (N + 2), "<=", 1 / N, DN),
        (1 / (n + 2), "<", 1 / n, tv.Domain([tv.IntegerRange(n, 1, 50)])),
        (x * y + x ** 2, ">=", 0, tv.Domain([tv.Interval(x, 0, 1), tv.Interval(y, 0, 2)])),
        (sp.exp(x) + 1 / (1 + y ** 2), ">", 0, tv.Domain([tv.Interval(x, -3, 3), tv.Interval(y, -3, 3)])),
    ]:
        v = tv.check_inequality(lhs, op, rhs, domain, seed=0)
        assert v.status is tv.Status.PROVED and v.method == "sign analysis", (lhs, op, rhs, v)


def test_planted_false_inequalities_are_refuted_not_proved():
    for lhs, op, rhs, domain in [
        (1 - 2 / N, ">", 0, DN),  # false at N = 1
        (1 / (N + 2), ">=", 1 / N, DN),  # the wrong way round
        (x * y, ">=", 0, tv.Domain([tv.Interval(x, -1, 1), tv.Interval(y, 0, 2)])),
    ]:
        assert sign_analysis(tv.checks.inequality.slack_expr(sp.sympify(lhs), sp.sympify(rhs), op),
                             op in "<>", domain) is None
        v = tv.check_inequality(lhs, op, rhs, domain, seed=0)
        assert v.status is tv.Status.REFUTED and v.counterexample, (lhs, op, rhs, v)


def test_a_symbols_own_sign_is_not_trusted_over_its_domain():
    P = sp.Symbol("P", positive=True)  # declared positive, but the domain says P ∈ [-1, 1]
    v = tv.check_inequality(P, ">", 0, tv.Domain([tv.Interval(P, -1, 1)]), seed=0)
    assert v.status is tv.Status.REFUTED


LAM1, LAM2 = sp.symbols("lam_1 lam_2")


def test_a_relation_between_assumed_symbols_proves_the_inequality_it_implies():
    """Issue 29, author 5, defect 5: with 0 < λ_2 < λ_1, λ_2 − λ_1 < 0 was "holds (no proof)"; the relation
    rewritten through a positive slack (λ_1 = λ_2 + s) proves it — in the engine and in the step checker."""
    d = tv.Domain.assuming([LAM1, LAM2], ["0 < lam_2", "lam_2 < lam_1 <= 10"])
    v = tv.check_inequality(LAM2 - LAM1, "<", 0, d, seed=0)
    assert v.status is tv.Status.PROVED and "assumed relations" in v.evidence, v
    L, eta = sp.symbols("L eta")
    d2 = tv.Domain.assuming([L, eta], ["0.01 <= L <= 100", "0 < eta <= 1/L"])
    assert tv.check_inequality(eta * L, "<=", 1, d2, seed=0).status is tv.Status.PROVED
    from theoryverify.check import cli
    assert cli.main(["--assume", "0 < lam_2", "--assume", "lam_2 < lam_1", "lam_2 - lam_1 < 0"]) == 0


def test_planted_false_twins_over_relations_are_refuted_never_proved(capsys):
    d = tv.Domain.assuming([LAM1, LAM2], ["0 < lam_2", "lam_2 < lam_1 <= 10"])
    for lhs, op, rhs, dom in [(LAM1 - LAM2, "<", 0, d), (LAM1 - LAM2, "<", 1, d),
                              (LAM1 - LAM2, "<", 0, tv.Domain.assuming([LAM1, LAM2], ["lam_2 <= lam_1"]))]:
        v = tv.check_inequality(lhs, op, rhs, dom, seed=0)
        assert v.status is tv.Status.REFUTED, (lhs, op, rhs, v)
    # a non-strict relation proves the non-strict inequality only
    weak = tv.Domain.assuming([LAM1, LAM2], ["lam_2 <= lam_1"])
    assert tv.check_inequality(LAM2 - LAM1, "<=", 0, weak, seed=0).status is tv.Status.PROVED
    assert tv.check_inequality(LAM2 - LAM1, "<", 0, weak, seed=0).status is not tv.Status.PROVED
    from theoryverify.check import cli
    assert cli.main(["--assume", "0 < lam_2", "--assume", "lam_2 < lam_1", "lam_1 - lam_2 < 0"]) == 1
    assert "refuted" in capsys.readouterr().out
