"""The root causes the iclnonlinear findings share (``ClaimSet.add(cause=...)``): the report groups the cards of one
cause together, so that the errata read as the ~10 independent errors of the paper they are, not as ~36.

A claim declares the cause its refutation descends from; a claim with a cause of its own (one finding) declares none.
Tool-made consistency claims (``*-internal``, ``*-sym``: a lemma's proof against the lemmas it cites) stay errata when
the lemma they support is itself refuted inside the hypotheses (a proof gap is a wrong step under a statement that
stands: findings.MEANINGS), and declare the cause of that lemma's erratum, so they are read as one error with it.
"""
from __future__ import annotations

THETA_LOWER = ("Lemmas 1–2 (Eqs. 11–12), Θ lower sides: the residual Σ_{n≠k}Attn_n(f_n − f_k) vanishes while "
               "1 − Attn_k does not — under a task law that ties two features (a point mass, which Eq. 4's 'one "
               "partner' wording admits) or by cancellation for K ≥ 3; under every task law with non-degenerate "
               "covariance the lower sides hold")
PROP1 = ("Prop. 1: a small loss does not force the attention onto the query's feature (Eq. 4 admits task laws that "
         "never separate two features; the total-loss reading at arbitrary Q), so neither Attn_k → 1 nor prediction "
         "on unseen tasks follows")
ORTHONORMAL = ("App. C / Sec. 5.1 use v_{k'}ᵀv_m = 1{k'=m}: for the general (non-orthogonal) features the paper claims "
               "to cover (Sec. 1 (ii), Sec. 3.1) the gradient table is G H G (G = VᵀV), which mixes query classes — "
               "Eq. 12's form, its sign and its upper side fail there")
OFFDIAG = ("Secs. 5.1–5.2, Props. 2–4: 'q_{k,k'} exhibits an overall decreasing trend' — for one fixed task in F or for "
           "general features some q_{k,k'} rise")
PHASE1_START = ("Phase I starts at Attn_k = 1/K, not Θ(1) (Lemma 4's proof cites Lemma 3 for Attn_k = Θ(1); Lemma 3 "
                "gives Ω(1/K)): g_k = Θ(L²Δ²/K²) at the start, so Lemma 4's / Prop. 2's rate Θ(ηL²Δ²/K) and T_f^1 = "
                "Θ(K log K/(ηL²Δ²)) are wrong")
UK_STEP = ("App. D.1, Lemma 5: the step 1/u_k − 1/K = Θ(δ) is false (it tends to 1 − 1/K); Lemmas 6, 8, 10 take "
           "1 − Attn_k = O(δ), O(εδ) from it, and the per-step Phase-II rates (Lemma 7, Prop. 3) fail at the window "
           "start, where 1 − Attn_k = ½")
ABS_EPS = ("Thms 1–2, Props. 3–4, the durations T_f^*, T_s^*: with ε absolute (the reading App. D.3 / E.2 use) the loss "
           "tail after Phase I (l ≈ const/(ηt), independent of L) makes T(ε) a power of K longer than printed")
SEC53 = ("Sec. 5.3, the sharp-regime Phase I: q_k grows at Lemma 4's ηL²Δ²/K (K·g_k ∝ L²), not Θ(η/K), and the "
         "phase does not end at T_s^1 = T_f^*")
SHARP_WINDOW = ("App. E.1–E.2, the sharp window: Lemma 9's single rate over {T_f^*+1, …, T_s^*} (its proof derives ε² "
                "and cites flat-regime Lemma 8) and App. E.2's dropped Θ(L²Δ²) factor")
# typos
APPF_DISPLAY = "App. F, 2nd display (last inequality): Θ(L) written for the bound L·Δ_max that Eq. 4 gives"
LOG_OVER_EPS = "Lemmas 8 and 10, first bullet: log(X/ε) printed as (log X)/ε"
# readings
FORMULA_T1 = ("Prop. 2's T_f^1 + 1 read as the printed time C·K log K/(ηL²Δ²): Phase I has not ended there (Phase I "
              "lasts ≈ K²/(ηL²Δ²): p2-t1), so the end-of-Phase-I statements fail at that time and hold at the "
              "measured end of Phase I")
NO_THRESHOLD = ("Secs. 1, 4, Thms 1–2, the 'phase transition' at L ≈ Θ(1/(Δδ)): the model's GD depends on (η, L) only "
                "through ηL², so there is no threshold, and at one common η a larger L is never slower")
