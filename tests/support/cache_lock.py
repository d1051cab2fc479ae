"""One builder at a time for each cached test warehouse: `make test` runs its files on several
workers (pytest-xdist), and two of them may ask for the same cache at once. The first builds it
while the others wait on its lock, then find it built."""

from __future__ import annotations

import fcntl
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        yield


def cached(path: Path, build: Callable[[Path], object], ready: Path | None = None) -> Path:
    """`path`, built by `build(path)` unless it exists (or `ready`, what a finished build
    leaves, does), one worker at a time."""
    done = ready or path
    if not done.exists():
        with _locked(path):
            if not done.exists():
                build(path)
    return path
