"""The coverage probe reads a time dimension as the warehouse stores it (issue 45): a date or
timestamp, an integer year, a text date give the days they span; values that are none of these
leave the coverage unknown (the layer refuses a query reading that time, naming the column); a
probe the warehouse cannot run is an error naming the file, model, dimension and column, never
the engine's bare cast error. On the conformance project and the shop example."""

from __future__ import annotations

import datetime as dt
import shutil
import sys
from pathlib import Path

import duckdb
import pytest
import yaml

from showwork.semantic_layer import SemanticError, SemanticLayer, load_model
from showwork.semantic_layer.errors import ModelError
from showwork.semantic_layer.infer import _day_bounds

ROOT = Path(__file__).resolve().parents[2]


def _edit(path: Path, model: str, dimension: str, expr: str) -> None:
    """Set a time dimension's expr in a dbt YAML file."""
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    sm = next(s for s in doc["semantic_models"] if s["name"] == model)
    next(d for d in sm["dimensions"] if d["name"] == dimension)["expr"] = expr
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")


@pytest.mark.parametrize(("value", "want"), [
    (2019, (dt.date(2019, 1, 1), dt.date(2019, 12, 31))),
    (2019.0, (dt.date(2019, 1, 1), dt.date(2019, 12, 31))),
    ("2019", (dt.date(2019, 1, 1), dt.date(2019, 12, 31))),
    ("2024-02", (dt.date(2024, 2, 1), dt.date(2024, 2, 29))),
    ("2024-02-05", (dt.date(2024, 2, 5), dt.date(2024, 2, 5))),
    ("2024-02-05 10:00:00", (dt.date(2024, 2, 5), dt.date(2024, 2, 5))),
    (dt.datetime(2024, 2, 5, 10), (dt.date(2024, 2, 5), dt.date(2024, 2, 5))),
    ("Q1 2024", None), ("5/2/2024", None), (True, None),
])
def test_day_bounds_of_stored_values(value: object, want: object) -> None:
    assert _day_bounds(value) == want


class TestConformanceProject:
    @pytest.fixture()
    def project(self, shop_db: Path, tmp_path: Path) -> tuple[Path, Path]:
        folder = tmp_path / "models"
        shutil.copytree(ROOT / "conformance" / "project" / "models", folder)
        db = tmp_path / "conformance.duckdb"
        shutil.copy(shop_db, db)
        return folder, db

    def test_text_dates_give_their_days(self, project: tuple[Path, Path]) -> None:
        """refunds.refunded_on is text: read bare (no cast in the expr), its coverage is the
        first and last text date."""
        folder, db = project
        _edit(folder / "activity.yml", "refunds", "refunded_on", "refunded_on")
        model = load_model(folder, database=db)
        con = duckdb.connect(str(db), read_only=True)
        lo, hi = con.execute("SELECT min(refunded_on), max(refunded_on) FROM refunds").fetchone()
        con.close()
        cov = model.coverage_by_model["refunds"]
        assert (cov.from_, cov.through) == (dt.date.fromisoformat(lo), dt.date.fromisoformat(hi))

    def test_an_integer_year_spans_its_years(self, project: tuple[Path, Path]) -> None:
        folder, db = project
        con = duckdb.connect(str(db))
        con.execute("ALTER TABLE customers ADD COLUMN signup_year INTEGER")
        con.execute("UPDATE customers SET signup_year = year(signup_date)")
        lo, hi = con.execute("SELECT min(signup_year), max(signup_year) FROM customers").fetchone()
        con.close()
        _edit(folder / "geography.yml", "customers", "signup_date", "signup_year")
        model = load_model(folder, database=db)
        cov = model.coverage_by_model["customers"]
        assert (cov.from_, cov.through) == (dt.date(lo, 1, 1), dt.date(hi, 12, 31))
        layer = SemanticLayer(model, db)
        try:  # a plain total reads no time and runs; by month, the layer names the column
            assert layer.query(metrics=["customers"]).rows
            with pytest.raises(SemanticError, match="signup_year"):
                layer.query(metrics=["customers"], grain="month")
        finally:
            layer.close()

    def test_unreadable_time_names_file_model_and_column(self, project: tuple[Path, Path]
                                                         ) -> None:
        folder, db = project
        _edit(folder / "geography.yml", "customers", "signup_date", "CAST(segment AS DATE)")
        with pytest.raises(ModelError) as info:
            load_model(folder, database=db)
        (problem,) = info.value.problems
        assert "geography.yml" in problem and "'customers'" in problem
        assert "'signup_date'" in problem and "CAST(segment AS DATE)" in problem


def test_shop_example_integer_and_text_years(tmp_path: Path) -> None:
    """The shop: orders' day stored as an integer year, and customers' as text months."""
    sys.path.insert(0, str(ROOT / "tests" / "support"))
    from shop_data import shop_db

    folder = tmp_path / "shop"
    shutil.copytree(ROOT / "examples" / "shop" / "models", folder)
    db = tmp_path / "shop.duckdb"
    shutil.copy(shop_db(), db)
    con = duckdb.connect(str(db))
    con.execute("ALTER TABLE orders ADD COLUMN order_year BIGINT")
    con.execute("UPDATE orders SET order_year = year(ordered_at)")
    con.execute("ALTER TABLE customers ADD COLUMN signup_month VARCHAR")
    con.execute("UPDATE customers SET signup_month = strftime(signup_date, '%Y-%m')")
    years = con.execute("SELECT min(order_year), max(order_year) FROM orders").fetchone()
    months = con.execute("SELECT min(signup_month), max(signup_month) FROM customers").fetchone()
    con.close()
    _edit(folder / "orders.yml", "orders", "ordered_at", "order_year")
    _edit(folder / "customers.yml", "customers", "signup_date", "signup_month")
    model = load_model(folder, database=db)
    orders, customers = model.coverage_by_model["orders"], model.coverage_by_model["customers"]
    assert (orders.from_, orders.through) == (dt.date(years[0], 1, 1), dt.date(years[1], 12, 31))
    assert customers.from_ == dt.date.fromisoformat(months[0] + "-01")
    assert customers.through.strftime("%Y-%m") == months[1]
    assert (customers.through + dt.timedelta(days=1)).day == 1
