"""Section 4.2, Eq. (6) and Theorem 4.3: the generalised induction head IH_n (in-context n-gram matching) —
reduction to Eq. (4) at n = 2, the torch implementation against the SymPy reading, locality of the scores, the
dimension problem a reviewer raised (R1 d) — and the H-head construction of Thm 4.3 (App. A.2; v3 Thm C.2): the R2
Step-1 normaliser (IH-T43-norm), its repair, and the rate in H.  The printed Eq. (6) and the Thm 4.3 bound are
lost: verdicts are verdicts on the reconstruction.

R2 (verbatim, v3 proof of Thm C.2, Step 1): SA^{1,h}(X^0_{0:s})_{-1} = Σ_j a^h_{s-j,s} W_V^{1,h} x_{s-j}
= S_i α_{h,i} (Σ_{f=0}^{H_i} exp(-β_{h,i}(f-1))) Σ_j a^h_{s-j,s} x_{s-j}, with
a^h_{s-j,s} = e^{-β_{h,i}(j-1)} / Σ_{f=1}^{s} e^{-β_{h,i}(f-1)}.
For Lemma D.2 to apply, Step 1 must produce the unnormalised kernel S_i α_{h,i} Σ_j e^{-β_{h,i}(j-1)} x_{s-j}
at every position s; that is the reading tested.
"""
from __future__ import annotations

import math

import numpy as np
import sympy as sp
import torch

import theoryverify as tv
from theoryverify import (ClaimSet, Finding, Kind, Status, Variant, Verdict, combine, holds, inconclusive, proved,
                          refuted)

from .. import printed
from ..experiments.superror import ball_sampler, sup_error
from ..experiments.support import fmt_error
from ..experiments.sweeps import cached, superpoly_verdict
from ..model import multihead as MH
from ..model.kernels import fit_delta, group_kernel, periodized
from ..model.recon import DEFAULTS as RC_DEFAULTS, record
from ..model.targets import attention_weights, ih2, ihn

CLAIMS = ClaimSet("inductionheads")
F64 = torch.float64


def _rc(*ids: str, **extra: str) -> dict[str, str]:
    """The RC choices (recon.record) plus this module's own choice keys."""
    return {**record(*ids), **extra}


def _gen(seed: int) -> torch.Generator:
    return torch.Generator().manual_seed(int(seed) % (2**63))


def _unit(gen: torch.Generator, *shape: int) -> torch.Tensor:
    v = torch.randn(*shape, generator=gen, dtype=F64)
    return v / v.norm(dim=-1, keepdim=True)


# ======================================================================================================
# IH-E6-def (Eq. 6)
# ======================================================================================================

def sym_sequence(L: int, d: int) -> list[list[sp.Symbol]]:
    return [[sp.Symbol(f"x{s}_{i}", real=True) for i in range(d)] for s in range(1, L + 1)]


def sym_eq4(X, W) -> tuple[list, list]:
    """Eq. (4) from its own indices: scores x_L^T W x_{s-1} and values x_s, s = 2..L-1."""
    L = len(X)
    xL = sp.Matrix(X[L - 1])
    scores = [(xL.T * W * sp.Matrix(X[s - 2]))[0, 0] for s in range(2, L)]
    values = [sp.Matrix(X[s - 1]) for s in range(2, L)]
    return scores, values


def sym_eq6(X, W, n: int, key_shift: int = 0) -> tuple[list, list]:
    """Eq. (6) reading: vec(X_{L-n+2:L})^T W vec(X_{s-n+1:s-1}), values x_s, s = n..L-1.
    ``key_shift`` plants an index error (key patch X_{s-n+1+shift : s-1+shift})."""
    L = len(X)
    q = sp.Matrix([c for t in range(L - n + 2, L + 1) for c in X[t - 1]])
    scores, values = [], []
    for s in range(n, L):
        kv = sp.Matrix([c for t in range(s - n + 1 + key_shift, s + key_shift) for c in X[t - 1]])
        scores.append((q.T * W * kv)[0, 0])
        values.append(sp.Matrix(X[s - 1]))
    return scores, values


def softmax_output(scores, values):
    den = sum(sp.exp(z) for z in scores)
    return sum((sp.exp(z) / den * v for z, v in zip(scores, values)), sp.zeros(len(values[0]), 1))


def e6_reduction(L: int = 5, d: int = 2, key_shift: int = 0) -> Verdict:
    """[SI] at n = 2, Eq. (6) (reconstruction) == Eq. (4): same index set, score polynomials expand
    equal, same values, hence the same softmax output (checked as a SymPy expression difference)."""
    X = sym_sequence(L, d)
    W = sp.Matrix(d, d, lambda i, j: sp.Symbol(f"w{i}{j}", real=True))
    s4, v4 = sym_eq4(X, W)
    s6, v6 = sym_eq6(X, W, 2, key_shift)
    if len(s4) != len(s6):
        return refuted("symbolic", "different index sets", {"n4": len(s4), "n6": len(s6)})
    for i, (a, b) in enumerate(zip(s4, s6)):
        diff = sp.expand(a - b)
        if diff != 0:
            return refuted("symbolic: expand", f"score {i + 2} differs", {"s": i + 2, "difference": str(diff),
                                                                          "L": L, "d": d, "key_shift": key_shift})
    out = sp.simplify(softmax_output(s4, v4) - softmax_output(s6, v6))
    if out != sp.zeros(d, 1):
        return refuted("symbolic", "outputs differ", {"difference": str(out)})
    return proved("symbolic: expand + simplify", f"n = 2: Eq. (6) scores == Eq. (4) scores and outputs equal "
                  f"(L = {L}, d = {d}, symbolic X and W)")


def e6_numeric(seed: int, impl=ihn, draws: int = 20) -> Verdict:
    """[NI] torch ihn vs the SymPy Eq. (6) reading (lambdified) for n ∈ {2,3,4}, and ihn(n=2) vs ih2."""
    gen = _gen(seed)
    worst = 0.0
    ce = None
    for n in (2, 3, 4):
        L, d = n + 4, 2
        X = sym_sequence(L, d)
        D = (n - 1) * d
        W = sp.Matrix(D, D, lambda i, j: sp.Symbol(f"w{i}{j}", real=True))
        sc, vals = sym_eq6(X, W, n)
        syms = [c for row in X for c in row] + list(W)
        f_sc = sp.lambdify(syms, sc, "numpy")
        for _ in range(draws):
            Xt = torch.randn(1, L, d, generator=gen, dtype=F64)
            Wt = torch.randn(D, D, generator=gen, dtype=F64)
            z = np.array(f_sc(*Xt.flatten().tolist(), *Wt.flatten().tolist()), dtype=float)
            w = np.exp(z - z.max()); w /= w.sum()
            ref = sum(wi * np.array([float(c) for c in v.subs(dict(zip([c for row in X for c in row],
                                                                        Xt.flatten().tolist())))])
                      for wi, v in zip(w, vals))
            got = impl(Xt, Wt, n)[0].numpy()
            err = float(np.max(np.abs(got - ref) / np.maximum(1.0, np.abs(ref))))
            if err > worst:
                worst, ce = err, {"n": n, "L": L, "d": d, "X": Xt[0].tolist(), "W": Wt.tolist(),
                                  "torch": got.tolist(), "sympy": ref.tolist()}
    Xt = torch.randn(16, 9, 3, generator=gen, dtype=F64)
    Wt = torch.randn(3, 3, generator=gen, dtype=F64)
    worst = max(worst, float((impl(Xt, Wt, 2) - ih2(Xt, Wt)).abs().max()))
    if worst > 1e-10:
        return refuted("float64 vs SymPy", f"torch Eq. (6) departs from the SymPy reading: {worst:.3g}",
                       ce or {"err": worst})
    return holds("float64 vs SymPy", f"torch ihn == SymPy Eq. (6) for n = 2,3,4 ({3 * draws} draws) and "
                 f"ihn(n=2) == ih2; max rel err {fmt_error(worst)}", max_rel_err=worst)


def e6_locality(seed: int, key_shift: int = 0, n_values=(2, 3, 4)) -> Verdict:
    """Perturbing tokens outside the compared patches leaves each score unchanged: the set of tokens a
    score depends on (SymPy free symbols) is exactly X_{s-n+1:s-1} ∪ X_{L-n+2:L}."""
    for n in n_values:
        L, d = n + 5, 2
        X = sym_sequence(L, d)
        D = (n - 1) * d
        W = sp.Matrix(D, D, lambda i, j: sp.Symbol(f"w{i}{j}", real=True))
        sc, _ = sym_eq6(X, W, n, key_shift)
        for idx, z in enumerate(sc):
            s = n + idx
            allowed = set(range(s - n + 1, s)) | set(range(L - n + 2, L + 1))
            used = {t for t in range(1, L + 1) if any(c in z.free_symbols for c in X[t - 1])}
            if used != allowed:
                return refuted("symbolic free symbols", f"score for s = {s} (n = {n}) depends on tokens "
                               f"{sorted(used)} instead of {sorted(allowed)}",
                               {"n": n, "s": s, "L": L, "depends_on": sorted(used), "patches": sorted(allowed)})
    return proved("symbolic free symbols", f"every score depends exactly on its two patches (n in {list(n_values)})")


def e6_dimensions(seed: int) -> Verdict:
    """R1 d: with W* ∈ R^{d×d} acting on d×(n-1) patch matrices the score X_q^T W* X_k is (n-1)×(n-1),
    not a scalar; the consistent readings are vec-patches with W ∈ R^{(n-1)d×(n-1)d} (used) or the
    Frobenius product tr(X_q^T W* X_k), which equals the vec reading with W = I_{n-1} ⊗ W*."""
    gen = _gen(seed)
    worst = 0.0
    for n in (2, 3, 4):
        d, L = 3, n + 6
        X = torch.randn(4, L, d, generator=gen, dtype=F64)
        Wd = torch.randn(d, d, generator=gen, dtype=F64)
        Wbig = torch.kron(torch.eye(n - 1, dtype=F64), Wd)
        Xq = X[:, L - n + 1:, :]                                   # (B, n-1, d) rows = tokens
        out = []
        for s in range(n, L):
            Xk = X[:, s - n: s - 1, :]
            out.append(torch.einsum("bti,ij,btj->b", Xq, Wd, Xk))  # tr(Xq W Xk^T) token-by-token
        frob = torch.softmax(torch.stack(out, -1), -1)
        vec = attention_weights(X, Wbig, n)
        worst = max(worst, float((frob - vec).abs().max()))
        try:
            ihn(X, Wd, n) if n > 2 else None
            if n > 2:
                return refuted("shape check", "ihn accepted a d x d matrix for n > 2", {"n": n, "d": d})
        except ValueError:
            pass
    if worst > 1e-12:
        return refuted("float64", f"Frobenius reading != vec reading with I ⊗ W*: {worst:.3g}", {"err": worst})
    return holds("float64", f"Frobenius reading == vec reading with W = I ⊗ W* (max err {fmt_error(worst)}); "
                 f"d x d W* rejected for n > 2", max_err=worst)


@CLAIMS.add("e6-def", location="§4.2, Eq. (6)", kind=Kind.IDENTITY, catalogue_id="IH-E6-def",
            statement="IH_n (Eq. 6) generalises IH_2 by matching (n-1)-token patches: at n = 2 it equals Eq. (4); "
                      "each score depends only on the two compared patches; the dimensions are consistent "
                      "(verdict on the reconstruction; the printed Eq. (6) is lost: the reduction at n = 2 holds because "
                      "the reading was built to generalise Eq. (4), so the pass checks the reading's consistency and "
                      "the implementation, not the paper's display).",
            choices=_rc("RC-3", "RC-16", reading="score_s = vec(X_{L-n+2:L})^T W* vec(X_{s-n+1:s-1}), "
                           "s = n..L-1, W* in R^{(n-1)d x (n-1)d}, patches flattened oldest token first",
                           reviewer_R1d="as printed (W* in R^{dxd} on d x (n-1) patches) the score is a matrix; "
                           "consistent readings: vec (used) or Frobenius tr(X_q^T W* X_k) = vec with I kron W*"),
            params={"draws": 6}, variants={"full": Variant(params={"draws": 40})})
def e6_def(ctx) -> Verdict:
    return combine({"n=2 reduces to Eq. (4) [SI]": e6_reduction(),
                    "torch == SymPy [NI]": e6_numeric(ctx.seed, draws=ctx.params["draws"]),
                    "locality [SI]": e6_locality(ctx.seed),
                    "dimensions (R1 d) [NI]": e6_dimensions(ctx.seed)})


# the printed display (verbatim, R2; v3 Thm C.2 Step 1) is in printed.py
PRINTED_VALUE_SCALE_TEXT = printed.VALUE_SCALE_TEXT
PRINTED_ATTENTION_TEXT = printed.ATTENTION_TEXT

NORM_CHOICES = {
    **record("RC-1", "RC-15", "RC-16"),
    "RC-18": "v3 numbering for R2's formula (v3 Thm C.2 = v1 Thm 4.3, App. A.2)",
    "reading": "Step 1 is exact iff (printed value scale) x a_{s-j,s} = e^{-beta(j-1)} for every position s, "
               "so that the group sum is the D.2 kernel sum_h alpha_h e^{-beta_h(j-1)} applied to x_{s-j}",
    "positions": "R2's normaliser sum_{f=1}^{s} (keys j = 1..s, positions 0..s-1) in the symbolic/table part; "
                 "the construction (RC-1, tokens x_1..x_L) has s-1 keys at position s",
    "group kernels": "Lemma D.2 fits (kernels.fit_delta, b_max = 2, nodes b_max k/m)",
}


def _num(expr) -> float:
    return float(sp.N(expr, 30))


def printed_cancellation(scale_expr=None) -> Verdict:
    """Does the value scale (default: the printed Σ_{f=0}^{H_i} e^{-β(f-1)}) cancel Σ_{f=1}^{s} e^{-β(f-1)} for every
    s?  SymPy ratio, then an instance (``scale_expr``: another scale, e.g. a positive control)."""
    generic = (MH.generic(MH.ratio_sym()) if scale_expr is None
               else MH.generic(sp.simplify(scale_expr / MH.Z_sym())))
    inst = {MH.s_: 1, MH.H_: 1, MH.beta_: 1}
    val = sp.nsimplify(sp.simplify(generic.subs(inst)))
    dR = sp.simplify(generic.subs(MH.s_, MH.s_ + 1) - generic)
    if sp.simplify(generic - 1) == 0:
        return proved("symbolic", "printed scale × a = e^{-β(j-1)} identically")
    return refuted("symbolic (SymPy summation) + exact instance",
                   f"ratio R = printed scale/Σ_{{f=1}}^s e^{{-β(f-1)}} = {sp.sstr(generic)} depends on s "
                   f"(R(s+1)−R(s) = {sp.sstr(dR)} ≠ 0); at s=1, H_i=1, β=1: R = {sp.sstr(val)} ≈ {_num(val):.6g} ≠ 1",
                   {"s": 1, "H_i": 1, "beta": 1, "ratio": str(val), "ratio_float": _num(val), "required": 1},
                   ratio=sp.sstr(generic), ratio_step=sp.sstr(dR))


def group_recovery(ms=(2, 4, 8, 12), i_values=(1, 2), s_keys=range(2, 21), b_max: float = 2.0,
                   scale: str = "printed") -> Verdict:
    """Summing the heads of group i (value scale ``scale``, default the printed one): is the kernel ≈ δ_i, i.e. its
    ℓ1 error at every position within the D.2 fit error?"""
    worst, table = None, []
    for i in i_values:
        for m in ms:
            fit = fit_delta(i, m, b_max)
            for sk in s_keys:
                if sk < i:
                    continue
                psi = group_kernel(fit.alpha, fit.beta, sk, scale)
                delta = np.zeros(sk)
                delta[i - 1] = 1.0
                err = float(np.abs(psi - delta).sum())
                table.append({"i": i, "m": m, "keys": sk, f"l1 kernel error ({scale})": err, "D.2 fit l1": fit.l1})
                excess = err - fit.l1 - 1e-12 * (1.0 + fit.alpha_l1)   # float64 rounding of the Σ|α| cancellation
                if worst is None or excess > worst["excess"]:
                    worst = {"i": i, "m_heads": m, "keys": sk, "l1_error_printed": err, "D2_fit_l1": fit.l1,
                             "excess": excess}
    if worst["excess"] > 0:
        return refuted("float64 group kernels from Lemma D.2 fits",
                       f"{scale}-scale group kernel misses δ_i: ℓ1 error {worst['l1_error_printed']:.4g} at i={worst['i']}, "
                       f"m={worst['m_heads']}, {worst['keys']} keys vs D.2 fit error {worst['D2_fit_l1']:.3g}",
                       worst, table=table)
    return holds("float64 group kernels", f"{scale}-scale group kernels within the D.2 error at every position "
                                          f"(max excess {worst['excess']:.2g})", table=table)


def s_independent_values() -> Verdict:
    """Can an s-independent value V_h make Step 1 exact?  Exactness at s and s+1 (s ≥ m keys, distinct β_h, so the
    exponentials are linearly independent) forces V_h = α_h Z_s(β_h) = α_h Z_{s+1}(β_h); SymPy: Z_{s+1} − Z_s."""
    Zg = MH.Z_sym()
    gap = sp.simplify(Zg.subs(MH.s_, MH.s_ + 1) - Zg)
    ok = sp.simplify(gap - sp.exp(-MH.beta_ * MH.s_)) == 0
    z1, z2 = _num(Zg.subs({MH.s_: 1, MH.beta_: 1})), _num(Zg.subs({MH.s_: 2, MH.beta_: 1}))
    if not ok:  # pragma: no cover - SymPy regression guard
        return inconclusive("symbolic", f"Z_(s+1) − Z_s simplified to {gap}, not recognised as e^(-βs)")
    return refuted("symbolic: Z_{s+1} − Z_s = e^{-βs} > 0 (SymPy) + linear independence of distinct exponentials",
                   "no s-independent value makes Step 1 exact: it needs V_h = α_h Z_s(β_h) for every s ≥ m, but Z_s is "
                   f"strictly increasing (Z_(s+1) − Z_s = {sp.sstr(gap)}); e.g. β=1: Z_1 = {z1:.6g}, Z_2 = {z2:.6g}",
                   {"beta": 1, "Z_1": z1, "Z_2": z2, "required": "V_h/Z_s(beta_h) = alpha_h for all s"},
                   gap=sp.sstr(gap))


def position_profile(n: int = 3, m: int = 6, L: int = 24, b_max: float = 2.0, seed: int = 0) -> dict:
    """Per-position ℓ1 kernel error of each block under the three value scalings (is the error dominated by the
    first positions?)."""
    W = MH.random_W(n, 1, 1.0, seed)
    out = {}
    for scale in MH.SCALES:
        c = MH.build(n, 1, W, m, b_max, scale=scale)
        E = MH.block_errors(c, L)
        out[scale] = {f"block {i}": [None if not np.isfinite(v) else float(v) for v in E[i - 1]] for i in range(1, n)}
        out[scale]["argmax position (1-based) per block"] = [int(np.nanargmax(E[i - 1])) + 1 for i in range(1, n)]
        out[scale]["D.2 fit l1 per block"] = [g.l1 for g in c.groups]
    return out


# class reconstruction, not proof_gap (referee 16): the refuted display is reviewer R2's transcription of the v3
# proof (Thm C.2); the audited v1 display (App. A.2 Step I, l.248-253) is lost and whether v1 prints the same display
# is open (spec l.961), so the refutation is about the stand-in (RC-22), not evidence that v1's proof is wrong.
@CLAIMS.add("t43-norm", location="Proof of Thm 4.3, App. A.2 (Step 1 as printed in the paper's v3, quoted verbatim by reviewer R2)", kind=Kind.IDENTITY,
            catalogue_id="IH-T43-norm", expect=Status.REFUTED, finding=Finding.RECONSTRUCTION,
            reason="the stand-in display (v3 Thm C.2 Step 1, R2's transcription; the audited v1 display is lost, "
                   "RC-22): the value scale Σ_{f=0}^{H_i} e^{-β(f-1)} does not cancel the normaliser "
                   "Σ_{f=1}^{s} e^{-β(f-1)} (ratio depends on s; s=1,H_i=1,β=1: e+1 ≈ 3.72) and no s-independent "
                   "value can; with the stationary scale 1/(1−e^{-β}) the step holds up to the D.2 ℓ1 error "
                   "(t43-norm-modified), so Thm 4.3's bound is not refuted (t43-rate). Class reconstruction "
                   "(referee 16; was proof_gap): the algebra on the transcription is exact, but v1's own Step-I "
                   "display does not survive, so this says nothing certain about the audited text",
            statement="Step 1 of the proof (R2, verbatim v3 display) turns each group of first-layer heads into the "
                      "unnormalised exponential kernel S_i Σ_h α_{h,i} e^{-β_{h,i}(j-1)} applied to x_{s-j} at every "
                      "position s (normaliser cancels; the group sum recovers x_{s-i}; values independent of s)."
                      + " (R2's transcription of the v3 display, standing in for the lost v1 display: RC-22; the "
                        "deciding part is algebra on that display alone, RC-1, RC-15, RC-16 enter only the numerical "
                        "group-sum part.)",
            choices={**NORM_CHOICES, "RC-22": RC_DEFAULTS["RC-22"]})
def t43_norm(ctx):
    parts = {"normaliser cancels": printed_cancellation(),
             "group sum recovers x_{s-i}": group_recovery(),
             "s-independent value can be exact": s_independent_values()}
    v = combine(parts, method="R2 Step 1:")
    details = dict(v.details)
    details["table s=1..10, beta in {0.1,1,3}, H_i in {1,2,4,8}"] = MH.ratio_table()
    details["per-position block errors (n=3, m=6, L=24)"] = position_profile(seed=ctx.seed)
    details["modified argument"] = (
        "value scale c_h = α_h/(1−e^{-β_h}) (s-independent) turns group i at a position with s' keys into the "
        "periodised kernel ψ(j) = Σ_{k≥0} φ_i(j + k s'), so ‖ψ − δ_i‖_{ℓ1(1..s')} ≤ ‖φ_i − δ_i‖_{ℓ1(N)} for every "
        "s' ≥ i: the Thm 4.3 bound survives with the D.2 error, uniformly in s (claim t43-norm-modified). "
        "First positions: with the stationary scale the per-position block error grows with s towards the D.2 "
        "ℓ1(N) error (aliasing at small s only removes part of the tail), so the sup error is NOT dominated by the "
        "first positions; with the printed scale the block error is O(10-100) at every position (n=3, m=6).")
    return Verdict(v.status, v.method, v.evidence, v.counterexample, details)


def periodisation_symbolic() -> Verdict:
    """e^{-β(j-1)}/((1−e^{-β}) Z_s) = Σ_{k≥0} e^{-β(j-1+ks)} (geometric series in w = e^{-βs})."""
    w = sp.symbols("w", positive=True)
    Zg = MH.Z_sym()
    lhs = sp.exp(-MH.beta_ * (MH.j_ - 1)) / ((1 - sp.exp(-MH.beta_)) * Zg)
    geo = sp.summation(w ** MH.k_, (MH.k_, 0, sp.oo))
    geo = geo.args[0][0] if isinstance(geo, sp.Piecewise) else geo       # |w| < 1 branch (β, s > 0)
    rhs = sp.exp(-MH.beta_ * (MH.j_ - 1)) * geo.subs(w, sp.exp(-MH.beta_ * MH.s_))
    diff = MH.generic(sp.simplify(lhs - rhs))
    if diff == 0:
        return proved("symbolic (SymPy summation + simplify)",
                      "α/(1−e^{-β}) × e^{-β(j-1)}/Z_s = α Σ_{k≥0} e^{-β(j-1+ks)}: the stationary scale gives the "
                      "kernel periodised with period s (number of keys)")
    return inconclusive("symbolic", f"SymPy left {diff}")


def periodisation_bound(ms=(1, 2, 4, 8, 12), i_values=(1, 2, 3), s_keys=range(1, 41), b_max: float = 2.0,
                        scale: str = "stationary") -> Verdict:
    """Numerically: ℓ1(1..s') error of the stationary-scale group kernel ≤ D.2 fit ℓ1(N) error, all s' ≥ i; and the
    group kernel equals the directly periodised φ."""
    worst_ratio, worst, n_pts, max_id = 0.0, None, 0, 0.0
    for i in i_values:
        for m in ms:
            fit = fit_delta(i, m, b_max)
            size = max(1.0, fit.alpha_l1)
            for sk in s_keys:
                if sk < i:
                    continue
                psi = group_kernel(fit.alpha, fit.beta, sk, scale)
                per = periodized(fit.alpha, fit.beta, sk, n_wrap=int(60 / (min(fit.beta) * sk)) + 5)
                max_id = max(max_id, float(np.abs(psi - per).max()) / size)
                delta = np.zeros(sk)
                delta[i - 1] = 1.0
                err = float(np.abs(psi - delta).sum())
                n_pts += 1
                r = err / fit.l1
                if r > worst_ratio:
                    worst_ratio, worst = r, {"i": i, "m_heads": m, "keys": sk, "l1_position": err, "D2_l1": fit.l1}
    tol = 1e-9
    if max_id > 1e-10:
        return refuted("float64", f"group kernel ≠ periodised φ (max rel dev {max_id:.3g})", {"max_rel_dev": max_id})
    if worst_ratio > 1 + tol and worst["l1_position"] - worst["D2_l1"] > 1e-12:
        return refuted("float64 over positions", f"per-position error exceeds the D.2 error: {worst}", worst)
    return holds(f"float64, {n_pts} (i, m, s') points",
                 f"group kernel = periodised φ (max rel dev {fmt_error(max_id)}); per-position ℓ1 error ≤ D.2 ℓ1(N) error "
                 f"(max ratio {worst_ratio:.6f} at {worst})", worst=worst)


@CLAIMS.add("t43-norm-modified", location="Proof of Thm 4.3, App. A.2 (modified Step 1)", kind=Kind.IDENTITY,
            catalogue_id="IH-T43-norm",
            statement="Modified Step 1 (tool's repair, not the paper's): with the s-independent value scale "
                      "α_h/(1−e^{-β_h}) the heads of group i apply the periodised kernel Σ_{k≥0} φ_i(j + k s') at a "
                      "position with s' keys, so the block error is ≤ ‖φ_i − δ_i‖_{ℓ1(N)} uniformly in s."
                      + " (The tool's repair of the proof on the reconstruction: RC-1, RC-15, RC-16, RC-21.)",
            choices={**NORM_CHOICES, **record("RC-21"), "reading": "the surviving argument for IH-T43-norm"})
def t43_norm_modified(ctx):
    return combine({"periodisation identity": periodisation_symbolic(),
                    "uniform per-position bound": periodisation_bound()}, method="modified Step 1:")


# --- IH-T43-rate --------------------------------------------------------------------------------------------

#: referee P1 (s36): the quick grid had ‖W*‖ = 1 and L = 10 only; now ‖W*‖ ∈ {1, 3} at L = 10 and L = 20 at ‖W*‖ = 1
#: (``extra_L``: sequence lengths run at the first ‖W*‖ only) — about 3× the former cost
RATE_QUICK = dict(ns=(2, 3, 4), ms=tuple(range(1, 13)), L=10, d=2, Wnorms=(1.0, 3.0), n_random=96, steps=15, b_max=5.0,
                  extra_L=(20,))
RATE_FULL = dict(ns=(2, 3, 4), ms=tuple(range(1, 13)), L=16, d=2, Wnorms=(1.0, 3.0), n_random=400, steps=60,
                 b_max=2.0)


def rate_choices(cfg: dict) -> dict:
    return {**record("RC-1", "RC-4", "RC-15", "RC-16", "RC-20", "RC-21"),
            "reading": "|||IH_n − TF||| <= C_{q,n} ||W*|| / H^q for every q (PROSE-ONLY statement)",
            "construction": "multihead.build: n−1 groups × m heads (H = (n−1)m), Lemma D.2 least-squares fits, "
                            "stationary value scale α/(1−e^{-β}) (the printed R2 scale fails, see t43-norm); layer 2: "
                            "one DP head, keys s = n..L−1 (RPE −∞ elsewhere)",
            "b_max": str(cfg["b_max"]), "grid": str({k: cfg[k] for k in ("ns", "ms", "L", "d", "Wnorms", "extra_L") if k in cfg}),
            "sup search": f"superror.sup_error: {cfg['n_random']} ball draws (same for every H) + {cfg['steps']} "
                          "projected Adam steps from 8 starts + the worst sequences of the 4 previous H; token ℓ2 "
                          "ball B = 1, output ℓ∞",
            "rate test": "per n: error vs H, O(H^-4) on the 4 largest H (big_o rule in 1/H), local slopes steepen, "
                         "power vs exponential law by BIC; measured ≤ derived first-order bound"}


def rate43_rows(cfg: dict, seed: int, n: int, wn: float, scale: str = "stationary",
                drop_group: int | None = None) -> list[dict]:
    """Sup-error sweep over m (H = (n−1)m) for one (n, ‖W*‖): JSON rows with the error, bound and norms."""
    rows, pool = [], []
    W = MH.random_W(n, cfg["d"], wn, seed + n)
    for m in cfg["ms"]:
        c = MH.build(n, cfg["d"], W, m, cfg["b_max"], scale=scale,
                     drop_group=drop_group if drop_group is not None and drop_group < n else None)
        # same random draws for every H, plus the worst sequences found at the smaller H as extra starts
        r = sup_error(c.target, c, ball_sampler(cfg["L"], cfg["d"]), seed + n,
                      n_random=cfg["n_random"], adversarial_steps=cfg["steps"],
                      starts=torch.stack(pool[-4:]) if pool else None)
        pool.append(r.X)
        rows.append({"H": (n - 1) * m, "m per group": m, "sup error": r.value,
                     "derived bound": MH.derived_bound(c), **c.param_norms()})
    return rows


def rate43_sweep(cfg: dict, seed: int, scale: str = "stationary", drop_group: int | None = None,
                 store_claim: str | None = None) -> Verdict:
    parts, tables = {}, {}
    # (L, ‖W*‖) pairs: every ‖W*‖ at cfg["L"], and each extra L (cfg["extra_L"]) at the first ‖W*‖
    pairs = [(cfg["L"], wn) for wn in cfg["Wnorms"]] + [(L, cfg["Wnorms"][0]) for L in cfg.get("extra_L", ())]
    for n in cfg["ns"]:
        for L, wn in pairs:
            cfg_L = dict(cfg, L=L)
            compute = lambda n=n, wn=wn, cfg_L=cfg_L: rate43_rows(cfg_L, seed, n, wn, scale, drop_group)
            if store_claim:
                rows = cached(store_claim, {"cfg": cfg_L, "seed": seed, "n": n, "Wnorm": wn, "scale": scale,
                                            "drop_group": drop_group}, compute)
            else:
                rows = compute()
            Hs = [r["H"] for r in rows]
            errs = [max(r["sup error"], 1e-300) for r in rows]
            key = f"n={n}, ||W*||={wn:g}" if L == cfg["L"] else f"n={n}, L={L}, ||W*||={wn:g}"
            tables[key] = rows
            v = tv.with_fixed(superpoly_verdict({"n": n, "||W*||": wn, "L": L}, Hs, errs, seed, param="1/H",
                                                what="sup error"), n=n, W_norm=wn, L=L)
            viol = [r for r in rows if drop_group is None and scale == "stationary"
                    and r["sup error"] > r["derived bound"] * (1 + 1e-9)]
            if viol:
                v = refuted("derived bound", f"{key}: sup error exceeds the derived bound at H={viol[0]['H']}",
                            viol[0], **dict(v.details))
            parts[key] = v
    out = combine(parts, method="Thm 4.3 sweep:")
    details = dict(out.details)
    first = parts[next(iter(parts))]
    details.update({"sweep": first.details.get("sweep"), "fit": first.details.get("fit"), "tables": tables,
                    "C_{q,n} estimates (max_H err·H^q/||W*||)": {
                        k: {f"q={q}": max(r["sup error"] * r["H"] ** q for r in rows) / float(k.split("=")[-1])
                            for q in (1, 2, 4, 6, 8)} for k, rows in tables.items()},
                    "smallest H on the grid with sup error <= eps*||W*||": {
                        k: {f"eps={e:g}": next((r["H"] for r in rows
                                                if r["sup error"] <= e * float(k.split("=")[-1])), None)
                            for e in (0.1, 0.01, 0.001)} for k, rows in tables.items()},
                    "||W*|| factor (err at ||W*||=w / err at ||W*||=1, same direction)": {
                        k: [r["sup error"] / r1["sup error"] for r, r1 in
                            zip(rows, tables[k.rsplit("=", 1)[0] + "=1"])]
                        for k, rows in tables.items() if k.rsplit("=", 1)[0] + "=1" in tables and not k.endswith("=1")},
                    "parameter norms at the largest H": {k: {kk: rows[-1][kk] for kk in
                                                             ("H", "max|alpha|", "max beta", "max|W_V| (value scale)")}
                                                         for k, rows in tables.items()},
                    "structural minimum": "H >= n-1 (one head per kernel group); with a group missing the error "
                                          "stalls (planted twin)",
                    "D scaling": "D = n d used (RC-16); a lower bound on D is not checkable (paper gives none)"})
    return Verdict(out.status, out.method, out.evidence, out.counterexample, details)


@CLAIMS.add("t43-rate", location="Thm 4.3, App. A.2", kind=Kind.RATE, catalogue_id="IH-T43-rate",
            statement="Two-layer H-head transformers without FFNs approximate IH_n with sup error ≤ C_{q,n}‖W*‖/H^q for "
                      "every q and every n ≥ 2 (PROSE-ONLY statement; verdict on the reconstruction: the construction "
                      "uses RC-21's stationary value scale — R2's printed scale fails, t43-norm — and RC-20's layer-2 "
                      "key range). Quick grid n∈{2,3,4}, m=1..12 heads per group, b_max=5, d=2, ‖W*‖∈{1,3} at L=10 and "
                      "L=20 at ‖W*‖=1; full grid n∈{2,3,4}, H=(n−1)·{1..12}, ‖W*‖∈{1,3}, L=16, with the printed-scale "
                      "and dropped-group constructions reported alongside. The H-rate is decided per (n, L, ‖W*‖); the "
                      "linear ‖W*‖ factor and the L-uniformity of C_{q,n} are reported (two values each: the error ratio "
                      "and C_{q,n} estimates), not tested.",
            over=(tv.Over("n", 2, math.inf, integer=True, text="every n >= 2 (patch length n-1)"),),
            choices={**rate_choices(RATE_QUICK), "full profile": str({k: RATE_FULL[k] for k in
                                                                     ("ns", "ms", "L", "d", "Wnorms", "b_max")})},
            # re-audit (issue 17): the quick grid was H = (n-1)·{2..8}, n in {2,3} (0.60 decades of H: inconclusive by
            # the span rule); now m = 1..12 and n = 4 as well (1.08 decades, three n; about 3 s)
            params={"cfg": RATE_QUICK, "store": None, "alternatives": False},
            variants={"full": Variant(params={"cfg": RATE_FULL, "store": "inductionheads.t43-rate-full",
                                              "alternatives": True}, tags={"slow"}, id="t43-rate-full")})
def t43_rate(ctx):
    cfg, sc = dict(ctx.params["cfg"]), ctx.params["store"]
    v = rate43_sweep(cfg, ctx.seed, store_claim=sc)
    if not ctx.params["alternatives"]:
        return v
    small = dict(cfg, ns=(3,), Wnorms=(1.0,), ms=(2, 4, 6, 8, 10, 12))
    details = dict(v.details)
    details["printed R2 value scale (n=3)"] = rate43_sweep(small, ctx.seed, scale="printed", store_claim=sc).to_json()
    details["group 2 dropped (n=3)"] = rate43_sweep(small, ctx.seed, drop_group=2, store_claim=sc).to_json()
    return Verdict(v.status, v.method, v.evidence, v.counterexample, details)
