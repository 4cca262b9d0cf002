"""``python -m theoryverify new-paper``: the package it writes, what it refuses, and — after a real
``pip install -e`` into a fresh virtual environment layered on this one — every front-end seeing the paper
from another working directory with no environment variable: ``verify``, ``report``, ``check``, and pytest
in the paper's folder (the plugin's ``-m theorems`` item and the planted-error test).  The scaffolded checks
can fail: a wrong coefficient planted in the printed display is refuted by ``verify`` and by the pytest item,
and a check that cannot fail is caught by the planted-error test."""
from __future__ import annotations

import ast
import shutil
import subprocess
import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from theoryverify import cli, scaffold
from venvs import clean_env, layered_venv

NAME = "tvscaffolded"
LAYOUT = {
    ".gitignore", "README.md", "pyproject.toml", "tests/test_planted.py",
    f"{NAME}/__init__.py", f"{NAME}/contexts.py", f"{NAME}/claims/__init__.py", f"{NAME}/claims/s1_main.py",
    f"{NAME}/printed/__init__.py", f"{NAME}/printed/s1_main.py", f"{NAME}/model/__init__.py",
    f"{NAME}/model/linear.py", f"{NAME}/experiments/__init__.py",
}


def test_the_package_has_the_uniform_layout_and_valid_files():
    title = 'On "quoted" titles \\ with_underscores *and* stars'
    files = scaffold.render_paper(NAME, title)
    assert set(files) == LAYOUT
    for rel, text in files.items():
        assert "{{" not in text, rel
        if rel.endswith(".py"):
            compile(text, rel, "exec")
    project = tomllib.loads(files["pyproject.toml"])["project"]
    assert project["description"] == title and project["entry-points"]["theoryverify.papers"] == {NAME: NAME}
    init = ast.parse(files[f"{NAME}/__init__.py"])
    literals = [kw.value.value for node in ast.walk(init) if isinstance(node, ast.Call) for kw in node.keywords
                if kw.arg == "title"]
    assert literals == [title]
    assert files["README.md"].startswith("# On \"quoted\" titles \\\\ with\\_underscores \\*and\\* stars\n")


def test_the_readme_names_the_variables_the_report_and_papers_name():
    from theoryverify import catalogue, inputs

    files = scaffold.render_paper(NAME)
    text = files["README.md"] + files[f"{NAME}/__init__.py"]
    named = {inputs.Input.variable.fget(type("I", (), {"kind": k})()) for k in ("text", "catalogue")}
    assert named == {catalogue.PAPERS_DIR_ENV, catalogue.SPEC_DIR_ENV}
    for var in named:
        assert f"${var}" in text
    assert catalogue.PAPERS_PATH_ENV not in text and catalogue.SPEC_PATH_ENV not in text


def test_the_placeholder_model_is_named_in_one_file_only(tmp_path):
    """Every other file imports the model through ``model/__init__.py`` as ``model``: replacing the placeholder
    changes one line there (planted: a file that imports ``model.linear`` directly is caught)."""
    import sys

    files = scaffold.render_paper(NAME)
    naming = sorted(rel for rel, text in files.items() if rel.endswith(".py") and "linear" in text
                    and rel != f"{NAME}/model/linear.py")
    assert naming == [f"{NAME}/model/__init__.py"], naming
    planted = dict(files)
    planted[f"{NAME}/contexts.py"] += "\nfrom .model import linear  # planted\n"
    assert len([r for r, t in planted.items() if "linear" in t and r.endswith(".py")]) == 3
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    model = tmp_path / NAME / "model"
    (model / "linear.py").rename(model / "mine.py")  # the author's own model module, under another name
    init = (model / "__init__.py").read_text().replace("from .linear import", "from .mine import")
    (model / "__init__.py").write_text(init)
    code = (f"import theoryverify as tv; from {NAME}.claims.s1_main import CLAIMS; import {NAME}.contexts; "
            "print(*(c.run(tv.RunContext(seed=0)).verdict.status.value for c in CLAIMS))")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert out.stdout.split() == ["proved", "refuted"], out.stderr[-2000:]


@pytest.mark.parametrize("name", ["Bad", "my-paper", "1paper", "class", "match", "json", "sympy",
                                  "theoryverify", "tests", "icrecall", "trailing_", "", "a" * 65])
def test_invalid_names_are_refused_with_one_line(name, tmp_path, capsys):
    assert cli.main(["new-paper", name, "--dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("theoryverify: error: ") and err.count("\n") == 1
    assert not any(tmp_path.iterdir())


def test_an_existing_folder_is_refused_unless_empty(tmp_path, capsys):
    (tmp_path / NAME).mkdir()
    (tmp_path / NAME / "mine.txt").write_text("keep me")
    assert cli.main(["new-paper", NAME, "--dir", str(tmp_path)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert [p.name for p in (tmp_path / NAME).iterdir()] == ["mine.txt"]
    assert cli.main(["new-paper", NAME, "--dir", str(tmp_path / "new"), "--title", "bad\ntitle"]) == 2
    assert not (tmp_path / "new").exists()
    (tmp_path / "empty" / NAME).mkdir(parents=True)
    assert cli.main(["new-paper", NAME, "--dir", str(tmp_path / "empty")]) == 0
    assert f"wrote {tmp_path / 'empty' / NAME} (13 files" in capsys.readouterr().out


# --- a real install ---------------------------------------------------------------------------------

_layered_venv, _clean_env = layered_venv, clean_env


def _run_all(commands: dict[str, tuple[list[str], Path]]) -> dict[str, subprocess.CompletedProcess]:
    """Run the commands side by side (each in its working directory); their completed processes by name."""
    env = _clean_env()
    procs = {k: (subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True),
                 cmd) for k, (cmd, cwd) in commands.items()}
    out = {}
    for k, (proc, cmd) in procs.items():
        stdout, stderr = proc.communicate(timeout=300)
        out[k] = subprocess.CompletedProcess(cmd, proc.returncode, stdout, stderr)
    return out


def _show(p: subprocess.CompletedProcess) -> str:
    return f"$ {' '.join(map(str, p.args))}\n(rc {p.returncode})\n{p.stdout[-3000:]}\n{p.stderr[-3000:]}"


def test_new_paper_installs_and_every_front_end_sees_it(tmp_path):
    try:
        metadata.distribution("theoryverify")
    except metadata.PackageNotFoundError:
        pytest.skip("theoryverify is not installed here (the pytest plugin and the entry points need it)")
    python = _layered_venv(tmp_path / "venv")
    papers, elsewhere = tmp_path / "papers", tmp_path / "elsewhere"
    elsewhere.mkdir()
    new = subprocess.run([str(python), "-m", "theoryverify", "new-paper", NAME, "--dir", str(papers),
                          "--title", "A scaffolded paper"], env=_clean_env(), capture_output=True, text=True)
    assert new.returncode == 0, _show(new)
    root = papers / NAME
    install = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-build-isolation", "--no-index",
                              "-e", str(root)], env=_clean_env(), capture_output=True, text=True)
    assert install.returncode == 0, _show(install)

    py = [str(python), "-m"]
    ran = _run_all({
        "verify": (py + ["theoryverify", "verify", "--paper", NAME], elsewhere),
        "report": (py + ["theoryverify.report", "--paper", NAME, "--out", str(elsewhere / "rep")], elsewhere),
        "check": (py + ["theoryverify.check", "--context", f"{NAME}.main", "diff(L, w) == (w*x - y)*x"], elsewhere),
        "check-wrong": (py + ["theoryverify.check", "--context", f"{NAME}.main", "diff(L, w) == 2*(w*x - y)*x"],
                        elsewhere),
        # the plain run collects the plugin's claim items beside the paper's own test (-m theorems, which
        # selects the items alone, runs below on the planted package): one pytest start-up fewer
        "pytest": (py + ["pytest", "-p", "no:cacheprovider", "-v"], root),
    })
    assert ran["verify"].returncode == 0 and f"{NAME}.eq1" in ran["verify"].stdout, _show(ran["verify"])
    assert "proved" in ran["verify"].stdout, _show(ran["verify"])
    assert ran["report"].returncode == 0, _show(ran["report"])
    page = (elsewhere / "rep" / f"{NAME}.md").read_text(encoding="utf-8")
    assert f"package: {NAME} 0.1.0" in page and "Catalogue coverage: unknown" in page
    assert ran["check"].returncode == 0 and ran["check"].stdout.startswith("proved"), _show(ran["check"])
    assert ran["check-wrong"].returncode == 1 and "counterexample" in ran["check-wrong"].stdout
    # the paper's own test, its two claims and the plugin's package checks (printed displays build, claims located)
    assert ran["pytest"].returncode == 0 and "4 passed" in ran["pytest"].stdout, _show(ran["pytest"])
    assert f"{NAME}::{NAME}.eq1 PASSED" in ran["pytest"].stdout, _show(ran["pytest"])
    assert f"{NAME}::{NAME}.package-checks PASSED" in ran["pytest"].stdout, _show(ran["pytest"])
    assert "test_planted.py::test_wrong_coefficient_in_eq1_is_refuted PASSED" in ran["pytest"].stdout

    # every scaffolded check can fail.  In the installed package: a wrong coefficient in the printed display
    # (verify and the pytest item refute it).  In an uninstalled copy, whose tests import the copy: a check
    # that compares the display with itself (the planted-error test must fail).
    copy = tmp_path / "copy"
    shutil.copytree(root, copy)
    claims = copy / NAME / "claims" / "s1_main.py"
    claims.write_text(claims.read_text().replace("tv.check_identity(display, sp.diff(model.loss(), model.w)",
                                                 "tv.check_identity(display, display"))
    printed = root / NAME / "printed" / "s1_main.py"
    printed.write_text(printed.read_text().replace("return (w * x - y) * x", "return 2 * (w * x - y) * x"))
    ran = _run_all({
        "verify": (py + ["theoryverify", "verify", "--paper", NAME], elsewhere),
        "theorems": (py + ["pytest", "-p", "no:cacheprovider", "-m", "theorems", "-v"], root),
        "planted": (py + ["pytest", "-p", "no:cacheprovider", "tests/test_planted.py"], copy),
    })
    assert ran["verify"].returncode == 1 and "refuted" in ran["verify"].stdout, _show(ran["verify"])
    assert ran["theorems"].returncode == 1 and "counterexample:" in ran["theorems"].stdout, _show(ran["theorems"])
    # -m theorems selects the two claim items and deselects the paper's own test
    assert f"{NAME}::{NAME}.eq1 FAILED" in ran["theorems"].stdout, _show(ran["theorems"])
    # eq1 fails; its planted twin and the plugin's package-checks pass; the paper's own test is deselected
    assert "1 failed, 2 passed, 1 deselected" in ran["theorems"].stdout, _show(ran["theorems"])
    assert ran["planted"].returncode == 1, _show(ran["planted"])
    assert "FAILED tests/test_planted.py::test_wrong_coefficient_in_eq1_is_refuted" in ran["planted"].stdout


def test_the_next_steps_name_the_route_without_pip(tmp_path, capsys):
    """issue 29: the no-install route (PYTHONPATH=. with the pyproject's [tool.theoryverify] papers, or
    THEORYVERIFY_PAPERS) is printed next to `pip install -e`, and written down in the README and the tutorial."""
    assert cli.main(["new-paper", NAME, "--dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "pip install -e" in out and "PYTHONPATH=." in out and "[tool.theoryverify] papers" in out
    assert f"THEORYVERIFY_PAPERS={NAME}" in out
    assert tomllib.loads((tmp_path / NAME / "pyproject.toml").read_text())["tool"]["theoryverify"]["papers"] == [NAME]
    repo = Path(__file__).resolve().parent.parent
    for doc in ("README.md", "docs/tutorial.md"):
        text = (repo / doc).read_text()
        assert "PYTHONPATH=. python -m theoryverify verify" in text and "THEORYVERIFY_PAPERS=" in text, doc
