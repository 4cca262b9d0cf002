"""The two-layer linear network y = W2 W1 x (the paper's W32 W21), built from its primitives twice:
``symbolic`` (SymPy: loss, gradients by differentiation, the reduction to modes) and ``torch_net`` (an
independent torch module whose gradients come from autograd).  Claims compare the two."""
