"""Simulators, training loops and sweeps: ``gpu`` (the GPU sweep of ``python -m theoryverify.gpu``), ``dynamics`` (the batched q-space GD simulator), ``phase_measures`` (phase
boundaries and windows), ``phase1`` / ``phase2`` / ``sharp`` (the sweeps of Secs. 5.2–5.3), ``section6`` (the Sec. 6
prompts, the analysed model on them and the Sec. 6 network), ``prop1`` (Prop. 1's families), ``draws`` and ``searches``
(Hypothesis configurations and counterexample searches), ``verdicts`` (verdict helpers shared by several parts)."""
