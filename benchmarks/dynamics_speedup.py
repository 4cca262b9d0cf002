"""Batched runner vs a per-configuration Python loop on the IC-recall Stage-2 dynamics.

256 configurations = 16 temperatures × 16 seeds of Algorithm 1's Stage 2 for n = 3 (start on the
face θ̃ = (0,0,0,0,−∞,−∞), ω̃ = 0, ξ uniform in the 13-dim ball of radius T³, η2 = 2T²), the same
number of GD steps each.  The loop trains one configuration per ``train`` call (same code, batch
of 1); the batched run trains all 256 in one call.  Both must give the same final parameters.
Prints the ratio as the last line, e.g. ``speedup: 37.2x``.

Run: ``python benchmarks/dynamics_speedup.py [--steps 400] [--device auto]``; ``--smoke`` runs 2 T × 2 seeds for
5 steps (a seconds-long check that the script still runs, for tests/test_benchmarks.py; its ratio means nothing).
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import torch

from derivations.icrecall.experiments.algorithm1 import FACE_THETA, N3Loss, perturbations
from theoryverify.runner import train


def configs(n_T: int = 16, n_seeds: int = 16):
    T = np.repeat(np.geomspace(0.05, 0.005, n_T), n_seeds)
    seeds = np.tile(np.arange(n_seeds), n_T)
    xi = perturbations(2026, seeds.tolist(), (T**3).tolist())
    theta = np.tile(FACE_THETA, (len(T), 1)) + xi[:, :6]
    omega = xi[:, 6:]
    return T, theta, omega


def run(T, theta, omega, steps, device):
    loss = N3Loss(device=device if device != "auto" else ("cuda" if torch.cuda.is_available() else "cpu"))
    return train(None, {"theta": theta, "omega": omega}, config={"T": T}, steps=steps, lr=2 * T**2,
                 grad=loss.grad, device=device)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--device", default="auto")
    ap.add_argument("--smoke", action="store_true", help="2 T x 2 seeds, 5 steps: does the script still run")
    args = ap.parse_args()
    n_T, n_seeds = (2, 2) if args.smoke else (16, 16)
    if args.smoke:
        args.steps = 5
    T, theta, omega = configs(n_T, n_seeds)
    run(T[:2], theta[:2], omega[:2], 5, args.device)  # warm-up
    t0 = time.perf_counter()
    batched = run(T, theta, omega, args.steps, args.device)
    t_batched = time.perf_counter() - t0
    t0 = time.perf_counter()
    loop = [run(T[i:i + 1], theta[i:i + 1], omega[i:i + 1], args.steps, args.device) for i in range(len(T))]
    t_loop = time.perf_counter() - t0
    th_loop = torch.cat([r.params["theta"] for r in loop])
    same = torch.allclose(batched.params["theta"], th_loop, rtol=1e-12, atol=1e-14)
    print(f"configurations: {len(T)} ({n_T} T x {n_seeds} seeds), steps: {args.steps}, settings: {batched.settings}")
    print(f"batched: {t_batched:.3f} s   loop: {t_loop:.3f} s   same results: {same}")
    if not same:
        raise SystemExit("batched and looped results differ")
    print(f"speedup: {t_loop / t_batched:.1f}x")


if __name__ == "__main__":
    main()
