"""``pytest -m theorems`` that finds no paper says what to set (held-out author 7, defect 2): run from the folder
above a paper project, with only PYTHONPATH set, it collected 0 items and exited 5 with no word; now one line names
THEORYVERIFY_PAPERS, and with it set the claims are collected.  A session that asks for no paper says nothing."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

INIT = '''import theoryverify as tv

PAPER = tv.Paper(id="hintpaper", title="A paper seen only when named", file="hintpaper.txt", spec="hintpaper.md")
'''

CLAIMS = '''import sympy as sp
import theoryverify as tv

x = sp.Symbol("x", real=True)
CLAIMS = tv.ClaimSet("hintpaper")


@CLAIMS.add("double", location="Eq. 1", statement="x + x = 2 x", kind=tv.Kind.IDENTITY, catalogue_id="HP-E1")
def double(ctx):
    return tv.check_identity(x + x, 2 * x, tv.Domain([tv.Interval(x, -2, 2)]), ctx.seed)
'''


def _project(tmp_path: Path) -> Path:
    project = tmp_path / "hintpaper"
    (project / "hintpaper").mkdir(parents=True)
    (project / "pyproject.toml").write_text('[project]\nname = "hintpaper"\n\n'
                                            '[tool.theoryverify]\npapers = ["hintpaper"]\n')
    (project / "hintpaper" / "__init__.py").write_text(INIT)
    (project / "hintpaper" / "claims").mkdir()
    (project / "hintpaper" / "claims" / "__init__.py").write_text("")
    (project / "hintpaper" / "claims" / "s1.py").write_text(CLAIMS)
    (project / "tests").mkdir()
    (project / "tests" / "test_nothing.py").write_text("def test_nothing():\n    pass\n")
    return project


def _pytest(cwd: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith("THEORYVERIFY_")}
    base.update(PYTHONDONTWRITEBYTECODE="1", **env)
    base["PYTHONPATH"] = os.pathsep.join([str(REPO), *filter(None, [env.get("PYTHONPATH")])])
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=cwd, env=base,
                          capture_output=True, text=True, timeout=300)


def test_theorems_from_the_folder_above_the_project_names_what_to_set(tmp_path):
    _project(tmp_path)
    proc = _pytest(tmp_path, "-m", "theorems", "hintpaper", PYTHONPATH="hintpaper")
    assert proc.returncode == 5, proc.stdout[-2000:]
    hint = [line for line in proc.stdout.splitlines() if line.startswith("theoryverify: no paper collected")]
    assert len(hint) == 1 and "THEORYVERIFY_PAPERS=hintpaper PYTHONPATH=hintpaper" in hint[0], proc.stdout[-2000:]
    named = _pytest(tmp_path, "-m", "theorems", "hintpaper", PYTHONPATH="hintpaper", THEORYVERIFY_PAPERS="hintpaper")
    assert named.returncode == 0 and "1 passed" in named.stdout and "no paper collected" not in named.stdout, \
        named.stdout[-2000:]


def test_a_session_that_asks_for_no_paper_says_nothing(tmp_path):
    project = _project(tmp_path)
    proc = _pytest(project, "tests", PYTHONPATH=".")
    assert proc.returncode == 0 and "theoryverify:" not in proc.stdout, proc.stdout[-2000:]
    proc = _pytest(project, "-m", "theorems", PYTHONPATH=".")  # the project's own folder: its paper is found
    assert proc.returncode == 0 and "1 passed" in proc.stdout and "no paper collected" not in proc.stdout, \
        proc.stdout[-2000:]


def test_theorems_with_no_project_anywhere_gives_the_general_line(tmp_path):
    (tmp_path / "test_plain.py").write_text("def test_plain():\n    pass\n")
    proc = _pytest(tmp_path, "-m", "theorems")
    assert proc.returncode == 5
    hint = [line for line in proc.stdout.splitlines() if line.startswith("theoryverify: no paper collected")]
    assert len(hint) == 1 and "THEORYVERIFY_PAPERS=PACKAGE" in hint[0], proc.stdout[-2000:]
