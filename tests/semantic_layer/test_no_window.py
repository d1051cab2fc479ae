"""No window nobody asked for: a query without one has no time constraint (MetricFlow adds none
unless asked); a time column the warehouse holds as text or as an integer year is refused with a
message naming file, model, dimension and column when a query reads time from it, and read as
MetricFlow reads it (not at all) when none does."""

from __future__ import annotations

import duckdb
import pytest

from showwork.semantic_layer import SemanticLayer, errors, load_model


def _rows(result) -> list[tuple]:
    return sorted((tuple(row.key[k] for k in result.keys)
                   + tuple(row.values[m]["value"] for m in result.metrics)) for row in result.rows)


def test_shop_without_window_reads_every_row(shop: SemanticLayer, shop_sql) -> None:
    got = _rows(shop.call("query", {"metrics": ["revenue", "orders"],
                                    "group_by": ["transaction__channel"]}))
    want = sorted(shop_sql.execute("SELECT channel, sum(amount), count(*) FROM transactions "
                                   "GROUP BY 1").fetchall())
    assert [g[0] for g in got] == [w[0] for w in want]
    for g, w in zip(got, want, strict=True):
        assert g[1] == pytest.approx(w[1], rel=1e-12) and g[2] == w[2]
    sql = shop.compile("query", {"metrics": ["revenue"]}).sql
    assert "ordered_at" not in sql  # no time constraint at all


def test_shop_without_window_by_month_covers_all_months(shop: SemanticLayer, shop_sql) -> None:
    got = _rows(shop.call("query", {"metrics": ["visits"], "grain": "month"}))
    want = sorted((d.isoformat(), n) for d, n in shop_sql.execute(
        "SELECT date_trunc('month', visited_on)::DATE, count(*) FROM visits GROUP BY 1").fetchall())
    assert got == want and len(got) == 6


MODELS = """
semantic_models:
  - name: ledger
    model: ref('ledger')
    defaults: {agg_time_dimension: booked_on}
    entities:
      - {name: entry, type: primary, expr: entry_id}
    dimensions:
      - {name: booked_on, type: time, type_params: {time_granularity: day}}
      - {name: fiscal_year, type: time, type_params: {time_granularity: year}}
      - {name: kind, type: categorical}
    measures:
      - {name: amount, agg: sum}
      - {name: amount_by_year, agg: sum, expr: amount, agg_time_dimension: fiscal_year}
metrics:
  - {name: amount, label: Amount, type: simple, type_params: {measure: amount}}
  - {name: amount_by_year, label: Amount by year, type: simple,
     type_params: {measure: amount_by_year}}
"""


@pytest.fixture(scope="module")
def ledger(tmp_path_factory: pytest.TempPathFactory) -> SemanticLayer:
    """booked_on loaded as text and empty everywhere; fiscal_year an integer year."""
    root = tmp_path_factory.mktemp("ledger")
    (root / "models").mkdir()
    (root / "models" / "ledger.yml").write_text(MODELS)
    db = root / "ledger.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE ledger AS SELECT i AS entry_id, NULL::VARCHAR AS booked_on, "
                "2020 + i % 3 AS fiscal_year, CASE WHEN i % 2 = 0 THEN 'debit' ELSE 'credit' END "
                "AS kind, i * 1.5 AS amount FROM range(10) t(i)")
    con.close()
    layer = SemanticLayer(load_model(root / "models", database=db), db)
    yield layer
    layer.close()


def test_text_and_integer_time_columns_without_window(ledger: SemanticLayer) -> None:
    assert _rows(ledger.call("query", {"metrics": ["amount", "amount_by_year"],
                                       "group_by": ["entry__kind"]})) == [
        ("credit", 37.5, 37.5), ("debit", 30.0, 30.0)]


@pytest.mark.parametrize(("metric", "column", "kind"), [("amount", "booked_on", "VARCHAR"),
                                                         ("amount_by_year", "fiscal_year", "BIGINT")])
@pytest.mark.parametrize("args", [{"window": {"start": "2021-01-01", "end": "2021-12-31"}},
                                  {"grain": "year"}])
def test_reading_time_from_them_names_file_model_and_column(ledger: SemanticLayer, metric, column,
                                                            kind, args) -> None:
    with pytest.raises(errors.SemanticError) as caught:
        ledger.call("query", {"metrics": [metric], **args})
    text = str(caught.value)
    assert "ledger.yml" in text and "'ledger'" in text and repr(column) in text and kind in text
    assert "Conversion Error" not in text and "Binder Error" not in text
