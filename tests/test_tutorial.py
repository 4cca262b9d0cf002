"""docs/tutorial.md is executed as written: every ``console`` block's ``$`` commands run in order in a fresh
folder, with a fresh virtual environment's ``python`` first on the PATH (layered on this one: tests/venvs.py) and this
checkout first on ``PYTHONPATH``,
and every ``python`` block whose first line is ``# file: PATH`` (a ``latex`` block: ``% file: PATH``) is written to
PATH first.  A command passes
when it exits 0, or with the code a trailing ``# exit N`` comment names.  The tutorial's plain ``pip install -e``
runs offline here: the test turns build isolation off and the index off through pip's environment variables
(``PIP_NO_BUILD_ISOLATION=0`` — pip reads "0" as "no isolation" — and ``PIP_NO_INDEX=1``), the layered environment
already holding setuptools."""
from __future__ import annotations

import os
import re
import subprocess
from importlib import metadata
from pathlib import Path

import pytest

from venvs import clean_env, layered_venv

TUTORIAL = Path(__file__).resolve().parent.parent / "docs" / "tutorial.md"
BLOCK = re.compile(r"```(console|python|latex)\n(.*?)```", re.S)


def steps(text: str) -> list[tuple[str, str]]:
    """("file", path + content) and ("run", command) steps, in the tutorial's order."""
    out = []
    for kind, body in BLOCK.findall(text):
        if kind in ("python", "latex"):
            first, _, rest = body.partition("\n")
            m = re.fullmatch(r"(?:#|%) file: (\S+)", first.strip())
            if m:
                out.append(("file", m.group(1) + "\n" + rest))
        else:
            out += [("run", line[2:]) for line in body.splitlines() if line.startswith("$ ")]
    return out


def test_the_tutorial_has_files_and_commands():
    kinds = [k for k, _ in steps(TUTORIAL.read_text(encoding="utf-8"))]
    assert kinds.count("file") >= 3 and kinds.count("run") >= 8


def test_the_install_line_is_the_plain_one():
    """A fresh venv has no setuptools/wheel for --no-build-isolation ("invalid command 'bdist_wheel'"): the
    tutorial's install line is plain ``pip install -e`` (the offline variant only in prose)."""
    runs = [p for k, p in steps(TUTORIAL.read_text(encoding="utf-8")) if k == "run" and "pip install" in p]
    assert runs and all("--no-build-isolation" not in p and "--no-index" not in p for p in runs), runs


def test_the_tutorial_runs_as_written(tmp_path):
    try:
        metadata.distribution("theoryverify")
    except metadata.PackageNotFoundError:
        pytest.skip("theoryverify is not installed here (entry points need it)")
    python = layered_venv(tmp_path / "venv")
    work = tmp_path / "work"
    work.mkdir()
    # the checkout under test first on the path (as tests/test_example.py does): its engine, not an installed one
    env = clean_env(PATH=f"{python.parent}{os.pathsep}{os.environ.get('PATH', '')}", PYTHONPATH=str(TUTORIAL.parents[1]),
                    PIP_NO_BUILD_ISOLATION="0", PIP_NO_INDEX="1")
    for kind, payload in steps(TUTORIAL.read_text(encoding="utf-8")):
        if kind == "file":
            path, _, content = payload.partition("\n")
            target = work / path
            assert target.parent.is_dir(), f"the tutorial writes {path} into a folder that does not exist"
            target.write_text(content, encoding="utf-8")
            continue
        m = re.search(r"#\s*exit (\d+)", payload)
        want = int(m.group(1)) if m else 0
        proc = subprocess.run(["bash", "-c", payload], cwd=work, env=env, capture_output=True, text=True,
                              timeout=600)
        assert proc.returncode == want, (f"$ {payload}\n(rc {proc.returncode}, expected {want})\n"
                                         f"{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    page = (work / "reports" / "mypaper.md").read_text(encoding="utf-8")
    assert "mypaper.thm1" in page and re.search(r"span [0-9.]+ decades", page) and "Typos" in page
