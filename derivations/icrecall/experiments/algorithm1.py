"""Algorithm 1 (Temperature-Scaled Perturbed Gradient Descent), n = 3, batched in torch float64.

Sec. 4 (Algorithm 1): (θ, ω) ← 0; Stage 1: t1 GD steps of size η1 on L(θ, ω; T);
Stage 2: ξ ~ Uniform(𝔹(0, ρ)) in the joint 13-dim space of (θ, ω), (θ0, ω0) = (θ̃, ω̃) + ξ,
then t2 GD steps of size η2.  The radius is Θ(T³ log⁻²(1/δ)) in the paper; its Θ-constant is an
open choice, so callers pass ρ explicitly (:func:`alg1_radius` records the constant).

The loss is built from the model, never from Table 2 / App. D: the relation logits of
``model.n3()`` (step 1, attention v = softmax(θ) from EoS) and the answer logits of the same
construction on (s1, a1, s2, a2, s3, EoS, r1) (step 2, attention q = softmax(ω) from position 7)
are polynomials of degree ≤ 2; their exact coefficients are read off with SymPy and evaluated
in torch:  l_j(x) = c_j + b_jᵀx + xᵀA_j x.  Sec. 2.3, Eqs. (1)–(3):
L1 = −l(r1)/T + logsumexp(l(r)/T), L2 = −l(a3)/T + logsumexp(l(a)/T) over a ∈ {a1, a2, a3}.
The closed-form gradient (chain rule through softmax, as Eq. (10) states it in general) is
cross-checked against torch autograd in tests/icrecall/test_dynamics.py.

Sec. 4.1: for n = 3 all 36 sequences give the same ∇_θ ℓ1 (ICR-S41-seq-invariance), so the
dynamics run on the single sequence (s1, a1, s2, a2, s3, EoS) with r* = r1.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping, Sequence

import numpy as np
import sympy as sp
import torch

from theoryverify import runner as _runner
RunResult = _runner.RunResult
run_rng = _runner.run_rng
train = _runner.train
uniform_ball = _runner.uniform_ball

from .util import resolve_device

from ..model.symbolic import n3, step1_logits

SADDLE = (0.25, 0.25, 0.25, 0.25, 0.0, 0.0)  # ṽ of Lemma 5
FACE_THETA = (0.0, 0.0, 0.0, 0.0, -math.inf, -math.inf)  # θ̃ on the face θ5 = θ6 = −∞ (§6 of the spec)
LOG2 = math.log(2.0)


@dataclass(frozen=True)
class QuadraticLogits:
    """l_j(x) = c_j + b_jᵀx + xᵀA_j x with exact coefficients from SymPy polynomials."""

    c: np.ndarray  # [J]
    b: np.ndarray  # [J, n]
    A: np.ndarray  # [J, n, n], symmetric

    @staticmethod
    def from_sympy(polys: Sequence[sp.Expr], symbols: Sequence[sp.Symbol]) -> "QuadraticLogits":
        n, J = len(symbols), len(polys)
        c, b, A = np.zeros(J), np.zeros((J, n)), np.zeros((J, n, n))
        for j, expr in enumerate(polys):
            poly = sp.Poly(sp.expand(expr), *symbols)
            if poly.total_degree() > 2:
                raise ValueError(f"logit {j} has degree {poly.total_degree()} > 2")
            for monom, coeff in poly.terms():
                idx = [i for i, e in enumerate(monom) for _ in range(e)]
                if not idx:
                    c[j] += float(coeff)
                elif len(idx) == 1:
                    b[j, idx[0]] += float(coeff)
                elif idx[0] == idx[1]:
                    A[j, idx[0], idx[0]] += float(coeff)
                else:
                    A[j, idx[0], idx[1]] += float(coeff) / 2
                    A[j, idx[1], idx[0]] += float(coeff) / 2
        return QuadraticLogits(c, b, A)

    def torch(self, device: str | torch.device = "cpu", dtype=torch.float64) -> "TorchLogits":
        t = lambda a: torch.as_tensor(a, dtype=dtype, device=device)  # noqa: E731
        J, n = self.b.shape
        return TorchLogits(t(self.c), t(self.b), t(self.A.transpose(2, 0, 1).reshape(n, J * n)))


@dataclass(frozen=True)
class TorchLogits:
    """Batched evaluation; ``A_flat[k, j·n + i] = A[j, i, k]`` so one matmul gives every A_j x."""

    c: torch.Tensor
    b: torch.Tensor
    A_flat: torch.Tensor

    def both(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(logits [B, J], ∂l_j/∂x_i [B, J, n]) at x [B, n]."""
        Ax = (x @ self.A_flat).reshape(x.shape[0], *self.b.shape)  # (A_j x)_i
        logits = self.c + x @ self.b.T + (Ax * x[:, None, :]).sum(-1)
        return logits, self.b + 2 * Ax

    def __call__(self, x: torch.Tensor) -> torch.Tensor:
        return self.both(x)[0]

    def jacobian(self, x: torch.Tensor) -> torch.Tensor:
        return self.both(x)[1]


@lru_cache(maxsize=1)
def step2_answer_logits() -> list[sp.Expr]:
    """l(a1), l(a2), l(a3) of the second decoding step on (s1, a1, s2, a2, s3, EoS, r1), from the
    construction (Lemma 3) and the architecture (Sec. 2.1) with attention q = softmax(ω) ∈ Δ⁶."""
    m = n3()
    q = sp.symbols("q1:8", nonnegative=True)
    lg = step1_logits(m.vocab, m.tokens + [m.vocab.r(0)], q)
    return [lg[m.vocab.a(j)] for j in range(3)]


@lru_cache(maxsize=1)
def n3_logits() -> tuple[QuadraticLogits, QuadraticLogits]:
    """(relation logits in v ∈ Δ⁵, answer logits in q ∈ Δ⁶) for n = 3, derived from the model."""
    m = n3()
    q = sp.symbols("q1:8", nonnegative=True)
    return (QuadraticLogits.from_sympy(m.relation_logits, m.v),
            QuadraticLogits.from_sympy(step2_answer_logits(), q))


class N3Loss:
    """L(θ, ω; T) = L1(θ; T) + L2(ω; T) on batches: θ [B, 6], ω [B, 7], T [B]."""

    TARGET1, TARGET2 = 0, 2  # r1 among the relations, a3 among the answers

    def __init__(self, device: str | torch.device = "cpu", dtype=torch.float64) -> None:
        rel, ans = n3_logits()
        self.rel, self.ans = rel.torch(device, dtype), ans.torch(device, dtype)

    # -- losses ---------------------------------------------------------------------------
    @staticmethod
    def _ce(logits: torch.Tensor, T: torch.Tensor, target: int) -> torch.Tensor:
        z = logits / T[:, None]
        return torch.logsumexp(z, dim=1) - z[:, target]

    def L1(self, theta: torch.Tensor, T: torch.Tensor) -> torch.Tensor:
        return self._ce(self.rel(torch.softmax(theta, dim=1)), T, self.TARGET1)

    def L2(self, omega: torch.Tensor, T: torch.Tensor) -> torch.Tensor:
        return self._ce(self.ans(torch.softmax(omega, dim=1)), T, self.TARGET2)

    def loss(self, params: Mapping[str, torch.Tensor], config: Mapping[str, torch.Tensor]) -> torch.Tensor:
        T = config["T"]
        return self.L1(params["theta"], T) + self.L2(params["omega"], T)

    # -- closed-form gradient ------------------------------------------------------------
    def _grad(self, logits: "TorchLogits", x: torch.Tensor, T: torch.Tensor, target: int) -> torch.Tensor:
        s = torch.softmax(x, dim=1)  # v or q; entries at −∞ give exactly 0
        lg, jac = logits.both(s)
        p = torch.softmax(lg / T[:, None], dim=1)
        p[:, target] -= 1.0
        gv = torch.bmm(p[:, None, :], jac)[:, 0] / T[:, None]  # ∂L/∂v
        return s * (gv - (s * gv).sum(dim=1, keepdim=True))  # ∂L/∂θ through softmax (Eq. (10) form)

    def grad(self, params: Mapping[str, torch.Tensor], config: Mapping[str, torch.Tensor]) -> dict:
        T = config["T"]
        return {"theta": self._grad(self.rel, params["theta"], T, self.TARGET1),
                "omega": self._grad(self.ans, params["omega"], T, self.TARGET2)}

    def grad_symmetric(self, params: Mapping[str, torch.Tensor], config: Mapping[str, torch.Tensor]) -> dict:
        """∇L with the θ-gradient averaged over the pair swap (θ1, θ2) ↔ (θ3, θ4).

        Lemma 5, Observation 1: the exact dynamics from θ = 0 keep v1 = v3 and v2 = v4; in
        float64 the two coordinates' gradients differ by round-off (~1e-17), which the unstable
        saddle amplifies.  This projection keeps a trajectory on the invariant subspace, i.e. it
        computes the exact-arithmetic trajectory that Lemma 5 is about.
        """
        g = self.grad(params, config)
        th = g["theta"].clone()
        th[:, [0, 2]] = th[:, [0, 2]].mean(dim=1, keepdim=True).expand(-1, 2)
        th[:, [1, 3]] = th[:, [1, 3]].mean(dim=1, keepdim=True).expand(-1, 2)
        if "symmetric" in config:  # per-run choice: 1 = projected, 0 = plain float64
            th = torch.where(config["symmetric"][:, None] > 0, th, g["theta"])
        return {"theta": th, "omega": g["omega"]}

    # -- metrics (per run) ---------------------------------------------------------------
    def metrics(self) -> dict[str, Any]:
        saddle = None

        def dist(p, c):
            nonlocal saddle
            v = torch.softmax(p["theta"], dim=1)
            if saddle is None:
                saddle = torch.as_tensor(SADDLE, dtype=v.dtype, device=v.device)
            return (v - saddle).abs().amax(dim=1)

        return {
            "v": lambda p, c: torch.softmax(p["theta"], dim=1),
            "q": lambda p, c: torch.softmax(p["omega"], dim=1),
            "L1": lambda p, c: self.L1(p["theta"], c["T"]),
            "p1": lambda p, c: torch.exp(-self.L1(p["theta"], c["T"])),
            "dist_saddle": dist,
            "g": lambda p, c: _gap(torch.softmax(p["theta"], dim=1)),
        }


def _gap(v: torch.Tensor) -> torch.Tensor:
    """g = (v1 − v3)(v2 − v4) (Sec. 4.1: l(r1) − l(r2) ∝ g)."""
    return (v[:, 0] - v[:, 2]) * (v[:, 1] - v[:, 3])


def alg1_radius(T: float, delta: float, const: float = 1.0) -> float:
    """ρ = const · T³ · log⁻²(1/δ) (Algorithm 1; the Θ-constant ``const`` is an open choice)."""
    return const * T**3 / math.log(1.0 / delta) ** 2


def stage1(T: Sequence[float], *, eta: Sequence[float] | float, steps: int | Sequence[int],
           metrics: Sequence[str] = (), events: Mapping[str, Any] | None = None, record_every: int = 1,
           stop_when_hit: bool = False, device: str = "cpu", theta0=None, omega0=None,
           symmetric: bool | Sequence[bool] = False) -> RunResult:
    """Stage 1 of Algorithm 1 from (θ, ω) = 0 (or a given start), one run per entry of T.
    ``symmetric``: use :meth:`N3Loss.grad_symmetric` (the exact-arithmetic invariant subspace)."""
    T = np.asarray(T, dtype=float)
    B = len(T)
    loss = N3Loss(device=resolve_device(device))
    theta = np.zeros((B, 6)) if theta0 is None else np.asarray(theta0, dtype=float)
    omega = np.zeros((B, 7)) if omega0 is None else np.asarray(omega0, dtype=float)
    chosen = {k: v for k, v in loss.metrics().items() if k in metrics}
    config = {"T": T}
    if not isinstance(symmetric, bool):  # per-run flags
        config["symmetric"] = np.asarray(symmetric, dtype=float)
        symmetric = True
    return train(None, {"theta": theta, "omega": omega}, config=config, steps=steps,
                 lr=np.broadcast_to(np.asarray(eta, dtype=float), (B,)).copy(),
                 grad=loss.grad_symmetric if symmetric else loss.grad,
                 metrics=chosen, events=events, record_every=record_every,
                 stop_when_hit=stop_when_hit, device=device)


def perturbations(seed: int, seeds: Sequence[int], radius: Sequence[float]) -> np.ndarray:
    """ξ_s ~ Uniform(𝔹(0, ρ)) ⊂ R^13 for each run; run s draws from (seed, "xi", s) only."""
    return np.stack([uniform_ball(run_rng(seed, "xi", s), 13, r) for s, r in zip(seeds, radius)])


def stage2(theta_tilde: np.ndarray, omega_tilde: np.ndarray, xi: np.ndarray, T: Sequence[float], *,
           eta: Sequence[float] | float, steps: int | Sequence[int], metrics: Sequence[str] = (),
           events: Mapping[str, Any] | None = None, record_every: int = 1, stop_when_hit: bool = False,
           device: str = "cpu") -> RunResult:
    """Stage 2 of Algorithm 1: GD of size η2 from (θ̃, ω̃) + ξ (ξ split as θ: 6, ω: 7)."""
    theta = np.asarray(theta_tilde, dtype=float) + xi[:, :6]  # −∞ + finite stays −∞ (face)
    omega = np.asarray(omega_tilde, dtype=float) + xi[:, 6:]
    return stage1(T, eta=eta, steps=steps, metrics=metrics, events=events, record_every=record_every,
                  stop_when_hit=stop_when_hit, device=device, theta0=theta, omega0=omega)


def events_n3(loss: N3Loss | None = None, *, eps: Sequence[float] = (), loss_below: float | None = None,
              p1_above: float | None = None) -> dict[str, Any]:
    """Hitting-time events: ‖v − ṽ‖∞ < ε, L1 < x, p1(r1) > y."""
    loss = loss or N3Loss()  # events_n3(N3Loss(device)) on CUDA
    saddle = torch.as_tensor(SADDLE, dtype=torch.float64)
    out: dict[str, Any] = {}
    for e in eps:
        out[f"dist<{e:g}"] = (lambda e: lambda p, c: (torch.softmax(p["theta"], 1) - saddle.to(p["theta"])
                                                      ).abs().amax(1) < e)(e)
    if loss_below is not None:
        out["L1<x"] = lambda p, c: loss.L1(p["theta"], c["T"]) < loss_below
    if p1_above is not None:
        out["p1>y"] = lambda p, c: loss.L1(p["theta"], c["T"]) < -math.log(p1_above)
    return out


def algorithm1(T: Sequence[float], seeds: Sequence[int], *, seed: int, eta1: Sequence[float],
               eta2: Sequence[float], t1: int, t2: int, radius: Sequence[float],
               metrics: Sequence[str] = (), events: Mapping[str, Any] | None = None,
               record_every: int = 1, device: str = "cpu", stage1_symmetric: bool = False) -> dict[str, Any]:
    """Algorithm 1 exactly, batched over configurations (T_c, η1_c, η2_c, ρ_c) × seeds.

    Stage 1 is deterministic (from 0), so it runs once per configuration and is shared by that
    configuration's seeds; Stage 2 runs all configurations × seeds in one batch.  Returns the
    Stage-1 result, ξ, the Stage-2 result and the run layout (config index, seed) of Stage 2.
    ``stage1_symmetric``: Stage 1 on the invariant subspace (the exact-arithmetic Stage 1; plain
    float64 Stage 1 leaves the saddle by round-off when t1 is long, see ICR-L5-converge).
    """
    C, S = len(T), len(seeds)
    s1 = stage1(T, eta=eta1, steps=t1, device=device, symmetric=stage1_symmetric)
    th = s1.params["theta"].cpu().numpy().repeat(S, axis=0)
    om = s1.params["omega"].cpu().numpy().repeat(S, axis=0)
    layout = [(c, s) for c in range(C) for s in seeds]
    xi = np.stack([uniform_ball(run_rng(seed, "xi", repr(float(T[c])), s), 13, radius[c]) for c, s in layout])
    T2 = np.repeat(np.asarray(T, dtype=float), S)
    s2 = stage2(th, om, xi, T2, eta=np.repeat(np.asarray(eta2, dtype=float), S), steps=t2, metrics=metrics,
                events=events, record_every=record_every, device=device)
    return {"stage1": s1, "xi": xi, "stage2": s2, "layout": layout}
