"""Progress bars (tqdm) on stderr, quiet when stderr is not a terminal.

tqdm is optional: the GPU machine has no network and no tqdm, and a progress bar changes no result, so
without it :func:`progress` returns a silent stand-in with the few methods callers use."""
from __future__ import annotations

import sys
from typing import Any, Iterable, TypeVar

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
