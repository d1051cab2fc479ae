"""The audit's compiled build (protocol/compiled.py): a stale build is never run, and the
sources and the build audit alike.

`make test` compiles first, so the rest of the suite (the golden traces among it) runs the
build; the test below runs the sources beside it on the same golden traces.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from showwork.protocol import compiled

ROOT = Path(__file__).resolve().parents[2]


def _tree(root: Path) -> list[str]:
    paths = ["pkg/a.py", "pkg/b.py"]
    for p in paths:
        (root / p).parent.mkdir(parents=True, exist_ok=True)
        (root / p).write_text(f"X = {p!r}\n")
    return paths


def _build(root: Path, paths: list[str]) -> None:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for p in paths:
        (root / p).with_suffix(suffix).write_bytes(b"")


def test_stale_names_each_changed_or_missing_module(tmp_path: Path, monkeypatch) -> None:
    paths = _tree(tmp_path)
    record = tmp_path / "build" / "sources.json"
    monkeypatch.setattr(compiled, "PACKAGE", tmp_path)
    monkeypatch.setattr(compiled, "MODULES", tuple(paths))
    monkeypatch.setattr(compiled, "RECORD", record)
    assert compiled.stale() == []  # never built: the sources run, nothing to say
    _build(tmp_path, paths)
    assert compiled.stale() == paths  # built, but no record of what: not trusted
    record.parent.mkdir()
    record.write_text(json.dumps({p: compiled._digest(p) for p in paths}))
    assert compiled.stale() == []
    (tmp_path / "pkg/a.py").write_text("X = 'edited'\n")
    assert compiled.stale() == ["pkg/a.py"]
    (tmp_path / "pkg/a.py").write_text("X = 'pkg/a.py'\n")  # edited back: fresh again
    assert compiled.stale() == []
    (tmp_path / "pkg/b.py").with_suffix(importlib.machinery.EXTENSION_SUFFIXES[0]).unlink()
    assert compiled.stale() == ["pkg/b.py"]


def _outputs(seed: int = 3) -> list[str]:
    """What the audit's number rules and audits give on random values, texts and faulted answers
    (reprs keep an int apart from a float): run once by the build and once by the sources."""
    import random

    from showwork.benchmarks.audit import CORPUS_KINDS, cases_of, inject
    from showwork.harness.audit import values
    from showwork.harness.audit.checks import _combinations
    from showwork.harness.audit.prose import _plain
    from showwork.protocol import numbers

    rng = random.Random(seed)

    def value() -> object:
        return rng.choice([rng.randint(-10**7, 10**7), rng.randint(-20, 20), float(rng.randint(-50, 50)),
                           rng.randint(-10**18, 10**18), 2**53 + rng.randint(0, 3),
                           round(rng.uniform(-1e4, 1e4), rng.randint(0, 4)), rng.uniform(-2, 2), 0, 0.0,
                           -0.0, float("inf"), True, False, None, str(rng.randint(0, 99))])

    out = []
    for _ in range(4_000):
        a, b = value(), value()
        out.append(repr((a, b, values.matches(a, b))))
        if isinstance(a, int | float) and not isinstance(a, bool):
            n = numbers.from_value(a)
            out.append(repr((n, numbers.say(a), numbers.say(a, "percent"), _plain(a),
                             [numbers.matches(n, b, k) for k in ("number", "percent", "fraction")],
                             _combinations(a, b) if isinstance(b, int | float) else None)))
    for _ in range(1_000):
        v = rng.choice([rng.randint(0, 10**6), round(rng.uniform(0, 100), rng.randint(0, 3))])
        form = rng.choice(["{v:,}", "{v}%", "{v}k", "fell {v}%", "rose by {v} pp", "${v}M", "{v}"])
        out.append(repr(numbers.read_numbers(f"It was {form.format(v=v)} in week 11.")))
    golden = ROOT / "traces" / "golden" / "traces.jsonl"
    cases = cases_of(golden.read_text().splitlines())
    for kind in CORPUS_KINDS:
        for _ in range(30):
            case = rng.choice(cases)
            faulted = inject(case, kind, rng)
            if faulted is not None:
                from showwork.harness.audit import Evidence, audit
                report = audit(faulted, Evidence.from_json(case.calls), case.catalog,
                               case.category, question=case.question)
                out.append(json.dumps(report.to_json(), sort_keys=True))
    return out


_SOURCES_REAUDIT = """
import json, sys
from pathlib import Path
import showwork.protocol.compiled as c
c._state.clear()
c.RECORD = Path(sys.argv[1])  # a record that no longer matches: the build is stale
c.guard()
import showwork.harness.audit.numbers, showwork.protocol.numbers
from showwork.harness.experiments.attempt import reaudit
from showwork.traces import read
files = [showwork.harness.audit.numbers.__file__, showwork.protocol.numbers.__file__]
same = all(reaudit(r).to_json() == r.served().audit for r in read(Path(sys.argv[2])))
sys.path.insert(0, "tests/harness")
from test_compiled import _outputs
print(json.dumps({"files": files, "same": same, "outputs": _outputs()}))
"""


@pytest.mark.slow
def test_a_stale_build_runs_the_sources_and_they_audit_alike(tmp_path: Path) -> None:
    """With a record that no longer matches the sources, every compiled module is loaded from
    its source (with a message saying so); the sources re-audit the golden traces to the audits
    stored in them, as the build does in test_golden_traces; and the sources and the build give
    the same number readings, matches, messages and audits of faulted answers, value for value
    (an int stays an int: mypyc would make a `float` parameter's int a float)."""
    if not any(compiled._extensions(p) for p in compiled.MODULES):
        pytest.skip("no compiled build here (make install compiles it where a C compiler is)")
    if compiled.stale():
        pytest.skip("the build here is out of date; make install rebuilds it")
    record = tmp_path / "sources.json"
    record.write_text(json.dumps({p: "0" * 64 for p in compiled.MODULES}))
    golden = ROOT / "traces" / "golden" / "traces.jsonl"
    done = subprocess.run([sys.executable, "-c", _SOURCES_REAUDIT, str(record), str(golden)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600, check=True)
    out = json.loads(done.stdout)
    assert all(f.endswith(".py") for f in out["files"]), out["files"]
    assert out["same"] is True
    assert compiled.in_use()
    built = _outputs()
    assert len(built) > 5_000
    assert [b for b, s in zip(built, out["outputs"], strict=True) if b != s] == []
    assert "compiled audit modules are out of date" in done.stderr
    assert "make install" in done.stderr


def test_a_fresh_build_is_the_one_that_runs() -> None:
    """Where the build exists and matches its sources, the audit runs it (not the sources)."""
    if not any(compiled._extensions(p) for p in compiled.MODULES):
        pytest.skip("no compiled build here (make install compiles it where a C compiler is)")
    if compiled.stale():
        pytest.skip("the build here is out of date; make install rebuilds it")
    assert compiled.in_use()


def test_showwork_sources_runs_the_sources_quietly() -> None:
    """SHOWWORK_SOURCES=1 runs the sources even beside a fresh build, without a message."""
    if not any(compiled._extensions(p) for p in compiled.MODULES):
        pytest.skip("no compiled build here (make install compiles it where a C compiler is)")
    code = "import showwork.protocol.compiled as c; print(c.in_use())"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, check=True, env={**os.environ, compiled.SOURCES_VAR: "1"})
    assert done.stdout.strip() == "False"
    assert done.stderr == ""
