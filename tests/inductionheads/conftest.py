"""Every induction-heads test runs torch single-threaded (tiny float64 tensors; on a shared machine
torch's thread pool only adds overhead)."""
import pytest

from theoryverify.threads import torch_threads


@pytest.fixture(autouse=True)
def _one_thread():
    with torch_threads(1):
        yield
