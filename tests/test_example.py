"""The worked example (``examples/deep_linear``) works as written, out of tree: installed as its own
distribution, found through its ``theoryverify.papers`` entry point from any working directory, with no
environment variable naming it.

The example is installed into this interpreter's environment (``pip install -e``, offline: ``--no-deps
--no-build-isolation``) if it is not installed yet; where pip cannot install it the test is skipped with the
reason.  Each front-end then runs in a subprocess from a fresh temporary working directory.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "deep_linear"
DIST = "theoryverify-example-deep-linear"
CLAIM_IDS = {"deeplinear.grad-autograd", "deeplinear.mode-ode", "deeplinear.balance-conserved",
             "deeplinear.trajectory", "deeplinear.travel-time", "deeplinear.t-learn", "deeplinear.mode-order",
             "deeplinear.t-learn-planted"}


def _installed() -> bool:
    try:
        dist = metadata.distribution(DIST)
    except metadata.PackageNotFoundError:
        return False
    return any(ep.group == "theoryverify.papers" and ep.name == "deeplinear" for ep in dist.entry_points)


@pytest.fixture(scope="module")
def example_installed() -> None:
    if not EXAMPLE.is_dir():
        pytest.skip(f"the example is not in this checkout ({EXAMPLE})")
    if _installed():
        return
    cmd = [sys.executable, "-m", "pip", "install", "-q", "-e", str(EXAMPLE), "--no-deps", "--no-build-isolation"]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as exc:
        pytest.skip(f"cannot install the example with pip: {exc}")
    if done.returncode != 0:
        last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        pytest.skip(f"cannot install the example with pip (exit {done.returncode}): {last[0]}")


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("THEORYVERIFY_")}
    return subprocess.run([sys.executable, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=240)


def test_verify_finds_and_runs_the_example_from_any_directory(example_installed, tmp_path):
    done = _run(["-m", "theoryverify", "verify", "--paper", "deeplinear", "--json"], tmp_path)
    assert done.returncode == 0, done.stderr[-2000:] or done.stdout[-2000:]
    rows = json.loads(done.stdout)
    assert {r["id"] for r in rows} == CLAIM_IDS
    assert all(r["as_expected"] for r in rows), [(r["id"], r["status"], r["evidence"]) for r in rows
                                                 if not r["as_expected"]]
    planted = next(r for r in rows if r["id"] == "deeplinear.t-learn-planted")
    assert planted["status"] == "refuted" and planted["finding"] == "typo"
    assert all(r["source"].startswith("deeplinear/claims/") for r in rows)


def test_step_context_of_the_example(example_installed, tmp_path):
    ctx = ["-m", "theoryverify.check", "--context", "deeplinear.mode"]
    true = _run([*ctx, "tau*diff(u_t, t) == 2*u_t*(s - u_t)"], tmp_path)
    assert true.returncode == 0, true.stdout + true.stderr
    false = _run([*ctx, "tau*diff(u_t, t) == u_t*(s - u_t)"], tmp_path)
    assert false.returncode == 1, false.stdout + false.stderr
    assert "refuted" in false.stdout
