"""The governed semantic layer: model, validation, compilation, execution, typed results.

Names load on first use, so importing a light module of the layer (its errors, say) does not
load DuckDB, sqlglot or dbt-semantic-interfaces.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from showwork.semantic_layer.errors import BlockedQuery, SemanticError
    from showwork.semantic_layer.layer import SemanticLayer
    from showwork.semantic_layer.model import SemanticModelFile, load_model
    from showwork.semantic_layer.results import Result, Row
    from showwork.semantic_layer.where import parse_where
    from showwork.semantic_layer.windows import Window

_LAZY = {
    "BlockedQuery": "showwork.semantic_layer.errors", "SemanticError": "showwork.semantic_layer.errors",
    "SemanticLayer": "showwork.semantic_layer.layer", "SemanticModelFile": "showwork.semantic_layer.model",
    "load_model": "showwork.semantic_layer.model", "Result": "showwork.semantic_layer.results",
    "Row": "showwork.semantic_layer.results", "parse_where": "showwork.semantic_layer.where",
    "Window": "showwork.semantic_layer.windows",
}

__all__ = ["BlockedQuery", "Result", "Row", "SemanticError", "SemanticLayer",
           "SemanticModelFile", "Window", "load_model", "parse_where"]


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'semantic_layer' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value

if not __name__.startswith("showwork."):  # one import name: the folders live under showwork
    raise ImportError(f"import showwork.{__name__}, not {__name__} (see showwork/__init__.py)")
