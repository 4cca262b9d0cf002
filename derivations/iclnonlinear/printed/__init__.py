"""What the paper prints, transcribed once: ``displays`` (the displays of Secs. 3–5 and Apps. B–C as functions of the
class aggregates), ``proofs`` (the asymptotic forms of the statements and proofs of Lemmas 3–10, Theorems 1–2,
Sec. 5.3, App. F and Sec. 6, with verbatim quotes), ``durations`` (the phase durations T_f^1, T_f^*, T_s^* and the
threshold 1/(Δδ), one SymPy expression each and its numeric form), ``hypotheses`` (the standing hypothesis
K ≥ Θ(1/ε) as an engine condition)."""
