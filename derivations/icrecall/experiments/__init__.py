"""Simulators, training loops and sweeps: ``algorithm1`` (Algorithm 1 for n = 3, batched), ``stage2_dynamics``
(Algorithm 1 for general n on exact key-merged populations), ``sample_size`` (|D| sweeps), ``theorem3``
(Theorems 3 and 1 across families, n and T), ``section5`` (the Section 5 Adam experiments), ``appc_sweeps``
(shared App. C sweeps), ``util`` (numerical and formatting utilities)."""
