"""Li, Duan, Liang — "Provable In-Context Learning of Nonlinear Regression with Transformers".
Catalogue: ``shared/spec/iclnonlinear.md``.

Layout (the uniform paper layout): ``printed/`` (each display of the paper that a claim checks, transcribed once:
the displays, the asymptotic forms of the proofs with their quotes, the standing hypotheses), ``model/`` (the model
from its primitives: the SymPy side, the independent token-level torch side, the derived gradient tables and reduced
model, the order algebra of the proof bookkeeping), ``experiments/`` (the batched q-space GD simulator, the phase
measurements and sweeps, the Sec. 6 network, draws and searches), ``claims/`` (one module per part of the paper, in
the paper's order: ``claims.ORDER``), ``contexts.py`` (the step context ``iclnonlinear.k2``).
"""
import theoryverify as tv

__version__ = "0.2.0"

PAPER = tv.Paper(
    id="iclnonlinear",
    title="Provable In-Context Learning of Nonlinear Regression with Transformers",
    file="icl-nonlinear-regression.txt",
    spec="iclnonlinear.md",
)
