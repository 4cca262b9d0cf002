"""Hypothesis strategies for this paper's configurations: small data sets, parameters, norms."""
from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from . import data
from . import transformer as model
from .setup import Recon, embeddings


@st.composite
def configurations(draw, which: str = "ntp"):
    """A data set (NTP, Q&A or FT), a reconstruction (μ, μ_c, κ, m) and parameters (Z, W) with entries
    N(0, s²), s ∈ [0.05, 2] (init scale up to well-trained magnitudes)."""
    N_f, N_r = draw(st.integers(1, 4)), draw(st.integers(0, 3))
    R = draw(st.integers(1, 5))
    K = draw(st.integers(1, R))
    recon = Recon(mu=draw(st.floats(0.5, 3.0)), mu_c=draw(st.floats(0.5, 4.0)), kappa=draw(st.floats(0.25, 3.0)),
                  m=draw(st.integers(1, 4)), d_extra=draw(st.integers(0, 2)))
    seed = draw(st.integers(0, 2**31 - 1))
    kn = data.make(N_f, N_r, K, R, beta=draw(st.sampled_from([0.5, 1.0])), seed=seed)
    ds = {"ntp": kn.ntp(recon), "qa": kn.qa(), "ft": kn.ft()}[which]
    rng = np.random.default_rng(seed)
    E = embeddings(kn.vocab, recon)
    Z, W = model.init(E.shape[0], recon.m, draw(st.floats(0.05, 2.0)), rng)
    return {"knowledge": kn, "recon": recon, "E": E, "data": ds, "Z": Z, "W": W, "seed": seed,
            "sizes": {"N_f": N_f, "N_r": N_r, "K": K, "R": R}}


def describe(x: dict) -> dict:
    return {**x["sizes"], **x["recon"].record(), "seed": x["seed"], "n_samples": len(x["data"])}
