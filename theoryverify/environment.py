"""What a run ran on: library versions, git commit, device settings (recorded in every report)."""
from __future__ import annotations

import platform
import subprocess
from importlib import metadata
from pathlib import Path

LIBRARIES = ("theoryverify", "sympy", "numpy", "scipy", "torch", "hypothesis", "matplotlib", "mpmath")


def versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for name in LIBRARIES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def git_commit(root: Path | None = None) -> str:
    root = root or Path(__file__).resolve().parent.parent
    try:
        sha = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=root, capture_output=True,
                             text=True, timeout=10).stdout.strip()
        # generated reports do not make the code dirty (a report run rewrites them)
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":!reports"], cwd=root,
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return (sha + ("+dirty" if dirty else "")) if sha else "unknown"


def _toplevel(folder: Path) -> Path | None:
    try:
        out = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=folder, capture_output=True, text=True,
                             timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return Path(out).resolve() if out else None


def paper_commit(folder: Path | str) -> str | None:
    """The git commit (``+dirty`` when tracked files changed) of the repository holding a paper package's
    ``folder`` — None when the package is not in a git repository, or is in the engine's own (whose commit every
    report records already).  A report of an author's paper then says which version of the paper's code it ran.

    >>> paper_commit("/") is None
    True
    """
    folder = Path(folder).resolve()
    if not folder.is_dir():
        return None
    top = _toplevel(folder)
    if top is None or top == _toplevel(Path(__file__).resolve().parent):
        return None
    try:
        sha = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=top, capture_output=True,
                             text=True, timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ".", ":!reports"],
                               cwd=top, capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return (sha + ("+dirty" if dirty else "")) if sha else None


def in_engine_repository(folder: Path | str) -> bool:
    """Whether a paper package's ``folder`` lies in the engine's own git repository (a shipped example), whose
    commit the report's "Git commit" line records."""
    engine = _toplevel(Path(__file__).resolve().parent)
    folder = Path(folder).resolve()
    return folder.is_dir() and engine is not None and _toplevel(folder) == engine


#: what the paper digest leaves out: generated files that do not change what the paper's code does
_DIGEST_SKIP = ("__pycache__", ".egg-info", ".theoryverify-cache", "reports", ".git")


def paper_digest(folder: Path | str) -> str:
    """A digest (sha256, first 12 hex digits) of a paper package's files — their paths and bytes, in sorted order,
    without caches, build metadata or reports — so a report of a package not under version control still says
    which version of the paper's code it ran: the same files give the same digest.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp()); _ = (d / "a.py").write_text("x = 1")
    >>> paper_digest(d) == paper_digest(d), len(paper_digest(d))
    (True, 12)
    """
    import hashlib

    folder = Path(folder).resolve()
    h = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        rel = path.relative_to(folder)
        if any(part.endswith(_DIGEST_SKIP) for part in rel.parts) or path.suffix in (".pyc", ".pyo"):
            continue
        h.update(rel.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:12]


def cpu_model(cpuinfo: Path = Path("/proc/cpuinfo")) -> str:
    """The CPU's model name, for the report header: Linux's ``/proc/cpuinfo`` "model name" (where
    ``platform.processor()`` is usually empty), else ``platform.processor()``, else "unknown"."""
    try:
        for line in cpuinfo.read_text(encoding="utf-8", errors="replace").splitlines():
            key, _, value = line.partition(":")
            if key.strip() == "model name" and value.strip():
                return " ".join(value.split())
    except OSError:
        pass
    return platform.processor().strip() or "unknown"


def device_info(device: str) -> dict[str, str]:
    import torch

    info = {"device": device, "dtype": "float64",
            "deterministic_algorithms": str(torch.are_deterministic_algorithms_enabled())}
    if device == "cuda" and torch.cuda.is_available():
        info["name"] = torch.cuda.get_device_name(0)
        info["tf32_matmul"] = str(torch.backends.cuda.matmul.allow_tf32)
        info["tf32_cudnn"] = str(torch.backends.cudnn.allow_tf32)
    else:
        info["name"] = f"CPU ({platform.machine()}, {cpu_model()})"
    return info
