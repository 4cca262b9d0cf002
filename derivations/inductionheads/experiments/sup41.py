"""The sup-error estimates of the Theorem 4.1 construction (:mod:`..model.construction41`) against IH_2: a random
search over the token ball plus projected adversarial ascent from the worst draws and from alternating-sign
starts (:mod:`.superror`), as pure functions of their configuration so that slow grids go through the results
store (keyed by the source closure of :func:`sup_point`)."""
from __future__ import annotations

import torch

import theoryverify as tv

from ..model import construction41 as C
from ..model.targets import ih2
from .superror import ball_sampler, sup_error

F64 = torch.float64


def _gen(seed: int) -> torch.Generator:
    return torch.Generator().manual_seed(int(seed) % (2**63))


def W_of_norm(gen: torch.Generator, d: int, norm: float) -> torch.Tensor:
    A = torch.randn(d, d, generator=gen, dtype=F64)
    return A / float(torch.linalg.matrix_norm(A, ord=2)) * norm


def t41_sup(W, p, L, d, seed, *, B=1.0, token_norm="2", out_norm="inf", n_random=300, steps=100,
            convention="causal", tf=None):
    """Sup-error estimate of |||IH_2 - TF|||_{L,q} for the Thm 4.1 construction at slope p."""
    gen = _gen(seed + 17)
    starts = C.alternating_starts(8, L, d, B, gen)
    model = tf or (lambda X: C.tf41(X, W, p, convention))
    return sup_error(lambda X: ih2(X, W), model, ball_sampler(L, d, B, token_norm), seed, n_random, steps,
                     B=B, token_norm=token_norm, out_norm=out_norm, starts=starts)


def sup_point(cfg: dict) -> float:
    """One sup-error estimate, a pure function of its configuration (for the results store): W is drawn
    from cfg['w_seed'] with spectral norm cfg['wn'], d = 4."""
    W = W_of_norm(_gen(cfg["w_seed"]), 4, cfg["wn"])
    return t41_sup(W, cfg["p"], cfg["L"], 4, cfg["seed"], B=cfg.get("B", 1.0), token_norm=cfg.get("tn", "2"),
                   out_norm=cfg.get("on", "inf"), n_random=cfg["n_random"], steps=cfg["steps"],
                   convention=cfg.get("convention", "causal")).value


def sup_points(configs: list[dict], store_claim: str | None = None) -> list[float]:
    """sup_point over configs; with ``store_claim`` each finished point is cached in the results store (keyed by
    the claim, the source closure of :func:`sup_point` and the configuration)."""
    if store_claim is None:
        return [sup_point(c) for c in configs]
    key = {"claim": store_claim, "code": tv.code_key(sup_point)}
    return [float(v) for v in tv.sweep(tv.Store(), key, configs, sup_point, desc=store_claim)]
