"""The code cache (harness/cli/codecache.py): a start that finds its texts kept compiles none of them,
and what it gets is what compiling gives (checked in fresh processes, as the CLI installs it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import dataclasses, hashlib, json, marshal, os, re, typing
uncached_re = re._compiler.compile
from showwork.harness.cli import codecache
installed = codecache.install()

tag = os.environ.get("FIELDS", "f")
classes = [dataclasses.make_dataclass(f"C{i}", [(f"{tag}x{i}", int), (f"{tag}y{i}", "list[str] | None", None)],
                                      frozen=True, order=True) for i in range(4)]
refs = [typing.ForwardRef(t) for t in ("dict[str, list[int]] | None", "tuple[int, ...]")]
texts = [(r"(?P<n>-?\\d+(?:\\.\\d+)?)\\s*(%|percent)", re.I), (rb"a|b+", 0),
         (r"[^\\W\\d]+  # words", re.ASCII | re.VERBOSE)]
patterns = [re.compile(p, f) for p, f in texts]
methods = {f"{c.__name__}.{m}": hashlib.sha256(marshal.dumps(getattr(c, m).__code__)).hexdigest()
           for c in classes for m in ("__init__", "__repr__", "__eq__", "__lt__", "__hash__")}
print(json.dumps({
    "installed": installed,
    "fresh": codecache.kept.fresh if codecache.kept else None,
    "methods": methods,
    "refs": [hashlib.sha256(marshal.dumps(r.__forward_code__)).hexdigest() for r in refs],
    "same_patterns": [p == uncached_re(t, f) for p, (t, f) in zip(patterns, texts)],
    "values": [repr(classes[0](1)), classes[0](1) == classes[0](1, None), classes[0](1) < classes[0](2),
               patterns[0].search("it fell 16.4 percent").groupdict(), patterns[0].flags],
}))
"""


def _probe(home: Path, **env: str) -> dict:
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "SHOWWORK_HOME": str(home), **env})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


class TestCodeCache:
    def test_a_second_start_compiles_nothing_and_gets_the_same_code(self, tmp_path: Path) -> None:
        """The first start compiles and keeps its texts; the second finds all of them, and its
        methods, annotations and patterns are those an uncached start compiles."""
        first = _probe(tmp_path)
        assert first["installed"] and first["fresh"] >= 20
        second = _probe(tmp_path)
        assert second["fresh"] == 0
        uncached = _probe(tmp_path / "off", SHOWWORK_CACHE="0")
        assert not uncached["installed"] and uncached["fresh"] is None
        for run in (first, second):
            assert run["methods"] == uncached["methods"] and run["refs"] == uncached["refs"]
            assert run["same_patterns"] == [True, True, True]
            assert run["values"] == uncached["values"]
        assert not (tmp_path / "off" / "cache").exists()

    def test_a_corrupt_entry_is_rebuilt(self, tmp_path: Path) -> None:
        """An entry whose bytes do not match its checksum is discarded: the start compiles
        afresh, with the same results, and keeps them again."""
        first = _probe(tmp_path)
        (entry,) = (tmp_path / "cache" / "code").glob("*.entry")
        data = bytearray(entry.read_bytes())
        data[-10] ^= 0xFF
        entry.write_bytes(bytes(data))
        again = _probe(tmp_path)
        assert again["fresh"] == first["fresh"] and again["methods"] == first["methods"]
        assert _probe(tmp_path)["fresh"] == 0

    def test_an_entry_keeps_what_its_writer_used(self, tmp_path: Path) -> None:
        """A start that compiles enough new texts stores the ones it used, not those only an
        earlier start used: they are compiled again by the next start that needs them."""
        first = _probe(tmp_path, FIELDS="a")
        other = _probe(tmp_path, FIELDS="b")  # other dataclass methods, the same patterns
        assert other["fresh"] < first["fresh"] and other["fresh"] >= 16
        assert _probe(tmp_path, FIELDS="b")["fresh"] == 0
        assert _probe(tmp_path, FIELDS="a")["fresh"] == other["fresh"]
