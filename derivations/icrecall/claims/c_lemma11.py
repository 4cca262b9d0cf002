"""Lemma 11 (App. C): growth of g = (v1 − v3)(v2 − v4) after the escape — Eqs. (26)–(31), the
two-relation gradients, the Lemma 12 step, the final sandwich; Theorem 3's o(α) step.

Leading-order algebra uses the two alive relations r1, r2 of a confusing sequence (logits derived
from the model, ``model.appc_landscape.two_relations``) with p2 := p(r2) as a symbol standing for the
softmax value; o(e^{−1/√T}) remainders are the dead relations and are checked numerically."""
from __future__ import annotations

import mpmath
import numpy as np
import sympy as sp

import theoryverify as tv
from theoryverify import check_cases, check_identity, check_inequality
from theoryverify import ClaimSet, Kind
from theoryverify import Finding, Readings
from theoryverify import Domain, Interval, LogUniform, Simplex
from theoryverify import Status, combine, holds

from ..model import general_n as G
from ..printed import appc as P
from ..experiments.appc_sweeps import little_o_verdict, stage2_points
from ..model.appc_landscape import TWO_REL, two_relations

CLAIMS = ClaimSet("icrecall")

VS = list(G.VS)
DOM_V_T = Domain([Simplex(G.VS), LogUniform(P.T, 0.01, 5.0)])
DOM_V_P = Domain([Simplex(G.VS), LogUniform(P.T, 0.01, 5.0), Interval(P.p2, 0, 1), Interval(P.pc, 0, 1)])
DV = sp.symbols("dv1:7", real=True)  # generic ∂L1/∂v_i
GT = sp.symbols("gt1:7", real=True)  # generic ∂L1/∂θ_i
ETA = sp.Symbol("eta", positive=True)


def _two_rel_loss():
    l1, l2 = two_relations()
    return l1, l2, -l1 / P.T + sp.log(sp.exp(l1 / P.T) + sp.exp(l2 / P.T))


def _p2_value():
    l1, l2 = two_relations()
    return sp.exp(l2 / P.T) / (sp.exp(l1 / P.T) + sp.exp(l2 / P.T))


def derived_grads_p2():
    """∂ℓ1/∂v_i for two alive relations, written with p2: (p2/T)(∂l2/∂v_i − ∂l1/∂v_i)."""
    l1, l2 = two_relations()
    return [P.p2 / P.T * (sp.diff(l2, x) - sp.diff(l1, x)) for x in VS]


def dataset_grads():
    """∂L1/∂v_i at leading order: p_conf × the confusing-sequence gradient with p2 := p2(D)."""
    return [P.pc * d for d in derived_grads_p2()]


def chain_theta(dv):
    vg = sum(a * b for a, b in zip(VS, dv))
    return [VS[i] * (dv[i] - vg) for i in range(6)]


# --- ICR-L11-g0 -------------------------------------------------------------------------------------

KAP, EPS, KC = sp.symbols("kappa epsilon k_c", positive=True)


@CLAIMS.add("L11-g0", location="Lemma 11 proof, App. C", kind=Kind.INEQUALITY, catalogue_id="ICR-L11-g0",
            statement="ℓ1 ≤ log 2 − κ ⇒ p(r2) ≤ ½ − Ω(κ); p(r2) ≤ ½ − ε ⇒ g = l1 − l2 ≥ T log((½+ε)/(½−ε)) ≥ 4εT; "
                      "with ε = Θ(T³): (v1 − v3)(v2 − v4) ≳ T⁴ (g0 ≳ T⁴)",
            choices={"κ": "Ω(p_conf³T³) with p_conf treated as a constant (the printed Ω(T³) drops p_conf³)",
                     "softmax": "two alive relations (dead mass only lowers p1 and p2 further)"})
def l11_g0(ctx):
    parts = {}
    # (1) p1 = e^{−ℓ} ≥ ½e^κ, p2 ≤ 1 − p1 ≤ ½ − κ/2
    parts["ℓ ≤ log2 − κ ⇒ p2 ≤ ½ − κ/2"] = check_inequality(1 - sp.exp(-(sp.log(2) - KAP)), "<=", sp.Rational(1, 2) - KAP / 2,
                                                            Domain([Interval(KAP, 0, 0.69)]), ctx.seed)
    # (2) two-relation softmax: g = T log(p1/p2) ≥ T log((½+ε)/(½−ε)) ≥ 4εT
    parts["log((1+2ε)/(1−2ε)) ≥ 4ε"] = check_inequality(sp.log((1 + 2 * EPS) / (1 - 2 * EPS)), ">=", 4 * EPS,
                                                         Domain([Interval(EPS, 0, 0.49)]), ctx.seed)
    l1, l2 = two_relations()
    parts["l1 − l2 = 2(v1−v3)(v2−v4)"] = check_identity(l1 - l2, P.SANDWICH_G, Domain([Simplex(G.VS)]), ctx.seed)
    # (3) the T-exponent: ε = k_c T³ ⇒ g_min / T⁴ → 4 k_c, i.e. exponent 4
    gmin = P.T * sp.log((1 + 2 * KC * P.T**3) / (1 - 2 * KC * P.T**3))
    lim = sp.limit(gmin / P.T**P.G0_EXPONENT, P.T, 0, "+")
    parts["g_min ~ 4k_c T⁴"] = check_identity(lim, 4 * KC, Domain([Interval(KC, 0.01, 10)]), ctx.seed)
    return combine(parts, "g0 ≳ T⁴:")


# --- ICR-L11-eq26, eq27 -------------------------------------------------------------------------------

@CLAIMS.add("L11-eq26", location="Eq. (26), Lemma 11 proof, App. C", kind=Kind.IDENTITY, catalogue_id="ICR-L11-eq26",
            statement="g_{k+1} − g_k = (v1−v3)(Δ2−Δ4) + (v2−v4)(Δ1−Δ3) + (Δ1−Δ3)(Δ2−Δ4), g = (v1−v3)(v2−v4), v_{k+1} = v_k + Δ")
def l11_eq26(ctx):
    gk = (VS[0] - VS[2]) * (VS[1] - VS[3])
    gk1 = gk.xreplace({VS[i]: VS[i] + P.D[i] for i in range(4)})
    dom = Domain([Simplex(G.VS)] + [Interval(d, -0.1, 0.1) for d in P.D])
    return check_identity(gk1 - gk, P.EQ26, dom, ctx.seed)


@CLAIMS.add("L11-eq27", location="Eq. (27) and the Δ displays, Lemma 11 proof, App. C", kind=Kind.IDENTITY,
            catalogue_id="ICR-L11-eq27",
            statement="Δ = −η2 J(v)∇_θL1 + ε with J = Diag(v) − vvᵀ the softmax Jacobian; the printed Δ1−Δ3, Δ2−Δ4; "
                      "(27) = (26) with them substituted, up to O(‖ε‖)",
            choices={"gradient": "∂L1/∂θ_i kept as free symbols"})
def l11_eq27(ctx):
    th = sp.symbols("theta1:7", real=True)
    vth = G.softmax(list(th))
    parts = {}
    dom_th = Domain([Interval(t, -2, 2) for t in th])
    parts["∂softmax_1/∂θ_3 = −v1v3"] = check_identity(sp.diff(vth[0], th[2]), -vth[0] * vth[2], dom_th, ctx.seed)
    parts["∂softmax_1/∂θ_1 = v1 − v1²"] = check_identity(sp.diff(vth[0], th[0]), vth[0] - vth[0] ** 2, dom_th, ctx.seed)
    Jg = (sp.diag(*VS) - sp.Matrix(VS) * sp.Matrix(VS).T) * sp.Matrix(GT)
    first = [-ETA * Jg[i] for i in range(6)]
    d13, d24 = P.delta_diffs(list(GT), ETA, VS)
    dom = Domain([Simplex(G.VS), Interval(ETA, 0, 1)] + [Interval(x, -5, 5) for x in GT])
    parts["Δ1 − Δ3 display"] = check_identity(first[0] - first[2], d13, dom, ctx.seed)
    parts["Δ2 − Δ4 display"] = check_identity(first[1] - first[3], d24, dom, ctx.seed)
    sub = {P.D[i]: first[i] for i in range(4)}
    parts["(26) → (27)"] = check_identity(P.EQ26.xreplace(sub), P.eq27(list(GT), ETA, VS), dom, ctx.seed)
    return combine(parts, "Eq. (27):")


# --- ICR-L11-grads, vgrad -------------------------------------------------------------------------------

@CLAIMS.add("L11-grads", location="Lemma 11 proof, App. C", kind=Kind.IDENTITY, catalogue_id="ICR-L11-grads",
            expect=Status.REFUTED, finding=Finding.TYPO,
            reason="with r1, r2 alive, ∂ℓ1/∂v1 = (2/T)p2(v4 − v2) (∂l1/∂v1 − ∂l2/∂v1 = 2(v2 − v4)); the printed "
                   "(1/T)p2(v4 − v2) (and v2..v4) miss a factor 2 that the later displays (Σ v∂, (28)–(30)) carry, "
                   "so no later line uses the slip (L11-grads-derived, L11-vgrad hold)",
            readings=Readings(
                tested="the paper's words: \"∂ℓ1/∂v1 = (1/T)p2(v4 − v2), ∂ℓ1/∂v2 = (1/T)p2(v3 − v1), ...\" (Lemma 11 "
                       "proof, App. C, leading terms with r1, r2 alive) — the factor as printed",
                others={"the same gradients with the factor 2/T (Eq. (18) / App. C gradient list), which the later "
                        "displays carry": "holds: icrecall.L11-grads-derived",
                        "the Σ v∂ℓ1/∂v display that the proof builds on": "holds: icrecall.L11-vgrad"}),
            statement="∂ℓ1/∂v1 = (1/T)p2(v4 − v2), ∂ℓ1/∂v2 = (1/T)p2(v3 − v1), ∂ℓ1/∂v3 = (1/T)p2(v2 − v4), "
                      "∂ℓ1/∂v4 = (1/T)p2(v1 − v3), ∂ℓ1/∂v5 = 0, ∂ℓ1/∂v6 = 0 (leading terms, two alive relations)",
            choices={"relations": TWO_REL})
def l11_grads(ctx):
    _, _, L = _two_rel_loss()
    p2 = _p2_value()
    return combine({f"∂v{i + 1}": check_identity(sp.diff(L, VS[i]), P.L11_GRADS[i].xreplace({P.p2: p2}), DOM_V_T,
                                                 ctx.seed + i, symbolic_seconds=0.5, n_rational=4, n_float=30)
                    for i in range(6)}, "Lemma 11 gradients:")


@CLAIMS.add("L11-grads-derived", location="Lemma 11 proof, App. C", kind=Kind.IDENTITY, catalogue_id="ICR-L11-grads",
            statement="Derived two-relation gradients ∂ℓ1/∂v_i = (p2/T)(∂l2/∂v_i − ∂l1/∂v_i) = (2/T)p2·(v4−v2, v3−v1, "
                      "v2−v4, v1−v3, 0, 0)_i, and the full model agrees at the Stage-2 points where p1 + p2 ≈ 1",
            choices={"relations": TWO_REL, "full model": "confusing sequences of F-greedy(7,0) at the Stage-2 iterates "
                                                         "of icrecall.L10-sandwich, T = 0.000625 (dead mass < 1e-12)"})
def l11_grads_derived(ctx):
    _, _, L = _two_rel_loss()
    p2 = _p2_value()
    dg = derived_grads_p2()
    parts = {f"∂v{i + 1} = (p2/T)(∇l2 − ∇l1)": check_identity(sp.diff(L, VS[i]), dg[i].xreplace({P.p2: p2}), DOM_V_T,
                                                              ctx.seed + i, symbolic_seconds=1.0, n_float=30)
             for i in (0, 4)}
    parts["= 2×printed"] = combine({f"i={i + 1}": check_identity(dg[i], 2 * P.L11_GRADS[i], DOM_V_P, ctx.seed)
                                    for i in range(6)})
    T = 0.000625
    pop, path = stage2_points(T)
    conf = pop.subset(pop.flag("confusing"))
    f = [sp.lambdify([G.VS, P.p2, P.T], d) for d in dg]

    def case(th):
        v = G.np_softmax(th)
        p = conf.probs(v, T)
        ii = np.arange(len(conf))
        p2v = p[ii, G.confusing_index(conf)]
        dead = 1 - p[ii, conf.target] - p2v
        full = conf.grads_v(v, T)
        lead = np.stack([[fi(v, q, T) for fi in f] for q in p2v])
        err = float(np.abs(full - lead).max() * T)
        return err < 1e-10 and float(dead.max()) < 1e-12, {"max T|full − leading|": err, "max dead": float(dead.max())}
    parts["full model at Stage-2 points"] = check_cases([(f"iterate {k}", th) for k, th in enumerate(path)], case,
                                                        exhaustive=False, what="iterates")
    return combine(parts, "derived gradients:")


@CLAIMS.add("L11-vgrad", location="Lemma 11 proof, App. C", kind=Kind.IDENTITY, catalogue_id="ICR-L11-vgrad",
            statement="‖∇_vℓ1(Z′)‖∞ = o(e^{−1/√T}/T) for non-confusing Z′; ∂L1/∂v_i = p_conf ∂ℓ1(Z)/∂v_i + o(·); "
                      "∂L1/∂θ_i = v_i(∂L1/∂v_i − Σ_j v_j∂L1/∂v_j); Σ_j v_j ∂L1/∂v_j = (4p2p_conf/T)(−g + o(·))",
            choices={"relations": TWO_REL, "p2": "p2(D), the mean over confusing sequences (v is shared)",
                     "numeric": "F-greedy(7,0) population at θ̃ (Stage 1, η1 = 100 T^1.5 log(1/T)), T ∈ T_SWEEP; "
                                "o(·) decided by the sweep fit of the e^{1/√T}-scaled quantity"})
def l11_vgrad(ctx):
    dg = dataset_grads()
    g = (VS[0] - VS[2]) * (VS[1] - VS[3])
    parts = {"Σ v_j ∂L1/∂v_j": check_identity(sum(a * b for a, b in zip(VS, dg)), P.L11_VGRAD.xreplace({P.g: g}),
                                              DOM_V_P, ctx.seed)}
    # chain rule through softmax (symbolic, generic L(v))
    th = sp.symbols("theta1:7", real=True)
    vth = G.softmax(list(th))
    Lgen = sum(c * x for c, x in zip(DV, vth))  # linear test function: ∂L/∂v = DV
    dom = Domain([Interval(t, -2, 2) for t in th] + [Interval(d, -3, 3) for d in DV])
    parts["∂θ_i chain rule (i=2)"] = check_identity(sp.diff(Lgen, th[1]),
                                                    chain_theta(list(DV))[1].xreplace(dict(zip(G.VS, vth))), dom, ctx.seed)
    nonconf, lead_err = [], []
    for T in G.T_SWEEP:
        pop, thv = G.post_stage1(7, 0, T)
        v = G.np_softmax(thv)
        gr = pop.grads_v(v, T)
        conf = pop.flag("confusing")
        nonconf.append(float(np.abs(gr[~conf]).max() * T * np.exp(1 / np.sqrt(T))))
        # ∇L1 − p_conf·(2/T)p2(D)(…) is exactly the dead relations' part (∇l2 − ∇l1 is the same for every
        # confusing Z at a shared v); summing it directly avoids cancellation below float resolution
        p = pop.probs(v, T)
        ci = G.confusing_index(pop)
        ii = np.arange(len(pop))
        p[ii, pop.target] = 0
        p[ii[conf], ci[conf]] = 0
        Gl = pop.logit_grads(v)
        dead = np.einsum("sm,smi->si", p, Gl - Gl[ii, pop.target][:, None, :]).mean(0) / T
        lead_err.append(float(np.abs(dead).max() * T * np.exp(1 / np.sqrt(T))))
    parts["non-confusing ‖∇‖∞ = o(e^{−1/√T}/T)"] = little_o_verdict("T e^{1/√T}‖∇ℓ(Z′)‖∞", G.T_SWEEP, nonconf)
    parts["∂L1/∂v_i − leading = o(e^{−1/√T}/T)"] = little_o_verdict("T e^{1/√T}|∇L1 − leading|", G.T_SWEEP, lead_err)
    return combine(parts, "Lemma 11 v-gradient:")


# --- Eqs. (28)–(30) -------------------------------------------------------------------------------

@CLAIMS.add("L11-eq28-29", location="Eqs. (28), (29), Lemma 11 proof, App. C", kind=Kind.IDENTITY,
            catalogue_id="ICR-L11-eq28-29",
            statement="v3∂L1/∂θ3 − v1∂L1/∂θ1 = v3²∂L1/∂v3 − v1²∂L1/∂v1 + (v1² − v3²)vᵀ∇_vL1 = (2p2(D)p_conf/T)((v1²+v3²)(v2−v4) "
                      "+ 2(v3²−v1²)g + o(·)) (28), and (29) likewise",
            choices={"relations": TWO_REL, "first '='": "exact for any ∇_vL1 (chain rule through softmax)",
                     "consistency": "with the printed Lemma 11 gradients (factor 1/T) the second '=' fails — see details"})
def l11_eq28_29(ctx):
    dom_gen = Domain([Simplex(G.VS)] + [Interval(d, -3, 3) for d in DV])
    gth = chain_theta(list(DV))
    first, _ = P.eq28(list(DV))
    parts = {"(28) first =": check_identity(VS[2] * gth[2] - VS[0] * gth[0], first, dom_gen, ctx.seed)}
    dg = dataset_grads()
    f2, s2 = P.eq28(dg)
    parts["(28) second ="] = check_identity(f2, s2, DOM_V_P, ctx.seed)
    gth_d = chain_theta(dg)
    parts["(29)"] = check_identity(VS[3] * gth_d[3] - VS[1] * gth_d[1], P.eq29(), DOM_V_P, ctx.seed)
    v = combine(parts, "Eqs. (28)–(29):")
    printed_dg = [P.pc * x for x in P.L11_GRADS]
    f2p, _ = P.eq28(printed_dg)
    alt = check_identity(f2p.xreplace({P.g: 0}), s2, DOM_V_P, ctx.seed)
    return holds(v.method, v.evidence + f"; with the printed Lemma 11 gradients instead: {alt.status.value}",
                 **v.details, printed_grads_reading=alt.to_json()) if v.holds else v


@CLAIMS.add("L11-eq30", location="Eq. (30), Lemma 11 proof, App. C", kind=Kind.IDENTITY, catalogue_id="ICR-L11-eq30",
            statement="vᵀ∇_θL1 = Σ v_i²∂L1/∂v_i − ‖v‖²vᵀ∇_vL1 = (2p2p_conf/T)((v3²−v1²)(v2−v4) + (v4²−v2²)(v1−v3) + 2‖v‖²g) "
                      "= (2p2p_conf/T)(2‖v‖² − (v1+v2+v3+v4))g, so |vᵀ∇_θL1| = O(p2 p_conf g/T)",
            choices={"relations": TWO_REL})
def l11_eq30(ctx):
    dom_gen = Domain([Simplex(G.VS)] + [Interval(d, -3, 3) for d in DV])
    gth = chain_theta(list(DV))
    first, _, _ = P.eq30(list(DV))
    parts = {"first =": check_identity(sum(a * b for a, b in zip(VS, gth)), first, dom_gen, ctx.seed)}
    dg = dataset_grads()
    f, s, t = P.eq30(dg)
    parts["second ="] = check_identity(f, s, DOM_V_P, ctx.seed)
    parts["third ="] = check_identity(s, t, DOM_V_P, ctx.seed)
    nv2 = sum(x**2 for x in VS)
    parts["|coefficient| ≤ 2 on the simplex"] = check_inequality(sp.Abs(2 * nv2 - sum(VS[:4])), "<=", sp.Integer(2),
                                                                  Domain([Simplex(G.VS)]), ctx.seed)
    return combine(parts, "Eq. (30):")


# --- Eq. (31) ------------------------------------------------------------------------------------

@CLAIMS.add("L11-eq31", location="Eq. (31) and the surrounding inequalities, Lemma 11 proof, App. C",
            kind=Kind.INEQUALITY, catalogue_id="ICR-L11-eq31",
            statement="g_{k+1} − g_k = (2p2p_conf η2/T)((v1²+v3²)(v2−v4)² + (v2²+v4²)(v1−v3)² + o(g)) + O(‖ε‖) "
                      "≥ (2p2p_conf η2/T)(√((v1²+v3²)(v2²+v4²)) g + o(g)) ≥ (η2 p_conf/(10000T)) g for p2(D) > 0.0009; "
                      "AM–GM step; ε chain; g = Ω(1) ⇒ p1 ≥ 0.999",
            choices={"relations": TWO_REL, "region for the constant": "v = Lemma 9 profile with α ∈ [0, 0.05], "
                                                                      "p2(D) ∈ [0.0009, 0.5]",
                     "o(g)": "the first-order remainder is checked to be g²·(bounded): exact identity"})
def l11_eq31(ctx):
    parts = {}
    dg = dataset_grads()
    gth = chain_theta(dg)
    gg = (VS[0] - VS[2]) * (VS[1] - VS[3])
    a = sum(x * y for x, y in zip(VS, gth))
    b13, b24 = VS[2] * gth[2] - VS[0] * gth[0], VS[3] * gth[3] - VS[1] * gth[1]
    d13, d24 = VS[0] - VS[2], VS[1] - VS[3]
    first_order = ETA * (2 * d13 * d24 * a + d24 * b13 + d13 * b24)
    line1, line2, line3 = P.eq31_lines(ETA)
    nv2, S = sum(x**2 for x in VS), sum(VS[:4])
    dom = Domain([Simplex(G.VS), LogUniform(P.T, 0.01, 5.0), Interval(P.p2, 0, 1), Interval(P.pc, 0, 1),
                  Interval(ETA, 0, 1)])
    parts["first line: remainder = O(g²)"] = check_identity(first_order - line1,
                                                             2 * P.p2 * P.pc * ETA / P.T * 4 * (nv2 - S) * gg**2, dom, ctx.seed)
    parts["AM–GM"] = check_inequality(P.AMGM_LHS, ">=", P.AMGM_RHS, Domain([Simplex(G.VS)]), ctx.seed)
    al = sp.Symbol("alpha", nonnegative=True)
    v9 = dict(zip(G.VS, G.lemma9_point(al)))
    a13a24 = ((VS[0] ** 2 + VS[2] ** 2) * (VS[1] ** 2 + VS[3] ** 2)).xreplace(v9)
    dom_c = Domain([Interval(P.p2, float(P.EQ31_P2_THRESHOLD), 0.5), Interval(al, 0, 0.05)])
    parts["line 2 ≥ line 3 (constant)"] = check_inequality(2 * P.p2 * sp.sqrt(a13a24), ">=", P.EQ31_CONST, dom_c, ctx.seed)
    derived_const = 2 * 2 * P.EQ31_P2_THRESHOLD * sp.sqrt(a13a24.subs(al, 0))
    # ε chain: (d13² + d24²)/((v1²+v3²)d24² + (v2²+v4²)d13²) ≤ 1/min(v1²+v3², v2²+v4²)
    X = P.AMGM_LHS
    parts["ε chain ratio"] = check_inequality((d13**2 + d24**2) * sp.Min(VS[0] ** 2 + VS[2] ** 2, VS[1] ** 2 + VS[3] ** 2),
                                              "<=", X, Domain([Simplex(G.VS)]), ctx.seed)
    gl = sp.Symbol("g_lim", positive=True)
    parts["g = Ω(1) ⇒ p1 → 1"] = check_identity(sp.limit(1 / (1 + sp.exp(-gl / P.T)), P.T, 0, "+"), sp.Integer(1),
                                                 Domain([Interval(gl, 0.01, 1)]), ctx.seed)
    parts["p2 ≤ 0.0009 ⇒ p1 ≥ 0.9991 (no dead mass)"] = check_identity(1 - P.EQ31_P2_THRESHOLD, P.EQ31_P1_CONSEQUENCE,
                                                                       Domain([]), ctx.seed)
    v = combine(parts, "Eq. (31):")
    note = (f"; derived constant at p2 = 0.0009, α → 0 with the AM–GM factor 2: {sp.nsimplify(derived_const)} "
            f"(printed 1/10000 = factor-1 line at α = 0); p1 ≥ 0.9991 holds only up to the dead mass o(e^(-1/√T))")
    return holds(v.method, v.evidence + note, **v.details) if v.holds else v


# --- the Lemma 12 step, the final sandwich, Theorem 3's o(α) ------------------------------------------

LC, GAP, C, C1, PM = sp.symbols("L_c G_ap c c1 p_mis", positive=True)


@CLAIMS.add("L11-lemma12-use", location="Lemma 11 proof, App. C", kind=Kind.IDENTITY, catalogue_id="ICR-L11-lemma12-use",
            statement="For k ≤ (1/T)(log(1/T))^1.5, Lemma 12 gives ‖θ(k) − θ̃‖ ≲ √(kT²) ≲ T^{1/2}(log(1/T))^{3/4}, hence "
                      "‖v(k) − ṽ‖ ≲ the same and p(r_i) = o(e^{−1/√T}) for i ≠ 1, 2",
            choices={"Lemma 12": "‖x_t − x_0‖ ≤ √(2t(f(x0) − f*)/ℓ) with ℓ = L_c/T² (Prop. 1), gap G_ap = O(1)",
                     "margin": "α = c·p_mis·η1/T, η1 = c1 T^1.5 log(1/T) (Lemma 9)"})
def l11_lemma12_use(ctx):
    T, k = P.T, P.k
    dom = Domain([LogUniform(T, 1e-6, 0.5), LogUniform(k, 1, 1e6), Interval(LC, 0.1, 10), Interval(GAP, 0.01, 2)])
    parts = {"Lemma 12 with ℓ = L_c/T²": check_identity(sp.sqrt(2 * k * GAP / (LC / T**2)),
                                                         sp.sqrt(2 * GAP / LC) * P.L11_DISPLACEMENT, dom, ctx.seed),
             "√(k_max T²)": check_identity(P.L11_DISPLACEMENT.subs(k, P.L11_K_MAX), P.L11_DISPLACEMENT2,
                                           Domain([LogUniform(T, 1e-6, 0.5)]), ctx.seed)}
    th = sp.symbols("a1:4", real=True)
    tp = sp.symbols("b1:4", real=True)
    va, vb = G.softmax(list(th)), G.softmax(list(tp))
    parts["softmax 1-Lipschitz (3-dim)"] = check_inequality(
        sp.sqrt(sum((x - y) ** 2 for x, y in zip(va, vb))), "<=", sp.sqrt(sum((x - y) ** 2 for x, y in zip(th, tp))),
        Domain([Interval(x, -4, 4) for x in th + tp]), ctx.seed)
    alpha = C * PM * C1 * T**sp.Rational(3, 2) * sp.log(1 / T) / T
    parts["displacement/α → 0"] = check_identity(sp.limit(P.L11_DISPLACEMENT2 / alpha, T, 0, "+"), sp.Integer(0),
                                                 Domain([Interval(C, 0.1, 10), Interval(PM, 0.1, 1), Interval(C1, 1, 100)]),
                                                 ctx.seed)
    return combine(parts, "Lemma 12 step:")


def _width(nv, x=0):
    T = 1 / (40 * mpmath.log(nv))
    c = 4 * mpmath.exp(-mpmath.sqrt(1 / T)) + nv**2 * mpmath.exp(-1 / (18 * T))
    return c / ((1 + x) * (1 + x + c))


@CLAIMS.add("L11-final", location="Lemma 11, end of proof, App. C", kind=Kind.INEQUALITY, catalogue_id="ICR-L11-final",
            statement="For T < 1/(40 log n) and large enough n the sandwich width is < 0.0001, so p1(D) ≥ 0.9991 gives "
                      "p(r1) ≥ 0.999 on every confusing sequence",
            choices={"width": "sup over g ≥ 0 of 1/(1+e^{−g/T}) − 1/(1+e^{−g/T}+c), c = 4e^{−√(1/T)} + n²e^{−1/(18T)}, "
                              "at T = 1/(40 log n) (worst T in the region)"})
def l11_final(ctx):
    mpmath.mp.dps = 50
    lo, hi = mpmath.mpf(1), mpmath.mpf(200)  # bisection on log10 n
    for _ in range(200):
        mid = (lo + hi) / 2
        if _width(mpmath.mpf(10) ** mid) < mpmath.mpf("1e-4"):
            hi = mid
        else:
            lo = mid
    n_min_log10 = float(hi)
    nn = sp.Symbol("n", positive=True)
    Tn = 1 / (40 * sp.log(nn))
    width_sym = 4 * sp.exp(-sp.sqrt(1 / Tn)) + nn**2 * sp.exp(-1 / (18 * Tn))
    parts = {"width → 0 as n → ∞": check_identity(sp.limit(width_sym, nn, sp.oo), sp.Integer(0), Domain([]), ctx.seed),
             "n² e^{−1/(18T)} = n^{−2/9}": check_identity(sp.simplify(nn**2 * sp.exp(-1 / (18 * Tn))), nn ** sp.Rational(-2, 9),
                                                          Domain([LogUniform(nn, 3, 1e6)]), ctx.seed),
             "0.9991 − 0.0001 = 0.999": check_identity(P.EQ31_P1_CONSEQUENCE - P.L11_FINAL_WIDTH, sp.Rational(999, 1000),
                                                       Domain([]), ctx.seed)}
    v = combine(parts, "final sandwich:")
    return holds(v.method, v.evidence + f"; smallest n with width < 1e-4 at T = 1/(40 log n): n ≈ 10^{n_min_log10:.2f}",
                 n_min_log10=n_min_log10, **v.details) if v.holds else v


#: Lemma 11 regime: ‖v − ṽ‖ ≲ T^{1/2}(log 1/T)^{3/4} (Lemma 12); the points below move the pairs by d = √T.
SANDWICH_TS = (0.01, 0.005, 0.0025)
L11_REGION = tv.Condition("T < 1/(40 log n)", lambda c: c["T"] < 1.0 / (40.0 * np.log(c["n"])), needs=("T", "n"),
                          location="Lemma 11 proof (end), Lemma 9 statement")


@CLAIMS.add("L11-sandwich-gk", location="Lemma 11, end of proof, App. C", kind=Kind.INEQUALITY,
            catalogue_id="ICR-L11-final", expect=Status.REFUTED, finding=Finding.TYPO,
            reason="factor 2 in the exponent: Lemma 11 redefines g := (v1 − v3)(v2 − v4), so the logit gap l(r1) − "
                   "l(r2) is 2g_k and the sandwich reads 1/(1 + e^{−2g_k/T} + …) ≤ p1 ≤ 1/(1 + e^{−2g_k/T}); with "
                   "e^{−g_k/T} the upper bound fails once g_k ≳ T (F-greedy(7), T = 0.005: p1 = 0.88 > 0.73); the "
                   "Lemma 10 formula (g = l(r1) − l(r2)) was reused; the width argument (sup over g) is unchanged "
                   "(L11-final holds)",
            readings=Readings(
                tested="the paper's words: \"It is straightforward to verify that at t ... 1/(1 + exp(−g_k/T) + "
                       "4exp(−√(1/T)) + n²exp(−1/(18T))) ≤ p1(Z′) ≤ 1/(1 + exp(−g_k/T)) for any confusing sequence "
                       "Z′\" (Lemma 11 proof, App. C), with the proof's own \"Denote g := (v1 − v3)(v2 − v4)\"",
                others={"g_k read as Lemma 10's g = l(r1) − l(r2) = 2(v1 − v3)(v2 − v4) (the sandwich of Lemma 10's "
                        "proof)": "holds: icrecall.L10-sandwich",
                        "the conclusion: the sandwich width is < 0.0001 for T < 1/(40 log n), large n (a sup over g, "
                        "so the factor does not matter)": "holds: icrecall.L11-final"}),
            conditions=(L11_REGION,),
            statement="For every confusing sequence Z′, with g_k := (v1 − v3)(v2 − v4) (Lemma 11's g): 1/(1 + e^{−g_k/T} "
                      "+ 4e^{−√(1/T)} + n²e^{−1/(18T)}) ≤ p1(r1, Z′) ≤ 1/(1 + e^{−g_k/T}) (as printed); checked on every "
                      "confusing sequence of F-greedy(7, seed 0) at v = ṽ + (d, d, −d, −d, 0, 0)/2, d = √T (inside "
                      "Lemma 12's radius T^{1/2} log^{3/4}(1/T)), T ∈ {0.01, 0.005, 0.0025}",
            choices={"family": "F-greedy(7, seed 0), every confusing sequence",
                     "points": "v = (¼ + d/2, ¼ + d/2, ¼ − d/2, ¼ − d/2, 0, 0), d = √T: g_k = d² = T"})
def l11_sandwich_gk(ctx, factor: float = 1.0):
    """The printed sandwich with g_k (``factor`` multiplies g_k: 2 is the corrected reading)."""
    pop = G.greedy_population(7, 0)
    conf = pop.subset(pop.flag("confusing"))
    n = pop.vocab.n

    def case(T):
        d = np.sqrt(T)
        v = np.array([0.25 + d / 2, 0.25 + d / 2, 0.25 - d / 2, 0.25 - d / 2, 0.0, 0.0])
        gk = (v[0] - v[2]) * (v[1] - v[3])
        p1 = conf.p_target(v, T)
        lo, hi = P.l11_final_sandwich(factor * gk, T, n)
        ok = bool(np.all(p1 >= lo * (1 - 1e-12)) and np.all(p1 <= hi * (1 + 1e-12)))
        return ok, {"T": T, "n": n, "g_k": float(gk), "p1 min": float(p1.min()), "p1 max": float(p1.max()),
                    "printed lower": lo, "printed upper": hi, "sequences": len(conf)}

    return check_cases([(f"T={T}", T) for T in SANDWICH_TS], case, exhaustive=True, what="temperatures")


@CLAIMS.add("T3-o-alpha", location="Theorem 3 proof, App. C", kind=Kind.IDENTITY, catalogue_id="ICR-T3-o-alpha",
            statement="√T(log(1/T))^{3/4} = o(α) = o(p_mis η1/T) with η1 = Θ(T^1.5 log(1/T)); the passage's levels "
                      "0.99 and 0.999 are consistent with Theorem 3's 0.999",
            choices={"α": "c·p_mis·η1/T, η1 = c1 T^1.5 log(1/T)"})
def t3_o_alpha(ctx):
    T = P.T
    alpha = C * PM * C1 * T**sp.Rational(3, 2) * sp.log(1 / T) / T
    ratio = sp.simplify(P.T3_DISPLACEMENT / alpha)
    dom = Domain([Interval(C, 0.1, 10), Interval(PM, 0.1, 1), Interval(C1, 1, 100)])
    parts = {"ratio → 0": check_identity(sp.limit(ratio, T, 0, "+"), sp.Integer(0), dom, ctx.seed),
             "ratio = 1/(c p_mis c1 log^{1/4}(1/T))": check_identity(ratio, 1 / (C * PM * C1 * sp.log(1 / T) ** sp.Rational(1, 4)),
                                                                     Domain([LogUniform(T, 1e-8, 0.5), Interval(C, 0.1, 10),
                                                                             Interval(PM, 0.1, 1), Interval(C1, 1, 100)]),
                                                                     ctx.seed),
             "0.999 ⇒ 0.99": check_cases([("levels", (sp.Rational(999, 1000), sp.Rational(99, 100)))],
                                         lambda x: (x[0] > x[1], {"stated": x[0], "first sentence": x[1]}), exhaustive=True)}
    return combine(parts, "Theorem 3 o(α):")
