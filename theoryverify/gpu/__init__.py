"""GPU sweeps: one command that extends phase-duration and scaling verdicts beyond their CPU range.

``python -m theoryverify.gpu`` runs, for every registered paper that has one, the sweeps listed in its
``experiments/gpu.py`` (``SWEEPS``: :class:`GpuSweep` objects) on ``cuda``, within one wall-time budget, and
writes ``reports/gpu/`` (index, one page and one JSON file per paper, one figure per sweep) naming the
device, the commit, the seed and the wall time.  ``--dry-run`` runs the same code at tiny sizes on the CPU in
seconds (a CI test), so the command cannot rot between the rare sessions that have a GPU.

Modules: :mod:`.sweep` (what a paper writes: GpuSweep, GpuContext, GpuResult), :mod:`.hardware` (what the
device is and its datasheet peaks), :mod:`.runner` (discovery, budgets, the run), :mod:`.pages` (the report).
The engine knows no paper: sweeps come from the paper plugins.
"""
from __future__ import annotations

from .sweep import GpuContext, GpuResult, GpuSweep

__all__ = ["GpuContext", "GpuResult", "GpuSweep"]
