"""Huang, Nichani, Lee, Ge — "Fine-Tuning Dynamics of In-Context Factual Recall in Transformers"
(arXiv 2605.27774v1).  Catalogue: ``shared/spec/icrecall.md``."""
from theoryverify import Paper

PAPER = Paper(
    id="icrecall",
    title="Fine-Tuning Dynamics of In-Context Factual Recall in Transformers",
    file="icrecall-finetuning-dynamics.txt",
    file_sha256="9405a859a6c67c748591e78bac62a74b404ec38b93fa7ca844a6ab573f5bef48",
    spec="icrecall.md",
    spec_sha256="69c4c1723126e74031eae1570a8c9bdfcb97a0b975d5298c6464d438776c5e6d",
)
