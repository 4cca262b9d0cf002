"""The claims, one module per part of the paper, in the paper's order (``ORDER``): Sec. 2 (the model and its
gradients), Sec. 3 (the data, its size and entropy), Sec. 5 (Theorem 2: acquisition, extraction, hallucination),
Sec. 6 (the mechanics: pre-training, fine-tuning), Sec. 7 (experiments), App. A (Table 3), App. E (probabilistic
lemmas), App. G (full fine-tuning), App. H (low-rank fine-tuning).  No claims module imports another: what several
share lives in ``experiments/`` and ``model/``."""
ORDER = ["s2_model", "s3_data", "s5_acquisition", "s5_extraction", "s5_hallucination", "s6_pretraining",
         "s6_finetuning", "s7_experiments", "app_a_table3", "app_e_lemmas", "app_g_finetuning", "app_h_lowrank"]
