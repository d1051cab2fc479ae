"""Errors of the semantic layer.

Every error a governed call can raise is a `SemanticError`. Its message is what the analyst sees
as a blocked call, so it names what is unsupported and what is supported.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from showwork.semantic_layer.windows import Window


class SemanticError(Exception):
    """Root of every semantic-layer error."""

    code = "semantic_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class ModelError(SemanticError):
    """The semantic model (YAML) is invalid; `problems` lists each one with where it is."""

    code = "invalid_model"

    def __init__(self, problems: list[str]) -> None:
        super().__init__("Invalid semantic model:\n" + "\n".join(f"- {p}" for p in problems))
        self.problems = problems


class UnsupportedFeature(ModelError):
    """The model uses a MetricFlow feature showwork does not support yet (named, never dropped)."""

    code = "unsupported_feature"


class BlockedQuery(SemanticError):
    """A governed call that validation refused before anything ran."""

    code = "blocked"


class InvalidArguments(BlockedQuery):
    """Arguments of the wrong shape or type."""

    code = "invalid_arguments"


class UnknownMetric(BlockedQuery):
    code = "unknown_metric"


class UnsupportedMetric(UnknownMetric):
    """A metric the dbt models define that showwork cannot compute yet (named with why)."""

    code = "unsupported_metric"


class UndefinedComposition(BlockedQuery):
    code = "undefined_composition"


class UnsupportedDimension(BlockedQuery):
    code = "unsupported_dimension"


class AmbiguousDimension(UnsupportedDimension):
    """A dimension name that more than one join path or semantic model could mean."""

    code = "ambiguous_dimension"


class InvalidFilter(InvalidArguments):
    """A MetricFlow-style where filter outside the safe subset showwork accepts."""

    code = "invalid_filter"


class UnknownMember(BlockedQuery):
    code = "unknown_member"


class GrainNotAllowed(BlockedQuery):
    code = "grain_not_allowed"


class PointInTimeOverPeriod(BlockedQuery):
    code = "point_in_time_over_period"


class WindowError(BlockedQuery):
    """Reversed, empty, future or before-coverage windows."""

    code = "invalid_window"


class NoDays(WindowError):
    """A window of which no day is read: its bounds cross, or no day of it holds data. The
    analyst's tool refuses it (`message`); a caller answering as MetricFlow does gets a result
    with no rows and `note`, saying why."""

    def __init__(self, message: str, note: str, window: Window) -> None:
        super().__init__(message)
        self.note = note
        self.window = window
        """The window no day of which is read (its start may follow its end)."""


class ExecutionError(SemanticError):
    """The query was valid but the warehouse could not run it."""

    code = "execution_failed"


class QueryTimeout(ExecutionError):
    code = "timeout"


class RowCapExceeded(ExecutionError):
    code = "row_cap_exceeded"


class WarehouseError(SemanticError):
    """The warehouse cannot serve the model: missing, badly configured, unreadable, or unlike
    the model."""

    code = "warehouse_error"


class WarehouseMissing(WarehouseError):
    code = "warehouse_missing"


class NonAdditiveSum(BlockedQuery):
    code = "non_additive_sum"


class NoShare(BlockedQuery):
    """A share of the total asked of a metric whose members' values do not make up its total."""

    code = "no_share"


class NotAggregable(BlockedQuery):
    """A rollup across a dimension the governance says the metric does not combine over."""

    code = "not_aggregable"


class WarehouseSpecError(WarehouseError):
    """showwork.yaml's `warehouse:` value is not one the engines know."""

    code = "invalid_warehouse"


class EngineUnavailable(WarehouseError):
    """The engine cannot start or does not answer: no pyspark, no Java, a silent Connect URL."""

    code = "engine_unavailable"


class FileLoadError(WarehouseError):
    """A file of a `files:` warehouse could not be loaded; the message names the file."""

    code = "file_load_failed"


class MixedTypes(FileLoadError):
    """A CSV column holds values of more than one type; the message names file, column and value."""

    code = "mixed_types"


class WarehouseMismatch(WarehouseError):
    """The model names tables or columns the warehouse lacks; `problems` lists each one."""

    code = "warehouse_mismatch"

    def __init__(self, problems: list[str]) -> None:
        super().__init__("The semantic model does not match the warehouse:\n"
                         + "\n".join(f"- {p}" for p in problems))
        self.problems = problems
