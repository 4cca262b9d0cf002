"""Progress on stderr, never in a result or a report.

* :func:`progress` — a tqdm bar for inner loops (sweep points, training steps) on a terminal, silent otherwise;
* :class:`Batches` — the progress of a run of claims: a tqdm bar on a terminal, and where stderr is a log file
  or CI one line per batch of claims ("icrecall 40/104 claims, 1 min 10 s elapsed, ETA 2 min 5 s"), so a long run
  is never silent;
* :func:`note` — one line to stderr ("theoryverify: ..."): what a run will do, what it did, a warning.

tqdm is optional: the GPU machine has no network and no tqdm, and a progress bar changes no result, so
without it :func:`progress` returns a silent stand-in with the few methods callers use (and :class:`Batches`
writes lines)."""
from __future__ import annotations

import math
import sys
import time
from typing import Any, Callable, Iterable, TypeVar

T = TypeVar("T")


class _Silent:
    """What :func:`progress` returns without tqdm: iterates ``items`` and ignores updates."""

    def __init__(self, items: Iterable[Any] | None) -> None:
        self._items = items if items is not None else ()

    def __iter__(self):
        return iter(self._items)

    def update(self, n: int = 1) -> None:
        pass

    def set_postfix(self, *args: Any, **kwargs: Any) -> None:
        pass

    def set_description(self, *args: Any, **kwargs: Any) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc: Any) -> None:
        pass


def progress(items: Iterable[T], **kwargs) -> Iterable[T]:
    try:
        from tqdm import tqdm
    except ImportError:
        return _Silent(items)  # type: ignore[return-value]
    return tqdm(items, disable=not sys.stderr.isatty(), file=sys.stderr, leave=False, **kwargs)


def note(message: str, prefix: str = "theoryverify") -> None:
    """One line to stderr (flushed at once: a log file shows it while the run goes on)."""
    sys.stderr.write(f"{prefix}: {' '.join(str(message).split())}\n")
    sys.stderr.flush()


def duration(seconds: float) -> str:
    """"8 s", "3 min 5 s", "1 h 2 min"."""
    s = max(0, int(round(seconds)))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60} s"
    return f"{s // 3600} h {s % 3600 // 60} min"


class Batches:
    """Progress of ``total`` claims of ``desc`` (a paper): a tqdm bar when stderr is a terminal (and tqdm is
    installed), otherwise one line per batch — every ``batch`` claims (default: a tenth of them) or after
    ``interval`` seconds without a line, and at the end — with the paper, done/total, the time elapsed and
    the estimated time left (the mean time per claim so far times the claims left)."""

    def __init__(self, total: int, desc: str, *, unit: str = "claims", batch: int | None = None,
                 interval: float = 30.0, prefix: str = "theoryverify",
                 clock: Callable[[], float] = time.monotonic, terminal: bool | None = None) -> None:
        self.total, self.desc, self.unit, self.prefix, self.clock = total, desc, unit, prefix, clock
        self.batch = batch or max(1, math.ceil(total / 10))
        self.interval = interval
        self.done = 0
        self.start = self.last = clock()
        self._bar = None
        if (sys.stderr.isatty() if terminal is None else terminal) and total:
            try:
                from tqdm import tqdm
            except ImportError:
                pass
            else:
                self._bar = tqdm(total=total, desc=desc, unit=unit.rstrip("s") or unit, file=sys.stderr, leave=False)

    def line(self) -> str:
        elapsed = self.clock() - self.start
        text = f"{self.desc} {self.done}/{self.total} {self.unit}, {duration(elapsed)} elapsed"
        if self.done < self.total:
            text += (f", ETA {duration(elapsed / self.done * (self.total - self.done))}" if self.done
                     else ", ETA unknown")
        return text

    def update(self, n: int = 1) -> None:
        self.done += n
        if self._bar is not None:
            self._bar.update(n)
            return
        now = self.clock()
        if self.done >= self.total or self.done % self.batch == 0 or now - self.last >= self.interval:
            self.last = now
            note(self.line(), self.prefix)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> "Batches":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
