"""Hypothesis strategies for this paper's configurations (spec §3.0 default domains, small K, N).

A configuration is a dict with the feature matrix V (d×K), Q (d×d), token law p, the task values
(rows: tasks of a uniform finite D_f; each row f(v_1..v_K)), N, and the parameters that produced
them (geometry, Δ, L, task law, seeds) so a counterexample names every value.
"""
from __future__ import annotations

import numpy as np
import torch
from hypothesis import strategies as st

from ..model.geometry import COS_READINGS, cosine_task, features, iid_task, polynomial_task
from ..model.torch_model import DT

TASK_LAWS = tuple(f"cos-{r}" for r in COS_READINGS) + ("iid-normal", "iid-uniform", "poly")
COS_C = 0.5  # Sec. 6: "c = 0.5"


def task_values(law: str, V, L, Delta, rng) -> np.ndarray:
    if law.startswith("cos-"):
        return cosine_task(V, L, COS_C, law[4:], rng)
    if law == "poly":
        return polynomial_task(V, L, rng)
    return iid_task(V.shape[1], L, Delta, law[4:], rng)


def token_law(K: int, perturbed: bool, rng) -> np.ndarray:
    """Uniform, or Dirichlet(1)-perturbed with min p_k ≥ 1/(4K) (spec §3.0)."""
    if not perturbed:
        return np.full(K, 1.0 / K)
    w = rng.dirichlet(np.ones(K))
    return 0.25 / K + 0.75 * w  # mixes towards uniform: min ≥ 1/(4K), sums to 1


@st.composite
def configurations(draw, geometry: str, K=(2, 3), N=(1, 3), n_tasks=(1, 2), laws=TASK_LAWS):
    K_ = draw(st.integers(*K))
    N_ = draw(st.integers(*N))
    d = draw(st.integers(K_, K_ + 2))
    Delta = draw(st.floats(0.5, 5.0))
    L = draw(st.floats(1e-2, 10.0))
    s = draw(st.one_of(st.just(0.0), st.floats(0.0, 2.0)))
    law = draw(st.sampled_from(laws))
    T = draw(st.integers(*n_tasks))
    perturbed = draw(st.booleans())
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    V = features(geometry, d, K_, Delta, rng)
    Q = s * rng.standard_normal((d, d))
    p = token_law(K_, perturbed, rng)
    tasks = np.stack([task_values(law, V, L, Delta, rng) for _ in range(T)])
    return dict(geometry=geometry, K=K_, N=N_, d=d, Delta=Delta, L=L, Q_scale=s, task_law=law,
                n_tasks=T, p_perturbed=perturbed, seed=seed, V=V, Q=Q, p=p, tasks=tasks)


def describe(x: dict) -> dict:
    """Every parameter value of a configuration (for counterexamples)."""
    return {k: (v.tolist() if isinstance(v, np.ndarray) else v) for k, v in x.items()}


# --- explicit prompts (token classes + query class) for the token-level model -------------------------------

N_DRAWS = 40


@st.composite
def prompts(draw, geometry: str, query_present: bool = False):
    """One explicit prompt: a configuration plus drawn token classes and a query class."""
    x = draw(configurations(geometry, K=(2, 4), N=(1, 6), n_tasks=(1, 1)))
    rng = np.random.default_rng(x["seed"] + 1)
    x["classes"] = rng.choice(x["K"], size=x["N"], p=x["p"])
    x["query"] = int(rng.choice(x["K"], p=x["p"]))
    if query_present:  # Lemma 3's ratio |V_m|/|V_k| needs |V_k| ≥ 1
        x["classes"][0] = x["query"]
    return x


def tensors(x):
    V, f = x["V"], x["tasks"][0]
    X = torch.as_tensor(V.T[x["classes"]], dtype=DT)[None]
    y = torch.as_tensor(f[x["classes"]], dtype=DT)[None]
    xq = torch.as_tensor(V[:, x["query"]], dtype=DT)[None]
    return torch.as_tensor(x["Q"], dtype=DT), X, y, xq


def class_sums(attn: np.ndarray, classes, K: int) -> np.ndarray:
    """Attn_k := Σ_{i: x_i = v_k} attn_i (Sec. 4, definition)."""
    return np.bincount(classes, weights=attn, minlength=K)
