"""Thread limits (theoryverify/threads.py): applied inside the block, restored after it.

Every test first sets the pools to 2 threads (not 1), so a limit that is not applied, or not
restored, shows as a wrong count; threadpoolctl.threadpool_info reads the pools of every loaded
BLAS/OpenMP library (numpy's and scipy's OpenBLAS, torch's OpenMP)."""
import sys

import numpy  # noqa: F401  (loads numpy's BLAS, so that there is a pool to limit)
import pytest
import scipy.linalg  # noqa: F401  (scipy's BLAS)
import torch

from theoryverify import threads

try:
    import threadpoolctl
except ImportError:  # the GPU machine may lack it: only the test of that case runs there
    threadpoolctl = None


def pools(api: str | None = None) -> dict[str, int]:
    """Thread count of each loaded BLAS/OpenMP library (``api``: only "blas" or "openmp"), by file."""
    return {lib["filepath"]: lib["num_threads"] for lib in threadpoolctl.threadpool_info()
            if api in (None, lib["user_api"])}


@pytest.fixture
def two_threads():
    """Every pool and torch at 2 threads for the test, the machine's settings restored after."""
    if threadpoolctl is None:
        pytest.skip("threadpoolctl not installed")
    old_torch = torch.get_num_threads()
    with threadpoolctl.threadpool_limits(limits=2):
        torch.set_num_threads(2)
        try:
            assert pools() and set(pools().values()) == {2}, pools()
            yield
        finally:
            torch.set_num_threads(old_torch)


def test_blas_threads_limits_inside_and_restores_after(two_threads):
    before = pools()
    with threads.blas_threads(1):
        assert set(pools().values()) == {1}, pools()
    assert pools() == before


def test_single_threaded_sets_torch_and_blas_and_restores(two_threads):
    before = pools()
    with threads.single_threaded():
        assert torch.get_num_threads() == 1
        assert set(pools().values()) == {1}, pools()
    assert torch.get_num_threads() == 2
    assert pools() == before


def test_single_threaded_with_a_count_and_as_decorator(two_threads):
    @threads.single_threaded(3)
    def inside():
        return torch.get_num_threads(), set(pools().values())

    assert inside() == (3, {3})
    assert torch.get_num_threads() == 2 and set(pools().values()) == {2}


def test_restored_after_an_exception(two_threads):
    before = pools()
    with pytest.raises(RuntimeError):
        with threads.single_threaded():
            raise RuntimeError("inside")
    assert torch.get_num_threads() == 2 and pools() == before


def test_none_leaves_the_settings_alone(two_threads):
    with threads.blas_threads(None), threads.single_threaded(None):
        assert torch.get_num_threads() == 2 and set(pools().values()) == {2}


def test_torch_threads_unchanged(two_threads):
    """torch_threads (called by papers) still sets torch's count only for the block."""
    with threads.torch_threads(1):
        assert torch.get_num_threads() == 1
    assert torch.get_num_threads() == 2


def test_without_threadpoolctl_the_blas_part_is_skipped(monkeypatch):
    """The GPU machine may lack threadpoolctl: no error, torch is still limited (and restored), the
    BLAS pools are left alone."""
    limits = threadpoolctl.threadpool_limits(limits=2) if threadpoolctl else None
    old_torch = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        monkeypatch.setitem(sys.modules, "threadpoolctl", None)  # `import threadpoolctl` now raises ImportError
        with threads.blas_threads(1):
            assert threadpoolctl is None or set(pools("blas").values()) == {2}
        with threads.single_threaded():
            assert torch.get_num_threads() == 1
            assert threadpoolctl is None or set(pools("blas").values()) == {2}
        assert torch.get_num_threads() == 2
    finally:
        torch.set_num_threads(old_torch)
        if limits is not None:
            limits.restore_original_limits()


LAZY = """
import sys
from theoryverify import scaling, threads
assert "scipy.stats" not in sys.modules, "importing tv.scaling imported scipy.stats"
finders = list(sys.meta_path)
with threads.single_threaded(1):
    assert "torch" not in sys.modules, "the block imported torch"
    with threads.torch_threads(3):
        import torch
        assert torch.get_num_threads() == 3, torch.get_num_threads()
        assert type(torch.__loader__).__name__ == "SourceFileLoader", torch.__loader__
    assert torch.get_num_threads() == 1, torch.get_num_threads()
assert torch.get_num_threads() == 2, torch.get_num_threads()  # torch's own start (OMP_NUM_THREADS=2), restored
assert sys.meta_path == finders, sys.meta_path
print("ok")
"""


def test_a_block_leaves_torch_unloaded_and_sets_the_torch_it_imports():
    """A process that never uses torch does not pay its import (1.5 CPU-s) for a thread setting, and a torch that the
    block imports runs with the block's count, restored to torch's own at the end (nested blocks too).  Nor does
    importing tv.scaling load scipy.stats (0.7 CPU-s) before a bootstrap needs it."""
    import os
    import subprocess

    env = dict(os.environ, OMP_NUM_THREADS="2", PYTHONPATH=os.pathsep.join(
        [str(__import__("pathlib").Path(__file__).resolve().parents[1]), os.environ.get("PYTHONPATH", "")]))
    proc = subprocess.run([sys.executable, "-c", LAZY], capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr[-2000:]
