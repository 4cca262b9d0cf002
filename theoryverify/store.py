"""Results store: finished configurations cached on disk, so interrupted sweeps resume.

A point is keyed by (claim id, configuration dict, seed, code version, library versions); the
code version is a hash of the claim's module source files (:func:`code_version`).  Values are
JSON (numbers as :func:`~theoryverify.verdicts.plain` writes them); every file is written to a
temporary file in the same folder and moved into place with ``os.replace`` (atomic on POSIX), so
a killed sweep leaves only finished points.  ``get_or_compute`` returns the JSON round-trip of a
fresh value too, so a resumed sweep returns exactly what an uninterrupted one does.

Faults never turn into a wrong result or a traceback: every record carries the SHA-256 of its value and its
full key, and an entry that cannot be read, parsed or checked (truncated, corrupt, another key) gives one
warning and is recomputed (records written before the checksum are accepted when their key matches); a store
that cannot be written (read-only folder or file system, no permission, disk full) gives one warning and the run
goes on without storing.  Two processes writing the same store lose nothing: each file is written whole under
a unique temporary name and moved into place atomically, so the last writer of a key wins with a whole record.

:func:`sweep` computes only the missing points, with a tqdm bar: in-process, through joblib
(``loky``, ``threading``, ...), or, with ``backend="dask"``, on the active ``distributed.Client``
(``Client.map`` with ``pure=True``, results taken back in config order, unfinished futures
cancelled if the sweep stops).  Dask bypasses joblib's own dask backend, which breaks when joblib
and distributed versions drift apart (joblib 1.6 + distributed 2026.8: ``Batch.__call__() got an
unexpected keyword argument 'nesting_level'``).
"""
from __future__ import annotations

import hashlib
import json
import os
import tempfile
from collections import deque
from pathlib import Path
from types import ModuleType
from typing import Any, Callable, Iterable, Mapping, Sequence

from .environment import versions
from .progress import note, progress
from .verdicts import plain

DEFAULT_ROOT = ".theoryverify-cache"
#: the variable that moves every store (sweep points here, finished claims in ``report/``; theoryverify.resume)
CACHE_ENV = "THEORYVERIFY_CACHE"


def code_version(*sources: ModuleType | str | os.PathLike) -> str:
    """SHA-256 (16 hex) of the given modules' source files (or paths), in the given order."""
    h = hashlib.sha256()
    for src in sources:
        path = Path(src.__file__) if isinstance(src, ModuleType) else Path(src)
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def library_versions() -> dict[str, str]:
    return {k: v for k, v in versions().items() if k != "theoryverify"}


def key_digest(key: Mapping[str, Any]) -> str:
    text = json.dumps(plain(dict(key)), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _roundtrip(value: Any) -> Any:
    return json.loads(json.dumps(plain(value)))


#: the store roots this process could not write / read (warned about once each; ``Store()`` is made afresh by
#: every sweep, so the state is kept per root rather than per object)
_UNWRITABLE: set[str] = set()
_UNREADABLE: set[str] = set()


def _first_for(seen: set[str], root: Path) -> bool:
    """Record ``root`` in ``seen``; True unless it or a folder inside or around it was recorded before (a
    read-only ``.theoryverify-cache`` is one warning, not one per store under it)."""
    here = os.path.abspath(root)
    related = any(here == r or here.startswith(r + os.sep) or r.startswith(here + os.sep) for r in seen)
    seen.add(here)
    return not related


def _value_digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


class Store:
    """A folder of JSON results, one file per key (``<root>/<claim>/<sha256>.json``)."""

    def __init__(self, root: str | os.PathLike | None = None) -> None:
        # no root given: ``$THEORYVERIFY_CACHE`` where it is set (the folder whose ``report/`` keeps finished
        # claims keeps their sweep points too: a run from another working directory, or a fresh worktree, reuses
        # them), else the working directory's DEFAULT_ROOT
        self.root = Path(root if root is not None else os.environ.get(CACHE_ENV) or DEFAULT_ROOT)

    @property
    def writable(self) -> bool:
        """False once a write to this root failed in this process: the run goes on without storing."""
        return os.path.abspath(self.root) not in _UNWRITABLE

    def path(self, key: Mapping[str, Any]) -> Path:
        claim = str(key.get("claim", "_")).replace(os.sep, "_")
        return self.root / claim / f"{key_digest(key)}.json"

    def get(self, key: Mapping[str, Any]) -> tuple[bool, Any]:
        """(True, value) for a whole record of this very key; (False, None) when there is none, or (with one
        warning) when the entry is unreadable, truncated, corrupt or of another key — it is then recomputed."""
        p = self.path(key)
        try:
            with open(p, encoding="utf-8") as fh:
                record = json.load(fh)
        except (FileNotFoundError, NotADirectoryError):  # no entry (or no folder that could hold one)
            return False, None
        except OSError as exc:
            if _first_for(_UNREADABLE, self.root):
                note(f"warning: cannot read the results store {self.root} ({type(exc).__name__}: {exc}); "
                     "computing instead")
            return False, None
        except ValueError:  # not JSON (truncated, binary garbage, bad encoding)
            return self._corrupt(p, "not valid JSON (truncated or corrupt)")
        if not isinstance(record, dict) or "value" not in record:
            return self._corrupt(p, "not a results record")
        if record.get("key") != _roundtrip(dict(key)):
            return self._corrupt(p, "it holds another key")
        value = record["value"]
        if "sha256" in record and record["sha256"] != _value_digest(value):
            return self._corrupt(p, "its value does not match its checksum")
        return True, value

    def _corrupt(self, path: Path, why: str) -> tuple[bool, Any]:
        note(f"warning: results store entry {path}: {why}; ignored, the result is recomputed")
        return False, None

    def put(self, key: Mapping[str, Any], value: Any) -> Any:
        """Store ``value`` under ``key`` and return its JSON round-trip; a store that cannot be written gives one
        warning (the first time) and the value is returned unstored."""
        out = _roundtrip(value)
        if not self.writable:
            return out
        p = self.path(key)
        record = {"key": plain(dict(key)), "value": out, "sha256": _value_digest(out)}
        tmp = None
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=p.parent, prefix=".tmp-", suffix=".json")
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(record, fh)
                fh.flush()
                os.fsync(fh.fileno())
            os.replace(tmp, p)
            tmp = None
        except OSError as exc:
            if _first_for(_UNWRITABLE, self.root):
                note(f"warning: cannot write the results store {self.root} ({type(exc).__name__}: {exc}); "
                     "running without storing results")
        finally:
            if tmp is not None and os.path.exists(tmp):
                try:
                    os.unlink(tmp)
                except OSError:
                    pass
        return out

    def get_or_compute(self, key: Mapping[str, Any], fn: Callable[[], Any]) -> Any:
        found, value = self.get(key)
        return value if found else self.put(key, fn())


def point_key(key_base: Mapping[str, Any], config: Mapping[str, Any]) -> dict[str, Any]:
    """key_base (claim, code, libraries, ...) + this point's configuration (which may hold 'seed')."""
    key = dict(key_base)
    key["config"] = {k: v for k, v in config.items() if k != "seed"}
    key["seed"] = config.get("seed")
    key.setdefault("libraries", library_versions())
    return key


def sweep(store: Store | None, key_base: Mapping[str, Any], configs: Sequence[Mapping[str, Any]],
          fn: Callable[[Mapping[str, Any]], Any], *, n_jobs: int | None = None, backend: str | None = None,
          desc: str | None = None) -> list[Any]:
    """``[fn(c) for c in configs]``, computing only points the store lacks; each finished point is
    written as soon as it is back.  ``store=None`` computes everything (no cache).

    ``n_jobs > 1`` or a ``backend`` dispatches the missing points through ``joblib.Parallel``;
    ``backend="dask"`` maps them over the active ``distributed.Client`` instead (create one first,
    e.g. ``with Client(LocalCluster()):``; ``n_jobs`` is then ignored, the cluster sizes itself).
    Neither given: the engine's active dispatcher decides (:func:`theoryverify.dispatch.sweep_options`:
    serial unless ``verify --jobs/--scheduler`` or ``dispatch.using(...)`` set one; always serial inside a
    dispatched worker).  ``fn`` must be a pure function of its configuration (all randomness from
    ``config["seed"]``).
    """
    if n_jobs is None and backend is None:
        from .dispatch import sweep_options

        n_jobs, backend, fn = sweep_options(fn)
    n_jobs = 1 if n_jobs is None else n_jobs
    keys = [point_key(key_base, c) for c in configs]
    results: list[Any] = [None] * len(configs)
    missing: list[int] = []
    for i, k in enumerate(keys):
        found, value = store.get(k) if store else (False, None)
        if found:
            results[i] = value
        else:
            missing.append(i)
    if store and missing and len(missing) < len(configs):  # an interrupted sweep resumes: say so
        note(f"{desc or key_base.get('claim', 'sweep')}: {len(configs) - len(missing)} of {len(configs)} sweep "
             "points from the results store")
    bar = progress(missing, desc=desc or str(key_base.get("claim", "sweep")))
    try:
        for i, value in zip(missing, _dispatch(fn, [configs[i] for i in missing], n_jobs, backend)):
            results[i] = store.put(keys[i], value) if store else _roundtrip(value)
            bar.update(1)
    finally:
        bar.close()
    return results


def _dispatch(fn: Callable, configs: list, n_jobs: int, backend: str | None) -> Iterable[Any]:
    """Values of ``fn`` over ``configs``, in order, lazily (each one as soon as it and its
    predecessors are back)."""
    if n_jobs == 1 and backend is None:
        return (fn(c) for c in configs)
    if backend == "dask":
        return _dispatch_dask(fn, configs)
    from joblib import Parallel, delayed

    return Parallel(n_jobs=n_jobs, backend=backend, return_as="generator")(delayed(fn)(c) for c in configs)


def _dispatch_dask(fn: Callable, configs: list) -> Iterable[Any]:
    """``Client.map`` over the active ``distributed.Client``; ``future.result()`` in config order
    (re-raises a point's remote exception); each result is released once taken, and whatever is
    left is cancelled when the sweep stops early."""
    try:
        from distributed import get_client
    except ImportError as exc:  # pragma: no cover - optional extra
        raise ImportError('backend="dask" needs the optional extra: pip install theoryverify[distributed]') from exc
    try:
        client = get_client()
    except ValueError as exc:
        raise RuntimeError('backend="dask" needs an active distributed.Client (e.g. `with Client(...):`)') from exc
    pending = deque(client.map(fn, configs, pure=True) if configs else [])
    try:
        while pending:
            value = pending[0].result()
            pending.popleft()  # drop our reference: the cluster may free this result now
            yield value
    finally:
        if pending:
            client.cancel(list(pending))
