"""Proof consistency (spec §3) of every lemma, proposition, definition and theorem: one claim per record of
:mod:`..printed.proof_text` (the surviving text), assessed by :mod:`..experiments.consistency`.

Each check verifies that every quote of the record occurs verbatim at its line of the paper text (whitespace
normalised, ``[…]`` = lost material), that every linked claim exists in the registry, resolves the record's
cross-references, and then returns

* refuted — a discrepancy the surviving text itself shows (the two quotes with their lines are the counterexample);
  a misquote or an unknown claim id is refuted too (the planted-error kind of these checks);
* inconclusive — "not checkable: <missing piece>" when the compared pieces are lost;
* holds — consistent, nothing lost.

The linked claims are cited by id (with the registry's expected verdict), never re-run here.
"""
from __future__ import annotations

from theoryverify import ClaimSet, Finding, Kind, Status, Unavailable, registry

from ..experiments import consistency as C
from ..model.recon import record
from ..printed import proof_text as P

CLAIMS = ClaimSet("inductionheads")

RULE = ("refuted: a discrepancy shown by the surviving text (or a misquote / unknown claim id); inconclusive: the "
        "compared pieces are lost; holds: consistent with nothing lost")

#: the records whose discrepancy the surviving text shows: class, one-line reason, and the engine fields.
#: Both discrepancies are in the surviving words themselves; the RC entries recorded with the records describe
#: how the *statements* are completed and enter neither discrepancy (hence ``despite_reconstruction``).
FINDINGS = {
    "pc-thm44": dict(
        finding=Finding.TYPO,
        reason="misdirected cross-reference: l.77 sends the POD details to 'Appendix D' (Useful Inequalities, lines "
               "508-, no POD); they are in App. A.3.2 (l.273); the meaning is evident and no conclusion changes",
        despite_reconstruction="the discrepancy is between two surviving lines (l.77 and the appendix headings "
                               "l.273/l.508); no reconstructed formula, constant or model enters it",
        # the paper's words (referee 16: the review quotes these, not the tool's sentence); lost symbols as […]
        quote="its POD is […], where […] are orthonormal bases for […] (see Appendix D for details) (l.77) … "
              "Appendix D Useful Inequalities (l.508)"),
    "pc-thm55-c3": dict(
        finding=Finding.PROOF_GAP,
        supports=("inductionheads.t55-plateau", "inductionheads.t55-plateau-exact-full",
                  "inductionheads.alt-exact-gd-full"),
        reason="Thm 5.5 is stated for GF on objective (11) (l.108/133), but C.3 proves Phases II-III on the "
               "approximated loss (22) (l.409, l.503) with no surviving transfer back to (11); the statement survives "
               "on (11): exact-softmax GD keeps T_IH(0.5) linear in log(1/sigma) (t55-plateau-exact-full, L = 25; "
               "alt-exact-gd-full, L = 50, 100), with coefficient N/((1-a*)^2 w*) = c_sigma/(1-w*^2)^2, a bounded "
               "factor the Theta estimate absorbs",
        despite_reconstruction="the gap is shown by surviving sentences (l.108 'objective (11)', l.409 'approximation "
                               "of the loss function', l.503 'into the loss (22)'); it holds whatever form the lost "
                               "simplification (RC-12) or hypotheses (RC-13) take",
        quote="We analyze the GF for minimizing the objective (11): (l.108) … Thus, we adopt the simplification used "
              "in Bai et al. [2023], resulting in the following approximation of the loss function: (l.409) … Now we "
              "incorporate these facts ( […], […], […], […]) into the loss (22). (l.503)"),
}
#: kept for readers of older notes: the refuted records and their reasons.
ERRATA = {k: v["reason"] for k, v in FINDINGS.items()}


def _expected_labels() -> tuple[set[str], dict[str, str]]:
    claims = registry.claims(paper="inductionheads")
    return {c.id for c in claims}, {c.id: c.expected_label for c in claims}


def check_record(rec: P.Record, lines: tuple[str, ...] | None = None, known_ids: set[str] | None = None):
    """The verdict of one record; ``lines`` / ``known_ids`` default to the paper text and the registry."""
    if lines is None:
        if C.paper_path() is None:
            raise Unavailable(f"paper text {C.PAPER_FILE} not found next to this checkout (set {C.PAPERS_DIR_ENV}); "
                              "quotes cannot be verified")
        lines = C.paper_lines()
    ids, expected = _expected_labels()
    return C.assess(rec, lines, ids if known_ids is None else known_ids, expected)


def _register(rec: P.Record) -> None:
    refuted = rec.key in FINDINGS
    choices = {**record(*rec.rc), "reading": "proof consistency of the surviving text (spec §3 a-e)",
               "completion": rec.completion or "(none: standard / cited)", "verdict rule": RULE}

    @CLAIMS.add(rec.key, location=rec.location, kind=Kind.IDENTITY, catalogue_id=rec.catalogue_id,
                statement=f"proof consistency of {rec.result} (spec §3): the surviving statement, proof sentences and later "
                          f"uses compared with one another as they stand (quotes verified at their lines); lost pieces "
                          f"are named, not reconstructed"
                          + (f" — {', '.join(rec.rc)} complete the statement only to link the claims that test it "
                             f"on the reconstruction" if rec.rc else ""),
                choices=choices,
                expect=Status.REFUTED if refuted else (None if not rec.missing else Status.INCONCLUSIVE),
                **FINDINGS.get(rec.key, {}))
    def _check(ctx, rec=rec):
        return check_record(rec)


for _rec in P.RECORDS:
    _register(_rec)
