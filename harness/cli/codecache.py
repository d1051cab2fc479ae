"""What Python compiles from text at run time, compiled once, not again on every start.

Three kinds of text are compiled afresh by every process that meets them:
- each method a dataclass generates (`__init__`, `__repr__`, `__eq__`, …): Python 3.11 compiles
  its source, one `exec` per method;
- each string annotation `typing.ForwardRef` is given (pydantic and typer evaluate them);
- each regular expression, parsed and translated to the regex engine's code in Python.
A warm `showwork ask` made about 740 such methods, 940 annotations and 250 patterns: about a
third of its instructions, for the same texts on every start.

`install()` keeps the results in the project cache (SHOWWORK_HOME/cache/code), keyed by the
interpreter's exact version and bytecode magic number and by the command, and has dataclasses,
typing and `re` look a text up there before compiling it. What is kept is what compiling gives: a
method's or annotation's code object (the same text, file name `<string>`, mode and flags: neither
module has a `__future__` import), and a pattern's arguments to the regex engine (`_sre.compile`:
flags, code, groups), so every class, method, annotation and pattern is the one an uncached start
makes. A text not seen before is compiled as usual, and what the process compiled is stored when it
exits. The entry is checked like every cache entry (a corrupt one is rebuilt, never trusted);
`SHOWWORK_CACHE=0` turns it off. Only the CLI installs it: `import showwork` changes nothing in a
user's process.
"""

from __future__ import annotations

import atexit
import builtins
import dataclasses
import importlib.util
import marshal
import re
import sys
import threading
import typing
from types import CodeType, ModuleType
from typing import Any

from showwork.harness import cache

KIND = "code"
FEW = 16
"""A process that compiled fewer new texts than this leaves the entry as it is: a text built from
a set (tokenize's patterns) differs with every process's string hashing, and rewriting the
entry on every start to add one would cost more than compiling it."""


class _Kept:
    """The texts compiled before (loaded) and by this process, by kind, and which it used."""

    def __init__(self, stored: object) -> None:
        self.code: dict[tuple[str, str], CodeType] = {}
        """(source, mode) → its code object."""
        self.patterns: dict[tuple[str | bytes, int], tuple[Any, ...]] = {}
        """(pattern, flags) → the rest of its `_sre.compile` arguments."""
        self.used: set[tuple[Any, Any]] = set()
        self.fresh = 0
        if isinstance(stored, dict):
            code, patterns = stored.get("code"), stored.get("patterns")
            if isinstance(code, dict):
                self.code.update((k, v) for k, v in code.items() if isinstance(v, CodeType))
            if isinstance(patterns, dict):
                self.patterns.update((k, v) for k, v in patterns.items() if isinstance(v, tuple))

    def dump(self) -> bytes | None:
        """What to store: the texts this process used (None: leave the entry as it is). Texts
        only other processes used are dropped, so the entry holds one command's working set
        and never piles up texts no start asks for again (a set's order, a question's words)."""
        if self.fresh < FEW:
            return None
        code = {k: v for k, v in self.code.items() if k in self.used}
        patterns = {k: v for k, v in self.patterns.items() if k in self.used}
        try:
            return marshal.dumps({"code": code, "patterns": patterns})
        except ValueError:  # something marshal cannot write: nothing is kept this time
            return None


kept: _Kept | None = None
"""This process's texts, once installed."""


def install(command: str = "") -> bool:
    """Give dataclasses' `exec`, typing's `compile` and `re` the kept code (once per process),
    kept apart for each `command` (each loads its own modules). False if the cache is off or it
    is installed already."""
    global kept
    if kept is not None or not cache.enabled() or not _supported():
        return False
    entry = cache.key(sys.version, importlib.util.MAGIC_NUMBER.hex(), command)
    kept = texts = _Kept(_decode(cache.read(KIND, entry)))
    _code(texts)
    _patterns(texts)

    def store() -> None:
        payload = texts.dump()
        if payload is not None:
            cache.write(KIND, entry, payload)

    atexit.register(store)
    return True


def _supported() -> bool:
    """The three look-ups it replaces are where this Python has them (3.11 and later: a
    dataclass's methods are exec'd by `dataclasses`, annotations compiled by `typing`, patterns
    by `re._compiler`); elsewhere every start compiles as usual."""
    compiler = getattr(re, "_compiler", None)
    return (hasattr(dataclasses, "_create_fn") or hasattr(dataclasses, "_FuncBuilder")) and \
        hasattr(typing, "ForwardRef") and compiler is not None and \
        callable(getattr(compiler, "compile", None)) and hasattr(compiler, "_sre")


def _code(kept: _Kept) -> None:
    def compiled(source: str, mode: str) -> CodeType:
        code = kept.code.get((source, mode))
        if code is None:
            code = builtins.compile(source, "<string>", mode, dont_inherit=True)
            kept.code[(source, mode)] = code
            kept.fresh += 1
        kept.used.add((source, mode))
        return code

    def cached_exec(source: Any, globals: Any = None, locals: Any = None, /) -> None:
        if globals is None:  # exec's default namespaces are its caller's, not this frame's
            caller = sys._getframe(1)
            globals, locals = caller.f_globals, caller.f_locals if locals is None else locals
        if type(source) is str:
            source = compiled(source, "exec")
        builtins.exec(source, globals, locals)

    def cached_compile(source: Any, filename: Any, mode: str, *args: Any, **kwargs: Any) -> Any:
        if type(source) is str and filename == "<string>" and not args and not kwargs:
            return compiled(source, mode)
        return builtins.compile(source, filename, mode, *args, **kwargs)

    # A module global shadows the builtin for that module's own calls, and only for them.
    dataclasses.exec = cached_exec  # type: ignore[attr-defined]
    typing.compile = cached_compile  # type: ignore[attr-defined]


def _patterns(kept: _Kept) -> None:
    _compiler: Any = re._compiler  # type: ignore[attr-defined]
    real, engine = _compiler.compile, _compiler._sre
    lock = threading.Lock()
    made: list[tuple[Any, ...]] = []

    class Recording(ModuleType):
        """The regex engine, telling what a compile passed it."""

        def __getattr__(self, name: str) -> Any:
            return getattr(engine, name)

        @staticmethod
        def compile(*args: Any) -> Any:
            made.append(args)
            return engine.compile(*args)

    recording = Recording("_sre")

    def cached(p: Any, flags: int = 0) -> Any:
        if type(p) not in (str, bytes) or flags & re.DEBUG:
            return real(p, flags)
        found = kept.patterns.get((p, flags))
        if found is not None:
            kept.used.add((p, flags))
            return engine.compile(p, *found)
        with lock:  # one recorded compile at a time (a compile is rare once kept)
            made.clear()
            _compiler._sre = recording
            try:
                pattern = real(p, flags)
            finally:
                _compiler._sre = engine
            if len(made) == 1 and made[0][0] is p:
                _, engine_flags, code, *rest = made[0]
                # flags are RegexFlags and opcodes named ints: the engine reads them as ints
                kept.patterns[(p, int(flags))] = (int(engine_flags), [int(c) for c in code], *rest)
                kept.used.add((p, int(flags)))
                kept.fresh += 1
        return pattern

    _compiler.compile = cached


def _decode(payload: object) -> object:
    """The entry's kept texts; None for a missing entry or one that is not ours."""
    if not isinstance(payload, bytes):
        return None
    try:
        return marshal.loads(payload)
    except (EOFError, ValueError, TypeError):
        return None
