"""The claims, one module per part of the paper, in the paper's order (``ORDER``):

- ``s3_model``: Sec. 3, the model (Eqs. 5–6, 10, the attention at Q = 0, Lemma 3's Attn formula) and the q-space
  simulator every dynamics claim uses, against autograd GD on Q;
- ``s4_lemma1``: Sec. 4, Lemma 1 (Eq. 11) and its proof (App. B);
- ``s4_concentration``: Sec. 4, Eq. 9 (the concentration set E*);
- ``s4_prop1``: Sec. 4, Prop. 1 and its proof (App. F);
- ``s51_gradients``: Sec. 5.1, Lemma 2 (Eqs. 12–13) and its proof (App. C);
- ``s51_signs``: Sec. 5.1, the signs of g_k and g_{k,k'} along gradient descent;
- ``s5_derivations``: the model facts Secs. 5.2–6 rest on (conserved quantities, the ηL² scaling, the reduced model,
  the late-time law, the gradient at Q = 0) — derivation tasks, not statements of the paper;
- ``s52_flat_phase1``: Sec. 5.2, Prop. 2 and its proof (App. D.1, Lemmas 3–5);
- ``s52_flat_phase2``: Sec. 5.2, Prop. 3 and its proof (App. D.2, Lemmas 6–8), Theorem 1 (Sec. 4) and its proof
  (App. D.3);
- ``s53_sharp``: Sec. 5.3, Prop. 4 and its proof (App. E.1, Lemmas 9–10), Theorem 2 (Sec. 4) and its proof (App. E.2),
  the regime threshold and the Sec. 4 comparison;
- ``s6_experiments``: Sec. 6 and App. A.
"""
ORDER = ["s3_model", "s4_lemma1", "s4_concentration", "s4_prop1", "s51_gradients", "s51_signs", "s5_derivations",
         "s52_flat_phase1", "s52_flat_phase2", "s53_sharp", "s6_experiments"]
