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
