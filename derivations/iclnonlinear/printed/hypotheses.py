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

