"""The engine's one dispatcher: claims (and the points of their sweeps) run serially, on local worker
processes, or on a running Dask scheduler — with results identical to a serial run.

Why identical: a claim's seed derives from (global seed, claim id) (:meth:`RunContext.for_claim`), the engine
sets the thread counts around each check (:class:`~theoryverify.claims.Claim`), and engine searches do not
depend on which modules are loaded; so where a claim runs changes only its runtime.

* :func:`run_claims` (or the lazy :func:`iter_results`) — results in input order.  Workers get claim *ids*,
  resolve them with :func:`theoryverify.registry.get` (the same papers: workers inherit the working
  directory, ``sys.path`` and environment) and send back the verdict as plain JSON values; the parent
  rebuilds each :class:`~theoryverify.claims.Result` (a claim holds its check function, which does not
  pickle).  A claim the registry does not hold (built ad hoc) runs in this process.  A single claim also runs
  here, with the dispatcher active, so that its sweep points go to the workers instead.
* local processes (``jobs=N``): joblib's ``loky`` process pool (fresh interpreters, so nothing inherited by
  ``fork`` can make a worker differ from a serial run; unlike ``multiprocessing``'s ``spawn`` it does not
  re-run the caller's ``__main__``, so a plain script needs no ``if __name__ == "__main__"`` guard);
* Dask (``scheduler="tcp://host:8786"``): a ``distributed.Client`` on that scheduler (the optional extra
  ``pip install 'theoryverify[distributed]'``; theoryverify and the papers must be importable on the
  workers; start them with ``--nthreads 1``: the thread settings are per process).
* the *active* dispatcher (:func:`configure`, :func:`using`) is what :func:`theoryverify.store.sweep` uses
  when it is not given ``n_jobs``/``backend`` (:func:`sweep_options`).  Inside a worker every sweep runs
  serially: no nested pools.
"""
from __future__ import annotations

import threading
import uuid
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

from .claims import Claim, Result, RunContext
from .errors import TheoryverifyError
from .verdicts import Status, Verdict, plain


class DispatchError(TheoryverifyError):
    """The dispatcher could not run a claim (bad option, missing extra, unreachable scheduler, a worker that
    died or could not find the claim) — a statement about the set-up, never about the paper."""


# --- where this code runs ----------------------------------------------------------------------------------
_IN_WORKER = False  # set in a local worker process by its initializer
_local = threading.local()  # set while a Dask task runs (a Dask worker may run tasks in threads)


def in_worker() -> bool:
    """Is this code running a dispatched claim (then its sweeps run serially)?"""
    return _IN_WORKER or getattr(_local, "in_worker", False)


def _hypothesis_profile() -> str | None:
    from hypothesis import settings

    getter = getattr(settings, "get_current_profile_name", None)
    return getter() if getter else None


def _init_worker(hypothesis_profile: str | None) -> None:
    global _IN_WORKER
    _IN_WORKER = True
    import signal

    # Ctrl-C reaches the whole process group: the parent stops the run (keeping every finished claim) and kills
    # the workers, which must not each print a KeyboardInterrupt traceback of their own
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from . import profiles

    profiles.load(hypothesis_profile)


def _verdict_row(v: Verdict) -> dict[str, Any]:
    """The verdict as plain values (what ``Verdict.to_json`` writes, with the unrounded runtime)."""
    return {"status": v.status.value, "method": v.method, "evidence": v.evidence,
            "counterexample": plain(v.counterexample) if v.counterexample else None,
            "details": plain(v.details), "seed": v.seed, "runtime_s": v.runtime_s}


def _verdict_from_row(row: Mapping[str, Any]) -> Verdict:
    return Verdict(Status(row["status"]), row["method"], row["evidence"], row["counterexample"],
                   row["details"], row["seed"], row["runtime_s"])


def _run_claim(claim_id: str, seed: int, profile: str, device: str) -> dict[str, Any]:
    """In a worker: resolve the claim by id, run it, return its verdict as plain values."""
    from . import registry

    return _verdict_row(registry.get(claim_id).run(RunContext(seed=seed, profile=profile, device=device)).verdict)


def _run_claim_dask(claim_id: str, seed: int, profile: str, device: str, hypothesis_profile: str | None):
    """The Dask task: :func:`_run_claim` with the Hypothesis profile of the submitting process and nested
    sweeps kept serial."""
    from . import profiles

    profiles.load(hypothesis_profile)
    _local.in_worker = True
    try:
        return _run_claim(claim_id, seed, profile, device)
    finally:
        _local.in_worker = False


# --- the dispatcher -----------------------------------------------------------------------------------------
class Dispatcher:
    """Where claims run: ``jobs`` local processes or a Dask ``scheduler`` address (neither: serially).

    The process pool or the Dask client is created on first use and kept until :meth:`close`, so one
    report run over several papers starts its workers once."""

    def __init__(self, jobs: int = 1, scheduler: str | None = None) -> None:
        if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
            raise DispatchError(f"jobs must be a whole number at least 1, not {jobs!r}")
        if scheduler is not None and (not isinstance(scheduler, str) or not scheduler.strip()):
            raise DispatchError(f"scheduler must be an address such as tcp://host:8786, not {scheduler!r}")
        if scheduler and jobs != 1:
            raise DispatchError("give either jobs (local processes) or a scheduler (Dask), not both")
        self.jobs, self.scheduler = jobs, scheduler or None
        self._executor = None
        self._client = None

    @property
    def serial(self) -> bool:
        return self.jobs == 1 and self.scheduler is None

    def same(self, jobs: int, scheduler: str | None) -> bool:
        return (self.jobs, self.scheduler) == (jobs, scheduler or None)

    def __repr__(self) -> str:
        where = f"scheduler={self.scheduler!r}" if self.scheduler else f"jobs={self.jobs}"
        return f"Dispatcher({where})"

    def executor(self):
        """The local process pool (joblib's loky ``ProcessPoolExecutor``; ``jobs`` workers)."""
        if self._executor is None:
            from joblib.externals.loky import ProcessPoolExecutor

            self._executor = ProcessPoolExecutor(max_workers=self.jobs, initializer=_init_worker,
                                                 initargs=(_hypothesis_profile(),))
        return self._executor

    def client(self):
        """The ``distributed.Client`` on the scheduler (also the default client, which ``store.sweep``'s
        ``backend="dask"`` maps over)."""
        if self._client is None:
            try:
                from distributed import Client
            except ImportError:
                raise DispatchError("--scheduler needs Dask: pip install 'theoryverify[distributed]'") from None
            try:
                self._client = Client(self.scheduler)  # waits distributed.comm.timeouts.connect (dask config)
            except (OSError, ValueError, TypeError) as exc:
                raise DispatchError(f"cannot reach the Dask scheduler at {self.scheduler}: "
                                    f"{type(exc).__name__}: {' '.join(str(exc).split())}") from None
        return self._client

    def submit(self, claim_id: str, ctx: RunContext):
        if self.scheduler:
            return self.client().submit(_run_claim_dask, claim_id, ctx.seed, ctx.profile, ctx.device,
                                        _hypothesis_profile(), pure=False, key=f"theoryverify-{claim_id}-{uuid.uuid4().hex}")
        return self.executor().submit(_run_claim, claim_id, ctx.seed, ctx.profile, ctx.device)

    def cancel(self, futures: Sequence[Any]) -> None:
        if not futures:
            return
        if self.scheduler and self._client is not None:
            self._client.cancel(list(futures))
        else:
            for f in futures:
                f.cancel()

    def close(self, kill: bool = False) -> None:
        """Stop the workers (``kill``: at once, e.g. after an interrupt, rather than after their claims).  Killing
        terminates the worker processes first: loky's own ``kill_workers`` races with futures already cancelled —
        its manager thread died with ``InvalidStateError`` (a traceback after Ctrl-C), left the workers computing
        their claims, and the interpreter's exit then waited for them (a ``report --jobs 2`` interrupted mid-run
        hung until its running claims finished)."""
        if self._executor is not None:
            if kill:
                _quiet_manager_thread()
                for process in list(getattr(self._executor, "_processes", {}).values()):
                    process.terminate()
            self._executor.shutdown(wait=True, kill_workers=kill)
            self._executor = None
        if self._client is not None:
            self._client.close()
            self._client = None


def _quiet_manager_thread() -> None:
    """After an interrupt, loky's executor manager thread may die on futures already cancelled or workers already
    gone (``InvalidStateError``, ``KeyError``): the run is being stopped on purpose, so its traceback is not shown
    (other threads' exceptions still are)."""
    import threading

    previous = threading.excepthook
    if getattr(previous, "_theoryverify_quiet", False):
        return

    def hook(args) -> None:
        if args.thread is not None and args.thread.name == "ExecutorManagerThread":
            return
        previous(args)
    hook._theoryverify_quiet = True  # type: ignore[attr-defined]
    threading.excepthook = hook


_active = Dispatcher()


def active() -> Dispatcher:
    """The process-wide dispatcher (serial unless :func:`configure` or :func:`using` set another)."""
    return _active


def configure(jobs: int = 1, scheduler: str | None = None) -> Dispatcher:
    """Make ``Dispatcher(jobs, scheduler)`` the process-wide dispatcher (the previous one is closed) and
    return it.  ``configure()`` goes back to serial."""
    global _active
    new = Dispatcher(jobs, scheduler)
    old, _active = _active, new
    old.close()
    return new


@contextmanager
def using(jobs: int = 1, scheduler: str | None = None) -> Iterator[Dispatcher]:
    """The active dispatcher for a block: ``with dispatch.using(jobs=2): ...``; the one before is restored
    afterwards.  If the active one already has these settings it is kept (its workers are reused)."""
    global _active
    if _active.same(jobs, scheduler):
        yield _active
        return
    new = Dispatcher(jobs, scheduler)
    old, _active = _active, new
    failed = True
    try:
        yield new
        failed = False
    finally:
        _active = old
        new.close(kill=failed)


@dataclass
class _Pinned:
    """A sweep point function run with the thread count of the process that started the sweep (a worker's
    own default, e.g. joblib's cores/jobs, could change the order of float reductions)."""

    fn: Callable[[Mapping[str, Any]], Any]
    threads: int | None

    def __call__(self, config: Mapping[str, Any]) -> Any:
        from . import threads

        pin = getattr(threads, "single_threaded", threads.torch_threads)  # torch and, where it can, BLAS
        with pin(self.threads):
            return self.fn(config)


def sweep_options(fn: Callable[[Mapping[str, Any]], Any]) -> tuple[int, str | None, Callable]:
    """``(n_jobs, backend, fn)`` for :func:`theoryverify.store.sweep` from the active dispatcher: serial in a
    worker or when none is set; joblib ``loky`` with ``jobs`` processes; ``"dask"`` on the scheduler (whose
    client this connects).  A parallel ``fn`` is wrapped to run with this process's torch thread count."""
    d = _active
    if in_worker() or d.serial:
        return 1, None, fn
    import sys

    threads = sys.modules["torch"].get_num_threads() if "torch" in sys.modules else None
    pinned = _Pinned(fn, threads)
    if d.scheduler:
        d.client()
        return 1, "dask", pinned
    return d.jobs, "loky", pinned


def _registered(claim: Claim) -> bool:
    """Can a worker find this very claim by its id?"""
    from . import registry

    try:
        return registry.get(claim.id) is claim
    except (TheoryverifyError, LookupError):
        return False


def _rebuild(claim: Claim, row: Mapping[str, Any], ctx: RunContext) -> Result:
    """The Result that ``claim.run(ctx)`` gives, from a worker's verdict row."""
    return Result(claim, _verdict_from_row(row), ctx.for_claim(claim.id, claim.params_for(ctx.profile)))


@contextmanager
def _activated(d: Dispatcher) -> Iterator[None]:
    """``d`` as the active dispatcher for a block (without closing it afterwards)."""
    global _active
    old, _active = _active, d
    try:
        yield
    finally:
        _active = old


def _run_here(claim: Claim, ctx: RunContext, d: Dispatcher) -> Result:
    with _activated(d):
        return claim.run(ctx)


def iter_results(claims: Iterable[Claim], ctx: RunContext, *, jobs: int = 1,
                 scheduler: str | None = None) -> Iterator[Result]:
    """Results of ``claims`` in input order, each yielded as soon as it and those before it are done (a
    caller can store each one at once).  Closing the generator early cancels the claims not yet started."""
    claims = list(claims)
    wanted = Dispatcher(jobs, scheduler)  # checks the options; starts nothing
    if wanted.serial:
        for c in claims:
            yield c.run(ctx)
        return
    owned = not _active.same(jobs, scheduler)
    d = wanted if owned else _active  # reuse the active dispatcher's workers
    futures: dict[int, Any] = {}
    failed = True
    try:
        remote = [i for i, c in enumerate(claims) if _registered(c)]
        if len(remote) <= 1:  # nothing to spread: run here, and let the claim's sweeps use the workers
            for c in claims:
                yield _run_here(c, ctx, d)
            failed = False
            return
        futures = {i: d.submit(claims[i].id, ctx) for i in remote}
        for i, c in enumerate(claims):
            if i not in futures:  # not in the registry: runs here, its sweeps serial while the workers are busy
                yield _run_here(c, ctx, Dispatcher())
                continue
            try:
                row = futures.pop(i).result()
            except Exception as exc:  # a dead worker, a claim a worker cannot find, a lost task
                raise DispatchError(f"claim {c.id}: the worker could not run it ({d!r}): "
                                    f"{type(exc).__name__}: {' '.join(str(exc).split())}") from exc
            yield _rebuild(c, row, ctx)
        failed = False
    finally:
        d.cancel(list(futures.values()))
        if owned:
            d.close(kill=failed)


def run_claims(claims: Iterable[Claim], ctx: RunContext, *, jobs: int = 1,
               scheduler: str | None = None) -> list[Result]:
    """Results of ``claims`` in input order: serially (``jobs=1``), on ``jobs`` local worker processes, or on
    the Dask ``scheduler`` at that address — the same verdicts, evidence and counterexamples either way
    (only runtimes differ)."""
    return list(iter_results(claims, ctx, jobs=jobs, scheduler=scheduler))
