"""Wang, Yu, E, Wu — "How Transformers Implement Induction Heads: Approximation and Optimization
Analysis" (arXiv 2410.11474, v1 numbering).  Catalogue: ``shared/spec/inductionheads.md``.

Nearly every formula of this paper was lost in extraction.  The models here are rebuilt from the
prose and from public reviews (spec §1–2); every reconstruction choice is a named entry of
:mod:`.model.recon` (RC-1 … RC-19 of spec §2.7, and RC-20: the layer-2 key range of the Sec. 4
constructions) and is recorded in each claim's ``choices``.

Layout (the uniform paper layout): ``printed/`` (the one surviving display, R2's Thm 4.3 Step 1, and the surviving
sentences of every statement and proof, transcribed once), ``model/`` (the reconstruction from primitives: SymPy
derivations and an independent torch model), ``experiments/`` (flows, GD runs, sup-error searches, sweeps),
``claims/`` (one module per part of the paper, in the paper's order), ``contexts.py`` (step contexts)."""
from theoryverify import Paper

from .model.recon import DEFAULTS as _RC

PAPER = Paper(
    id="inductionheads",
    title="How Transformers Implement Induction Heads: Approximation and Optimization Analysis",
    file="induction-heads-approx-optim.txt",
    file_sha256="2df451d31546d5f42c9a40ccd56df3345152b717457207793884ca50ef193d6a",
    spec="inductionheads.md",
    spec_sha256="dd240c308afaf342b6e93d174a636761bcc358c50fca9b28d3714a2ca201a5a1",
    reads_text=True,  # the proof-consistency claims (claims/proof_consistency.py) quote it
    # RC-18 (which arXiv version's numbering is cited) is a citation choice, not a reconstructed object
    reconstruction=frozenset(k for k in _RC if k != "RC-18"),
)
