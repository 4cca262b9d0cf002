"""Planted-error twins of the pre-training checks (claims/s6_pretraining.py, s5_acquisition.py, app_g_finetuning.py): each check, fed a wrong threshold,
exponent, entropy or ordering, must reach the other verdict — with a counterexample when it refutes."""
import dataclasses

import numpy as np

from derivations.knowledge.claims import app_g_finetuning as G, s5_acquisition as A, s6_pretraining as C
from derivations.knowledge import hypotheses as H
from derivations.knowledge.experiments import pretrained as P
from theoryverify import RunContext, Status


def ctx(seed: int = 0, **params) -> RunContext:
    """A run context carrying a claim's parameters (what the registry passes the registered check)."""
    return RunContext(seed=seed, params=params)


def refutes(v):
    assert v.status is Status.REFUTED, (v.status, v.evidence)
    assert v.counterexample
    return v


def test_pretrained_is_cached_and_returns_copies():
    a, kn, rec = P.pretrained(6, 2, 2, 4, 0, P.DEFAULT_RECON, stages=(5, 10, 20))
    a.W.zero_()
    a.trace["loss"].clear()
    b, kn2, _ = P.pretrained(6, 2, 2, 4, 0, P.DEFAULT_RECON, stages=(5, 10, 20))
    assert kn2 is kn and rec is P.DEFAULT_RECON
    assert b.W.abs().sum() > 0 and len(b.trace["loss"]) > 0


def test_state_at_is_a_prefix_of_the_default_run():
    st, _, _ = C.state_at(C.STAGES[0])
    full, _, _ = C.default_run()
    k = P.stage_index(full, C.STAGES[0])
    assert np.isclose(st.trace["loss"][-1], full.trace["loss"][k], rtol=0, atol=1e-12)


def test_filter_planted_threshold_is_refuted():
    assert C.check_filter(ctx(which="3")).status is Status.HOLDS
    v = refutes(C.check_filter(ctx(which="3"), tau=1e-12))
    assert v.counterexample["tau"] == 1e-12


def test_filter_cs_holds_with_a_loose_threshold():
    assert C.check_filter(ctx(which="2"), tau=0.99).status is Status.HOLDS


def test_stage1_planted_exponent_and_jump_are_refuted():
    refutes(C.check_stage1(ctx(0, etas_small=(1.0, 1.5, 2.0, 3.0), etas_large=(), seeds=(0, 1)), exponent=-2.0))
    refutes(C.check_stage1(ctx(0, etas_small=(1.0, 1.5, 2.0, 3.0), etas_large=(10.0,), seeds=(0,)), jump_steps=0))


def test_ratio_planted_growth_is_refuted():
    fake = lambda n, s: np.full(5, float(n))  # noqa: E731  ratio ∝ N_f: not Θ(1)
    refutes(C.check_ratio(ctx(0, sizes=(10, 20, 40, 80), seeds=(0, 1)), fn=fake))
    const = lambda n, s: np.full(5, 2.0 + 0.01 * s)  # noqa: E731
    assert C.check_ratio(ctx(0, sizes=(10, 20, 40, 80), seeds=(0, 1)), fn=const).status is Status.HOLDS


def test_floor_holds_for_a_lower_floor():
    refutes(C.check_floor())
    assert C.check_floor(floor=0.05).status is Status.HOLDS


def test_slot_holds_with_a_loose_epsilon():
    assert C.check_slot(eps=0.8).status is Status.HOLDS
    assert C.check_slot().status is Status.INCONCLUSIVE


def test_facts_planted_tolerances_are_refuted():
    assert C.check_facts().status is Status.HOLDS
    refutes(C.check_facts(eps=0.01))
    refutes(C.check_facts(rel_tol=1e-3))


def test_ptloss_planted_entropy_and_epsilon_are_refuted():
    assert A.check_ptloss().status is Status.HOLDS
    v = refutes(A.check_ptloss(H_fn=lambda kn, rec: C.H_of(kn, rec) + 0.1))   # a wrong (too large) optimum
    assert v.counterexample["loss"] < v.counterexample["H"]
    refutes(A.check_ptloss(eps=1e-4))


def test_schedule_check_can_hold():
    v = C.check_schedule(ctx(schedules=("3-stage (10,5,1)", "constant 20"), seeds=(0,)))
    assert v.status is Status.HOLDS, v.evidence


def test_schedule_strong_reading_failure_is_inconclusive_and_planted_epsilon_refutes():
    q = ctx(schedules=("3-stage (10,5,1)", "constant 10"), seeds=(0,))
    v = C.check_schedule(q)
    assert v.status is Status.INCONCLUSIVE and "strong reading" in v.evidence, v.evidence
    refutes(C.check_schedule(q, eps=1e-4))          # planted: the three-stage schedule must reach H + 1e-4


def test_frozen_attention_planted_tolerance_and_wz():
    assert G.check_frozen().status is Status.HOLDS
    refutes(G.check_frozen(tol=0.0))
    assert G.check_frozen(recon=dataclasses.replace(C.REC, ft_params="W+Z"), tol=0.5).status is Status.HOLDS


def test_halluc_check_holds_where_relations_win():
    """μ_c = 6 (sweep): attention collapses onto r and every Q&A prompt predicts a relation."""
    assert G.check_halluc(recon=dataclasses.replace(C.REC, mu_c=6.0)).status is Status.HOLDS


def test_ptloss_decay_rule_refutes_a_planted_plateau():
    grid = (750, 1500, 3000, 6000, 12000)
    assert A.decay_verdict(grid, [3.0 / T for T in grid], 0).status is Status.HOLDS
    plateau = [0.01 * (1 + 0.001 * (-1) ** k) for k in range(len(grid))]
    refutes(A.decay_verdict(grid, plateau, 0))


# --- issue 18, Part B (session 24): the pre-training passes over seeds, sizes and the reconstruction sweep ----------

def test_filter_sizes_holds_and_planted_threshold_is_refuted():
    sizes = (5, 10, 20, 50)
    v = C.check_filter(ctx(which="3", sizes=sizes))
    assert v.status is Status.HOLDS, v.evidence
    assert sorted(c["N_f"] for c in v.details["configurations"]) == list(sizes)
    v = refutes(C.check_filter(ctx(which="3", sizes=sizes), tau=1e-12))
    assert v.counterexample["N_f"] in sizes and v.counterexample["tau"] == 1e-12


def _early_row(mu_c=3.0, kappa=1.0, etas=(10.0, 5.0, 1.0), seed=0, N_f=20, ac3=0.0, pa=0.95, dev=0.01, acc=1.0):
    return {"mu_c": mu_c, "kappa": kappa, "etas": list(etas), "seed": seed, "N_f": N_f, "ac3_T1": ac3,
            "min_pa_T2": pa, "max_dev_pr_T2": dev, "acc_T2": acc}


def _early_rows(**planted):
    """A grid of clean rows (N_f 8–80, seeds 0–2, two μ_c) with one row replaced by ``planted`` (at N_f = 40)."""
    rows = [_early_row(mu_c=m, N_f=n, seed=s) for m in (2.0, 3.0) for n in (8, 20, 40, 80) for s in (0, 1, 2)]
    if planted:
        rows[-4] = _early_row(N_f=40, seed=2, **planted)
    return rows


def test_filter_csr_sweep_refutes_a_planted_unfiltered_run():
    v = C.filter_csr_sweep(rows=_early_rows())
    assert v.status is Status.HOLDS, v.evidence
    v = refutes(C.filter_csr_sweep(rows=_early_rows(ac3=0.3)))
    assert v.counterexample["N_f"] == 40 and v.counterexample["alpha_c"] == 0.3


def test_facts_sweep_holds_flips_and_refutes_at_the_default():
    assert C.facts_sweep(rows=_early_rows()).status is Status.HOLDS
    v = C.facts_sweep(rows=_early_rows(dev=0.33))              # one non-default run keeps p_r far from 1/K
    assert v.status is Status.INCONCLUSIVE and "flips" in v.evidence, v.evidence
    rows = _early_rows()
    rows[12] = _early_row(pa=0.5)                              # planted: the default run (μ_c 3, N_f 20, seed 0) fails
    assert (rows[12]["mu_c"], rows[12]["N_f"], rows[12]["seed"]) == (3.0, 20, 0)
    v = refutes(C.facts_sweep(rows=rows))
    assert v.counterexample["min_p_a"] == 0.5


def _loss_run(conf, gap_fn, H=0.5):
    t = np.arange(0, conf["T"] + 1, 10, dtype=float)
    return {**conf, "H": H, "t": t.tolist(), "loss": (H + gap_fn(np.maximum(t, 1.0))).tolist(), "acc_end": 1.0,
            "relmass_end": 1.0}


def test_ptloss_full_holds_flips_and_refutes_a_planted_default_plateau():
    decay = lambda t: 3.0 / t                      # noqa: E731  gap → 0
    plateau = lambda t: 0.44 + 0.0 * t             # noqa: E731  stuck above H
    confs = A.FULL_RUNS[:2]
    rows = [{"acc_end": 1.0, "gap": 0.01}] * 3
    v = A.check_ptloss_decay(ctx(), runs=[_loss_run(c, decay) for c in confs], rows=rows)
    assert v.status is Status.HOLDS, v.evidence
    v = A.check_ptloss_decay(ctx(), runs=[_loss_run(confs[0], decay), _loss_run(confs[1], plateau)], rows=rows)
    assert v.status is Status.INCONCLUSIVE and "flips" in v.evidence, v.evidence
    refutes(A.check_ptloss_decay(ctx(), runs=[_loss_run(confs[0], plateau), _loss_run(confs[1], decay)], rows=rows))
    # the sweep at T = 1500 only informs: a far run there leaves a decaying default inconclusive, never refuted
    v = A.check_ptloss_decay(ctx(), runs=[_loss_run(c, decay) for c in confs], rows=[{"acc_end": 1.0, "gap": 0.4}])
    assert v.status is Status.INCONCLUSIVE, v.evidence


def test_quick_pretraining_passes_record_their_one_configuration():
    """Quick t2-ptloss and p2-facts see one run: the engine's quantifier rule makes them inconclusive."""
    from theoryverify import registry
    for cid in ("knowledge.t2-ptloss", "knowledge.p2-facts"):
        res = registry.get(cid).run()
        assert res.verdict.status is Status.INCONCLUSIVE and "one configuration" in res.verdict.evidence, cid


# --- referee 15 (issue 27): the PT findings at Condition 1(4)'s width, Thm 2(1) over ε ----------------------------

def _width_row(m=96, mu_c=3.0, seed=0, gap=0.01, acc=1.0, smin=0.69, rmin=0.19, qa_rel=0.0, qa_ans=1.0):
    return {"m": m, "mu_c": mu_c, "seed": seed, "eta_rule": "8/m", "etas_m8": [10.0, 5.0, 1.0],
            "etas": [10.0 * 8 / m, 5.0 * 8 / m, 8 / m], "T": 1500, "gap": gap, "acc_end": acc, "smin_III": smin,
            "rmin_III": rmin, "qa_rel": qa_rel, "qa_ans": qa_ans}


def test_width_floor_refutes_flips_and_skips_runs_that_do_not_learn():
    rows = [_width_row(seed=s) for s in (0, 1, 2)] + [_width_row(m=128, rmin=0.22)]
    v = refutes(C.width_floor(rows))
    assert v.counterexample["m"] == 128 and v.counterexample["alpha_r_min"] == 0.22
    v = C.width_floor(rows[:3] + [_width_row(rmin=0.31, smin=0.6)])           # one learning run keeps the floor
    assert v.status is Status.INCONCLUSIVE and "flips" in v.evidence, v.evidence
    v = C.width_floor([_width_row(gap=1.87, acc=0.05, rmin=1.0, smin=0.0)])     # no run learns: nothing to judge
    assert v.status is Status.INCONCLUSIVE, v.evidence
    v = refutes(C.width_floor(rows + [_width_row(gap=1.87, acc=0.05, rmin=0.5, smin=0.5)]))
    assert v.counterexample["alpha_r_min"] == 0.22                              # the non-learning run is excluded


def test_halluc_width_refutes_flips_and_reports_the_answered_fraction():
    rows = [_width_row(seed=s) for s in (0, 1, 2)]
    v = refutes(G.halluc_width(rows))
    assert "own answer 1.00" in v.evidence and v.counterexample["fraction_relation"] == 0.0
    v = G.halluc_width(rows + [_width_row(qa_rel=1.0, qa_ans=0.0)])
    assert v.status is Status.INCONCLUSIVE and "flips" in v.evidence, v.evidence
    assert G.halluc_width([_width_row(gap=1.87, acc=0.05, qa_rel=1.0)]).status is Status.INCONCLUSIVE


def test_ptloss_eps_sweep_holds_and_planted_failures():
    conf = {"mu_c": 3.0, "kappa": 1.0, "seed": 0, "N_f": 20, "m": 96, "T": 8000}
    v = A.eps_sweep(ctx(), runs=[_loss_run(conf, lambda t: 20.0 / t)])
    assert v.status is Status.HOLDS, v.evidence
    part = v.details["m = 96, μ_c = 3, seed 0, T = 8000"]
    assert sorted(c["eps"] for c in part["details"]["configurations"]) == sorted(A.EPS_GRID)
    v = A.eps_sweep(ctx(), runs=[_loss_run(conf, lambda t: 0.01 + 0.0 * t)])   # planted plateau above ε = 0.004
    assert v.status is Status.INCONCLUSIVE and "not by T" in v.evidence, v.evidence
    refutes(A.eps_sweep(ctx(), runs=[_loss_run(conf, lambda t: -0.01 + 0.0 * t)]))  # planted: L below H


def test_facts_width_holds_flips_and_refutes():
    rows = [{"m": 96, "N_f": n, "seed": s, "min_pa_T2": 0.95, "max_dev_pr_T2": 0.01, "acc_T2": 1.0}
            for n in (4, 8, 20, 40) for s in (0, 1, 2)]
    v = C.facts_width(rows=rows)
    assert v.status is Status.HOLDS, v.evidence
    assert sorted({c["N_f"] for c in v.details["configurations"]}) == [4, 8, 20, 40]
    v = C.facts_width(rows=rows[:-1] + [{**rows[-1], "max_dev_pr_T2": 0.33}])       # one run keeps p_r off 1/K
    assert v.status is Status.INCONCLUSIVE and "flips" in v.evidence, v.evidence
    v = refutes(C.facts_width(rows=[{**r, "min_pa_T2": 0.5} for r in rows]))         # planted: every run fails
    assert v.counterexample["min_p_a"] == 0.5


def test_floor_at_m8_fails_outside_condition_1_and_its_width_condition_reads_m():
    """Lemma 14 holds under Condition 1, whose width (m ≳ 83) the default m = 8 misses: the engine shows the quick
    refutation as outside the stated hypotheses (it was a reconstruction finding before referee 15)."""
    from theoryverify import registry
    res = registry.get("knowledge.l14-attn-floor").run()
    assert res.verdict.status is Status.INCONCLUSIVE, res.verdict.evidence
    assert "fails outside the stated hypotheses" in res.verdict.evidence + res.verdict.method
    assert H.WIDTH_CONDITION.evaluate({"m": 96}) and not H.WIDTH_CONDITION.evaluate({"m": "8"})


def test_facts_full_rests_on_the_width_runs_and_reports_m8():
    wide = [{"m": 96, "N_f": n, "seed": s, "min_pa_T2": 0.95, "max_dev_pr_T2": 0.01, "acc_T2": 1.0}
            for n in (4, 8, 20, 40) for s in (0, 1, 2)]
    flips = _early_rows(dev=0.33)                                   # m = 8: one non-default run flips
    v = C.facts_full(rows=flips, width_rows=wide)
    assert v.status is Status.HOLDS and "outside Condition 1(4)" in v.evidence, v.evidence
    v = C.facts_full(rows=_early_rows(), width_rows=wide[:-1] + [{**wide[-1], "min_pa_T2": 0.5}])
    assert v.status is Status.INCONCLUSIVE, v.evidence                # the width runs flip: no pass
