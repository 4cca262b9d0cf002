"""Huang, Nichani, Lee, Ge — "Fine-Tuning Dynamics of In-Context Factual Recall in Transformers"
(arXiv 2605.27774v1).  Catalogue: ``shared/spec/icrecall.md``."""
from theoryverify import Paper

PAPER = Paper(
    id="icrecall",
    title="Fine-Tuning Dynamics of In-Context Factual Recall in Transformers",
    file="icrecall-finetuning-dynamics.txt",
    spec="icrecall.md",
)
