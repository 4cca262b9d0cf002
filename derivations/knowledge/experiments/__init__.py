"""Experiments of the knowledge paper that need more than the CPU claims: ``gpu`` holds the GPU sweep
(``SWEEPS``) that ``python -m theoryverify.gpu`` runs (issue 20)."""
