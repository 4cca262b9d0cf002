"""Proposition 1 (Sec. 4; proof App. F): model-side helpers.

Tokens are exactly features (Sec. 3.1), so for query v_k a prompt enters only through its counts n
(|V_m| = n_m) and Attn_m = n_m e^{q_{k,m}} / Σ_j n_j e^{q_{k,j}} (Lemma 3 proof; ``counts.attn``);
ŷ = Σ_m Attn_m f(v_m) (Eq. 10).

Derived per-prompt facts used by the claims (``claims_prop1.py``), with u := e_k − Attn (1ᵀu = 0):

* ŷ − f_k = Σ_{n≠k} Attn_n (f_n − f_k) = −uᵀf  (Σ_m Attn_m = 1; App. F, 2nd display), hence
  |ŷ − f_k| ≤ max_n |f_n − f_k| · (1 − Attn_k)                                   (P1-pred, derived)
  with equality when all off-target mass sits on the argmax — so C(f) = max_n (f_n − f_k)² is tight.
* For a task law D_f with second moment S = E[f fᵀ] (f independent of the tokens), the per-prompt
  loss is ½ E_f[(uᵀf)²] = ½ uᵀSu ≥ ½ λ_⊥ |u|² ≥ ½ λ_⊥ · K/(K−1) · (1 − Attn_k)²,
  λ_⊥ := λ_min(S restricted to 1^⊥)  (|u|² = (1−A_k)² + Σ_{n≠k} A_n² ≥ (1−A_k)² K/(K−1)).
  So "loss = O(ε²) ⇒ 1 − Attn_k = O(ε)" (Prop. 1, first claim) holds with constant (2/λ_⊥)^{1/2} when
  λ_⊥ > 0 and can fail when λ_⊥ = 0 — e.g. any point-mass D_f with K ≥ 3 (rank-one S).
* Duplicate-value family: f = LΔ·(0, 0, 1) on K = 3 orthonormal / scaled-orthogonal features (in F
  with c_nd = 1: every k has a k' at the full Lipschitz gap).  With G = VᵀV = r²I the q-update
  g = r⁴H decouples the query rows, and row 1 follows GD on L_1(q_{1,·}) = ½E[(ŷ − f_1)² | x_q = v_1],
  which is invariant under exchanging the entries q_{1,1} ↔ q_{1,2} (f_1 = f_2 and (n_1, n_2) is
  exchangeable since p_1 = p_2).  GD from Q = 0 therefore keeps q_{1,1} = q_{1,2}, so
  E[Attn_1 | x_q = v_1] = E[Attn_2 | x_q = v_1] ≤ ½ at every step, while the
  loss → its floor ½(LΔ)²((2/3)(1/3)^N + (1/3)(2/3)^N) (prompts with no token of a matching value).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np
from scipy.special import logsumexp

from theoryverify.roundoff import NOISE_FLOOR

from ..model import counts
from . import dynamics
from ..model.geometry import in_F, lipschitz_on_V

# ---- per-prompt quantities -------------------------------------------------------------------


def attention(n: np.ndarray, q_row: np.ndarray) -> np.ndarray:
    """Attn (S×K) for count vectors n (S×K) and one query row of q (Lemma 3 proof)."""
    return counts.attn(np.atleast_2d(np.asarray(n, float)), np.asarray(q_row, float))


def residual(A: np.ndarray, f: np.ndarray, k: int) -> np.ndarray:
    """ŷ − f(v_k) (Eq. 10), per prompt (rows of A)."""
    return A @ f - f[k]


def pred_constant(f: np.ndarray, k: int) -> float:
    """C(f) = max_n (f_n − f_k)²: the derived (tight) constant of P1-pred."""
    return float(np.max((f - f[k]) ** 2))


def lambda_perp(S: np.ndarray) -> float:
    """λ_min of the task second moment S restricted to 1^⊥ (orthonormal basis of 1^⊥ by QR)."""
    K = S.shape[0]
    B = np.linalg.qr(np.column_stack([np.ones(K), np.eye(K)[:, :K - 1]]))[0][:, 1:]
    return float(np.linalg.eigvalsh(B.T @ S @ B).min())


def second_moment(tasks: np.ndarray) -> np.ndarray:
    """S = E[f fᵀ] for D_f uniform over the rows of ``tasks``."""
    tasks = np.atleast_2d(tasks)
    return tasks.T @ tasks / len(tasks)


# ---- per-query population quantities (exact count enumeration) -------------------------------


def query_stats(q: np.ndarray, p: np.ndarray, tasks: np.ndarray, N: int, k: int) -> dict:
    """Given x_q = v_k, exact over the multinomial counts, D_f uniform over ``tasks`` rows:
    per-query loss ½E[(ŷ − f_k)²], E[1 − Attn_k], E[(1 − Attn_k)²] and P(1 − Attn_k ≥ ½)."""
    n = counts.counts_array(N, len(p))
    w = np.exp(counts.log_multinomial(n, p))
    A = counts.attn(n, q[k])
    err = np.mean([(A @ f - f[k]) ** 2 for f in np.atleast_2d(tasks)], axis=0)
    gap = 1.0 - A[:, k]
    return dict(loss_k=float(0.5 * w @ err), mean_gap=float(w @ gap), mean_gap2=float(w @ gap ** 2),
                p_gap_half=float(w @ (gap >= 0.5 - 1e-12)))


def total_loss(q: np.ndarray, p: np.ndarray, tasks: np.ndarray, N: int) -> float:
    return float(np.mean([counts.loss(q, p, f, N) for f in np.atleast_2d(tasks)]))


# ---- the duplicate-value family (P1-attn, P1-unseen) -----------------------------------------


def duplicate_task(L: float = 1.0, Delta: float = np.sqrt(2.0)) -> np.ndarray:
    """f = LΔ·(0, 0, 1): f(v_1) = f(v_2), each feature has a partner at the full Lipschitz gap."""
    return L * Delta * np.array([0.0, 0.0, 1.0])


def duplicate_features(kind: str = "orthonormal", Delta: float = np.sqrt(2.0)) -> np.ndarray:
    """K = 3: orthonormal (e_1, e_2, e_3; Δ = √2) or scaled orthogonal (Δ/√2)·e_k."""
    return np.eye(3) if kind == "orthonormal" else (Delta / np.sqrt(2.0)) * np.eye(3)


def exact_setting(V: np.ndarray, p: np.ndarray, f: np.ndarray, N: int, eta: float) -> dynamics.Setting:
    """q-space GD (dynamics.py, = GD on Q from 0, Eq. 8) on the exact population loss of one task f
    (point-mass D_f): every count vector enumerated, paired with f."""
    M = len(counts.counts_array(N, len(p)))
    return dynamics.Setting(gram=V.T @ V, p=p, eta=eta, N=N, exact=True, tasks=np.tile(f, (M, 1)))


def duplicate_trajectory(N: int, steps: int, eta: float, record_every: int, kind: str = "orthonormal",
                         L: float = 1.0, shape: tuple = (0.0, 0.0, 1.0)) -> dict:
    """GD from Q = 0 on the duplicate-value family: per record, total loss, per-query loss (query v_1),
    E[1 − Attn_1 | x_q = v_1], E[(1 − Attn_1)²|·], P(1 − Attn_1 ≥ ½ | ·), and |q_{1,1} − q_{1,2}|.
    ``shape``: f = LΔ·shape (default (0, 0, 1); other shapes for the tests' negative controls)."""
    Delta = np.sqrt(2.0) if kind == "orthonormal" else 2.0
    V = duplicate_features(kind, Delta)
    f = L * Delta * np.asarray(shape, float)
    p = np.full(3, 1.0 / 3)
    tr = dynamics.simulate([exact_setting(V, p, f, N, eta)], steps, record_every=record_every,
                           keep_tables=True, device="cpu", desc="P1 duplicate")
    rows, qs = [], []
    for i, t in enumerate(tr.t):
        q = tr.tables["q"][i, 0]
        qs.append(q)
        st = query_stats(q, p, f[None, :], N, 0)
        rows.append(dict(t=int(t), loss=float(tr.metrics["loss"][i, 0]), **st,
                         q11_minus_q12=float(abs(q[0, 0] - q[0, 1]))))
    return dict(V=V, f=f, p=p, N=N, eta=eta, kind=kind, L=L, Delta=Delta, rows=rows,
                in_F={c: in_F(f, V, L, c) for c in (0.1, 0.5, 0.9, 1.0)}, qs=np.array(qs))


def law_error(q: np.ndarray, p: np.ndarray, S: np.ndarray, N: int) -> float:
    """Population prediction error ½ Σ_k p_k E[uᵀ S u | x_q = v_k] (exact over counts) for a task law
    with second moment S = E[f fᵀ] independent of the tokens (u = e_k − Attn; Eq. 7)."""
    n = counts.counts_array(N, len(p))
    w = np.exp(counts.log_multinomial(n, p))
    total = 0.0
    for k in range(len(p)):
        u = np.eye(len(p))[k] - counts.attn(n, q[k])
        total += p[k] * w @ np.einsum("si,ij,sj->s", u, S, u)
    return float(0.5 * total)


# ---- training on one law, evaluation on held-out laws (P1-unseen) ----------------------------


def train_empirical(V: np.ndarray, p: np.ndarray, task_sampler, N: int, M: int, eta: float, steps: int,
                    rng: np.random.Generator) -> tuple[np.ndarray, dict]:
    """GD from Q = 0 on the empirical Eq. 7 loss (spec §1.5): M prompts (multinomial counts, sampled
    queries), one task per prompt; returns the final logit table q and the curve (t, loss, Ā, q per record)."""
    K = V.shape[1]
    tasks = np.stack([task_sampler(rng) for _ in range(M)])
    query = rng.choice(K, size=M, p=p)
    s = dynamics.Setting(gram=V.T @ V, p=p, eta=eta, N=N, M=M, tasks=tasks, query=query,
                         seed=int(rng.integers(2**31)))
    tr = dynamics.simulate([s], steps, record_every=max(1, steps // 10), device="cpu", desc="P1 train",
                           keep_tables=True)
    return tr.q[0], dict(t=tr.t.tolist(), loss=tr.metrics["loss"][:, 0].tolist(),
                         abar=tr.metrics["abar"][:, 0].tolist(), qs=tr.tables["q"][:, 0])



def _quiet(x: float) -> float:
    """A relative slack at float64 round-off (|x| < 1e-12, the spec's §3.0 violation threshold) is 0: its last
    bits differ between machines, and the report and its JSON print it."""
    return 0.0 if abs(x) < NOISE_FLOOR else x


def evaluate_law(q: np.ndarray, p: np.ndarray, task_sampler, N: int, M: int, rng: np.random.Generator,
                 V: np.ndarray, L: float, c_nd: float = 0.5) -> dict:
    """Fresh prompts (counts, queries) and tasks from ``task_sampler``: relative prediction error
    E[(ŷ − f_k)²] / E[(ŷ₀ − f_k)²] (ŷ₀ at Q = 0), E[(1 − Attn_k)²], the fraction of tasks in F (L :=
    the task's Lipschitz constant on V; also with the law's L), the worst per-prompt ratio
    (ŷ − f_k)² / (C(f)(1 − Attn_k)²) of the P1-pred inequality (≤ 1) and its min slack
    (C(f)(1 − Attn_k)² − (ŷ − f_k)²)/max f² (a violation is < −1e-12)."""
    K = len(p)
    n = rng.multinomial(N, p, size=M).astype(float)
    k = rng.choice(K, size=M, p=p)
    F = np.stack([task_sampler(rng) for _ in range(M)])
    with np.errstate(divide="ignore"):
        logits = np.log(n) + q[k]
    A = np.exp(logits - logsumexp(logits, axis=1, keepdims=True))
    A0 = n / N
    fk = F[np.arange(M), k]
    err = (np.sum(A * F, axis=1) - fk) ** 2
    err0 = (np.sum(A0 * F, axis=1) - fk) ** 2
    gap = np.where(np.eye(K, dtype=bool)[k], 0.0, A).sum(axis=1)   # Σ_{n≠k} Attn_n (no cancellation in 1 − Attn_k)
    C = np.max((F - fk[:, None]) ** 2, axis=1)
    denom = C * gap ** 2
    scale = np.max(F ** 2, axis=1)
    resolved = denom > 1e-20 * scale                                   # ratio reported where it is above rounding
    ratio = np.where(resolved, err / np.where(resolved, denom, 1.0), 0.0)
    slack = (denom - err) / scale                                      # spec §3.0: violation if < −1e-12
    member = np.array([in_F(f, V, lipschitz_on_V(f, V), c_nd) for f in F])
    return dict(rel_err=float(err.mean() / err0.mean()), mse=float(err.mean()), mse_Q0=float(err0.mean()),
                rel_err_in_F=float(err[member].mean() / err0[member].mean()) if member.any() else None,
                mean_gap2=float(np.mean(gap ** 2)), sup_pred_ratio=float(ratio.max()),
                min_pred_slack=_quiet(float(slack.min())),
                sup_pred_ratio_in_F=float(ratio[member].max()) if member.any() else None,
                frac_in_F=float(member.mean()), frac_in_F_law_L=float(np.mean([in_F(f, V, L, c_nd) for f in F])))


# ---- printed (App. F), transcribed verbatim — the things under test -------------------------
# (kept here because printed.py belongs to another task; move there when convenient)

def printed_appF_step1(A: np.ndarray, f: np.ndarray, k: int) -> np.ndarray:
    """App. F, 1st display: (ŷ − f(x_q))² = (Σ_{n∈[K]} Attn_n f(v_n) − f(v_k))²."""
    return (A @ f - f[k]) ** 2


def printed_appF_step2(A: np.ndarray, f: np.ndarray, k: int) -> np.ndarray:
    """App. F, 1st display, 2nd line: = (Σ_{n≠k} Attn_n (f(v_n) − f(v_k)))²."""
    off = np.arange(len(f)) != k
    return (A[:, off] @ (f[off] - f[k])) ** 2


def printed_appF_Lbound(A: np.ndarray, k: int, L: float, theta_const: float = 1.0) -> np.ndarray:
    """App. F, 2nd display, last line: |Σ_{n≠k} Attn_n (f_n − f_k)| ≤ Θ(L)·Σ_{n≠k} Attn_n;
    the right-hand side with Θ(L) := theta_const·L (a constant independent of Δ)."""
    off = np.arange(A.shape[1]) != k
    return theta_const * L * A[:, off].sum(axis=1)


# ---- the duplicate-value family for growing K under the theorems' hypotheses (slow claim) ------


class SwapSymmetricSetting(dynamics.Setting):
    """Monte-Carlo prompt sample closed under swapping the counts of classes 1 and 2 (each sampled
    count vector and its swap, half weight each): the empirical law keeps the exchangeability of
    (n_1, n_2) that the exact multinomial law has when p_1 = p_2."""

    def prompt_sample(self):
        log_phi, w = super().prompt_sample()
        swapped = log_phi.copy()
        swapped[:, [0, 1]] = swapped[:, [1, 0]]
        return np.vstack([log_phi, swapped]), np.concatenate([w, w]) / 2


def duplicate_task_K(K: int, L: float = 1.0, Delta: float = np.sqrt(2.0)) -> np.ndarray:
    """f = LΔ·(0, 0, 1, …, 1) on K orthonormal features: in F with c_nd = 1 (k = 1, 2 have partner 3;
    k ≥ 3 has partner 1) and f(v_1) = f(v_2)."""
    return L * Delta * np.r_[0.0, 0.0, np.ones(K - 2)]


def duplicate_K_point(K: int, seed: int, M: int = 1000, eta: float = 20.0, max_steps: int = 4000,
                      N: int | None = None) -> dict:
    """GD from Q = 0 with N = K³ (default), ε := 1/K (so K ≥ 1/ε), stopped at the first t with
    L ≤ ε²; reports E[Attn_1 | x_q = v_1] there and |q_11 − q_12| (exchangeable MC sample, M pairs)."""
    N = K ** 3 if N is None else N
    f = duplicate_task_K(K)
    V = np.eye(K)
    p = np.full(K, 1.0 / K)
    eps = 1.0 / K
    s = SwapSymmetricSetting(gram=np.eye(K), p=p, eta=eta, N=N, M=M, tasks=np.tile(f, (2 * M, 1)), seed=seed)
    tr = dynamics.simulate([s], max_steps, record_every=max_steps, keep_tables=True, device="cpu",
                           events={"loss<=eps^2": ("loss", "<=", eps ** 2)}, stop_when_hit=True,
                           desc=f"P1 K={K}")
    q = tr.q[0]
    log_phi, w = s.prompt_sample()
    A = np.exp(log_phi + q[0]) / np.exp(log_phi + q[0]).sum(axis=1, keepdims=True)
    w = w / w.sum()
    return dict(K=K, N=N, M=M, eta=eta, eps=eps, hit_step=int(tr.hits["loss<=eps^2"][0]),
                loss=float(tr.metrics["loss"][-1, 0]), attn_1=float(w @ A[:, 0]),
                gap_over_eps=float((1 - w @ A[:, 0]) / eps), p_gap_half=float(w @ (A[:, 0] <= 0.5 + 1e-12)),
                q11_minus_q12=float(abs(q[0, 0] - q[0, 1])), in_F=bool(in_F(f, V, 1.0, 1.0)))


# ---- total-loss reading: one misaligned query row (non-degenerate i.i.d. law) -----------------


def single_bad_row(K: int, sigma2: float = 1.0, Lambda: float = 60.0) -> dict:
    """N → ∞ (φ = p uniform), i.i.d. task values of variance σ² (S = σ²I on 1^⊥): rows 2..K of q
    concentrated (q_{k,k} = Λ), row 1 at q = 0.  Total loss L = Σ_k p_k ½σ²|e_k − Attn_k|², and
    1 − Attn_1 = 1 − 1/K: the per-class bound needs the per-query loss, the total loss carries p_1 = 1/K."""
    p = np.full(K, 1.0 / K)
    q = Lambda * np.eye(K)
    q[0] = 0.0
    A = np.exp(np.log(p)[None, :] + q)
    A /= A.sum(axis=1, keepdims=True)
    U = np.eye(K) - A
    loss = float(np.sum(p * 0.5 * sigma2 * np.sum(U ** 2, axis=1)))
    return dict(K=K, loss=loss, gap=float(1 - A[0, 0]), ratio=float((1 - A[0, 0]) / np.sqrt(loss)),
                per_query_loss_row1=float(0.5 * sigma2 * np.sum(U[0] ** 2)))


# ---- the Θ lower sides of Eqs. 11–12 on the GD path (lemma1-theta-lower, eq12-theta-lower) ----------------

@lru_cache(maxsize=2)
def duplicate_theta_ratios(N: int = 30, steps: int = 400, eta: float = 20.0, every: int = 25) -> dict:
    """Along GD from Q = 0 on the tie law (prop1-attn's family: K = 3 orthonormal features, f = LΔ(0, 0, 1) ∈ F, point
    mass D_f, exact count enumeration), per record t ≥ 1: the Eq. 11 ratio L(P;Q)/(½Σ_k E[1{x_q=v_k}(1 − Attn_k)²]L²Δ²)
    and the Eq. 12 ratio g_1/(E[1{x_q=v_1}Attn_1(1 − Attn_1)²]L²Δ²) (orthonormal: g = H).  The tie keeps q_11 = q_12,
    so 1 − Attn_1 ≥ ½ while the loss and g_1 → 0: both Θ lower sides fail on GD iterates (Lemma 1 / Lemma 2 are stated
    for the iterates 'for all t'); the printed cores come in as callables to keep this module free of the displays."""
    from ..model.families import attn_moment
    from ..printed import displays as printed
    tr = duplicate_trajectory(N, steps, eta, every)
    p, f, L, D = tr["p"], tr["f"], tr["L"], tr["Delta"]
    t, r11, r12 = [], [], []
    for row, q in zip(tr["rows"][1:], tr["qs"][1:]):
        x = {"q": q, "p": p, "tasks": [f], "N": N}
        core11 = sum(attn_moment(x, k, lambda A, k=k: printed.eq11_core(A.T, k, L, D)) for k in range(len(p)))
        core12 = attn_moment(x, 0, lambda A: printed.eq12_core(A.T, 0)) * L ** 2 * D ** 2
        t.append(row["t"])
        r11.append(counts.loss(q, p, f, N) / core11)
        r12.append(counts.H(q, p, f, N)[0, 0] / core12)
    return {"t": t, "eq11": r11, "eq12": r12, "in_F": tr["in_F"], "N": N, "eta": eta, "f": f.tolist(),
            "max_t |q11 - q12|": max(r["q11_minus_q12"] for r in tr["rows"]),
            "max_t E[Attn_1|x_q=v_1]": max(1 - r["mean_gap"] for r in tr["rows"])}
