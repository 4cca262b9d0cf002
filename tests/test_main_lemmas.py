"""Main lemmas (issue 27, session 35): the lemma claims that state a paper's main lemmas are registered main=True,
so the main-result rule applies to them — a pass must record what it ranges over and how it could have failed.
Planted: the same pass with its evidence stripped is inconclusive under the rule."""
import pytest

from theoryverify import registry
from theoryverify.standards import apply_main_result, is_main_result
from theoryverify.verdicts import Status, holds

MAIN_LEMMAS = (
    "icrecall.l5-saddle-point", "icrecall.L5-converge", "icrecall.L6-escape", "icrecall.l8-psi", "icrecall.l12",
    "icrecall.L4-acc13",
    "knowledge.l2-tail", "knowledge.l4-l7-maxgauss", "knowledge.l6-l9-coverage", "knowledge.l10-activation",
    "knowledge.l14-attn-floor", "knowledge.l17-frozen-attn", "knowledge.l18-preft-halluc",
    "iclnonlinear.lemma1-upper", "iclnonlinear.eq12-13-upper", "iclnonlinear.eq12-L-exponent", "iclnonlinear.l4-gkn",
    "iclnonlinear.l3-b1", "iclnonlinear.l3-b2", "iclnonlinear.l3-b3", "iclnonlinear.l3-sym", "iclnonlinear.l8-attn",
    "iclnonlinear.l6", "iclnonlinear.l10-attn",
    "inductionheads.l53-stageI", "inductionheads.l54-balance", "inductionheads.ld3-ld4-gauss",
)


def _claim(cid):
    paper = cid.split(".")[0]
    return next(c for c in registry.claims(paper=paper) if c.id == cid)


@pytest.mark.parametrize("cid", MAIN_LEMMAS)
def test_main_lemma_is_a_main_result(cid):
    assert is_main_result(_claim(cid))


@pytest.mark.parametrize("cid", ["icrecall.l12", "icrecall.L4-acc13", "knowledge.l10-activation"])
def test_a_main_lemma_pass_without_evidence_is_inconclusive(cid):
    """Planted: a bare 'holds' (no sweep, coverage, configurations, typed evidence) of a main lemma is downgraded."""
    v = apply_main_result(_claim(cid), holds("planted", "no evidence recorded"))
    assert v.status is Status.INCONCLUSIVE


def test_stage1_duration_sweep_records_the_hypotheses_parameters():
    """Session 42: the full l53-stageI's duration sweep recorded neither α* nor L, so α* ∈ (0, 1) and L ≥ 3 could not
    be checked on it (the row ended in 'error'); each point now records (α*, w*, σ, L), and an α* outside the
    hypothesis is seen."""
    from derivations.inductionheads import hypotheses as HYP
    from derivations.inductionheads.claims.s51_setup import stage1_duration_sweep
    v = stage1_duration_sweep(0, sigmas=(1e-1, 1e-2), Ls=(10, 30))
    configs = v.details["configurations"]
    assert len(configs) == 4 and all({"alpha", "sigma", "L"} <= set(c) for c in configs), configs
    assert all(HYP.ALPHA_STAR.evaluate(c) and HYP.L_LONG.evaluate(c) for c in configs)
    planted = stage1_duration_sweep(0, sigmas=(1e-1, 1e-2), Ls=(10, 30), alpha=1.2)
    assert not HYP.ALPHA_STAR.evaluate(planted.details["configurations"][0])
