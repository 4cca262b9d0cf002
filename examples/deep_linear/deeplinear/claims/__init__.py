"""The claims, one module per part of the paper, in the paper's order (``ORDER``): Sec. 2, the gradient
dynamics and their reduction to modes; Sec. 2.1, the exact solution from balanced initial conditions; Sec. 2.1,
the timescales of learning (and the planted erratum of this example)."""
ORDER = ["s2_dynamics", "s21_exact", "s21_timescales"]
