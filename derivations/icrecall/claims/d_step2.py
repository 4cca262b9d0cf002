"""App. D (second decoding step, Lemma 2's proof, Claim 2): printed displays vs the SymPy derivation
of ``step2`` (built from model.py's embed / hidden / construction) and the torch model."""
from __future__ import annotations

import math
from dataclasses import replace
import random
from functools import lru_cache
from itertools import permutations

import numpy as np
import sympy as sp
import torch
from hypothesis import strategies as st
from torch.func import grad, jacrev

import theoryverify as tv
from theoryverify import strategies as strat
from theoryverify import check_agreement, check_cases, check_identity, check_inequality
from theoryverify import ClaimSet, Kind
from theoryverify import Finding, Readings
from theoryverify import Domain, Interval, LogUniform, Simplex
from theoryverify import Status, combine
from ..experiments.util import fmt_signed

from ..printed import appcd as pr
from ..model import step2 as s2
from ..model.symbolic import softmax
from ..model.torch_model import ICModel, table1_model


def _np(t: torch.Tensor) -> np.ndarray:
    return t.detach().cpu().numpy()


def cases_recorded(cases, predicate, *, exhaustive: bool, what: str):
    """``check_cases`` that also keeps every case's observed numbers in the verdict's details."""
    seen: dict = {}

    def pred(item):
        label, case = item
        ok, info = predicate(case)
        seen[label] = info
        return ok, info

    v = check_cases(((lab, (lab, c)) for lab, c in cases), pred, exhaustive=exhaustive, what=what)
    return replace(v, details={**v.details, "observed": seen})

CLAIMS = ClaimSet("icrecall")
Q, OM, T, N = s2.Q, s2.OMEGA, s2.T, s2.N


class SimplexArgmax(Simplex):
    """Points of the simplex whose largest coordinate sits at index ``k`` (the region ω_k = max ω,
    i.e. q_k = max q).  Draws are mapped (the max is swapped into place), never filtered."""

    def __init__(self, symbols, k: int, boundary: bool = True):
        super().__init__(tuple(symbols), boundary)
        object.__setattr__(self, "k", k)

    def _place(self, x):
        x = list(x)
        j = max(range(len(x)), key=lambda i: x[i])
        x[self.k], x[j] = x[j], x[self.k]
        return tuple(x)

    def floats(self):
        return super().floats().map(self._place)

    def rationals(self, rnd):
        return self._place(super().rationals(rnd))

    def from_free(self, z):
        return self._place(super().from_free(z))


def q_domain(*extra, argmax5: bool = False) -> Domain:
    return Domain([SimplexArgmax(Q, 4) if argmax5 else Simplex(Q), *extra])


T_DOM = LogUniform(T, 0.02, 10.0)


# --- ICR-D-logits ------------------------------------------------------------------------

def logits_case(inst: s2.Step2):
    printed = pr.d_logits(Q)
    bad = {}
    for role, derived in inst.role_logits().items():
        shown = printed["other" if role.startswith("other") else role]
        if sp.expand(derived - shown) != 0:
            bad[role] = {"derived": str(derived), "printed": str(sp.expand(shown))}
    return not bad, {"family": inst.vocab.n, "subjects": inst.subjects, "relation": inst.relation, **bad}


def sample_cases(vocab, k: int, rnd: random.Random):
    triples = list(permutations(range(vocab.n), 3))
    return [(tuple(rnd.choice(triples)), rnd.randrange(vocab.m)) for _ in range(k)]


@CLAIMS.add("d-logits", location="App. D, first display (proof of Lemma 2)", kind=Kind.IDENTITY,
            catalogue_id="ICR-D-logits",
            statement="Step-2 logits given r1 appended at position 7: l(a1) = (q1+(q7+1))²+q3²+q5², l(a2), l(a3) "
                      "likewise, and l(a) = q1²+q3²+q5²+(q7+1)² for a ∉ {a1,a2,a3}",
            choices={"families": "F-all3 (all 36 sequences); F-aff(5) (8 drawn), F-aff(7) (4 drawn)",
                     "decoded relation": "r* (the correct relation), fixed W^KQ entries 0"})
def d_logits(ctx):
    rnd = random.Random(ctx.seed)
    all3 = s2.family("all3")
    parts = {"F-all3": check_cases(((f"{s}, r{k + 1}", s2.Step2(all3, s, k)) for k in range(6)
                                    for s in permutations(range(3))), logits_case, exhaustive=True,
                                   what="sequences")}
    for name, k in (("aff5", 8), ("aff7", 4)):
        voc = s2.family(name)
        parts[f"F-{name}"] = check_cases(((f"{s}, r{r + 1}", s2.Step2(voc, s, r)) for s, r in
                                          sample_cases(voc, k, rnd)), logits_case, exhaustive=False,
                                         what="sequences")
    return combine(parts, method="App. D logits:")


# --- ICR-D-seq-invariance ---------------------------------------------------------------

@CLAIMS.add("d-seq-invariance", location="App. D (after the step-2 logits)", kind=Kind.IDENTITY,
            catalogue_id="ICR-D-seq-invariance",
            statement="The step-2 loss as a function of q is identical for every IC-recall sequence",
            choices={"families": "F-all3 (all 36 sequences, exact), F-aff(7) (6 drawn sequences, exact); "
                     "autograd: all 36 F-all3 sequences at drawn ω ∈ [-5,5]^7, T ∈ [0.02, 10], rtol 1e-10 "
                     "(float64 reorderings across sequences reach ~1e-13 at T ≈ 0.03)"})
def d_seq_invariance(ctx):
    rnd = random.Random(ctx.seed)

    def same_loss(voc, cases, exhaustive):
        ref = s2.Step2(voc, *cases[0]).loss
        return check_cases(((f"{s}, r{k + 1}", s2.Step2(voc, s, k)) for s, k in cases),
                           lambda inst: (inst.loss == ref or sp.expand(inst.loss - ref) == 0,
                                         {"loss": str(inst.loss), "reference": str(ref)}),
                           exhaustive=exhaustive, what="sequences")

    all3 = s2.family("all3")
    c3 = [(s, k) for k in range(6) for s in permutations(range(3))]  # every sequence of F-all3
    sym3 = same_loss(all3, c3, exhaustive=True)
    m = table1_model(device=ctx.device)
    b = m.batch(m.all_cases())

    def per_seq(x):
        om, Tv = x
        g = jacrev(lambda w: m.masked_ce(m.answer_logits(b["step2"], m.attention(b["step2"], m.wkq(
            torch.zeros(6, dtype=torch.float64, device=m.dev), w))), b["a3"], Tv))(m.tensor(om))
        return g.detach().cpu().numpy()

    auto = check_agreement(per_seq, lambda x: np.broadcast_to(per_seq(x)[0], (36, 7)),
                           st.tuples(strat.vectors(7, -5, 5), strat.log_uniform(0.02, 10.0)), ctx.seed,
                           rtol=1e-10, names=("∇ω ℓ2 per sequence", "∇ω ℓ2 of the first sequence"),
                           describe=lambda x: {"omega": x[0], "T": x[1]})
    return combine({"F-all3 symbolic": sym3,
                    "F-aff(7) symbolic": same_loss(s2.family("aff7"), sample_cases(s2.family("aff7"), 6, rnd), False),
                    "F-all3 autograd": auto}, method="step-2 loss per sequence:")


# --- ICR-D-gap ------------------------------------------------------------------------------

def gaps():
    l1, l2, l3, lo = s2.grouped().role_logits
    return {"a1": l3 - l1, "a2": l3 - l2, "other": l3 - lo}


#: DERIVATION: the exact gaps, as derived (checked against the logits in d-gap-exact).
def gap_closed_forms():
    q1, _, q3, _, q5, _, q7 = Q
    return {"a1": 2 * (1 + q7) * (q5 - q1), "a2": 2 * (1 + q7) * (q5 - q3), "other": 2 * (1 + q7) * q5}


@CLAIMS.add("d-gap-exact", location="App. D (gap between l(a3) and the other answers)", kind=Kind.IDENTITY,
            catalogue_id="ICR-D-gap",
            statement="DERIVATION: l(a3) − l(a1) = 2(1+q7)(q5 − q1), l(a3) − l(a2) = 2(1+q7)(q5 − q3), "
                      "l(a3) − l(a) = 2(1+q7)q5 for a ∉ {a1,a2,a3}",
            choices={"instance": "F-aff(5), (s1,s2,s3) = (0,1,2), r* = r1"})
def d_gap_exact(ctx):
    g, c = gaps(), gap_closed_forms()
    return combine({k: check_identity(g[k], c[k], q_domain(), ctx.seed + i) for i, k in enumerate(g)},
                   method="exact gaps:")


@CLAIMS.add("d-gap-bound", location="App. D (\"lower bounded by 2(q5 − max{q1, q3})\")", kind=Kind.INEQUALITY,
            catalogue_id="ICR-D-gap", expect=Status.REFUTED, finding=Finding.READING,
            reason="read for every q, 'the gap is lower bounded by 2(q5 − max{q1, q3})' fails where q5 < q1 and "
                   "q7 > 0 (l(a3) − l(a1) = 2(1+q7)(q5 − q1) < 2(q5 − q1)); where the proof uses it (q5 ≥ max{q1, q3}, "
                   "shown after Stage 1 and kept through Stage 2) it holds",
            readings=Readings(
                tested="the paper's words: \"We can also see that the gap between l(a3) and the logits of other "
                       "answers is lower bounded by 2(q5 − max{q1, q3}). Our goal is to show this lower bound of the gap "
                       "becomes large enough after Stage 1, and remains large throughout Stage 2\" (App. D) — read "
                       "unconditionally: every q on the simplex (including q5 < q1, where the bound is negative)",
                others={"in the regime the proof applies it ('our goal is to show this lower bound becomes large "
                        "enough after Stage 1'), q5 = max q": "holds: icrecall.d-gap-bound-region"}),
            statement="l(a3) − l(a) ≥ 2(q5 − max{q1, q3}) for every answer a ≠ a3, every q on the simplex "
                      "(the printed sentence read without a condition on q)",
            choices={"reading": "unconditional (all q on the simplex)"},
            params={"argmax5": False})
@CLAIMS.add("d-gap-bound-region", location="App. D (gap bound, used where ω5 = max ω)", kind=Kind.INEQUALITY,
            catalogue_id="ICR-D-gap",
            statement="l(a3) − l(a) ≥ 2(q5 − max{q1, q3}) for every a ≠ a3 wherever q5 = max_i q_i",
            choices={"reading": "restricted to the Stage-2 region q5 = max q (ω5 = max ω)"},
            params={"argmax5": True})
def gap_bound(ctx):
    """The App. D gap bound on every q (param argmax5 = False) or where q5 = max q (True)."""
    argmax5 = ctx.params["argmax5"]
    g = gaps()
    dom = q_domain(argmax5=argmax5)
    n = 60 if ctx.profile == "quick" else 2000
    parts = {k: check_inequality(g[k], ">=", pr.d_gap_bound(Q), dom, ctx.seed + i, n_float=n) for i, k in enumerate(g)}
    return combine(parts, method="gap bound, q5 = max q:" if argmax5 else "gap bound, all q:")


@CLAIMS.add("d-gap-other", location="App. D (\"l(a3) − l(a) ≥ 2q5\")", kind=Kind.INEQUALITY, catalogue_id="ICR-D-gap",
            statement="l(a3) − l(a) ≥ 2q5 for any a ∉ {a1, a2, a3}, every q on the simplex")
def d_gap_other(ctx):
    return check_inequality(gaps()["other"], ">=", pr.d_gap_other_bound(Q), q_domain(), ctx.seed,
                            n_float=60 if ctx.profile == "quick" else 2000)


# --- ICR-D-claim2 (SymPy) -----------------------------------------------------------------

def e_form(inst_logits, target: int, weights=None):
    """ℓ2 = −l_t/T + log Σ_j w_j exp(l_j/T) with every exp(l_j/T) renamed E_j (distinct atoms):
    returns (∂ℓ2/∂q with E's, p_j = E_j/ΣE per logit, E symbols, the substitution)."""
    w = weights or [1] * len(inst_logits)
    loss = -inst_logits[target] / T + sp.log(sp.Add(*[wj * sp.exp(l / T) for wj, l in zip(w, inst_logits)]))
    grads = [sp.diff(loss, qi) for qi in Q]
    atoms = sorted({sp.exp(l / T) for l in inst_logits}, key=sp.default_sort_key)
    E = sp.symbols(f"E1:{len(atoms) + 1}", positive=True)
    ren = dict(zip(atoms, E))
    total = sp.Add(*[wj * ren[sp.exp(l / T)] for wj, l in zip(w, inst_logits)])
    probs = [ren[sp.exp(l / T)] / total for l in inst_logits]
    return [g.xreplace(ren) for g in grads], probs, E


def claim2_identities(ctx, logits, roles, weights=None, extra=()):
    """Claim 2 (final list) and the proof's ∂ℓ2/∂q_{2j−1}, ∂ℓ2/∂q7 displays, with E_j = exp(l_j/T) free."""
    g, p, E = e_form(logits, roles[2], weights)
    pa = [p[j] for j in roles]
    dom = Domain([Simplex(Q), T_DOM, *[LogUniform(e, 1e-3, 1e3) for e in E], *extra])
    shown = pr.claim2(Q, T, *pa)
    parts = {f"∂ℓ2/∂q{i + 1}": check_identity(g[i], shown[i], dom, ctx.seed + i, symbolic_seconds=2.0)
             for i in range(7)}
    for j in (1, 2, 3):
        parts[f"proof ∂ℓ2/∂q{2 * j - 1}"] = check_identity(g[2 * j - 2], pr.claim2_odd(Q, T, pa, j), dom,
                                                             ctx.seed + 10 + j, symbolic_seconds=2.0)
    parts["proof ∂ℓ2/∂q7"] = check_identity(g[6], pr.claim2_q7(Q, T, pa), dom, ctx.seed + 20, symbolic_seconds=2.0)
    return parts


@CLAIMS.add("d-claim2-sympy", location="Claim 2 and its proof, App. D", kind=Kind.IDENTITY, catalogue_id="ICR-D-claim2",
            statement="Claim 2's ∂ℓ2/∂q_i and every display of its proof (∂ℓ2/∂l = (p − e3)/T, ∂l_i/∂q_j, "
                      "∂ℓ2/∂q_{2j−1}, ∂ℓ2/∂q7) equal the derivatives of the derived step-2 loss",
            choices={"instances": "n = 3 (Table 1), 5 (F-aff(5)), 7 (F-aff(7)), and general n (grouped, n ≥ 4 "
                     "real in [3, 100])", "exp atoms": "exp(l_j/T) renamed E_j > 0, free (stronger than needed)"})
def d_claim2_sympy(ctx):
    parts = {}
    for n in (3, 5, 7):
        inst = s2.exact_instance(n)
        for k, v in claim2_identities(ctx, inst.logits, inst.roles).items():
            parts[f"n={n} {k}"] = v
    gr = s2.grouped()
    for k, v in claim2_identities(ctx, list(gr.role_logits), (0, 1, 2), [1, 1, 1, N - 3],
                                  extra=[Interval(N, 3, 100)]).items():
        parts[f"general n {k}"] = v
    # ∂ℓ2/∂l = (1/T)(p − e3), on free logits
    L = sp.symbols("L1:6", real=True)
    loss = -L[2] / T + sp.log(sp.Add(*[sp.exp(x / T) for x in L]))
    p = softmax([x / T for x in L])
    dom = Domain([*(Interval(x, -3, 3) for x in L), T_DOM])
    for j, (d, s) in enumerate(zip([sp.diff(loss, x) for x in L], pr.claim2_dl(p, T, 2))):
        parts[f"∂ℓ2/∂l{j + 1}"] = check_identity(d, s, dom, ctx.seed + 30 + j)
    # ∂l_i/∂q_j for i ∈ [n] (answers ordered a1, a2, a3, then the others), j ∈ [7]
    for n in (3, 5, 7):
        inst = s2.exact_instance(n)
        order = list(inst.roles) + inst.others
        cases = [(f"n={n}, i={i + 1}, j={j + 1}", (inst.logits[a], i + 1, j + 1))
                 for i, a in enumerate(order) for j in range(7)]
        parts[f"n={n} ∂l_i/∂q_j"] = check_cases(
            cases, lambda c: (sp.expand(sp.diff(c[0], Q[c[2] - 1]) - pr.claim2_dl_dq(Q, c[1], c[2])) == 0,
                              {"derived": str(sp.diff(c[0], Q[c[2] - 1])),
                               "printed": str(pr.claim2_dl_dq(Q, c[1], c[2]))}), exhaustive=True, what="(i, j)")
    return combine(parts, method="Claim 2 (SymPy):")


# --- ICR-D-chain ------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def _chain_numeric():
    """SymPy (n = 5, F-aff(5)): ∂ℓ2/∂ω_i by differentiating ℓ2(softmax ω), and the printed display
    applied to the SymPy ∂ℓ2/∂q at q = softmax ω; both lambdified."""
    inst = s2.exact_instance(5)
    qw = softmax(OM)
    gq = [g.xreplace(dict(zip(Q, qw))) for g in inst.grad_q()]
    return (sp.lambdify([OM, T], inst.grad_omega(), cse=True),
            sp.lambdify([OM, T], pr.d_chain(qw, gq), cse=True))


@CLAIMS.add("d-chain", location="App. D (after Claim 2)", kind=Kind.IDENTITY, catalogue_id="ICR-D-chain",
            statement="∂ℓ2/∂ω_i = q_i(∂ℓ2/∂q_i − Σ_j q_j ∂ℓ2/∂q_j), q = softmax(ω)",
            choices={"SymPy instance": "F-aff(5), (s1,s2,s3) = (0,1,2), r* = r1; both sides lambdified, float64 at "
                     "drawn ω, T (rtol 1e-12)",
                     "autograd": "torch ∂ℓ2/∂ω (through W^KQ[0:7, 6]) vs the display applied to torch ∂ℓ2/∂q",
                     "ω range": "[-4, 4]^7"})
def d_chain(ctx):
    f_go, f_shown = _chain_numeric()
    om_t = st.tuples(strat.vectors(7, -4, 4), strat.log_uniform(0.02, 10.0))
    parts = {"SymPy": check_agreement(lambda x: np.array(f_go(np.array(x[0]), x[1]), dtype=float),
                                      lambda x: np.array(f_shown(np.array(x[0]), x[1]), dtype=float), om_t,
                                      ctx.seed, rtol=1e-12, names=("d/dω ℓ2(softmax ω) (SymPy)",
                                                                   "display ∘ SymPy ∂ℓ2/∂q"),
                                      describe=lambda x: {"omega": x[0], "T": x[1]})}
    m = table1_model(device=ctx.device)
    b = m.batch([((0, 1, 2), 0)])

    def both(x):
        om, Tv = x
        omt = m.tensor(om)
        q = torch.softmax(omt, -1)
        gq_t = _np(grad(lambda a: m.ell2_attn(a, Tv, b).mean())(q))
        gw_t = _np(grad(lambda w: m.L2(m.tensor(np.zeros(6)), w, Tv, b))(omt))
        return np.array(pr.d_chain(_np(q), gq_t)), gw_t

    parts["autograd"] = check_agreement(lambda x: both(x)[0], lambda x: both(x)[1],
                                        st.tuples(strat.vectors(7, -5, 5), strat.log_uniform(0.02, 10.0)),
                                        ctx.seed, rtol=1e-10, names=("display ∘ autograd q", "autograd ω"),
                                        describe=lambda x: {"omega": x[0], "T": x[1]})
    return combine(parts, method="chain rule display:")


# --- ICR-D-init -------------------------------------------------------------------------------

def init_quantities(n: int):
    """Derived at ω = 0 (q_i = 1/7): p(a1), p(a2), p(a3), ∇_q ℓ2, ∇_ω ℓ2 (exact in T)."""
    inst = s2.exact_instance(n)
    q0 = {qi: sp.Rational(1, 7) for qi in Q}
    w0 = {w: 0 for w in OM}
    pa = [sp.simplify(x.xreplace(q0)) for x in inst.role_probabilities()]
    gq = [g.xreplace(q0) for g in inst.grad_q()]
    go = [g.xreplace(w0) for g in inst.grad_omega()]
    return pa, gq, go


@CLAIMS.add("d-init", location="App. D (initialisation display)", kind=Kind.IDENTITY, catalogue_id="ICR-D-init",
            statement="At ω = 0: p(a1) = p(a2) = p(a3) =: p, ∇_q ℓ2 = (1/(7T))(16p, 0, 16p, 0, 16(p−1), 0, 2(3p−1)) and "
                      "∇_ω ℓ2 = (1/(343T))(58p+18, −54p+18, 58p+18, −54p+18, 58p−94, −54p+18, −12p+4)",
            choices={"n": "3 (Table 1), 4 (cyclic), 5 (F-aff(5)), 7 (F-aff(7))", "T": "symbolic (T > 0)"})
def d_init(ctx):
    dom = Domain([LogUniform(T, 0.02, 10.0)])
    parts = {}
    for n in (3, 4, 5, 7):
        pa, gq, go = init_quantities(n)
        p = pa[0]
        parts[f"n={n} p(a1)=p(a2)=p(a3)"] = combine({
            "a2": check_identity(pa[1], p, dom, ctx.seed + n, n_rational=3),
            "a3": check_identity(pa[2], p, dom, ctx.seed + n, n_rational=3)})
        parts[f"n={n} ∇q"] = combine({str(i + 1): check_identity(gq[i], s, dom, ctx.seed + i, n_float=20, n_rational=3)
                                      for i, s in enumerate(pr.d_init_grad_q(p, T))})
        parts[f"n={n} ∇ω"] = combine({str(i + 1): check_identity(go[i], s, dom, ctx.seed + i, n_float=20, n_rational=3)
                                      for i, s in enumerate(pr.d_init_grad_omega(p, T))})
    return combine(parts, method="initialisation:")


@CLAIMS.add("d-init-p", location="App. D (\"where p := p_{2,r1}(a1) < 1/3\")", kind=Kind.INEQUALITY,
            catalogue_id="ICR-D-init", expect=Status.REFUTED, finding=Finding.TYPO,
            reason="strict for non-strict: at n = 3 (Table 1, any n = 3 relation set) p = 1/3 exactly at ω = 0 (no "
                   "answers outside {a1, a2, a3}); '<' holds for n ≥ 4 (d-init-p-n-ge-4) and '≤' for all n, which is "
                   "all the next line's ≥ 32η1/(147T) needs (equality at p = 1/3; d-gap1 holds)",
            readings=Readings(
                tested="the paper's words: \"where p := p_{2,r1}(a1) < 1/3. Therefore after the first GD step, we have "
                       "ω̃5 − max_{i≠5} ω̃_i ≥ 32η1/(147T)\" (App. D) — strict, for every n ≥ 3 (n = 3 is inside the "
                       "paper's setting: Table 1, Assumption 1 holds for F-all3)",
                others={"p ≤ 1/3, all the bound ≥ 32η1/(147T) needs (equality at p = 1/3)": "holds: icrecall.d-gap1",
                        "p < 1/3 for n ≥ 4 (answers outside {a1, a2, a3} exist)": "holds: icrecall.d-init-p-n-ge-4"}),
            statement="p := p_{2,r1}(a1) at ω = 0 satisfies p < 1/3, for every n (checked n ∈ {3, 4, 5, 7}, T > 0)",
            choices={"T range": "[0.02, 10] (float search); 1/3 − p derived in closed form"},
            params={"ns": (3, 4, 5, 7)})
@CLAIMS.add("d-init-p-n-ge-4", location="App. D (\"p < 1/3\"), n ≥ 4", kind=Kind.INEQUALITY, catalogue_id="ICR-D-init",
            statement="p := p_{2,r1}(a1) at ω = 0 satisfies p < 1/3 for n ∈ {4, 5, 7}, T ∈ [0.02, 10]",
            params={"ns": (4, 5, 7)})
def p_init(ctx):
    """p = p_{2,r1}(a1) < 1/3 after initialisation, for each n of the param ``ns``."""
    ns = ctx.params["ns"]
    dom = Domain([LogUniform(T, 0.02, 10.0)])
    parts = {}
    for n in ns:
        p = init_quantities(n)[0][0]
        gap = sp.simplify(pr.D_INIT_P_BOUND - p)
        v = check_inequality(p, "<", pr.D_INIT_P_BOUND, dom, ctx.seed + n, n_float=30)
        parts[f"n={n}"] = replace(v, details={**v.details, "p": str(p), "1/3 - p": str(gap)})
    return combine(parts, method="p < 1/3:" if 3 in ns else "p < 1/3 (n ≥ 4):")


# --- ICR-D-gap1 --------------------------------------------------------------------------------

@lru_cache(maxsize=1)
def grouped_init_gaps():
    """DERIVATION: T(∂ℓ2/∂ω_i − ∂ℓ2/∂ω_5) at ω = 0 for general n, i ≠ 5: after one GD step of size η1,
    ω̃5 − ω̃_i = (η1/T)·this."""
    go = [g.xreplace({w: 0 for w in OM}) for g in s2.grouped().grad_omega()]
    return {i + 1: sp.simplify(T * (go[i] - go[4])) for i in range(7) if i != 4}


@lru_cache(maxsize=4)
def _grad_omega_numeric(n: int):
    go = s2.grouped().grad_omega()
    return sp.lambdify([OM, T], [g.xreplace({N: n}) for g in go], modules="numpy", cse=True)


def eta1(Tv: float, c1: float = 1.0) -> float:
    """η1 = c1·T^{1.5}·log(1/T) (Theorem 1's Θ(T√T log(1/T)), constant c1)."""
    return c1 * Tv**1.5 * math.log(1 / Tv)


@CLAIMS.add("d-gap1", location="App. D (\"after the first GD step, ω̃5 − max ω̃_i ≥ 32η1/(147T)\")",
            kind=Kind.INEQUALITY, catalogue_id="ICR-D-gap1",
            statement="After one GD step from ω = 0, ω̃5 − max_{i≠5} ω̃_i ≥ 32η1/(147T) = Θ(√T log(1/T)) "
                      "(η1 = Θ(T^{1.5} log(1/T)))",
            choices={"derived gaps": "general n (grouped), n real in [3, 200], T ∈ [0.02, 10]",
                     "torch step": "full model, one GD step on L2 through W^KQ[0:7, 6], n ∈ {3, 5, 7}, "
                     "T ∈ {0.01, 0.005, 0.002, 0.001}, η1 = c1 T^1.5 log(1/T), c1 = 1"})
def d_gap1(ctx):
    g = grouped_init_gaps()
    dom = Domain([Interval(N, 3, 200), LogUniform(T, 0.02, 10.0)])
    bound = pr.d_gap1_bound(sp.Integer(1), sp.Integer(1))  # 32/147 (η1/T factored out)
    parts = {f"i={i}": check_inequality(e, ">=", bound, dom, ctx.seed + i, n_float=30) for i, e in g.items()}
    tight = {i: sp.nsimplify(e.xreplace({N: 3})) for i, e in g.items()}
    parts["infimum attained at n = 3"] = check_cases(
        [("n=3", tight)], lambda t: (min(t.values()) == bound, {"gaps at n=3": {k: str(v) for k, v in t.items()}}),
        exhaustive=True, what="case")

    def torch_step(case):
        n, Tv = case
        m = ICModel(n, s2.cyclic_relations(n) if n != 3 else s2.family("all3").relations, device=ctx.device)
        b = m.batch([((0, 1, 2), 0)])
        gw = grad(lambda w: m.L2(m.tensor(np.zeros(6)), w, Tv, b))(m.tensor(np.zeros(7)))
        w1 = -eta1(Tv) * _np(gw)
        gap = w1[4] - np.max(np.delete(w1, 4))
        lo = pr.d_gap1_bound(eta1(Tv), Tv)
        ratio = gap / (math.sqrt(Tv) * math.log(1 / Tv))
        ok = gap >= lo * (1 - 1e-10) and ratio <= 112 / 343 * (1 + 1e-10)
        return ok, {"n": n, "T": Tv, "gap": gap, "32η1/(147T)": lo, "gap/(√T log 1/T)": ratio}

    parts["torch one step"] = cases_recorded([(f"n={n}, T={Tv}", (n, Tv)) for n in (3, 5, 7)
                                           for Tv in (0.01, 0.005, 0.002, 0.001)], torch_step, exhaustive=False,
                                          what="(n, T)")
    return combine(parts, method="first-step gap:")


# --- Stage-2 trajectories (shared by ICR-D-perturb, ICR-D-monotone, ICR-D-q5) ---------------

def ball(rng: np.random.Generator, dim: int, radius: float, k: int) -> np.ndarray:
    """k points uniform in the dim-dimensional ball of the given radius."""
    x = rng.standard_normal((k, dim))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    return x * radius * rng.random((k, 1)) ** (1 / dim)


def radius(Tv: float, c_r: float = 1.0, delta: float = 0.1) -> float:
    """Algorithm 1: ξ ~ Uniform(𝔹(0, c_r T³ log⁻²(1/δ)))."""
    return c_r * Tv**3 / math.log(1 / delta) ** 2


def gap5(w: np.ndarray) -> float:
    return float(w[4] - np.max(np.delete(w, 4)))


def stage1_omega(n: int, Tv: float, c1: float = 1.0) -> np.ndarray:
    g = np.array(_grad_omega_numeric(n)(np.zeros(7), Tv), dtype=float)
    return -eta1(Tv, c1) * g


@lru_cache(maxsize=4)
def trajectories(seed: int, quick: bool):
    """Stage 1 (one GD step, c1 = 1), a perturbation in the joint (θ, ω) ball (c_r = 1, δ = 0.1), then
    t2 = ⌈(C2/T) log(1/T)⌉ (C2 = 1) GD steps on ℓ2 in ω (L2 depends on ω only), per (n, T, η2)."""
    rng = np.random.default_rng(seed)
    out = []
    for n in (3, 7):
        f = _grad_omega_numeric(n)
        for Tv in (0.05, 0.02, 0.01, 0.005):
            for c in ((1, 10) if quick else (1, 2, 10)):
                w = stage1_omega(n, Tv) + ball(rng, 13, radius(Tv), 1)[0, 6:]
                steps = math.ceil(math.log(1 / Tv) / Tv)
                path = [w.copy()]
                for _ in range(steps):
                    w = w - c * Tv**2 * np.array(f(w, Tv), dtype=float)
                    path.append(w.copy())
                out.append(((n, Tv, c), np.array(path)))
    return out


@CLAIMS.add("d-perturb", location="App. D (\"after the perturbation … ω5 − max ω_i = Θ(√T log(1/T))\")",
            kind=Kind.INEQUALITY, catalogue_id="ICR-D-perturb",
            statement="After the Stage-2 perturbation of radius Θ(T³ log⁻²(1/δ)), ω5 − max_{i≠5} ω_i stays "
                      "Θ(√T log(1/T)) for small T",
            choices={"constants": "c1 = 1 (η1), c_r ∈ {1, 100} (radius), δ = 0.1; ξ uniform in the 13-dim (θ, ω) ball",
                     "samples": "10⁴ per T (2000 in quick)", "T grid": "0.05, 0.02, 0.01, 0.005", "n": "3, 7",
                     "criterion": "min gap / (√T log 1/T) ∈ [½·32/147, 112/343 + 0.01] for every T"})
def d_perturb(ctx):
    rng = np.random.default_rng(ctx.seed)
    k = 2000 if ctx.profile == "quick" else 10_000
    lo, hi = 0.5 * 32 / 147, 112 / 343 + 0.01

    def case(c):
        n, Tv, c_r = c
        w0 = stage1_omega(n, Tv)
        xi = ball(rng, 13, radius(Tv, c_r), k)[:, 6:]
        ws = w0[None, :] + xi
        g = ws[:, 4] - np.max(np.delete(ws, 4, axis=1), axis=1)
        scale = math.sqrt(Tv) * math.log(1 / Tv)
        r_min, r_max = float(g.min() / scale), float(g.max() / scale)
        worst = (gap5(w0) - math.sqrt(2) * radius(Tv, c_r)) / scale  # exact minimum over the ball
        return lo <= min(r_min, worst) and r_max <= hi, {
            "n": n, "T": Tv, "c_r": c_r, "gap0/scale": gap5(w0) / scale, "min sampled gap/scale": r_min,
            "max sampled gap/scale": r_max, "exact worst gap/scale": worst}

    return cases_recorded([(f"n={n}, T={Tv}, c_r={c_r}", (n, Tv, c_r)) for n in (3, 7) for Tv in (0.05, 0.02, 0.01, 0.005)
                        for c_r in (1.0, 100.0)], case, exhaustive=False, what="(n, T, c_r)")


# --- ICR-D-monotone ---------------------------------------------------------------------------

def monotone_slacks(n: int) -> dict[str, sp.Expr]:
    """Each step of the chain as a slack (≥ 0 when the step holds), for the grouped derived loss at n."""
    gr = s2.grouped()
    g = [x.xreplace({N: n}) for x in gr.grad_q()]
    pa3 = gr.probabilities()[2].xreplace({N: n})
    S = sum(Q[j] * g[j] for j in range(7))
    out = {f"∂ℓ2/∂q{i + 1} − ∂ℓ2/∂q5 ≥ 0": g[i] - g[4] for i in (0, 1, 2, 3, 5)}
    out["∂ℓ2/∂q7 ≥ (2q5/T)(p(a3) − 1)"] = g[6] - pr.d_monotone_q7_lower(Q, T, pa3)
    out["(2q5/T)(p(a3)−1) ≥ (2(1+q7)/T)(p(a3)−1)"] = (pr.d_monotone_q7_lower(Q, T, pa3)
                                                       - pr.d_monotone_q5_form(Q, T, pa3))
    for i in (0, 1, 2, 3, 5, 6):
        out[f"line1 ≥ line2, i={i + 1}"] = pr.d_monotone_line1(Q, g, i) - pr.d_monotone_line2(Q, g, i)
        out[f"line3 ≥ 0, i={i + 1}"] = pr.d_monotone_line3(Q, g, i)
        out[f"∂ℓ2/∂ω{i + 1} − ∂ℓ2/∂ω5 ≥ 0"] = Q[i] * (g[i] - S) - Q[4] * (g[4] - S)
    return out


def argmax5_points(rng: np.random.Generator, k: int) -> dict[sp.Symbol, np.ndarray]:
    """k points (q, T): q on the simplex with q5 = max q (a quarter near the boundary, some ties
    q_i = q5), T log-uniform on [1e-3, 1]."""
    logw = rng.uniform(-3, 3, (k, 7))
    logw[: k // 4] += np.where(rng.random((k // 4, 7)) < 0.4, -40.0, 0.0)
    w = np.exp(logw - logw.max(axis=1, keepdims=True))
    q = w / w.sum(axis=1, keepdims=True)
    j = q.argmax(axis=1)
    rows = np.arange(k)
    q[rows, j], q[rows, 4] = q[rows, 4], q[rows, j].copy()
    tie = rng.random(k) < 0.1  # ties q_i = q5 (the boundary ω_i = ω5 of the region)
    other = rng.integers(0, 6, k)
    other = np.where(other >= 4, other + 1, other)
    q[tie, other[tie]] = q[tie, 4]
    q /= q.sum(axis=1, keepdims=True)
    out = {s: q[:, i] for i, s in enumerate(Q)}
    out[T] = 10.0 ** rng.uniform(-3, 0, k)
    return out


def sweep_slacks(slacks: dict[str, sp.Expr], points: dict[sp.Symbol, np.ndarray], tol: float = 1e-12):
    """Vectorised float64 evaluation of every slack at every point (catalogue: ≥ 2·10⁴ draws); the worst
    violation (slack < −tol·max(1, scale)) is re-evaluated at 50 digits before it is reported."""
    from ..experiments.util import high_precision
    from theoryverify import holds, inconclusive, refuted

    syms = list(points)
    f = sp.lambdify(syms, list(slacks.values()), modules="numpy", cse=True)
    with np.errstate(all="ignore"):
        vals = np.array(np.broadcast_arrays(*f(*[points[s] for s in syms])), dtype=float)
    finite = np.isfinite(vals)
    worst = {name: float(np.min(np.where(finite[k], vals[k], np.inf))) for k, name in enumerate(slacks)}
    for k, name in enumerate(slacks):
        bad = np.where(finite[k] & (vals[k] < -tol))[0]
        if bad.size:
            i = int(bad[np.argmin(vals[k][bad])])
            pt = {s: float(points[s][i]) for s in syms}
            exact = high_precision(slacks[name], pt)
            if exact < -tol:
                return refuted("vectorised float64 sweep + 50-digit confirmation",
                               f"step '{name}' violated: slack {float(exact):.3g}",
                               {"step": name, **{str(s): v for s, v in pt.items()}, "slack": float(exact)})
            return inconclusive("vectorised sweep", f"float64 violation of '{name}' not confirmed at 50 digits")
    nonfinite = int((~finite).sum())
    return holds(f"vectorised float64 sweep ({vals.shape[1]} points × {len(slacks)} steps)",
                 f"no violation; min slack {fmt_signed(min(worst.values()))}; {nonfinite} non-finite values",
                 min_slack=worst, points=vals.shape[1], nonfinite=nonfinite, tolerance=tol)


@lru_cache(maxsize=4)
def _monotone_slacks_cached(n: int):
    return monotone_slacks(n)


@CLAIMS.add("d-monotone-chain", location="App. D (monotonicity of ω5 − max ω_i, pointwise chain)",
            kind=Kind.INEQUALITY, catalogue_id="ICR-D-monotone",
            statement="Where q5 = max q: ∂ℓ2/∂q_i ≥ ∂ℓ2/∂q5 (i = 1,2,3,4,6), ∂ℓ2/∂q7 ≥ (2q5/T)(p(a3)−1) ≥ ∂ℓ2/∂q5, "
                      "each line of the ∂ℓ2/∂ω_i − ∂ℓ2/∂ω5 chain (every i ≠ 5, including 7), and ∂ℓ2/∂ω_i ≥ ∂ℓ2/∂ω5",
            choices={"n": "3, 7 and 31 (grouped derived loss)", "T range": "[1e-3, 1] log-uniform",
                     "region": "q on the simplex with q5 = max_i q_i (⇔ ω5 = max ω), incl. ties and boundary",
                     "draws": "2·10⁴ vectorised points per n (catalogue), tolerance 1e-12",
                     "algebraic lines": "line1 = display of ∂ω_i − ∂ω5 and line2 = line3 proved with free g"})
def d_monotone_chain(ctx):
    rng = np.random.default_rng(ctx.seed)
    parts = {f"n={n}": sweep_slacks(_monotone_slacks_cached(n), argmax5_points(rng, 20_000)) for n in (3, 7, 31)}
    G = sp.symbols("g1:8", real=True)
    gd = Domain([Simplex(Q), *(Interval(x, -5, 5) for x in G)])
    chain = [Q[i] * (G[i] - sum(Q[j] * G[j] for j in range(7))) for i in range(7)]
    for i in (0, 1, 2, 3, 5, 6):
        parts[f"line1 identity i={i + 1}"] = check_identity(chain[i] - chain[4], pr.d_monotone_line1(Q, G, i), gd,
                                                            ctx.seed + 100 + i, n_rational=3)
        parts[f"line2 = line3 i={i + 1}"] = check_identity(pr.d_monotone_line2(Q, G, i), pr.d_monotone_line3(Q, G, i),
                                                           gd, ctx.seed + 200 + i, n_rational=3)
    return combine(parts, method="monotonicity chain:")


@CLAIMS.add("d-monotone-gd", location="App. D (\"after a GD step this quantity is non-decreasing\")",
            kind=Kind.DYNAMICS, catalogue_id="ICR-D-monotone",
            statement="Along Stage-2 GD on ℓ2, ω5 − max_{i≠5} ω_i never decreases",
            choices={"trajectories": "n ∈ {3, 7}, T ∈ {0.05, 0.02, 0.01, 0.005}, η2 = c·T², c ∈ {1, 10} (quick), "
                     "{1, 2, 10} (full); t2 = ⌈log(1/T)/T⌉; start: one GD step (c1 = 1) + ball perturbation "
                     "(c_r = 1, δ = 0.1)", "gradient": "derived (SymPy, lambdified) ∇ω ℓ2, float64",
                     "tolerance": "a decrease below −1e-14 counts"})
def d_monotone_gd(ctx):
    def case(item):
        (n, Tv, c), path = item
        g = path[:, 4] - np.max(np.delete(path, 4, axis=1), axis=1)
        dec = np.diff(g)
        k = int(np.argmin(dec))
        return bool(dec.min() >= -1e-14), {"n": n, "T": Tv, "eta2/T^2": c, "steps": len(dec),
                                            "min step change": float(dec.min()), "at step": k,
                                            "gap start": float(g[0]), "gap end": float(g[-1])}

    return cases_recorded([(f"n={it[0][0]}, T={it[0][1]}, η2={it[0][2]}T²", it)
                        for it in trajectories(ctx.seed, ctx.profile == "quick")], case, exhaustive=False,
                       what="trajectories")


# --- ICR-D-q5 -------------------------------------------------------------------------------------

@CLAIMS.add("d-q5", location="App. D (\"q5 − q_i = q5(1 − exp(ω_i − ω5)) ≥ Θ(√T log(1/T)) … since q5 ≥ 1/7\")",
            kind=Kind.DYNAMICS, catalogue_id="ICR-D-q5",
            statement="During Stage 2: q5 − q_i = q5(1 − exp(ω_i − ω5)); q5 ≥ 1/7; q5 − max_{i≠5} q_i ≥ κ √T log(1/T) "
                      "for a T-independent κ > 0",
            choices={"trajectories": "as d-monotone-gd", "κ": "(1/14)(16/147) ≈ 0.0078 (half of the bound "
                     "(1/7)·½·(32/147) implied by the proof's steps with c1 = 1)"})
def d_q5(ctx):
    kappa = (1 / 14) * (16 / 147)
    ident = combine({f"i={i + 1}": check_identity(softmax(OM)[4] - softmax(OM)[i], pr.d_q5_form(OM, i),
                                                   Domain([Interval(w, -4, 4) for w in OM]), ctx.seed + i)
                     for i in (0, 1, 2, 3, 5, 6)}, method="identity:")

    def case(item):
        (n, Tv, c), path = item
        e = np.exp(path - path.max(axis=1, keepdims=True))
        q = e / e.sum(axis=1, keepdims=True)
        q5 = q[:, 4]
        margin = q5 - np.max(np.delete(q, 4, axis=1), axis=1)
        ratio = float(margin.min() / (math.sqrt(Tv) * math.log(1 / Tv)))
        return bool(q5.min() >= 1 / 7 and ratio >= kappa), {"n": n, "T": Tv, "eta2/T^2": c,
                                                             "min q5": float(q5.min()), "min ratio": ratio,
                                                             "kappa": kappa}

    traj = cases_recorded([(f"n={it[0][0]}, T={it[0][1]}, η2={it[0][2]}T²", it)
                        for it in trajectories(ctx.seed, ctx.profile == "quick")], case, exhaustive=False,
                       what="trajectories")
    return combine({"q5 − q_i identity": ident, "trajectories": traj}, method="q5 margin:")


@lru_cache(maxsize=1)
def _role_logits_numeric():
    return sp.lambdify([Q], list(s2.grouped().role_logits), modules="numpy")


@CLAIMS.add("d-gap-trajectory", location="App. D (\"l(a3) − max{l(a1), l(a2)} = Ω(√T log 1/T), l(a3) − l(a) ≥ 2q5 = Ω(1)\")",
            kind=Kind.DYNAMICS, catalogue_id="ICR-D-gap",
            statement="During Stage 2, l(a3) − max{l(a1), l(a2)} ≥ 2κ √T log(1/T) and l(a3) − l(a) ≥ 2q5 ≥ 2/7 for "
                      "a ∉ {a1, a2, a3}",
            choices={"trajectories": "as d-monotone-gd", "logits": "derived (grouped, SymPy) at q = softmax(ω)",
                     "κ": "(1/14)(16/147), as d-q5"})
def d_gap_trajectory(ctx):
    kappa = (1 / 14) * (16 / 147)
    f = _role_logits_numeric()

    def case(item):
        (n, Tv, c), path = item
        e = np.exp(path - path.max(axis=1, keepdims=True))
        q = (e / e.sum(axis=1, keepdims=True)).T
        l1, l2, l3, lo = (np.broadcast_to(x, q.shape[1:]) for x in f(q))
        ratio = float(np.min(l3 - np.maximum(l1, l2)) / (math.sqrt(Tv) * math.log(1 / Tv)))
        other = float(np.min(l3 - lo - 2 * q[4]))
        return bool(ratio >= 2 * kappa and other >= -1e-12 and np.min(l3 - lo) >= 2 / 7), {
            "n": n, "T": Tv, "eta2/T^2": c, "min (l(a3) − max l(a1,a2))/(√T log 1/T)": ratio,
            "min l(a3) − l(a) − 2q5": other, "min l(a3) − l(a)": float(np.min(l3 - lo))}

    return cases_recorded([(f"n={it[0][0]}, T={it[0][1]}, η2={it[0][2]}T²", it)
                        for it in trajectories(ctx.seed, ctx.profile == "quick")], case, exhaustive=False,
                       what="trajectories")
