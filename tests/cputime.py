"""CPU time for tests that bound how long something takes (imported as ``from cputime import cpu_time``, like
:mod:`venvs`).

A wall-clock limit on the shared 2-core CI machine measures the load as much as the code: the induction-heads dry
run (~4 s idle) took 18.2 s under load and the megabyte ``--tex`` file 55 s against a 30 s limit, both correct.
The CPU seconds a piece of work costs barely move with the load, so a limit on them can stay tight: a path made
several times slower still fails it.  Counted: this process (every thread: the tests run torch and BLAS on one
thread, tests/conftest.py) and every child it has waited for (``subprocess.run``, a forked check that was reaped,
a pool's workers), which is where ``os.times`` puts a reaped child's time.  Inside the block the objects made before
it are left out of garbage collection (``gc.freeze``): a full collection of a test worker's ~300,000 objects costs
~0.15 s, which would otherwise land on whichever sub-second check happened to trigger it.  A timeout that only
guards against a hang can stay on the wall clock, generous."""
from __future__ import annotations

import gc
import os


def cpu_seconds() -> float:
    """User + system CPU seconds of this process and of its reaped children so far."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


class cpu_time:
    """``with cpu_time() as t: ...`` then ``t.seconds``: the CPU seconds the block cost (see :func:`cpu_seconds`)."""

    seconds: float

    def __enter__(self) -> "cpu_time":
        gc.freeze()  # the block's collections then walk only what the block made
        self._start = cpu_seconds()
        return self

    def __exit__(self, *exc) -> None:
        self.seconds = cpu_seconds() - self._start
        gc.unfreeze()
