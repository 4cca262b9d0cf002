"""Simulations of the network: teachers with a chosen SVD and initialisations (``teacher``), gradient flow
of the full network with mode strengths and learning times measured along it (``flow``)."""
