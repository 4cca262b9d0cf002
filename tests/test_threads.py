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
