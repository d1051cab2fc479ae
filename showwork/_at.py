"""Where a value sits in an input, so an error can name it: results['r2'].rows[3]."""

from __future__ import annotations

from dataclasses import dataclass

from showwork.errors import AuditInputError


@dataclass(frozen=True)
class At:
    """A path into one input of `audit_answer`.

    >>> At("results").key("r2").attr("rows").key(3).error("bad", "revenue").field
    "['r2'].rows[3].revenue"
    """

    input: str
    """answer, results or catalog"""
    path: str = ""

    def key(self, key: str | int) -> At:
        return At(self.input, f"{self.path}[{key!r}]")

    def attr(self, name: str) -> At:
        return At(self.input, f"{self.path}.{name}")

    def error(self, problem: str, field: str | None = None) -> AuditInputError:
        """`results['r2'].rows[3]: problem`, with `field` (a column or key) added to `.field`."""
        full = self.path if field is None else f"{self.path}.{field}"
        return AuditInputError(self.input, full, f"{self.input}{self.path}: {problem}")


def kind_of(value: object) -> str:
    """How a value's type reads in a message: a string, a list, a boolean, null."""
    names = {str: "a string", bool: "a boolean", list: "a list", dict: "an object",
             type(None): "null", int: "an integer", float: "a number"}
    return names.get(type(value), f"a {type(value).__name__}")
