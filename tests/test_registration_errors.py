"""A paper's claim modules that cannot be registered: one clear line and exit 2, never a traceback — an ``ORDER``
entry with no module, an ``ORDER`` that is not a list of names, and a claim module that raises while registering."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from theoryverify import scaffold

REPO = Path(__file__).resolve().parent.parent
NAME = "tvbadreg"


@pytest.fixture()
def paper(tmp_path):
    target, _ = scaffold.write_paper(NAME, tmp_path)
    return target


def _verify(root: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("THEORYVERIFY_")}
    env.update(PYTHONPATH=os.pathsep.join([str(REPO), str(root)]), THEORYVERIFY_PAPERS=NAME,
               PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-m", "theoryverify", "verify", "--paper", NAME], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("edit, message", [
    (lambda p: (p / NAME / "claims" / "__init__.py").write_text('ORDER = ["s1_main", "s2_gone"]\n'),
     f"{NAME}.claims.ORDER names 's2_gone', but {NAME}.claims has no such module (its modules: s1_main)"),
    (lambda p: (p / NAME / "claims" / "s1_main.py").rename(p / NAME / "claims" / "s3_renamed.py"),  # issue 29
     "claims/__init__.py write ORDER = ['s3_renamed'] or delete the ORDER line"),
    (lambda p: (p / NAME / "claims" / "__init__.py").write_text('ORDER = "s1_main"\n'),
     f"{NAME}.claims.ORDER must be a list of module names"),
    (lambda p: (p / NAME / "claims" / "s2_bad.py").write_text(
        "import theoryverify as tv\nCLAIMS = tv.ClaimSet('tvbadreg')\n\n\n"
        "@CLAIMS.add('eq2', location='Eq. (2)', statement='...')\ndef eq2(ctx):\n    return None\n"),
     f"cannot register the claims of {NAME}.claims.s2_bad at s2_bad.py:5: TypeError"),
])
def test_a_bad_registration_is_one_line_and_exit_2(paper, edit, message):
    edit(paper)
    proc = _verify(paper)
    assert proc.returncode == 2, (proc.stdout, proc.stderr)
    err = proc.stderr.strip().splitlines()
    assert err[-1].startswith("theoryverify: error: ") and message in err[-1], err
    assert "Traceback" not in proc.stderr
