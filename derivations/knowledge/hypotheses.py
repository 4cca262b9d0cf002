"""The knowledge paper's standing hypotheses, declared as conditions (``theoryverify.conditions``) so that the
engine checks every configuration a verdict rests on against them (issue 27, item 5).  Shared by the claims of
Sec. 6 (pre-training) and App. G (fine-tuning)."""
from __future__ import annotations

import theoryverify as tv

from .experiments import pt_width_early as PWE
from .experiments.pt_runs import SIZES

#: Condition 1(4) through Lemma 10 (which the Stage-I–III proofs use): every block's active fraction ≥ 1/4 needs
#: d|V|e^{−m/8} ≤ δ, i.e. m ≥ 8 log(d|V|/δ) ≈ 83 at the default d = |V| = 58, δ = 0.1 (Condition 1's own constant C is
#: "sufficiently large", lost: 8 is the smallest C Lemma 10's bound allows).
M_COND1 = PWE.m_needed(SIZES["N_f"])
WIDTH_CONDITION = tv.Condition(f"MLP width m ≥ 8 log(d|V|/δ) ≈ {M_COND1:.0f} (Condition 1(4) via Lemma 10; d = |V| = 58, "
                               "δ = 0.1; C lost, 8 the least Lemma 10 allows)", lambda c: float(c["m"]) >= M_COND1,
                               ("m",), location="Condition 1(4); Lemma 10")
