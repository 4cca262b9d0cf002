"""The model from its primitives (spec §2): tokens and reconstruction choices (``setup``), the synthetic data
(``data``), the one-layer transformer in torch with its hand-derived gradients (``transformer``), the same model
in SymPy (``symbolic``), the entropy of the data (``entropy``) and Hypothesis strategies over configurations
(``draws``)."""
