"""The governed semantic layer: model, validation, compilation, execution, typed results."""

from semantic_layer.errors import BlockedQuery, SemanticError
from semantic_layer.layer import SemanticLayer
from semantic_layer.model import SemanticModelFile, load_model
from semantic_layer.results import Result, Row
from semantic_layer.where import parse_where
from semantic_layer.windows import Window

__all__ = ["BlockedQuery", "Result", "Row", "SemanticError", "SemanticLayer",
           "SemanticModelFile", "Window", "load_model", "parse_where"]
