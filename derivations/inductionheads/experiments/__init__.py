"""Simulations and sweeps: the reduced Stage-II flow (:mod:`.flow`) and its phase markers (:mod:`.markers`), the shared
cached runs of Theorem 5.5 and full-batch GD of the torch model (:mod:`.runs`), the Figure 2 runs (:mod:`.figure2`),
the sup-error search of the approximation theorems (:mod:`.superror`) and the rate rule of their sweeps
(:mod:`.sweeps`), the reconstruction alternatives (:mod:`.alternatives`), the proof-consistency assessment of the
surviving text (:mod:`.consistency`), and small helpers the public API does not offer (:mod:`.support`)."""
