"""The audit's hot modules compiled with mypyc, and the guard that never runs a stale build.

`make install` builds them in place (`build()`): each listed module gets an extension module
beside its source, which Python imports instead of the source, and the build records each
source's SHA-256. The audits are the same; a re-audit takes about 0.6 of the time
(`showwork bench audit` says whether the build ran). Without a C compiler the build says so and
the sources run as they are.

On import (`protocol` and `harness` call `guard()` before any listed module loads), a listed
source that differs from the one the build recorded (an edit, a checkout) sends every listed
module back to its source: mypyc's modules call each other directly, so one stale module means
none of the build may run. `make install` rebuilds when a listed source changes.
SHOWWORK_SOURCES=1 runs the sources without a word (to compare the two, or to debug in Python).

In the listed modules a name that may hold an int says `int | float` (or `Any`), never `float`:
compiled, a `float` name makes an int a float, and "1" would read as "1.0", written rounded.
tests/harness/test_compiled.py holds the build to the sources, value for value.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).absolute().parent.parent
"""The `showwork` package folder (the checkout's `showwork/`, or the installed one): the listed
paths are relative to it, and a module's name is `showwork.` + its path."""
ROOT = PACKAGE.parent
MODULES = (
    "protocol/numbers.py",
    "protocol/citations.py",
    "protocol/reading/_words.py",
    "protocol/reading/mentions.py",
    "protocol/reading/periods.py",
    "protocol/reading/_literals.py",
    "protocol/reading/filters.py",
    "harness/audit/audit.py",
    "harness/audit/basis.py",
    "harness/audit/checks.py",
    "harness/audit/comparisons.py",
    "harness/audit/context.py",
    "harness/audit/counts.py",
    "harness/audit/driver.py",
    "harness/audit/ends.py",
    "harness/audit/evidence.py",
    "harness/audit/findings.py",
    "harness/audit/index.py",
    "harness/audit/instructions.py",
    "harness/audit/labels.py",
    "harness/audit/numbers.py",
    "harness/audit/pairs.py",
    "harness/audit/prose.py",
    "harness/audit/quantifiers.py",
    "harness/audit/scope.py",
    "harness/audit/shape.py",
    "harness/audit/times.py",
    "harness/audit/gaps.py",
    "harness/audit/trends.py",
    "harness/audit/values.py",
    "harness/audit/words.py",
    "harness/audit/combined.py",
    "harness/audit/rates.py",
    "harness/audit/rowmoves.py",
    "harness/audit/spreads.py",
    "harness/audit/sums.py",
    "protocol/catalog_text.py",
    "protocol/periods.py",
    "protocol/reading/_calendar.py",
    "protocol/reading/qualifiers.py",
    "protocol/reading/_reader.py",
    "protocol/reading/asks.py",
    "protocol/reading/phrasings.py",
)
"""The audit's per-claim code and its step runner (not its types: mypyc's classes differ there),
and the text readers every audit runs on each text: the account of an answer's words
(`words.py`, a third of a re-audit), mentions of the catalog and periods in text, the
prefilters every pattern search goes through (`_literals.py`) and the exclusion cues
(`filters.py`), and the prose's readings of rows (`combined`, `rates`, `rowmoves`, `spreads`,
`sums`): run from the sources, those held a tenth of a fresh re-audit of the compiled build
(perf, `bench audit`'s traces). Then the question reader's hot part (`_reader`, `asks`,
`phrasings`, `qualifiers`: the scope reads each question once, a twentieth of a fresh
re-audit from the sources) and the small readers each audit calls (`catalog_text.direction`,
`_calendar`, `protocol/periods.py`): the build's C is about a third larger with them (54 MB
against 41 MB), and so is its compile time."""
RECORD = ROOT / "build" / "mypyc" / "sources.json"
"""What the build compiled: module source path → SHA-256 of the source it compiled."""

SOURCES_VAR = "SHOWWORK_SOURCES"
"""Set to 1 to run the sources even where a fresh build exists."""

_state: dict[str, bool] = {}


def _name(path: str) -> str:
    return "showwork." + path.removesuffix(".py").replace("/", ".")


def _extensions(path: str) -> list[Path]:
    source = PACKAGE / path
    return [p for suffix in importlib.machinery.EXTENSION_SUFFIXES
            if (p := source.with_name(source.stem + suffix)).exists()]


def _digest(path: str) -> str:
    return hashlib.sha256((PACKAGE / path).read_bytes()).hexdigest()


def stale() -> list[str]:
    """The listed sources that differ from what the build compiled ([] when fresh or unbuilt)."""
    if not any(_extensions(p) for p in MODULES):
        return []
    try:
        recorded = json.loads(RECORD.read_text())
    except (OSError, ValueError):
        return list(MODULES)
    return [p for p in MODULES if not _extensions(p) or recorded.get(p) != _digest(p)]


class _Sources:
    """A meta-path finder that loads the listed modules from their sources."""

    def __init__(self, paths: Sequence[str]) -> None:
        self.files = {_name(p): PACKAGE / p for p in paths}

    def find_spec(self, name: str, path: object = None, target: ModuleType | None = None
                  ) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(name)
        return importlib.util.spec_from_file_location(name, file) if file else None


def sources_asked() -> bool:
    """Whether SHOWWORK_SOURCES=1 asks for the sources (to compare, or to debug in Python)."""
    return os.environ.get(SOURCES_VAR) == "1"


def guard() -> None:
    """Once per process, before a listed module loads: a stale build is not used."""
    if "checked" in _state:
        return
    _state["checked"] = True
    changed = [] if sources_asked() else stale()
    if sources_asked() or changed:
        sys.meta_path.insert(0, _Sources(MODULES))
    if changed:
        print(f"showwork: the compiled audit modules are out of date ({', '.join(changed[:3])}"
              f"{' …' if len(changed) > 3 else ''} changed); running the sources. Run "
              "`make install` to rebuild.", file=sys.stderr)


def in_use() -> bool:
    """Whether the audit runs the compiled build (every listed module loaded from it)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return all(str(getattr(importlib.import_module(_name(p)), "__file__", "")).endswith(suffixes)
               for p in MODULES)


def build() -> int:
    """Compile the listed modules in place; 0 when built, 1 when they could not be (the sources
    then run as they are)."""
    try:
        from mypyc.build import mypycify
        from setuptools import setup
    except ImportError as exc:
        print(f"showwork: not compiling the audit ({exc}); the sources run as they are.",
              file=sys.stderr)
        return 1
    os.chdir(ROOT)  # mypyc names the modules by their paths from here: showwork/protocol/…
    digests = {p: _digest(p) for p in MODULES}
    RECORD.unlink(missing_ok=True)
    for path in MODULES:  # a build that fails leaves the sources, not an older build
        for old in _extensions(path):
            old.unlink()
    try:
        setup(name="showwork-compiled", packages=[], py_modules=[],
              script_args=["build_ext", "--inplace", "--build-temp", "build/mypyc/temp"],
              ext_modules=mypycify([f"showwork/{p}" for p in MODULES], opt_level="3",
                                          target_dir="build/mypyc"))
    except (SystemExit, Exception) as exc:  # no compiler, no headers: say so, run the sources
        print(f"showwork: could not compile the audit ({exc}); the sources run as they are.",
              file=sys.stderr)
        return 1
    RECORD.parent.mkdir(parents=True, exist_ok=True)
    RECORD.write_text(json.dumps(digests, indent=1, sort_keys=True))
    return 0
