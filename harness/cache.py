"""The project cache under SHOWWORK_HOME/cache: what a command would otherwise rebuild each start.

Two kinds of entry, each keyed by everything it depends on:
- the validated semantic model: the digest of the project's files (showwork.yaml, models,
  governance) and of the code that reads them (semantic_layer's sources, the Python and
  dbt-semantic-interfaces versions);
- the member index (the warehouse's own values per dimension): the model's key and the
  warehouse's fingerprint (file sizes and modification times; see `warehouse_fingerprint`).
- a governed call prepared on that model (its SQL and how to type its rows: the layer's
  Reading): the member index's key and the call's kind, canonical wire arguments and dialect
  (harness/project.py `_prepared`). Its rows are read afresh on every call.

A changed file or warehouse misses its key and rebuilds exactly that entry. An entry carries the
SHA-256 of its payload; a corrupt or unreadable entry is rebuilt, never trusted. The cache never
changes an audit: audits read traces, and a cached model is the same object a fresh load builds
(a test compares cached and uncached runs byte for byte). `SHOWWORK_CACHE=0` turns it off;
`showwork cache clear` empties it.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

from showwork.harness.home import home

T = TypeVar("T")
MAGIC = b"showwork-cache-1\n"
OFF = "SHOWWORK_CACHE"


def folder() -> Path:
    return home() / "cache"


def enabled() -> bool:
    return os.environ.get(OFF, "1").strip().lower() not in ("0", "off", "false", "no")


def clear() -> int:
    """Remove every cache entry; the number of entries removed."""
    root = folder()
    if not root.is_dir():
        return 0
    count = sum(1 for p in root.rglob("*.entry"))
    shutil.rmtree(root)
    return count


@cache
def code_digest() -> str:
    """What reads a project: the semantic layer's sources and the versions it builds on.

    A source counts by its name, size and modification time, as a warehouse file does: an
    edit changes them, and no start reads the layer's sources to learn it. A version counts by
    its installed metadata folder's name (`sqlglot-30.30.0.dist-info`), which is what
    `importlib.metadata.version` reads, listed once rather than searched for per package; an
    install whose files carry normalised times differs by showwork's own version."""
    h = hashlib.sha256(sys.version.encode())
    h.update("\0".join(installed(DEPENDS_ON)).encode())
    root = Path(__file__).resolve().parents[1] / "semantic_layer"
    sources = sorted(os.path.join(folder, name) for folder, _dirs, names in os.walk(root)
                     for name in names if name.endswith(".py"))
    for source in sources:
        stat = os.stat(source)
        named = Path(source).relative_to(root).as_posix()
        h.update(f"{named}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return h.hexdigest()[:16]


DEPENDS_ON = ("showwork", "dbt-semantic-interfaces", "duckdb", "sqlglot")
"""The distributions whose versions a cached model depends on."""


def installed(names: Iterable[str]) -> list[str]:
    """The metadata folders (`name-version.dist-info`, `.egg-info`) of these distributions on
    sys.path, in path order, the first of each name only (the one an import finds); a
    distribution not installed is absent."""
    wanted = {_normal(n) for n in names}
    found: dict[str, str] = {}
    for entry in sys.path:
        try:
            listing = sorted(os.listdir(entry or "."))
        except OSError:
            continue
        for item in listing:
            stem, dot, suffix = item.rpartition(".")
            if dot and suffix in ("dist-info", "egg-info"):
                name = _normal(stem.split("-", 1)[0])
                if name in wanted and name not in found:
                    found[name] = item
    return [found[n] for n in sorted(found)]


def _normal(name: str) -> str:
    return name.replace("-", "_").replace(".", "_").lower()


def key(*parts: str) -> str:
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:24]


def fingerprint(paths: Iterable[Path]) -> str:
    """A warehouse's files by name, size and modification time (cheap: no file is read)."""
    h = hashlib.sha256()
    for path in sorted(paths):
        stat = path.stat()
        h.update(f"{path.resolve()}\0{stat.st_size}\0{stat.st_mtime_ns}\n".encode())
    return h.hexdigest()[:16]


def warehouse_fingerprint(spec: dict[str, Any], root: Path) -> str | None:
    """The fingerprint of a local warehouse (a DuckDB file, a folder of files); None for a
    server, whose contents no cheap stat can vouch for (its index is not cached)."""
    if "duckdb" in spec:
        path = root / str(spec["duckdb"])
        wal = path.with_name(path.name + ".wal")
        return fingerprint([path, *([wal] if wal.exists() else [])]) if path.is_file() else None
    if "files" in spec:
        base = root / str(spec["files"])
        return fingerprint(p for p in base.rglob("*") if p.is_file()) if base.is_dir() else None
    return None


def get(kind: str, entry_key: str, build: Callable[[], T]) -> T:
    """The cached value of (kind, key), else `build()` stored under it."""
    if not enabled():
        return build()
    value = read(kind, entry_key)
    if value is not None:
        return value
    value = build()
    write(kind, entry_key, value)
    return value


def read(kind: str, entry_key: str) -> Any:
    """The cached value of (kind, key); None if it is missing or not to be trusted."""
    return _read(folder() / kind / f"{entry_key}.entry")


def write(kind: str, entry_key: str, value: Any) -> None:
    """Store `value` under (kind, key), whole or not at all."""
    _write(folder() / kind / f"{entry_key}.entry", value)


def _read(path: Path) -> Any:
    try:
        data = path.read_bytes()
    except OSError:
        return None
    head, _, rest = data.partition(b"\n")
    checksum, payload = rest[:64], rest[64:]
    if head + b"\n" != MAGIC or hashlib.sha256(payload).hexdigest().encode() != checksum:
        _discard(path)
        return None
    try:
        return pickle.loads(payload)  # our own bytes, checked against their SHA-256 above
    except Exception:  # noqa: BLE001 (an entry from other code: rebuilt, never trusted)
        _discard(path)
        return None


def _write(path: Path, value: Any) -> None:
    try:
        payload = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    except (pickle.PicklingError, TypeError, AttributeError):
        return  # not cacheable: the caller built it, nothing is lost
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, delete=False, suffix=".tmp") as tmp:
            tmp.write(MAGIC + hashlib.sha256(payload).hexdigest().encode() + payload)
        os.replace(tmp.name, path)  # whole or not at all: a crash never leaves half an entry
    except OSError:
        return  # a read-only home: run uncached


def _discard(path: Path) -> None:
    with contextlib.suppress(OSError):
        path.unlink()
