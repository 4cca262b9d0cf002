"""The induction-heads paper's hypotheses, declared as conditions (``theoryverify.conditions``) so that the engine
checks every configuration a verdict rests on against them (issue 27, item 5).

The paper's own hypothesis lines are lost (RC-13: "Let […]" of Thm 5.5; Def. A.7's constants), so each condition
states the reading the project uses and where it comes from:

* α* ∈ (0, 1) — the relative weight of the two target components (§5.1; RC-13);
* w* ∈ (0, 1/2) — the range in which every Gaussian expectation of the C.2 closed forms is finite (derived by
  ``model.head2.admissible_box``: |k| < 1/2, |w| < 1/2; RC-13);
* L ≥ 3 — a sequence long enough to hold an induction pattern (the closed forms are taken for long L);
* g in Def. A.7's class — the POD bases of the similarity g have uniformly bounded norms, Barron norms and Lipschitz
  norms (Def. A.7, second bullet).  ``da7-infinite-rank`` proves that this admits only finite-rank g on a bounded
  domain, so a sweep over g with infinitely many (or growing-Lipschitz) POD terms records ``g_in_A7 = False`` and a
  pass on it is not a pass of Thm 4.4 under its hypotheses.
"""
from __future__ import annotations

import theoryverify as tv

ALPHA_STAR = tv.Condition("α* ∈ (0, 1)", lambda c: 0.0 < float(c["alpha"]) < 1.0, needs=("alpha",),
                          location="§5.1 target (RC-13)")
W_STAR = tv.Condition("w* ∈ (0, 1/2) (the derived admissible range)", lambda c: 0.0 < float(c["w"]) < 0.5,
                      needs=("w",), location="App. C.2 closed forms (RC-13; model.head2.admissible_box)")
L_LONG = tv.Condition("L ≥ 3", lambda c: float(c["L"]) >= 3, needs=("L",), location="§5.1 (sequence length)")
A7_CLASS = tv.Condition("g in Def. A.7's class (POD bases with uniformly bounded norms, Barron and Lipschitz norms)",
                        lambda c: bool(c["g_in_A7"]), needs=("g_in_A7",), location="Def. A.7 (App. A.3.2), Thm 4.4")

_BY_PARAM = {"alpha": ALPHA_STAR, "w": W_STAR, "L": L_LONG}


def for_over(over) -> tuple[tv.Condition, ...]:
    """The conditions on the parameters a claim quantifies over (its ``over``): α*, w*, L where declared."""
    return tuple(_BY_PARAM[o.name] for o in over if o.name in _BY_PARAM)
