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
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`TimeLimitExceeded` inside the block after ``seconds`` (main thread only;
    elsewhere the block runs unbounded, so callers should keep it small)."""
    if seconds <= 0 or threading.current_thread() is not threading.main_thread():
        yield
        return

    def _raise(signum, frame):  # pragma: no cover - timing dependent
        # Re-arm first: if this exception is swallowed (e.g. raised inside a weakref finalizer,
        # which Python reports as "ignored"), the alarm fires again shortly afterwards.
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        raise TimeLimitExceeded(f"over {seconds:g} s")

    def _quiet(unraisable):  # a swallowed alarm (see _raise) is expected, not worth a warning
        if not isinstance(unraisable.exc_value, TimeLimitExceeded):
            previous_hook(unraisable)

    previous = signal.signal(signal.SIGALRM, _raise)
    previous_hook = sys.unraisablehook
    sys.unraisablehook = _quiet
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        sys.unraisablehook = previous_hook


def bounded(fn: Callable[[], T], seconds: float) -> T | None:
    """``fn()`` or ``None`` if it overran ``seconds``."""
    try:
        with time_limit(seconds):
            return fn()
    except TimeLimitExceeded:
        return None
    except RecursionError:
        return None
