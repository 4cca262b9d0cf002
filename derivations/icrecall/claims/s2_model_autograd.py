"""Autograd cross-checks: printed (App. B Eq. (10), App. C, App. D Claim 2, App. E) and SymPy-derived
(``model.n3()``) gradients against torch.func autograd of the independent full model
(``torch_model.ICModel``), at Hypothesis-drawn (θ, ω, T) and relation sets, float64."""
from __future__ import annotations

from functools import lru_cache
from itertools import permutations

import mpmath
import numpy as np
import sympy as sp
import torch
from hypothesis import strategies as st
from torch.func import grad, hessian, jvp, vmap

import theoryverify as tv
from theoryverify import strategies as strat
from theoryverify import check_agreement
from theoryverify import ClaimSet, Kind
from theoryverify import combine

from ..printed import appb as printed
from ..printed import appcd as pr
from ..model.symbolic import n3
from ..model.torch_model import ICModel, affine_relations, table1_model

CLAIMS = ClaimSet("icrecall")
RTOL = 1e-10


# --- shared strategies and model cache ---------------------------------------------------

@lru_cache(maxsize=64)
def model_for(n: int, relations: tuple, emb_seed: int | None, device: str) -> ICModel:
    emb = None
    if emb_seed is not None:  # a fixed random orthonormal embedding (Section 5 style)
        size = 2 * n + len(relations) + 1
        emb = _orth(size, emb_seed)
    return ICModel(n, relations, embedding=emb, device=device)


def _orth(size: int, seed: int) -> np.ndarray:
    g = np.random.default_rng(seed).standard_normal((size, size))
    q, r = np.linalg.qr(g)
    return q * np.sign(np.diag(r))


def memo1(fn):
    """``fn`` with a one-entry cache keyed on repr(x): derived and reference share one evaluation."""
    last: dict = {}

    def wrapped(x):
        key = repr(x)
        if key not in last:
            last.clear()
            last[key] = fn(x)
        return last[key]
    return wrapped


def unit(x) -> np.ndarray:
    x = np.asarray(x, dtype=np.float64)
    return x / np.linalg.norm(x)


@st.composite
def relation_case(draw, n_lo: int = 3, n_hi: int = 6, max_m: int = 8, families: bool = False):
    """(n, relations, (subjects, k)): a random relation set of random bijections (F-rand) or,
    with ``families``, also F-aff(5) / F-aff(7); one IC-recall sequence of it."""
    kind = draw(st.sampled_from(["rand", "aff5", "aff7"])) if families else "rand"
    if kind == "rand":
        n = draw(st.integers(n_lo, n_hi))
        rels = draw(strat.relation_sets(n, max_m))
    else:
        n = int(kind[3:])
        rels = affine_relations(n)
    k = draw(st.integers(0, len(rels) - 1))
    subjects = tuple(draw(st.permutations(list(range(n))))[:3])
    return n, tuple(rels), (subjects, k)


T_STEP = strat.log_uniform(0.02, 10.0)
THETA = strat.vectors(6, -5.0, 5.0)
OMEGA = strat.vectors(7, -5.0, 5.0)


def _np(t: torch.Tensor) -> np.ndarray:
    return t.detach().cpu().numpy()


# --- ICR-S23-separation --------------------------------------------------------------------

@CLAIMS.add("s23-separation", location="Section 2.3 (partial fine-tuning)", kind=Kind.AUTOGRAD,
            catalogue_id="ICR-S23-separation",
            statement="With θ = W^KQ_{1:6,6}, ω = W^KQ_{1:7,7} and the other W^KQ entries fixed, "
                      "∂L1/∂ω and ∂L2/∂θ are exactly zero (first step depends only on θ, second only on ω)",
            choices={"fixed W^KQ entries": "0", "embeddings": "one-hot or a fixed random orthonormal matrix",
                     "relation sets": "random bijection sets, n ∈ [3, 6], |R| ≤ 8; D of 1–4 sequences",
                     "exactness": "an entry counts as nonzero if it is not exactly 0.0"})
def s23_separation(ctx):
    case = st.tuples(relation_case(), st.lists(st.integers(0, 10**6), min_size=0, max_size=3),
                     st.one_of(st.none(), st.integers(0, 2**31)), THETA, OMEGA, T_STEP)

    def grads(x):
        (n, rels, first), extra, emb, th, om, T = x
        m = model_for(n, rels, emb, ctx.device)
        cases = [first] + [(tuple(list(permutations(range(n), 3))[e % (n * (n - 1) * (n - 2))]),
                            e % len(rels)) for e in extra]
        b = m.batch(cases)
        th, om = m.tensor(th), m.tensor(om)
        g1w = grad(lambda w: m.L1(th, w, T, b))(om)
        g2t = grad(lambda t: m.L2(t, om, T, b))(th)
        return np.concatenate([_np(g1w), _np(g2t)])

    return check_agreement(lambda x: (grads(x) != 0).astype(float), lambda x: np.zeros(13), case, ctx.seed,
                           rtol=RTOL, names=("nonzero entries of (∂L1/∂ω, ∂L2/∂θ)", "zeros"),
                           describe=lambda x: {"n": x[0][0], "relations": x[0][1], "sequence": x[0][2],
                                               "theta": x[3], "omega": x[4], "T": x[5],
                                               "grads": grads(x).tolist()})


# --- ICR-S41-seq-invariance -------------------------------------------------------------

@CLAIMS.add("s41-seq-invariance", location="Section 4.1", kind=Kind.AUTOGRAD, catalogue_id="ICR-S41-seq-invariance",
            statement="For n = 3 with all 6 bijections, ∇_θ ℓ1(θ, Z) is the same for all 36 IC-recall sequences",
            choices={"tolerance": "max |∇ℓ1(Z) − ∇ℓ1(Z_1)| / max(1, |∇ℓ1(Z_1)|) ≤ 1e-13 (catalogue)",
                     "T range": "[0.02, 10]"})
def s41_seq_invariance(ctx):
    m = table1_model(device=ctx.device)
    b = m.batch(m.all_cases())
    om = torch.zeros(7, dtype=torch.float64, device=m.dev)

    def per_seq(x):
        th, T = x

        def ell1(t, tok, r):  # ℓ1 of one sequence, gradients vmapped over the 36 sequences
            return m.masked_ce(m.relation_logits(tok[None], m.attention(tok[None], m.wkq(t, om))), r[None], T)[0]

        return _np(vmap(grad(ell1), in_dims=(None, 0, 0))(m.tensor(th), b["step1"], b["r_star"]))

    return check_agreement(per_seq, lambda x: np.broadcast_to(per_seq(x)[0], (36, 6)),
                           st.tuples(THETA, T_STEP), ctx.seed, rtol=1e-13,
                           names=("∇θ ℓ1 per sequence (36)", "∇θ ℓ1 of (s1,a1,s2,a2,s3,EoS), r*=r1"),
                           describe=lambda x: {"theta": x[0], "T": x[1]})


# --- ICR-B-eq10 ------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _eqs_4_9_numeric():
    P = sp.symbols("p1:7")
    v = sp.symbols("v1:7", nonnegative=True)
    return sp.lambdify([v, P, printed.T], printed.eqs_4_to_9(list(P)), modules="numpy")


@lru_cache(maxsize=1)
def _l1_theta_mpmath():
    m = n3()
    return sp.lambdify([*m.theta, m.T], m.L1_theta(), modules="mpmath")


def torch_n3(device):
    m = table1_model(device=device)
    return m, m.batch([((0, 1, 2), 0)])


def grad_theta_torch(m, b, th, T):
    om = torch.zeros(7, dtype=torch.float64, device=m.dev)
    return _np(grad(lambda t: m.L1(t, om, T, b))(m.tensor(th)))


def grad_v_torch(m, b, v, T):
    return _np(grad(lambda a: m.ell1_attn(a, T, b).mean())(m.tensor(v)))


def softmax_np(x):
    e = np.exp(np.asarray(x) - np.max(x))
    return e / e.sum()


@CLAIMS.add("b-eq10", location="Eq. (10), App. B", kind=Kind.AUTOGRAD, catalogue_id="ICR-B-eq10",
            statement="∂L1/∂θ_i = v_i(∂L1/∂v_i − Σ_j v_j ∂L1/∂v_j) (Eq. (10)) equals autograd of the full model "
                      "w.r.t. W^KQ[0:6, 5]",
            choices={"∂L1/∂v fed to Eq. (10)": "(a) torch autograd in free v; (b) printed Eqs. (4)–(9) with p "
                     "from the torch model", "reference 2": "40-digit mpmath.diff of L1(softmax θ) (model.py)",
                     "T range": "[0.02, 10]", "θ range": "[-5, 5]^6"})
def b_eq10(ctx):
    m, b = torch_n3(ctx.device)
    case = st.tuples(THETA, T_STEP)
    f49 = _eqs_4_9_numeric()

    def with_autograd_v(x):
        th, T = x
        v = softmax_np(th)
        return np.array(pr.eq10(v, grad_v_torch(m, b, v, T)))

    def with_printed_4_9(x):
        th, T = x
        v = softmax_np(th)
        p = _np(torch.softmax(m.relation_logits(b["step1"], m.tensor(v)[None])[0] / T, -1))
        return np.array(pr.eq10(v, np.array(f49(v, p, T), dtype=float)))

    ref = lambda x: grad_theta_torch(m, b, *x)  # noqa: E731
    L_mp = _l1_theta_mpmath()

    def mp_grad(x):
        th, T = x
        with mpmath.workdps(40):
            pt = [mpmath.mpf(float(t)) for t in th]
            out = []
            for i in range(6):
                f = lambda t, i=i: L_mp(*(pt[:i] + [t] + pt[i + 1:]), mpmath.mpf(float(T)))  # noqa: E731
                out.append(float(mpmath.diff(f, pt[i])))
        return np.array(out)

    desc = lambda x: {"theta": x[0], "T": x[1]}  # noqa: E731
    return combine({
        "Eq.(10) with autograd ∂L1/∂v": check_agreement(with_autograd_v, ref, case, ctx.seed, rtol=RTOL,
                                                        names=("Eq. (10)", "autograd θ"), describe=desc),
        "Eq.(10) with printed Eqs.(4)-(9)": check_agreement(with_printed_4_9, ref, case, ctx.seed + 1, rtol=RTOL,
                                                            names=("Eq. (10)∘Eqs. (4)–(9)", "autograd θ"),
                                                            describe=desc),
        "autograd vs 40-digit derivative": check_agreement(ref, mp_grad, case, ctx.seed + 2, rtol=RTOL, n=20,
                                                           names=("autograd θ", "mpmath 40 digits"),
                                                           describe=desc),
    }, method="Eq. (10):")


# --- model.py (SymPy) vs the torch model ----------------------------------------------------

@lru_cache(maxsize=1)
def _sympy_grads():
    m = n3()
    gv = sp.lambdify([m.v, m.T], m.grad_v(), modules="numpy", cse=True)
    gt = sp.lambdify([m.theta, m.T], m.grad_theta(), modules="numpy", cse=True)
    return gv, gt


@CLAIMS.add("model-grads-vs-autograd", location="App. B (gradient of ℓ1, n = 3); model.py n3()", kind=Kind.AUTOGRAD,
            statement="The SymPy-derived ∂L1/∂v and ∂L1/∂θ of model.py (n = 3) equal torch autograd of the "
                      "independent full model",
            choices={"v": "simplex (with boundary points)", "θ range": "[-5, 5]^6", "T range": "[0.02, 10]"})
def model_grads_vs_autograd(ctx):
    m, b = torch_n3(ctx.device)
    gv, gt = _sympy_grads()
    return combine({
        "∂L1/∂v": check_agreement(lambda x: np.array(gv(np.array(x[0]), x[1]), dtype=float),
                                  lambda x: grad_v_torch(m, b, np.array(x[0]), x[1]),
                                  st.tuples(strat.simplex(6), T_STEP), ctx.seed, rtol=RTOL,
                                  names=("SymPy ∂L1/∂v", "autograd v"),
                                  describe=lambda x: {"v": x[0], "T": x[1]}),
        "∂L1/∂θ": check_agreement(lambda x: np.array(gt(np.array(x[0]), x[1]), dtype=float),
                                  lambda x: grad_theta_torch(m, b, *x), st.tuples(THETA, T_STEP), ctx.seed + 1,
                                  rtol=RTOL, names=("SymPy ∂L1/∂θ", "autograd θ"),
                                  describe=lambda x: {"theta": x[0], "T": x[1]}),
    }, method="model.py vs torch:")


@lru_cache(maxsize=1)
def _sympy_hessian_parts():
    """SymPy: H_θ = Jᵀ ∇²_v L1 J + Σ_k ∂L1/∂v_k ∇²_θ v_k with J = ∂v/∂θ, v = softmax(θ) (chain rule).
    ∇²_v L1 by differentiating model.py's ∂L1/∂v once more (symmetric half); the softmax derivatives
    through u_i = e^{θ_i}, v_k = u_k/Σu, ∂/∂θ_i = u_i ∂/∂u_i."""
    m = n3()
    g = m.grad_v()
    Hv = [[None] * 6 for _ in range(6)]
    for a in range(6):
        for b in range(a, 6):
            Hv[a][b] = Hv[b][a] = sp.diff(g[a], m.v[b])
    u = sp.symbols("u1:7", positive=True)
    vt = [ui / sp.Add(*u) for ui in u]
    J = [[u[i] * sp.diff(vk, u[i]) for i in range(6)] for vk in vt]
    D2 = [[[u[b] * sp.diff(J[k][a], u[b]) for b in range(6)] for a in range(6)] for k in range(6)]
    return (sp.lambdify([m.v, m.T], Hv), sp.lambdify([m.v, m.T], g),
            sp.lambdify([u], J), sp.lambdify([u], D2))  # cse off: faster to build here


@CLAIMS.add("model-hessian-vs-autograd", location="App. B / App. E (Hessian of L1 in θ, n = 3)", kind=Kind.AUTOGRAD,
            statement="The SymPy-derived Hessian of L1(θ) (n = 3) equals torch.func.hessian of the full model",
            choices={"SymPy route": "∇²_v L1 and softmax derivatives by sp.diff, combined by the chain rule",
                     "θ range": "[-5, 5]^6", "T range": "[0.02, 10]"})
def model_hessian_vs_autograd(ctx):
    m, b = torch_n3(ctx.device)
    Hv, gv, J, D2 = _sympy_hessian_parts()
    om = torch.zeros(7, dtype=torch.float64, device=m.dev)

    def sym(x):
        th, T = np.array(x[0]), x[1]
        v = softmax_np(th)
        u = np.exp(th - th.max())  # v depends on θ only through u up to a common factor
        Jm, D2m = np.array(J(u), dtype=float), np.array(D2(u), dtype=float)
        return Jm.T @ np.array(Hv(v, T), dtype=float) @ Jm + np.einsum("k,kab->ab", np.array(gv(v, T), dtype=float), D2m)

    def auto(x):
        return _np(hessian(lambda t: m.L1(t, om, x[1], b))(m.tensor(x[0])))

    return check_agreement(sym, auto, st.tuples(THETA, T_STEP), ctx.seed, rtol=RTOL,
                           names=("SymPy Hessian", "torch.func.hessian"),
                           describe=lambda x: {"theta": x[0], "T": x[1]})


# --- ICR-P2-derivs ----------------------------------------------------------------------------

def _dir(f, k: int, dirs):
    """The k-th directional derivative f^{(k)}(v)[d_1, …, d_k] by nested forward-mode jvp."""
    if k == 0:
        return f
    inner = _dir(f, k - 1, dirs[:-1])
    return lambda x: jvp(inner, (x,), (dirs[-1],))[1]


def p2_parts(m: ICModel, b: dict, v: np.ndarray, T: float, a, bb, c):
    """(printed, autograd) values of ∇Ψ[a], ∇²Ψ[a,b], ∇³Ψ[a,b,c] for Ψ(v) = log Σ_j exp(l_j(v)/T);
    every derivative (of Ψ and of the logits l_j) by nested torch.func.jvp of the full model."""
    tok = b["step1"]
    logits = lambda x: m.relation_logits(tok, x[None])[0]  # noqa: E731
    psi = lambda x: torch.logsumexp(logits(x) / T, -1)  # noqa: E731
    vt = m.tensor(v)
    a, bb, c = (m.tensor(u) for u in (a, bb, c))
    d = lambda f, *ds: _np(_dir(f, len(ds), list(ds))(vt))  # noqa: E731
    p = _np(torch.softmax(logits(vt) / T, -1))
    Xa, Xb, Xc = d(logits, a), d(logits, bb), d(logits, c)
    Yab, Yac, Ybc = d(logits, a, bb), d(logits, a, c), d(logits, bb, c)
    D3 = d(logits, a, bb, c)
    printed_vals = [pr.p2_grad(p, T, Xa), pr.p2_hess(p, T, Xa, Xb, Yab),
                    pr.p2_third(p, T, D3, Xa, Xb, Xc, Yab, Yac, Ybc)]
    auto = [float(d(psi, a)), float(d(psi, a, bb)), float(d(psi, a, bb, c))]
    return np.array(printed_vals), np.array(auto)


@CLAIMS.add("p2-derivs", location="Proposition 2 proof, App. E", kind=Kind.AUTOGRAD, catalogue_id="ICR-P2-derivs",
            statement="∇Ψ[a] = (1/T)Σ p_j X_j^a; ∇²Ψ[a,b] = (1/T)Σ p_j Y_j^{ab} + (1/T²)Cov_p(X^a,X^b); ∇³Ψ[a,b,c] as "
                      "printed — against torch.func derivatives of Ψ(v) = log Σ exp(l_j(v)/T)",
            choices={"families": "F-all3 (r*=r1, (s1,s2,s3)=(0,1,2)) and F-aff(7) (one drawn sequence)",
                     "X, Y, ∇³l": "torch.func jvp (nested) of the relation logits", "draws": "30 (quick), 200 (full)",
                     "Ψ derivatives": "nested torch.func.jvp (directional, forward mode)", "T range": "[0.05, 10]"})
def p2_derivs(ctx):
    fams = {"all3": table1_model(device=ctx.device),
            "aff7": model_for(7, affine_relations(7), None, ctx.device)}
    dirs = st.tuples(*[strat.vectors(6, -1, 1).filter(lambda x: np.linalg.norm(x) > 1e-3)] * 3)

    @st.composite
    def case(draw):
        fam = draw(st.sampled_from(sorted(fams)))
        mm = fams[fam]
        k = draw(st.integers(0, mm.m - 1))
        subj = tuple(draw(st.permutations(list(range(mm.n))))[:3])
        return fam, (subj, k), draw(strat.simplex(6)), draw(strat.log_uniform(0.05, 10.0)), draw(dirs)

    @memo1
    def run(x):
        fam, cs, v, T, (a, bb, c) = x
        mm = fams[fam]
        return p2_parts(mm, mm.batch([cs]), np.array(v), T, unit(a), unit(bb), unit(c))

    return check_agreement(lambda x: run(x)[0], lambda x: run(x)[1], case(), ctx.seed, rtol=RTOL,
                           n=30 if ctx.profile == "quick" else 200, names=("printed ∇Ψ, ∇²Ψ, ∇³Ψ", "torch.func"),
                           describe=lambda x: {"family": x[0], "sequence": x[1], "v": x[2], "T": x[3],
                                               "a": unit(x[4][0]), "b": unit(x[4][1]), "c": unit(x[4][2])})


# --- ICR-C-grads ------------------------------------------------------------------------------

def appc_parts(m: ICModel, case, v, T, printed_fn=pr.appc_grads):
    b = m.batch([case])
    vt = m.tensor(v)
    auto = _np(grad(lambda a: m.ell1_attn(a, T, b).mean())(vt))
    p = _np(torch.softmax(m.relation_logits(b["step1"], vt[None])[0] / T, -1))
    subjects, k = case
    answers = [m.relations[k][s] for s in subjects]
    P = pr.matching_sums(p, m.relations, subjects, answers)
    return np.array(printed_fn(np.array(v), T, P), dtype=float), auto


@CLAIMS.add("c-grads", location="App. C, gradient list after Eq. (18)", kind=Kind.AUTOGRAD, catalogue_id="ICR-C-grads",
            statement="T ∂ℓ1/∂v_i = 2(Σ_{r: r(s_i)=a_j} p(r) v_… − …) for i = 1..5 and ∂ℓ1/∂v6 = 0, as printed, equal "
                      "torch autograd of the full model for general n",
            choices={"families": "F-aff(5), F-aff(7), F-rand(n ∈ [3, 6], |R| ≤ 12) (quick); n ≤ 9 in full",
                     "v": "simplex (with boundary)", "T range": "[0.02, 10]"})
def c_grads(ctx):
    hi = 6 if ctx.profile == "quick" else 9
    case = st.tuples(relation_case(3, hi, 12, families=True), strat.simplex(6), T_STEP)

    @memo1
    def run(x):
        (n, rels, cs), v, T = x
        return appc_parts(model_for(n, rels, None, ctx.device), cs, v, T)

    return check_agreement(lambda x: run(x)[0], lambda x: run(x)[1], case, ctx.seed, rtol=RTOL,
                           names=("App. C list", "autograd v"),
                           describe=lambda x: {"n": x[0][0], "relations": x[0][1], "sequence": x[0][2],
                                               "v": x[1], "T": x[2]})


# --- ICR-D-claim2 (autograd part) -----------------------------------------------------------

def claim2_parts(m: ICModel, case, omega, T, printed_fn=pr.claim2):
    """(printed Claim 2, autograd ∂ℓ2/∂q, printed chain∘Claim 2, autograd ∂ℓ2/∂ω through W^KQ[0:7, 6])."""
    b = m.batch([case])
    om = m.tensor(omega)
    q = torch.softmax(om, -1)
    auto_q = _np(grad(lambda a: m.ell2_attn(a, T, b).mean())(q))
    th = torch.zeros(6, dtype=torch.float64, device=m.dev)
    auto_w = _np(grad(lambda w: m.L2(th, w, T, b))(om))
    p = _np(torch.softmax(m.answer_logits(b["step2"], q[None])[0] / T, -1))
    subjects, k = case
    pa = [p[m.relations[k][s]] for s in subjects]
    qn = _np(q)
    g = np.array(printed_fn(qn, T, *pa), dtype=float)
    return g, auto_q, np.array(pr.d_chain(qn, g)), auto_w


@CLAIMS.add("d-claim2-autograd", location="Claim 2, App. D", kind=Kind.AUTOGRAD, catalogue_id="ICR-D-claim2",
            statement="Claim 2's ∂ℓ2/∂q (and, through ∂ℓ2/∂ω_i = q_i(∂ℓ2/∂q_i − Σ q_j ∂ℓ2/∂q_j), ∂ℓ2/∂ω) equal "
                      "torch autograd of the full model (q free; ω through W^KQ[0:7, 6])",
            choices={"relation sets": "random bijection sets, n ∈ [3, 7]", "ω range": "[-5, 5]^7",
                     "T range": "[0.02, 10]"})
def d_claim2_autograd(ctx):
    case = st.tuples(relation_case(3, 7, 8), OMEGA, T_STEP)

    @memo1
    def run(x):
        (n, rels, cs), om, T = x
        return claim2_parts(model_for(n, rels, None, ctx.device), cs, om, T)

    desc = lambda x: {"n": x[0][0], "relations": x[0][1], "sequence": x[0][2], "omega": x[1], "T": x[2]}  # noqa: E731
    return combine({
        "∂ℓ2/∂q": check_agreement(lambda x: run(x)[0], lambda x: run(x)[1], case, ctx.seed, rtol=RTOL,
                                  names=("Claim 2", "autograd q"), describe=desc),
        "∂ℓ2/∂ω": check_agreement(lambda x: run(x)[2], lambda x: run(x)[3], case, ctx.seed + 1, rtol=RTOL,
                                  names=("chain ∘ Claim 2", "autograd ω"), describe=desc),
    }, method="Claim 2 vs autograd:")
