"""The project cache (harness/cache.py): a warm start rebuilds nothing, a changed model file or
warehouse rebuilds exactly its entry, a corrupt entry is rebuilt and never trusted, and cached
and uncached runs give the same traces."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from shop_data import shop_db
from typer.testing import CliRunner

from showwork.harness import cache
from showwork.harness.cli import build_app
from showwork.harness.project import Project
from showwork.traces import read

ROOT = Path(__file__).resolve().parents[2]
SHOP = ROOT / "examples" / "shop"
VOLATILE = ("attempt_id", "started_at", "elapsed_s", "timing", "chain")


@pytest.fixture()
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("SHOWWORK_HOME", str(folder))
    monkeypatch.delenv(cache.OFF, raising=False)
    return folder


@pytest.fixture()
def shop(tmp_path: Path) -> Path:
    """A copy of the shop project with its own copy of the warehouse (so it can be rebuilt)."""
    folder = tmp_path / "shop"
    shutil.copytree(SHOP, folder, ignore=shutil.ignore_patterns("*.duckdb*"))
    shutil.copy(shop_db(), folder / "warehouse.duckdb")
    return folder


def _entries(home: Path, kind: str) -> list[Path]:
    return sorted((home / "cache" / kind).glob("*.entry"))


def _builds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Records each entry built (a cache miss) by kind."""
    built: list[str] = []
    real = cache.get

    def counting(kind, entry_key, build):
        def recorded():
            built.append(kind)
            return build()
        return real(kind, entry_key, recorded)

    monkeypatch.setattr(cache, "get", counting)
    return built


class TestModelEntry:
    def test_warm_load_builds_nothing(self, home: Path, shop: Path, monkeypatch) -> None:
        """The second load of an unchanged project reads the model from the cache, and it is
        the model a fresh load builds (same catalog)."""
        built = _builds(monkeypatch)
        first = Project.open(shop)
        second = Project.open(shop)
        assert built == ["project-file", "model"]
        assert len(_entries(home, "model")) == 1
        monkeypatch.setenv(cache.OFF, "0")
        fresh = Project.open(shop)
        assert fresh.catalog == second.catalog == first.catalog

    def test_edited_model_file_rebuilds(self, home: Path, shop: Path, monkeypatch) -> None:
        """Editing a model file changes the key: the next load rebuilds and sees the edit."""
        Project.open(shop)
        governance = shop / "governance.yaml"
        text = governance.read_text(encoding="utf-8")
        governance.write_text(text.replace("finance-analytics", "finance-platform", 1)
                              if "finance-analytics" in text else text + "\n# edited\n",
                              encoding="utf-8")
        built = _builds(monkeypatch)
        Project.open(shop)
        assert built == ["model"]
        assert len(_entries(home, "model")) == 2

    def test_edited_project_file_is_read_again(self, home: Path, shop: Path, monkeypatch
                                               ) -> None:
        """showwork.yaml's reading is keyed by its bytes: an edit is read (and, being a
        project file, changes the model's key too); the same bytes again read nothing."""
        assert Project.open(shop).name == "shop"
        settings = shop / "showwork.yaml"
        text = settings.read_text(encoding="utf-8")
        assert "name: shop" in text
        settings.write_text(text.replace("name: shop", "name: shop2", 1), encoding="utf-8")
        built = _builds(monkeypatch)
        assert Project.open(shop).name == "shop2"
        assert built == ["project-file", "model"]
        built.clear()
        settings.write_text(text, encoding="utf-8")
        assert Project.open(shop).name == "shop"
        assert built == []
        assert len(_entries(home, "project-file")) == 2

    def test_a_copy_elsewhere_names_its_own_files(self, home: Path, shop: Path,
                                                  tmp_path: Path) -> None:
        """Two copies of one project (same bytes, other folders) are two entries: each model's
        origins, and so each message about it, name that copy's files."""
        other = tmp_path / "elsewhere" / "shop"
        shutil.copytree(shop, other)
        (other / "warehouse.duckdb").unlink()  # one warehouse for both: the same fingerprint
        (other / "warehouse.duckdb").symlink_to(shop / "warehouse.duckdb")
        for folder in (shop, other, shop):
            project = Project.open(folder)
            layer = project.layer()
            models = (project.model, layer.model)
            layer.close()
            for model in models:  # as declared, and with what the warehouse fills in
                origins = {str(sm.origin) for sm in model.semantic_models}
                assert origins and all(o.startswith(str(folder.resolve())) for o in origins)
        assert len(_entries(home, "model")) == 2

    def test_broken_project_file_is_never_cached(self, home: Path, shop: Path) -> None:
        """A showwork.yaml that does not parse raises its error on every open, cached or not."""
        from showwork.harness.project import ProjectError

        (shop / "showwork.yaml").write_text("name: [unclosed\n", encoding="utf-8")
        for _ in range(2):
            with pytest.raises(ProjectError, match="not valid YAML"):
                Project.open(shop)
        assert _entries(home, "project-file") == []

    def test_corrupt_entry_is_rebuilt(self, home: Path, shop: Path, monkeypatch) -> None:
        """A damaged entry fails its checksum: it is discarded and rebuilt, never loaded."""
        good = Project.open(shop).catalog
        (entry,) = _entries(home, "model")
        data = bytearray(entry.read_bytes())
        data[-10] ^= 0xFF
        entry.write_bytes(bytes(data))
        built = _builds(monkeypatch)
        assert Project.open(shop).catalog == good
        assert built == ["model"]

    def test_truncated_and_foreign_entries_are_rebuilt(self, home: Path, shop: Path) -> None:
        """An entry cut short, or not ours at all, is rebuilt the same way."""
        good = Project.open(shop).catalog
        (entry,) = _entries(home, "model")
        for damage in (entry.read_bytes()[:40], b"not a cache entry"):
            entry.write_bytes(damage)
            assert Project.open(shop).catalog == good

    def test_off_switch(self, home: Path, shop: Path, monkeypatch) -> None:
        """SHOWWORK_CACHE=0 writes nothing."""
        monkeypatch.setenv(cache.OFF, "0")
        Project.open(shop)
        assert not (home / "cache").exists()


class TestInferredEntry:
    def test_rebuilt_warehouse_invalidates(self, home: Path, shop: Path, monkeypatch) -> None:
        """Inferred members are cached per warehouse fingerprint: a warm open reads none again,
        a rebuilt warehouse file infers afresh."""
        def open_catalog() -> dict:
            with Project.open(shop) as project:
                project.layer().close()
                return project.catalog

        first = open_catalog()
        assert len(_entries(home, "inferred")) == 1
        built = _builds(monkeypatch)
        assert open_catalog() == first
        assert "inferred" not in built
        db = shop / "warehouse.duckdb"
        shutil.copy(db, db.with_suffix(".tmp"))
        os.replace(db.with_suffix(".tmp"), db)  # a rebuild: same data, a new file
        assert open_catalog() == first
        assert built.count("inferred") >= 1
        assert len(_entries(home, "inferred")) == 2


class TestPreparedEntry:
    def test_warm_call_compiles_nothing(self, home: Path, shop: Path, monkeypatch) -> None:
        """A governed call is prepared (validated, compiled) once per model and warehouse: a
        later layer reads its SQL from the cache and compiles nothing, with the same result;
        a rebuilt warehouse prepares it afresh."""
        from showwork.semantic_layer.compile import Compiler

        compiled: list[str] = []
        real = Compiler.compile

        def counting(self, plan, dialect="duckdb"):
            compiled.append(plan.kind)
            return real(self, plan, dialect)

        monkeypatch.setattr(Compiler, "compile", counting)

        def ask() -> dict:
            with Project.open(shop) as project:
                layer = project.layer()
                try:
                    return layer.query(metrics=["revenue"], group_by=["region"]).to_json()
                finally:
                    layer.close()

        first = ask()
        assert compiled == ["query"] and len(_entries(home, "prepared")) == 1
        assert ask() == first and compiled == ["query"]
        db = shop / "warehouse.duckdb"
        shutil.copy(db, db.with_suffix(".tmp"))
        os.replace(db.with_suffix(".tmp"), db)
        assert ask() == first and compiled == ["query", "query"]
        assert len(_entries(home, "prepared")) == 2

    def test_blocked_call_is_never_cached(self, home: Path, shop: Path) -> None:
        """A call the layer refuses is refused warm as cold, with the same message; nothing is
        kept for it."""
        from showwork.semantic_layer.errors import SemanticError

        messages = []
        for _ in range(2):
            with Project.open(shop) as project:
                layer = project.layer()
                with pytest.raises(SemanticError) as caught:
                    layer.query(metrics=["no_such_metric"])
                layer.close()
            messages.append(str(caught.value))
        assert "no_such_metric" in messages[0] and messages[0] == messages[1]
        assert _entries(home, "prepared") == []


class TestCheckedEntry:
    def test_warm_open_lists_no_table(self, home: Path, shop: Path, monkeypatch) -> None:
        """The model's check against the warehouse is cached per fingerprint: a warm open asks
        the engine for no table listing, and a rebuilt warehouse file is checked afresh."""
        from showwork.semantic_layer.engines.duckdb import DuckDBEngine

        listed: list[str] = []
        real = DuckDBEngine.tables

        def counting(self):
            listed.append(str(self.path))
            return real(self)

        monkeypatch.setattr(DuckDBEngine, "tables", counting)
        with Project.open(shop) as project:
            project.layer().close()
        assert len(listed) == 1 and len(_entries(home, "checked")) == 1
        with Project.open(shop) as project:
            layer = project.layer()
            layer.query(metrics=["revenue"])  # a governed call reads no table listing either
            layer.close()
        assert len(listed) == 1
        db = shop / "warehouse.duckdb"
        shutil.copy(db, db.with_suffix(".tmp"))
        os.replace(db.with_suffix(".tmp"), db)
        with Project.open(shop) as project:
            project.layer().close()
        assert len(listed) == 2 and len(_entries(home, "checked")) == 2

    def test_cached_mismatch_still_refuses(self, home: Path, shop: Path) -> None:
        """A warehouse that lacks a column the model reads is refused warm as cold, with the
        same message."""
        from showwork.semantic_layer.errors import WarehouseMismatch

        models = shop / "models"
        path = next(p for p in sorted(models.rglob("*.yml")) if "expr:" in p.read_text())
        text = path.read_text()
        first_expr = text.split("expr:", 1)[1].split("\n", 1)[0].strip()
        path.write_text(text.replace(f"expr: {first_expr}", "expr: no_such_column", 1))
        messages = []
        for _ in range(2):
            with Project.open(shop) as project, pytest.raises(WarehouseMismatch) as caught:
                project.layer()
            messages.append(str(caught.value))
        assert "no_such_column" in messages[0] and messages[0] == messages[1]


class TestCodeDigest:
    def test_installed_versions_are_importlib_metadatas(self) -> None:
        """The metadata folders the code digest lists name the versions importlib.metadata
        reports for the same distributions."""
        from importlib import metadata

        folders = cache.installed(["sqlglot", "duckdb", "no-such-distribution"])
        assert [f.split("-", 1)[1].removesuffix(".dist-info") for f in folders] == [
            metadata.version("duckdb"), metadata.version("sqlglot")]

    def test_edited_source_changes_the_digest(self, tmp_path: Path, monkeypatch) -> None:
        """A source of the layer that changes size or modification time changes the digest;
        one left alone keeps it."""
        root = tmp_path / "pkg"
        (root / "harness").mkdir(parents=True)
        (root / "semantic_layer").mkdir()
        source = root / "semantic_layer" / "model.py"
        source.write_text("A = 1\n")
        monkeypatch.setattr(cache, "__file__", str(root / "harness" / "cache.py"))

        def digest() -> str:
            cache.code_digest.cache_clear()
            return cache.code_digest()

        first = digest()
        assert digest() == first
        source.write_text("A = 22\n")
        assert digest() != first
        cache.code_digest.cache_clear()


class TestClear:
    def test_cache_clear_command(self, home: Path, shop: Path) -> None:
        """`showwork cache clear` removes every entry and says how many."""
        Project.open(shop)
        result = CliRunner().invoke(build_app(), ["cache", "clear"])
        assert result.exit_code == 0, result.output
        assert "removed 2 cache entries" in result.output  # showwork.yaml read, and the model
        assert not (home / "cache").exists()
        again = CliRunner().invoke(build_app(), ["cache", "clear"])
        assert "removed 0 cache entries" in again.output


def _stable(path: Path) -> list[str]:
    out = []
    for trace in read(path):
        data = trace.model_dump(mode="json")
        for key in VOLATILE:
            data.pop(key, None)
        for part in ("turns", "calls"):
            for item in data.get(part, []):
                item.pop("elapsed_s", None)
        out.append(json.dumps(data, sort_keys=True))
    return sorted(out)


class TestCachedRunsAreIdentical:
    @pytest.mark.slow
    @pytest.mark.parametrize("which", ["demo", "shop"])
    def test_experiment_cached_equals_uncached(self, which: str, home: Path, shop: Path,
                                               demo_db: Path, tmp_path: Path,
                                               monkeypatch) -> None:
        """A bundled question file run uncached, cold and warm gives the same traces, timing
        fields aside."""
        if which == "demo":
            (home / "demo.duckdb").symlink_to(demo_db)
        project = "demo" if which == "demo" else str(shop)
        runs = {}
        for name, switch in (("uncached", "0"), ("cold", "1"), ("warm", "1")):
            monkeypatch.setenv(cache.OFF, switch)
            out = tmp_path / name
            result = CliRunner().invoke(build_app(), [
                "experiment", "--project", project, "--configs", "claims+repair",
                "--model", "rules", "--concurrency", "1", "--out", str(out), "--json"])
            assert result.exit_code == 0, result.output
            runs[name] = _stable(out / "traces.jsonl")
        assert runs["uncached"] and runs["uncached"] == runs["cold"] == runs["warm"]
        assert _entries(home, "model") and _entries(home, "prepared")
