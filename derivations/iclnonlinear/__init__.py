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
    file_sha256="858e0cad0319f2bf956f57b35a5b3b595f6d4c9d4cfaa09d53614f02e9a8b423",
    spec="iclnonlinear.md",
    spec_sha256="3561ca8840afb88c7d3e68146ec7b78e7855688514fd9f05b7241dcef5a99edf",
)
