"""A change between two years, as the rules analyst states it ('rose 7.21 % (43,642 → 46,788),
1988 versus 1982'), is served, not withheld. The period reader read a bare year only after a
preposition, so the first year of '1988 versus 1982' went unread, the second was taken as the
sentence's one window, and the later value read as stated of the earlier year
(`mislabelled_window`): 11 honest answers of the public sets were withheld so. On init drafts of
two warehouses with yearly data: TPC-H-shaped orders (1992–1998) and a generated store panel."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path

import duckdb
import pytest

from showwork.benchmarks.init_questions import _ask
from showwork.harness.init import init_project
from showwork.harness.project import Project
from showwork.protocol.reading.periods import find_periods


@pytest.mark.parametrize(("text", "years"), [
    ("Orders rose 7.21 % (43,642 → 46,788), 1988 versus 1982.", [1988, 1982]),
    ("Sales in 2019 vs 2018", [2019, 2018]),
    ("2021 compared with 2020, revenue fell", [2021, 2020]),
])
def test_a_year_set_against_another_is_a_period(text: str, years: list[int]) -> None:
    found = find_periods(text, dt.date(2030, 1, 1))
    assert [m.period.start for m in found.found] == [dt.date(y, 1, 1) for y in years]
    assert found.compare == "explicit"


def test_a_count_is_no_year() -> None:
    """A number in a year's range with no period word around it stays a number."""
    assert find_periods("Orders were 2013 in May", dt.date(2014, 1, 1)).found[0].words == "May"


def _tpch(tmp_path: Path) -> tuple[Path, str, str]:
    from showwork.benchmarks import tpch

    warehouse = tmp_path / "tpch.duckdb"
    tpch.build(warehouse, 0.002)
    sql = ("SELECT 100 * (count(*) FILTER (WHERE year(o_orderdate) = 1996)::DOUBLE / "
           "count(*) FILTER (WHERE year(o_orderdate) = 1995) - 1) FROM orders")
    return warehouse, "How did order count change from 1995 to 1996?", sql


def _stores(tmp_path: Path) -> tuple[Path, str, str]:
    warehouse = tmp_path / "stores.duckdb"
    con = duckdb.connect(str(warehouse))
    con.execute("CREATE TABLE sales AS SELECT i AS sale_id, 1 + i % 7 AS store_id, "
                "DATE '2018-01-01' + CAST(i % 1461 AS INTEGER) AS sold_on, "
                "CAST(10 + (i * 37) % 90 AS DOUBLE) AS amount FROM range(1, 20001) t(i)")
    con.close()
    sql = ("SELECT 100 * (sum(amount) FILTER (WHERE year(sold_on) = 2021) / "
           "sum(amount) FILTER (WHERE year(sold_on) = 2019) - 1) FROM sales")
    return warehouse, "How did the total amount change from 2019 to 2021?", sql


@pytest.mark.parametrize("make", [_tpch, _stores])
def test_a_change_between_years_is_served(tmp_path: Path, make) -> None:
    warehouse, question, sql = make(tmp_path)
    init_project(tmp_path / "draft", warehouse)
    layer = Project.open(tmp_path / "draft").layer()
    try:
        answer, trace = _ask(layer, "q", question)
    finally:
        layer.close()
    con = duckdb.connect(str(warehouse), read_only=True)
    ((want,),) = con.execute(sql).fetchall()
    con.close()
    served = trace.served()
    audit = served.audit or {}
    assert answer["status"] == "answered", answer
    assert answer["value"] == pytest.approx(want, rel=1e-3)  # the change in percent
    codes = {f["code"] for f in audit.get("findings", [])}
    assert "mislabelled_window" not in codes, json.dumps(audit)[:600]
    assert audit.get("decision") != "withhold", json.dumps(audit)[:600]
