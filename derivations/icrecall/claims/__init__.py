"""The claims, one module per part of the paper, in the paper's order: Sec. 2 (Assumptions, the model and its
gradients), Sec. 3 (Lemma 1 / the construction), Sec. 4.1 (the warm-up), Sec. 4.2 (Theorem 3 and Theorem 1),
Sec. 4 (the sample-size remark), Sec. 4.3 (Lemma 2), Sec. 5 (experiments), App. B (Table 2, Lemma 5, Lemma 6,
the n = 3 dynamics of Theorems 2/4, smoothness and rates, Lemmas 7–8, Theorem 4's proof, statement-level
entries), App. C (Lemma 9, its rates, Lemma 10, Lemma 11), App. D (the second step), App. E (Proposition 2)."""
ORDER = ["s2_assumptions", "s2_model_autograd", "s3_construction", "s41_warmup", "s42_theorem3", "s4_polylog",
         "s43_lemma2", "s5_experiments", "b_table2", "b_lemma5", "b_lemma6", "b_dynamics", "b_rates", "b_lemma7_8",
         "b_theorem4", "b_statements", "c_lemma9", "c_lemma9_rates", "c_lemma10", "c_lemma11", "d_step2", "e_prop2"]
