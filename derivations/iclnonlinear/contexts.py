"""Step contexts of the nonlinear-regression ICL paper for ``python -m theoryverify.check``.

``iclnonlinear.k2``: K = 2 orthonormal features, N = 3 prompt tokens, one task f (a point mass D_f).
The logit table q_{k,k'} = v_{k'}ᵀ Q v_k (Sec. 5.1; row k = query feature, column k' = key feature)
is free; with orthonormal features the gradient table g_{k,k'} := −v_{k'}ᵀ ∇_Q L v_k (Sec. 5.1,
App. C) is −∂L/∂q_{k,k'} (Gram matrix G = I in :func:`~derivations.iclnonlinear.model.symbolic.g_from_H`).

Every definition comes from :mod:`derivations.iclnonlinear.model.symbolic` (built from the token-level
softmax of Eq. 6), never re-typed: the population loss L (Eq. 7, exact by enumerating the count
vectors), the derived closed form of −∂L/∂q (App. C as derived), and, for one fixed prompt
(|V_1| = 2, |V_2| = 1, tokens x_1 = x_2 = v_1, x_3 = v_2), the token attentions attn_i, the class
aggregates Attn_m (Sec. 4) and the prediction ŷ (Eq. 6 / Eq. 10), for each query class.
"""
from __future__ import annotations

import sympy as sp

import theoryverify as tv

from .model.symbolic import attn_aggregates, g_from_H, population, prediction, token_attention, token_classes

K, N = 2, 3
PROMPT = (2, 1)  # |V_1|, |V_2| of the fixed prompt
Q_RANGE = 3.0  # q_{k,k'} ∈ [−3, 3]: attention from near-uniform to strongly peaked, no overflow
F_RANGE = 2.0  # f_k ∈ [−2, 2]


def _prompt_definitions(q, f) -> dict:
    """attn_c_i, Attn_c_m, yhat_c for the fixed prompt and each query class c (1-based names)."""
    defs = {}
    for c in range(K):
        row = q.row(c)
        for i, a in enumerate(token_attention(PROMPT, row)):
            defs[f"attn_{c + 1}_{i + 1}"] = a
        for m, a in enumerate(attn_aggregates(PROMPT, row)):
            defs[f"Attn_{c + 1}_{m + 1}"] = a
        defs[f"yhat_{c + 1}"] = prediction(PROMPT, row, f)
    return defs


def k2_definitions() -> dict:
    """q_k (= q_{k,k}), g_{k,k'} and g_k (= g_{k,k}), L, and the fixed prompt's n_m, attn, Attn, ŷ."""
    m = population(K, N)
    s = m.sym
    g = g_from_H(sp.eye(K), m.H_closed_form())  # orthonormal features: G = VᵀV = I
    defs: dict = {"N": sp.Integer(N)}
    defs.update({f"n{k + 1}": sp.Integer(n) for k, n in enumerate(PROMPT)})
    for k in range(K):
        defs[f"q_{k + 1}"] = s.q[k, k]
    defs["L"] = m.loss
    for k in range(K):
        for kp in range(K):
            defs[f"g_{k + 1}_{kp + 1}"] = g[k, kp]
    for k in range(K):
        defs[f"g_{k + 1}"] = g[k, k]
    defs.update(_prompt_definitions(s.q, s.f))
    return defs


def _docs() -> dict[str, str]:
    classes = token_classes(PROMPT)
    docs = {
        "N": f"number of prompt tokens (= {N})",
        "L": "population loss ½ E[(ŷ_query − f(x_query))²] (Eq. 7), exact sum over the query class and the "
             "count vectors of N = 3 i.i.d. Cat(p) tokens; function of q, p, f",
    }
    for k, n in enumerate(PROMPT, start=1):
        docs[f"n{k}"] = f"|V_{k}| = {n}, tokens of class {k} in the fixed prompt (App. D, Lemma 3 proof)"
        docs[f"q_{k}"] = f"q_{k} := q_{{{k},{k}}} (Sec. 5.1 shorthand; a symbol, so diff(L, q_{k}) works)"
        docs[f"g_{k}"] = f"g_{k} := g_{{{k},{k}}} (Sec. 5.1 / App. C)"
    for k in range(1, K + 1):
        for kp in range(1, K + 1):
            docs[f"g_{k}_{kp}"] = (f"g_{{{k},{kp}}} = −v_{kp}ᵀ ∇_Q L v_{k} = −∂L/∂q_{k}_{kp} (orthonormal "
                                   f"features), derived closed form E[1{{x_q = v_{k}}} Attn_{kp} (f{k} − ŷ)"
                                   f"(f{kp} − ŷ)] over all prompts (not only the fixed one)")
    for c in range(1, K + 1):
        for i, cls in enumerate(classes, start=1):
            docs[f"attn_{c}_{i}"] = (f"attn_{i} of the fixed prompt (token {i}, x_{i} = v_{cls + 1}), query v_{c}: "
                                     f"exp(q_{c}_{cls + 1}) / Σ_j exp(q_{c}_(class of j)) over the N tokens (Eq. 6)")
        for m in range(1, K + 1):
            docs[f"Attn_{c}_{m}"] = (f"Attn_{m} = Σ_{{i: x_i = v_{m}}} attn_i of the fixed prompt, query v_{c} "
                                     f"(Sec. 4); first index = query class as in q_{c}_{m}")
        docs[f"yhat_{c}"] = f"ŷ_query = Σ_i attn_i f(x_i) of the fixed prompt, query v_{c} (Eq. 6)"
    return docs


def k2_context() -> tv.StepContext:
    s = population(K, N).sym
    return tv.StepContext(
        name="iclnonlinear.k2",
        description="nonlinear-regression ICL, K = 2 orthonormal features, N = 3 tokens, one task f: "
                    "q_i_j = q_{i,j} = v_jᵀ Q v_i (row = query, column = key; Sec. 5.1), p1, p2 the feature "
                    "probabilities, f1, f2 = f(v_1), f(v_2); fixed prompt (x_1, x_2, x_3) = (v_1, v_1, v_2) "
                    "(Eqs. 6, 7, 10; App. C, App. D)",
        variables=[*(tv.Interval(x, -Q_RANGE, Q_RANGE) for x in s.q_flat), tv.Simplex(s.p, boundary=False),
                   *(tv.Interval(x, -F_RANGE, F_RANGE) for x in s.f)],
        definitions=k2_definitions,
        docs=_docs(),
    )


CONTEXTS = [k2_context()]
