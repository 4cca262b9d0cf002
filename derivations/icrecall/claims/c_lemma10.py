"""Lemma 10 (App. C): the post-Stage-1 point θ̃ — small gradient, negative curvature along
ε̃ = ½(1, 1, −1, −1, 0, 0) for confusing sequences, Eqs. (22)–(24), the sandwich on p1(r1).

Symbolic parts use the two relations r1 (true) and r2 (confusing) of a confusing, non-mismatched
sequence, their logits derived from the model (``general_n``); v(x) = softmax(θ̃ + x ε̃) with
θ̃ = log of the Lemma 9 profile (1/6 + α, 1/6, 1/6 + α, 1/6, 1/6 − 2α, 1/6).  "O(√T log(1/T))"
remainders are O(α) (α = Θ(η1/T) = Θ(√T log(1/T))): leading constants are the α → 0 limits."""
from __future__ import annotations

from functools import lru_cache

import mpmath
import numpy as np
import sympy as sp

import theoryverify as tv
from theoryverify import check_cases, check_identity, check_inequality
from theoryverify import ClaimSet, Kind
from theoryverify import Finding, Readings
from theoryverify import Domain, Interval, LogUniform, Simplex
from theoryverify import Status, combine, holds, inconclusive

from ..model import general_n as G
from ..printed import appc as P

CLAIMS = ClaimSet("icrecall")

from ..model.appc_landscape import (ALPHA, DELTA, STAGE1, TWO_REL, X, along, derivs_at0, leading,  # noqa: E402
                                    lemma9_theta, two_relations)
from ..experiments.appc_sweeps import little_o_verdict, stage2_points  # noqa: E402


# --- ICR-L10-l1p ---------------------------------------------------------------------------------

@CLAIMS.add("L10-l1p", location="Lemma 10 proof, App. C", kind=Kind.IDENTITY, catalogue_id="ICR-L10-l1p",
            statement="v_i′(0) = δ_i v_i − v_i vᵀδ; ∇_v l1, ∇_v l2 as printed; l1′(0) = (∇l1)ᵀ(δ⊙v) + o(T²) = "
                      "(v1+v2+v3+v4)(v1−v3+v2−v4) + o(T²) = o(T²); l2′(0) = o(T²)",
            choices={"δ": "ε̃ = ½(1,1,−1,−1,0,0) (the proof does not define δ)", "relations": TWO_REL,
                     "o(T²) reading": "remainder = O(|vᵀδ|) + O(|v1−v3| + |v2−v4|), which Lemma 9 makes o(T²)"})
def l10_l1p(ctx):
    l1, l2 = two_relations()
    th = sp.symbols("theta1:7", real=True)
    vth = G.softmax(list(th))
    dom_th = Domain([Interval(t, -2, 2) for t in th])
    parts = {}
    vp = [sp.diff(e, X).subs(X, 0) for e in along(th)]
    vd = sum(a * b for a, b in zip(vth, DELTA))
    parts["v′(0) = δ⊙v − v vᵀδ"] = check_identity(vp[0], DELTA[0] * vth[0] - vth[0] * vd, dom_th, ctx.seed,
                                                   symbolic_seconds=2.0)
    dom_v = Domain([Simplex(G.VS)])
    for name, l, printed in (("∇l1", l1, P.GRAD_L1), ("∇l2", l2, P.GRAD_L2)):
        for k in range(6):
            parts[f"{name}[{k + 1}]"] = check_identity(sp.diff(l, G.VS[k]), printed[k], dom_v, ctx.seed + k)
    dl1 = [sp.diff(l1, x) for x in G.VS]
    parts["(∇l1)ᵀ(δ⊙v) = printed middle"] = check_identity(
        sum(a * d * x for a, d, x in zip(dl1, DELTA, G.VS)), P.L1P_MIDDLE, dom_v, ctx.seed)
    # l_i′(0) vanishes identically at v1 = v3, v2 = v4 (so it is O(|v1 − v3| + |v2 − v4|))
    v1_, v2_, v3_, v4_, v5_, v6_ = G.VS
    vd_v = sum(a * b for a, b in zip(G.VS, DELTA))
    for name, l in (("l1′", l1), ("l2′", l2)):
        lp = sum(sp.diff(l, x) * (d - vd_v) * x for x, d in zip(G.VS, DELTA))
        parts[f"{name}(0) at v1=v3, v2=v4"] = check_identity(sp.expand(lp.xreplace({v3_: v1_, v4_: v2_})),
                                                              sp.Integer(0), dom_v, ctx.seed)
    return combine(parts, "Lemma 10, first derivatives:")


# --- ICR-L10-vpp ---------------------------------------------------------------------------------

def _vpp_derived():
    th = lemma9_theta()
    vx = along(th)
    v = G.lemma9_point(ALPHA)
    vp = [sp.simplify(sp.diff(e, X).subs(X, 0)) for e in vx]
    vpp = [sp.simplify(sp.diff(e, X, 2).subs(X, 0)) for e in vx]
    return v, vp, vpp


@CLAIMS.add("L10-vpp-links", location="Lemma 10 proof, App. C", kind=Kind.IDENTITY, catalogue_id="ICR-L10-vpp",
            statement="v_i″(0) = δ_i v_i′(0) − v_i′vᵀδ − v_i(v′)ᵀδ; v_i″(0) = v_i(δ_i² − Σ_j v_jδ_j²) + o(T²); "
                      "Σ_j v_jδ_j² = 1/6 + O(√T log(1/T)) — at the Lemma 9 profile, every i",
            choices={"point": "Lemma 9 profile with symbolic α (O(√T log) = O(α))"})
def l10_vpp_links(ctx):
    v, vp, vpp = _vpp_derived()
    dom = Domain([Interval(ALPHA, 0, 0.08)])
    parts = {}
    vd = sum(a * b for a, b in zip(v, DELTA))
    for i in range(6):
        parts[f"first link i={i + 1}"] = check_identity(vpp[i], P.vpp_first(i, v, vp, DELTA), dom, ctx.seed + i)
        # second link: the difference is O(vᵀδ) — here vᵀδ = α and the leading terms agree as α → 0
        parts[f"second link i={i + 1} (α→0)"] = check_identity(leading(vpp[i]), leading(P.vpp_second(i, v, DELTA)),
                                                               Domain([]), ctx.seed)
    svd = sum(a * b**2 for a, b in zip(v, DELTA))
    parts["Σ v_jδ_j² → 1/6"] = check_identity(leading(svd), P.SUM_VD2, Domain([]), ctx.seed)
    parts["Σ v_jδ_j² − 1/6 = O(α)"] = check_identity(sp.simplify((svd - P.SUM_VD2) / ALPHA), sp.Rational(1, 2), dom, ctx.seed)
    return combine(parts, "v″ links:")


@CLAIMS.add("L10-vpp", location="Lemma 10 proof, App. C", kind=Kind.IDENTITY, catalogue_id="ICR-L10-vpp",
            expect=Status.REFUTED, finding=Finding.PROOF_GAP,
            cause='Lemma 10 proof (App. C): the second-order constants at v = 1/6 (v_i″ = v_i/12 also for i = 5, 6; 1/24, 1/12, 1/8, 1/24 where the model gives 1/36, 1/9, 5/36, 1/36) and the term I built from them',
            supports=("icrecall.L10-fpp", "icrecall.L10-termI-order", "icrecall.T3-L10-improve"),
            reason="proof step: 'v_i″(0) = (1/12)v_i − O(√T log)' holds for i = 1..4 only; for i = 5, 6 (δ_i = 0) the "
                   "leading term is −v_i/6 (−1/36 at v = 1/6); the next line's 1/24 uses v5″ = v5/12 (derived 1/36, "
                   "L10-consts); f″ ≤ −Ω(1/T) survives (L10-fpp)",
            readings=Readings(
                tested="the paper's words: \"v_i″(0) = (1/12)v_i − O(√T log(1/T))\" (Lemma 10 proof, App. C, after "
                       "v_i″(0) = v_i(δ_i² − Σ_j v_jδ_j²) + o(T²)) — for every i = 1..6, as the next line's 1/24 uses it",
                others={"for i = 1..4 only (δ_i² = ¼; the printed general formula gives −v_i/6 for i = 5, 6)":
                            "untested: this claim's parts i = 1..4 agree",
                        "the printed general formula v_i″ = v_i(δ_i² − Σ v_jδ_j²)": "holds: icrecall.L10-vpp-links",
                        "Lemma 10's curvature conclusion f″ ≤ −Ω(1/T)": "holds: icrecall.L10-fpp"}),
            statement="v_i″(0) = (1/12) v_i − O(√T log(1/T)) for every i = 1..6 (leading constants, α → 0)",
            choices={"point": "Lemma 9 profile, α → 0"})
def l10_vpp(ctx):
    v, _, vpp = _vpp_derived()
    return combine({f"i={i + 1}": check_identity(leading(vpp[i]), leading(P.VPP_THIRD_COEFF * v[i]), Domain([]), ctx.seed)
                    for i in range(6)}, "v_i″(0) leading constants:")


# --- ICR-L10-consts ------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def derived_consts():
    """Leading constants (α → 0) of (∇l_i)ᵀv″, v′ᵀ∇²l_i v′ and l_i″(0), derived (l″ directly along x)."""
    l1, l2 = two_relations()
    v, vp, vpp = _vpp_derived()
    sub = dict(zip(G.VS, v))
    out = {}
    for name, l in (("1", l1), ("2", l2)):
        grad = [sp.diff(l, x).xreplace(sub) for x in G.VS]
        hess = sp.hessian(l, G.VS).xreplace(sub)
        out[f"gradl{name}_vpp"] = leading(sum(a * b for a, b in zip(grad, vpp)))
        out[f"vp_H{name}_vp"] = leading((sp.Matrix(vp).T * hess * sp.Matrix(vp))[0, 0])
        out[f"l{name}pp"] = leading(derivs_at0(l, lemma9_theta())[2])
    return out


@CLAIMS.add("L10-consts", location="Lemma 10 proof, App. C (second-order constants)", kind=Kind.IDENTITY,
            catalogue_id="ICR-L10-consts", expect=Status.REFUTED, finding=Finding.PROOF_GAP,
            cause='Lemma 10 proof (App. C): the second-order constants at v = 1/6 (v_i″ = v_i/12 also for i = 5, 6; 1/24, 1/12, 1/8, 1/24 where the model gives 1/36, 1/9, 5/36, 1/36) and the term I built from them',
            supports=("icrecall.L10-fpp", "icrecall.L10-termI-order", "icrecall.T3-L10-improve"),
            reason="proof step: derived (∇l_i)ᵀv″ → 1/36 (printed 1/24), v′ᵀ∇²l1 v′ → 1/9 (printed 1/12), l1″ → 5/36 "
                   "(printed 1/8), l2″ → 1/36 (printed 1/24); only v′ᵀ∇²l2 v′ → 0 agrees; term I stays +Θ(1/T), so "
                   "Lemma 10's curvature bound survives (L10-termI-order, L10-fpp)",
            readings=Readings(
                tested="the paper's words: \"(∇_v l_i)ᵀv″(0) = 1/24 − O(√T log(1/T))\", \"v′(0)ᵀ∇²_v l1 v′(0) = 1/12 + "
                       "O(·)\", \"Therefore we have l1″(0) = 1/8 + O(·) and l2″(0) = 1/24 − O(·)\" (Lemma 10 proof, "
                       "App. C) — the leading constants as printed",
                others={"l1″(0) > l2″(0) at leading order, so term I = +Θ(1/T) (the only use of the constants)":
                            "holds: icrecall.L10-termI-order"}),
            statement="(∇l_i)ᵀv″(0) = 1/24 − O(·) (i = 1, 2); v′ᵀ∇²l1v′ = 1/12 + O(·); v′ᵀ∇²l2v′ = O(·); "
                      "l1″(0) = 1/8 + O(·); l2″(0) = 1/24 − O(·)",
            choices={"relations": TWO_REL, "point": "Lemma 9 profile, α → 0"})
def l10_consts(ctx):
    d = derived_consts()
    parts = {}
    # consistency of the printed constants with each other: l_i″ = v′ᵀ∇²l_i v′ + (∇l_i)ᵀv″
    parts["printed l1″ = printed pieces"] = check_identity(P.CONSTS["l1pp"], P.CONSTS["vp_H1_vp"] + P.CONSTS["gradl_vpp"],
                                                          Domain([]), ctx.seed)
    parts["printed l2″ = printed pieces"] = check_identity(P.CONSTS["l2pp"], P.CONSTS["vp_H2_vp"] + P.CONSTS["gradl_vpp"],
                                                          Domain([]), ctx.seed)
    parts["derived l_i″ = derived pieces"] = check_identity(d["l1pp"] - d["l2pp"], d["vp_H1_vp"] + d["gradl1_vpp"]
                                                            - d["vp_H2_vp"] - d["gradl2_vpp"], Domain([]), ctx.seed)
    for key, printed in (("gradl1_vpp", "gradl_vpp"), ("gradl2_vpp", "gradl_vpp"), ("vp_H1_vp", "vp_H1_vp"),
                         ("vp_H2_vp", "vp_H2_vp"), ("l1pp", "l1pp"), ("l2pp", "l2pp")):
        parts[key] = check_identity(d[key], P.CONSTS[printed], Domain([]), ctx.seed)
    return combine(parts, "second-order constants:")


# --- ICR-L10-termI, ICR-L10-p1pp ------------------------------------------------------------------

def _term_I(l1pp, l2pp):
    """term I of Eq. (23) with two alive relations: (1/T)(p1(1 − p1) l1″ − p1 p2 l2″)."""
    return (P.p1 * (1 - P.p1) * l1pp - P.p1 * P.p2 * l2pp) / P.T


def _fd_second(seq_index_fn, T, alpha, what):
    """50-digit finite-difference second derivative along ε̃ of p1(r1) or ℓ1 for one full sequence."""
    pop = G.greedy_population(7, 0)
    i = seq_index_fn(pop)
    Q = pop.Q[i]
    tgt = int(pop.target[i])
    mpmath.mp.dps = 50
    base = [mpmath.log(mpmath.mpf(1) / 6 + a) for a in (alpha, 0, alpha, 0, -2 * alpha, 0)]

    def f(x):
        th = [b + x * mpmath.mpf(float(d)) for b, d in zip(base, DELTA)]
        e = [mpmath.exp(t) for t in th]
        z = sum(e)
        t = [u / z for u in e] + [mpmath.mpf(1)]
        ls = [sum(int(Q[k, a, b]) * t[a] * t[b] for a in range(7) for b in range(7) if Q[k, a, b]) / T
              for k in range(pop.vocab.m)]
        m = max(ls)
        lse = m + mpmath.log(sum(mpmath.exp(u - m) for u in ls))
        return mpmath.exp(ls[tgt] - lse) if what == "p1" else lse - ls[tgt]

    return mpmath.diff(f, 0, 2)


@CLAIMS.add("L10-termI", location="Eq. (24) (and (23)), Lemma 10 proof, App. C", kind=Kind.IDENTITY,
            catalogue_id="ICR-L10-termI", expect=Status.REFUTED, finding=Finding.PROOF_GAP,
            cause='Lemma 10 proof (App. C): the second-order constants at v = 1/6 (v_i″ = v_i/12 also for i = 5, 6; 1/24, 1/12, 1/8, 1/24 where the model gives 1/36, 1/9, 5/36, 1/36) and the term I built from them',
            supports=("icrecall.L10-fpp", "icrecall.L10-termI-order", "icrecall.T3-L10-improve"),
            reason="proof step (Eq. (24)): with the derived l1″ → 5/36, l2″ → 1/36, term I = p1p2/(9T) + …, not the "
                   "printed (p1/(12T))(p2 + …) (which follows from the printed l″ constants); the conclusion "
                   "term I = +Θ(1/T) holds (L10-termI-order)",
            readings=Readings(
                tested="the paper's words (Eq. (24)): \"term I = (p1/T)((1/8)(1 − p1) − (1/24)p2 + O(√T log(1/T))) = "
                       "(p1/(12T))(p2 + O(·))\" (Lemma 10 proof, App. C) — the constant as printed",
                others={"term I = +Θ(1/T) (what (24) is used for)": "holds: icrecall.L10-termI-order"}),
            statement="∂p1/∂l1 = p1(1 − p1)/T, ∂p1/∂l_i = −p1p_i/T; term I = (p1/T)((1/8)(1 − p1) − (1/24)p2 + O(·)) "
                      "= (p1/(12T))(p2 + O(·)) = Θ(1/T)",
            choices={"relations": TWO_REL, "alive": "p1 + p2 = 1 at leading order",
                     "50-digit check": "finite differences of the full sequence (all relations) at α = 1e-4, T = 0.002"})
def l10_term_I(ctx):
    l = sp.symbols("l1:4", real=True)
    ps = G.softmax([x / P.T for x in l])
    dom_l = Domain([Interval(x, -2, 2) for x in l] + [LogUniform(P.T, 0.05, 5)])
    parts = {"∂p1/∂l1": check_identity(sp.diff(ps[0], l[0]), ps[0] * (1 - ps[0]) / P.T, dom_l, ctx.seed),
             "∂p1/∂l2": check_identity(sp.diff(ps[0], l[1]), -ps[0] * ps[1] / P.T, dom_l, ctx.seed)}
    alive = {P.p2: 1 - P.p1}
    dom_p = Domain([Interval(P.p1, 0.01, 0.99), LogUniform(P.T, 1e-3, 1)])
    parts["printed chain (24), link 1 → 2"] = check_identity(P.TERM_I_FIRST.xreplace(alive), P.TERM_I_SECOND.xreplace(alive),
                                                              dom_p, ctx.seed)
    parts["printed l″ → printed first line"] = check_identity(_term_I(P.CONSTS["l1pp"], P.CONSTS["l2pp"]), P.TERM_I_FIRST,
                                                               Domain([Interval(P.p1, 0.01, 0.99), Interval(P.p2, 0.01, 0.99),
                                                                       LogUniform(P.T, 1e-3, 1)]), ctx.seed)
    d = derived_consts()
    parts["derived term I vs (24)"] = check_identity(_term_I(d["l1pp"], d["l2pp"]).xreplace(alive),
                                                      P.TERM_I_SECOND.xreplace(alive), dom_p, ctx.seed)
    return combine(parts, "term I:")


@CLAIMS.add("L10-termI-order", location="Eq. (24), Lemma 10 proof, App. C", kind=Kind.IDENTITY,
            catalogue_id="ICR-L10-termI",
            statement="term I = Θ(1/T) and positive (the conclusion of (24)); 50-digit finite differences of p1(r1) "
                      "along ε̃ for a full confusing sequence agree with the derived p1p2/(9T)",
            choices={"relations": TWO_REL, "50-digit check": "α = 1e-4, T = 0.002 (dead relations ~ e^{-1/(18T)})"})
def l10_term_I_order(ctx):
    d = derived_consts()
    tI = sp.simplify((_term_I(d["l1pp"], d["l2pp"]) * P.T).xreplace({P.p2: 1 - P.p1}))
    parts = {"T·termI = p1p2/9": check_identity(tI, P.p1 * (1 - P.p1) / 9, Domain([Interval(P.p1, 0, 1)]), ctx.seed),
             "T·termI > 0 on (0,1)": check_inequality(tI, ">", sp.Integer(0), Domain([Interval(P.p1, 1e-6, 1 - 1e-6)]), ctx.seed)}
    T, a = 0.002, 1e-4
    fd = _fd_second(lambda pop: G.find_sequence(pop, confusing=True, mismatched=False), T, a, "p1")
    target = 0.25 / 9 / T  # p1 = p2 = 1/2 at leading order
    rel = float(abs(fd - target) / target)
    parts["50-digit p1″ vs derived"] = check_cases([("α=1e-4, T=0.002", rel)],
                                                   lambda r: (r < 0.01, {"p1'' (50 digits)": float(fd), "derived": target,
                                                                         "printed p1p2/(12T)": 0.25 / 12 / T, "rel": r}),
                                                   exhaustive=True)
    return combine(parts, "term I order:")


@CLAIMS.add("L10-p1pp", location="Eq. (22) and the conclusion for confusing sequences, Lemma 10 proof, App. C",
            kind=Kind.IDENTITY, catalogue_id="ICR-L10-p1pp", expect=Status.REFUTED, finding=Finding.TYPO,
            reason="sign slip: p1″(0) = term I + term II is +Θ(1/T), as the paper's own (24) (term I = Θ(1/T) > 0) "
                   "gives, not −Θ(1/T); only the + sign yields the printed conclusion f″ = −p1″/p1 ≤ −Ω(1/T), which "
                   "holds (L10-fpp)",
            readings=Readings(
                tested="the paper's words: \"Plugging it with (C) into (23), we have p1″(0) = −Θ(1/T) and hence\" "
                       "(Lemma 10 proof, App. C, confusing sequences) — the sign as printed",
                others={"|p1″(0)| = Θ(1/T) with the sign of (24) (term I > 0), which the next line's f″ = −p1″/p1 ≤ "
                        "−Ω(1/T) needs": "holds: icrecall.L10-fpp"}),
            statement="p1″(0) = −Θ(1/T) for confusing sequences at θ̃",
            choices={"relations": TWO_REL, "point": "Lemma 9 profile α = 1e-4, T = 0.002, 50-digit finite differences"})
def l10_p1pp(ctx):
    fd = _fd_second(lambda pop: G.find_sequence(pop, confusing=True, mismatched=False), 0.002, 1e-4, "p1")
    val = float(fd) * 0.002
    return check_cases([("α=1e-4, T=0.002", val)], lambda x: (x < 0, {"T·p1''(0)": x, "printed sign": "negative"}),
                       exhaustive=True)


@CLAIMS.add("L10-fpp", location="Eq. (22), Lemma 10 proof, App. C", kind=Kind.INEQUALITY, catalogue_id="ICR-L10-p1pp",
            statement="f″(0) = p1′²/p1² − p1″/p1 (direct calculation), (22) f″(0) = −p1″/p1 + o(T²), and "
                      "f″_{ε̃,θ̃}(0) ≤ −Ω(1/T) for confusing sequences at the post-Stage-1 point",
            choices={"stage 1": STAGE1, "Ω-constant": "T·f″(0) ≤ −1/100 on every confusing sequence"})
def l10_fpp(ctx):
    q = sp.Function("q")
    parts = {"f″ = p1′²/p1² − p1″/p1": check_identity(sp.diff(-sp.log(q(X)), X, 2),
                                                      sp.diff(q(X), X) ** 2 / q(X) ** 2 - sp.diff(q(X), X, 2) / q(X),
                                                      Domain([Interval(X, -1, 1)]), ctx.seed, n_rational=0)}
    mpmath.mp.dps = 50
    fd = _fd_second(lambda pop: G.find_sequence(pop, confusing=True, mismatched=False), 0.002, 1e-4, "loss")

    def at_T(T):
        pop, th = G.post_stage1(7, 0, T)
        conf = pop.subset(pop.flag("confusing"))
        _, fp, fpp = G.second_directional(conf, th, [float(d) for d in DELTA], T)
        return float((fpp * T).max()), float(np.abs(fp).max())
    vals = {T: at_T(T) for T in G.T_SWEEP}
    parts["post-Stage-1 sweep"] = check_cases(
        [(f"T={T}", x) for T, x in vals.items()], lambda x: (x[0] <= -0.01, {"max T·f''": x[0], "max |f'|": x[1]}),
        exhaustive=False, what="temperatures")
    parts["50-digit f″ vs −1/(18T)"] = check_cases([("α=1e-4, T=0.002", float(fd) * 0.002)],
                                                   lambda x: (abs(x + 1 / 18) < 1e-3, {"T f''(0) (50 digits)": x,
                                                                                       "derived": -1 / 18, "printed": -1 / 24}),
                                                   exhaustive=True)
    return combine(parts, "f″ along ε̃:")


# --- ICR-L10-d2p ---------------------------------------------------------------------------------

@CLAIMS.add("L10-d2p", location="Lemma 10 proof, App. C (term II)", kind=Kind.IDENTITY, catalogue_id="ICR-L10-d2p",
            statement="∂²p1/∂l_i∂l_j = 2p1p_ip_j/T², ∂²p1/∂l1² = p1(1 − p1)(1 − 2p1)/T², ∂²p1/∂l1∂l_i = "
                      "p1p_i(2p1 − 1)/T², ∂²p1/∂l_i² = p1p_i(2p_i − 1)/T² (i ≠ j, i, j ≠ 1); term II = o(e^{−1/√T})",
            choices={"reading": "the first printed '∂²p1/∂l_i²' read as i = 1 (the i ≠ 1 reading is the fourth formula)",
                     "stage 1": STAGE1,
                     "asymptotic decision": "fit log(T-scaled term II·e^{1/√T}) vs 1/√T; holds if the last three "
                                            "values decrease and the slope CI is below 0, else inconclusive"})
def l10_d2p(ctx):
    l = sp.symbols("l1:5", real=True)
    ps = G.softmax([x / P.T for x in l])
    dom = Domain([Interval(x, -2, 2) for x in l] + [LogUniform(P.T, 0.05, 5)])
    sub = {P.p1: ps[0], P.pi: ps[1], P.pj: ps[2]}
    parts = {
        "i≠j (2,3)": check_identity(sp.diff(ps[0], l[1], l[2]), P.D2P["d2_li_lj"].xreplace(sub), dom, ctx.seed),
        "l1² (first list, i=1)": check_identity(sp.diff(ps[0], l[0], 2), P.D2P["d2_li2_first"].xreplace(sub), dom, ctx.seed),
        "l1 l_i (i=2)": check_identity(sp.diff(ps[0], l[0], l[1]), P.D2P["d2_l1_li"].xreplace(sub), dom, ctx.seed),
        "l_i² (i=2)": check_identity(sp.diff(ps[0], l[1], 2), P.D2P["d2_li2_second"].xreplace(sub), dom, ctx.seed),
    }
    Ts, scaled = [], []
    for T in G.T_SWEEP:
        pop, th = G.post_stage1(7, 0, T)
        conf = pop.subset(pop.flag("confusing"))
        v = G.np_softmax(th)
        s = v @ np.array([float(d) for d in DELTA])
        vp = v * (np.array([float(d) for d in DELTA]) - s)
        lp = conf.logit_grads(v) @ vp
        p = conf.probs(v, T)
        e = np.zeros_like(p)
        e[np.arange(len(conf)), conf.target] = 1
        p1 = p[np.arange(len(conf)), conf.target]
        # ∂²p1/∂l∂l = (p1/T²)[(e − p)(e − p)ᵀ − Diag(p) + ppᵀ]
        u = ((e - p) * lp).sum(1)
        quad = u**2 - (p * lp**2).sum(1) + ((p * lp).sum(1)) ** 2
        term2 = np.abs(p1 / T**2 * quad).max()
        Ts.append(T)
        scaled.append(float(term2 * np.exp(1 / np.sqrt(T))))
    fit = G.little_o_sweep(Ts, scaled)
    ok = fit["last 3 decreasing"] and fit["slope 95% CI"][1] < 0
    parts["term II = o(e^{−1/√T})"] = (holds("sweep fit", f"term II·e^(1/√T): {['%.3g' % x for x in scaled]}", **fit) if ok
                                       else inconclusive("sweep fit", f"not decreasing to 0 on the grid: {scaled}", **fit))
    return combine(parts, "term II:")


# --- gradient at θ̃, the sandwich, confusing sequences close -----------------------------------------

@CLAIMS.add("L10-grad-small", location="Lemma 10 proof, part (1), App. C", kind=Kind.INEQUALITY,
            catalogue_id="ICR-L10-grad-small",
            statement="At θ̃: non-confusing Z ‖∇_vℓ1‖ = o(e^{−1/√T}/T); confusing Z ‖∇_vℓ1‖∞ ≲ (1/T)max{|v1−v3|,|v2−v4|} "
                      "(+ the dead relations' part) and = o(T); ‖∇_θℓ1‖ = O(‖∇_vℓ1‖) = o(T)",
            choices={"stage 1": STAGE1, "reading": "'o(−exp(−1/√T)/T)' read as o(exp(−1/√T)/T)",
                     "printed minus (issue 27)": "not registered as a typo finding: o(·) is defined through |g|/|f| → 0, "
                     "so o(−f) and o(f) are the same class and the printed statement, taken literally, is the one "
                     "tested here (nothing false to refute); the minus is a display slip only",
                     "confusing bound": "T‖∇_vℓ1‖∞ ≤ 2·max{|v1−v3|,|v2−v4|} + T·(part from relations ∉ {r1, r2}) "
                                        "on random D (|D| = 512) so that v1 ≠ v3"})
def l10_grad_small(ctx):
    parts = {}
    nonconf, conf_ot, theta_ot = [], [], []
    for T in G.T_SWEEP:
        pop, th = G.post_stage1(7, 0, T)
        v = G.np_softmax(th)
        g = pop.grads_v(v, T)
        nc = ~pop.flag("confusing")
        nonconf.append(float(np.linalg.norm(g[nc], axis=1).max() * T * np.exp(1 / np.sqrt(T))))
        conf_ot.append(float(np.abs(g[~nc]).max() / T))
        J = G.softmax_jacobian(v)
        theta_ot.append(float(np.linalg.norm(g @ J, axis=1).max() / T))
    parts["non-confusing o(e^{-1/√T}/T)"] = little_o_verdict("T e^{1/√T}‖∇ℓ‖", G.T_SWEEP, nonconf)
    parts["confusing ‖∇‖∞ = o(T)"] = check_cases([("sweep", conf_ot)], lambda xs: (max(xs[2:]) < 1e-3 and xs[-1] < xs[2],
                                                 {"T": list(G.T_SWEEP), "‖∇‖∞/T": xs}), exhaustive=True)
    parts["‖∇_θℓ‖ = o(T)"] = check_cases([("sweep", theta_ot)], lambda xs: (max(xs[2:]) < 1e-3,
                                         {"T": list(G.T_SWEEP), "‖∇θ‖/T": xs}), exhaustive=True)

    def conf_bound(T):
        pop = G.greedy_population(7, 0)
        D = pop.take(np.random.default_rng(ctx.seed).integers(len(pop), size=512))
        v = G.np_softmax(G.stage1_theta(D, T, G.eta1_of(T, G.C1_DEFAULT)))
        conf = D.subset(D.flag("confusing"))
        g = conf.grads_v(v, T)
        p = conf.probs(v, T)
        Gl = conf.logit_grads(v)
        own = Gl[np.arange(len(conf)), conf.target][:, None, :]
        dead = p.copy()
        ii = np.arange(len(conf))
        dead[ii, conf.target] = 0
        dead[ii, G.confusing_index(conf)] = 0
        dead_part = np.abs(np.einsum("sm,smi->si", dead, Gl - own)).max(1)
        m = max(abs(v[0] - v[2]), abs(v[1] - v[3]))
        lhs = np.abs(g).max(1) * T
        return bool((lhs <= 2 * m + dead_part + 1e-15).all()), {"T": T, "max T‖∇‖∞": float(lhs.max()),
                                                                 "max{|v1-v3|,|v2-v4|}": float(m),
                                                                 "max dead part": float(dead_part.max())}
    parts["confusing ≲ (1/T)max{…}"] = check_cases([(f"T={T}", T) for T in G.T_SWEEP[:3]], conf_bound,
                                                   exhaustive=False, what="temperatures")
    return combine(parts, "gradient at θ̃:")


def _regime_verdict(rows: dict, what: str):
    """Asymptotic (T < T_max) inequality: holds if it holds at every grid T below the largest failing
    one and at ≥ 3 grid temperatures; the failing larger T bound T_max from below (details)."""
    Ts = sorted(rows, reverse=True)
    failing = [T for T in Ts if not rows[T][0]]
    if not failing:
        return holds("grid over T", f"{what}: holds at every T of the grid", rows={str(T): r[1] for T, r in rows.items()})
    if len([T for T in Ts if T < min(failing)]) >= 3:
        return holds("grid over T, T < T_max", f"{what}: holds for T ≤ {max(T for T in Ts if T < min(failing))}; fails "
                     f"at T ∈ {failing} (pre-asymptotic: T_max(δ) < {min(failing)} with these constants)",
                     rows={str(T): r[1] for T, r in rows.items()})
    return inconclusive("grid over T", f"{what}: fails at T ∈ {failing}; too few smaller T hold",
                        rows={str(T): r[1] for T, r in rows.items()})


def _confusing_margins(pop, v, T):
    """Per confusing sequence: base = 1 + e^{(l2 − l1)/T}, dead = Σ_{r ∉ {r1, r2}} e^{(l_r − l1)/T}, g."""
    conf = pop.subset(pop.flag("confusing"))
    l = conf.logits(v)
    idx = np.arange(len(conf))
    r2 = G.confusing_index(conf)
    l1 = l[idx, conf.target]
    rel = (l - l1[:, None]) / T
    w = np.exp(rel)
    w[idx, conf.target] = 0
    w[idx, r2] = 0
    base = 1 + np.exp((l[idx, r2] - l1) / T)
    return base, w.sum(1), l1 - l[idx, r2]


@CLAIMS.add("L10-sandwich", location="Lemma 10 proof (also Lemma 11 proof), App. C", kind=Kind.INEQUALITY,
            catalogue_id="ICR-L10-sandwich",
            statement="For confusing Z, g := l(r1) − l(r2) = 2(v1 − v3)(v2 − v4) and 1/(1 + e^{−g/T} + 4e^{−√(1/T)} + "
                      "n²e^{−1/(18T)}) ≤ p1(r1, Z) ≤ 1/(1 + e^{−g/T})",
            choices={"stage 1": STAGE1, "stage 2": "θ0 = θ̃ + T³·unit random direction, η2 = 10T², 20 steps, every 5th iterate",
                     "temperatures": "(0.01,) + T_SWEEP + (0.00015625,)"})
def l10_sandwich(ctx):
    l1, l2 = two_relations()
    parts = {"g identity": check_identity(l1 - l2, P.SANDWICH_G, Domain([Simplex(G.VS)]), ctx.seed)}

    def check(T):
        pop, path = stage2_points(T, seed=ctx.seed)
        n = pop.vocab.n
        worst_lo, worst_hi = np.inf, np.inf
        for th in path:
            v = G.np_softmax(th)
            base, dead, gap = _confusing_margins(pop, v, T)
            allowed = 4 * np.exp(-np.sqrt(1 / T)) + n**2 * np.exp(-1 / (18 * T))
            worst_lo = min(worst_lo, float((allowed - dead).min() / allowed))  # lower bound ⇔ dead ≤ allowed
            worst_hi = min(worst_hi, float(dead.min()))  # upper bound ⇔ dead ≥ 0
            gprint = 2 * (v[0] - v[2]) * (v[1] - v[3])
            if np.abs(gap - gprint).max() > 1e-12:
                return False, {"T": T, "g mismatch": float(np.abs(gap - gprint).max())}
        return worst_lo >= 0 and worst_hi >= 0, {"T": T, "min relative slack (lower)": worst_lo, "min dead mass": worst_hi,
                                                "iterates": len(path)}
    parts["trajectories"] = _regime_verdict({T: check(T) for T in (0.01,) + G.T_SWEEP + (0.00015625,)},
                                            "lower/upper bounds")
    return combine(parts, "sandwich:")


@CLAIMS.add("L10-conf-close", location="Lemma 10 proof, App. C", kind=Kind.INEQUALITY, catalogue_id="ICR-L10-conf-close",
            statement="|p1(r1, Z1) − p1(r1, Z2)| = O(e^{−1/√T}) and |ℓ1(θ, Z1) − ℓ1(θ, Z2)| = O(e^{−1/√T}) for confusing Z1, Z2",
            choices={"stage 1": STAGE1, "points": "θ̃ and the Stage-2 iterates of icrecall.L10-sandwich (20 steps, η2 = 10T²)",
                     "O decision": "spread·e^{1/√T} fitted against 1/√T: decreasing over the last 3 T, slope CI < 0, "
                                   "last/first < 0.1 (bounded, indeed → 0); else inconclusive"})
def l10_conf_close(ctx):
    sp_p, sp_l = [], []
    for T in G.T_SWEEP:
        pop, path = stage2_points(T, seed=ctx.seed)
        wp = wl = 0.0
        for th in path:
            base, dead, _ = _confusing_margins(pop, G.np_softmax(th), T)
            # p1 = 1/(base + dead): exact differences without cancellation; ℓ1 = log(base + dead)
            d_hi, d_lo = dead.max(), dead.min()
            wp = max(wp, float((d_hi - d_lo) / ((base[0] + d_hi) * (base[0] + d_lo))))
            wl = max(wl, float(np.log1p((d_hi - d_lo) / (base[0] + d_lo))))
        sp_p.append(wp * np.exp(1 / np.sqrt(T)))
        sp_l.append(wl * np.exp(1 / np.sqrt(T)))
    return combine({"p1 spread": little_o_verdict("p1 spread·e^{1/√T}", G.T_SWEEP, sp_p),
                    "ℓ1 spread": little_o_verdict("ℓ1 spread·e^{1/√T}", G.T_SWEEP, sp_l)}, "confusing sequences close:")
