"""Experiments of the nonlinear-regression ICL paper (simulators and sweeps); ``gpu.py``: the GPU sweep."""
