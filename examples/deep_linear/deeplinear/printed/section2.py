"""Sec. 2 and 2.1 of Saxe, McClelland & Ganguli (arXiv:1312.6120v3), transcribed from the paper as its
authors print them (notation kept: s a singular value of the input-output correlation Σ31, u = a·b the
strength of the corresponding mode, u0 its initial value, uf a later value, τ = 1/λ the time constant of
gradient descent with learning rate λ, ε a small initial strength).

Transcribed (Sec. 2, the learning rule): averaged over the P examples, gradient descent with rate λ = 1/τ reads
  τ dW21/dt = W32ᵀ (Σ31 − W32 W21 Σ11),   τ dW32/dt = (Σ31 − W32 W21 Σ11) W21ᵀ,
with Σ11 = E[x xᵀ] the input correlation and Σ31 = E[y xᵀ] the input-output correlation.

Transcribed (Sec. 2.1, "exact solutions to the dynamics of learning from special initial conditions"):

- the mode ODE for balanced initial conditions a = b (so u = a² ≥ 0):      τ du/dt = 2u(s − u);
- the time to travel from u0 to uf, the integral of that ODE:
  t = (τ / 2s) · ln[ uf (s − u0) / (u0 (s − uf)) ];
- the trajectory (the closed-form solution from u(0) = u0):
  u(t) = s e^{2st/τ} / (e^{2st/τ} − 1 + s/u0);
- the learning time of a mode, from a small initial condition u0 = ε until u is within ε of s
  (uf = s − ε), which the paper gives to leading order as ε → 0 (it writes it inside an O(·)):
  t ≈ (τ / s) · ln(s / ε).

The constants are those of the paper: the travel time carries 1/(2s), and with uf = s − ε the logarithm of
(s − ε)²/ε² contributes the second factor 2, so the learning time carries 1/s.  Equation numbers are not
used in claim locations because the paper text is not shipped with this example to confirm them.
"""
import sympy as sp

s, tau, t, u, u0, uf, eps = sp.symbols("s tau t u u0 u_f epsilon", positive=True)

n1, n2, n3 = sp.symbols("N1 N2 N3", integer=True, positive=True)  # input, hidden, output units
W21, W32 = sp.MatrixSymbol("W21", n2, n1), sp.MatrixSymbol("W32", n3, n2)
Sigma11, Sigma31 = sp.MatrixSymbol("Sigma11", n1, n1), sp.MatrixSymbol("Sigma31", n3, n1)

#: τ dW21/dt and τ dW32/dt, the learning rule averaged over examples (Sec. 2)
MEAN_RULE = (W32.T * (Sigma31 - W32 * W21 * Sigma11), (Sigma31 - W32 * W21 * Sigma11) * W21.T)

#: τ du/dt for one mode with balanced initial conditions (Sec. 2.1)
MODE_ODE_RHS = 2 * u * (s - u)

#: time for the mode strength to go from u0 to uf (Sec. 2.1, the integral of the mode ODE)
TRAVEL_TIME = tau / (2 * s) * sp.log(uf * (s - u0) / (u0 * (s - uf)))

#: u(t) from u(0) = u0 (Sec. 2.1, the sigmoidal trajectory)
TRAJECTORY = s * sp.exp(2 * s * t / tau) / (sp.exp(2 * s * t / tau) - 1 + s / u0)

#: time to learn a mode from u0 = ε to uf = s − ε, leading order as ε → 0 (Sec. 2.1)
LEARNING_TIME = tau / s * sp.log(s / eps)
