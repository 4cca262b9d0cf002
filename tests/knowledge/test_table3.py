"""Table 3 (App. A) reproduction: the data's optimum, the split, and planted-error twins of the verdict rule."""
import dataclasses
import math
from collections import Counter, defaultdict

import numpy as np

from derivations.knowledge.claims import app_a_table3 as C
from derivations.knowledge.experiments import table3 as T3
from theoryverify import Status

TINY = T3.Config(N=6, K=5, R=8, d=16, pt_steps=5, gd_steps=5, ft_steps=2)  # tiny: every path runs, in seconds


def empirical_entropy(tok, y) -> float:
    groups = defaultdict(Counter)
    for t, target in zip(map(tuple, tok.tolist()), y.tolist()):
        groups[t][target] += 1
    n = len(y)
    return sum(-c * math.log(c / sum(g.values())) for g in groups.values() for c in g.values()) / n


def test_optimum_is_the_data_entropy_and_a_planted_one_is_not():
    data = T3.make_data(TINY, seed=3)
    Hd = empirical_entropy(*data.pt)
    assert math.isclose(T3.H(TINY), Hd, rel_tol=1e-12)
    assert not math.isclose(math.log(TINY.K + 1) / 2, Hd, rel_tol=1e-3)   # planted wrong multiplicity
    assert math.isclose(T3.H(T3.Config()), 0.8047, abs_tol=5e-5)          # the printed optimum


def test_ft_and_test_split_the_tuples():
    data = T3.make_data(TINY, seed=1)
    ft = {tuple(t) for t in data.ft[0].tolist()}
    te = {tuple(t) for t in data.test[0].tolist()}
    assert len(ft) == TINY.N * (TINY.K // 2) and len(te) == TINY.N * (TINY.K - TINY.K // 2)
    assert not ft & te


def test_every_architecture_runs():
    for arch in T3.ARCHS:
        r = T3.run(arch, TINY, 0)
        assert np.isfinite(r["loss"]) and 0 <= r["ood_best"] <= 1


def rows(gaps: dict, ood: float = 1.0):
    return [{"arch": a, "seed": 0, "loss": T3.H(T3.Config()) + g, "gap": g, "H": T3.H(T3.Config()),
             "ood_best": ood, "ood_pre_ft": 0.0, "ood_final": ood, "answer_acc_pt": 1.0} for a, g in gaps.items()]


def test_rule_holds_on_the_printed_table_and_refutes_planted_rows():
    printed = {a: T3.PRINTED[a][0] - T3.PRINTED["optimum"] for a in T3.ARCHS}
    assert C.check_table3(rows(printed, ood=0.99)).status is Status.HOLDS
    learned = dict(printed, **{"attention-only": 0.02})                   # attention-only learns
    v = C.check_table3(rows(learned, ood=0.99))
    assert v.status is Status.REFUTED and v.counterexample["arch"] == "attention-only"
    stuck = dict(printed, simplified=0.6)                                 # simplified far from H
    v = C.check_table3(rows(stuck, ood=0.99))
    assert v.status is Status.REFUTED and v.counterexample["arch"] == "simplified"
    v = C.check_table3(rows(printed, ood=0.5))                            # no extraction after FT
    assert v.status is Status.REFUTED and v.counterexample["ood_best"] == 0.5


def ctx_rows(gaps: dict):
    return [{"arch": a, "loss": 1.0, "gap": g, "ood_best": 1.0 if g < 0.05 else 0.5, "ood_pre_ft": 0.0,
             "answer_acc_pt": 1.0} for a, g in gaps.items()]


def test_context_rule_each_outcome():
    cfg = C.QUICK_C
    both_fail = ctx_rows({"uniform": 1.5, T3.UNIFORM_SIMPLIFIED: 1.8, "simplified": 0.01})
    assert C.check_context(cfg, (), rows=both_fail).status is Status.HOLDS
    both_learn = ctx_rows({"uniform": 0.01, T3.UNIFORM_SIMPLIFIED: 0.02})               # planted: uniform succeeds
    v = C.check_context(cfg, (), rows=both_learn)
    assert v.status is Status.REFUTED and v.counterexample["gap"] <= 0.05
    stuck = ctx_rows({"uniform": 1.5, T3.UNIFORM_SIMPLIFIED: 1.8, "simplified": 0.7})   # planted: ours fails too
    v = C.check_context(cfg, (), rows=stuck)
    assert v.status is Status.REFUTED and v.counterexample["arch"] == "simplified"
    mixed = ctx_rows({"uniform": 0.01, T3.UNIFORM_SIMPLIFIED: 1.8})
    assert C.check_context(cfg, (), rows=mixed).status is Status.INCONCLUSIVE


def test_uniform_simplified_keeps_attention_uniform():
    r = T3.build(T3.UNIFORM_SIMPLIFIED, TINY, 20, 0)
    assert not r.Z.requires_grad and float(r.Z.abs().max()) == 0.0


def test_context_norms_flip_is_inconclusive_and_agreement_is_kept():
    cfgs = [dataclasses.replace(C.QUICK_C, context_norm=1.0), C.QUICK_C]
    good = ctx_rows({"uniform": 1.5, T3.UNIFORM_SIMPLIFIED: 1.8, "simplified": 0.01})
    bad = ctx_rows({"uniform": 1.5, T3.UNIFORM_SIMPLIFIED: 1.8, "simplified": 0.7})
    assert C.check_context_norms(cfgs, (), runs=[good, good]).status is Status.HOLDS
    assert C.check_context_norms(cfgs, (), runs=[bad, bad]).status is Status.REFUTED
    assert C.check_context_norms(cfgs, (), runs=[good, bad]).status is Status.INCONCLUSIVE


# --- the attention-only readings (issue 18): the authors' reading, the standard one, and the finding they support ----

from derivations.knowledge.experiments import attention_only as A  # noqa: E402


def reading_rows(gaps: dict, ood: float = 0.0):
    return [dict(r, log_V=5.4) for r in rows(gaps, ood)]


def table_with_readings(std_gap: float, authors_gap: float, others: float = 0.3):
    printed = {a: T3.PRINTED[a][0] - T3.PRINTED["optimum"] for a in T3.ARCHS}
    base = rows(dict(printed, **{"attention-only": std_gap}), ood=0.99)
    alt = reading_rows({"simplified-no-mlp": authors_gap, "simplified-no-mlp-k1": authors_gap,
                        "no-residual": others, "tied-head": others, "no-residual-tied": others})
    return base, alt


def test_every_attention_only_reading_runs_and_the_authors_reading_cannot_learn():
    tiny = dataclasses.replace(TINY, gd_steps=5)
    for arch in A.ARCHS:
        r = A.run(arch, tiny, 0)
        assert np.isfinite(r["loss"]) and 0 <= r["ood_best"] <= 1 and math.isclose(r["log_V"], math.log(2 * 6 + 8 + 1))
    # by construction: F_v = κ⟨x_v, Xα⟩ is largest on a prompt token, whatever Z (a planted large random Z too)
    data = T3.make_data(TINY, 0)
    net = A.build("simplified-no-mlp", TINY, data.V, 0)
    with __import__("torch").no_grad():
        net.Z.normal_(0, 10.0)
        pred = net(data.E, data.pt[0]).argmax(1)
    assert all(int(p) in set(t) for p, t in zip(pred.tolist(), data.pt[0].tolist()))
    assert not any(int(p) == y for p, y in zip(pred.tolist(), data.pt[1].tolist()))


def test_standard_learns_authors_fail_is_a_reading_refutation():
    base, alt = table_with_readings(std_gap=0.005, authors_gap=4.6)
    v = C.check_table3(base, readings=alt)
    assert v.status is Status.REFUTED and v.counterexample["arch"] == "attention-only"
    assert v.details["finding_by_evidence"] == "reading"
    assert v.details["attention-only fails (simplified-no-mlp)"]["status"] == "holds"
    assert C.as_registered(v).status is Status.REFUTED


def test_planted_authors_reading_that_learns_changes_the_class_and_is_refuted():
    base, alt = table_with_readings(std_gap=0.005, authors_gap=0.01)          # planted: their model learns
    v = C.check_table3(base, readings=alt)
    assert v.details["attention-only fails (simplified-no-mlp)"]["status"] == "refuted"
    assert v.details["finding_by_evidence"] == "every reading learns"
    assert C.as_registered(v).status is Status.INCONCLUSIVE                   # the registered 'reading' no longer fits


def test_planted_standard_reading_that_fails_removes_the_refutation():
    base, alt = table_with_readings(std_gap=4.8, authors_gap=4.6, others=2.0)  # planted: the printed row everywhere
    v = C.check_table3(base, readings=alt)
    assert v.status is Status.HOLDS and v.details["finding_by_evidence"] is None
    assert C.as_registered(v).status is Status.HOLDS
    base, alt = table_with_readings(std_gap=0.3, authors_gap=4.6)             # partial: neither learns nor fails
    v = C.check_table3(base, readings=alt)
    assert v.status is Status.INCONCLUSIVE and v.details["finding_by_evidence"] is None


def test_outcome_thresholds():
    r = lambda g: {"gap": g}  # noqa: E731
    assert [C.attention_only_outcome(r(g)) for g in (0.01, 0.05, 0.5, 1.0, 4.8)] == \
        ["learns", "learns", "partial", "fails", "fails"]
