"""Flat regime, Phase I: Prop. 2 and Lemmas 3–5 (App. D.1); spec §3.5 claims 28–41 (not 38, 42).

Every quantity is measured along GD from Q = 0 with the q-space simulator (dynamics.py, verified
against autograd GD on Q) in the symmetric setting of sweeps_phase1.py, on the K grid of spec §4.2 S-K
(N → ∞ and N = 40K³ by multinomial count samples) and the η / L / Δ grids of claim 28 (S-Delta: both Δ
readings).  "Across K" statements are decided by the family rules of spec §3.0 with
theoryverify.scaling.check_rate (margin 0.15, max spread 10): x = 1/K → 0, a Θ(1) ratio is Ω(x⁰) and
O(x⁰), and a ratio tending to 0 (∞) along the grid refutes the lower (upper) side.  Quick variants use
small grids; the ``-full`` variants (tag "slow") the spec grids, through theoryverify.store.

What the model does (derived in sweeps_phase1.py, confirmed by these sweeps to within one step):
T1 = (K² + 3K ln K + O(K))/(η r⁴σ²); g_k rises from r⁴σ²(K−1)/K³ to ≈ r⁴σ²/(8K) over Phase I;
q_{k,m} = −q_k/(K−1) exactly (row sums of q are conserved for orthogonal features).
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from theoryverify.claims import ClaimSet, Kind
from theoryverify.findings import Finding, Readings
from theoryverify.scaling import check_rate, fit_power_law
from theoryverify.verdicts import Status, Verdict, combine, holds, inconclusive, refuted

from . import dynamics as D, sweeps_phase1 as S

CLAIMS = ClaimSet("iclnonlinear")
MARGIN, SPREAD = 0.15, 10.0
RULE_NOTE = ("spec §3.0 via theoryverify.scaling.check_rate(margin=0.15, max_spread=10); across K: x = 1/K, "
             "bounded-below = Ω(x⁰), bounded-above = O(x⁰) (one-sided family rules)")
PRIMARY = "abar>=1/2"
#: registry expectations that differ from the claim's default (per variant, from the measured verdicts).  The
#: quick K grid (6…24) spans 0.6 decades, below the engine's one-decade rule: every across-K rate verdict of
#: the quick profile is inconclusive; the -full variants (K = 4 or 8 … 256) carry the verdict.
#: The full variants' N = 40K³ rows of claims 34, 35, 41 stop at K = 64 (K_finite_other), i.e. K = 8…64 = 0.9
#: decades: a pass resting on them is inconclusive as well.
EXPECT: dict[str, Status | None] = {
    **{k: Status.INCONCLUSIVE for k in ("l5-qk", "p2-t1", "p2-qrate", "l4-gk", "p2-end", "p2-offrate", "l4-gkn",
                                        "l3-b1", "l3-b2", "l3-b3", "l5-qkm")},
    **{k: Status.INCONCLUSIVE for k in ("l3-b2-full", "l3-b3-full", "l5-qkm-full")}}


def _expect(short: str, default: Status | None) -> Status | None:
    return EXPECT.get(short, default)


def _declare(short: str, default: Status | None, finding: Finding | None = None, reason: str | None = None,
             **extra) -> dict:
    """expect= for a variant, with its finding class and reason when that variant is expected refuted."""
    exp = _expect(short, default)
    if exp is Status.REFUTED:
        return {"expect": exp, "finding": finding, "reason": reason, **extra}
    return {"expect": exp}


def _rate(x, y, p, seed, param="1/K", what="y", **kw) -> Verdict:
    return check_rate(x, y, p, MARGIN, seed, param=param, max_spread=SPREAD, what=what, **kw)


def across_K_verdict(K, y, side: str, seed: int, what: str, **kw) -> Verdict:
    """"y bounded below (side='lower': Ω(1)) / above ('upper': O(1)) across K" by the one-sided family rule in
    x = 1/K → 0: a y tending to 0 (∞) along the grid refutes, with the fitted exponent, CI and grid."""
    K = np.asarray(K, float)
    return _rate(1.0 / K, y, 0.0, seed, what=what, bound={"lower": "omega", "upper": "big_o"}[side], **kw)


def _combine(parts: dict[str, Verdict], primary: str) -> Verdict:
    """combine() plus the primary part's sweep/fit at the top level (the report plots them)."""
    v = combine(parts)
    d = dict(v.details)
    pd = parts[primary].details
    for key in ("sweep", "fit"):
        if key in pd:
            d[key] = pd[key]
    d["primary_part"] = primary
    d["choices"] = dict(S.CHOICES)
    return replace(v, details=d)


def _profile_choices(extra: dict | None = None) -> dict:
    c = dict(S.CHOICES)
    c["grids"] = (f"quick: K {S.QUICK['K']} (N → ∞), K {S.QUICK['K_finite']} at N = 40K³ (M = {S.QUICK['M']}, "
                  f"{S.QUICK['seeds']} count-sample seeds); full: K {S.FULL['K']} (N → ∞), K {S.FULL['K_finite']} "
                  f"at N = 40K³ (claim 28; K ≤ {S.FULL['K_finite_other']} for the other claims); base point η = 1, "
                  f"L = {S.L_REF:g}, Δ = {S.DELTA_REF:g} (reading ii)")
    c["bootstrap"] = ("N → ∞ with i.i.d. tasks is deterministic (exact task expectation): paired bootstrap over grid "
                      "points; at N = 40K³ the bootstrap resamples the count-sample seeds within each K")
    c["verdict rule"] = RULE_NOTE
    c["family grid"] = ("full variants: the across-K family rules use K ≥ 8 of the spec grid (K = 4 is pre-asymptotic "
                        "for the exact curves, e.g. (K−1)/K²; the rule's sub-window test flags it); claim 28's T1 fit "
                        "uses every K")
    c.update(extra or {})
    return c


def _rows(profile: str, seed: int, finite: bool, all_K: bool = False):
    """N → ∞ rows, and (finite) the N = 40K³ rows: the claim-28 grid with all_K, else K ≤ K_finite_other (full)."""
    rows = {"N→∞": S.k_sweep_inf(profile)}
    if finite:
        kmax = None if all_K or profile != "full" else S.FULL["K_finite_other"]
        rows["N=40K³"] = S.k_sweep_finite(profile, seed, kmax=kmax)
    kmin = 0 if all_K else K_MIN_FAMILY[profile]
    return {k: tuple(r for r in v if r["K"] >= kmin) for k, v in rows.items()}


#: the across-K family rules of the full variants use K ≥ 8: at K = 4 the exact curves are pre-asymptotic (e.g.
#: K·g_k(0)/(L²Δ²) = (K−1)/K² has local slope 0.78 in 1/K between K = 4 and 8, → 1), which the rule's sub-window
#: test flags as "grid not asymptotic"; the K = 4 point stays in the sweep and in claim 28's T1 fit
K_MIN_FAMILY = {"full": 8, "quick": 0}


def _across_K(rows, key):
    K, y = S.by_K(rows, key)
    return 1.0 / K, y, K


# --- claim 28 ------------------------------------------------------------------------------------------

def t1_K_verdict(K, T1, seed, eta=1.0, L=S.L_REF, Delta=S.DELTA_REF, reading="orthonormal_gaps") -> Verdict:
    """T1 = Θ(K log K): law T1 ≈ C·(1/K)^b·log K (log_power 1), predicted b = −1; ratio vs the formula."""
    K = np.asarray(K, float)
    pred = S.T_f1_formula(K, eta, L, Delta, reading)
    T1 = np.asarray(T1, float)
    free = fit_power_law(K, T1, seed)
    extra = {"free_exponent_T1_in_K": free.exponent, "free_exponent_ci": list(free.ci),
             "local_slopes_T1": list(free.local_slopes),
             "paper_local_slope_1+1/lnK": [float(1 + 1 / np.log(k)) for k in K[1:]],
             "T1_derived": S.T1_derived(K, S.c0_of(eta, L, Delta, reading)).tolist(),
             "exponent_in_K_of_T1/logK": "minus the fitted b"}
    return _rate(1.0 / K, T1, -1.0, seed, what="T1", predicted=pred, log_power=1.0, extra=extra)


def t1_param_verdict(rows, sweep: str, reading: str, seed: int) -> Verdict:
    sel = [r for r in rows if r["sweep"] == sweep and r["reading"] == reading]
    x = np.array([r[{"Delta": "Delta"}.get(sweep, sweep)] for r in sel], float)
    T1 = np.array([r["T1frac"] for r in sel], float)
    K = sel[0]["K"]
    pred = np.array([S.T_f1_formula(K, r["eta"], r["L"], r["Delta"], reading) for r in sel])
    p = -1.0 if sweep == "eta" else -2.0
    c0 = np.array([r["c0"] for r in sel])
    extra = {"reading": reading, "K": K, "c0": c0.tolist(), "T1_derived": S.T1_derived(K, c0).tolist(),
             "derived_exponent": {"eta": -1, "L": -2, "Delta": -6 if reading == "scaled_orthogonal" else -2}[sweep]}
    return _rate(x, T1, p, seed, param=sweep, what="T1", predicted=pred, extra=extra)


def p2_t1(ctx, profile="quick") -> Verdict:
    parts = {}
    for label, rows in _rows(profile, ctx.seed, True, all_K=True).items():
        K, T1 = S.by_K(rows, lambda r: r["T1frac"])
        parts[f"K ({label})"] = t1_K_verdict(K, T1, ctx.seed)
    prow = S.param_sweep(profile)
    for reading in S.READINGS:
        for sw in ("eta", "L", "Delta"):
            parts[f"{sw} ({reading})"] = t1_param_verdict(prow, sw, reading, ctx.seed)
    return _combine(parts, "K (N=40K³)")


_T1_STATEMENT = ("T_f^1 = Θ(K log K/(η L² Δ²)) (Prop. 2): free exponents of T1 (Ā = 1/2 crossing) in K (via "
                 "T1/log K ∝ K^1), η (−1), L (−2), Δ (−2, both Δ readings)")
_T1_ERRATUM = ("Phase I lasts T1 = (K² + 3K ln K + O(K))/(η r⁴σ²) (derived; measured T1/log K ∝ K^1.6 over K = 4…256 at "
               "N → ∞ and N = 40K³), not Θ(K log K/(ηL²Δ²)): g_k starts at Θ(L²Δ²/K²) because Attn_k(0) = 1/K")
for _suffix, _prof, _tags in (("", "quick", set()), ("-full", "full", {"slow"})):
    CLAIMS.add(f"p2-t1{_suffix}", location="Prop. 2 (Sec. 5.2); App. D.1", kind=Kind.RATE,
               catalogue_id="ICLN-P2-T1", statement=_T1_STATEMENT, choices=_profile_choices(), tags=_tags,
               **_declare(f"p2-t1{_suffix}", Status.REFUTED, Finding.ERRATUM, _T1_ERRATUM))(
        lambda ctx, _p=_prof: p2_t1(ctx, _p))


# --- claims 29 / 37: the diagonal rate --------------------------------------------------------------------

def _gk_ratio(r, which, name=PRIMARY, with_eta=False):
    """K·g_k/(L²Δ²) (or K·η g_k/(η L²Δ²), the same number) over the Phase-I window."""
    return r["K"] * r[f"win[{name}]"]["gdiag"][which] / (r["L"] ** 2 * r["Delta"] ** 2)


def diag_rate(ctx, profile: str, claim: str) -> Verdict:
    parts = {}
    for label, rows in _rows(profile, ctx.seed, claim == "qrate" and profile == "full").items():
        x, lo, K = _across_K(rows, lambda r: _gk_ratio(r, "min"))
        _, hi, _ = _across_K(rows, lambda r: _gk_ratio(r, "max"))
        parts[f"lower side, min over Phase I ({label})"] = across_K_verdict(
            K, lo, "lower", ctx.seed, "min_t K g_k/(L²Δ²)",
            extra={"K": K.tolist(), "max_over_window": np.asarray(hi).tolist(),
                   "derived_at_t0 (K−1)/K²": ((K - 1) / K**2).tolist()})
        parts[f"upper side, max over Phase I ({label})"] = across_K_verdict(K, hi, "upper", ctx.seed,
                                                                             "max_t K g_k/(L²Δ²)")
        if claim == "qrate":
            _, mean_rate, _ = _across_K(rows, lambda r: r["K"] * r[f"at_T1[{PRIMARY}]"]["qdiag"] / max(
                r[f"T1[{PRIMARY}]"], 1) / (r["eta"] * S.eta_norm(r["reading"]) * r["L"] ** 2 * r["Delta"] ** 2))
            parts[f"mean rate q_k(T1)/T1 · K/(ηL²Δ²) ({label})"] = _rate(x, mean_rate, 0.0, ctx.seed,
                                                                          what="mean rate ratio", bound="omega")
        else:
            _, spread, _ = _across_K(rows, lambda r: _gk_ratio(r, "max") / _gk_ratio(r, "min"))
            parts[f"within-window spread max/min ({label})"] = _rate(x, spread, 0.0, ctx.seed,
                                                                      what="max_t g_k / min_t g_k", bound="big_o")
    prow = S.param_sweep(profile)
    for reading in S.READINGS:
        sel = [r for r in prow if r["sweep"] == "Delta" and r["reading"] == reading]
        De = np.array([r["Delta"] for r in sel])
        y = np.array([_gk_ratio(r, "mean") for r in sel])
        parts[f"Δ-dependence of K·g_k/(L²Δ²), window mean ({reading})"] = _rate(
            De, y, 0.0, ctx.seed, param="Delta", what="mean_t K g_k/(L²Δ²)",
            extra={"K": sel[0]["K"], "derived_exponent": 4 if reading == "scaled_orthogonal" else 0})
    first = next(iter(parts))
    return _combine(parts, first)


_RATE_ERRATUM = ("g_k(0) = r⁴σ²(K−1)/K³ = Θ(L²Δ²/K²) at the start of Phase I (Attn_k = 1/K there, while Lemma 4's "
                 "proof uses Attn_k = Θ(1)): min over Phase I of K·g_k/(L²Δ²) falls like 1/K over K = 8…256, so the rate "
                 "is not Θ(L²Δ²/K) throughout {1..T_f^1}")
for _suffix, _prof, _tags in (("", "quick", set()), ("-full", "full", {"slow"})):
    CLAIMS.add(f"p2-qrate{_suffix}", location="Prop. 2 (Sec. 5.2)", kind=Kind.RATE, catalogue_id="ICLN-P2-qrate",
               statement=("q_k increases at a rate Θ(ηL²Δ²/K) for t ∈ {1..T_f^1}: K·η g_k(t)/(ηL²Δ²) bounded above "
                          "and below across K and t in the window (and the mean rate q_k(T1)/T1)"),
               choices=_profile_choices(), tags=_tags,
               **_declare(f"p2-qrate{_suffix}", Status.REFUTED, Finding.ERRATUM, _RATE_ERRATUM))(
        lambda ctx, _p=_prof: diag_rate(ctx, _p, "qrate"))
    CLAIMS.add(f"l4-gk{_suffix}", location="Lemma 4 (App. D.1)", kind=Kind.RATE, catalogue_id="ICLN-L4-gk",
               statement=("g_k = Θ(L²Δ²/K) for t ∈ {1..T_f^1}: K·g_k(t)/(L²Δ²) bounded above and below across K, "
                          "and its within-window spread bounded"),
               choices=_profile_choices(), tags=_tags,
               **_declare(f"l4-gk{_suffix}", Status.REFUTED, Finding.ERRATUM, _RATE_ERRATUM))(
        lambda ctx, _p=_prof: diag_rate(ctx, _p, "gk"))


# --- claims 30 / 39: the off-diagonal rate ----------------------------------------------------------------

def off_rate(ctx, profile: str, claim: str) -> Verdict:
    parts = {}
    for label, rows in _rows(profile, ctx.seed, False).items():
        x, y, K = _across_K(rows, lambda r: r["K"] ** 2 * r[f"win[{PRIMARY}]"]["goff_maxabs"]["max"]
                            / (r["L"] ** 2 * r["Delta"] ** 2))
        _, rel, _ = _across_K(rows, lambda r: r[f"win[{PRIMARY}]"]["goff_over_gdiag"]["max"])
        what = ("max_t max_k' |η g_{k,k'}| K²/(ηL²Δ²)" if claim == "offrate" else "max_t max_n |g_{k,n}| K²/(L²Δ²)")
        parts[f"upper bound across K ({label})"] = across_K_verdict(
            K, y, "upper", ctx.seed, what,
            extra={"K": K.tolist(), "max_t |g_off|/g_k (slower than the diagonal)": np.asarray(rel).tolist(),
                   "derived": "|g_{k,m}| = g_k/(K−1) (row sums of g vanish), ≤ r⁴σ²(4/27)/(K−1)²"})
    return _combine(parts, next(iter(parts)))


for _suffix, _prof, _tags in (("", "quick", set()), ("-full", "full", {"slow"})):
    CLAIMS.add(f"p2-offrate{_suffix}", location="Prop. 2 (Sec. 5.2) / Lemma 4", kind=Kind.INEQUALITY,
               catalogue_id="ICLN-P2-offrate",
               statement="q_{k,k'} moves at a rate O(ηL²Δ²/K²): max over Phase I of max_k' |η g_{k,k'}|·K²/(ηL²Δ²) "
                         "bounded across K", choices=_profile_choices(), tags=_tags,
               expect=_expect(f"p2-offrate{_suffix}", None))(
        lambda ctx, _p=_prof: off_rate(ctx, _p, "offrate"))
    CLAIMS.add(f"l4-gkn{_suffix}", location="Lemma 4 (App. D.1)", kind=Kind.INEQUALITY, catalogue_id="ICLN-L4-gkn",
               statement="|g_{k,n}| = O(L²Δ²/K²) in Phase I: max over Phase I of max_n |g_{k,n}|·K²/(L²Δ²) bounded "
                         "across K", choices=_profile_choices(), tags=_tags,
               expect=_expect(f"l4-gkn{_suffix}", None))(
        lambda ctx, _p=_prof: off_rate(ctx, _p, "gkn"))


# --- claim 32: Attn_k at the end of Phase I ----------------------------------------------------------------

def p2_end(ctx, profile="quick") -> Verdict:
    parts = {}
    full = profile == "full"
    for label, rows in _rows(profile, ctx.seed, full).items():
        for name in [n for n in ("abar>=1/2", "qbar>=logK", "knee") if f"T1[{n}]" in rows[0]]:
            x, y, K = _across_K(rows, lambda r: r[f"at_T1[{name}]"]["attn_diag_min"])
            parts[f"Attn_k at detected T1 [{name}] ({label})"] = _rate(
                x, y, 0.0, ctx.seed, what="min_k E[Attn_k] at T1", bound="omega",
                extra={"note": "Ā(T1) ≥ 1/2 by the definition of T1 [abar>=1/2]"})
        for C in (0.1, 1.0, 10.0):
            x, y, K = _across_K(rows, lambda r: r[f"abar_at_{C:g}Tf1"])
            parts[f"Ā at {C:g}·T_f^1-formula ({label})"] = _rate(x, y, 0.0, ctx.seed, what=f"Ā({C:g}·K log K/(ηL²Δ²))",
                                                                 bound="omega", extra={"K": K.tolist()})
        if label == ("N=40K³" if full else "N→∞"):
            x, y, K = _across_K(rows, lambda r: (1 - r[f"at_T1[{PRIMARY}]"]["abar"]) / D.delta_min(S.n_of(r["K"]), r["K"]))
            parts["form used by Lemma 6: 1 − Attn_k(T1+1) = O(δ), δ = δ_min"] = _rate(
                x, y, 0.0, ctx.seed, what="(1 − Ā(T1))/δ_min", bound="big_o",
                extra={"use": "Lemma 6 proof (App. D.2): 'By Proposition 2 (see also Lemma 5), for any t ≥ T_f^1+1, "
                              "Attn_k = Ω(1/(1+δ))', then 1 − Attn_k = O(δ) from the same bound"})
    return _combine(parts, f"Ā at 1·T_f^1-formula ({'N=40K³' if full else 'N→∞'})")


for _suffix, _prof, _tags in (("", "quick", set()), ("-full", "full", {"slow"})):
    CLAIMS.add(f"p2-end{_suffix}", location="Prop. 2 / Lemma 5 (App. D.1)", kind=Kind.DYNAMICS,
               catalogue_id="ICLN-P2-end",
               statement=("Attn_k(T_f^1+1) = Ω(1/(1+δ)): at the detected T1 (each definition) and at t = C·T_f^1 "
                          "(formula, C ∈ {0.1, 1, 10}) across K and N; and the form Lemma 6 uses (1 − Attn_k = O(δ))"),
               choices=_profile_choices({"delta": "δ = δ_min = √(20K/N) at N = 40K³ (quick: Ā(T1) from the N → ∞ "
                                                   "runs, which the N = 40K³ runs match within count noise)"}),
               tags=_tags, **_declare(
                   f"p2-end{_suffix}", Status.REFUTED, Finding.READING,
                   reason=("at the formula time t = C·K log K/(ηL²Δ²) Ā = Θ(1/K) → 0 for every C ∈ {0.1, 1, 10} (K = "
                           "8…256): Phase I has not ended there (p2-t1); at the measured end of Phase I Ā ≥ ½, so "
                           "Ω(1/(1+δ)) holds; the O(δ) form Lemma 6 takes from it fails (l5-uk, l6)"),
                   readings=Readings(
                       tested="t = T_f^1 + 1 is the printed formula time C·K log K/(ηL²Δ²), C ∈ {0.1, 1, 10}",
                       others={"t = T_f^1 + 1 is the measured end of Phase I (first t with mean Attn_k ≥ ½)":
                               "holds: Ω(1/(1+δ)) = Ω(1) there by construction (this claim's detected-T1 parts)",
                               "the form Lemma 6 uses, 1 − Attn_k = O(δ)": "refuted: iclnonlinear.l5-uk"})))(
        lambda ctx, _p=_prof: p2_end(ctx, _p))


# --- claims 33–36: Lemma 3 --------------------------------------------------------------------------------

def per_prompt_min_KA0(profile: str, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """min over the count samples of K·Attn_k(0) = K·|V_k|/N (the Phase-I minimum: q_k − q_{k,m} increases)."""
    g = S.grid(profile)
    Ks, vals = [], []
    for K in [k for k in g["K_finite"] if k >= K_MIN_FAMILY[profile]]:
        v = []
        for s in range(g["seeds"]):
            st = S.setting(K, 1.0, S.L_REF, S.DELTA_REF, "orthonormal_gaps", N=S.n_of(K), M=g["M"],
                           seed=int(np.random.SeedSequence([seed, K, s]).generate_state(1)[0]))
            logphi, _ = st.prompt_sample()
            v.append(float(K * np.exp(logphi).min()))
        Ks.append(K)
        vals.append(v)
    return np.array(Ks, float), np.array(vals)


def l3_b1(ctx, profile="quick") -> Verdict:
    parts = {}
    for label, rows in _rows(profile, ctx.seed, False).items():
        x, y, K = _across_K(rows, lambda r: r["K"] * r[f"win[{PRIMARY}]"]["attn_diag_min"]["min"])
        parts[f"min over Phase I of K·Ā ({label})"] = _rate(x, y, 0.0, ctx.seed, what="min_t K·Ā(t)", bound="omega")
    K, v = per_prompt_min_KA0(profile, ctx.seed)
    parts["per prompt, N=40K³: min over samples of K·Attn_k(0)"] = _rate(1 / K, v, 0.0, ctx.seed, what="min K·Attn_k",
                                                                        bound="omega")
    return _combine(parts, next(iter(parts)))


def l3_b2(ctx, profile="quick") -> Verdict:
    parts = {}
    for label, rows in _rows(profile, ctx.seed, profile == "full").items():
        for name in [n for n in ("abar>=1/2", "qbar>=logK", "knee") if f"T1[{n}]" in rows[0]]:
            x, lo, K = _across_K(rows, lambda r: 1 - r[f"win[{name}]"]["abar"]["max"])
            _, hi, _ = _across_K(rows, lambda r: 1 - r[f"win[{name}]"]["abar"]["min"])
            parts[f"min_t (1 − Ā) [{name}] ({label})"] = _rate(x, lo, 0.0, ctx.seed, what="min_t (1 − Ā(t))",
                                                               bound="omega",
                                                               extra={"max_t (1 − Ā)": np.asarray(hi).tolist()})
            parts[f"max_t (1 − Ā) [{name}] ({label})"] = _rate(x, hi, 0.0, ctx.seed, what="max_t (1 − Ā(t))",
                                                               bound="big_o")
    return _combine(parts, next(iter(parts)))


def l3_b3(ctx, profile="quick") -> Verdict:
    parts = {}
    for label, rows in _rows(profile, ctx.seed, profile == "full").items():
        for key, what in (("K_attn_n_over_1mA_max", "K·Attn_n/(1 − Attn_k)"), ("K_attn_n_max", "K·Attn_n")):
            x, lo, K = _across_K(rows, lambda r: r[f"win[{PRIMARY}]"][key]["min"])
            _, hi, _ = _across_K(rows, lambda r: r[f"win[{PRIMARY}]"][key]["max"])
            parts[f"{what} lower ({label})"] = _rate(x, lo, 0.0, ctx.seed, what=f"min_t {what}", bound="omega",
                                                     extra={"max_t": np.asarray(hi).tolist()})
            parts[f"{what} upper ({label})"] = _rate(x, hi, 0.0, ctx.seed, what=f"max_t {what}", bound="big_o")
    return _combine(parts, next(iter(parts)))


def l3_sym(ctx, profile="quick") -> Verdict:
    parts = {}
    for label, rows in _rows(profile, ctx.seed, profile == "full").items():
        x, lo, K = _across_K(rows, lambda r: r[f"win[{PRIMARY}]"]["K_qoff_maxabs_over_qk"]["min"])
        _, hi, _ = _across_K(rows, lambda r: r[f"win[{PRIMARY}]"]["K_qoff_maxabs_over_qk"]["max"])
        parts[f"magnitude K|q_km|/q_k lower ({label})"] = _rate(x, lo, 0.0, ctx.seed, what="min_t K|q_{k,m}|/q_k",
                                                                bound="omega", extra={"max_t": np.asarray(hi).tolist(),
                                                                                      "derived": (K / (K - 1)).tolist()})
        parts[f"magnitude K|q_km|/q_k upper ({label})"] = _rate(x, hi, 0.0, ctx.seed, what="max_t K|q_{k,m}|/q_k",
                                                                bound="big_o")
        signed = [(r["K"], r[f"win[{PRIMARY}]"]["K_qoff_mean_over_qk"]["max"],
                   r[f"win[{PRIMARY}]"]["qoff_mean"]["max"]) for r in rows]
        worst = max(signed, key=lambda s: s[1])
        m = "sign of q_{k,m} over Phase I (Θ of Sec. 2: C₁|y| < x, so q_{k,m} > 0 is required)"
        if worst[1] < 0:
            parts[f"sign ({label})"] = refuted(
                m, f"q_{{k,m}} < 0 at every recorded t ∈ [1, T1] and every K: max_t K·q_{{k,m}}/q_k = {worst[1]:.4g} "
                   f"(= −K/(K−1) in the symmetric model)",
                {"K": worst[0], "max_t K q_km/q_k": worst[1], "max_t q_km": worst[2], "label": label},
                per_K=[{"K": s[0], "max_t K q_km/q_k": s[1]} for s in signed])
        else:
            parts[f"sign ({label})"] = holds(m, f"some q_{{k,m}} ≥ 0: max K q_km/q_k = {worst[1]:.4g}")
    return _combine(parts, next(iter(parts)))


_L3 = [("l3-b1", "ICLN-L3-b1", Kind.INEQUALITY, l3_b1, "Attn_k = Ω(1/K) in Phase I: min over Phase I of K·Ā(t) "
        "(and of K·Attn_k per prompt at N = 40K³) bounded below across K", None, None),
       ("l3-b2", "ICLN-L3-b2", Kind.DYNAMICS, l3_b2, "1 − Attn_k = Θ(1) in Phase I: min and max of 1 − Ā(t) over "
        "{1..T1} bounded away from 0 and ∞ across K (each T1 definition; knee in the full variant)", None, None),
       ("l3-b3", "ICLN-L3-b3", Kind.DYNAMICS, l3_b3, "Attn_n = Θ((1 − Attn_k)/K) = Θ(1/K), n ≠ k: K·Attn_n/(1 − Attn_k) "
        "and K·Attn_n within constants across K over Phase I", None, None),
       ("l3-sym", "ICLN-L3-sym", Kind.DYNAMICS, l3_sym, "q_{k,m} = Θ(q_k/K) in Phase I (Lemma 3 proof): K·q_{k,m}/q_k "
        "over Phase I across K, sign and magnitude separately", Status.REFUTED,
        "Lemma 3's proof writes q_{k,m} = Θ(q_k/K) but q_{k,m} = −q_k/(K−1) < 0 exactly (row sums of q are conserved "
        "for orthogonal features), which Sec. 2's Θ (C₁|y| < x) excludes; |q_{k,m}| = Θ(q_k/K) holds and the proof's "
        "bound on exp(q_{k,m} − q_k) only gets better with the sign, so no conclusion changes")]
for _short, _cat, _kind, _fn, _stmt, _exp, _err in _L3:
    for _suffix, _prof, _tags in (("", "quick", set()), ("-full", "full", {"slow"})):
        CLAIMS.add(f"{_short}{_suffix}", location="Lemma 3 (App. D.1)", kind=_kind, catalogue_id=_cat,
                   statement=_stmt, choices=_profile_choices(), tags=_tags,
                   **_declare(f"{_short}{_suffix}", _exp, Finding.TYPO, _err))(
            lambda ctx, _p=_prof, _f=_fn: _f(ctx, _p))


# --- claims 40 / 41: Lemma 5 --------------------------------------------------------------------------------

def l5_qk(ctx, profile="quick") -> Verdict:
    parts = {}
    for label, rows in _rows(profile, ctx.seed, profile == "full").items():
        for name in [n for n in ("abar>=1/2", "qbar>=logK", "knee") if f"T1[{n}]" in rows[0]]:
            x, y, K = _across_K(rows, lambda r: r[f"at_T1[{name}]"]["qdiag"])
            parts[f"q_k(T1) [{name}] ({label})"] = _rate(x, y, 0.0, ctx.seed, what="q_k(T1)", log_power=1.0,
                                                         predicted=np.log(K))
    return _combine(parts, next(iter(parts)))


def l5_qkm(ctx, profile="quick") -> Verdict:
    parts = {}
    for label, rows in _rows(profile, ctx.seed, profile == "full").items():
        x, qkm, K = _across_K(rows, lambda r: r[f"at_T1[{PRIMARY}]"]["qoff_maxabs"])
        _, gap, _ = _across_K(rows, lambda r: r[f"at_T1[{PRIMARY}]"]["qdiag"] + r[f"at_T1[{PRIMARY}]"]["qoff_maxabs"])
        _, chain, _ = _across_K(rows, lambda r: r["eta"] * S.eta_norm(r["reading"]) * r[f"T1[{PRIMARY}]"]
                                * r[f"win[{PRIMARY}]"]["goff_maxabs"]["max"])
        parts[f"|q_km(T1)| = O(log K/K) ({label})"] = _rate(
            x, qkm, 1.0, ctx.seed, what="max_m |q_{k,m}(T1)|", log_power=1.0, bound="big_o",
            predicted=np.log(K) / K,
            extra={"proof_bound η·T1·max_t|g_km| (measured T1)": np.asarray(chain).tolist(),
                   "proof_bound_exponent_in_K": -fit_power_law(x, chain, ctx.seed).exponent,
                   "sign": "q_{k,m}(T1) = −q_k/(K−1) < 0"})
        parts[f"q_k − q_km at T1 = Θ(log K) ({label})"] = _rate(x, gap, 0.0, ctx.seed, what="q_k − q_{k,m} at T1",
                                                                 log_power=1.0, predicted=np.log(K))
    return _combine(parts, next(iter(parts)))


for _suffix, _prof, _tags in (("", "quick", set()), ("-full", "full", {"slow"})):
    CLAIMS.add(f"l5-qk{_suffix}", location="Lemma 5 (App. D.1)", kind=Kind.RATE, catalogue_id="ICLN-L5-qk",
               statement="q_k(T_f^1+1) = Θ(log K): q_k at T1 (each definition) against log K across K",
               choices=_profile_choices(), tags=_tags, expect=_expect(f"l5-qk{_suffix}", None))(
        lambda ctx, _p=_prof: l5_qk(ctx, _p))
    CLAIMS.add(f"l5-qkm{_suffix}", location="Lemma 5 proof (App. D.1)", kind=Kind.RATE, catalogue_id="ICLN-L5-qkm",
               statement="q_{k,m}(T_f^1+1) = O(log K/K) and q_k − q_{k,m} = Θ(log K) at the end of Phase I",
               choices=_profile_choices(), tags=_tags, expect=_expect(f"l5-qkm{_suffix}", None))(
        lambda ctx, _p=_prof: l5_qkm(ctx, _p))


# --- claim 31: the off-diagonal trend under every task law ---------------------------------------------------

def p2_offtrend(ctx, profile="quick") -> Verdict:
    Ks = (4,) if profile != "full" else (4, 6)
    cap = 1500 if profile == "full" else 400
    allruns = [r for K in Ks for r in S.offtrend_runs(K, int(np.random.SeedSequence([ctx.seed, K]).generate_state(1)[0]),
                                                       max_steps=cap)]
    return offtrend_verdict(allruns)


def offtrend_verdict(allruns: list[dict]) -> Verdict:
    """Refuted by an admissible setting in which some q_{k,k'} ends Phase I above its start (0), or a per-row mean
    does; holds if every pair and row mean ends below 0 in every setting."""
    runs = [r for r in allruns if "reason" not in r]
    method = ("GD from Q = 0 (q-space simulator) over each setting's Phase I [0, T1], every task law × geometry: "
              "per pair q_{k,k'}(T1) vs q_{k,k'}(0) = 0, per-row mean, sign changes of the increments")
    table = "; ".join(f"K={r['K']} {r['geometry']}/{r['law']}{'' if r['admissible'] else ' (not in F)'}: "
                      f"{r['pairs_increasing_over_phase1']}/{r['pairs']} up, {r['pairs_with_increment_sign_change']} "
                      f"oscillate, row-mean steps up {r['row_mean_steps_up']}" for r in runs)
    bad = [r for r in runs if r["admissible"] and r["pairs_increasing_over_phase1"] > 0]
    rows_ok = all(max(r["row_mean_off_at_T1"]) < 0 for r in runs if r["admissible"])
    osc = sum(r["pairs_with_increment_sign_change"] > 0 for r in runs)
    details = {"per_setting": runs, "skipped": [r for r in allruns if "reason" in r], "choices": _OFFTREND_CHOICES,
               "row_means_all_negative_at_T1": rows_ok, "settings_with_oscillation": osc}
    if bad:
        r = max(bad, key=lambda r: r["max_q_off_at_T1"])
        return refuted(method, f"{len(bad)}/{len(runs)} admissible settings have off-diagonal q_{{k,k'}} that rise "
                               f"over Phase I (max q_{{k,k'}}(T1) = {r['max_q_off_at_T1']:.3g}, {r['geometry']}/{r['law']}); "
                               f"per-row means all < 0: {rows_ok} — " + table,
                       {k: r[k] for k in ("K", "geometry", "law", "T1", "eta", "max_q_off_at_T1",
                                          "pairs_increasing_over_phase1", "acceptance", "c_nd")}, **details)
    if not rows_ok:
        return refuted(method, "a per-row mean of q_{k,k'} ends Phase I above 0 — " + table,
                       {"settings": [r for r in runs if r["admissible"] and max(r["row_mean_off_at_T1"]) >= 0][:1]},
                       **details)
    if not any(r["admissible"] for r in runs):
        return inconclusive(method, "no admissible (in F) setting — " + table, **details)
    return holds(method, "every off-diagonal q_{k,k'} and every row mean ends Phase I below 0 — " + table, **details)


_OFFTREND_CHOICES = {
    "configuration": f"K = 4 (quick; full also K = 6), d = {S.OFF['d']}, N = 40K³ with M = {S.OFF['M']} count samples "
                     f"paired with M task draws, exact query average, Δ = {S.OFF['Delta']:g} (orthonormal: √2), "
                     f"L = {S.OFF['L']:g}, c = {S.COS_C:g}",
    "task laws": "iid N(0,(LΔ)²), iid U[−LΔ/2, LΔ/2], cos-projection, cos-sum (geometry.COS_READINGS), each draw "
                 "rejection-sampled into F (finite-V reading of §3.0 at the law's L, c_nd = 0.5, or c_nd = 0.1 when "
                 "< M of 10⁵ draws pass — cos-projection in d = 15 mostly fails 0.5; recorded per setting); cos-sum is "
                 "deterministic, judged at its own Lipschitz constant on V (constant on V for scaled-orthogonal "
                 "features: skipped, not in F); only admissible settings can refute",
    "geometries": "orthonormal, scaled orthogonal, general (geometry.features)",
    "eta": "1/(E f² λ_max(G)²)",
    "window": "t ∈ [0, T1], T1 = min{t: Ā ≥ 1/2} of each setting (at most 400 steps quick, 1500 full; if not reached "
              "the window is the run, flagged T1 = −1); every step recorded",
    "reading of the claim": "'exhibits an overall decreasing trend' per pair: q_{k,k'}(T1) < q_{k,k'}(0) = 0; "
                            "oscillation (sign changes of increments) is reported, not required ('can oscillate')"}
for _suffix, _prof, _tags in (("", "quick", set()), ("-full", "full", {"slow"})):
    CLAIMS.add(f"p2-offtrend{_suffix}", location="Props. 2–4; abstract", kind=Kind.DYNAMICS,
               catalogue_id="ICLN-P2-offtrend", choices=_OFFTREND_CHOICES, tags=_tags,
               **_declare(f"p2-offtrend{_suffix}", Status.REFUTED, Finding.ERRATUM,
                          ("with the general (non-orthogonal) features the paper claims to cover, under task laws "
                           "rejection-sampled into F (e.g. cos-projection), or one fixed task in F (cos-sum reading), "
                           "some q_{k,k'} rise over Phase I (max q_{k,k'}(T1) = 1.28) and per-row means need not fall; "
                           "only the exchangeable cases (orthogonal features, i.i.d./projection tasks) decrease")),
               statement=("q_{k,k'} oscillates at a slower rate and exhibits an overall decreasing trend over Phase I "
                          "(every pair; per-row mean; sign changes of increments), under every task law"))(
        lambda ctx, _p=_prof: p2_offtrend(ctx, _p))
