"""The house's plan, read from the code's own imports: rooms a reader can find, imports that point
one way, test machinery out of the contract, and one import name."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("analyst", "benchmarks", "harness", "protocol", "semantic_layer", "traces")
ALLOWED = {  # what each folder may import of ours (DESIGN's package table)
    "semantic_layer": set(), "protocol": set(), "traces": set(),
    "analyst": {"protocol", "semantic_layer", "traces"},
    "harness": {"analyst", "protocol", "semantic_layer", "traces"},
    "benchmarks": {"analyst", "harness", "protocol", "semantic_layer", "traces"},
}


def _modules() -> dict[str, Path]:
    """Every module of the design's folders, by its import name under showwork."""
    found = {}
    for folder in FOLDERS:
        for path in (ROOT / folder).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found["showwork." + name] = path
    return found


def _imports(path: Path, modules: dict[str, Path]) -> Iterator[str]:
    """The modules of ours a file imports, at its top or inside a function."""
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [f"{node.module}.{a.name}" for a in node.names] + [node.module]
        else:
            continue
        for name in names:
            while name and name not in modules:
                name = name.rpartition(".")[0]
            if name.startswith("showwork.") and name.count(".") >= 1:
                yield name


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: set(_imports(path, modules)) - {name} for name, path in modules.items()}


def _circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[set[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            node, edges = work[-1]
            for nxt in edges:
                if nxt not in graph:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph[nxt]))))
                    break
                if nxt in on:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    part = set()
                    while True:
                        member = stack.pop()
                        on.discard(member)
                        part.add(member)
                        if member == node:
                            break
                    if len(part) > 1:
                        out.append(part)
    return out


def _room(module: str, modules: dict[str, Path]) -> Path:
    """The folder a module's file stands in (a package's `__init__` stands in its own folder)."""
    return modules[module].parent


class TestRooms:
    def test_the_harness_top_level_is_a_dozen_files_or_fewer(self) -> None:
        """harness/ keeps its concerns in subpackages; its top level holds a dozen files at most."""
        top = sorted(p.name for p in (ROOT / "harness").glob("*.py"))
        assert len(top) <= 12, top

    def test_every_subpackage_says_what_it_owns(self) -> None:
        """Each harness subpackage opens with a docstring saying what it owns and may import."""
        for init in (ROOT / "harness").glob("*/__init__.py"):
            doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
            assert doc and len(doc) > 60, init

    def test_init_drafting_lives_in_the_semantic_layer(self) -> None:
        """Profiling a warehouse and drafting semantic models is the semantic layer's work."""
        assert (ROOT / "semantic_layer" / "draft" / "profile.py").exists()
        assert (ROOT / "semantic_layer" / "draft" / "models.py").exists()
        assert not list((ROOT / "harness").glob("init_*.py"))


class TestImports:
    def test_no_circle_of_files_spans_two_folders(self) -> None:
        """Files that import each other in a loop stand in one folder."""
        modules = _modules()
        spanning = [sorted(c) for c in _circles(_graph())
                    if len({_room(m, modules) for m in c}) > 1]
        assert spanning == []

    def test_the_circle_finder_finds_circles(self) -> None:
        """The check above can fail: a loop across folders is found."""
        graph = {"a.x": {"b.y"}, "b.y": {"a.x"}, "c.z": set()}
        assert _circles(graph) == [{"a.x", "b.y"}]

    def test_packages_import_only_what_the_design_allows(self) -> None:
        """Dependencies point one way: harness → analyst → protocol/semantic_layer/traces."""
        wrong = []
        for module, imported in _graph().items():
            folder = module.split(".")[1]
            for other in imported:
                target = other.split(".")[1]
                if target != folder and target in FOLDERS and target not in ALLOWED[folder]:
                    wrong.append(f"{module} -> {other}")
        assert wrong == []

    def test_the_protocol_holds_no_test_machinery(self) -> None:
        """The contract every import pays for carries no adversary and no fault injection."""
        names = [p.name for p in (ROOT / "protocol").rglob("*.py")]
        assert not [n for n in names if "fault" in n or "adversar" in n]
        for module, imported in _graph().items():
            if module.startswith("showwork.protocol"):
                assert not {i for i in imported if "faults" in i or "adversary" in i}, module


class TestOneImportName:
    def test_a_folder_imported_by_its_bare_name_is_refused(self) -> None:
        """`import traces` never loads our traces: the folders answer only as `showwork.…`, so a
        PyPI package of the same name (traces, harness, protocol) is never shadowed or doubled."""
        for folder in FOLDERS:
            probe = subprocess.run([sys.executable, "-c", f"import {folder}"], cwd=ROOT,
                                   capture_output=True, text=True)
            assert probe.returncode != 0, folder
            assert f"import showwork.{folder}" in probe.stderr, probe.stderr

    def test_every_import_of_ours_is_written_under_showwork(self) -> None:
        """No source, test, example or conformance script imports a folder by its bare name."""
        bare = []
        for path in ROOT.rglob("*.py"):
            rel = path.relative_to(ROOT)
            if rel.parts[0].startswith(".") or rel.parts[0] in ("build", "showwork"):
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = ([a.name for a in node.names] if isinstance(node, ast.Import) else
                         [node.module] if isinstance(node, ast.ImportFrom) and node.module
                         and node.level == 0 else [])
                bare += [f"{rel}:{node.lineno} {n}" for n in names
                         if n.split(".")[0] in FOLDERS]
        assert bare == []
