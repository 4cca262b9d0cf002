"""The README's two fresh-machine commands exist, and CI runs the README's test command."""
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def block(name: str) -> list[str]:
    text = (ROOT / "README.md").read_text()
    inner = text.split(f"<!-- {name} -->")[1].split(f"<!-- /{name} -->")[0]
    return [l for l in inner.splitlines() if l and not l.startswith("```")]


CPU_TORCH = "pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu &&"


def test_exactly_two_commands_with_pinned_cpu_torch():
    """Both commands install a pinned torch from PyTorch's CPU-only index before the project, so that pip
    never resolves the CUDA build from PyPI on a plain Linux machine; the tests run on every core, each paper's
    claim items on one of them (``--dist loadgroup``, tests/conftest.py)."""
    for name, tail in (("main-command", "python -m theoryverify.report"),
                       ("test-command", 'python -m pytest -m "not slow and not gpu" -n auto --dist loadgroup')):
        lines = block(name)
        assert len(lines) == 1
        assert CPU_TORCH in lines[0] and lines[0].index(CPU_TORCH) < lines[0].index("pip install -e")
        assert lines[0].endswith(tail)


def test_ci_extracts_the_readme_test_command():
    script = (ROOT / ".ci" / "run").read_text()
    awk = script.split("cmd=$(")[1].split(")\n")[0]
    out = subprocess.run(["bash", "-c", awk], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    assert out == block("test-command")[0]
