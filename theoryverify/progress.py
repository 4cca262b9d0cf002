"""Progress bars (tqdm) on stderr, quiet when stderr is not a terminal."""
from __future__ import annotations

import sys
from typing import Iterable, TypeVar

from tqdm import tqdm

T = TypeVar("T")


def progress(items: Iterable[T], **kwargs) -> Iterable[T]:
    return tqdm(items, disable=not sys.stderr.isatty(), file=sys.stderr, leave=False, **kwargs)
