"""Derived gradient tables (App. C / Lemma 2), as numpy functions of a configuration.

Derivation (model.py): with H_{c,m} = −∂L/∂q_{c,m} = E[1{x_q = v_c} Attn_m (f_c − ŷ)(f_m − ŷ)] and
q = VᵀQᵀV, the update table g_{k,k'} := −v_{k'}ᵀ ∇_Q L v_k is g = G H G (G = VᵀV).  For orthogonal
equal-norm features (‖v_k‖ = r) this is g = r⁴ H, so
    g_k      = r⁴ E[1{x_q = v_k} Attn_k (f_k − ŷ)²]                      (≥ 0),
    g_{k,k'} = r⁴ E[1{x_q = v_k} Attn_{k'} (f_k − ŷ)(f_{k'} − ŷ)]         (either sign).
The printed App. C display is the r = 1, G = I case.
"""
from __future__ import annotations

import numpy as np

from . import counts


def q_table(V: np.ndarray, Q: np.ndarray) -> np.ndarray:
    """q_{k,k'} = v_{k'}ᵀ Q v_k (numeric q = VᵀQᵀV; symbolic: ``model.logit_table``)."""
    return V.T @ Q.T @ V


def H_table(x: dict) -> np.ndarray:
    """H averaged over the tasks of the configuration (D_f uniform over them)."""
    q = q_table(x["V"], x["Q"])
    return np.mean([counts.H(q, x["p"], f, x["N"]) for f in x["tasks"]], axis=0)


def g_derived(x: dict) -> np.ndarray:
    G = x["V"].T @ x["V"]
    return G @ H_table(x) @ G


def population_loss(x: dict) -> float:
    q = q_table(x["V"], x["Q"])
    return float(np.mean([counts.loss(q, x["p"], f, x["N"]) for f in x["tasks"]]))


def expect(x: dict, k: int, integrand) -> float:
    """E[1{x_q = v_k} integrand(Attn, ŷ, f)] averaged over the configuration's tasks."""
    q = q_table(x["V"], x["Q"])
    return float(np.mean([counts.expect_query(q, x["p"], f, x["N"], k, lambda A, y, f=f: integrand(A, y, f))
                          for f in x["tasks"]]))
