"""The paper's standing hypotheses as engine conditions (issue 13 §2), shared by the claims that rest on them.

K ≥ Θ(1/ε) (Sec. 4, after Eq. 9: "for any 0 < ε < 1, suppose N ≥ Θ(K³) and K ≥ Θ(1/ε)"; restated in Thms 1–2)
is read as K·ε ≥ c with the constant c = 2 recorded in the condition.  Why c = 2: it is the constant of the
admissible paths the tool built for exactly these hypotheses (spec claim 51: ε = 2/K; the Thm 2 family at K = 4
uses ε = 0.5 = 2/K), so those stay inside; and the strongest reading for the authors is the one that puts the
most configurations outside — every fixed-K ε-sweep point of this paper (K = 4: Kε ≤ 0.4; K = 16: Kε ≤ 1.6) lies
outside for any c > 1.6, and c = 2 is the largest constant that still keeps the designed paths inside.

Evidence must record K and ε for the engine to check the condition: sweeps over ε pass ``fixed={"K": K}``, sweeps
over N or δ at one ε pass ``fixed={"K": K, "eps": ε}``, paths list ``details["configurations"]``
(``experiments.verdicts.with_configurations``).
"""
from __future__ import annotations

import theoryverify as tv

C_K_EPS = 2.0

K_EPS = tv.Condition(
    "K ≥ c/ε", lambda c: float(c["K"]) * float(c["eps"]) >= C_K_EPS * (1 - 1e-9), needs=("K", "eps"),
    location="standing assumption, Sec. 4 after Eq. 9 ('suppose N ≥ Θ(K³) and K ≥ Θ(1/ε)'); Thms 1–2",
    constants={"c": C_K_EPS})

K_EPS_CHOICE = ("K ≥ Θ(1/ε) read as Kε ≥ c, c = 2: the constant of the admissible paths ε = 2/K (spec claim 51), the "
                "largest that keeps them inside; every fixed-K ε-sweep point (K = 4: Kε ≤ 0.4) lies outside")



# --- the other standing hypotheses (issue 27, item 5), declared the way K ≥ c/ε is -------------------------------
# Read by the admissible-path claims, whose configurations record K, ε, N, δ, c = LΔδ, L, Δ and whether the task law
# is in F (experiments.admissible.path_series).  Constants: the ones the designed paths were built for.

C_N_K3 = 20.0
N_K3 = tv.Condition(
    "N ≥ c·K³", lambda c: float(c["N"]) >= C_N_K3 * float(c["K"]) ** 3, needs=("N", "K"),
    location="Sec. 4 after Eq. 9 ('suppose N ≥ Θ(K³)'); Thms 1–2", constants={"c": C_N_K3})
DELTA_K = tv.Condition(
    "δ < 1/K", lambda c: float(c["delta"]) < 1.0 / float(c["K"]), needs=("delta", "K"),
    location="Lemma 3 (u_k = K(p_k − δ) = Θ(1) needs δ < 1/K); Eq. 9")
FLAT_L = tv.Condition(
    "L ≤ c/(Δδ) (flat)", lambda c: float(c["c"]) <= 1.0 + 1e-12, needs=("c",),
    location="Thm 1 ('L ≤ Θ(1/(Δδ))'), read with c = 1: c = LΔδ recorded per configuration", constants={"c": 1.0})
SHARP_L = tv.Condition(
    "L ≥ c/(Δδ) (sharp)", lambda c: float(c["c"]) > 1.0, needs=("c",),
    location="Thm 2, Prop. 4, Sec. 5.3 ('L = Ω(1/(Δδ))'), read with c > 1", constants={"c": 1.0})
DELTA_O1 = tv.Condition(
    "Δ = Θ(1)", lambda c: 0.25 <= float(c["Delta"]) <= 4.0, needs=("Delta",),
    location="Sec. 3.1 (Δ = Θ(1)), read as Δ ∈ [1/4, 4]", constants={"lo": 0.25, "hi": 4.0})
TASKS_IN_F = tv.Condition(
    "task law in F (Eq. 4)", lambda c: bool(c["law_in_F"]), needs=("law_in_F",),
    location="Eq. 4 and the sentence after it ('as long as f(x) satisfies the property for the same L')")

#: the hypotheses of Thm 1 / Prop. 3 and of Thm 2 / Prop. 4 / Sec. 5.3, for claims decided along the admissible path
FLAT_PATH_HYPOTHESES = (K_EPS, N_K3, DELTA_K, FLAT_L, DELTA_O1, TASKS_IN_F)
SHARP_PATH_HYPOTHESES = (K_EPS, N_K3, DELTA_K, SHARP_L, DELTA_O1, TASKS_IN_F)
