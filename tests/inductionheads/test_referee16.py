"""Referee 16 on inductionheads: the Thm 5.5 phase claims whose quick runs use the approximated loss (22) say so in
plain words, as t55-plateau does."""
from theoryverify import registry


def test_the_phase_claims_name_the_loss_their_runs_use():
    claims = {c.id.split(".", 1)[1]: c for c in registry.claims(paper="inductionheads")}
    for cid in ("t55-plateau", "t55-expgrowth", "t55-width", "t55-conv-IH"):
        st = claims[cid].statement
        assert "approximated loss (22)" in st and "exact objective (11)" in st, cid


def test_the_refuted_consistency_records_carry_the_papers_words():
    """The review quotes the paper's words, never the tool's sentence: the two refuted proof-consistency records
    give the surviving lines their discrepancy is between; t43-norm (R2's transcription of v3, not the audited
    text) gives none."""
    claims = {c.id.split(".", 1)[1]: c for c in registry.claims(paper="inductionheads")}
    assert "(see Appendix D for details)" in claims["pc-thm44"].quote
    assert "objective (11)" in claims["pc-thm55-c3"].quote and "into the loss (22)" in claims["pc-thm55-c3"].quote
    assert claims["t43-norm"].quote is None
