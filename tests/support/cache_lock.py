"""One builder at a time for each cached test warehouse: `make test` runs its files on several
workers (pytest-xdist), and two of them may ask for the same cache at once. The first builds it
while the others wait on its lock, then find it built.

A cache counts as built only by the stamp written after its build returned (`<name>.built`
beside it), never by a file the build writes on the way: dbt writes the tutorial's
target/semantic_manifest.json at its first step (`dbt seed`), and a worker that took that file
for the finished build opened the warehouse before `dbt run` had made its tables (CI, stop 57).
Whatever stands at the path without a stamp is an interrupted build and is built again."""

from __future__ import annotations

import fcntl
import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_name(path.name + ".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        yield


def stamp(path: Path) -> Path:
    """What a finished build of `path` leaves beside it."""
    return path.with_name(path.name + ".built")


def built(path: Path) -> bool:
    """Whether a build of `path` finished: its stamp, whatever else stands there."""
    return stamp(path).exists()


def cached(path: Path, build: Callable[[Path], object]) -> Path:
    """`path`, built by `build(path)` unless a finished build stamped it, one worker at a time."""
    if not built(path):
        with _locked(path):
            if not built(path):
                if path.is_dir():
                    shutil.rmtree(path)
                elif path.exists():
                    path.unlink()
                build(path)
                stamp(path).touch()
    return path
