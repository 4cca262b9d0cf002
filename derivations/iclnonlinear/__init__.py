"""Li, Duan, Liang — "Provable In-Context Learning of Nonlinear Regression with Transformers".
Catalogue: ``shared/spec/iclnonlinear.md``."""
from theoryverify.claims import Paper

PAPER = Paper(
    id="iclnonlinear",
    title="Provable In-Context Learning of Nonlinear Regression with Transformers",
    file="icl-nonlinear-regression.txt",
    spec="iclnonlinear.md",
)
