"""The paper's displays that claims check, each transcribed exactly once as SymPy.

Claims compare these transcriptions with what ``model/`` derives from the network's primitives and with what
``experiments/`` measures; nothing else in the package re-types a display.  ``section2`` holds the paper's
own displays; ``planted`` holds the one deliberately wrong display of this example (not in the paper).
"""
from .section2 import (LEARNING_TIME, MEAN_RULE, MODE_ODE_RHS, TRAJECTORY, TRAVEL_TIME, W21, W32, Sigma11, Sigma31,
                       eps, s, t, tau, u, u0, uf)

__all__ = ["LEARNING_TIME", "MODE_ODE_RHS", "TRAJECTORY", "TRAVEL_TIME", "eps", "s", "t", "tau", "u", "u0", "uf",
           "MEAN_RULE", "W21", "W32", "Sigma11", "Sigma31"]
