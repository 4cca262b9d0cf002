"""Float64 derivatives of the n = 3 first-step loss L1(θ; T) (Prop. 1, Lemma 6, Thm 4; App. B, E).

The six relation logits are derived in ``model.py`` from the construction; here they are read back
as exact quadratic forms l_j(v) = vᵀA_j v (checked to be exact, no linear or constant part), and
L1(θ; T) = −l_1(v)/T + logsumexp(l(v)/T) with v = softmax(θ) is evaluated in torch (float64,
log-space), so that torch.func gives exact-in-float64 Hessians and third-derivative tensors.

The face θ5 = θ6 = −∞ (App. B, after Lemma 5) is represented explicitly: θ ∈ R⁴ and
v = (softmax(θ), 0, 0).  The pairwise line of Theorem 4 is v = (x, x, ½ − x, ½ − x, 0, 0).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import sympy as sp
import torch
from torch.func import hessian, jacfwd, vmap

from .symbolic import n3

DTYPE = torch.float64


@lru_cache(maxsize=1)
def relation_forms() -> np.ndarray:
    """A ∈ Q^{6×6×6} (as float64) with l(r_j) = vᵀ A_j v, derived from the model's relation logits."""
    m = n3()
    forms = []
    for l in m.relation_logits:
        A = sp.hessian(l, m.v) / 2
        v = sp.Matrix(m.v)
        if sp.expand(l - (v.T * A * v)[0]) != 0:
            raise ValueError(f"relation logit {l} is not a homogeneous quadratic form in v")
        forms.append(np.array(A.tolist(), dtype=float))
    return np.stack(forms)


def _forms(device: str = "cpu") -> torch.Tensor:
    return torch.tensor(relation_forms(), dtype=DTYPE, device=device)


def attention(theta: torch.Tensor, face: bool = False) -> torch.Tensor:
    """v = softmax(θ) (θ ∈ R⁶), or on the face v = (softmax(θ), 0, 0) (θ ∈ R⁴)."""
    v = torch.softmax(theta, dim=-1)
    if face:
        v = torch.cat([v, torch.zeros(v.shape[:-1] + (2,), dtype=v.dtype, device=v.device)], dim=-1)
    return v


def logits_v(v: torch.Tensor, A: torch.Tensor) -> torch.Tensor:
    return torch.einsum("...i,jik,...k->...j", v, A, v)


def loss_v(v: torch.Tensor, T: float, A: torch.Tensor) -> torch.Tensor:
    """ℓ1(v) = −l_1/T + logsumexp(l/T) (App. E form of −log p1(r1))."""
    l = logits_v(v, A) / T
    return torch.logsumexp(l, dim=-1) - l[..., 0]


def loss_theta(theta: torch.Tensor, T: float, A: torch.Tensor, face: bool = False) -> torch.Tensor:
    return loss_v(attention(theta, face), T, A)


def hessians(thetas: np.ndarray, T: float, face: bool = False) -> np.ndarray:
    """∇²_θ L1 at each row of ``thetas`` (torch.func.hessian, vmapped)."""
    A = _forms()
    f = lambda th: loss_theta(th, T, A, face)  # noqa: E731
    th = torch.as_tensor(np.atleast_2d(thetas), dtype=DTYPE)
    return vmap(hessian(f))(th).numpy()


def third_derivatives(thetas: np.ndarray, T: float, face: bool = False) -> np.ndarray:
    """∇³_θ L1 (d×d×d) at each row of ``thetas`` (jacfwd of the Hessian, vmapped)."""
    A = _forms()
    f = lambda th: loss_theta(th, T, A, face)  # noqa: E731
    th = torch.as_tensor(np.atleast_2d(thetas), dtype=DTYPE)
    return vmap(jacfwd(hessian(f)))(th).numpy()


def spectral_norms(H: np.ndarray) -> np.ndarray:
    """‖H‖₂ of each symmetric matrix (largest |eigenvalue|)."""
    return np.max(np.abs(np.linalg.eigvalsh(H)), axis=-1)


def tensor_norms(D3: np.ndarray, seed: int, directions: int = 4000, power_steps: int = 30) -> np.ndarray:
    """max_{‖u‖=1} |D³[u, u, u]| of each symmetric 3-tensor (the Hessian-Lipschitz norm, Banach's theorem):
    the best of ``directions`` random unit vectors, refined by the symmetric higher-order power method."""
    D3 = np.atleast_3d(D3) if D3.ndim == 3 else D3
    D3 = D3.reshape((-1,) + D3.shape[-3:])
    d = D3.shape[-1]
    rng = np.random.default_rng(seed)
    U = rng.normal(size=(directions, d))
    U /= np.linalg.norm(U, axis=1, keepdims=True)
    out = np.empty(D3.shape[0])
    for i, t in enumerate(D3):
        vals = np.einsum("ijk,ni,nj,nk->n", t, U, U, U)
        best_idx = np.argsort(-np.abs(vals))[:4]
        best = np.max(np.abs(vals))
        for b in best_idx:
            u = U[b] * np.sign(vals[b])
            for _ in range(power_steps):
                g = np.einsum("ijk,j,k->i", t, u, u)
                ng = np.linalg.norm(g)
                if ng == 0:
                    break
                u = g / ng
                best = max(best, abs(float(np.einsum("ijk,i,j,k->", t, u, u, u))))
        out[i] = best
    return out


# --- candidate points θ for sup_θ (Prop. 1) -------------------------------------------------

def random_thetas(count: int, seed: int, scale: float = 2.0) -> np.ndarray:
    """Random θ ∈ R⁶: half Gaussian N(0, scale²), half log of Dirichlet(½) points (near the boundary)."""
    rng = np.random.default_rng(seed)
    g = rng.normal(0.0, scale, size=(count - count // 2, 6))
    dvals = np.log(np.clip(rng.dirichlet(np.full(6, 0.5), size=count // 2), 1e-12, None))
    return np.vstack([g, dvals])


def saddle_thetas(count: int, seed: int, radius: float = 0.3) -> np.ndarray:
    """θ near the saddle ṽ = (¼, ¼, ¼, ¼, 0, 0): θ = (0, 0, 0, 0, −8, −8) + small perturbations."""
    rng = np.random.default_rng(seed)
    base = np.array([0.0, 0.0, 0.0, 0.0, -8.0, -8.0])
    return base + radius * rng.normal(size=(count, 6))


# --- the saddle and the pairwise line (Lemma 5, Lemma 6, Theorem 4) -------------------------

SADDLE_FACE = np.zeros(4)  # v = (¼, ¼, ¼, ¼, 0, 0) on the explicit face
SADDLE_PROXY = np.array([0.0, 0.0, 0.0, 0.0, -40.0, -40.0])  # 6-dim proxy of θ̃


def saddle_gaps() -> list[sp.Expr]:
    """d_j = l_j − l_1 at ṽ = (¼, ¼, ¼, ¼, 0, 0) (exact rationals), j = 1..6."""
    m = n3()
    at = dict(zip(m.v, [sp.Rational(1, 4)] * 4 + [0, 0]))
    l = [sp.nsimplify(x.xreplace(at)) for x in m.relation_logits]
    return [x - l[0] for x in l]


def line_gaps() -> tuple[sp.Symbol, list[sp.Expr]]:
    """(x, [d_j(x)]) with d_j = l_j − l_1 on v = (x, x, ½ − x, ½ − x, 0, 0) (Theorem 4 proof)."""
    m = n3()
    x = sp.Symbol("x", real=True)
    half = sp.Rational(1, 2)
    at = dict(zip(m.v, [x, x, half - x, half - x, 0, 0]))
    l = [sp.expand(e.xreplace(at)) for e in m.relation_logits]
    return x, [sp.expand(e - l[0]) for e in l]


def line_loss_and_slope(T: float):
    """Float64 L1(x; T) = logsumexp(d(x)/T) and its derivative Σ_j softmax(d/T)_j d_j′(x)/T on the line."""
    x, d = line_gaps()
    dfun = sp.lambdify(x, d, "numpy")
    dpfun = sp.lambdify(x, [sp.diff(e, x) for e in d], "numpy")

    def loss(xv: float) -> float:
        return float(np.logaddexp.reduce(np.asarray(dfun(xv), float) / T))

    def slope(xv: float) -> float:
        z = np.asarray(dfun(xv), float) / T
        p = np.exp(z - np.logaddexp.reduce(z))
        return float(np.dot(p, np.asarray(dpfun(xv), float)) / T)

    return loss, slope


def line_minimiser(T: float, lo: float = 1e-6, hi: float = 0.25 - 1e-9, grid: int = 4001) -> float:
    """argmin of the exact L1 on the pairwise line over (0, ¼): grid search, then brentq on L1′ = 0."""
    from scipy.optimize import brentq

    loss, slope = line_loss_and_slope(T)
    xs = np.linspace(lo, hi, grid)
    vals = np.array([loss(t) for t in xs])
    k = int(np.argmin(vals))
    a, b = xs[max(k - 1, 0)], xs[min(k + 1, grid - 1)]
    if slope(a) < 0 < slope(b):
        return float(brentq(slope, a, b, xtol=1e-15, rtol=1e-15, maxiter=200))
    return float(xs[k])


# --- sup over θ of the derivative norms (Prop. 1) --------------------------------------------

def derivative_norms(points: np.ndarray, T: float, order: int, seed: int, top: int = 8) -> np.ndarray:
    """‖∇²L1‖₂ (order 2) or max_u |∇³L1[u,u,u]| (order 3) at each point (order 3: the injective norm is
    computed for the ``top`` points by Frobenius norm, the others get their Frobenius norm / d^{3/2}, a lower
    bound of the injective norm)."""
    if order == 2:
        return spectral_norms(hessians(points, T))
    D3 = third_derivatives(points, T)
    frob = np.sqrt(np.sum(D3 ** 2, axis=(1, 2, 3)))
    out = frob / D3.shape[-1] ** 1.5
    idx = np.argsort(-frob)[:top]
    out[idx] = tensor_norms(D3[idx], seed, directions=1000)
    return out


def local_search(point: np.ndarray, objective, seed: int, rounds: int = 20, batch: int = 128,
                 scale: float = 0.3) -> tuple[np.ndarray, float]:
    """Batched random hill-climbing of ``objective`` (vectorised over rows), shrinking the step on failure."""
    rng = np.random.default_rng(seed)
    best, value = point.copy(), float(objective(point[None])[0])
    for _ in range(rounds):
        trial = best + scale * rng.normal(size=(batch, best.size))
        vals = objective(trial)
        k = int(np.argmax(vals))
        if vals[k] > value:
            best, value = trial[k], float(vals[k])
        else:
            scale *= 0.5
    return best, value


def logits_and_jacobian(thetas: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(l(θ), ∂l/∂θ) batched in numpy: l_j = vᵀA_j v, ∂l_j/∂θ = 2(A_j v)ᵀ(Diag(v) − vvᵀ), v = softmax(θ)."""
    A = relation_forms()
    z = thetas - thetas.max(axis=-1, keepdims=True)
    v = np.exp(z) / np.exp(z).sum(axis=-1, keepdims=True)
    Av = np.einsum("jik,nk->nji", A, v)
    l = np.einsum("ni,nji->nj", v, Av)
    Jv = v[:, :, None] * np.eye(v.shape[-1]) - v[:, :, None] * v[:, None, :]
    return l, 2 * Av @ Jv


def project_to_multitie(thetas: np.ndarray, k: int, steps: int = 30) -> np.ndarray:
    """Project each θ onto {l_{i1} = … = l_{ik}} for its k largest logits (batched least-norm Gauss–Newton
    steps with the analytic Jacobian); keep the rows where the k logits are on top at the result, the ties hold
    to 1e-12 and the constraint Jacobian has full rank k − 1."""
    th = np.array(np.atleast_2d(thetas), dtype=float)
    l, _ = logits_and_jacobian(th)
    idx = np.argsort(-l, axis=-1)[:, :k]
    n = th.shape[0]
    M = np.zeros((n, k - 1, l.shape[-1]))
    rows = np.arange(k - 1)
    M[np.arange(n)[:, None], rows[None, :], idx[:, 1:]] = 1.0
    M[np.arange(n)[:, None], rows[None, :], idx[:, :1]] = -1.0
    for _ in range(steps):
        l, G = logits_and_jacobian(th)
        c = np.einsum("nmj,nj->nm", M, l)
        th = th - np.einsum("nim,nm->ni", np.linalg.pinv(M @ G), c)
    l, G = logits_and_jacobian(th)
    c = np.abs(np.einsum("nmj,nj->nm", M, l)).max(axis=-1)
    top = np.sort(np.argsort(-l, axis=-1)[:, :k], axis=-1)
    ok = (c < 1e-12) & (top == np.sort(idx, axis=-1)).all(axis=-1) & \
        (np.linalg.matrix_rank(M @ G) == k - 1) & np.isfinite(th).all(axis=-1)
    return th[ok]


def scaled_families(seed: int, n_starts: int, n_offsets: int, multiplicities=(2, 3)) -> tuple[np.ndarray, np.ndarray]:
    """(centres θ*, offsets ξ): tie points of the k largest logits (k in ``multiplicities``) and random offsets,
    so that θ* + T·ξ is the same configuration in the scaled coordinates at every T (the family's T^order-scaled
    derivative norms converge as T → 0)."""
    rng = np.random.default_rng(seed)
    starts = random_thetas(n_starts, seed + 11)
    centres = np.vstack([project_to_multitie(starts, k) for k in multiplicities])
    offsets = np.vstack([np.zeros((1, 6)), 1.5 * rng.normal(size=(n_offsets - 1, 6))])
    return centres.reshape(-1, 6), offsets


def sup_sweep(Ts, order: int, seed: int, n_random: int = 200, n_ties: int = 60, n_offsets: int = 6,
              search_rounds: int = 8, starts: int = 2, batch: int = 64, preselect: int = 48,
              near: float = 10.0) -> dict:
    """Estimate sup_θ ‖∇^order L1(θ; T)‖ (order 2: Hessian spectral norm; 3: max_u |∇³L1[u,u,u]|) per T over a
    set of T-scaled configurations θ = θ* + T·ξ, and follow one of them as the witness family (Prop. 1).

    Configurations (θ*, ξ): θ* where the 2 or 3 largest logits tie (there the (1/T²)·covariance and the
    (1/T³)·third-cumulant terms of the softmax survive), ξ = 0 and random offsets; the best one at the smallest T
    with ξ improved by local search; and every fixed probe point (random θ, θ near the saddle) that wins at
    some T, rescaled to (θ*, ξ = (θ − θ*)/T) with θ* its nearest 2-, 3- or 4-tie, when ‖θ − θ*‖ ≤ near·T (it is
    near a tie at the scale T).  The same configurations are evaluated at every T, so the estimate is consistent
    across the grid; the fixed probes' own maxima are reported separately.  For order 3 the tensor norm is
    computed for the ``preselect`` candidates with the largest Hessian norm.  The sampled max is a lower estimate
    of the supremum; the witness is the configuration with the largest min over T of T^order·norm."""
    Ts = [float(t) for t in Ts]
    t_min = min(Ts)
    probes = np.vstack([random_thetas(n_random, seed), saddle_thetas(max(n_random // 5, 10), seed + 2)])
    centres, offsets = scaled_families(seed + 1, n_ties, n_offsets)
    pairs = [(c, xi) for c in centres for xi in offsets]

    def norms(P, T):
        if order == 3 and len(P) > preselect:
            h = spectral_norms(hessians(P, T))
            keep = np.argsort(-h)[:preselect]
            out = np.zeros(len(P))
            out[keep] = derivative_norms(P[keep], T, 3, seed)
            return out
        return derivative_norms(P, T, order, seed)

    def at(T, prs):
        return np.array([c + T * xi for c, xi in prs])

    vals = norms(at(t_min, pairs), t_min)
    for k in np.argsort(-vals)[:starts]:
        c, xi0 = pairs[k]
        obj = lambda X, c=c: t_min ** order * derivative_norms(c + t_min * X, t_min, order, seed)  # noqa: E731
        xi, _ = local_search(xi0, obj, seed + int(k), rounds=search_rounds, batch=batch, scale=0.5)
        pairs.append((c, xi))
    probe_max, rescaled = [], 0
    for T in Ts:
        pv = norms(probes, T)
        probe_max.append(float(np.max(pv)))
        p = probes[int(np.argmax(pv))]
        for k in (2, 3, 4):
            c = project_to_multitie(p[None], k)
            if len(c) and np.linalg.norm(p - c[0]) <= near * T:
                pairs.append((c[0], (p - c[0]) / T))
                rescaled += 1
    table = np.array([norms(at(T, pairs), T) * T ** order for T in Ts])  # (T, configuration)
    sup = [float(row.max()) / T ** order for row, T in zip(table, Ts)]
    j = int(np.argmax(table.min(axis=0)))
    w_centre, w_xi = pairs[j]
    wit = [float(table[i, j]) / T ** order for i, T in enumerate(Ts)]
    lw = logits_v(attention(torch.tensor(w_centre)), _forms()).numpy()
    return {"T": Ts, "sup": sup, "witness": wit, "probe_max": probe_max,
            "witness_theta_star": w_centre.tolist(), "witness_xi": w_xi.tolist(),
            "witness_v": attention(torch.tensor(w_centre)).numpy().tolist(), "witness_logits": lw.tolist(),
            "points": {"probes (fixed θ)": len(probes), "tie centres": len(centres), "offsets per centre": len(offsets),
                       "configurations": len(pairs), "rescaled probe winners": rescaled}}


# --- general n: the post-Stage-1 Hessian of L1(θ, D) (Lemma 10) ------------------------------

def dataset_hessian(batch, theta: np.ndarray, T: float) -> np.ndarray:
    """∇²_θ L1(θ, D) for a ``general_n.Batch`` D (relation logits l = ṽᵀQṽ, ṽ = (softmax(θ), 1), derived from
    the construction there), by torch.func.hessian of the float64 log-space loss."""
    Q = torch.as_tensor(batch.Q, dtype=DTYPE)
    tgt = torch.as_tensor(batch.target)
    rows = torch.arange(len(tgt))

    def loss(th):
        v = torch.cat([torch.softmax(th, 0), torch.ones(1, dtype=DTYPE)])
        l = torch.einsum("a,smab,b->sm", v, Q, v) / T
        return (torch.logsumexp(l, 1) - l[rows, tgt]).mean()

    return hessian(loss)(torch.as_tensor(np.asarray(theta, float), dtype=DTYPE)).numpy()
