"""What the paper prints, transcribed once each (the objects under test; derivations live in ``model/``):
``appb`` (Sec. 4.1, Table 2, Eqs. (4)–(17), Lemmas 5–6, App. B), ``appb2`` (App. B from Lemma 7 on: Lemma 8,
Theorem 4, Claim 1; App. E: Proposition 2, Lemma 12), ``appc`` (App. C: Lemmas 9–11, Theorem 3), ``appcd``
(Eq. (10), the App. C gradient list, App. D: step 2 and Claim 2, App. E's proof), ``construction`` (Lemma 1/3,
Assumptions 1–2, Eq. (18), Section 5's configurations)."""
