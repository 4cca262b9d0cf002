"""Step contexts of the IC-recall paper for ``python -m theoryverify.check``.

``icrecall.n3``: the three-subject warm-up of Section 4.1 / App. B, input (s1, a1, s2, a2, s3, EoS)
with r* = r1, relations r1..r6 numbered as in Table 1.  Every definition is taken from
:func:`derivations.icrecall.model.n3` (derived from the construction of Lemma 3), not re-typed.
"""
from __future__ import annotations

from theoryverify import LogUniform, Simplex
from theoryverify import StepContext, softmax_reparametrisation

from .model.symbolic import n3

POSITIONS = ("s1", "a1", "s2", "a2", "s3", "EoS")


def n3_definitions() -> dict:
    """l_s1..l_s3, l_a1..l_a3, l_r1..l_r6 (logits before division by T, Table 2 as derived),
    p_r1..p_r6 (first-step probabilities, softmax(l_r / T)), L1 (first-step loss, App. B/E)."""
    m = n3()
    defs = {f"l_{tok}": m.all_logits[tok] for tok in ("s1", "s2", "s3", "a1", "a2", "a3")}
    defs.update({f"l_r{k + 1}": l for k, l in enumerate(m.relation_logits)})
    defs.update({f"p_r{k + 1}": p for k, p in enumerate(m.p1())})
    defs["L1"] = m.L1()
    return defs


def _docs() -> dict[str, str]:
    docs = {}
    for tok in ("s1", "s2", "s3", "a1", "a2", "a3"):
        docs[f"l_{tok}"] = f"logit of {tok} at the first decoding step (before /T), polynomial in v (Table 2)"
    for k in range(1, 7):
        docs[f"l_r{k}"] = f"logit of relation r{k} (Table 1 numbering) at step 1 (before /T), polynomial in v"
        docs[f"p_r{k}"] = f"p1(r{k}) = softmax(l_r / T)_{k}, first-step probability of r{k}; function of v, T"
    docs["L1"] = "first-step loss -log p1(r1) = -l_r1/T + log Σ_j exp(l_rj/T); function of v, T (App. B)"
    return docs


def n3_context() -> StepContext:
    m = n3()
    return StepContext(
        name="icrecall.n3",
        description="IC-recall, n = 3, input (s1, a1, s2, a2, s3, EoS), r* = r1; v1..v6 are the attention "
                    "scores of EoS on " + ", ".join(POSITIONS) + " (App. B, Table 2, Eqs. (4)-(10))",
        variables=[Simplex(m.v), LogUniform(m.T, 1e-2, 10.0)],
        definitions=n3_definitions,
        docs=_docs(),
        reparametrisations=[softmax_reparametrisation(m.v, m.theta)],
    )


CONTEXTS = [n3_context()]
