"""The model from its primitives.  SymPy side: ``symbolic`` (Section 2.1 architecture + Lemma 3 construction,
exact), ``general_n`` (general-n first-step logits as integer quadratic forms), ``step2`` (the second decoding
step), ``pairwise`` (faces and lines of the n = 3 landscape), ``n3_landscape`` / ``appc_landscape`` (the
derived objects the App. B / App. C proofs work with), ``families`` (relation families, Assumptions 1–2,
sequences), ``rates_general_n`` (derived sweep quantities); independent torch side: ``torch_model`` (the full
one-layer model, float64) and ``smoothness`` (float64 derivatives of L1)."""
