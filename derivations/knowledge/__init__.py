"""Xu, Chen — "Filtering with Self-Attention and Storing with MLP: One-Layer Transformers Can Provably
Acquire and Extract Knowledge" (arXiv 2508.00901).  Catalogue: ``shared/spec/knowledge.md``.

Almost every formula of this paper was lost in extraction: the model and data here are rebuilt from
the prose (spec §1), and every reconstruction choice is a named field of :class:`setup.Recon`,
recorded in each claim's ``choices``."""
from dataclasses import fields

from theoryverify.claims import Paper

from .setup import Recon

PAPER = Paper(
    id="knowledge",
    title="Filtering with Self-Attention and Storing with MLP: One-Layer Transformers Can Provably "
          "Acquire and Extract Knowledge",
    file="knowledge-acquisition-extraction.txt",
    spec="knowledge.md",
    reconstruction=frozenset(f.name for f in fields(Recon)),
)
