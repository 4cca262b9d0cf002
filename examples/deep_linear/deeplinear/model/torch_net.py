"""An independent torch model of the network: two bias-free ``nn.Linear`` layers in float64, the summed
squared error ½ Σ_μ ‖y_μ − W2 W1 x_μ‖², and gradients by autograd (no formula shared with ``symbolic``);
:func:`example_loss`, the loss of one example as a function of the weights (for per-example gradients)."""
from __future__ import annotations

import numpy as np
import torch


class TwoLayerLinear(torch.nn.Module):
    def __init__(self, n_in: int, n_hidden: int, n_out: int) -> None:
        super().__init__()
        self.layer1 = torch.nn.Linear(n_in, n_hidden, bias=False, dtype=torch.float64)
        self.layer2 = torch.nn.Linear(n_hidden, n_out, bias=False, dtype=torch.float64)

    def forward(self, x: torch.Tensor) -> torch.Tensor:  # x: (examples, n_in)
        return self.layer2(self.layer1(x))


def autograd_gradients(W1: np.ndarray, W2: np.ndarray, X: np.ndarray, Y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(∂L/∂W1, ∂L/∂W2) by autograd, for data X (in × P) and targets Y (out × P), examples as columns."""
    net = TwoLayerLinear(W1.shape[1], W1.shape[0], W2.shape[0])
    with torch.no_grad():
        net.layer1.weight.copy_(torch.as_tensor(W1))
        net.layer2.weight.copy_(torch.as_tensor(W2))
    out = net(torch.as_tensor(np.asarray(X, dtype=np.float64).T))
    loss = 0.5 * ((torch.as_tensor(np.asarray(Y, dtype=np.float64).T) - out) ** 2).sum()
    loss.backward()
    return net.layer1.weight.grad.numpy().copy(), net.layer2.weight.grad.numpy().copy()


def example_loss(weights: dict[str, torch.Tensor], example: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
    """½‖y − W32 W21 x‖² of one example (x, y), the layers' weights given as {"W21": …, "W32": …} (the forward
    pass of :class:`TwoLayerLinear`, bias-free ``linear`` twice, as a function of its weights)."""
    x, y = example
    out = torch.nn.functional.linear(torch.nn.functional.linear(x, weights["W21"]), weights["W32"])
    return 0.5 * ((y - out) ** 2).sum()
