"""Test configuration: the Hypothesis profile (``ci`` unless THEORYVERIFY_HYPOTHESIS says otherwise), one thread
for torch and the BLAS pools, and the theoryverify pytest plugin (one item per paper claim) for a checkout run with nothing installed
(``PYTHONPATH=.``, e.g. on the GPU machine); an installed theoryverify registers the plugin itself (entry
point group ``pytest11``)."""
import gc
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

# The step checker runs each check in a forked child (theoryverify/check/isolate.py), thousands of times in a test
# run.  A child inherits the test worker's ~300,000 tracked objects (torch, sympy, the collected tests), and every
# full garbage collection in it walked them all and wrote to each one's header, copying the parent's pages on
# write: ~65 ms of CPU per short check (14 checks: 1.6 → 0.7 CPU-s of children).  Frozen in the child right after the
# fork, the inherited objects are left out of its collections (reference counting still frees what the child
# drops; only cycles among inherited objects wait for the child's exit, a few seconds at most).  Speed only: the
# child computes the same things, and the parent's collections are unchanged.
os.register_at_fork(after_in_child=gc.freeze)


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
    is speed only; each item still computes whatever the store does not hold under its full key.

    The other papers' claim items come next, before the test modules: under ``--dist loadgroup`` each paper's
    claims (with its tests) are one unit of work (pytest_xdist_make_scheduler below), handed out in this order,
    and the largest units first leave the many small tests to even out the two workers at the end."""
    report = [i for i in items if i.nodeid.startswith("tests/test_report_reproducible.py::")]
    paper = getattr(report[0].module, "PAPER", None) if report else None
    claims = [i for i in items if i.get_closest_marker("theorems") and hasattr(i, "claim")]
    late = [i for i in claims if i.claim.paper == paper]
    early = [i for i in claims if i.claim.paper != paper]
    moved = {id(i) for i in report + claims}
    items[:] = report + early + [i for i in items if id(i) not in moved] + late


def claims_scope(nodeid: str) -> str | None:
    """The unit of work of a paper's claim item under ``--dist loadgroup``: its paper's folder (the plugin names a
    claim item ``<paper folder>::<claim id>``; a test's node id starts with its file, ``.py``); None for a test."""
    path, sep, _ = nodeid.partition("::")
    return f"claims:{path}" if sep and not os.path.splitext(path)[1] else None


def paper_units(nodeids: list[str]) -> dict[str, str]:
    """Node id → unit of work, for the items that share one: each paper's claim items (:func:`claims_scope`), and
    with them the tests in ``tests/<paper>/`` when that paper's claims are queued before the test modules — not
    the report test's paper's, which wait at the end of the queue for the report's results
    (pytest_collection_modifyitems): their tests stay single units, handed out early."""
    claims = {n: scope for n in nodeids if (scope := claims_scope(n))}
    last_test = max((i for i, n in enumerate(nodeids) if n not in claims), default=-1)
    early = {claims[n].rsplit("/", 1)[-1]: claims[n] for n in nodeids[:max(last_test, 0)] if n in claims}
    units = dict(claims)
    for n in nodeids:
        parts = n.partition("::")[0].split("/")
        if n not in claims and len(parts) == 3 and parts[0] == "tests" and parts[1] in early:
            units[n] = early[parts[1]]
    return units


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """Under ``--dist loadgroup`` (the README's test command), each paper's claim items, with the tests in
    ``tests/<paper>/``, are one unit of work: one worker runs them all, the claims first (:func:`paper_units`).

    A paper's claims, and its tests, share what their process has computed — shared sweeps
    (theoryverify.shared_sweeps keeps points in memory), the models' caches (knowledge's pre-trained states,
    icrecall's landscapes and dynamics) — and under load scheduling each such computation ran in both workers
    (``-m theorems -n 2``, per item, self + children: 266 → 235 CPU-s; knowledge.t2-oodbound 9.5 → 0.01,
    icrecall.T3-g-growth 4.7 → 0.06, iclnonlinear.p2-end 3.7 → 0.02, their sweeps already computed by a claim beside
    them; after its paper's claims in one process, tests/knowledge 32.8 → 19.8 CPU-s, tests/inductionheads
    33.7 → 29.4).  pytest-xdist's own way, an ``xdist_group`` mark, groups nothing with pytest ≥ 9.2 (xdist renames
    the node id, which pytest no longer reads from the field it writes: pytest-xdist issue 1386), so the scheduler
    groups by the node id itself.  Everything else is xdist's loadgroup (a test is its own unit, ``xdist_group``
    marks honoured where xdist's renaming works).  Where an item runs changes nothing in what it computes.

    The units are handed out in the order pytest_collection_modifyitems gives (the report test first, the other
    papers' units next, the report's paper's claims last), not xdist's largest-unit-first (``--loadscope-reorder``,
    its default), which would queue the report's paper's claims before the report test and run them beside it."""
    if config.getvalue("dist") != "loadgroup":
        return None
    try:
        from xdist.scheduler import LoadGroupScheduling
    except ImportError:
        return None
    if not callable(getattr(LoadGroupScheduling, "_split_scope", None)):  # an xdist whose internals differ: its own
        return None

    config.option.loadscopereorder = False

    class PaperUnits(LoadGroupScheduling):
        units: dict[str, str] = {}

        def schedule(self) -> None:
            collections = getattr(self, "registered_collections", None)
            if getattr(self, "collection", None) is None and collections:  # the first call: the collection is in
                self.units = paper_units(list(next(iter(collections.values()))))
            super().schedule()

        def _split_scope(self, nodeid: str) -> str:
            return self.units.get(nodeid) or super()._split_scope(nodeid)

    return PaperUnits(config, log)


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
