"""The six-parameter Section-5 model in torch (float64): Eqs. (8)–(12), Sec. 5.1, v1 numbering.

Every formula of Sec. 5 was lost in extraction; this module builds the spec §2.4 reconstruction
from primitives (Gaussian tokens, Alibi attention, softmax), so that losses, gradients, Hessians
and gradient-descent trajectories come from torch autograd of the model itself.

* Tokens (Sec. 5.1.3, R1): d = 1 (RC-2), x_1..x_L iid N(0,1)              → :func:`sample`
* First layer, Eq. (9) (RC-1, RC-6): x̃_s = Alibi-weighted average of x_1..x_{s-1}, weight
  ∝ e^{-p1 (j-1)} at distance j ≥ 1 ("causal"); x̃_1 = 0; p1 → ∞ gives x̃_s = x_{s-1}
                                                                           → :func:`first_layer`
* Second layer, Eq. (10) (RC-7, RC-8): head 1 (RPE only)
  TF_1 = v1 Σ_{s=1}^{L-1} π_{L-s}(p21) x̃_s, π_j(p) ∝ e^{-p(j-1)} over distances j = 1..L-1;
  head 2 (DP only) TF_2 = v2 Σ_{s=2}^{L-1} softmax_s(wK wQ x_L x̃_s) x_s    → :func:`forward`
* Mixed target, Eq. (8) (RC-5): y = (α x_{L-2}, (1-α) Σ_{s=2}^{L-1} softmax_s(w x_L x_{s-1}) x_s)
                                                                           → :func:`target`
* Loss, Eq. (11) (RC-10): L = L_G4 + L_IH, each ½ E(·)² of one output dimension → :func:`losses`
* Gradient flow, Eq. (12), by full-batch GD on a fixed sample (t = step·lr), layerwise
  (Stage I: p1 only; Stage II: the five second-layer parameters) or joint  → :func:`train`

"rc12" replaces every softmax_s(z) over the N = L-2 head-2 positions by e^{z_s}/N (App. C.2
simplification as read in RC-12 / RC-19).  Positions are 1-based in docstrings, 0-based in code.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any

import numpy as np
import torch


NAMES = ("p1", "p21", "v1", "wK", "wQ", "v2")
HEAD1 = ("p21", "v1")
HEAD2 = ("wK", "wQ", "v2")
STAGE_PARAMS = {"I": ("p1",), "II": HEAD1 + HEAD2, "joint": NAMES}
DTYPE = torch.float64


def _device(device: str | None) -> str:
    """"auto" (or None): a GPU when one is present, else the CPU; an explicit name is kept."""
    if device in (None, "auto"):
        return "cuda" if torch.cuda.is_available() else "cpu"
    return device


# --- data ------------------------------------------------------------------------------------------

def sample(n: int, L: int, seed: int, device: str | None = None) -> torch.Tensor:
    """n sequences of L iid N(0,1) scalar tokens (Sec. 5.1.3; d = 1, RC-2), float64, shape (n, L).
    Drawn on the CPU with a seeded generator, then moved, so the sample does not depend on device."""
    g = torch.Generator().manual_seed(int(seed))
    return torch.randn(n, L, generator=g, dtype=DTYPE).to(_device(device))


# --- layer 1, Eq. (9) ------------------------------------------------------------------------------

@lru_cache(maxsize=64)
def _distance_grid_np(L: int, convention: str) -> tuple[np.ndarray, np.ndarray]:
    """(allowed mask, j-offset) for rows 1..L-1, cached as numpy (a cached torch tensor created inside a
    torch.func transform would escape it)."""
    j = (np.arange(1, L)[:, None] - np.arange(L)[None, :]).astype(float)
    if convention == "causal":
        return j >= 1, j - 1
    if convention == "inclusive":
        return j >= 0, j
    raise ValueError(f"unknown Alibi convention {convention!r}")


def _distance_grid(L: int, convention: str, device) -> tuple[torch.Tensor, torch.Tensor]:
    allowed, off = _distance_grid_np(L, convention)
    return (torch.from_numpy(allowed).to(device), torch.from_numpy(off).to(device=device, dtype=DTYPE))


def alibi_weights(L: int, p: torch.Tensor | float, convention: str = "causal",
                  device: str | None = None) -> torch.Tensor:
    """Row-stochastic (L, L) Alibi attention matrix A[s, τ] (0-based), Eq. (3) with RC-1.

    "causal": query s sees τ < s with logit -p (s-τ-1) (distance j = s-τ ≥ 1, weight ∝ e^{-p(j-1)});
    row 0 sees nothing and is all zero (RC-6: x̃_1 = 0).
    "inclusive" (RC-1 alternative): τ ≤ s with logit -p (s-τ) (j ≥ 0); row 0 is zeroed too so
    both conventions share the position set (RC-6)."""
    p = torch.as_tensor(p, dtype=DTYPE, device=device)
    allowed, off = _distance_grid(L, convention, str(p.device))
    logit = torch.where(allowed, -p * off, -torch.inf)
    A = torch.softmax(logit, dim=-1)  # rows 1..L-1 all have an allowed key
    return torch.cat([torch.zeros(1, L, dtype=DTYPE, device=p.device), A], dim=0)


def alibi_last_row(L: int, p: torch.Tensor | float, convention: str = "causal") -> torch.Tensor:
    """Row L of :func:`alibi_weights` (the query at the last position), computed alone: π over s = 1..L-1
    with weight ∝ e^{-p (L-s-1)} ("causal"), over s = 1..L with ∝ e^{-p (L-s)} ("inclusive")."""
    p = torch.as_tensor(p, dtype=DTYPE)
    allowed, off = _distance_grid(L, convention, str(p.device))
    return torch.softmax(torch.where(allowed[-1], -p * off[-1], -torch.inf), dim=-1)


def first_layer(X: torch.Tensor, p1: torch.Tensor | float, convention: str = "causal",
                limit: bool = False) -> torch.Tensor:
    """x̃ of Eq. (9) (RC-1, RC-6), shape (n, L): x̃_s = Σ_{τ<s} e^{-p1(s-1-τ)} x_τ / Σ_{τ<s} e^{-p1(s-1-τ)},
    x̃_1 = 0.  ``limit=True`` is the p1 → ∞ limit (Lemma 5.3): x̃_s = x_{s-1} ("causal") or
    x̃_s = x_s ("inclusive", which selects the current token), x̃_1 = 0 in both."""
    if limit:
        out = torch.zeros_like(X)
        if convention == "causal":
            out[:, 1:] = X[:, :-1]
        elif convention == "inclusive":
            out[:, 1:] = X[:, 1:]
        else:
            raise ValueError(f"unknown Alibi convention {convention!r}")
        return out
    p1 = torch.as_tensor(p1, dtype=DTYPE, device=X.device)
    A = alibi_weights(X.shape[1], p1, convention)
    return X @ A.T


# --- parameters ------------------------------------------------------------------------------------

@dataclass
class Params:
    """The six trainable scalars θ = (p^{(1)}, p^{(2,1)}, w_V^{(2,1)}, w_K^{(2,2)}, w_Q^{(2,2)}, w_V^{(2,2)})
    of Eqs. (9)–(10) (RC-7, RC-8), as float64 torch scalars."""

    p1: torch.Tensor
    p21: torch.Tensor
    v1: torch.Tensor
    wK: torch.Tensor
    wQ: torch.Tensor
    v2: torch.Tensor

    def vector(self) -> torch.Tensor:
        """θ as a (6,) tensor in the order of :data:`NAMES` (differentiable through the fields)."""
        return torch.stack([getattr(self, n).reshape(()) for n in NAMES])

    @classmethod
    def from_vector(cls, theta: torch.Tensor) -> "Params":
        return cls(*(theta[i] for i in range(len(NAMES))))

    def as_dict(self) -> dict[str, float]:
        return {n: float(getattr(self, n)) for n in NAMES}

    def to(self, device: str) -> "Params":
        return Params(*(getattr(self, f.name).to(device) for f in fields(self)))


def init(sigma: float, p1: float = 0.0, device: str | None = None, **overrides: float) -> Params:
    """RC-11 initialisation (App. B: "We initialize […] while the other parameters are all
    initialized at […]"): p1(0) = p1 (default 0), every other parameter = sigma; ``overrides``
    set individual parameters (e.g. unbalanced wK ≠ wQ)."""
    unknown = set(overrides) - set(NAMES)
    if unknown:
        raise KeyError(f"unknown parameter(s) {sorted(unknown)}")
    dev = _device(device)
    vals = {n: float(sigma) for n in NAMES}
    vals["p1"] = float(p1)
    vals.update({k: float(v) for k, v in overrides.items()})
    return Params(**{n: torch.tensor(vals[n], dtype=DTYPE, device=dev) for n in NAMES})


# --- layer 2, Eq. (10), and the target, Eq. (8) ---------------------------------------------------------

def _attend(z: torch.Tensor, softmax: str) -> torch.Tensor:
    """Attention weights over the last axis: the exact softmax, or RC-12's e^{z}/N."""
    if softmax == "exact":
        return torch.softmax(z, dim=-1)
    if softmax == "rc12":
        return torch.exp(z) / z.shape[-1]
    raise ValueError(f"unknown softmax mode {softmax!r} (exact, rc12)")


def layer1_matrix(L: int, p1, convention: str = "causal", limit: bool = False, device=None) -> torch.Tensor:
    """The (L, L) matrix A with x̃ = A x (Eq. (9)): :func:`alibi_weights` at p1, or at the limit the
    shift x̃_s = x_{s-1} ("causal") / identity without row 1 ("inclusive")."""
    if not limit:
        return alibi_weights(L, p1, convention, device)
    eye = torch.eye(L, dtype=DTYPE, device=device)
    A = torch.zeros(L, L, dtype=DTYPE, device=device)
    A[1:] = eye[:-1] if convention == "causal" else eye[1:]
    return A


def head1_coefficients(L: int, params: "Params", layer1: str = "limit", convention: str = "causal") -> torch.Tensor:
    """c ∈ R^L with TF_1 = v1 c·x: c = A(p1)^T π(p21) (head 1 is linear in the tokens)."""
    dev = params.p21.device
    A = layer1_matrix(L, params.p1, convention, limit=(layer1 == "limit"), device=dev)
    return A.T @ alibi_last_row(L, params.p21, convention)


def population_loss_g4(L: int, params: "Params", alpha, *, layer1: str = "limit", convention: str = "causal",
                       lag: int = 2) -> torch.Tensor:
    """E over iid N(0,1) tokens of ½(TF_1 - α x_{L-lag})² = ½(v1² ‖c‖² - 2α v1 c_{L-lag} + α²), exact
    (E x xᵀ = I); c from :func:`head1_coefficients`.  Used where the finite-sample noise of the MC
    L_G4 (O(‖c‖/√n)) would swamp the signal c_{L-2} (e.g. p1 ≈ 0 in joint training)."""
    c = head1_coefficients(L, params, layer1, convention)
    v1 = params.v1
    return 0.5 * (v1 * v1 * (c @ c) - 2 * alpha * v1 * c[L - 1 - lag] + alpha * alpha)


def head1(Xt: torch.Tensor, p21, v1, convention: str = "causal") -> torch.Tensor:
    """TF_1 = v1 Σ_{s=1}^{L-1} π_{L-s}(p21) x̃_s (RC-7): Alibi over distances j = 1..L-1 with weight
    ∝ e^{-p21 (j-1)} ("causal"); "inclusive" reads s = 1..L with weight ∝ e^{-p21 (L-s)}."""
    pi = alibi_last_row(Xt.shape[1], torch.as_tensor(p21, dtype=DTYPE, device=Xt.device), convention)
    return v1 * (Xt @ pi)


def head2(X: torch.Tensor, Xt: torch.Tensor, wK, wQ, v2, softmax: str = "exact") -> torch.Tensor:
    """TF_2 = v2 Σ_{s=2}^{L-1} softmax_s(wK wQ x_L x̃_s) x_s (RC-8; query x_L, key x̃_s, value x_s);
    "rc12": softmax_s(z) → e^{z_s}/N, N = L-2 (RC-12, RC-19)."""
    z = (wK * wQ) * X[:, -1:] * Xt[:, 1:-1]
    return v2 * (_attend(z, softmax) * X[:, 1:-1]).sum(-1)


def forward(X: torch.Tensor, params: Params, layer1: str = "limit", softmax: str = "exact",
            convention: str = "causal", Xt: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor]:
    """(TF_1, TF_2) of Eq. (10), each of shape (n,).  ``layer1``: "limit" (RC-9, x̃_s = x_{s-1}) or
    "finite" (Eq. (9) at params.p1); a precomputed ``Xt`` overrides both."""
    if Xt is None:
        if layer1 not in ("limit", "finite"):
            raise ValueError(f"unknown layer1 mode {layer1!r} (limit, finite)")
        Xt = first_layer(X, params.p1, convention, limit=(layer1 == "limit"))
    tf1 = head1(Xt, params.p21, params.v1, convention)
    tf2 = head2(X, Xt, params.wK, params.wQ, params.v2, softmax)
    return tf1, tf2


def f_ih(X: torch.Tensor, w, softmax: str = "exact") -> torch.Tensor:
    """f_IH = Σ_{s=2}^{L-1} softmax_s(w x_L x_{s-1}) x_s (Eq. (4) with W* = w; RC-3), shape (n,)."""
    z = w * X[:, -1:] * X[:, :-2]
    return (_attend(z, softmax) * X[:, 1:-1]).sum(-1)


def target(X: torch.Tensor, alpha, w, softmax: str = "exact", lag: int = 2) -> tuple[torch.Tensor, torch.Tensor]:
    """y = (α x_{L-lag}, (1-α) f_IH) of Eq. (8) (RC-5).  lag = 2 is the paper's 4-gram x_{L-2};
    lag = 1 / 0 are Remark 5.1's 3-/2-gram targets x_{L-1}, x_L."""
    return alpha * X[:, -1 - lag], (1 - alpha) * f_ih(X, w, softmax)


def losses(X: torch.Tensor, params: Params, alpha, w, *, layer1: str = "limit", softmax: str = "exact",
           convention: str = "causal", target_softmax: str | None = None, lag: int = 2,
           Xt: torch.Tensor | None = None, Y: tuple | None = None, g4: str = "mc") -> tuple[torch.Tensor, torch.Tensor]:
    """(L_G4, L_IH) = (½ mean (TF_1 - y_1)², ½ mean (TF_2 - y_2)²), Eq. (11) with RC-10, on the sample X.
    ``softmax`` applies to model and target (RC-12 replaces both) unless ``target_softmax`` is given;
    ``Xt``/``Y`` pass precomputed first-layer output / targets; ``g4="population"`` takes L_G4 as its
    exact Gaussian expectation (:func:`population_loss_g4`) instead of the sample mean."""
    tf1, tf2 = forward(X, params, layer1=layer1, softmax=softmax, convention=convention, Xt=Xt)
    y1, y2 = Y if Y is not None else target(X, alpha, w, target_softmax or softmax, lag)
    if g4 == "population":
        lg4 = population_loss_g4(X.shape[1], params, alpha, layer1=layer1, convention=convention, lag=lag)
    elif g4 == "mc":
        lg4 = 0.5 * ((tf1 - y1) ** 2).mean()
    else:
        raise ValueError(f"unknown g4 mode {g4!r} (mc, population)")
    return lg4, 0.5 * ((tf2 - y2) ** 2).mean()


def loss_of_vector(X: torch.Tensor, alpha, w, **kw: Any):
    """θ (6,) ↦ L(θ) = L_G4 + L_IH, for torch.func (hessian, grad); ``kw`` as in :func:`losses`."""
    def f(theta: torch.Tensor) -> torch.Tensor:
        a, b = losses(X, Params.from_vector(theta), alpha, w, **kw)
        return a + b
    return f


# --- gradient descent, Eq. (12) --------------------------------------------------------------------

def train(X: torch.Tensor, params0: Params, alpha, w, *, lr: float, steps: int, stage: str = "II",
          record_every: int = 1, softmax: str = "exact", layer1: str | None = None,
          convention: str = "causal", lag: int = 2, target_softmax: str | None = None,
          g4: str = "mc", device: str | None = None) -> dict[str, np.ndarray]:
    """Full-batch GD θ ← θ - lr ∇L(θ) on the fixed sample X (the Euler discretisation of GF (12)).

    ``stage``: "I" trains p1 only (layer1 "finite"); "II" trains (p21, v1, wK, wQ, v2) with the first
    layer frozen (layer1 "limit" by default, RC-9; "finite" freezes it at params0.p1); "joint" trains
    all six (layer1 "finite").  ``g4="population"``: L_G4 as its exact expectation.  Returns numpy arrays t (= step·lr, GF time), step, each parameter,
    L_G4, L_IH, recorded every ``record_every`` steps and at the last step."""
    if stage not in STAGE_PARAMS:
        raise ValueError(f"unknown stage {stage!r} (I, II, joint)")
    dev = _device(device) if device is not None else X.device
    X = X.to(dev)
    layer1 = layer1 or ("limit" if stage == "II" else "finite")
    if stage != "II" and layer1 != "finite":
        raise ValueError(f"stage {stage} trains p1: layer1 must be 'finite'")
    mask = torch.tensor([n in STAGE_PARAMS[stage] for n in NAMES], dtype=DTYPE, device=dev)
    theta = params0.to(dev).vector().detach().clone()
    Y = tuple(y.detach() for y in target(X, alpha, w, target_softmax or softmax, lag))
    Xt_fixed = (first_layer(X, theta[0], convention, limit=(layer1 == "limit")).detach()
                if stage == "II" else None)
    kw = dict(layer1=layer1, softmax=softmax, convention=convention, Xt=Xt_fixed, Y=Y, g4=g4)
    rec: dict[str, list] = {k: [] for k in ("step", *NAMES, "L_G4", "L_IH")}

    def record(step, th, lg, li):
        rec["step"].append(step)
        for i, n in enumerate(NAMES):
            rec[n].append(float(th[i]))
        rec["L_G4"].append(float(lg))
        rec["L_IH"].append(float(li))

    for step in range(steps + 1):
        th = theta.requires_grad_(True)
        lg, li = losses(X, Params.from_vector(th), alpha, w, **kw)
        if step % record_every == 0 or step == steps:
            record(step, theta.detach(), lg.detach(), li.detach())
        if step == steps:
            break
        (g,) = torch.autograd.grad(lg + li, th)
        theta = (theta.detach() - lr * mask * g).detach()
    out = {k: np.asarray(v, dtype=float) for k, v in rec.items()}
    out["t"] = out["step"] * lr
    return out
