"""Hard time limits for symbolic work (no unbounded ``simplify`` on the hot path)."""
from __future__ import annotations

import signal
import sys
import threading
from contextlib import contextmanager
from typing import Callable, Iterator, TypeVar

T = TypeVar("T")


class TimeLimitExceeded(Exception):
    pass


@contextmanager
def time_limit(seconds: float, cpu: bool = False) -> Iterator[None]:
    """Raise :class:`TimeLimitExceeded` inside the block after ``seconds`` (main thread only;
    elsewhere the block runs unbounded, so callers should keep it small).  ``cpu=True`` counts the process's
    CPU time rather than the wall clock, so that a budget gives the same answer on a loaded machine (the step
    checker's proof attempts: "proved" must not turn into "holds" because other processes were busy)."""
    if seconds <= 0 or threading.current_thread() is not threading.main_thread():
        yield
        return
    timer, sig = (signal.ITIMER_PROF, signal.SIGPROF) if cpu else (signal.ITIMER_REAL, signal.SIGALRM)

    def _raise(signum, frame):  # pragma: no cover - timing dependent
        # Re-arm first: if this exception is swallowed (e.g. raised inside a weakref finalizer,
        # which Python reports as "ignored"), the alarm fires again shortly afterwards.
        signal.setitimer(timer, 0.05)
        raise TimeLimitExceeded(f"over {seconds:g} s")

    def _quiet(unraisable):  # a swallowed alarm (see _raise) is expected, not worth a warning
        if not isinstance(unraisable.exc_value, TimeLimitExceeded):
            previous_hook(unraisable)

    previous = signal.signal(sig, _raise)
    previous_hook = sys.unraisablehook
    sys.unraisablehook = _quiet
    signal.setitimer(timer, seconds)
    try:
        yield
    finally:
        signal.setitimer(timer, 0)
        signal.signal(sig, previous)
        sys.unraisablehook = previous_hook


def bounded(fn: Callable[[], T], seconds: float, cpu: bool = False) -> T | None:
    """``fn()`` or ``None`` if it overran ``seconds`` (of CPU time with ``cpu=True``, see :func:`time_limit`)."""
    try:
        with time_limit(seconds, cpu):
            return fn()
    except TimeLimitExceeded:
        return None
    except RecursionError:
        return None
