"""Test configuration: the Hypothesis profile (``ci`` unless THEORYVERIFY_HYPOTHESIS says otherwise), one thread
for torch and the BLAS pools, and the theoryverify pytest plugin (one item per paper claim) for a checkout run with nothing installed
(``PYTHONPATH=.``, e.g. on the GPU machine); an installed theoryverify registers the plugin itself (entry
point group ``pytest11``)."""
import os
import signal
from importlib import metadata

import pytest

# OpenMP threads that wait by spinning (libgomp's default, "active") keep burning a core after a pool has had
# more than one thread (tests/test_threads.py raises the pools to 2 and 3): on the 2-core CI machine the next
# test's 50×50 matmuls ran 1000× slower in that worker.  Passive waiting changes speed only, never results.
# Set before torch (and its libgomp) is loaded; pytest-xdist workers and test subprocesses inherit it.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
# Hypothesis loads every plugin registered under its entry point group on import: selenium (a dev dependency) brings
# trio, whose plugin imports trio.testing and with it pytest — 0.2 CPU-s in each of the ~100 Python processes a test
# run starts (every CLI subprocess imports Hypothesis through theoryverify.profiles).  Nothing here uses trio; the
# plugin only seeds trio's own random generator.  Set before Hypothesis is imported; workers and subprocesses inherit it.
os.environ.setdefault("HYPOTHESIS_NO_PLUGINS", "1")

from theoryverify import profiles  # noqa: E402

profiles.load()


def _single_threaded() -> None:
    """One intra-op thread for torch and one for the loaded BLAS/OpenMP pools, in every test process.

    The tests run tiny float64 tensors, for which thread pools only cost: on the loaded 2-core CI machine a
    5-step training took 0.03 s with one thread and 0.5–6 s with two (theoryverify/threads.py), and pytest-xdist
    already runs one test per core.  The engine runs every claim single-threaded too (theoryverify/claims.py),
    so a test computes with the same arithmetic as the claim it checks, whatever the worker or the order.
    Tests of the thread settings themselves (tests/test_threads.py) set their counts explicitly."""
    import numpy  # noqa: F401  (load the BLAS libraries, so that the limit reaches them)
    import scipy.linalg  # noqa: F401
    import torch

    torch.set_num_threads(1)
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # optional (the GPU machine may lack it): speed only, never results
        return
    threadpool_limits(limits=1)


_single_threaded()


def _plugin_autoloaded() -> bool:
    if os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD"):
        return False
    return any(ep.value == "theoryverify.pytest_plugin" for ep in metadata.entry_points(group="pytest11"))


if not _plugin_autoloaded():
    pytest_plugins = ["theoryverify.pytest_plugin"]


def pytest_configure(config):
    """One results store for the whole session (``--tv-store``, unless given), shared by every xdist worker: a
    claim computed by one test (the report regenerated in tests/test_report_reproducible.py runs the 98 quick
    claims of iclnonlinear) is not computed again by its theorem item, and the other way round.  A result is
    reused only under its full key — claim, seed, profile, device, the hash of the code closure, library
    versions, inputs — so only the same computation by the same code is shared; the folder is removed at the end."""
    if hasattr(config, "workerinput"):  # an xdist worker: the controller's folder (pytest_configure_node)
        if config.workerinput.get("tv_store") and not config.getoption("tv_store", None):
            config.option.tv_store = config.workerinput["tv_store"]
        return
    if config.getoption("tv_store", None) is not None or not hasattr(config.option, "tv_store"):
        return
    if config.getoption("markexpr", "") == "theorems":  # the claim items only: no other test computes a claim
        return
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(prefix="theoryverify-session-store-")
    config.option.tv_store = folder
    config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    """The regenerated-report test first, the claim items of its paper last: so the items reuse the claims the report
    computed (the session's results store, above) instead of computing them again beside it.

    With pytest-xdist's load scheduling the first item goes to the first worker at once, and an item near the end is
    handed out only when a worker runs dry: in a CI run (-n 2) the other worker ran iclnonlinear's claim items while the
    report test was still computing the same claims, and 61 of them were computed twice (28.7 CPU-s of a ~740 CPU-s
    session, measured per test).  Only the order changes — every test is independent of order and worker — so this
    is speed only; each item still computes whatever the store does not hold under its full key."""
    report = [i for i in items if i.nodeid.startswith("tests/test_report_reproducible.py::")]
    paper = getattr(report[0].module, "PAPER", None) if report else None
    if paper is None:
        return
    claims = [i for i in items if i.get_closest_marker("theorems") and i.nodeid.split("::")[-1].startswith(paper + ".")]
    moved = {id(i) for i in report + claims}
    items[:] = report + [i for i in items if id(i) not in moved] + claims


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """The session's results store, passed to each xdist worker."""
    node.workerinput["tv_store"] = node.config.getoption("tv_store", None)


def pytest_ignore_collect(collection_path, config):
    """``-m theorems`` (exactly) selects the plugin's claim items only: no test module in tests/ carries that
    marker (tests/test_markers_reserved.py checks it), so the test modules are not imported to be deselected —
    importing and assertion-rewriting them cost about 10 s of CPU in every xdist worker, for no item."""
    if config.getoption("markexpr", "") == "theorems" and collection_path.suffix == ".py" \
            and collection_path.name.startswith("test_"):
        return True
    return None


@pytest.fixture(autouse=True)
def _sigint_disposition_unchanged():
    """A test that leaves SIGINT's handler changed (ignored, say) fails, naming itself, and the handler is put back.

    A child inherits an ignored SIGINT across exec: once a test left SIG_IGN behind in an xdist worker, the Ctrl-C
    test that ran later in that worker (tests/test_runs.py) failed, far from the cause.  Checked after every test, so
    the test that changed it is the one reported (an error at its teardown).  A pytest started as a background job
    of a non-interactive shell (``pytest … &``) starts with SIGINT ignored, workers included: that is no test's
    doing and passes here (the Ctrl-C test starts its child with SIGINT at its default)."""
    before = signal.getsignal(signal.SIGINT)
    yield
    after = signal.getsignal(signal.SIGINT)
    if after != before:
        if before is not None:  # None: a handler not set from Python, which Python cannot put back
            signal.signal(signal.SIGINT, before)
        pytest.fail(f"this test changed SIGINT's handler from {before!r} to {after!r} and did not restore it",
                    pytrace=False)
