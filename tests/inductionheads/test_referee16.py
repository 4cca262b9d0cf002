"""Referee 16 on inductionheads: the Thm 5.5 phase claims whose quick runs use the approximated loss (22) say so in
plain words, as t55-plateau does."""
from theoryverify import registry


def test_the_phase_claims_name_the_loss_their_runs_use():
    claims = {c.id.split(".", 1)[1]: c for c in registry.claims(paper="inductionheads")}
    for cid in ("t55-plateau", "t55-expgrowth", "t55-width", "t55-conv-IH"):
        st = claims[cid].statement
        assert "approximated loss (22)" in st and "exact objective (11)" in st, cid
