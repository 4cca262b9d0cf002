"""A hard limit for one check: run it in a forked child and kill it on overrun.

The limit counts the child's **CPU time** where the platform reports it (``/proc/<pid>/stat``), so that a check
gets the same budget, and so the same verdict, on an idle machine and on a loaded one (a busy machine must not turn
"proved" into "inconclusive: over its 3 s limit"); a wall-clock backstop of :data:`WALL_FACTOR` times the budget
stops a child that sleeps or is starved.  Elsewhere the limit is the wall clock.

The engine bounds its own symbolic tier (:mod:`theoryverify.timelimit`, cooperative), but exact
arithmetic SymPy does in C (a huge integer power, say) cannot be interrupted by a signal; a child
process can always be killed.  Where ``os.fork`` is missing the work runs in-process under
:func:`theoryverify.timelimit.time_limit` only.
"""
from __future__ import annotations

import os
import pickle
import select
import signal
import sys
import time
from typing import Callable, TypeVar

from ..timelimit import TimeLimitExceeded, time_limit
from .parser import BadInput

T = TypeVar("T")

MEMORY_LIMIT = 4 * 1024**3  # bytes of address space for a child
WALL_FACTOR = 20  # the wall-clock backstop, in budgets: a child starved on a loaded machine still ends
_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _cpu_seconds(pid: int) -> float | None:
    """The CPU time (user + system) a child has used, from ``/proc/<pid>/stat``; ``None`` where unavailable."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICK  # utime, stime (fields 14, 15 of the line)
    except (OSError, IndexError, ValueError):
        return None


class HardTimeout(Exception):
    """The check ran past its hard time limit and was stopped."""


def can_fork() -> bool:
    return hasattr(os, "fork") and sys.platform != "win32"


def run_limited(fn: Callable[[], T], seconds: float, isolate: bool = True) -> T:
    """``fn()`` within ``seconds`` of CPU time (in a forked child; of wall clock where it cannot fork or the
    platform does not report a child's CPU time), or :class:`HardTimeout`.  Exceptions raised by ``fn`` are
    re-raised here (their type and message)."""
    if not (isolate and can_fork()):
        try:
            with time_limit(seconds):
                return fn()
        except TimeLimitExceeded:
            raise HardTimeout(f"over {seconds:g} s") from None
    return _run_forked(fn, seconds)


def _run_forked(fn: Callable[[], T], seconds: float) -> T:
    sys.stdout.flush()
    sys.stderr.flush()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: compute, send, exit without running parent cleanup
        code = 0
        try:
            os.close(r)
            _limit_memory()
            try:
                payload = ("ok", fn())
            except BaseException as exc:  # report any failure to the parent
                payload = ("exc", (type(exc).__name__, str(exc), isinstance(exc, BadInput)))
            try:
                data = pickle.dumps(payload)
            except Exception as exc:
                data = pickle.dumps(("exc", ("PicklingError", str(exc), False)))
            with os.fdopen(w, "wb") as out:
                out.write(data)
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    os.close(w)
    chunks: list[bytes] = []
    cpu = _cpu_seconds(pid) is not None
    deadline = time.monotonic() + (seconds * WALL_FACTOR if cpu else seconds)
    finished = False
    try:
        while True:
            left = deadline - time.monotonic()
            used = _cpu_seconds(pid) if cpu else None
            if left <= 0 or (used is not None and used >= seconds):
                raise HardTimeout(f"over {seconds:g} s (stopped)")
            wait = left if not cpu else min(left, max(0.02, (seconds - (used or 0.0)) / 4))
            ready, _, _ = select.select([r], [], [], wait)
            if ready:
                chunk = os.read(r, 1 << 20)
                if not chunk:
                    finished = True
                    break
                chunks.append(chunk)
    finally:  # on overrun or interrupt (Ctrl-C) the child is stopped, never left running
        os.close(r)
        if not finished:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:  # pragma: no cover
                pass
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:  # pragma: no cover
            pass
    if not chunks:
        raise RuntimeError("the check process ended without a result")
    kind, value = pickle.loads(b"".join(chunks))  # our own child's bytes, not user input
    if kind == "ok":
        return value
    name, message, bad_input = value
    if bad_input:
        raise BadInput(message)
    raise ChildError(name, message)


class ChildError(Exception):
    """The check raised in the child (an engine failure, never bad input)."""

    def __init__(self, name: str, message: str):
        super().__init__(f"{name}: {message}")


def _limit_memory() -> None:
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if soft == resource.RLIM_INFINITY or soft > MEMORY_LIMIT:
            resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, hard))
    except (ImportError, ValueError, OSError):  # pragma: no cover - platform dependent
        pass
