"""Thm 4.3 (App. A.2; v3 Thm C.2): a two-layer H-head transformer without FFNs that approximates IH_n
(Eq. 6, ``targets.ihn``), built from primitives; and the R2 Step-1 normaliser question (IH-T43-norm).

Construction (reconstruction, spec §2.3; RC-1, RC-16):

* embedding dimension D = n·d (RC-16): token x_s ↦ (x_s, 0, …, 0), n blocks of size d;
* layer 1 (with residual): H heads split into n−1 groups, group i = 1..n−1 has m heads; head h of group i
  has no DP (W_K W_Q = 0), a strictly causal Alibi slope β_h (RC-1) and value c_h·S_i, where S_i moves
  block 0 into block i.  With the Lemma D.2 fit φ_i = Σ_h α_h e^{-β_h(t-1)} ≈ δ_i (``kernels.fit_delta``)
  the value scale is
    - ``"stationary"`` (default, the modified argument): c_h = α_h Σ_{f=1}^∞ e^{-β_h(f-1)} = α_h/(1 − e^{-β_h});
    - ``"printed"`` (R2, verbatim): c_h = α_h Σ_{f=0}^{H_i} e^{-β_h(f-1)} with H_i the group size;
    - ``"none"``: c_h = α_h.
  Block i of position s is then Σ_{j=1}^{s-1} ψ_{i,s}(j) x_{s-j} (``kernels.group_kernel``) ≈ x_{s-i};
* layer 2 (no residual): one DP head (the other heads zero), no Alibi slope; RPE entries −∞ restrict the
  last query to the keys s = n..L−1 of Eq. (6) (RC-20).  Query = blocks (n−2, …, 0) of
  position L = vec(X_{L-n+2:L}) oldest first; key = blocks (n−1, …, 1) of position s = vec(X_{s-n+1:s-1});
  bilinear form W*; value = block 0 (x_s).  This is ``targets.patches``' ordering.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import sympy as sp
import torch

from .. import printed
from .kernels import KernelFit, fit_delta, normaliser, printed_scale, stationary_scale
from .targets import ihn

SCALES = ("stationary", "printed", "none")


@dataclass
class Construction:
    n: int
    d: int
    W: torch.Tensor                      # W* ∈ R^{(n-1)d × (n-1)d}
    groups: list[KernelFit | None]       # groups[i-1]: the D.2 fit for δ_i (None: group dropped)
    scale: str = "stationary"
    exact: bool = False                  # exact shift kernels (β = ∞ limit), for the n-gram sanity check
    _K: dict = field(default_factory=dict, repr=False)

    @property
    def H(self) -> int:
        return sum(len(g.alpha) for g in self.groups if g is not None)

    def value_scales(self, i: int) -> np.ndarray:
        g = self.groups[i - 1]
        if g is None:
            return np.zeros(0)
        Hi = len(g.alpha)
        f = {"stationary": stationary_scale, "printed": lambda b: printed_scale(b, Hi), "none": lambda b: 1.0}
        return np.array([a * f[self.scale](b) for a, b in zip(g.alpha, g.beta)])

    def param_norms(self) -> dict:
        cs = [np.abs(self.value_scales(i)).max() for i in range(1, self.n) if self.groups[i - 1] is not None]
        al = [g.max_abs_alpha for g in self.groups if g is not None]
        be = [max(g.beta) for g in self.groups if g is not None]
        return {"max|alpha|": float(max(al)) if al else 0.0, "max beta": float(max(be)) if be else 0.0,
                "max|W_V| (value scale)": float(max(cs)) if cs else 0.0,
                "||W*||_2": float(torch.linalg.matrix_norm(self.W, ord=2))}

    def kernel_matrix(self, i: int, L: int) -> torch.Tensor:
        """K_i (L×L): block i of position t (0-based rows) = Σ_{t'} K_i[t, t'] x_{t'} (strictly causal)."""
        key = (i, L)
        if key not in self._K:
            if self.exact:
                K = torch.zeros(L, L, dtype=torch.float64)
                for t in range(i, L):
                    K[t, t - i] = 1.0
            else:
                K = torch.zeros(L, L, dtype=torch.float64)
                g = self.groups[i - 1]
                if g is not None:
                    t = torch.arange(L, dtype=torch.float64)
                    jd = t[:, None] - t[None, :]                     # distance j = t - t'
                    mask = jd >= 1
                    for c, b in zip(self.value_scales(i), g.beta):
                        R = torch.where(mask, -b * (jd - 1), torch.tensor(-np.inf, dtype=torch.float64))
                        A = torch.nan_to_num(torch.softmax(R, dim=-1), nan=0.0)   # row 0: no keys -> 0 (RC-6)
                        K = K + c * A
            self._K[key] = K
        return self._K[key]

    def first_layer(self, X: torch.Tensor) -> torch.Tensor:
        """(B, L, d) -> (B, L, n, d): block 0 = x_s (residual), block i ≈ x_{s-i}."""
        L = X.shape[1]
        blocks = [X] + [torch.einsum("ts,bsd->btd", self.kernel_matrix(i, L), X) for i in range(1, self.n)]
        return torch.stack(blocks, dim=2)

    def __call__(self, X: torch.Tensor) -> torch.Tensor:
        """TF(X)_{-1} ∈ R^d (B, d)."""
        n, d = self.n, self.d
        Bsz, L, _ = X.shape
        Hd = self.first_layer(X)
        q = Hd[:, L - 1, list(range(n - 2, -1, -1)), :].reshape(Bsz, (n - 1) * d)
        keys = Hd[:, n - 1: L - 1, list(range(n - 1, 0, -1)), :].reshape(Bsz, L - n, (n - 1) * d)
        vals = Hd[:, n - 1: L - 1, 0, :]
        scores = torch.einsum("bi,ij,bsj->bs", q, self.W.to(X.dtype), keys)
        return torch.einsum("bs,bsd->bd", torch.softmax(scores, dim=-1), vals)

    def target(self, X: torch.Tensor) -> torch.Tensor:
        return ihn(X, self.W, self.n)


def build(n: int, d: int, W: torch.Tensor, m: int, b_max: float, scale: str = "stationary",
          drop_group: int | None = None, exact: bool = False) -> Construction:
    """The Thm 4.3 construction with m heads per kernel group (H = (n−1)·m); ``drop_group`` plants a missing group."""
    if scale not in SCALES:
        raise ValueError(f"scale must be one of {SCALES}")
    groups = [None if i == drop_group else fit_delta(i, m, b_max) for i in range(1, n)]
    return Construction(n, d, W, groups, scale, exact)


def random_W(n: int, d: int, norm: float, seed: int) -> torch.Tensor:
    """A W* ∈ R^{(n-1)d×(n-1)d} with spectral norm ``norm`` (Gaussian, rescaled)."""
    g = torch.Generator().manual_seed(int(seed) % (2**63))
    W = torch.randn((n - 1) * d, (n - 1) * d, generator=g, dtype=torch.float64)
    return W * (norm / torch.linalg.matrix_norm(W, ord=2))


def block_errors(cons: Construction, L: int) -> np.ndarray:
    """ℓ1 kernel error of block i at each position (rows i = 1..n-1, columns 1-based s = 1..L):
    Σ_j |K_i[s, s-j] − δ_i(j)| = sup over unit tokens (ℓ∞-token ball) of the block error; positions s ≤ i have no
    x_{s-i} and are reported as nan."""
    out = np.full((cons.n - 1, L), np.nan)
    for i in range(1, cons.n):
        K = cons.kernel_matrix(i, L).numpy()
        for t in range(i, L):
            ideal = np.zeros(L)
            ideal[t - i] = 1.0
            out[i - 1, t] = np.abs(K[t] - ideal).sum()
    return out


def derived_bound(cons: Construction, B: float = 1.0) -> float:
    """First-order error bound (Lemma D.1 form ‖softmax(a) − softmax(b)‖_1 ≤ 2‖a − b‖_∞, value norm ≤ B):
    |TF − IH_n| ≤ 2B·‖W*‖_2·(‖Δq‖‖k̃‖ + ‖q‖‖Δk‖) with ‖Δblock_i‖ ≤ B·ε_i, ε_i = ℓ1(N) error of the D.2 fit
    (uniform in s by the periodisation identity, stationary scale only), ‖q‖ ≤ B√(n−1)."""
    eps = [g.l1 if g is not None else 2.0 for g in cons.groups]
    n = cons.n
    dq = B * np.sqrt(sum(e ** 2 for e in eps[: n - 2]))
    dk = B * np.sqrt(sum(e ** 2 for e in eps))
    q = B * np.sqrt(n - 1)
    Wn = float(torch.linalg.matrix_norm(cons.W, ord=2))
    return float(2 * B * Wn * (dq * (q + dk) + q * dk))


# --- IH-T43-norm: the R2 Step-1 display, symbolically -------------------------------------------------------

s_, H_, beta_, f_ = printed.s, printed.H_i, printed.beta, printed.f
j_, k_ = sp.symbols("j k", positive=True, integer=True)
generic = printed.generic
Z_sym = printed.normaliser_closed  # R2's attention normaliser Σ_{f=1}^{s} e^{-β(f-1)}
printed_scale_sym = printed.value_scale_closed  # R2's value scaling Σ_{f=0}^{H_i} e^{-β(f-1)}


def ratio_sym():
    """R(s, H_i, β) = printed scale × a_{s-j,s} / e^{-β(j-1)}: Step 1 is exact iff R ≡ 1."""
    return generic(sp.simplify(printed_scale_sym() / Z_sym()))


def ratio_table(s_values=range(1, 11), betas=(0.1, 1.0, 3.0), H_values=(1, 2, 4, 8)) -> dict:
    """|R − 1| (max relative deviation of the printed step from the unnormalised kernel) per s, with R2's
    normaliser Σ_{f=1}^{s}; also the stationary-scale deviation Z_∞/Z_s − 1 = e^{-βs}/(1 − e^{-βs})."""
    rows = []
    for s in s_values:
        dev_p = {f"beta={b:g},H_i={H}": abs(printed_scale(b, H) / normaliser(s, b) - 1) for b in betas for H in H_values}
        dev_s = {f"beta={b:g}": abs(stationary_scale(b) / normaliser(s, b) - 1) for b in betas}
        rows.append({"s": s, "printed max rel dev": max(dev_p.values()), "printed": dev_p,
                     "stationary per-head max rel dev": max(dev_s.values()), "stationary": dev_s})
    return {"rows": rows}
