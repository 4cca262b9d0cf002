"""The q-space simulator (dynamics.py) against GD on Q with torch autograd (spec §4.2: the simulator
may be used only after its update is verified against autograd for the feature family in use)."""
from __future__ import annotations

import numpy as np

from theoryverify.checks import check_agreement
from theoryverify.claims import ClaimSet, Kind
from theoryverify.verdicts import combine

from . import dynamics, geometry, torch_model
from .draws import configurations, describe

CLAIMS = ClaimSet("iclnonlinear")
STEPS = 4


def paired(x: dict) -> dynamics.Setting:
    """The configuration's exact population (count enumeration × D_f uniform over its tasks) as a
    simulator setting with tasks paired to the duplicated count samples."""
    base = dynamics.Setting(gram=dynamics.gram(x["V"]), p=x["p"], eta=x["eta"], N=x["N"], exact=True, sigma2=1.0)
    lphi, w = base.prompt_sample()
    T = len(x["tasks"])
    tasks = np.concatenate([np.tile(f, (len(w), 1)) for f in x["tasks"]])

    class _Pop(dynamics.Setting):
        def prompt_sample(self):
            return np.concatenate([lphi] * T), np.concatenate([w] * T) / T
    return _Pop(gram=base.gram, p=x["p"], eta=x["eta"], N=x["N"], tasks=tasks)


def simulated_q(x: dict) -> np.ndarray:
    return dynamics.simulate([paired(x)], STEPS, device="cpu").q[0]


def autograd_q(x: dict, steps: int = STEPS) -> np.ndarray:
    """q after GD on Q from 0 (Eq. 8), ∇_Q L by autograd of the token-level model."""
    V, Q = x["V"], np.zeros((x["V"].shape[0],) * 2)
    for _ in range(steps):
        Q = Q - x["eta"] * torch_model.population_grad(Q, V, x["p"], x["tasks"], x["N"])
    return V.T @ Q.T @ V


def check_simulator(ctx, geometry_kind: str, simulated=simulated_q, n: int = 6):
    strategy = configurations(geometry_kind).map(lambda x: {**x, "eta": stable_eta(x)})
    return check_agreement(simulated, autograd_q, strategy, seed=ctx.seed, rtol=1e-10, n=n, describe=describe)


def stable_eta(x: dict) -> float:
    """η = 0.5 / (1 + max f² ‖G‖²): steps of order one in q whatever the scale of the draw."""
    G = dynamics.gram(x["V"])
    return 0.5 / (1.0 + float(np.abs(x["tasks"]).max()) ** 2 * float(np.linalg.norm(G, 2)) ** 2)


@CLAIMS.add("simulator-autograd", location="Eq. 8, Sec. 5.1, App. C (q-space GD)", kind=Kind.AUTOGRAD,
            catalogue_id="ICLN-DER-gen",
            statement=("GD on Q (Eq. 8) from Q = 0 moves the logit table exactly by q ← q + η G H G, "
                       "H = −∂L/∂q, G = VᵀV: the q-space simulator's trajectory equals autograd GD on Q "
                       f"({STEPS} steps) for every feature family"),
            choices={"population": "exact count enumeration (small N, K) × D_f uniform over the drawn tasks",
                     "eta": "0.5 / (1 + max f² ‖G‖²) (order-one steps in q)",
                     "tolerance": "1e-10 relative to max(1, |q|), elementwise"})
def simulator_autograd(ctx):
    return combine({g: check_simulator(ctx, g) for g in geometry.GEOMETRIES})
