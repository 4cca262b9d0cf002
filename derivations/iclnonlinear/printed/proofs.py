"""What the paper prints in the proofs of Lemmas 3–10 and Theorems 1–2 and in Sec. 5.3 / App. F / Sec. 6,
transcribed verbatim (LaTeX rendered in Unicode) with locations, and each asymptotic form as an
:class:`~derivations.iclnonlinear.asymptotics.Order` (the object under test; never "fixed").

Names: ``<result>_<where>`` — STATED (the result as printed), PROOF (the form its proof derives),
USED_IN_<x> (the form a later proof uses).  ``quote`` is verbatim; ``form`` is its transcription.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import sympy as sp

from ..model.asymptotics import OMEGA, THETA, Delta, K, L, O, Order, delta, eps, eta
from .durations import T_F1, T_FSTAR, T_SSTAR

log = sp.log


@dataclass(frozen=True)
class Printed:
    location: str
    quote: str
    form: Mapping[str, Order]


# ---- durations (Props. 2–4, Thms 1–2): transcribed in durations.py ------------------------------------------

DURATIONS = Printed(
    "Prop. 2; Prop. 3; Prop. 4 (Thms 1–2 print the same T_f^*, T_s^*)",
    "T_f^1 = Θ(K log(K)/(η L² Δ²)); T_f^* = Θ(K log(K ε⁻¹)/(η δ² L² Δ²)); "
    "T_s^* = Θ(K log(K L Δ ε⁻¹)/(η ε δ² L² Δ²))",
    {"T_f^1": THETA(T_F1), "T_f^*": THETA(T_FSTAR), "T_s^*": THETA(T_SSTAR)})

P_K = Printed("Sec. 3.1", "with probability p_k, where ε_x = o(1) and p_k = Θ(1/K)", {"p_k": THETA(1 / K)})

# ---- Lemma 3 (App. D.1) ----------------------------------------------------------------------------
LEMMA3_STATED = Printed(
    "Lemma 3, App. D.1",
    "For any t ∈ {1, …, T_f^1}, if x_query = v_k, we have: • Attn_k^(t) = Ω(1/K), • 1 − Attn_k^(t) = Θ(1), "
    "• Attn_n^(t) = Θ((1 − Attn_k^(t))/K) = Θ(1/K) for all n ≠ k.",
    {"Attn_k": OMEGA(1 / K), "1-Attn_k": THETA(1), "Attn_n": THETA(1 / K)})

# ---- Lemma 4 (App. D.1) ----------------------------------------------------------------------------
LEMMA4_STATED = Printed(
    "Lemma 4, App. D.1",
    "For any t ∈ {1, …, T_f^1}, given x_query = v_k, we have: • g_k^(t) = Θ(L²Δ²/K), "
    "• |g_{k,n}^(t)| = O(L²Δ²/K²) for any n ≠ k.",
    {"g_k": THETA(L**2 * Delta**2 / K), "|g_kn|": O(L**2 * Delta**2 / K**2)})

LEMMA4_PROOF_PREMISES = Printed(
    "Lemma 4 proof, App. D.1",
    "By Lemma 3, in Phase I, we have p_k = Θ(1/K), Attn_k^(t) = Θ(1), and 1 − Attn_k^(t) = Θ(1).",
    {"p_k": THETA(1 / K), "Attn_k": THETA(1), "1-Attn_k": THETA(1)})

LEMMA4_PROOF_GK = Printed(
    "Lemma 4 proof, App. D.1",
    "Therefore, g_k^(t) = Θ(1/K · 1 · (1)² · L²Δ²) = Θ(L²Δ²/K).",
    {"g_k": THETA(L**2 * Delta**2 / K)})

LEMMA4_PROOF_CROSS_PREMISES = Printed(
    "Lemma 4 proof, App. D.1",
    "By Lemma 3, Attn_n^(t) = Θ(1/K) and 1 − Attn_k^(t), 1 − Attn_n^(t) = Θ(1), so "
    "|g_{k,n}^(t)| = O(1/K · 1/K · 1 · 1 · L²Δ²) = O(L²Δ²/K²).",
    {"Attn_n": THETA(1 / K), "1-Attn_k": THETA(1), "1-Attn_n": THETA(1), "|g_kn|": O(L**2 * Delta**2 / K**2)})

# ---- Lemma 5 (App. D.1): uses of Lemma 4 and the u_k step -----------------------------------------
LEMMA5_USES_LEMMA4 = Printed(
    "Lemma 5 proof, App. D.1",
    "By Lemma 4, we have g_k^(t) = Θ(L²Δ²/K) for all t in Phase I. Thus, q_k^(T_f^1+1) = q_k^(0) + η Σ_{t=1}^{T_f^1} "
    "g_k^(t) = q_k^(0) + η · T_f^1 · Θ(L²Δ²/K) = Θ(log K) … q_{k,m}^(T_f^1+1) ≤ |q_{k,m}^(0)| + η · T_f^1 · "
    "O(L²Δ²/K²) = O(log K/K).",
    {"g_k": THETA(L**2 * Delta**2 / K), "q_k(T_f^1+1)": THETA(log(K)), "|g_km|": O(L**2 * Delta**2 / K**2),
     "q_km(T_f^1+1)": O(log(K) / K)})

LEMMA5_UK = Printed(
    "Lemma 5 proof, App. D.1",
    "By the concentration condition in Eq. 9, |V_k| ≥ (u_k/K) N for some u_k = Θ(1), and N/|V_k| = Θ(1/δ) "
    "(since δ = o(1) is the imbalance parameter). … where the last equality follows because 1/u_k − 1/K = Θ(δ) "
    "from Eq. 9.",
    {"N/|V_k|": THETA(1 / delta), "1/u_k - 1/K": THETA(delta)})

LEMMA3_UK_DEFINITION = Printed(
    "Lemma 3 proof, App. D.1",
    "Define u_k = K(p_k − δ) and U_k = K(p_k + δ). Then, from the concentration property (see Eq. 9), "
    "|V_k| ∈ [u_k N/K, U_k N/K] for constants u_k, U_k = Θ(1).",
    {"u_k": THETA(1), "U_k": THETA(1)})

UK_REUSES = (
    ("Lemma 6 proof, App. D.2", "|V_k| ≥ u_k N/K with 1/u_k − 1/K = Θ(δ)"),
    ("Lemma 6 proof, App. D.2", "where the last equality uses 1/u_k − 1/K = Θ(δ) from Eq. 9. Thus, "
                                "1 − Attn_k^(t) = O(δ)."),
    ("Lemma 8 proof, App. D.2", "and |V_k| ≥ u_k N/K, with 1/u_k − 1/K = Θ(δ) (see Eq. (7))"),
    ("Lemma 10 proof, App. E.1", "using |V_k| ≥ u_k N/K and 1/u_k − 1/K = Θ(δ)"),
    ("Lemma 10 proof, App. E.1", "which follows because 1/u_k − 1/K = Θ(δ)."),
)

# ---- Lemma 7 (App. D.2) ----------------------------------------------------------------------------
LEMMA6_STATED = Printed(
    "Lemma 6, App. D.2",
    "For any t ∈ {T_f^1+1, …, T_f^*}, given δ = o(1), if x_query = v_k, we have: • Attn_k^(t) = Ω(1/(1+δ)), "
    "• 1 − Attn_k^(t) = O(δ), • Attn_n^(t) = Θ((1 − Attn_k^(t))/K) = Θ(δ/K) for any n ≠ k.",
    {"Attn_k": OMEGA(1 / (1 + delta)), "1-Attn_k": O(delta), "Attn_n": THETA(delta / K)})

LEMMA7_PROOF_PREMISES = Printed(
    "Lemma 7 proof, App. D.2",
    "By Lemma 5 and subsequent results for Phase II, we have p_k = Θ(1/K), Attn_k^(t) = Θ(1), and "
    "1 − Attn_k^(t) = Θ(δ). Therefore, g_k^(t) = Θ(1/K · 1 · δ² · L²Δ²) = Θ(δ²L²Δ²/K).",
    {"p_k": THETA(1 / K), "Attn_k": THETA(1), "1-Attn_k": THETA(delta),
     "g_k": THETA(delta**2 * L**2 * Delta**2 / K)})

LEMMA7_STATED = Printed(
    "Lemma 7, App. D.2",
    "For any t ∈ {T_f^1+1, …, T_f^*} and any fixed k ∈ [K], we have: • g_k^(t) = Θ(δ²L²Δ²/K), "
    "• |g_{k,n}^(t)| = O(δ²L²Δ²/K²) for all n ≠ k.",
    {"g_k": THETA(delta**2 * L**2 * Delta**2 / K), "|g_kn|": O(delta**2 * L**2 * Delta**2 / K**2)})

# ---- Lemma 8 (App. D.2) ----------------------------------------------------------------------------
LEMMA8_STATED = Printed(
    "Lemma 8, App. D.2",
    "At the end of Phase II under the flat L-regime (i.e., t = T_f^*+1), if x_query = v_k, we have: "
    "• q_k^(T_f^*+1) = Θ(log K/ε), • Attn_k^(T_f^*+1) = Ω(1/(1+εδ)), • 1 − Attn_k^(T_f^*+1) = O(εδ).",
    {"q_k": THETA(log(K) / eps), "Attn_k": OMEGA(1 / (1 + eps * delta)), "1-Attn_k": O(eps * delta)})

LEMMA8_PROOF_QK = Printed(
    "Lemma 8 proof, App. D.2",
    "By Lemma 7, we have g_k^(t) = Θ(δ²L²Δ²/K) in Phase II. Thus, q_k^(T_f^*+1) = q_k^(T_f^1) + η · "
    "Θ(L²Δ²δ²/K) · (T_f^* − T_f^1) = Θ(log(K ε⁻¹)) = Θ(log K/ε), where the last step applies the scaling of "
    "T_f^* and the learning rate in the flat L-regime.",
    {"q_k intermediate": THETA(log(K / eps)), "q_k final": THETA(log(K) / eps)})

LEMMA8_PROOF_QKM = Printed(
    "Lemma 8 proof, App. D.2",
    "q_{k,m}^(T_f^*+1) ≤ |q_{k,m}^(T_f^1)| + η · O(δ²L²Δ²/K²) · (T_f^* − T_f^1) = Θ(log(K ε⁻¹)/K).",
    {"q_km": THETA(log(K / eps) / K)})

LEMMA8_PROOF_EXP = Printed(
    "Lemma 8 proof, App. D.2",
    "exp(q_{k,m}^(t) − q_k^(t)) ≤ exp(−Θ(log K)) = O(1/K). … Attn_k^(T_f^*+1) ≥ 1/(O(ε) · O(1/u_k − 1/K) + 1) "
    "= Ω(1/(1+εδ)).",
    {"exp(q_km - q_k)": O(1 / K)})

# ---- Lemma 9 (App. E.1) ----------------------------------------------------------------------------
LEMMA9_STATED = Printed(
    "Lemma 9, App. E.1",
    "For any t ∈ {T_f^*+1, …, T_s^*} and any fixed k ∈ [K], we have: • g_k^(t) = Θ(δ²L²Δ²ε/K), "
    "• |g_{k,n}^(t)| = O(δ²L²Δ²ε/K²) for all n ≠ k.",
    {"g_k": THETA(delta**2 * L**2 * Delta**2 * eps / K), "|g_kn|": O(delta**2 * L**2 * Delta**2 * eps / K**2)})

LEMMA9_PROOF_PREMISES = Printed(
    "Lemma 9 proof, App. E.1",
    "= p_k · E[Attn_k^(t)(1 − Attn_k^(t))² | x_query = v_k] · Θ(L²Δ²), where p_k = Θ(1/K). By Lemma 8, in this "
    "phase Attn_k^(t) = Θ(1) and 1 − Attn_k^(t) = O(εδ).",
    {"p_k": THETA(1 / K), "Attn_k": THETA(1), "1-Attn_k": O(eps * delta)})

LEMMA9_PROOF_GK = Printed(
    "Lemma 9 proof, App. E.1",
    "Therefore, g_k^(t) = Θ(1/K · 1 · (εδ)² · L²Δ²) = Θ(δ²L²Δ²ε²/K).",
    {"g_k": THETA(delta**2 * L**2 * Delta**2 * eps**2 / K)})

LEMMA9_PROOF_CROSS = Printed(
    "Lemma 9 proof, App. E.1",
    "In this phase, Attn_n^(t) = Θ(δ/K), 1 − Attn_n^(t) = Θ(1), and 1 − Attn_k^(t) = O(εδ). Therefore, "
    "|g_{k,n}^(t)| ≤ Θ(1/K · δ/K · εδ · 1 · L²Δ²) = O(δ²L²Δ²ε/K²).",
    {"Attn_n": THETA(delta / K), "1-Attn_n": THETA(1), "1-Attn_k": O(eps * delta),
     "|g_kn|": O(delta**2 * L**2 * Delta**2 * eps / K**2)})

# ---- Lemma 10 (App. E.1) ---------------------------------------------------------------------------
LEMMA10_STATED = Printed(
    "Lemma 10, App. E.1",
    "At the end of Phase II under the sharp L-regime (i.e., at t = T_s^*), if x_query = v_k, we have: "
    "• q_k^(T_s^*) = Θ(log(KLΔ)/ε), • Attn_k^(T_s^*) = Ω(1/(1+εδ)), • 1 − Attn_k^(T_s^*) = O(εδ).",
    {"q_k": THETA(log(K * L * Delta) / eps), "Attn_k": OMEGA(1 / (1 + eps * delta)), "1-Attn_k": O(eps * delta)})

LEMMA10_PROOF_QK = Printed(
    "Lemma 10 proof, App. E.1",
    "By Lemma 9, for t ∈ {T_f^*+1, …, T_s^*}, we have g_k^(t) = Θ(δ²L²Δ²ε/K). Thus, q_k^(T_s^*) = q_k^(T_f^*) + "
    "η · Θ(L²Δ²δ²ε/K) · (T_s^* − T_f^*) = Θ(log(KLΔε⁻¹)), using the total number of updates and the scaling of "
    "T_s^*. (Here, T_s^* − T_f^* = Θ(K log(KLΔε⁻¹)/(L²Δ²δ²ε)).)",
    {"g_k": THETA(delta**2 * L**2 * Delta**2 * eps / K), "q_k intermediate": THETA(log(K * L * Delta / eps)),
     "T_s^* - T_f^*": THETA(K * log(K * L * Delta / eps) / (L**2 * Delta**2 * delta**2 * eps))})

LEMMA10_PROOF_QKM = Printed(
    "Lemma 10 proof, App. E.1",
    "q_{k,m}^(T_s^*) ≤ |q_{k,m}^(T_f^*)| + η · O(δ²L²Δ²ε/K²) · (T_s^* − T_f^*) = Θ(log(KLΔε⁻¹)/K).",
    {"q_km": THETA(log(K * L * Delta / eps) / K)})

# ---- Theorems 1–2 (App. D.3, E.2) ------------------------------------------------------------------
THM1_PROOFSTEP = Printed(
    "Theorem 1 proof, App. D.3",
    "where the last equality uses (1 − Attn_k^(T_f^*+1))² = O(ε²δ²) and L²Δ² = O(1/(Δ²δ²)) · Δ² = O(1/δ²) when "
    "L ≤ Θ(1/(Δδ)), so the δ² cancels, leaving O(ε²).",
    {"(1-Attn_k)^2": O(eps**2 * delta**2), "L^2": O(1 / (Delta**2 * delta**2)), "L^2 Delta^2": O(1 / delta**2),
     "loss": O(eps**2)})

THM1_HYPOTHESIS = Printed("Theorem 1", "Suppose the function class in Eq. 4 satisfies L ≤ Θ(1/(Δδ)).",
                          {"L": O(1 / (Delta * delta))})

THM2_PROOFSTEP = Printed(
    "Theorem 2 proof, App. E.2",
    "L^(T_s^*)(P;Q) = ½ Σ_k E[1{x_query = v_k}(1 − Attn_k^(T_s^*))² Θ(L²Δ²)] = E[(1 − Attn_k^(T_s^*))² Θ(L²Δ²)] "
    "= O(ε²δ²). Under the scaling regime for sharp L, either δ = o(1) or ε = o(1) (since the in-context learning "
    "regime assumes both go to zero), and hence L^(T_s^*)(P;Q) = O(ε²) as required.",
    {"loss step": O(eps**2 * delta**2), "loss": O(eps**2)})

THM2_HYPOTHESIS = Printed("Theorem 2", "Suppose the function class in Eq. 4 satisfies L = Ω(1/(Δδ)).",
                          {"L": OMEGA(1 / (Delta * delta))})

LOSS_DISPLAY = Printed(
    "App. D.3 and App. E.2 (restating Lemma 1)",
    "L(P;Q) = ½ Σ_{k=1}^K E[1{x_query = v_k}(1 − Attn_k^(t))² Θ(L²Δ²)]",
    {"factor": THETA(L**2 * Delta**2)})

# ---- Sec. 5.3 ---------------------------------------------------------------------------------------
SEC53_RATE = Printed(
    "Sec. 5.3",
    "In the sharp curvature regime where L = Ω(1/(Δδ)), the update q_k^(t) increases at a rate of Θ(η/K) for all "
    "t ≤ T_f^*. … Since this early-stage growth (Phase I) mirrors the dynamics under the flat L-regime before "
    "T_f^*, we have T_s^1 = T_f^* = Θ(K log(K ε⁻¹)/(η δ² L² Δ²)).",
    {"rate": THETA(eta / K), "T_s^1": THETA(T_FSTAR)})

PROP2_RATE = Printed("Prop. 2", "the attention weight q_k^(t) increases at a rate of Θ(η L² Δ²/K)",
                     {"rate": THETA(eta * L**2 * Delta**2 / K)})
PROP3_RATE = Printed("Prop. 3", "q_k^(t) continues to grow at a steady rate of Θ(η δ² L² Δ²/K)",
                     {"rate": THETA(eta * delta**2 * L**2 * Delta**2 / K)})

# ---- App. F and App. B: the same residual, two bounds ----------------------------------------------
APPF_LBOUND = Printed(
    "App. F (proof of Prop. 1)",
    "|Σ_{n≠k} Attn_n^(t)(f(v_n) − f(v_k))| ≤ Σ_{n≠k} Attn_n^(t)|f(v_n) − f(v_k)| ≤ Θ(L) · Σ_{n≠k} Attn_n^(t), "
    "where the last inequality is based on the non-degenerate L-Lipschitz in Eq. 4.",
    {"constant": THETA(L)})
APPB_BOUND = Printed(
    "App. B (proof of Lemma 1)",
    "|Σ_{n≠k} Attn_n^(t)(f(v_n) − f(v_k))| = (1 − Attn_k^(t)) · O(LΔ)",
    {"constant": O(L * Delta)})
#: Δ-exponents of the two printed constants (the scaling under test)
APPF_DELTA_EXPONENT = 0
APPB_DELTA_EXPONENT = 1

# ---- Sec. 6 prose (Fig. 1) --------------------------------------------------------------------------
SEC6_SETTING = Printed(
    "Sec. 6",
    "Each task involves learning a cosine function of the form f(x) = (L/c) · cos(c · x), where c > 0 is a random "
    "constant and L is the Lipschitz constant … d = 15, K = 4, N = 100, c = 0.5, and Δ = 3.",
    {})
SEC6_LOSS_VALUES = {
    0.1: ("Sec. 6", "with L = 0.1, the prediction loss rapidly decreases to around 1.0 by epoch t = 40", 1.0),
    1.0: ("Sec. 6", "when L = 1, the prediction loss drops rapidly to approximately 0.6 by t = 30", 0.6),
}
SEC6 = {"d": 15, "K": 4, "N": 100, "c": 0.5, "Delta": 3.0}
