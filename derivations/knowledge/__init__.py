"""Xu, Chen — "Filtering with Self-Attention and Storing with MLP: One-Layer Transformers Can Provably
Acquire and Extract Knowledge" (arXiv 2508.00901).  Catalogue: ``shared/spec/knowledge.md``.

Almost every formula of this paper was lost in extraction: the model and data here are rebuilt from
the prose (spec §1), and every reconstruction choice is a named field of :class:`model.setup.Recon`,
recorded in each claim's ``choices`` (the paper's reconstruction registry, ``PAPER.reconstruction``).

Layout (the uniform paper layout): ``printed/`` (the few displays and numbers that survive, transcribed once),
``model/`` (the one-layer transformer and the synthetic data from their primitives: SymPy side, torch side,
the entropy of the data), ``experiments/`` (pre-training and fine-tuning runs, sweeps, the App. A experiment),
``claims/`` (one module per part of the paper, in the paper's order: ``claims.ORDER``), ``contexts.py`` (step
contexts).
"""
from dataclasses import fields

import theoryverify as tv

from .model.setup import Recon


PAPER = tv.Paper(
    id="knowledge",
    title="Filtering with Self-Attention and Storing with MLP: One-Layer Transformers Can Provably "
          "Acquire and Extract Knowledge",
    file="knowledge-acquisition-extraction.txt",
    file_sha256="1bf86fa51a75987d6b61caf3f9a440e69ccc345a053624a7f23d85f1a5f0454b",
    spec="knowledge.md",
    spec_sha256="4f1e9a1ef6cdbb308e5679f9e54e0ad6dc7fdfd44730dcddc79583a4d945071b",
    reconstruction=frozenset(f.name for f in fields(Recon)),
)
