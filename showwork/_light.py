"""Load the pure modules of `semantic_layer` without its package `__init__`.

`semantic_layer/__init__.py` imports the layer (DuckDB, sqlglot) to re-export it, and the audit
imports `semantic_layer.results`, so a plain import would load a database engine just to audit an
answer. Loading the two pure modules the audit needs under their own names first means later
`from semantic_layer.results import …` statements find them in `sys.modules` and never run the
package `__init__`. A full `import semantic_layer` afterwards still works and shares these
modules (the one difference: the package object has no `results`/`windows` attributes; use
`from semantic_layer.results import …`). If `semantic_layer/__init__.py` ever exports lazily
(PEP 562), this module can go.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

PURE = ("showwork.semantic_layer.windows", "showwork.semantic_layer.results")
"""The modules the audit needs; each imports only the standard library (windows before results)."""


def load_pure() -> None:
    """Load each pure module alone, unless the package is already imported (then it is cheap)."""
    if "showwork.semantic_layer" in sys.modules:
        return
    folder = Path(__file__).parent / "semantic_layer"
    for name in PURE:
        if name not in sys.modules:
            _load(name, folder / f"{name.rpartition('.')[2]}.py")


def _load(name: str, path: Path) -> None:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {name} from {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
