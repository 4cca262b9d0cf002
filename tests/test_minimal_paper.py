"""The least an author writes (issue 29: registration boilerplate): a package with no ``PAPER`` (the defaults: id =
package name, title = docstring), one ``claims.py`` registering with ``@tv.claim`` (no ClaimSet, no ORDER), and
its step context in the package's ``CONTEXTS`` — verified, planted twin refuted, context found."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

FILES = {
    "tinypaper/__init__.py": '''
        """A tiny paper: (x + 1)^2 expanded."""
        import theoryverify as tv
        CONTEXTS = [tv.assumed_context("tinypaper.main", "x in [0, 1]", ["0 <= x <= 1"])]
        ''',
    "tinypaper/claims.py": '''
        import sympy as sp
        import theoryverify as tv
        x = sp.Symbol("x")
        @tv.claim("eq1", location="Eq. (1)", statement="(x + 1)^2 = x^2 + 2x + 1", kind=tv.Kind.IDENTITY,
                  planted=tv.Planted("(x + 1)^2 = x^2 + 1", tv.Finding.TYPO, "planted: 2x dropped", rhs=x**2 + 1))
        def eq1(ctx, rhs=x**2 + 2*x + 1):
            return tv.check_identity((x + 1)**2, rhs, tv.Domain([tv.Interval(x, -3, 3)]), ctx.seed)
        ''',
}


def _run(tmp_path, *args):
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(textwrap.dedent(text))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), str(tmp_path)]), THEORYVERIFY_PAPERS="tinypaper")
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, timeout=300, env=env,
                          cwd=tmp_path)


def test_a_paper_without_paper_claimset_or_order_verifies(tmp_path):
    proc = _run(tmp_path, "theoryverify", "verify", "--paper", "tinypaper", "--json")
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = {c["id"]: c["status"] for c in json.loads(proc.stdout)}
    assert got == {"tinypaper.eq1": "proved", "tinypaper.eq1-planted": "refuted"}, got


def test_its_step_context_is_found(tmp_path):
    proc = _run(tmp_path, "theoryverify.check", "--context", "tinypaper.main", "x**2 <= x")
    assert proc.returncode == 0 and proc.stdout.startswith(("proved", "holds")), proc.stdout + proc.stderr


def test_a_claim_registered_with_tv_claim_records_its_own_module_so_an_edit_is_not_reused(tmp_path):
    """Found by a fifth held-out author (issue 29): ``@tv.claim`` recorded ``theoryverify.claims`` as the claim's
    module and source, so the results store hashed only the engine and an edited model returned the stale
    verdict until ``--fresh``.  The claim must name its own module and line, and an edit must change its key."""
    proc = _run(tmp_path, "theoryverify", "list", "--paper", "tinypaper")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "tinypaper/claims.py:" in proc.stdout and "theoryverify/claims.py" not in proc.stdout, proc.stdout
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), str(tmp_path)]), THEORYVERIFY_PAPERS="tinypaper")
    key = ("from theoryverify import registry, resume; c = registry.get('tinypaper.eq1'); "
           "print(c.module, resume.code_version(c))")
    before = subprocess.run([sys.executable, "-c", key], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert before.returncode == 0 and before.stdout.startswith("tinypaper.claims "), before.stdout + before.stderr
    (tmp_path / "tinypaper/claims.py").write_text((tmp_path / "tinypaper/claims.py").read_text() + "\n# edited\n")
    after = subprocess.run([sys.executable, "-c", key], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert after.returncode == 0 and after.stdout != before.stdout, (before.stdout, after.stdout)
