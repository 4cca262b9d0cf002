"""What tests/conftest.py sets for the whole test session and the processes it starts."""
import os
import subprocess
import sys


def test_test_processes_skip_hypothesis_entry_point_plugins():
    """No Hypothesis entry-point plugin is loaded by the test session or the Python processes it starts (trio's,
    brought by selenium, imports trio.testing and pytest: 0.2 CPU-s per process, in ~100 processes a run)."""
    assert os.environ.get("HYPOTHESIS_NO_PLUGINS") == "1"
    out = subprocess.run([sys.executable, "-c", "import sys, hypothesis; print('trio' in sys.modules)"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0 and out.stdout.strip() == "False", out.stderr
