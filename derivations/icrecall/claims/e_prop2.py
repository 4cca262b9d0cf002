"""Appendix E (Proposition 2, Lemma 12) and the descent-lemma remark before Proposition 1 (App. B).

The relation logits' quadratic forms A_j (l(r_j) = vᵀA_j v) are read off the model's MLP
construction (``model.construction``) for every context of a family; derivatives of the
log-sum-exp Ψ(v) are taken by torch.func, independently of the printed formulas.
"""
from __future__ import annotations

import math
from functools import lru_cache
from itertools import product

import numpy as np
import sympy as sp
from hypothesis import strategies as st
from scipy.optimize import minimize_scalar

import theoryverify as tv
from theoryverify.evidence_types import CouldHaveFailed, Coverage, attach
from theoryverify import check_cases
from theoryverify import search
from theoryverify import ClaimSet, Kind
from theoryverify import rng
from theoryverify import combine, holds, inconclusive, refuted

from ..model import pairwise as pw
from ..printed import appb2 as printed
from ..model.symbolic import Vocab, construction, ic_sequence

CLAIMS = ClaimSet("icrecall")


# --- quadratic forms of the relation logits, from the model ---------------------------------

def affine_family(p: int) -> tuple[tuple[int, ...], ...]:
    """F-aff(p): x ↦ a·x + b mod p, a ≠ 0."""
    return tuple(tuple((a * s + b) % p for s in range(p)) for a in range(1, p) for b in range(p))


def random_family(n: int, m: int, seed: int) -> tuple[tuple[int, ...], ...]:
    g = rng(seed)
    out: list[tuple[int, ...]] = []
    while len(out) < m:
        r = tuple(int(t) for t in g.permutation(n))
        if r not in out:
            out.append(r)
    return tuple(out)


@lru_cache(maxsize=8)
def _numeric_construction(vocab: Vocab) -> tuple[np.ndarray, np.ndarray]:
    W, V = construction(vocab)
    return np.array(W.tolist(), dtype=np.int64), np.array(V.tolist(), dtype=np.int64)


def context_forms(vocab: Vocab, subjects: tuple[int, int, int], relation: int) -> np.ndarray:
    """A ∈ Z^{m×6×6}: l(r_k) = vᵀ A_k v for the input (s1, a1, s2, a2, s3, EoS), from W, V of Lemma 3
    (h = φ(EoS) + Σ_i v_i φ(u_i); W φ(EoS) = 0, so each logit is a homogeneous quadratic form)."""
    W, V = _numeric_construction(vocab)
    toks = ic_sequence(vocab, subjects, relation)
    if np.any(W[:, vocab.eos]):
        raise ValueError("W touches EoS: logits would not be homogeneous")
    M = W[:, toks]  # pre-activation = M v
    Vr = V[:, vocab.n:vocab.n + vocab.m]  # relation logits only (step-1 mask)
    return np.einsum("kr,ka,kb->rab", Vr, M, M)


def family_forms(relations, seed: int, max_contexts: int | None) -> set[bytes]:
    n = len(relations[0])
    vocab = Vocab(n, tuple(relations))
    ctxs = [(s, r) for s in product(range(n), repeat=3) if len(set(s)) == 3 for r in range(len(relations))]
    if max_contexts is not None and len(ctxs) > max_contexts:
        idx = rng(seed).choice(len(ctxs), size=max_contexts, replace=False)
        ctxs = [ctxs[i] for i in idx]
    forms: set[bytes] = set()
    for s, r in ctxs:
        for A in context_forms(vocab, s, r):
            forms.add(A.astype(np.int64).tobytes())
    return forms


def max_patterns() -> int:
    """Indicator patterns (1{r(s_i) = a_j})_{i≤3, j≤2} possible for a bijection r with distinct s_i, a_j: at most
    one 1 per row (r(s_i) is one answer) and per column (a_j has one preimage) — the partial matchings of 3×2."""
    count = 0
    for bits in product((0, 1), repeat=6):
        Mx = np.array(bits).reshape(3, 2)
        if Mx.sum(axis=1).max() <= 1 and Mx.sum(axis=0).max() <= 1:
            count += 1
    return count


def families(seed: int, quick: bool):
    fams = [("F-aff(5)", affine_family(5)), ("F-aff(7)", affine_family(7)), ("F-aff(11)", affine_family(11)),
            ("F-rand(6, 20)", random_family(6, 20, seed)), ("F-rand(8, 40)", random_family(8, 40, seed + 1))]
    return [(name, rel, 60 if quick else None) for name, rel in fams]


@lru_cache(maxsize=1)
def all_forms_affine7() -> np.ndarray:
    """The distinct A_j realised by F-aff(7), collected over contexts in a seeded random order until the
    combinatorial maximum (13) is reached (or all contexts are seen)."""
    rel = affine_family(7)
    vocab = Vocab(7, rel)
    ctxs = [(s, r) for s in product(range(7), repeat=3) if len(set(s)) == 3 for r in range(len(rel))]
    forms: set[bytes] = set()
    for i in rng(0).permutation(len(ctxs)):
        s, r = ctxs[i]
        for A in context_forms(vocab, s, r):
            forms.add(A.astype(np.int64).tobytes())
        if len(forms) >= max_patterns():
            break
    return np.stack([np.frombuffer(b, dtype=np.int64).reshape(6, 6) for b in sorted(forms)]).astype(float)


@CLAIMS.add("p2-13forms", location="Proposition 2 proof, App. E", kind=Kind.IDENTITY, catalogue_id="ICR-P2-13forms",
            statement="Each logit l(r_j) = vᵀA_j v, and the number of possible quadratic forms A_j is at most 13 "
                      "(independent of n)",
            choices={"families": "F-aff(5), F-aff(7), F-aff(11), F-rand(6,20), F-rand(8,40); quick profile samples "
                                 "60 contexts per family, full enumerates all",
                     "forms": "A_j read off Lemma 3's W, V (model.construction) per context"})
def p2_13forms(ctx):
    bound = max_patterns()
    quick = ctx.profile == "quick"
    derived = check_cases([("partial matchings of 3×2", bound)],
                          lambda b: (b == printed.NUM_FORMS, {"derived max": b, "printed": printed.NUM_FORMS}),
                          exhaustive=True, what="counts")
    counts = {}

    def fam_cases():
        for name, rel, cap in families(ctx.seed, quick):
            yield name, (name, rel, cap)

    def pred(case):
        name, rel, cap = case
        k = len(family_forms(rel, ctx.seed, cap))
        counts[name] = k
        return k <= printed.NUM_FORMS, {"family": name, "distinct forms": k}

    fams = check_cases(fam_cases(), pred, exhaustive=not quick, what="families")
    v = combine({"derived maximum = 13": derived, "distinct A_j per family ≤ 13": fams},
                method="Prop. 2 quadratic forms:")
    return v.__class__(**{**v.__dict__, "details": {**v.details, "distinct forms": counts}})


# --- ICR-P2-bounds --------------------------------------------------------------------------

def G_H(A: np.ndarray) -> tuple[float, float]:
    """G = max_j max_{v∈Δ} ‖∇l_j(v)‖ = max_j max_i ‖2A_j e_i‖ (a convex function peaks at a vertex);
    H = max_j ‖2A_j‖₂ (∇²l_j = 2A_j is constant)."""
    G = float(max(np.linalg.norm(2 * Aj, axis=0).max() for Aj in A))
    H = float(max(np.linalg.norm(2 * Aj, 2) for Aj in A))
    return G, H


def psi_derivatives(A: np.ndarray, V: np.ndarray, T: float, a: np.ndarray, b: np.ndarray, c: np.ndarray):
    """Directional derivatives ∇Ψ[a], ∇²Ψ[a,b], ∇³Ψ[a,b,c] and the full Hessians of
    Ψ(v) = log Σ_j exp(vᵀA_j v/T) at the rows of V, by nested forward-mode AD (torch.func.jvp, float64)."""
    import torch
    from torch.func import jvp

    At = torch.tensor(A, dtype=torch.float64)

    def Psi(v):
        return torch.logsumexp(torch.einsum("ni,jik,nk->nj", v, At, v) / T, dim=1)

    t = lambda z: torch.tensor(z, dtype=torch.float64)  # noqa: E731
    Vt, at, bt, ct = t(V), t(a), t(b), t(c)

    def d1(f, u):
        return lambda v: jvp(f, (v,), (u,))[1]

    g1 = d1(Psi, at)
    g2 = d1(g1, bt)
    g3 = d1(g2, ct)
    n = len(V)
    H = np.zeros((n, 6, 6))
    for i in range(6):
        ei = torch.zeros_like(Vt)
        ei[:, i] = 1
        for j in range(i, 6):
            ej = torch.zeros_like(Vt)
            ej[:, j] = 1
            H[:, i, j] = H[:, j, i] = d1(d1(Psi, ei), ej)(Vt).numpy()
    grad = np.stack([d1(Psi, torch.eye(6, dtype=torch.float64)[i].expand_as(Vt))(Vt).numpy() for i in range(6)], 1)
    return grad, g1(Vt).numpy(), g2(Vt).numpy(), g3(Vt).numpy(), H


def p2_bound_ratios(A: np.ndarray, T: float, count: int, seed: int, bounds=printed.prop2_bounds):
    """Worst ratio |∇^kΨ[a, …]| / printed bound over random v (Dirichlet) and random unit directions; for k = 2
    the worst direction (spectral norm) is used as well."""
    g = rng(seed)
    V = g.dirichlet(np.full(6, 0.7), size=count)
    dirs = g.standard_normal((3, count, 6))
    dirs /= np.linalg.norm(dirs, axis=2, keepdims=True)
    a, b, c = dirs
    G, H = G_H(A)
    B = bounds(G, H, T)
    grad, da, dab, dabc, Hs = psi_derivatives(A, V, T, a, b, c)
    r1 = np.abs(da) / float(B[1])
    r1max = np.linalg.norm(grad, axis=1) / float(B[1])
    r2 = np.abs(dab) / float(B[2])
    r2max = np.abs(np.linalg.eigvalsh(Hs)).max(axis=1) / float(B[2])
    r3 = np.abs(dabc) / float(B[3])
    grad_l = np.linalg.norm(2 * np.einsum("jik,nk->nji", A, V), axis=2).max() / G
    return {"G": G, "H": H, "|∇Ψ[a]| / (G/T)": float(max(r1.max(), r1max.max())),
            "|∇²Ψ[a,b]| / (H/T + 2G²/T²)": float(max(r2.max(), r2max.max())),
            "|∇³Ψ[a,b,c]| / (6HG/T² + 8G³/T³)": float(r3.max()), "max ‖∇l_j‖ / G": float(grad_l)}


def p2_bounds_verdict(seed: int, count: int, bounds=printed.prop2_bounds, forms=None):
    sets = forms or {"F-all3 (6 forms)": pw.relation_quadratic_forms(), "F-aff(7) all forms": all_forms_affine7()}
    rows = {}
    worst = 0.0
    for name, A in sets.items():
        for T in (1.0, 0.1, 0.01):
            r = p2_bound_ratios(A, T, count, seed, bounds)
            rows[f"{name}, T={T}"] = r
            for k, val in r.items():
                if k in ("G", "H"):
                    continue
                worst = max(worst, val)
                if val > 1 + 1e-12:
                    return refuted("random v and unit directions, torch.func derivatives",
                                   f"{k} = {val:.6g} > 1", {"forms": name, "T": T, "ratio": k, "value": val,
                                                            "G": r["G"], "H": r["H"]})
    return holds(f"{count} random v × random unit directions per (forms, T)",
                 f"worst left/right ratio {worst:.3g} ≤ 1 over all printed bounds", ratios=rows)


@CLAIMS.add("p2-bounds", location="Proposition 2 proof, App. E", kind=Kind.INEQUALITY, catalogue_id="ICR-P2-bounds",
            statement="‖∇l_j‖ ≤ G, ‖∇²l_j‖ ≤ H, ∇³l_j = 0 on the simplex; |∇Ψ[a]| ≤ G/T, |∇²Ψ[a,b]| ≤ H/T + 2G²/T², "
                      "|∇³Ψ[a,b,c]| ≤ 6HG/T² + 8G³/T³",
            choices={"G, H": "exact: G = max_j max_i ‖2A_j e_i‖, H = max_j ‖2A_j‖₂ for each form set",
                     "forms": "all 13 forms realised by F-aff(7) (quick); plus F-all3's 6 forms (full)",
                     "draws": "quick 2000 (full 10⁵) Dirichlet(0.7) points × random unit a, b, c; T ∈ {1, 0.1, 0.01}"})
def p2_bounds(ctx):
    third = check_cases([(f"l{j + 1}", j) for j in range(6)],
                        lambda j: (all(sp.diff(pw.n3().relation_logits[j], a, b, c) == 0
                                       for a in pw.n3().v for b in pw.n3().v for c in pw.n3().v), {"j": j + 1}),
                        exhaustive=True, what="relation logits")
    quick = ctx.profile == "quick"
    count = 2000 if quick else 100000
    forms = {"F-aff(7) all forms": all_forms_affine7()} if quick else None
    return combine({"∇³l_j = 0 (F-all3)": third, "printed bounds": p2_bounds_verdict(ctx.seed, count, forms=forms)},
                   method="Prop. 2 bounds:")


# --- ICR-P1-descent -------------------------------------------------------------------------

def batch_L1_grad(theta: np.ndarray, T: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """L1 and ∇_θ L1 for a batch of θ (rows) and temperatures (float64, log-space); chain rule through softmax."""
    A = pw.relation_quadratic_forms()
    z = theta - theta.max(axis=1, keepdims=True)
    v = np.exp(z)
    v /= v.sum(axis=1, keepdims=True)
    Av = np.einsum("jik,nk->nji", A, v)
    l = np.einsum("nji,ni->nj", Av, v) / T[:, None]
    lm = l.max(axis=1, keepdims=True)
    w = np.exp(l - lm)
    p = w / w.sum(axis=1, keepdims=True)
    L = (lm[:, 0] + np.log(w.sum(axis=1))) - l[:, 0]
    e1 = np.zeros(6)
    e1[0] = 1
    gv = (2.0 / T[:, None]) * np.einsum("nj,nji->ni", p - e1, Av)
    gt = v * (gv - (v * gv).sum(axis=1, keepdims=True))
    return L, gt


DESCENT_TS = (0.1, 0.05, 0.02, 0.01, 0.005)
DESCENT_CS = (1, 2, 5, 10, 20, 40)


def descent_runs(seed: int, steps: int, ts=DESCENT_TS, cs=DESCENT_CS):
    """GD θ ← θ − cT²∇L1 from θ = 0 and from a perturbed saddle (θ5 = θ6 = −30, radius T³), all (T, c) at once.
    Returns {(T, c, start): monotone?} with monotone meaning L_{k+1} ≤ L_k + 1e-13·max(1, |L_k|) at every step."""
    g = rng(seed)
    runs = [(T, c, s) for T in ts for c in cs for s in ("zero", "saddle")]
    th = np.zeros((len(runs), 6))
    for i, (T, c, s) in enumerate(runs):
        if s == "saddle":
            xi = g.standard_normal(4)
            th[i, :4] = T**3 * xi / np.linalg.norm(xi) * g.uniform() ** 0.25
            th[i, 4:] = -30.0
    Ts = np.array([r[0] for r in runs])
    eta = np.array([r[1] * r[0] ** 2 for r in runs])
    ok = np.ones(len(runs), dtype=bool)
    L, gr = batch_L1_grad(th, Ts)
    for _ in range(steps):
        th = th - eta[:, None] * gr
        L2, gr = batch_L1_grad(th, Ts)
        ok &= L2 <= L + 1e-13 * np.maximum(1.0, np.abs(L))
        L = L2
    return dict(zip(runs, ok.tolist()))


@CLAIMS.add("p1-descent", location="App. B, before Proposition 1", kind=Kind.DYNAMICS, catalogue_id="ICR-P1-descent",
            statement="η1, η2 = Θ(T²) can be chosen small enough that the descent lemma holds: GD with η = cT² decreases "
                      "L1 monotonically for a T-independent c",
            choices={"T": ", ".join(map(str, DESCENT_TS)), "c": ", ".join(map(str, DESCENT_CS)),
                     "starts": "θ = 0 and a perturbed saddle (θ5 = θ6 = −30, ball radius T³)",
                     "steps": "quick 1500, full 5000", "monotone": "L_{k+1} ≤ L_k + 1e-13·max(1, |L_k|)"})
def p1_descent(ctx):
    steps = 1500 if ctx.profile == "quick" else 5000
    res = descent_runs(ctx.seed, steps)
    largest = {}
    for T in DESCENT_TS:
        good = [c for c in DESCENT_CS if all(res[(T, c, s)] for s in ("zero", "saddle"))]
        # largest c such that every c' ≤ c is monotone
        lc = 0
        for c in DESCENT_CS:
            if c in good:
                lc = c
            else:
                break
        largest[str(T)] = lc
    if min(largest.values()) == 0:
        T_bad = [T for T, c in largest.items() if c == 0]
        return refuted("GD runs", "no c in the grid gives a monotone decrease", {"T": T_bad, "largest c": largest})
    c_common = min(largest.values())
    return holds(f"GD, {steps} steps × {len(res)} runs",
                 f"η = cT² decreases L1 monotonically for every T with c ≤ {c_common}; largest c per T: {largest}",
                 largest_c=largest)


# --- ICR-L12 --------------------------------------------------------------------------------

def _problem(seed: int, kind: str):
    """A smooth function bounded below with known ℓ and f*: a convex quadratic ½xᵀAx (A ⪰ 0, f* = 0), or the
    nonconvex separable f = Σ a_i cos x_i + ½ b‖x‖² (ℓ = b + max|a_i|, f* by 1-D minimisation)."""
    g = rng(seed)
    d = int(g.integers(1, 6))
    if kind == "quadratic":
        Q = g.standard_normal((d, d))
        A = Q @ Q.T * g.uniform(0.1, 10)
        if g.uniform() < 0.3:  # rank-deficient (flat directions)
            w, U = np.linalg.eigh(A)
            w[: max(1, d // 2)] = 0
            A = U @ np.diag(w) @ U.T
        ell = float(np.linalg.eigvalsh(A).max()) or 1.0
        return (lambda x: 0.5 * x @ A @ x), (lambda x: A @ x), ell, 0.0, g.standard_normal(d) * 3
    a = g.uniform(-3, 3, d)
    b = g.uniform(0.1, 2)
    ell = b + float(np.abs(a).max())
    fstar = 0.0
    for ai in a:
        grid = np.linspace(-10, 10, 4001)
        k = int(np.argmin(ai * np.cos(grid) + 0.5 * b * grid**2))
        r = minimize_scalar(lambda t: ai * math.cos(t) + 0.5 * b * t * t, bounds=(grid[max(k - 1, 0)],
                            grid[min(k + 1, 4000)]), method="bounded", options={"xatol": 1e-12})
        fstar += min(float(r.fun), ai * math.cos(grid[k]) + 0.5 * b * grid[k] ** 2)
    return ((lambda x: float(a @ np.cos(x) + 0.5 * b * x @ x)), (lambda x: -a * np.sin(x) + b * x), ell, fstar,
            g.standard_normal(d) * 4)


def lemma12_worst(seed: int, kind: str, eta_factor: float, steps: int, bound=printed.lemma12_bound,
                  descent=printed.lemma12_descent_sum) -> tuple[float, dict]:
    """max over t ≤ steps of the ratios (left side / printed right side) of the statement and of the proof's
    descent-lemma step; > 1 means a violation."""
    f, grad, ell, fstar, x0 = _problem(seed, kind)
    eta = eta_factor / ell
    x, sq, worst, info = x0.copy(), 0.0, 0.0, {}
    gap = f(x0) - fstar
    for t in range(1, steps + 1):
        step = -eta * grad(x)
        sq += float(step @ step)
        x = x + step
        rhs = float(bound(t, gap, ell))
        rhs_sum = float(descent(gap, ell))
        for name, lhs, r in (("‖x_t − x0‖", float(np.linalg.norm(x - x0)), rhs), ("Σ‖Δx‖²", sq, rhs_sum)):
            ratio = lhs / r if r > 0 else (math.inf if lhs > 1e-300 else 0.0)
            if ratio > worst:
                worst, info = ratio, {"t": t, "quantity": name, "lhs": lhs, "rhs": r, "ell": ell, "eta": eta,
                                      "f0 - f*": gap, "kind": kind, "problem seed": seed}
    return worst, info


def lemma12_verdict(seed: int, steps: int, n: int | None = None, bound=printed.lemma12_bound,
                    descent=printed.lemma12_descent_sum):
    strategy = st.tuples(st.integers(0, 2**31 - 1), st.sampled_from(["quadratic", "cosine"]),
                         st.sampled_from([1.0, 0.5, 0.1]))
    cache: dict = {}

    def score(draw):
        w, info = lemma12_worst(draw[0], draw[1], draw[2], steps, bound, descent)
        cache[draw] = info
        return w - 1.0

    res = search(strategy, score, fails=lambda s: s > 1e-9, seed=seed, max_examples=n)
    if res.failure is not None:
        info = cache.get(res.failure) or lemma12_worst(res.failure[0], res.failure[1], res.failure[2], steps,
                                                       bound, descent)[1]
        return refuted("GD on drawn test functions", f"{info['quantity']}: {info['lhs']:.6g} > {info['rhs']:.6g}",
                       {**info, "eta_factor": res.failure[2]})
    if res.tried < 5:
        return inconclusive("GD on drawn test functions", f"only {res.tried} problems")
    return attach(holds(f"GD on {res.tried} drawn problems, t ≤ {steps}",
                        f"worst ratio (left / printed right) {res.worst_score + 1:.6g} ≤ 1 (tight: = 1 for a quadratic "
                        f"with η = 1/ℓ at t = 1)", worst_ratio=res.worst_score + 1, problems=res.tried),
                  # main lemma (issue 27): what the pass ranges over and how it could have failed
                  Coverage({"functions": "convex quadratics (incl. rank-deficient), Σa_i cos x_i + ½b‖x‖²",
                            "dimension": [1, 5], "η·ℓ": [0.1, 0.5, 1.0], "t": [1, steps], "problems": res.tried}),
                  CouldHaveFailed("search", "any drawn problem and t with ‖x_t − x_0‖ or Σ‖x_{k+1} − x_k‖² above the "
                                            "printed right side by a ratio > 1 + 1e-9 refutes (the bound is tight: "
                                            "ratio 1 for a quadratic with η = 1/ℓ at t = 1)"))


@CLAIMS.add("l12", main=True, location="Lemma 12, App. E", kind=Kind.INEQUALITY, catalogue_id="ICR-L12",
            statement="For ℓ-smooth f and η ≤ 1/ℓ: ‖x_t − x_0‖ ≤ √(2t(f(x0) − f*)/ℓ), and (proof) "
                      "Σ_{k<t}‖x_{k+1} − x_k‖² ≤ 2(f(x0) − f*)/ℓ",
            choices={"functions": "convex quadratics (incl. rank-deficient) and nonconvex Σa_i cos x_i + ½b‖x‖², "
                                  "dimension 1–5, exact ℓ and f*",
                     "η": "1/ℓ, 0.5/ℓ, 0.1/ℓ", "t": "quick ≤ 150, full ≤ 10⁴", "tolerance": "ratio ≤ 1 + 1e-9",
                     "not done": "L1 itself (its ℓ is only estimated, so a violation would not be about Lemma 12)"})
def l12(ctx):
    steps = 150 if ctx.profile == "quick" else 10000
    return lemma12_verdict(ctx.seed, steps)


# --- ICR-L8-psi along GD trajectories (Lyapunov check) ------------------------------------------

def psi_along_gd(seed: int, steps: int, ts=(0.05, 0.02), seeds: int = 8, eta_c: float = 2.0):
    """GD θ ← θ − cT²∇L1 on the face v5 = v6 = 0 (θ5 = θ6 = −∞) from the perturbed saddle (θ1..θ4 = 0 plus a
    uniform ball perturbation of radius T³).  At every iterate where l(r1) > Σ p l and ψ_k − 1 > 1e-9, record
    ψ_{k+1} − ψ_k (Lemma 8 says ψ decreases).  Returns (checked, increases, worst increase, example, final ψ)."""
    g = rng(seed)
    A = pw.relation_quadratic_forms()
    runs = [(T, s) for T in ts for s in range(seeds)]
    th = np.full((len(runs), 6), -np.inf)
    th[:, :4] = 0.0
    for i, (T, _) in enumerate(runs):
        xi = g.standard_normal(4)
        th[i, :4] += T**3 * xi / np.linalg.norm(xi) * g.uniform() ** 0.25
    Ts = np.array([r[0] for r in runs])
    eta = eta_c * Ts**2

    def psi_and_hyp(theta):
        v = np.exp(theta - theta.max(axis=1, keepdims=True))
        v /= v.sum(axis=1, keepdims=True)
        a, b = v[:, 0] / v[:, 1], v[:, 2] / v[:, 3]
        psi = np.max(np.stack([a, b, 1 / a, 1 / b]), axis=0)
        l = np.einsum("ni,jik,nk->nj", v, A, v)
        z = l / Ts[:, None]
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        hyp = (p[:, 1:] * (l[:, :1] - l[:, 1:])).sum(axis=1) > 0  # l1 − Σ p l = Σ_{r≥2} p_r (l1 − l_r)
        return psi, hyp

    checked, incs, worst, example = 0, 0, 0.0, None
    psi, hyp = psi_and_hyp(th)
    for k in range(steps):
        _, gr = batch_L1_grad(np.where(np.isfinite(th), th, -1e300), Ts)
        gr[:, 4:] = 0.0
        th = th - eta[:, None] * gr
        psi2, hyp2 = psi_and_hyp(th)
        mask = hyp & (psi - 1 > 1e-9)
        checked += int(mask.sum())
        d = (psi2 - psi)[mask]
        bad = d > 1e-12 * psi[mask]
        if bad.any():
            incs += int(bad.sum())
            j = int(np.argmax(d))
            if d[j] > worst:
                worst = float(d[j])
                i = np.nonzero(mask)[0][j]
                example = {"T": float(Ts[i]), "step": k, "psi_k": float(psi[i]), "psi_k+1": float(psi2[i])}
        psi, hyp = psi2, hyp2
    return checked, incs, worst, example, {f"T={r[0]}, seed {r[1]}": float(p) for r, p in zip(runs, psi)}


@CLAIMS.add("l8-psi-gd", location="Lemma 8 (ψ as a Lyapunov function along GD), App. B", kind=Kind.DYNAMICS,
            catalogue_id="ICR-L8-psi",
            statement="Along GD on the face v5 = v6 = 0 from the perturbed saddle (η = 2T²), ψ = max{α, β, 1/α, 1/β} "
                      "decreases at every iterate where l(r1) > Σ p l and ψ > 1",
            choices={"T": "0.05, 0.02", "seeds": "8 per T", "steps": "quick 3000, full 20000",
                     "η": "2T²", "perturbation": "uniform ball, radius T³, on θ1..θ4",
                     "tolerance": "an increase counts if ψ_{k+1} − ψ_k > 1e-12·ψ_k; iterates with ψ − 1 ≤ 1e-9 skipped"})
def l8_psi_gd(ctx):
    steps = 3000 if ctx.profile == "quick" else 20000
    checked, incs, worst, example, final = psi_along_gd(ctx.seed, steps)
    if incs:
        return refuted("GD trajectories", f"ψ increased at {incs} of {checked} iterates (worst +{worst:.3g})",
                       example or {"increases": incs})
    if checked < 100:
        return inconclusive("GD trajectories", f"only {checked} iterates satisfied the hypotheses")
    return holds(f"GD, {steps} steps × {len(final)} runs", f"ψ decreased at all {checked} iterates where the "
                 f"hypotheses hold; final ψ range [{min(final.values()):.6g}, {max(final.values()):.6g}]",
                 checked=checked, final_psi=final)
