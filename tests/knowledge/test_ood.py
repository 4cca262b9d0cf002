"""Planted-error twins for the OOD claims (claims/s5_extraction.py, s5_hallucination.py): every decision rule must refute a wrong claim."""
from itertools import combinations, product

import numpy as np
import pytest

from derivations.knowledge.claims import s5_extraction as C, s5_hallucination as Hc
from derivations.knowledge.experiments import ood_sweeps as O, protocol as Pr
from derivations.knowledge.model import data
from theoryverify import Status

X = [1, 2, 4, 8, 16]
RISING = np.array([[0.40, 0.42], [0.50, 0.47], [0.55, 0.58], [0.66, 0.63], [0.75, 0.78]])


def test_trend_holds_and_planted_reversed_trend_is_refuted():
    assert O.trend_verdict(X, RISING, +1, 0, "Ñ_f", log_x=True).status is Status.HOLDS
    v = O.trend_verdict(X, RISING, -1, 0, "Ñ_f", log_x=True)        # planted: claims a decrease
    assert v.status is Status.REFUTED and v.counterexample["slope"] > 0


def test_flat_trend_is_inconclusive():
    flat = np.array([[0.5, 0.6], [0.6, 0.5], [0.5, 0.6], [0.6, 0.5], [0.55, 0.55]])
    assert O.trend_verdict(X, flat, +1, 0, "Ñ_f", log_x=True).status is Status.INCONCLUSIVE


def test_gated_trend_drops_failed_pretraining_points():
    table = {"acc": np.vstack([RISING[:2], [[np.nan, np.nan]], RISING[3:]]), "pt_failed": [{"K": 4, "gap": 1.9}]}
    v = Pr.gated_trend(X, table, +1, 0, "K")
    assert v.status is Status.HOLDS and "dropped" in v.evidence
    part = {"acc": np.vstack([RISING[:2], [[0.56, np.nan]], RISING[3:]]), "pt_failed": [{"K": 4}]}
    assert Pr.gated_trend(X, part, +1, 0, "K").status is Status.HOLDS                  # unbalanced fit
    assert Pr.gated_trend(X, part, -1, 0, "K").status is Status.REFUTED
    few = {"acc": np.array([[0.1, 0.2], [np.nan, 0.3], [np.nan, np.nan]]), "pt_failed": [{}, {}]}
    assert Pr.gated_trend([1, 2, 3], few, +1, 0, "K").status is Status.INCONCLUSIVE


def test_across_modes_needs_the_same_outcome():
    h = O.trend_verdict(X, RISING, +1, 0, "Ñ_f", log_x=True)
    r = O.trend_verdict(X, RISING, -1, 0, "Ñ_f", log_x=True)
    assert O.across_modes({"a": h, "b": h}).status is Status.HOLDS
    assert O.across_modes({"a": r, "b": r}).status is Status.REFUTED
    assert O.across_modes({"a": h, "b": r}).status is Status.INCONCLUSIVE


def test_coverage_law_decision_and_planted_violation():
    cov = np.array([0.2, 0.5, 0.8, 1.0])
    where = [{}] * 4
    good = C.coverage_decision(cov.copy(), cov, np.ones(60), np.zeros(40), where)
    assert good.status is Status.HOLDS
    # planted: uncovered pairs answered as often as covered ones (Δ ≈ 0), accuracy far from the covered fraction
    bad = C.coverage_decision(np.full(4, 0.95), cov, np.ones(60), np.ones(40), where)
    assert bad.status is Status.REFUTED and bad.counterexample


def test_p_all_covered_is_exact_against_enumeration():
    R, K, n = 5, 2, 2
    subsets = list(combinations(range(R), K))
    target = {0, 1}
    hits = sum(target <= set().union(*sets) for sets in product(subsets, repeat=n))
    assert O.p_all_covered(K, R, n) == pytest.approx(hits / len(subsets) ** n, abs=1e-14)
    single = sum(0 in set().union(*sets) for sets in product(subsets, repeat=n))
    assert O.p_all_covered(K, R, n, 1) == pytest.approx(single / len(subsets) ** n, abs=1e-14)


def test_expected_uncovered_fraction_matches_simulated_data():
    N_f, N_r, K, R, n = 12, 6, 2, 8, 3
    frac = []
    for seed in range(400):
        kn = data.make(N_f, N_r, K, R, beta=n / N_f, seed=seed)
        frac.append(1 - O.covered_pairs(kn, O.ood_pairs(kn)).mean())
    frac = np.array(frac)
    assert abs(frac.mean() - O.expected_uncovered_fraction(N_f, N_r, K, R, n)) < 3 * frac.std() / np.sqrt(len(frac))


def test_printed_bound_vs_coverage_and_planted_fast_rate():
    assert C.coverage_vs_bound(range(2, 9)).holds
    fast = lambda n, K, R: float(np.exp(-50 * n * K ** 2 * np.log(R) / (2 * R ** 2)))   # planted too-fast rate
    v = C.coverage_vs_bound(range(2, 9), bound=fast)
    assert v.status is Status.REFUTED and v.counterexample["coverage_error"] > v.counterexample["bound"]


def test_bound_decision_refutes_a_planted_too_fast_bound():
    pts = [{"N_ft": 8, "K": 3, "R": 6, "errors": [0.05, 0.1, 0.0, 0.05]},
           {"N_ft": 16, "K": 3, "R": 6, "errors": [0.0, 0.0, 0.0, 0.0]}]
    assert C.bound_decision(pts).status is Status.HOLDS
    fast = lambda n, K, R: float(np.exp(-10 * n * K ** 2 * np.log(R) / (2 * R ** 2)))
    v = C.bound_decision(pts, bound=fast)
    assert v.status is Status.REFUTED and v.counterexample["N_ft"] == 8


def test_uncovered_count_and_planted_strict_reading():
    assert Hc.uncovered_count_check(5).status is Status.PROVED
    v = Hc.uncovered_count_check(5, strict=True)          # the text's "more than c|R|": fails at equality
    assert v.status is Status.REFUTED and v.counterexample["uncovered"] == v.counterexample["R"] - \
        v.counterexample["N_ft"] * v.counterexample["K"]


def test_halluc_decision_and_planted_large_constant():
    rows = [{"N_ft": 1, "K": 3, "R": 6, "N": 25, "N_r": 5, "errors": [0.5, 0.52, 0.55, 0.5]}]
    assert Hc.halluc_decision(rows).status is Status.HOLDS
    v = Hc.halluc_decision(rows, bound_const=10.0)        # planted: Ω constant 10 ⇒ lower bound 1.04 > 1
    assert v.status is Status.REFUTED and v.counterexample["lower"] > 1


def test_measured_nf_sweep_given_prop1_refutes_a_planted_reversed_trend():
    """The same check on real FT sweeps (Prop. 1 regime, cheap PT): the paper's direction holds, the reversed
    direction is refuted with the fitted numbers."""
    rec = Pr.prop1()
    sizes = O.QUICK["sizes"]
    acc = O.accuracy_table(O.sweep_runs(rec, "quick"), sizes)
    assert O.trend_verdict(sizes, acc, +1, 7, "Ñ_f", log_x=True).status is Status.HOLDS
    v = O.trend_verdict(sizes, acc, -1, 7, "Ñ_f", log_x=True)
    assert v.status is Status.REFUTED and v.counterexample["ci95"][0] > 0


def test_halluc_decision_on_a_wide_grid_records_configurations_and_refutes_a_planted_constant():
    """Session 24: the wide |𝓡| = 33 grid (Ñ_f 1–10, c 0.91–0.09) — every point is a configuration the quantifier
    rule reads; a planted Ω constant that beats the measured L_OOD at the loosest point is refuted there."""
    rows = [{"N_ft": n, "K": 3, "R": 33, "N": 25, "N_r": 5, "errors": [0.5, 0.55, 0.6]} for n in (1, 2, 4, 8, 10)]
    v = Hc.halluc_decision(rows)
    assert v.status is Status.HOLDS
    assert [c["N_ft"] for c in v.details["configurations"]] == [1, 2, 4, 8, 10]
    assert min(c["c"] for c in v.details["configurations"]) < 0.1 < 0.9 < max(c["c"] for c in v.details["configurations"])
    v = Hc.halluc_decision(rows, bound_const=4.0)         # planted: 4·c·N_r/(N − Ñ_f) = 0.76 > 0.6 at Ñ_f = 1
    assert v.status is Status.REFUTED and v.counterexample["N_ft"] == 1 and v.counterexample["R"] == 33


def test_halluc_pt_gate_drops_runs_whose_pretraining_failed():
    """A lower bound on L_OOD must not be met by a model that never learned the facts: runs of a PT seed that failed
    the PT gate are dropped (planted: seed 1 failed, its runs would have L_OOD = 1)."""
    runs = [(0, 0, 1, "r00", None), (1, 0, 1, "r10", None), (0, 1, 1, "r01", None)]
    kept, dropped = Hc.pt_gate(runs, {0: True, 1: False})
    assert [x[3] for x in kept] == ["r00", "r01"] and dropped == [1]
    assert Hc.pt_gate(runs, {0: True, 1: True}) == (runs, [])


def test_necessity_decision_holds_when_uncovered_pairs_fail_and_refutes_a_planted_leak():
    """t2-coverage-law-given-p1 decides necessity only: 0 of 112 uncovered pairs answered holds; a planted model
    answering 40 % of them is refuted; 3 of 40 (CI straddling the thresholds) is inconclusive."""
    assert C.necessity_decision(np.zeros(112), np.ones(10)).status is Status.HOLDS
    leak = np.r_[np.ones(45), np.zeros(67)]
    assert C.necessity_decision(leak).status is Status.REFUTED
    assert C.necessity_decision(np.r_[np.ones(3), np.zeros(37)]).status is Status.INCONCLUSIVE
    assert C.necessity_decision([]).status is Status.INCONCLUSIVE


def test_necessity_needs_power_a_model_that_answers_nothing_does_not_pass():
    """Issue 27 (session 35): 0 uncovered pairs answered is no evidence when the same runs answer no covered pair
    either — inconclusive (no power); with covered pairs of those runs answered it holds; a leak still refutes."""
    v = C.necessity_decision(np.zeros(112), np.zeros(264), control=np.zeros(53))
    assert v.status is Status.INCONCLUSIVE and "no power" in v.evidence
    assert C.necessity_decision(np.zeros(112), np.ones(60), control=np.ones(30)).status is Status.HOLDS
    assert C.necessity_decision(np.zeros(112), np.ones(60), control=np.zeros(30)).status is Status.INCONCLUSIVE
    leak = np.r_[np.ones(45), np.zeros(67)]
    assert C.necessity_decision(leak, control=np.zeros(30)).status is Status.REFUTED


def test_bound_over_C_states_the_best_constant_and_never_refutes_on_one_C():
    """Thm 2(2)'s condition constant C is existential: a violation at small Ñ_f with the bound met at the two
    largest holds with the best constant stated; a violation at the largest tested Ñ_f is inconclusive, never
    refuted (no C on the grid), however large the violation."""
    met = [{"N_ft": 8, "K": 3, "R": 6, "errors": [0.7, 0.8, 0.6, 0.7]},
           {"N_ft": 32, "K": 3, "R": 6, "errors": [0.0, 0.0, 0.0, 0.0]},
           {"N_ft": 48, "K": 3, "R": 6, "errors": [0.0, 0.0, 0.0, 0.0]}]
    v = C.bound_over_C(met)
    assert v.status is Status.HOLDS and np.isclose(v.details["best_C"], C.c_needed(8, 3, 6))
    bad = [dict(p, errors=[0.9, 0.9, 0.9, 0.9]) for p in met]
    assert C.bound_over_C(bad).status is Status.INCONCLUSIVE
    assert C.bound_over_C(met[:2]).status is Status.INCONCLUSIVE      # one point inside C*'s region only
