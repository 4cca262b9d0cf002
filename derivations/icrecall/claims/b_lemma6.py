"""Lemma 6 (App. B): the displays of its proof (Eqs. (11)–(17), term I, term II, f″(0)) and the two
text claims after it — each derived from the model at the saddle θ̃ along ε̃ and compared with the
printed display (``printed``).  The face θ5 = θ6 = −∞ is explicit (see ``claims_lemma5``).
"""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

import mpmath
import numpy as np
import sympy as sp
from scipy.optimize import minimize_scalar

import theoryverify as tv
from theoryverify import check_cases, check_identity, check_inequality
from theoryverify import ClaimSet, Kind
from theoryverify import Finding, Readings
from theoryverify import Domain, Interval, LogUniform
from theoryverify import Status, Verdict, combine

from ..printed import appb as printed
from ..model.n3_landscape import (FD_TEMPERATURES, M, SADDLE, T, T_DOM, V, X, along_v, derivs_at_0, face_v,
                            fd_second_derivative, float64_departure, quadratic_forms, sub)
from ..model.symbolic import softmax

CLAIMS = ClaimSet("icrecall")

EPS = tuple(printed.EPS_TILDE)
LS = sp.symbols("l1:7", real=True)
L_DOM = Domain([*(Interval(s, -3.0, 3.0) for s in LS), LogUniform(T, 1e-2, 10.0)])
P_GENERIC = softmax([s / T for s in LS])  # p = softmax(l/T) for generic logits


# --- derived quantities along θ̃ + x·ε̃ (exact) -------------------------------------------------

@lru_cache(maxsize=1)
def v_derivs() -> tuple[list[sp.Expr], list[sp.Expr], list[sp.Expr]]:
    """(v(0), v′(0), v″(0)) of v(x) = softmax(θ̃ + xε̃) on the face, exact rationals."""
    vx = along_v(EPS)
    return tuple([sp.simplify(sp.diff(vi, X, k).subs(X, 0)) for vi in vx] for k in range(3))


@lru_cache(maxsize=1)
def logit_derivs() -> tuple[list[sp.Expr], list[sp.Expr], list[sp.Expr]]:
    """(l(0), l′(0), l″(0)) of the model's relation logits along the direction (second-order Taylor
    polynomial of v(x), exact for these derivatives)."""
    v0, v1, v2 = v_derivs()
    taylor = {V[i]: v0[i] + v1[i] * X + v2[i] * X**2 / 2 for i in range(6)}
    lx = [sp.expand(sub(l, taylor)) for l in M.relation_logits]
    return tuple([sp.diff(l, X, k).subs(X, 0) for l in lx] for k in range(3))


@lru_cache(maxsize=1)
def saddle_p() -> list[sp.Expr]:
    """p = softmax(l(ṽ)/T), exact in T (model logits)."""
    return [sp.simplify(q) for q in softmax([sub(l, SADDLE) / T for l in M.relation_logits])]


@lru_cache(maxsize=1)
def p1_derivs() -> tuple[sp.Expr, sp.Expr, sp.Expr]:
    """(p1(0), p1′(0), p1″(0)) of p1(x) = softmax(l(x)/T)_1 along ε̃ (model)."""
    l0, l1, l2 = logit_derivs()
    lx = [l0[i] + l1[i] * X + l2[i] * X**2 / 2 for i in range(6)]
    p1 = softmax([l / T for l in lx])[0]
    return tuple(sp.simplify(sp.diff(p1, X, k).subs(X, 0)) for k in range(3))


def at_saddle_l(expr: sp.Expr) -> sp.Expr:
    """Substitute the saddle logits l(ṽ) for the generic logit symbols."""
    return sub(expr, dict(zip(LS, [sub(l, SADDLE) for l in M.relation_logits])))


def dp1_dl() -> list[sp.Expr]:
    """∂p1/∂l_i at the saddle, by SymPy differentiation of softmax(l/T)_1."""
    return [at_saddle_l(sp.diff(P_GENERIC[0], s)) for s in LS]


def d2p1_dl2() -> list[list[sp.Expr]]:
    """∂²p1/∂l_i∂l_j at the saddle, by SymPy differentiation of softmax(l/T)_1."""
    return [[at_saddle_l(sp.diff(P_GENERIC[0], a, b)) for b in LS] for a in LS]


def exact_cases(pairs, what: str) -> Verdict:
    """Exhaustive exact comparison of (label, derived, printed) triples."""
    return check_cases([(lab, (d, p)) for lab, d, p in pairs],
                       lambda dp: (sp.simplify(sp.sympify(dp[0]) - sp.sympify(dp[1])) == 0,
                                   {"derived": dp[0], "printed": dp[1]}),
                       exhaustive=True, what=what)


# --- Eq. (11), (12) ----------------------------------------------------------------------

@CLAIMS.add("l6-eq11", location="Lemma 6 proof, Eqs. (11)–(12)", kind=Kind.IDENTITY, catalogue_id="ICR-L6-eq11",
            statement="f = −log p1(x) has f″(0) = (p1′(0))²/p1²(0) − p1″(0)/p1(0) (11), and "
                      "p1′(0) = Σ_i (∂p1/∂l_i) ∇_v l_i(v(0))ᵀ v′(0) (12)")
def check_eq11(ctx, shown=printed.eq11) -> Verdict:
    P = sp.Function("P")
    q0, q1, q2 = sp.Symbol("q0", positive=True), sp.Symbol("q1", real=True), sp.Symbol("q2", real=True)
    f2 = sp.diff(-sp.log(P(X)), X, 2)
    f2 = f2.subs(sp.Derivative(P(X), (X, 2)), q2).subs(sp.Derivative(P(X), X), q1).subs(P(X), q0)
    gen_dom = Domain([Interval(q0, 0.01, 10.0), Interval(q1, -5.0, 5.0), Interval(q2, -5.0, 5.0)])
    p0, p1d, p2d = p1_derivs()
    l0, l1, _ = logit_derivs()
    v0, vp, _ = v_derivs()
    grads = [[sub(sp.diff(l, vk), SADDLE) for vk in V] for l in M.relation_logits]
    chain = sum(d * sum(g * w for g, w in zip(grads[i], vp)) for i, d in enumerate(dp1_dl()))
    return combine({
        "(11) for a generic positive p1(x)": check_identity(f2, shown(q0, q1, q2), gen_dom, ctx.seed, symbolic_seconds=1.0),
        "(11) with the model's p1 along ε̃": check_identity(derivs_at_0(EPS)[1], shown(p0, p1d, p2d), T_DOM, ctx.seed + 1,
                                                           symbolic_seconds=1.0),
        "(12) chain rule at x = 0": check_identity(p1d, chain, T_DOM, ctx.seed + 2, symbolic_seconds=1.0),
    }, method="Eqs. (11)–(12):")


# --- Eq. (13) ------------------------------------------------------------------------------

W6 = sp.symbols("w1:7", positive=True)  # w_i = exp(θ_i): generic θ without transcendental terms
EP6 = sp.symbols("e1:7", real=True)
GEN_DOM = Domain([*(LogUniform(s, 0.05, 20.0) for s in W6), *(Interval(s, -3.0, 3.0) for s in EP6)])


def generic_softmax_path() -> tuple[list[sp.Expr], list[sp.Expr]]:
    """(v(x), v(0)) for v(x) = softmax(θ + xε) with w_i = exp(θ_i)."""
    num = [w * sp.exp(X * e) for w, e in zip(W6, EP6)]
    z = sum(num)
    return [n / z for n in num], [w / sum(W6) for w in W6]


@CLAIMS.add("l6-eq13", location="Lemma 6 proof, Eq. (13) and the display after it", kind=Kind.IDENTITY,
            catalogue_id="ICR-L6-eq13",
            statement="v′(0) = (Diag v − vvᵀ)ε̃, i.e. v_i′ = ε̃_i v_i − v_i vᵀε̃ (13); at ṽ, vᵀε̃ = 0 and "
                      "v′(0) = ε̃ ⊙ v = (1/8, 1/8, −1/8, −1/8, 0, 0)",
            choices={"generic check": "e^θ ∈ [0.05, 20]⁶, ε ∈ [−3, 3]⁶", "face": "explicit (v5 = v6 = 0)"})
def check_eq13(ctx, shown=printed.eq13, vprime=printed.V_PRIME_0) -> Verdict:
    vx, v = generic_softmax_path()
    derived = [sp.diff(vi, X).subs(X, 0) for vi in vx]
    form = shown(v, list(EP6))
    parts = {f"(13) generic, i = {i + 1}": check_identity(derived[i], form[i], GEN_DOM, ctx.seed + i, symbolic_seconds=0.5,
                                                          n_rational=3) for i in range(6)}
    v0, vp, _ = v_derivs()
    parts["at ṽ"] = exact_cases(
        [("v(0)ᵀε̃ = 0", sum(a * b for a, b in zip(v0, EPS)), 0)]
        + [(f"v′_{i + 1}(0) (model)", vp[i], vprime[i]) for i in range(6)]
        + [(f"(ε̃ ⊙ v)_{i + 1}", EPS[i] * v0[i], vprime[i]) for i in range(6)]
        + [(f"(13) at ṽ, i = {i + 1}", shown(v0, list(EPS))[i], vprime[i]) for i in range(6)], "entries")
    return combine(parts, method="Eq. (13):")


# --- ∇_v l_i(ṽ), Eq. (14), Eq. (15) --------------------------------------------------------------

def grad_l_at_saddle() -> list[list[sp.Expr]]:
    return [[sub(sp.diff(l, vk), SADDLE) for vk in V] for l in M.relation_logits]


@CLAIMS.add("l6-gradl-face", location="Lemma 6 proof", kind=Kind.IDENTITY, catalogue_id="ICR-L6-gradl",
            statement="Reading restricted to the coordinates v1..v4, v6 (the v5-entry dropped): the printed "
                      "∇_v l_i(ṽ) are the model's",
            choices={"reading": "entries k ≠ 5 only (the face reading, where v5 is held at 0)"},
            params={"coords": (0, 1, 2, 3, 5)})
@CLAIMS.add("l6-gradl", location="Lemma 6 proof", kind=Kind.IDENTITY, catalogue_id="ICR-L6-gradl",
            statement="∇_v l_i(ṽ) = (1,1,1,1,0,0) for i = 1, 2; (1,1,½,½,0,0), (1,½,½,1,0,0), (½,1,1,½,0,0), "
                      "(½,½,1,1,0,0) for i = 3..6 (all 36 entries as printed)",
            expect=Status.REFUTED, finding=Finding.TYPO,
            reason="the v5-entry of ∇_v l_i(ṽ), i = 3..6, is 2(v4 + v5) resp. 2(v2 + v5) = ½, printed 0; Eq. (14) "
                   "multiplies it by v5′(0) = 0, so no later line uses it (the other 32 entries agree: l6-gradl-face)",
            readings=Readings(
                tested="the paper's words: \"∇_v l_i(v(0)) = (1, 1, 1, 1, 0, 0)ᵀ for i = 1, 2, ∇_v l3(v(0)) = (1, 1, "
                       "½, ½, 0, 0)ᵀ, ...\" (Lemma 6 proof, before Eq. (14)) — all 36 entries as printed",
                others={"the entries that Eq. (14) uses (v5′(0) = 0, so the v5-column drops out)":
                            "holds: icrecall.l6-gradl-face",
                        "Eq. (14), l′(0) = (0, 0, 1/8, 0, 0, −1/8)": "holds: icrecall.l6-eq14"}))
def check_gradl(ctx, shown=printed.GRAD_L_AT_SADDLE, coords=None) -> Verdict:
    """The printed ∇l at the saddle against the model, on the coordinates ``coords`` (a param: all six, or the
    face coordinates without v5, whose entries are multiplied by v5′(0) = 0)."""
    coords = ctx.params.get("coords", range(6)) if coords is None else coords
    g = grad_l_at_saddle()
    return exact_cases([(f"∂l{i + 1}/∂v{k + 1}", g[i][k], shown[i][k]) for i in range(6) for k in coords], "entries")


@CLAIMS.add("l6-eq14", location="Lemma 6 proof, Eq. (14)", kind=Kind.IDENTITY, catalogue_id="ICR-L6-eq14",
            statement="l′(0) = Σ_i ∇_v l_iᵀ v′ = (0, 0, 1/8, 0, 0, −1/8), from the model and from the printed "
                      "∇_v l_i and v′(0)")
def check_eq14(ctx, shown=printed.L_PRIME_0, grads=printed.GRAD_L_AT_SADDLE, vprime=printed.V_PRIME_0) -> Verdict:
    _, l1, _ = logit_derivs()
    from_printed = [sum(sp.sympify(a) * b for a, b in zip(grads[i], vprime)) for i in range(6)]
    return exact_cases([(f"l′_{i + 1}(0) model", l1[i], shown[i]) for i in range(6)]
                       + [(f"l′_{i + 1}(0) from printed ∇l, v′", from_printed[i], shown[i]) for i in range(6)], "entries")


@CLAIMS.add("l6-eq15", location="Lemma 6 proof, Eq. (15)", kind=Kind.IDENTITY, catalogue_id="ICR-L6-eq15",
            statement="∂p1/∂l_i = (1/T)p1(δ_{i1} − p_i) for p1 = softmax(l/T)_1 (15), and p1′(0) = 0 at the saddle")
def check_eq15(ctx, shown=printed.eq15, lprime=printed.L_PRIME_0) -> Verdict:
    form = shown(P_GENERIC)
    parts = {f"∂p1/∂l{i + 1}": check_identity(sp.diff(P_GENERIC[0], LS[i]), form[i], L_DOM, ctx.seed + i,
                                              symbolic_seconds=0.5) for i in range(6)}
    p0, p1d, _ = p1_derivs()
    via = sum(a * b for a, b in zip(shown(saddle_p()), lprime))
    parts["p1′(0) = 0 (model)"] = check_identity(p1d, sp.Integer(0), T_DOM, ctx.seed + 10, symbolic_seconds=0.5)
    parts["p1′(0) = 0 from (14), (15)"] = check_identity(via, sp.Integer(0), T_DOM, ctx.seed + 11, symbolic_seconds=0.5)
    return combine(parts, method="Eq. (15):")


# --- v″(0), the Hessians, Eq. (16), Eq. (17) --------------------------------------------------

@CLAIMS.add("l6-vpp", location="Lemma 6 proof (v″(0))", kind=Kind.IDENTITY, catalogue_id="ICR-L6-vpp",
            statement="v_i″(0) = ε̃_i v_i′ − v_i′ vᵀε̃ − v_i v′ᵀε̃ = v_i(ε̃_i² − Σ_j v_j ε̃_j²) = 0 for i = 1..6",
            choices={"generic check": "first line for e^θ ∈ [0.05, 20]⁶, ε ∈ [−3, 3]⁶; the rest at ṽ (uses vᵀε̃ = 0)"})
def check_vpp(ctx, line1=printed.vpp_line1, line2=printed.vpp_line2) -> Verdict:
    vx, v = generic_softmax_path()
    vp = [sp.diff(vi, X).subs(X, 0) for vi in vx]
    vpp = [sp.diff(vi, X, 2).subs(X, 0) for vi in vx]
    parts = {f"line 1 generic, i = {i + 1}": check_identity(vpp[i], line1(v, vp, list(EP6), i), GEN_DOM, ctx.seed + i,
                                                            symbolic_seconds=0.5, n_rational=3) for i in range(6)}
    v0, vp0, vpp0 = v_derivs()
    parts["at ṽ"] = exact_cases(
        [(f"line 1 = line 2, i = {i + 1}", line1(v0, vp0, list(EPS), i), line2(v0, list(EPS), i)) for i in range(6)]
        + [(f"line 2 = 0, i = {i + 1}", line2(v0, list(EPS), i), 0) for i in range(6)]
        + [(f"v″_{i + 1}(0) (model) = 0", vpp0[i], 0) for i in range(6)], "entries")
    return combine(parts, method="v″(0):")


@CLAIMS.add("l6-hess", location="Lemma 6 proof, Eq. (16) and the six Hessians", kind=Kind.IDENTITY,
            catalogue_id="ICR-L6-hess",
            statement="The six printed Hessians ∇²_v l_i(ṽ) (all 216 entries), and l_i″(0) = v′(0)ᵀ∇²_v l_i v′(0) (16)")
def check_hess(ctx, shown=printed.HESSIANS) -> Verdict:
    H = [sp.hessian(l, V) for l in M.relation_logits]
    entries = [(f"∇²l{i + 1}[{a + 1},{b + 1}]", sub(H[i][a, b], SADDLE), shown[i][a, b])
               for i in range(6) for a in range(6) for b in range(6)]
    v0, vp, vpp = v_derivs()
    _, _, l2 = logit_derivs()
    g = grad_l_at_saddle()
    vpv = sp.Matrix(vp)
    eq16 = [(f"l″_{i + 1}(0) = v′ᵀ∇²l v′ + ∇lᵀv″ = (16)", l2[i],
             (vpv.T * H[i].subs(SADDLE) * vpv)[0] + sum(a * b for a, b in zip(g[i], vpp))) for i in range(6)]
    return combine({"Hessian entries": exact_cases(entries, "entries"), "Eq. (16)": exact_cases(eq16, "relations")},
                   method="Hessians and Eq. (16):")


@CLAIMS.add("l6-eq17", location="Lemma 6 proof, Eq. (17)", kind=Kind.IDENTITY, catalogue_id="ICR-L6-eq17",
            statement="l″(0) = (1/4, 0, 3/16, 1/16, 1/16, 3/16), from the model and from the printed Hessians "
                      "with the printed v′(0)",
            choices={"printed v′(0)": "printed with four entries '(1/8, 1/8, −1/8, −1/8,)'; padded with zeros"})
def check_eq17(ctx, shown=printed.L_PP_0, hess=printed.HESSIANS, vprime=printed.V_PRIME_0_EQ17) -> Verdict:
    _, _, l2 = logit_derivs()
    vp = sp.Matrix(list(vprime) + [0] * (6 - len(vprime)))
    from_printed = [(vp.T * hess[i] * vp)[0] for i in range(6)]
    return exact_cases([(f"l″_{i + 1}(0) model", l2[i], shown[i]) for i in range(6)]
                       + [(f"l″_{i + 1}(0) from printed ∇²l, v′", from_printed[i], shown[i]) for i in range(6)],
                       "entries")


# --- term I, ∂²p1, term II -------------------------------------------------------------------

P0 = sp.Symbol("P0", positive=True)


@CLAIMS.add("l6-termI", location="Lemma 6 proof (term I)", kind=Kind.IDENTITY, catalogue_id="ICR-L6-termI",
            statement="At the saddle p1(r1) = p1(r2) = p1(0), p1(r3..6) = (1 − 2p1(0))/4, and "
                      "term I = Σ_i (∂p1/∂l_i) l_i″(0) = p1(0)/(8T)")
def check_termI(ctx, probs_form=printed.saddle_probs, term=printed.term_I, dp=printed.eq15,
                lpp=printed.L_PP_0) -> Verdict:
    p = saddle_p()
    form = probs_form(p[0])
    parts = {f"saddle p{i + 1}": check_identity(p[i], form[i], T_DOM, ctx.seed + i, symbolic_seconds=0.5)
             for i in range(6)}
    via_printed = sum(a * b for a, b in zip(dp(probs_form(P0)), lpp))
    parts["term I from (15), (17)"] = check_identity(via_printed, term(P0),
                                                     Domain([Interval(P0, 0.01, 0.49), LogUniform(T, 1e-2, 10.0)]),
                                                     ctx.seed + 10, symbolic_seconds=0.5)
    _, _, l2 = logit_derivs()
    model = sum(a * b for a, b in zip(dp1_dl(), l2))
    parts["term I from the model"] = check_identity(model, term(p[0]), T_DOM, ctx.seed + 11, symbolic_seconds=1.0)
    return combine(parts, method="term I:")


@CLAIMS.add("l6-d2p", location="Lemma 6 proof (term II)", kind=Kind.IDENTITY, catalogue_id="ICR-L6-d2p",
            statement="∂²p1/∂l3² = (p1/T²)(2p3² − p3), ∂²p1/∂l6² = (p1/T²)(2p6² − p6), ∂²p1/∂l3∂l6 = 2p1p3p6/T² "
                      "for p = softmax(l/T)")
def check_d2p(ctx, shown=printed.d2p) -> Verdict:
    form = shown(P_GENERIC)
    return combine({f"∂²p1/∂l{a + 1}∂l{b + 1}": check_identity(sp.diff(P_GENERIC[0], LS[a], LS[b]), expr, L_DOM,
                                                               ctx.seed + 3 * a + b, symbolic_seconds=1.0)
                    for (a, b), expr in form.items()}, method="second derivatives of softmax(l/T)_1:")


def term_II_model() -> sp.Expr:
    _, l1, _ = logit_derivs()
    H = d2p1_dl2()
    return sum(H[i][j] * l1[i] * l1[j] for i in range(6) for j in range(6))


def term_II_from_printed(d2=printed.d2p, lprime=printed.L_PRIME_0) -> sp.Expr:
    """Σ_{ij} ∂²p1 l_i′ l_j′ using the printed second derivatives (only l3′, l6′ ≠ 0) and printed (14)."""
    h = d2(saddle_p())
    a, b = lprime[2], lprime[5]
    return h[(2, 2)] * a * a + h[(5, 5)] * b * b + 2 * h[(2, 5)] * a * b


TERM_II_TEMPERATURES = (0.2, 0.1, 0.05)
L6_FPP_QUOTE = ("\"Plugging them into term II, we obtain term II = −p1(0)p1(r3)²/(16T²). Noting that p1(r3) at the "
                "saddle is exponentially small, we obtain f″(0) = −1/(8T) + 1/(16T²(4 + 2exp(3/(16T)))²) ≲ −1/T\" "
                "(Lemma 6 proof)")
L6_FPP_OTHERS = {"f″(0) = −1/(8T) + (an exponentially small term) ≲ −1/T (the only use: λ_min ≲ −1/T for Lemma 7)":
                     "holds: icrecall.l6-fpp-order",
                 "the derived closed form −1/(8T) + 1/(64T²(2 + e^{1/(8T)}))": "holds: icrecall.l6-fpp-derived"}


@CLAIMS.add("l6-termII", location="Lemma 6 proof (term II)", kind=Kind.IDENTITY, catalogue_id="ICR-L6-termII",
            statement="term II = Σ_{ij} (∂²p1/∂l_i∂l_j) l_i′(0) l_j′(0) = −p1(0) p1(r3)²/(16T²) (as printed)",
            expect=Status.REFUTED, finding=Finding.PROOF_GAP,
            cause='Lemma 6 proof (App. B): the closed forms of term II (p1(r3)² for p1(r3)) and of f″(0) at the saddle (exp(3/(16T)) for exp(1/(8T)))',
            supports=("icrecall.l6-fpp-order", "icrecall.l6-lmin", "icrecall.L6-escape"),
            reason="proof step: term II = (1/64)(∂²p1/∂l3² − 2∂²p1/∂l3∂l6 + ∂²p1/∂l6²) = −p1(0)p1(r3)/(32T²) (model "
                   "and the paper's own ∂²p1 displays), not −p1(0)p1(r3)²/(16T²); both are O(e^{−1/(8T)}/T²), so "
                   "f″(0) ≲ −1/T survives (l6-fpp-order)",
            readings=Readings(
                tested="the paper's words: " + L6_FPP_QUOTE + " — term II read as the printed closed form",
                others={"term II is exponentially small at the saddle (all the next sentence uses)":
                            "holds: icrecall.l6-termII-derived",
                        "f″(0) ≲ −1/T, what term II is computed for": "holds: icrecall.l6-fpp-order"}))
def check_termII(ctx, term=printed.term_II) -> Verdict:
    p = saddle_p()
    shown = term(p[0], p[2])
    f_shown, f_model = (sp.lambdify(T, e, modules="mpmath") for e in (shown, term_II_model()))

    def close(t):
        with mpmath.workdps(50):
            a, b = f_model(mpmath.mpf(t)), f_shown(mpmath.mpf(t))
            return abs(a - b) <= 1e-10 * abs(b), {"T": t, "derived": a, "printed": b}

    return combine({
        "model vs printed": check_identity(term_II_model(), shown, T_DOM, ctx.seed, symbolic_seconds=0.5),
        "from printed ∂²p1 and (14) vs printed": check_identity(term_II_from_printed(), shown, T_DOM, ctx.seed + 1,
                                                                symbolic_seconds=0.5),
        "at T ∈ {0.2, 0.1, 0.05}": check_cases([(f"T={t}", t) for t in TERM_II_TEMPERATURES], close,
                                               exhaustive=False, what="temperatures"),
    }, method="term II:")


@CLAIMS.add("l6-termII-derived", location="Lemma 6 proof (term II)", kind=Kind.IDENTITY, catalogue_id="ICR-L6-termII",
            statement="DERIVED (not printed): term II = −p1(0) p1(r3)/(32T²) at the saddle, from the model and from "
                      "the paper's ∂²p1 displays with Eq. (14)")
def check_termII_derived(ctx) -> Verdict:
    p = saddle_p()
    derived = -p[0] * p[2] / (32 * T**2)
    return combine({
        "model = −p1 p3/(32T²)": check_identity(term_II_model(), derived, T_DOM, ctx.seed, symbolic_seconds=1.0),
        "printed ∂²p1 and (14) = −p1 p3/(32T²)": check_identity(term_II_from_printed(), derived, T_DOM, ctx.seed + 1,
                                                                symbolic_seconds=1.0),
    }, method="term II (derived):")


# --- f″(0) -------------------------------------------------------------------------------------

#: DERIVED closed form of f″_{ε̃,θ̃}(0) (from the model; ``l6-fpp-derived`` checks it).
FPP_DERIVED = -1 / (8 * T) + 1 / (64 * T**2 * (2 + sp.exp(1 / (8 * T))))


@CLAIMS.add("l6-fpp-printed", location="Lemma 6 proof (f″(0))", kind=Kind.IDENTITY, catalogue_id="ICR-L6-fpp",
            statement="f″_{ε̃,θ̃}(0) = −1/(8T) + 1/(16T²(4 + 2exp(3/(16T)))²) (printed closed form)",
            expect=Status.REFUTED, finding=Finding.PROOF_GAP,
            cause='Lemma 6 proof (App. B): the closed forms of term II (p1(r3)² for p1(r3)) and of f″(0) at the saddle (exp(3/(16T)) for exp(1/(8T)))',
            supports=("icrecall.l6-fpp-order", "icrecall.l6-lmin", "icrecall.L6-escape"),
            reason="proof step: the model gives f″(0) = −1/(8T) + 1/(64T²(2 + e^{1/(8T)})) (= −1/(8T) + "
                   "p1(r3)/(32T²)); the printed correction has p1(r3)² for p1(r3) and exponent 3/(16T) for 1/(8T); "
                   "it is exponentially small either way, so f″(0) ≲ −1/T survives (l6-fpp-order)",
            readings=Readings(tested="the paper's words: " + L6_FPP_QUOTE + " — the closed form read as an equality",
                              others=L6_FPP_OTHERS))
def l6_fpp_printed(ctx, shown=printed.FPP):
    return check_identity(derivs_at_0(EPS)[1], shown, T_DOM, ctx.seed, symbolic_seconds=0.5)


@CLAIMS.add("l6-fpp-consistency", location="Lemma 6 proof (f″(0))", kind=Kind.IDENTITY, catalogue_id="ICR-L6-fpp",
            statement="The printed f″(0) equals −(term I + term II)/p1(0) with the printed term I, term II and the "
                      "model's p1(0), p1(r3)",
            expect=Status.REFUTED, finding=Finding.PROOF_GAP,
            cause='Lemma 6 proof (App. B): the closed forms of term II (p1(r3)² for p1(r3)) and of f″(0) at the saddle (exp(3/(16T)) for exp(1/(8T)))',
            supports=("icrecall.l6-fpp-order", "icrecall.l6-lmin", "icrecall.L6-escape"),
            reason="proof step (internal): −(term I + term II)/p1(0) with the printed terms is −1/(8T) + "
                   "1/(16T²(4 + 2e^{1/(8T)})²) (saddle gap l1 − l3 = 1/8); the printed closed form has exp(3/(16T)); "
                   "the leading −1/(8T), hence f″(0) ≲ −1/T, survives (l6-fpp-order)",
            readings=Readings(tested="the paper's words: " + L6_FPP_QUOTE + " — the closed form read as what the "
                                     "printed term I and term II give", others=L6_FPP_OTHERS))
def check_fpp_consistency(ctx, shown=printed.FPP, t1=printed.term_I, t2=printed.term_II) -> Verdict:
    p = saddle_p()
    return check_identity(-(t1(p[0]) + t2(p[0], p[2])) / p[0], shown, T_DOM, ctx.seed, symbolic_seconds=0.5)


@CLAIMS.add("l6-fpp-derived", location="Lemma 6 proof (f″(0))", kind=Kind.IDENTITY, catalogue_id="ICR-L6-fpp",
            statement="DERIVED: f″_{ε̃,θ̃}(0) = −1/(8T) + 1/(64T²(2 + e^{1/(8T)})) = −p1″(0)/p1(0), confirmed by "
                      "50-digit numerical differentiation of the composed loss at T ∈ {0.2, 0.1, 0.05, 0.02, 0.01}")
def check_fpp_derived(ctx, closed=FPP_DERIVED) -> Verdict:
    f2 = derivs_at_0(EPS)[1]
    p0, _, p2d = p1_derivs()
    p = saddle_p()
    f2f = sp.lambdify(T, closed, modules="mpmath")

    def same(t):
        with mpmath.workdps(50):
            a, b = fd_second_derivative(EPS, t), f2f(mpmath.mpf(t))
            return abs(a - b) <= 1e-10 * abs(b), {"T": t, "numerical": a, "closed form": b}

    return combine({
        "model f″(0) = closed form": check_identity(f2, closed, T_DOM, ctx.seed, symbolic_seconds=1.0),
        "= −p1″(0)/p1(0) (since p1′(0) = 0)": check_identity(-p2d / p0, closed, T_DOM, ctx.seed + 1, symbolic_seconds=1.0),
        "= −(term I + derived term II)/p1(0)": check_identity(p[0] / (8 * T) - p[0] * p[2] / (32 * T**2),
                                                              -closed * p[0], T_DOM, ctx.seed + 2, symbolic_seconds=1.0),
        "closed form vs 50-digit numerical differentiation": check_cases(
            [(f"T={t}", t) for t in FD_TEMPERATURES], same, exhaustive=False, what="temperatures"),
    }, method="f″(0) derived:")


@CLAIMS.add("l6-fpp-order", location="Lemma 6 proof (f″(0))", kind=Kind.INEQUALITY, catalogue_id="ICR-L6-fpp",
            statement="f″_{ε̃,θ̃}(0) ≲ −1/T: T·f″(0) ≤ −1/16 on T ∈ [0.01, 100] and T·f″(0) → −1/8 as T → 0",
            choices={"constant": "≲ read as ≤ −c/T with c = 1/16 (the limit constant is 1/8)"})
def check_fpp_order(ctx, bound=-sp.Rational(1, 16)) -> Verdict:
    f2 = derivs_at_0(EPS)[1]
    lim = sp.limit(T * FPP_DERIVED, T, 0, "+")
    return combine({
        "T·f″(0) ≤ −1/16 for T ∈ [0.01, 100]": check_inequality(T * f2, "<=", bound, Domain([LogUniform(T, 1e-2, 100.0)]),
                                                                ctx.seed),
        "lim_{T→0} T·f″(0) = −1/8": check_cases([("T→0+", lim)], lambda x: (x == -sp.Rational(1, 8), {"limit": x}),
                                                exhaustive=True, what="limits"),
    }, method="f″(0) ≲ −1/T:")


# --- text after the proof ------------------------------------------------------------------------

XI = sp.symbols("xi1:7", real=True)
HALF = sp.Rational(1, 2)


def check_perturb_face(ctx) -> Verdict:
    theta_tilde = [0, 0, 0, 0, -sp.oo, -sp.oo]
    perturbed = softmax([a + b for a, b in zip(theta_tilde, XI)])
    dom = Domain([Interval(s, -1.0, 1.0) for s in XI])
    face = face_v(XI[:4])
    return combine({f"v{i + 1}": check_identity(perturbed[i], face[i], dom, ctx.seed + i, symbolic_seconds=0.5)
                    for i in range(6)}, method="perturbation of θ̃ on the face:")


def stage1_float64(t: float, eta: float, steps: int) -> dict[str, float]:
    """v5, v6 and log(v5/v1) after a float64 Stage-1 run from θ = 0 (a record, not a verdict)."""
    forms = quadratic_forms()
    Q = np.zeros((6, 6, 6))
    for j, form in enumerate(forms):
        for a, b, q in form:
            Q[j, a, b] = q
    th = np.zeros(6)
    for _ in range(steps):
        v = np.exp(th - th.max())
        v /= v.sum()
        l = np.einsum("jab,a,b->j", Q, v, v) / t
        p = np.exp(l - l.max())
        p /= p.sum()
        p[0] -= 1
        g = 2 * np.einsum("j,jab,b->a", p, Q, v) / t
        th = th - eta * v * (g - v @ g)
    v = np.exp(th - th.max())
    v /= v.sum()
    return {"T": t, "eta": eta, "steps": steps, "v": v.tolist(), "theta5 - theta1": float(th[4] - th[0]),
            "theta6 - theta1": float(th[5] - th[0])}


@CLAIMS.add("l6-perturb-face", location="Lemma 6, after the proof", kind=Kind.IDENTITY,
            catalogue_id="ICR-L6-perturb-face",
            statement="With θ̃5 = θ̃6 = −∞, any finite perturbation ξ leaves v5 = v6 = 0 and gives "
                      "v_{1:4} = softmax(θ̃_{1:4} + ξ_{1:4}): only the first 4 coordinates matter",
            choices={"face": "θ̃ = (0, 0, 0, 0, −∞, −∞) explicitly (SymPy −oo)",
                     "finite Stage 1": "float64 GD records in details (T = 0.1, η = 2T², 10³ and 10⁴ steps)"})
def l6_perturb_face(ctx):
    verdict = check_perturb_face(ctx)
    runs = [stage1_float64(0.1, 0.02, k) for k in (1_000, 10_000)]
    dep = float64_departure(0.1, 0.02, 10_000)
    return replace(verdict, details={**verdict.details, "finite Stage-1 runs (float64)": runs,
                                     "float64 step where |v1 − v3| > 1e-13 (same run)": dep})


def gap_closed() -> sp.Expr:
    """DERIVED: L1(θ̃) − log 2 = log(1 + 2e^{−1/(8T)})."""
    return sp.log(1 + 2 * sp.exp(-1 / (8 * T)))


def line_minimum(t: float) -> float:
    """min over 0 < x < ¼ of L1 at v = (x, x, ½ − x, ½ − x, 0, 0) (float64, log-sum-exp)."""
    xs = sp.Symbol("xs")
    ls = [sub(l, {V[0]: xs, V[1]: xs, V[2]: HALF - xs, V[3]: HALF - xs, V[4]: 0, V[5]: 0})
          for l in M.relation_logits]
    f = sp.lambdify(xs, ls, modules="numpy")

    def loss(x):
        l = np.array(f(x), dtype=float) / t
        return float(np.logaddexp.reduce(l) - l[0])

    return float(minimize_scalar(loss, bounds=(1e-9, 0.25 - 1e-9), method="bounded",
                                 options={"xatol": 1e-12}).fun)


def check_improve_vs_gap(ctx) -> Verdict:
    L_saddle = sub(M.L1(), SADDLE)
    lim = sp.limit(gap_closed() / T**3, T, 0, "+")
    return combine({
        "exp(L1(θ̃) − log 2) = 1 + 2e^{−1/(8T)}": check_identity(sp.expand(sp.exp(L_saddle) / 2),
                                                                1 + 2 * sp.exp(-1 / (8 * T)), T_DOM, ctx.seed,
                                                                symbolic_seconds=0.5),
        "gap/T³ → 0 as T → 0": check_cases([("T→0+", lim)], lambda x: (x == 0, {"limit": x}), exhaustive=True,
                                          what="limits"),
    }, method="improvement Ω(T³) vs gap:")


def crossover(c: float) -> float:
    """The T at which c·T³ equals the gap log(1 + 2e^{−1/(8T)}) (50 digits)."""
    g = sp.lambdify(T, gap_closed() - c * T**3, modules="mpmath")
    with mpmath.workdps(50):
        return float(mpmath.findroot(g, (mpmath.mpf("1e-4"), mpmath.mpf("0.2")), solver="bisect"))


@CLAIMS.add("l6-improve-vs-gap", location="Lemma 6, text and proof", kind=Kind.INEQUALITY,
            catalogue_id="ICR-L6-improve-vs-gap",
            statement="An improvement Ω(T³) exceeds the gap L1(θ̃) − log 2 for T small enough: DERIVED "
                      "gap = log(1 + 2e^{−1/(8T)}), and gap/T³ → 0",
            choices={"constant": "crossover T recorded for c·T³ with c ∈ {1, 0.1, 0.01}; the largest improvement "
                                 "(to the minimum of L1 on the pairwise line) recorded at T ∈ {0.05, 0.02, 0.01}"})
def l6_improve_vs_gap(ctx):
    verdict = check_improve_vs_gap(ctx)
    gap = sp.lambdify(T, gap_closed(), modules="mpmath")
    records = []
    for t in (0.05, 0.02, 0.01):
        g = float(gap(mpmath.mpf(t)))
        best = float(np.log(2) + g) - line_minimum(t)
        records.append({"T": t, "gap": g, "max improvement (to the line minimum)": best,
                        "improvement/T^3": best / t**3, "improvement/gap": best / g})
    return replace(verdict, details={**verdict.details, "records": records,
                                     "crossover T (c·T³ = gap)": {str(c): crossover(c) for c in (1.0, 0.1, 0.01)}})
