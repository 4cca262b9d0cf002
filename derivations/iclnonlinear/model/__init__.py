"""The model from its primitives: ``symbolic`` (SymPy: the token-level softmax of Eq. 6, the population loss Eq. 7 by
enumerating count vectors, −∂L/∂q), ``torch_model`` (the independent token-level torch model, autograd side),
``counts`` (numpy evaluators over count vectors), ``gradients`` (the derived gradient tables g = GHG), ``geometry``
(feature families and task laws), ``families`` (explicit admissible families), ``reduced`` (the exact reduced model of
the symmetric setting), ``asymptotics`` and ``bookkeeping`` (the order algebra of the proof-consistency checks)."""

# the SymPy model's entry points under the package name (tests/test_check_iclnonlinear.py imports them from here)
from .symbolic import attn_aggregates, population, prediction  # noqa: E402,F401
