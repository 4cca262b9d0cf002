"""The phase durations and the regime threshold as printed (Props. 2–4, Thms 1–2, Sec. 5.3; hidden constants 1),
each transcribed once as a SymPy expression in the symbols of ``model/asymptotics.py``; the numeric forms used by the
sweeps are compiled from the same expressions (``sympy.lambdify``), never re-typed."""
from __future__ import annotations

import sympy as sp

from ..model.asymptotics import Delta, K, L, delta, eps, eta

log = sp.log

T_F1 = K * log(K) / (eta * L**2 * Delta**2)                                   # Prop. 2: T_f^1 = Θ(K log K/(ηL²Δ²))
T_FSTAR = K * log(K / eps) / (eta * delta**2 * L**2 * Delta**2)               # Prop. 3, Thm 1, Sec. 5.3 (T_s^1)
T_SSTAR = K * log(K * L * Delta / eps) / (eta * eps * delta**2 * L**2 * Delta**2)   # Prop. 4, Thm 2
THRESHOLD_L = 1 / (Delta * delta)                                             # Thms 1–2, Sec. 4: L ≈ 1/(Δδ)

#: numeric forms (numpy broadcasting), arguments in the order of each signature
T_f1 = sp.lambdify((K, eta, L, Delta), T_F1, "numpy")
T_fstar = sp.lambdify((K, eta, L, Delta, delta, eps), T_FSTAR, "numpy")
T_sstar = sp.lambdify((K, eta, L, Delta, delta, eps), T_SSTAR, "numpy")
threshold_L = sp.lambdify((Delta, delta), THRESHOLD_L, "numpy")
