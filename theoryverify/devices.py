"""Device choice: ``auto`` picks CUDA when present; everything runs unchanged on CPU."""
from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path


def resolve_device(name: str = "auto") -> str:
    """``"cpu"`` or ``"cuda"`` for ``--device`` (``auto``: CUDA when available); asking for CUDA where there is none
    is a ValueError (a one-line error in the front-ends).

    A torch built without CUDA and ROCm (:func:`cuda_absent_from_build`) answers without being imported: importing
    torch costs ~1.5 CPU-s in every ``verify``/``report`` process, most of whose papers (the tutorial's, a new
    paper's) never use it.

    >>> resolve_device("cpu")
    'cpu'
    """
    if name not in ("auto", "cpu", "cuda"):
        raise ValueError(f"unknown device {name!r} (auto, cpu, cuda)")
    if name == "cpu":
        return name
    if "torch" not in sys.modules and cuda_absent_from_build():
        available = False
    else:
        import torch

        available = torch.cuda.is_available()
    if name == "auto":
        return "cuda" if available else "cpu"
    if not available:
        raise ValueError("--device cuda requested but no CUDA device is available")
    return name


def cuda_absent_from_build(version_file: Path | None = None) -> bool:
    """Whether the installed torch is built without CUDA and without ROCm, read from its ``torch/version.py``
    (``cuda = None`` and ``hip = None``; ROCm builds answer ``torch.cuda.is_available()`` too) without importing
    torch; then ``torch.cuda.is_available()`` is False.  Any doubt — no torch found, a file that does not parse,
    either field missing or not a literal ``None`` — answers False, and the caller asks torch itself."""
    if version_file is None:
        try:
            spec = importlib.util.find_spec("torch")
        except (ImportError, ValueError):
            return False
        if spec is None or not spec.submodule_search_locations:
            return False
        version_file = Path(list(spec.submodule_search_locations)[0]) / "version.py"
    try:
        tree = ast.parse(Path(version_file).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return False
    values: dict[str, ast.expr] = {}
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
            values[node.target.id] = node.value
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    values[target.id] = node.value
    return all(isinstance(values.get(field), ast.Constant) and values[field].value is None
               for field in ("cuda", "hip"))
