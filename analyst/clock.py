"""Seconds spent importing modules, so a timed region can tell its work from a first use's import.

A governed query or an audit that imports a library the first time it runs pays a start-up cost,
not a cost of its own: the next query in the same process would not pay it. The attempt records
how much of its queries' and audit's time went on imports (the trace's `timing.imports_s`), so
`showwork bench startup` counts those seconds as start-up.

The clock wraps `importlib._bootstrap._find_and_load`, the one function every import of a module
not yet loaded goes through (the `import` statement and `importlib.import_module` alike); it is
the function `-X importtime` times. It counts per thread, outermost imports only (a nested import
is inside its parent's time). Where that function is missing (another Python), `installed()` is
False and the attempt records no import time rather than a wrong one.
"""

from __future__ import annotations

import importlib._bootstrap as _bootstrap
import threading
import time
from typing import Any

_local = threading.local()
_lock = threading.Lock()
_installed = False


def install() -> bool:
    """Start counting (once per process; later calls are free). True if the clock runs."""
    global _installed
    with _lock:
        if _installed:
            return True
        original = getattr(_bootstrap, "_find_and_load", None)
        if original is None:
            return False

        def timed(name: str, import_: Any) -> Any:
            if getattr(_local, "depth", 0):
                return original(name, import_)
            _local.depth = 1
            started = time.perf_counter()
            try:
                return original(name, import_)
            finally:
                _local.seconds = seconds() + time.perf_counter() - started
                _local.depth = 0

        _bootstrap._find_and_load = timed  # type: ignore[attr-defined]
        _installed = True
        return True


def installed() -> bool:
    return _installed


def seconds() -> float:
    """Seconds this thread has spent importing since the clock was installed."""
    return float(getattr(_local, "seconds", 0.0))
