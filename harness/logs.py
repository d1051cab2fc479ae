"""Logs for people go to stderr through structlog; stdout is kept for machine output.

Most commands never log, and importing structlog costs about a tenth of a second of start-up
(it loads its rich tracebacks, asyncio and greenlet support), so `configure` does not import it:
if structlog is not loaded yet, the configuration is applied the moment it is, by whichever
module first imports it to log. Either way, nothing logs through an unconfigured structlog
(whose default writes to stdout).
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from types import ModuleType
from typing import Any

DEBUG, INFO = 10, 20
"""The standard library's levels (`logging.DEBUG`, `logging.INFO`), which structlog's filtering
loggers take: importing `logging` for two numbers is most of `configure`'s cost."""


def configure(verbose: bool = False) -> None:
    level = DEBUG if verbose else INFO
    if "structlog" in sys.modules:
        _apply(sys.modules["structlog"], level)
        return
    for finder in sys.meta_path:
        if isinstance(finder, _ConfigureOnImport):
            finder.level = level
            return
    sys.meta_path.insert(0, _ConfigureOnImport(level))


def _apply(structlog: Any, level: int) -> None:
    structlog.configure(
        processors=[structlog.processors.add_log_level,
                    structlog.processors.TimeStamper(fmt="iso", utc=True),
                    structlog.dev.ConsoleRenderer(colors=False)],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=False,
    )


class _ConfigureOnImport(importlib.abc.MetaPathFinder):
    """Finds structlog as the other finders would, and configures it once it has loaded."""

    def __init__(self, level: int) -> None:
        self.level = level

    def find_spec(self, name: str, path: Any = None, target: Any = None
                  ) -> importlib.machinery.ModuleSpec | None:
        if name != "structlog":
            return None
        sys.meta_path.remove(self)  # one import, then the import system is as it was
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.loader is not None:
            spec.loader = _ThenConfigure(spec.loader, self.level)
        return spec


class _ThenConfigure(importlib.abc.Loader):
    """The real loader of structlog, then `_apply` on the loaded module."""

    def __init__(self, loader: importlib.abc.Loader, level: int) -> None:
        self.loader, self.level = loader, level

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self.loader.exec_module(module)
        _apply(module, self.level)
