"""The built wheel installs one import name, `showwork`: beside PyPI's `traces` (a time-series
library an analyst may well have), both work in one fresh environment."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("analyst", "benchmarks", "harness", "protocol", "semantic_layer", "traces")

pytestmark = pytest.mark.slow


def _run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run([str(a) for a in args], cwd=cwd, capture_output=True, text=True,
                          env=env, timeout=1200)
    assert done.returncode == 0, f"{args}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", out, ROOT, cwd=ROOT)
    (found,) = out.glob("showwork-*.whl")
    return found


def test_the_wheel_holds_one_top_level_package(wheel: Path) -> None:
    """Every file of the wheel but its metadata sits under showwork/, the design's folders
    included, with their data (templates, the demo project, golden traces) and no built
    extension of this machine."""
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")}
    assert tops == {"showwork"}
    for folder in FOLDERS:
        assert f"showwork/{folder}/__init__.py" in names
    assert "showwork/harness/present/templates/style.css" in names
    assert "showwork/semantic_layer/demo/showwork.yaml" in names
    assert not [n for n in names if n.endswith(".so")]


def test_the_wheel_works_beside_pypi_traces(wheel: Path, tmp_path: Path) -> None:
    """In a fresh venv with the wheel and PyPI's `traces`: `showwork ask` answers on the demo,
    and `import traces` is the time-series library, not ours."""
    venv = tmp_path / "venv"
    _run(sys.executable, "-m", "venv", venv, cwd=tmp_path)
    py = venv / "bin" / "python"
    _run(py, "-m", "pip", "install", "--quiet", wheel, "traces", cwd=tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SHOWWORK", "PYTHON"))}
    env["SHOWWORK_HOME"] = str(tmp_path / "home")
    out = _run(venv / "bin" / "showwork", "ask",
               "How many active users did we have in the week of 2026-03-02?", "--json",
               cwd=tmp_path, env=env)
    trace = json.loads(out)
    assert trace["question"]["text"].startswith("How many active users")
    answer = json.loads(trace["rounds"][-1]["answer_raw"])
    assert answer["status"] == "answered" and isinstance(answer["value"], int | float)
    probe = ("import traces, showwork.traces, showwork.harness.audit;"
             "print(traces.__file__); print(showwork.traces.__file__);"
             "print(hasattr(traces, 'TimeSeries'))")
    lines = _run(py, "-c", probe, cwd=tmp_path, env=env).split()
    site = str(venv)
    assert lines[0].startswith(site) and "/showwork/" not in lines[0]
    assert lines[1].startswith(site) and lines[1].endswith("showwork/traces/__init__.py")
    assert lines[2] == "True"
