"""Fresh virtual environments for tests that install a paper package with a real ``pip install -e``:
layered on the running one (its packages visible through a ``.pth`` file), so the install leaves the running
environment untouched, and run with a clean environment (no PYTHONPATH, no THEORYVERIFY_* variable) so that
papers are found by their entry points alone."""
from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from pathlib import Path


def layered_venv(folder: Path) -> Path:
    """A virtual environment in ``folder`` that sees this one's packages; its python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(folder)], check=True)
    python = folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             check=True, capture_output=True, text=True).stdout.strip()
    Path(purelib, "_theoryverify_parent.pth").write_text(
        f"import site; site.addsitedir({sysconfig.get_path('purelib')!r})\n", encoding="utf-8")
    return python


def clean_env(**extra: str) -> dict[str, str]:
    """No PYTHONPATH, no THEORYVERIFY_* variable: the paper must be found by its entry point alone."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH" and not k.startswith("THEORYVERIFY_")}
    return dict(env, MPLBACKEND="Agg", PYTHONDONTWRITEBYTECODE="1", **extra)
