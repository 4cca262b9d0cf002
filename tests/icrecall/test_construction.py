"""Planted errors for the construction / assumption checks: each must be refuted with a
counterexample naming the instance (family, s, r, u / sequence)."""
from fractions import Fraction

import numpy as np

from derivations.icrecall.claims import s2_assumptions as CA
from derivations.icrecall.claims import s3_construction as CC
from derivations.icrecall.printed import construction as P
from derivations.icrecall.model.families import (a1_violation, all_sequences, bayes_first_step, construction_int, f_aff,
                                           f_agl, f_all3, f_cyc, f_greedy, keep_a1, satisfies_a1)
from theoryverify import RunContext
from theoryverify import Status

CTX = RunContext(seed=1234, profile="quick")
SMALL = [(f_all3(), "sympy"), (f_aff(5), "int")]


def test_lemma3_planted_logit_4_to_3_is_refuted():
    planted = {**CC.PRINTED["sr"], "target": 3}
    v = CC.lemma3_value_verdict(CTX, "sr", "target", printed=planted, families=SMALL)
    assert v.status is Status.REFUTED
    assert {"family", "s", "r", "u", "derived", "printed"} <= set(v.counterexample)
    assert v.counterexample["derived"] == 4


def test_lemma3_true_value_of_the_erratum_holds():
    fixed = {**CC.PRINTED["sr"], "answer_other": 2}  # the derived value, so the check is not vacuous
    assert CC.lemma3_value_verdict(CTX, "sr", "answer_other", printed=fixed, families=SMALL).status is Status.HOLDS
    printed = CC.lemma3_value_verdict(CTX, "sr", "answer_other", families=SMALL)
    assert printed.status is Status.REFUTED and printed.counterexample["derived"] == 2


def test_lemma3_planted_bound_is_refuted():
    planted = {**CC.PRINTED["sa"], "relation_out": ("<=", 1)}
    v = CC.lemma3_value_verdict(CTX, "sa", "relation_out", printed=planted, families=SMALL)
    assert v.status is Status.REFUTED and v.counterexample["derived"] == 2


def test_argmax_uniqueness_depends_on_the_family():
    assert CC.argmax_verdict(CTX, "sa", unique=True, families=[(f_cyc(5), "int")]).status is Status.HOLDS
    v = CC.argmax_verdict(CTX, "sa", unique=True, families=[(f_aff(5), "int")])
    assert v.status is Status.REFUTED and len(v.counterexample["argmax_set"]) == 4


def test_closed_form_planted_index_is_refuted():
    def wrong(fam, c, u):  # relation logit with r^{-1} instead of r
        if fam.n <= u < fam.n + fam.m:
            r = fam.relations[u - fam.n]
            inv = [r.index(a) for a in range(fam.n)]
            return sum((c[s] + c[fam.vocab.a(inv[s])]) ** 2 for s in range(fam.n))
        return CC.derived_closed_forms(fam, c, u)
    v = CC.closed_form_verdict(forms=wrong)
    assert v.status is Status.REFUTED and "token" in v.counterexample


def _swapped_eq18(match):
    v = P.v  # planted: v_{2i} v_{2j−1} instead of v_{2i−1} v_{2j}
    return (2 * sum(v[min(2 * i - 1, 5)] * v[2 * j - 2] * int(bool(match(i, j))) for i in range(1, 4) for j in range(1, 3))
            + sum(v[i] ** 2 for i in range(5)))


def _swapped_eq18_coeffs(match):
    G = [[0] * 7 for _ in range(7)]
    for i in range(5):
        G[i][i] = 1
    for i in range(1, 4):
        for j in range(1, 3):
            if match(i, j):
                G[min(2 * i - 1, 5)][2 * j - 2] += 1
                G[2 * j - 2][min(2 * i - 1, 5)] += 1
    return G


def test_eq18_planted_swap_is_refuted_symbolically_and_exactly():
    v = CC.eq18_symbolic_n3(printed_eq18=_swapped_eq18)
    assert v.status is Status.REFUTED and {"r*", "subjects", "relation"} <= set(v.counterexample)
    w = CC.eq18_general(CTX, printed_coeffs=_swapped_eq18_coeffs, families=[f_aff(5)], per_family=5)
    assert w.status is Status.REFUTED and "derived_gram" in w.counterexample
    assert CC.eq18_general(CTX, families=[f_aff(5)], per_family=5).status is Status.HOLDS
    assert CC.eq18_table2(CTX, printed_eq18=_swapped_eq18).status is Status.REFUTED


def test_assumption1_planted_counts_are_refuted():
    v = CA.unique_verdict([f_aff(5)], want=2)
    assert v.status is Status.REFUTED and v.counterexample["consistent"] == 1
    w = CA.counts_verdict([f_aff(5)], b1=lambda n: 6 * (n - 4))
    assert w.status is Status.REFUTED and w.counterexample["value"] == 12
    x = CA.a1_size_verdict(bound=lambda n, r: n * (n - 1) - 1 if r == "distinct" else n)
    assert x.status is Status.REFUTED and x.counterexample["max_size"] == 6
    y = CA.partition_verdict([f_aff(5)], bounds=(1, 3))
    assert y.status is Status.REFUTED and y.counterexample["n_mis"] == 4


def test_lemma9_planted_initial_logit_is_refuted():
    wrong_value = {**P.L9_INIT_LOGITS, 1: (Fraction(8, 36), Fraction(8, 36))}
    v = CA.init_logit_verdict([f_aff(5)], printed=wrong_value)
    assert v.status is Status.REFUTED and v.counterexample["k"] == 1 and v.counterexample["derived"] == Fraction(7, 36)
    wrong_arith = {**P.L9_INIT_LOGITS, 2: (P.L9_INIT_LOGITS[2][0], Fraction(1, 3))}
    assert CA.init_logit_verdict([f_aff(5)], printed=wrong_arith).status is Status.REFUTED


def test_assumption1_readings_and_predicates():
    assert satisfies_a1(f_all3(), "distinct") and not satisfies_a1(f_all3(), "printed")
    v = a1_violation(f_all3(), "printed")
    assert v["subjects"][0] == v["subjects"][1] and v["answers"][0] == v["answers"][1]
    assert satisfies_a1(f_agl(8), "distinct") and f_agl(8).m == 56
    keep = keep_a1("distinct")
    assert keep([(0, 1, 2, 3)], (0, 1, 3, 2)) is False and keep([(0, 1, 2, 3)], (0, 2, 3, 1)) is True
    g = np.random.default_rng(0)
    assert all(satisfies_a1(f_greedy(6, g)) for _ in range(5))


def test_integer_construction_matches_formulas():
    W, V = construction_int(f_all3())
    assert W.shape == (27, 13) and (V[:, 12] == 0).all()
    seqs = all_sequences(f_aff(5))
    assert seqs.N == 20 * 60 and (seqs.consistent.sum(1) == 1).all()
    assert bayes_first_step(f_aff(5)) == 1  # Assumption 1 ⇒ the relation is identifiable
