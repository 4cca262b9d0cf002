"""The worked example (``examples/deep_linear``) works as written, out of tree: installed as its own
distribution, found through its ``theoryverify.papers`` entry point from any working directory, with no
environment variable naming it.

The example is installed (``pip install -e``, offline: ``--no-deps --no-build-isolation --no-index``) from a
temporary copy into a temporary virtual environment layered on this one (tests/venvs.py), never into the
environment running the tests: a test run must not add a fifth paper to the user's next report (issue 30).
Where pip cannot install it the test is skipped with the reason.  Each front-end then runs in that
environment's python, in a subprocess, from a fresh temporary working directory, importing the checkout under
test (``PYTHONPATH`` = the repository root; no ``THEORYVERIFY_*`` variable).
"""
from __future__ import annotations

import json
import shutil
import subprocess
from importlib import metadata
from pathlib import Path

import pytest

from venvs import clean_env, layered_venv

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "deep_linear"
CLAIM_IDS = {"deeplinear.grad-autograd", "deeplinear.grad-expected", "deeplinear.mode-ode", "deeplinear.balance-conserved",
             "deeplinear.trajectory", "deeplinear.travel-time", "deeplinear.t-learn", "deeplinear.mode-order",
             "deeplinear.t-learn-planted"}


def _distributions() -> set[tuple[str, str]]:
    """The distributions this interpreter sees (name, version), read afresh from disk."""
    import importlib

    importlib.invalidate_caches()
    return {(d.metadata["Name"], d.version) for d in metadata.distributions()}


BEFORE = _distributions()


@pytest.fixture(scope="module")
def example_python(tmp_path_factory) -> Path:
    """The python of a temporary environment with the example installed (its own copy: parallel workers and
    the checkout's source folder are left alone)."""
    if not EXAMPLE.is_dir():
        pytest.skip(f"the example is not in this checkout ({EXAMPLE})")
    tmp = tmp_path_factory.mktemp("example")
    source = tmp / "deep_linear"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("*.egg-info", "__pycache__", "build"))
    python = layered_venv(tmp / "venv")
    cmd = [str(python), "-m", "pip", "install", "-q", "-e", str(source), "--no-deps", "--no-build-isolation",
           "--no-index"]
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=clean_env())
    except (OSError, subprocess.TimeoutExpired) as exc:
        pytest.skip(f"cannot install the example with pip: {exc}")
    if done.returncode != 0:
        last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
        pytest.skip(f"cannot install the example with pip (exit {done.returncode}): {last[0]}")
    return python


def _run(python: Path, args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(python), *args], cwd=cwd, env=clean_env(PYTHONPATH=str(ROOT)), capture_output=True,
                          text=True, timeout=240)


def test_verify_finds_and_runs_the_example_from_any_directory(example_python, tmp_path):
    done = _run(example_python, ["-m", "theoryverify", "verify", "--paper", "deeplinear", "--json"], tmp_path)
    assert done.returncode == 0, done.stderr[-2000:] or done.stdout[-2000:]
    rows = json.loads(done.stdout)
    assert {r["id"] for r in rows} == CLAIM_IDS
    assert all(r["as_expected"] for r in rows), [(r["id"], r["status"], r["evidence"]) for r in rows
                                                 if not r["as_expected"]]
    planted = next(r for r in rows if r["id"] == "deeplinear.t-learn-planted")
    assert planted["status"] == "refuted" and planted["finding"] == "typo"
    assert all(r["source"].startswith("deeplinear/claims/") for r in rows)


def test_step_context_of_the_example(example_python, tmp_path):
    ctx = ["-m", "theoryverify.check", "--context", "deeplinear.mode"]
    true = _run(example_python, [*ctx, "tau*diff(u_t, t) == 2*u_t*(s - u_t)"], tmp_path)
    assert true.returncode == 0, true.stdout + true.stderr
    false = _run(example_python, [*ctx, "tau*diff(u_t, t) == u_t*(s - u_t)"], tmp_path)
    assert false.returncode == 1, false.stdout + false.stderr
    assert "refuted" in false.stdout


def test_installing_the_example_leaves_this_environment_alone(example_python):
    assert _distributions() == BEFORE
    done = subprocess.run([str(example_python), "-c", "from importlib import metadata; "
                           "print(metadata.distribution('theoryverify-example-deep-linear').locate_file(''))"],
                          env=clean_env(), capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert Path(done.stdout.strip()).resolve().is_relative_to(example_python.parent.parent.resolve()), done.stdout
