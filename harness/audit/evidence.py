"""The evidence an audit reads: the governed calls of an attempt, as the trace stores them."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import msgspec

from showwork.harness.errors import StoredResultError
from showwork.semantic_layer.results import Result

T = TypeVar("T")
A = TypeVar("A")
_UNSET = object()


# Not frozen only for speed: built per claim by every audit (a frozen __init__ costs ~5×).
@dataclass(slots=True)
class Call:
    """One governed call: a handle and its stored result when it succeeded, a reason if not."""

    tool: str
    handle: int | None
    result_json: dict[str, Any] | msgspec.Raw | None
    """The typed result as stored (decoded, or raw JSON from an audit view); built into a
    Result only when a claim cites it."""
    error: str | None
    """The blocked or failed call's reason."""
    arguments: dict[str, Any] | msgspec.Raw | None = None
    """The call's arguments as stored (decoded, or raw JSON from an audit view); read only for
    the filters (`where`) a claim's text or the question's scope is checked against."""

    # Written out, not generated: compiled, a dataclass's generated __init__ still runs as Python
    # (one per call of every trace); this one is native.
    def __init__(self, tool: str, handle: int | None,
                 result_json: dict[str, Any] | msgspec.Raw | None, error: str | None,
                 arguments: dict[str, Any] | msgspec.Raw | None = None) -> None:
        self.tool = tool
        self.handle = handle
        self.result_json = result_json
        self.error = error
        self.arguments = arguments


class _Results(Mapping[int, Result]):
    """handle → Result, each built from its stored JSON on first use."""

    def __init__(self, calls: tuple[Call, ...]) -> None:
        self._raw = {c.handle: c.result_json for c in calls
                     if c.handle and c.result_json is not None}
        self._built: dict[int, Result] = {}

    def __getitem__(self, handle: int) -> Result:
        result = self.get(handle)
        if result is None:
            raise KeyError(handle)
        return result

    def get(self, handle: int, default: Any = None) -> Any:
        """The result for a handle (built on first use), or `default` when there is none."""
        result = self._built.get(handle)
        if result is None:
            raw = self._raw.get(handle)
            if raw is None:
                return default
            try:
                result = _build(raw)
            except (KeyError, TypeError, AttributeError, msgspec.ValidationError) as exc:
                raise StoredResultError(f"the stored result of r{handle} is not a typed result "
                                        f"({type(exc).__name__}: {exc}); the trace was edited "
                                        "or damaged") from exc
            if result is None:
                return default
            self._built[handle] = result
        return result

    def __contains__(self, handle: object) -> bool:
        return handle in self._raw

    def __iter__(self) -> Iterator[int]:
        return iter(self._raw)

    def __len__(self) -> int:
        return len(self._raw)


_NULL = msgspec.Raw(b"null")
_RESULT = msgspec.json.Decoder(Result)
"""Stored results are decoded straight into typed results (rows and all), checking each
field's type on the way."""


def _build(raw: dict[str, Any] | msgspec.Raw) -> Result | None:
    """A stored result as a typed result; None for an empty one."""
    if isinstance(raw, msgspec.Raw):
        return None if len(raw) < 8 and bytes(raw).strip() == b"{}" else _RESULT.decode(raw)
    return Result.from_json(raw) if raw else None

Filters = dict[str, frozenset[str]]
"""Dimension → the members a call's `where` keeps (in-filters, and the branches of an any_of)."""


def filters_of(arguments: dict[str, Any] | msgspec.Raw | None) -> Filters:
    """The members a call's `where` selects, per dimension; not_in filters select none.

    >>> filters_of({"where": [{"dimension": "platform", "values": ["ios"]}]})
    {'platform': frozenset({'ios'})}
    """
    if isinstance(arguments, msgspec.Raw):
        arguments = msgspec.json.decode(arguments) if arguments else None
    where = arguments.get("where") if isinstance(arguments, dict) else None
    out: dict[str, set[str]] = {}
    for f in _in_filters(where):
        out.setdefault(str(f.get("dimension")), set()).update(map(_member, f["values"]))
    return {d: frozenset(v) for d, v in out.items()}


def _known_filters(arguments: dict[str, Any] | msgspec.Raw | None) -> Filters | None:
    if arguments is None or (isinstance(arguments, msgspec.Raw) and not arguments):
        return None
    return filters_of(arguments)


def _in_filters(where: Any) -> list[dict[str, Any]]:
    """The `in` filters of a `where`, the branches of an any_of included."""
    out: list[dict[str, Any]] = []
    for item in where if isinstance(where, list) else []:
        branches = item.get("any_of") if isinstance(item, dict) else None
        out += [f for f in (branches if isinstance(branches, list) else [item])
                if isinstance(f, dict) and f.get("op", "in") == "in"
                and isinstance(f.get("values"), list)]
    return out


def _member(value: Any) -> str:
    """A filter value as rows name members (booleans lower case, like member_text)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _stored(result: dict[str, Any] | msgspec.Raw | None) -> dict[str, Any] | msgspec.Raw | None:
    """A stored result, or None for a call without one (null, empty or absent)."""
    if isinstance(result, msgspec.Raw):
        return result if result and result != _NULL else None
    return result or None


@dataclass(frozen=True)
class Evidence:
    calls: tuple[Call, ...]
    results: Mapping[int, Result] = field(init=False, repr=False, compare=False)
    """handle → Result, each built from its stored JSON when a claim first cites it."""
    _memo: dict[tuple[str, int], Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "results", _Results(self.calls))
        object.__setattr__(self, "_memo", {})

    def memo(self, what: str, handle: int, make: Callable[[A], T], arg: A) -> T:
        """`make(arg)`, found once per result handle (its filters, its windows)."""
        key = (what, handle)
        found = self._memo.get(key, _UNSET)
        if found is _UNSET:
            found = self._memo[key] = make(arg)
        return found

    def filters(self, handle: int) -> Filters | None:
        """The filters of the call that made result `handle` (read on first use); None when
        its arguments were not recorded (a result given without its call)."""
        return self.memo("filters", handle, self._filters, handle)

    def _filters(self, handle: int) -> Filters | None:
        return _known_filters(self._arguments(handle))

    def _arguments(self, handle: int) -> dict[str, Any] | msgspec.Raw | None:
        return next((c.arguments for c in self.calls if c.handle == handle), None)

    @classmethod
    def from_json(cls, calls: list[dict[str, Any]]) -> Evidence:
        out = []
        for c in calls:
            err = c.get("error") or {}
            out.append(Call(c.get("tool", "?"), c.get("handle"), _stored(c.get("result")),
                            err.get("message"), c.get("arguments")))
        return cls(tuple(out))

    @classmethod
    def from_calls(cls, calls: Any) -> Evidence:
        """From the trace's call records or views (objects with tool, handle, result, error,
        arguments)."""
        return cls(tuple(Call(c.tool, c.handle, _stored(c.result), (c.error or {}).get("message"),
                              getattr(c, "arguments", None)) for c in calls))

    def blocked(self) -> list[tuple[int, Call]]:
        """(position among all calls, 1-based; call) for calls that got no handle."""
        return [(i, c) for i, c in enumerate(self.calls, 1) if c.handle is None]
