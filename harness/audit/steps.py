"""A step of the audit: the codes it may emit, and the function that finds them.

Each check and finder declares its codes, so a code maps to the one place that checks it
(tests hold the union to DESIGN's list), and the runner (audit.run) refuses a code a step did not declare.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar


class Coded(Protocol):
    @property
    def code(self) -> str: ...


C = TypeVar("C")
R = TypeVar("R", bound=Coded)


@dataclass(frozen=True)
class Step(Generic[C, R]):
    """One check (returns defects) or finder (returns findings) of the audit."""

    codes: tuple[str, ...]
    """Every code this step may emit."""
    find: Callable[[C], list[R]]

    @property
    def name(self) -> str:
        return self.find.__name__

    def __call__(self, ctx: C) -> list[R]:
        found = self.find(ctx)
        if found:
            self.verify(found)
        return found

    def verify(self, found: list[R]) -> None:
        """Refuse a code this step does not declare."""
        for item in found:
            if item.code not in self.codes:
                raise AssertionError(f"{self.name} emitted {item.code!r}, which it does not "
                                     f"declare ({', '.join(self.codes)})")


def emits(*codes: str) -> Callable[[Callable[[C], list[R]]], Step[C, R]]:
    """Declare the codes a check or finder emits: `@emits("mixed_support", "no_support")`."""
    def wrap(find: Callable[[C], list[R]]) -> Step[C, R]:
        return Step(codes, find)
    return wrap


def codes_of(steps: Iterable[Step]) -> set[str]:
    return {code for step in steps for code in step.codes}
