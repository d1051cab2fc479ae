"""The governed semantic layer: model, validation, compilation, execution, typed results.

Names load on first use, so importing a light module of the layer (its errors, say) does not
load DuckDB, sqlglot or dbt-semantic-interfaces.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from semantic_layer.errors import BlockedQuery, SemanticError
    from semantic_layer.layer import SemanticLayer
    from semantic_layer.model import SemanticModelFile, load_model
    from semantic_layer.results import Result, Row
    from semantic_layer.where import parse_where
    from semantic_layer.windows import Window

_LAZY = {
    "BlockedQuery": "semantic_layer.errors", "SemanticError": "semantic_layer.errors",
    "SemanticLayer": "semantic_layer.layer", "SemanticModelFile": "semantic_layer.model",
    "load_model": "semantic_layer.model", "Result": "semantic_layer.results",
    "Row": "semantic_layer.results", "parse_where": "semantic_layer.where",
    "Window": "semantic_layer.windows",
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
