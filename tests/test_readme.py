"""The README's two fresh-machine commands exist, and CI runs the README's test command."""
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def block(name: str) -> list[str]:
    text = (ROOT / "README.md").read_text()
    inner = text.split(f"<!-- {name} -->")[1].split(f"<!-- /{name} -->")[0]
    return [l for l in inner.splitlines() if l and not l.startswith("```")]


def test_exactly_two_commands_with_pinned_cpu_torch():
    for name, tail in (("main-command", "python -m theoryverify.report"),
                       ("test-command", 'python -m pytest -m "not slow and not gpu" -n 2')):
        lines = block(name)
        assert len(lines) == 1
        assert "pip install torch==2.13.0 &&" in lines[0] and lines[0].endswith(tail)


def test_ci_extracts_the_readme_test_command():
    script = (ROOT / ".ci" / "run").read_text()
    awk = script.split("cmd=$(")[1].split(")\n")[0]
    out = subprocess.run(["bash", "-c", awk], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    assert out == block("test-command")[0]
