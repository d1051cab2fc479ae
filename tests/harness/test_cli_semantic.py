"""`showwork semantic …` and `showwork warehouse build` through the real entry point."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest


def showwork(*args: str, home: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "200"}
    if home:
        env["SHOWWORK_HOME"] = str(home)
    return subprocess.run([sys.executable, "-m", "showwork", *args], capture_output=True,
                          text=True, env=env, timeout=300)


@pytest.fixture(scope="module")
def home(tmp_path_factory, demo_db: Path) -> Path:
    folder = tmp_path_factory.mktemp("home")
    shutil.copy(demo_db, folder / "demo.duckdb")
    return folder


def test_validate_ok_and_broken(tmp_path: Path) -> None:
    """validate passes the demo model and exits 3 (bad project) listing problems for a broken
    one."""
    ok = showwork("semantic", "validate")
    assert ok.returncode == 0 and "13" not in ok.stderr and "metrics" in ok.stdout
    bad = tmp_path / "bad.yaml"
    bad.write_text("semantic_models: []\nmetrics:\n  - name: a\n")
    result = showwork("semantic", "validate", str(bad))
    assert result.returncode == 3
    assert "no semantic_models found" in result.stderr
    assert f"{bad}:3: metric 'a'" in result.stderr and "Traceback" not in result.stderr


def test_catalog_json() -> None:
    """catalog --json prints the catalog on stdout only."""
    result = showwork("semantic", "catalog", "--json")
    cat = json.loads(result.stdout)
    assert cat["metrics"]["weekly_value_moments"]["grains"] == ["week"]


def test_query_json_and_blocked(home: Path) -> None:
    """query --json prints a typed result; a blocked query exits non-zero with the reason."""
    result = showwork("semantic", "query", "-m", "active_users", "--by", "platform",
                      "--start", "2026-03-09", "--end", "2026-03-15", "--json", home=home)
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert [r["key"]["platform"] for r in data["rows"]] == ["android", "ios", "web"]
    blocked = showwork("semantic", "query", "-m", "active_users", "--by", "age",
                       "--start", "2026-03-09", "--end", "2026-03-15", home=home)
    assert blocked.returncode == 4
    assert "Unknown dimension 'age' for metric 'active_users'; supported:" in blocked.stderr
    assert blocked.stdout == ""


def test_query_without_start_end_adds_no_window(home: Path) -> None:
    """No --start/--end: no time constraint (as `mf query`), not a default week; the rows equal
    a window spanning all the metric's data."""
    bare = showwork("semantic", "query", "-m", "new_users", "--by", "platform", "--json", home=home)
    assert bare.returncode == 0, bare.stderr
    assert "week" not in bare.stderr
    cov = json.loads(showwork("semantic", "catalog", "--json").stdout)["metrics"]["new_users"][
        "coverage"]
    wide = showwork("semantic", "query", "-m", "new_users", "--by", "platform", "--start",
                    cov["start"], "--end", cov["end"], "--json", home=home)
    rows = [(r["key"], r["values"]["new_users"]["value"]) for r in json.loads(bare.stdout)["rows"]]
    assert rows == [(r["key"], r["values"]["new_users"]["value"])
                    for r in json.loads(wide.stdout)["rows"]]
    assert sum(v for _, v in rows) > 0


def test_compare_from_cli(home: Path) -> None:
    """--previous-start/--previous-end turn a query into a comparison."""
    result = showwork("semantic", "query", "-m", "weekly_value_moments", "--start", "2026-03-09",
                      "--end", "2026-03-15", "--previous-start", "2026-03-02", "--previous-end",
                      "2026-03-08", "--json", home=home)
    row = json.loads(result.stdout)["rows"][0]["values"]["weekly_value_moments"]
    assert row["delta"] == row["value"] - row["previous"] and row["pct_change"] < 0


def test_compile_dialects() -> None:
    """compile prints dialect SQL without a warehouse."""
    result = showwork("semantic", "compile", "-m", "active_users", "--grain", "week",
                      "--start", "2026-03-02", "--end", "2026-03-15", "--dialect", "bigquery")
    assert result.returncode == 0 and "ISOWEEK" in result.stdout
    unknown = showwork("semantic", "compile", "-m", "active_users", "--dialect", "oracle")
    assert unknown.returncode == 2 and "supported: duckdb, spark" in unknown.stderr


def test_warehouse_build_small(tmp_path: Path) -> None:
    """warehouse build writes demo.duckdb under SHOWWORK_HOME and says where."""
    result = showwork("warehouse", "build", "--scale", "0.02", "--seed", "3", home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "demo.duckdb").exists() and "built" in result.stderr


def _shop_project(root: Path) -> Path:
    """The shop example as a project folder over its generated warehouse."""
    from shop_data import SHOP, shop_db

    root.mkdir()
    shutil.copytree(SHOP / "models", root / "models")
    for name in ("governance.yaml", "showwork.yaml", "questions.yaml"):
        shutil.copy(SHOP / name, root / name)
    (root / "warehouse.duckdb").symlink_to(shop_db())
    return root


@pytest.mark.parametrize("domain", ["demo", "shop"])
def test_query_share(domain: str, home: Path, tmp_path: Path) -> None:
    """query --share gives each row's share_of_total: the row's value over the same metric and
    window not grouped; a ratio metric is refused with no_share (exit 4), --share without --by
    is a usage error naming the option."""
    if domain == "demo":
        where = ["--start", "2026-03-09", "--end", "2026-03-15"]
        metric, dim, ratio = "new_users", "platform", "days_per_user"
    else:
        where = ["--start", "2019-06-01", "--end", "2019-06-30",
                 "--project", str(_shop_project(tmp_path / "shop"))]
        metric, dim, ratio = "revenue", "store", "average_order_value"
    shares = showwork("semantic", "query", "-m", metric, "--by", dim, "--share", "--json",
                      *where, home=home)
    assert shares.returncode == 0, shares.stderr
    rows = json.loads(shares.stdout)["rows"]
    total = json.loads(showwork("semantic", "query", "-m", metric, "--json", *where,
                                home=home).stdout)["rows"][0]["values"][metric]["value"]
    assert len(rows) >= 2 and total > 0
    for row in rows:
        got = row["values"][metric]
        assert got["share_of_total"] == pytest.approx(got["value"] / total, rel=1e-9)
    blocked = showwork("semantic", "query", "-m", ratio, "--by", dim, "--share", *where,
                       home=home)
    assert blocked.returncode == 4 and "A share of the total means nothing here" in blocked.stderr
    ungrouped = showwork("semantic", "query", "-m", metric, "--share", *where, home=home)
    assert ungrouped.returncode == 2 and "--share needs --by" in ungrouped.stderr
