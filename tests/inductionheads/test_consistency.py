"""Proof-consistency records (derivations/inductionheads/printed/proof_text.py, experiments/consistency.py,
claims/proof_consistency.py).

Every quote must occur verbatim at its line of the paper text (whitespace normalised, ``[…]`` removed); planted
errors — a misquote, a wrong line, an unknown linked claim id, a wrong cross-reference target, a broken parameter
count — must be refuted with a counterexample naming them."""
from dataclasses import replace

import pytest
from cputime import cpu_time

from derivations.inductionheads.claims import proof_consistency as CC
from derivations.inductionheads.experiments import consistency as C
from derivations.inductionheads.printed import proof_text as P
from theoryverify import registry
from theoryverify.verdicts import Status

pytestmark = pytest.mark.skipif(C.paper_path() is None, reason="paper text not present next to this checkout")


@pytest.fixture(scope="module")
def lines():
    return C.paper_lines()


@pytest.fixture(scope="module")
def known():
    return {c.id for c in registry.claims(paper="inductionheads")}


@pytest.mark.parametrize("rec", P.RECORDS, ids=lambda r: r.key)
def test_every_quote_occurs_at_its_line(rec, lines):
    assert C.verify_quotes(C.quotes(rec), lines) == []


def test_text_items_are_verbatim(lines):
    for item in P.TEXT_ITEMS:
        assert C.verify_quotes([(item.name, q) for q in item.quotes], lines) == [], item.name


@pytest.mark.parametrize("rec", P.RECORDS, ids=lambda r: r.key)
def test_linked_claims_exist_and_are_not_consistency_claims(rec, known):
    for cid in C.linked_claims(rec):
        assert P.PAPER_PREFIX + cid in known, cid
        assert not cid.startswith("pc-")


def test_records_cover_the_results_and_keys_are_unique():
    keys = [r.key for r in P.RECORDS]
    assert len(keys) == len(set(keys))
    results = " ".join(r.result for r in P.RECORDS)
    for name in ("Lemma 5.3", "Lemma 5.4", "Theorem 5.5", "C.1", "C.2", "C.3", "Theorem 4.1", "Theorem 4.3",
                 "Theorem 4.4", "Lemma A.6", "Definition A.7", "Lemma D.1", "Lemma D.2", "Lemma D.3", "Lemma D.4",
                 "Definition D.5", "Lemma D.6", "Proposition A.4"):
        assert name in results, name


def test_normalisation_is_whitespace_and_lost_marker_only():
    assert C.normalise("Let […] satisfy  Eq. (4).") == "Let satisfy Eq. (4)."
    assert C.normalise("regime ([…])") == "regime ()"
    assert C.normalise("a\n b") == "a b"


# ---- planted errors -------------------------------------------------------------------------------------------

def _plant_use_quote(rec, new_text=None, new_line=None):
    u = rec.uses[0]
    q = P.Quote(new_line or u.quote.line, new_text or u.quote.text)
    return replace(rec, uses=(replace(u, quote=q),) + rec.uses[1:])


def test_planted_misquote_is_refuted(lines, known):
    rec = P.record_by_key("pc-lemma54")
    planted = replace(rec, uses=(replace(rec.uses[1], quote=P.Quote(126, "the training dynamics are reduced for five "
                                                                          "parameters")),) + rec.uses[2:])
    v = C.assess(planted, lines, known)
    assert v.status is Status.REFUTED and v.method == "quote verification"
    assert v.counterexample["misquotes"][0]["line"] == 126
    assert "five" in v.counterexample["misquotes"][0]["quote"]


def test_planted_wrong_line_is_refuted(lines, known):
    rec = P.record_by_key("pc-lemma53")
    v = C.assess(_plant_use_quote(rec, new_line=127), lines, known)
    assert v.status is Status.REFUTED
    bad = v.counterexample["misquotes"][0]
    assert bad["line"] == 127 and bad["occurs_at_lines"] == [126]


def test_planted_one_character_change_is_refuted(lines, known):
    rec = P.record_by_key("pc-thm41")
    q = rec.statement[0]
    planted = replace(rec, statement=(P.Quote(q.line, q.text.replace("single-head", "multi-head")),))
    v = C.assess(planted, lines, known)
    assert v.status is Status.REFUTED and v.counterexample["misquotes"][0]["in"] == "statement"


def test_planted_unknown_claim_id_is_refuted(lines, known):
    rec = P.record_by_key("pc-lemma54")
    step = rec.proof[1]
    planted = replace(rec, proof=(rec.proof[0], replace(step, claims=("l54-balanse",))) + rec.proof[2:])
    v = C.assess(planted, lines, known)
    assert v.status is Status.REFUTED and v.counterexample == {"unknown claim ids": ["l54-balanse"]}


def test_planted_wrong_cross_reference_is_refuted(lines, known):
    rec = P.record_by_key("pc-lemma54")
    ref = rec.crossrefs[0]
    planted = replace(rec, crossrefs=(replace(ref, target="Appendix B"),))
    v = C.assess(planted, lines, known)
    assert v.status is Status.REFUTED
    d = v.counterexample["discrepancies"][0]
    assert d["kind"] == "cross-reference" and d["use"][0]["line"] == 126 and 341 in [s["line"] for s in d["statement"]]


def test_planted_parameter_count_is_refuted(lines, known):
    bad = tuple(ln.replace("This layer has 5 trainable parameters", "This layer has 6 trainable parameters")
                for ln in lines)
    assert C.parameter_counts(lines)["consistent"] is True
    assert C.parameter_counts(bad)["consistent"] is False
    v = C.assess(P.record_by_key("pc-lemma54"), bad, known)
    assert v.status is Status.REFUTED and v.counterexample["discrepancies"][0]["kind"] == "variables"


def test_differs_without_discrepancy_is_rejected(lines, known):
    rec = P.record_by_key("pc-thm55-c3")
    v = C.assess(replace(rec, discrepancies=()), lines, known)
    assert v.status is Status.REFUTED and v.method == "record schema"


# ---- the findings ---------------------------------------------------------------------------------------------

def test_pod_cross_reference_discrepancy(lines, known):
    v = C.assess(P.record_by_key("pc-thm44"), lines, known)
    assert v.status is Status.REFUTED
    d = v.counterexample["discrepancies"][0]
    assert d["use"][0]["line"] == 77 and [s["line"] for s in d["statement"]] == [508, 273]


def test_thm55_simplification_discrepancy(lines, known):
    v = C.assess(P.record_by_key("pc-thm55-c3"), lines, known)
    assert v.status is Status.REFUTED
    d = v.counterexample["discrepancies"][0]
    assert d["kind"] == "hypotheses" and [q["line"] for q in d["use"]] == [409, 412, 503]


def test_without_its_discrepancy_c3_is_not_checkable(lines, known):
    rec = P.record_by_key("pc-thm55-c3")
    uses = tuple(u for u in rec.uses if "differs" not in u.aspects.values())
    v = C.assess(replace(rec, discrepancies=(), uses=uses), lines, known)
    assert v.status is Status.INCONCLUSIVE and "not checkable" in v.evidence


def test_a_record_with_nothing_lost_holds(lines, known):
    rec = replace(P.record_by_key("pc-lemma54"), missing=())
    assert C.assess(rec, lines, known).status is Status.HOLDS


@pytest.mark.parametrize("rec", P.RECORDS, ids=lambda r: r.key)
def test_registered_claims_as_expected_and_fast(rec):
    # this paper's claims only (registry.get loads every paper), also warming the cache outside the timing
    claim = {c.id: c for c in registry.claims(paper="inductionheads")}[P.PAPER_PREFIX + rec.key]
    with cpu_time() as t:
        result = claim.run()
    assert t.seconds < 0.25, t.seconds  # CPU seconds, load-proof
    assert result.as_expected, (result.verdict.status, result.verdict.evidence)
    assert claim.catalogue_id == rec.catalogue_id and claim.statement.startswith("proof consistency of")
    if rec.key in CC.ERRATA:
        assert result.verdict.counterexample["discrepancies"]


# ---- a planted twin for every record ----------------------------------------------------------------------------

@pytest.mark.parametrize("rec", P.RECORDS, ids=lambda r: r.key)
def test_every_record_rejects_a_planted_misquote(rec, lines, known):
    q = rec.statement[-1]
    planted = replace(rec, statement=rec.statement[:-1] + (P.Quote(q.line, q.text + " not"),))
    v = C.assess(planted, lines, known)
    assert v.status is Status.REFUTED and v.counterexample["misquotes"][0]["line"] == q.line


@pytest.mark.parametrize("rec", [r for r in P.RECORDS if r.tested_by], ids=lambda r: r.key)
def test_every_record_rejects_a_planted_claim_id(rec, lines, known):
    planted = replace(rec, tested_by=(rec.tested_by[0] + "-x",) + rec.tested_by[1:])
    v = C.assess(planted, lines, known)
    assert v.status is Status.REFUTED and v.counterexample == {"unknown claim ids": [rec.tested_by[0] + "-x"]}
