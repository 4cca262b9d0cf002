"""The approximation metric of Eq. (5), read as RC-4, estimated by search.

RC-4 (reconstruction; the display is lost): for a target f and a transformer TF read at its last
output token, ``|||f - TF|||_{L,p} = sup_X ‖f(X) - TF(X)_{-1}‖_p`` over sequences X = (x_1..x_L)
whose tokens lie in the ball ``‖x_s‖ ≤ B`` (token norm ℓ2 by default, ℓ∞ as an option); the
output norm p is ∞ or 2.  A supremum cannot be computed; :func:`sup_error` returns a certified
*lower* estimate: the worst of ``n_random`` draws from ``sampler`` followed by projected gradient
ascent (torch autograd on the tokens, Adam, projection onto the token ball after every step) from
the worst draws (and any caller-given ``starts``).  The worst instance is returned with its value.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import torch

Model = Callable[[torch.Tensor], torch.Tensor]          # (B, L, d) -> (B, d)
Sampler = Callable[[torch.Generator, int], torch.Tensor]  # (generator, n) -> (n, L, d)

OUT_NORMS = ("inf", "2")
TOKEN_NORMS = ("2", "inf")


def project(X: torch.Tensor, B: float, token_norm: str = "2") -> torch.Tensor:
    """Project every token of X (…, L, d) onto the ball ‖x‖ ≤ B (ℓ2 or ℓ∞)."""
    if token_norm == "2":
        norms = X.norm(dim=-1, keepdim=True).clamp_min(1e-300)
        return X * torch.clamp(B / norms, max=1.0)
    if token_norm == "inf":
        return X.clamp(-B, B)
    raise ValueError(f"token_norm must be one of {TOKEN_NORMS}")


def output_error(f: Model, tf: Model, X: torch.Tensor, out_norm: str = "inf") -> torch.Tensor:
    """‖f(X) - TF(X)‖_p per sequence, shape (B,)."""
    diff = f(X) - tf(X)
    if out_norm == "inf":
        return diff.abs().amax(dim=-1)
    if out_norm == "2":
        return diff.norm(dim=-1)
    raise ValueError(f"out_norm must be one of {OUT_NORMS}")


def ball_sampler(L: int, d: int, B: float = 1.0, token_norm: str = "2") -> Sampler:
    """Random sequences in the token ball: half the tokens on the sphere, half inside (radius U^{1/d})."""
    def sample(gen: torch.Generator, n: int) -> torch.Tensor:
        g = torch.randn(n, L, d, generator=gen, dtype=torch.float64)
        if token_norm == "inf":
            return B * (2 * torch.rand(n, L, d, generator=gen, dtype=torch.float64) - 1)
        g = g / g.norm(dim=-1, keepdim=True)
        r = torch.rand(n, L, 1, generator=gen, dtype=torch.float64) ** (1.0 / d)
        on_sphere = torch.rand(n, L, 1, generator=gen, dtype=torch.float64) < 0.5
        return B * g * torch.where(on_sphere, torch.ones_like(r), r)
    return sample


@dataclass(frozen=True)
class SupError:
    """A lower estimate of the Eq. (5) supremum with its worst instance."""

    value: float
    X: torch.Tensor  # worst sequence, shape (L, d)
    random_max: float
    adversarial_max: float
    n_random: int
    adversarial_steps: int
    n_starts: int
    B: float
    token_norm: str
    out_norm: str

    def summary(self) -> dict:
        return {"sup_error": self.value, "random_max": self.random_max,
                "adversarial_max": self.adversarial_max, "n_random": self.n_random,
                "adversarial_steps": self.adversarial_steps, "n_starts": self.n_starts, "B": self.B,
                "token_norm": self.token_norm, "out_norm": self.out_norm}


def _ascend(f: Model, tf: Model, X0: torch.Tensor, steps: int, B: float, token_norm: str,
            out_norm: str, lr: float, betas=(0.9, 0.999), eps=1e-12) -> tuple[torch.Tensor, torch.Tensor]:
    """Projected Adam ascent on the per-sequence error from X0 (batched); best value/instance seen.

    The Adam update is written out (torch.optim's first construction costs ~3 s of imports, more than a
    whole quick check)."""
    X = X0.clone()
    m = torch.zeros_like(X)
    v = torch.zeros_like(X)
    best_val = output_error(f, tf, X0, out_norm).detach()
    best_X = X0.clone()
    for t in range(1, steps + 1):
        Xg = X.detach().requires_grad_(True)
        (g,) = torch.autograd.grad(output_error(f, tf, Xg, out_norm).sum(), Xg)
        with torch.no_grad():
            m = betas[0] * m + (1 - betas[0]) * g
            v = betas[1] * v + (1 - betas[1]) * g * g
            mhat = m / (1 - betas[0] ** t)
            vhat = v / (1 - betas[1] ** t)
            X = project(X + lr * B * mhat / (vhat.sqrt() + eps), B, token_norm)
            val = output_error(f, tf, X, out_norm)
            better = val > best_val
            best_val = torch.where(better, val, best_val)
            best_X[better] = X[better]
    return best_val, best_X


def sup_error(f: Model, tf: Model, sampler: Sampler, seed: int, n_random: int = 300,
              adversarial_steps: int = 100, *, B: float = 1.0, token_norm: str = "2",
              out_norm: str = "inf", n_starts: int = 8, lr: float = 0.05,
              starts: torch.Tensor | None = None, chunk: int = 512) -> SupError:
    """Lower estimate of sup_X ‖f(X) - TF(X)‖_p (Eq. (5), RC-4) by random draws + adversarial ascent.

    ``sampler(generator, n)`` must return sequences inside the token ball (they are projected anyway);
    ``starts`` (k, L, d) are extra adversarial starting points (e.g. structured worst-case guesses)."""
    gen = torch.Generator().manual_seed(int(seed) % (2**63))
    vals, draws = [], []
    with torch.no_grad():
        for lo in range(0, n_random, chunk):
            X = project(sampler(gen, min(chunk, n_random - lo)), B, token_norm)
            vals.append(output_error(f, tf, X, out_norm))
            draws.append(X)
    vals_t = torch.cat(vals) if vals else torch.empty(0, dtype=torch.float64)
    draws_t = torch.cat(draws) if draws else None
    random_max = float(vals_t.max()) if len(vals_t) else 0.0
    pool = []
    if draws_t is not None and n_starts > 0:
        top = torch.argsort(vals_t, descending=True)[: max(1, n_starts // 2)]
        pool.append(draws_t[top])
        if n_starts - len(top) > 0:
            pool.append(project(sampler(gen, n_starts - len(top)), B, token_norm))
    if starts is not None:
        pool.append(project(starts.to(torch.float64), B, token_norm))
    best_val, best_X = -1.0, None
    if draws_t is not None and len(vals_t):
        i = int(torch.argmax(vals_t))
        best_val, best_X = float(vals_t[i]), draws_t[i]
    adv_max = 0.0
    if pool and adversarial_steps > 0:
        X0 = torch.cat(pool)
        val, Xa = _ascend(f, tf, X0, adversarial_steps, B, token_norm, out_norm, lr)
        j = int(torch.argmax(val))
        adv_max = float(val[j])
        if adv_max > best_val:
            best_val, best_X = adv_max, Xa[j]
    elif pool:
        X0 = torch.cat(pool)
        with torch.no_grad():
            val = output_error(f, tf, X0, out_norm)
        j = int(torch.argmax(val))
        if float(val[j]) > best_val:
            best_val, best_X = float(val[j]), X0[j]
    return SupError(float(best_val), best_X.detach(), random_max, adv_max, n_random, adversarial_steps,
                    sum(len(p) for p in pool), B, token_norm, out_norm)
