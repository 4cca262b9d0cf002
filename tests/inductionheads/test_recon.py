"""The reconstruction registry: RC-20 (layer-2 key range) is a reconstruction entry and is recorded by the claims
whose constructions mask layer-2 keys; the refuted claims carry their finding classes."""
from theoryverify import registry
from theoryverify.findings import Finding

from derivations.inductionheads import PAPER
from derivations.inductionheads.model.recon import DEFAULTS, record


def test_rc20_is_a_reconstruction_entry():
    assert "RC-20" in DEFAULTS and "RC-20" in PAPER.reconstruction and "RC-18" not in PAPER.reconstruction
    assert record("RC-20")["RC-20"] == DEFAULTS["RC-20"]


def test_layer2_mask_is_recorded_where_the_constructions_use_it():
    claims = {c.id: c for c in registry.claims(paper="inductionheads")}
    for cid in ("t41-rate", "t41-rate-full", "t41-lindep", "t41-lindep-full", "t43-rate", "t43-rate-full",
                "t44-rate-full"):
        assert "RC-20" in claims["inductionheads." + cid].choices, cid


def test_refuted_claims_are_classified():
    # issue 17 re-audit: da7-infinite-rank (Def. A.7's uniform Lipschitz bounds force finite rank) joins the three
    # referee 16: t43-norm (R2's v3 display stands in for the lost v1 display, RC-22) and ld6-karamata-literal
    # (Lemma D.6's conclusion is lost and supplied by the tool, RC-23) are reconstruction findings
    expected = {"pc-thm44": Finding.TYPO, "pc-thm55-c3": Finding.PROOF_GAP, "t43-norm": Finding.RECONSTRUCTION,
                "da7-infinite-rank": Finding.READING,
                # issue 27: Lemma D.6 as its words survive (x = (1,1), y = (0,0), f = e^{-t})
                "ld6-karamata-literal": Finding.RECONSTRUCTION}
    got = {c.id.split(".", 1)[1]: c.finding for c in registry.claims(paper="inductionheads") if c.finding}
    assert got == expected


def test_lost_displays_are_reconstruction_entries_recorded_by_their_refutations():
    """Referee 16: a refutation of a stand-in for a lost display (R2's v3 transcription; the tool's completion of
    Lemma D.6) records the stand-in as a reconstruction choice and claims no independence from it."""
    claims = {c.id.split(".", 1)[1]: c for c in registry.claims(paper="inductionheads")}
    for rc, cid in (("RC-22", "t43-norm"), ("RC-23", "ld6-karamata-literal")):
        assert rc in DEFAULTS and rc in PAPER.reconstruction, rc
        assert claims[cid].choices.get(rc) == DEFAULTS[rc], cid
        assert claims[cid].despite_reconstruction is None, cid
