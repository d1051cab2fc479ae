"""init drafts measures that mean what the data means (issue 44): time as people store it, names
that pass, rates averaged, indexes and stocks not summed, counts as the words mean them, and a
draft that says it is one — each inference tested where it fires and where it must not, on the
trap warehouse (DuckDB) and on a folder of CSV files (a `files:` warehouse)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import duckdb
import init_traps
import pytest
import yaml

from showwork.benchmarks.init_questions import _ask
from showwork.harness.init import init_project, review
from showwork.harness.project import Project

PERIODS = [("1998 Q1", "1998-01-01"), ("2016-Q3", "2016-07-01"), ("Q3 2016", "2016-07-01"),
           ("Q42010", "2010-10-01"), ("2016M03", "2016-03-01"), ("2016-11", "2016-11-01"),
           ("Mar-2016", "2016-03-01"), ("December 2016", "2016-12-01")]


@pytest.fixture(scope="module")
def traps(tmp_path_factory) -> Iterator[dict[str, Any]]:
    """The trap warehouse drafted by init, opened as a project."""
    root = tmp_path_factory.mktemp("meaning")
    db = init_traps.build(root / "traps.duckdb")
    result = init_project(root / "drafted", db)
    layer = Project.open(root / "drafted").layer()
    yield {"root": root / "drafted", "db": db, "layer": layer,
           "roles": {f"{r.table}.{r.column}": r.role for r in result.roles}}
    layer.close()


def _sql(traps: dict[str, Any], sql: str) -> Any:
    """Gold: SQL over the raw tables (through the warehouse the project opened)."""
    return traps["layer"].run_sql(sql)[0][0]


def _models(folder: Path) -> dict[str, Any]:
    out = {}
    for path in (folder / "models").glob("*.yml"):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        out.update({m["name"]: m for m in data.get("semantic_models", [])})
        out.update({m["name"]: m for m in data.get("metrics", [])})
    return out


def _findings(trace: Any) -> list[str]:
    audit = trace.served().audit or {}
    return [f["code"] for f in audit.get("findings", [])]


def _big(monkeypatch, create: str, table: str, key_sample: int | None = None
         ) -> tuple[Any, Any, list[str]]:
    """(source, profiled table, the SQL asked from profiling on) of a table read as big."""
    import showwork.semantic_layer.draft.profile as profile_module
    from showwork.harness.init import DuckSource

    con = duckdb.connect()
    con.execute(create)
    source = DuckSource(con)
    monkeypatch.setattr(profile_module, "BIG_TABLE", 100)
    if key_sample is not None:
        monkeypatch.setattr(profile_module, "KEY_SAMPLE", key_sample)
    asked = recorded(monkeypatch, source)
    return source, profile_module.profile(source, table, source.tables()[table]), asked


def recorded(monkeypatch, source: Any) -> list[str]:
    """The SQL the source is asked from now on, in order."""
    asked: list[str] = []
    real = source.rows

    def rows(sql: str) -> list[tuple[Any, ...]]:
        asked.append(sql)
        return real(sql)

    monkeypatch.setattr(source, "rows", rows)
    return asked


class TestRoles:
    def test_panel_measures(self, traps) -> None:
        """A percentage is averaged, an index (by name, or the same in every region each
        quarter) is an index, a flow is summed, a count per category per quarter is a stock,
        a one-letter quarter number is a part of the time."""
        roles = traps["roles"]
        assert {k: roles[k] for k in (
            "region_quarters.Quarter", "region_quarters.takings", "region_quarters.occupancy_pct",
            "region_quarters.cpi", "region_quarters.price_level", "region_quarters.t",
            "prisoners.quarter_label", "prisoners.count")} == {
            "region_quarters.Quarter": "time", "region_quarters.takings": "amount",
            "region_quarters.occupancy_pct": "average", "region_quarters.cpi": "index",
            "region_quarters.price_level": "index", "region_quarters.t": "time part",
            "prisoners.quarter_label": "time", "prisoners.count": "stock"}

    def test_a_documented_count_held_in_a_state_is_a_stock(self, traps) -> None:
        """Guests commented 'Number of guests in hotels' are a level: 2017's guests are its
        last quarter's, summed over regions; arrivals 'in the quarter' are events, summed
        over 2017's quarters."""
        roles = traps["roles"]
        assert (roles["region_quarters.guests"], roles["region_quarters.arrivals"]) == (
            "stock", "amount")
        answer, _ = _ask(traps["layer"], "g1", "How many guests were in hotels in 2017?")
        assert answer["value"] == pytest.approx(_sql(
            traps, "SELECT sum(guests) FROM region_quarters WHERE \"Quarter\" = '2017 Q4'"))
        answer, _ = _ask(traps["layer"], "g2", "How many arrivals were there in 2017?")
        assert answer["value"] == pytest.approx(_sql(
            traps, "SELECT sum(arrivals) FROM region_quarters WHERE \"Quarter\" LIKE '2017%'"))

    def test_a_documented_percentage_is_one(self, traps) -> None:
        """A column only its comment calls a percentage ('Percentage of the rooms that are
        filled', 40-80) is averaged in percent, and 'what percentage of the rooms were filled'
        asks for it, not for a share of a total; a rate's unit from its name stays as it was,
        and a documented count gets none."""
        gov = yaml.safe_load((traps["root"] / "governance.yaml").read_text(encoding="utf-8"))
        metrics = gov["metrics"]
        assert metrics["avg_filled"]["unit"] == "percent"
        assert metrics["avg_occupancy_pct"]["unit"] == "percent"
        assert (metrics.get("arrivals") or {}).get("unit") != "percent"
        answer, _ = _ask(traps["layer"], "f1", "What percentage of the rooms were filled in "
                                                 "the North in the third quarter of 2016?")
        assert answer["value"] == pytest.approx(_sql(
            traps, "SELECT avg(filled) FROM region_quarters WHERE region = 'North' AND "
                   "\"Quarter\" = '2016 Q3'"))

    def test_where_they_must_not_fire(self, traps) -> None:
        """Events stay events: an order's quantity is summed, a city's homes sold the same in
        every city are still summed, an inventory stays a snapshot, an order number a key."""
        roles = traps["roles"]
        assert {k: roles[k] for k in ("sales.qty", "sales.amount", "city_months.homes_sold",
                                      "city_months.inventory", "sales.order_no",
                                      "deliveries.parcels")} == {
            "sales.qty": "amount", "sales.amount": "amount", "city_months.homes_sold": "amount",
            "city_months.inventory": "snapshot", "sales.order_no": "key",
            "deliveries.parcels": "amount"}


    def test_a_number_in_a_documented_name_stays_whole(self, traps) -> None:
        """A rate commented 'Deaths per 100,000 residents' is named with its whole number, and
        a question saying so is read and answered (its name had ended at '100', leaving '000'
        unread); the mean over a quarter's regions is the gold."""
        gov = yaml.safe_load((traps["root"] / "governance.yaml").read_text(encoding="utf-8"))
        names = [s for m in gov["metrics"].values() for s in m.get("synonyms", [])
                 if "deaths per" in s]
        assert "deaths per 100,000 residents" in names
        assert not [s for s in names if s.endswith("per 100")]
        answer, _ = _ask(traps["layer"], "d1", "What were deaths per 100,000 residents in "
                                                 "the third quarter of 2016?")
        gold = _sql(traps, "SELECT avg(deaths) FROM region_quarters WHERE \"Quarter\" = "
                           "'2016 Q3'")
        assert answer["value"] == pytest.approx(gold)


    def test_all_of_the_things_a_table_holds_is_the_whole(self, traps) -> None:
        """'The total amount of all sales': every sale, no filter (the sales table's entity);
        'all things' names no entity of the draft and stays unread."""
        from showwork.protocol.reading import read_text

        catalog = traps["layer"].catalog()
        whole = read_text("What was the total amount of all sales in March 2024?", catalog)
        assert [m.name for m in whole.metrics] == ["amount"] and whole.unread == []
        assert whole.members == ()
        other = read_text("What was the total amount of all things in March 2024?", catalog)
        assert "all things" in other.unread


    def test_a_count_after_a_member_is_what_it_filters(self, traps) -> None:
        """'What share of the amount came from S01 sales': the sales are S01's rows, not a
        second metric beside the amount (a share of one metric); 'how many S01 sales' still
        asks for the count."""
        from showwork.protocol.reading import read_text

        catalog = traps["layer"].catalog()
        share = read_text("What share of the amount came from S01 sales in March 2024?", catalog)
        assert [m.name for m in share.metrics] == ["amount"] and share.unread == []
        count = read_text("How many S01 sales were there in March 2024?", catalog)
        assert [m.name for m in count.metrics] == ["sale_count"]


class TestTime:
    @pytest.mark.parametrize(("text", "start"), PERIODS)
    def test_text_periods_read_as_their_first_day(self, tmp_path: Path, text: str,
                                                  start: str) -> None:
        """A column of periods written as people write them becomes a time dimension whose
        values are the periods' first days."""
        folder = tmp_path / "data"
        folder.mkdir()
        (folder / "sales.csv").write_text(
            f"region,period,amount\nnorth,{text},10\nsouth,{text},20\n", encoding="utf-8")
        init_project(tmp_path / "draft", folder)
        layer = Project.open(tmp_path / "draft").layer()
        try:
            (sm,) = [m for m in layer.model.semantic_models if m.name == "sales"]
            expr = next(d.expr for d in sm.dimensions if d.type == "time")
            assert str(layer.run_sql(f"SELECT CAST({expr} AS DATE) FROM sales")[0][0]) == start
        finally:
            layer.close()

    def test_grain_and_coverage_to_the_end_of_the_last_period(self, traps) -> None:
        """Quarterly data gets quarter grain and coverage through the last quarter's last day,
        so the latest quarter is whole; daily data keeps day grain."""
        gov = yaml.safe_load((traps["root"] / "governance.yaml").read_text(encoding="utf-8"))
        assert gov["coverage"]["region_quarters"]["through"] == dt.date(2017, 12, 31)
        assert gov["coverage"]["prisoners"]["through"] == dt.date(2016, 12, 31)
        models = _models(traps["root"])
        grains = {sm: [d["type_params"]["time_granularity"] for d in models[sm]["dimensions"]
                       if d["type"] == "time"] for sm in ("region_quarters", "sales")}
        assert grains == {"region_quarters": ["quarter"], "sales": ["day"]}


class TestAnswers:
    def test_an_index_is_not_summed_across_regions(self, traps) -> None:
        """'cpi in the second quarter of 2017' is the index (107.5), not its sum over four
        regions; by region, every region shows the same index."""
        answer, trace = _ask(traps["layer"], "i1", "What was the cpi in the second quarter of 2017?")
        gold = _sql(traps, "SELECT DISTINCT cpi FROM region_quarters WHERE \"Quarter\" = "
                    "'2017 Q2'")
        assert answer["status"] == "answered" and answer["value"] == pytest.approx(gold)

    def test_a_stock_is_summed_across_members_not_over_time(self, traps) -> None:
        """The number of prisoners in a quarter is the sum over states, sexes and statuses of
        that quarter; a change runs from the first quarter's level to the last's."""
        answer, _ = _ask(traps["layer"], "s1",
                         "What was the number of prisoners in the third quarter of 2016?")
        gold = _sql(traps, "SELECT sum(count) FROM prisoners WHERE quarter_label = "
                    "'2016-Q3'")
        assert answer["status"] == "answered" and answer["value"] == pytest.approx(gold)
        answer, _ = _ask(traps["layer"], "s2", "How did the number of prisoners change from "
                         "the first quarter of 2016 to the fourth quarter of 2016?")
        first, last = (_sql(traps, f"SELECT sum(count) FROM prisoners WHERE "
                            f"quarter_label = '2016-Q{q}'") for q in (1, 4))
        assert answer["value"] == pytest.approx(100 * (last / first - 1), abs=0.01)

    def test_a_percentage_is_averaged(self, traps) -> None:
        """'average occupancy in 2016' is the mean of the rows' percentages, not their sum."""
        answer, _ = _ask(traps["layer"], "r1", "What was the average occupancy in 2016?")
        gold = _sql(traps, "SELECT avg(occupancy_pct) FROM region_quarters WHERE "
                    "\"Quarter\" LIKE '2016%'")
        assert answer["value"] == pytest.approx(gold)

    def test_the_row_count_says_rows_and_the_count_column_takes_the_words(self, traps) -> None:
        """In a panel the row count is 'rows of prisoners' and takes none of their words;
        'number of prisoners' names the count column's sum; an events table's row count keeps
        its words (number of sales)."""
        gov = yaml.safe_load((traps["root"] / "governance.yaml").read_text(encoding="utf-8"))
        metrics = _models(traps["root"])
        assert metrics["prisoner_rows"]["label"] == "rows of prisoners"
        assert "number of prisoners" not in gov["metrics"]["prisoner_rows"].get("synonyms", [])
        assert "number of prisoners" in gov["metrics"]["count"]["synonyms"]
        assert "number of sales" in gov["metrics"]["sale_count"]["synonyms"]


class TestDraftMark:
    def test_every_inferred_metric_and_dimension_is_marked(self, traps) -> None:
        """Each metric and dimension init wrote carries the inference it rests on, and
        --review lists them all."""
        models = _models(traps["root"])
        metrics = [m for m in models.values() if "type_params" in m and "measure" in m.get(
            "type_params", {}) or m.get("type") in ("ratio", "derived")]
        assert metrics and all(m["config"]["meta"]["showwork"]["draft"] for m in metrics)
        marks = review(traps["root"])
        assert {x.name for x in marks if x.kind == "metric"} == {m["name"] for m in metrics}
        cpi = next(x for x in marks if x.name == "cpi")
        assert "index" in cpi.inference and "never summed" in cpi.inference
        assert any(x.kind == "dimension" and x.name == "region_quarters.region" for x in marks)

    def test_an_answer_on_a_draft_has_a_caveat_until_reviewed(self, tmp_path: Path) -> None:
        """An answer citing a drafted metric is served with a draft_metric caveat naming the
        inference; once a person deletes the mark, the same answer carries no such caveat."""
        db = init_traps.build(tmp_path / "traps.duckdb")
        init_project(tmp_path / "drafted", db)
        question = "What was the cpi in the second quarter of 2017?"
        layer = Project.open(tmp_path / "drafted").layer()
        try:
            _, trace = _ask(layer, "d1", question)
        finally:
            layer.close()
        assert "draft_metric" in _findings(trace)
        assert trace.served().audit["decision"] == "serve_with_caveats"
        path = tmp_path / "drafted" / "models" / "metrics.yml"
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for m in data["metrics"]:
            if m["name"] == "cpi":
                del m["config"]
        path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
        layer = Project.open(tmp_path / "drafted").layer()
        try:
            answer, trace = _ask(layer, "d2", question)
        finally:
            layer.close()
        assert answer["value"] == pytest.approx(107.5)
        assert "draft_metric" not in _findings(trace)


class TestNames:
    def test_names_that_pass(self, tmp_path: Path) -> None:
        """A table named t and columns named t, 2021 and 'Sales (USD)' get valid names and keep
        the columns as their expr; the draft validates and answers."""
        folder = tmp_path / "data"
        folder.mkdir()
        rows = "\n".join(f"{m},2016-01-{m:02d},{'ab'[m % 2]},{m * 10},{m * 2.5}"
                         for m in range(1, 13))
        (folder / "t.csv").write_text(f"t,day,region,2021,Sales (USD)\n{rows}\n",
                                      encoding="utf-8")
        (folder / "monthly.csv").write_text("month,store,Sales (USD)\n" + "\n".join(
            f"2016M{m:02d},{s},{m * 100 + len(s)}" for m in range(1, 13) for s in ("a", "bb"))
            + "\n", encoding="utf-8")
        result = init_project(tmp_path / "draft", folder)
        assert result.written
        models = _models(tmp_path / "draft")
        assert "c_t" in models and models["c_t"]["model"] == "ref('t')"
        exprs = {m["expr"] for m in models["c_t"]["measures"]}
        assert {'"2021"', '"Sales (USD)"'} <= exprs
        monthly = models["monthly"]
        (sales,) = [m for m in monthly["measures"] if m["name"].startswith("sales_usd")]
        assert sales["expr"] == '"Sales (USD)"'
        layer = Project.open(tmp_path / "draft").layer()
        try:
            answer, _ = _ask(layer, "n1", "What were total sales usd in March 2016?")
        finally:
            layer.close()
        assert answer["value"] == pytest.approx(301 + 302)


class TestEventsStayEvents:
    def test_events_unique_by_nature_are_not_a_panel(self, tmp_path: Path) -> None:
        """Flights are unique on carrier x flight number x day, but most such combinations are
        empty: the table is events, its row count keeps the flights' words and its delay is
        averaged; a dense carrier x day table of the same columns is a panel, its rows rows."""
        folder = tmp_path / "data"
        folder.mkdir()
        lines = [f"{c},{100 + (d * 7 + i * 13 + k * 41) % 90},2013-01-{d:02d},{(d * i) % 40 - 5}"
                 for d in range(1, 29) for i, c in enumerate(("UA", "AA", "DL")) for k in (0, 1)]
        (folder / "flights.csv").write_text("carrier,flight,flight_date,dep_delay\n"
                                            + "\n".join(lines) + "\n", encoding="utf-8")
        dense = [f"{c},2013-01-{d:02d},{(d * 3 + i) % 17 + 5}" for d in range(1, 29)
                 for i, c in enumerate(("UA", "AA", "DL"))]
        (folder / "carrier_days.csv").write_text("carrier,day,flights_count\n"
                                                 + "\n".join(dense) + "\n", encoding="utf-8")
        result = init_project(tmp_path / "draft", folder)
        roles = {f"{r.table}.{r.column}": r.role for r in result.roles}
        assert roles["flights.dep_delay"] == "delay"
        assert roles["carrier_days.flights_count"] == "stock"
        gov = yaml.safe_load((tmp_path / "draft" / "governance.yaml").read_text("utf-8"))
        assert "number of flights" in gov["metrics"]["flight_count"]["synonyms"]
        assert "carrier_day_rows" in gov["metrics"]

    def test_a_rate_on_a_hundred_scale_is_a_percentage(self, tmp_path: Path) -> None:
        """Occupancy written 0-100 is averaged with unit percent; a 0-1 share is a fraction."""
        folder = tmp_path / "data"
        folder.mkdir()
        (folder / "hotels.csv").write_text("region,quarter,occupancy,share_booked\n" + "\n".join(
            f"{r},{y} Q{q},{50 + q + len(r)},{0.1 * q + 0.01 * len(r)}"
            for r in ("north", "southwest") for y in (2015, 2016) for q in range(1, 5)) + "\n",
            encoding="utf-8")
        init_project(tmp_path / "draft", folder)
        gov = yaml.safe_load((tmp_path / "draft" / "governance.yaml").read_text("utf-8"))
        assert gov["metrics"]["avg_occupancy"]["unit"] == "percent"
        assert gov["metrics"]["avg_share_booked"]["unit"] == "fraction"


class TestKeys:
    def test_four_columns_unique_together_are_the_key(self, traps) -> None:
        """The stock table, unique on state x sex x status x quarter, gets a key made of the
        four, so its metrics keep their dimensions."""
        models = _models(traps["root"])
        (entity,) = [e for e in models["prisoners"]["entities"] if e["type"] == "primary"]
        assert all(c in entity["expr"] for c in ("state", "sex", "legal_status",
                                                 "quarter_label"))
        assert "prisoner__state" in traps["layer"].model.supported_dimensions("count")

    def test_estimate_then_confirm_once(self, monkeypatch) -> None:
        """On a big table a sample rules out the combinations that repeat within it, the rest
        are estimated in one scan and only the one that may be unique is counted exactly; with
        none unique, the nearest is kept for the warning with its duplicate rows."""
        from showwork.semantic_layer.draft.profile import composite_key, profile

        source, table, asked = _big(
            monkeypatch, "CREATE TABLE panel AS SELECT 'r' || CAST(i % 40 AS VARCHAR) AS region, "
            "'c' || CAST(i // 40 % 25 AS VARCHAR) AS channel, "
            "DATE '2020-01-01' + CAST(i // 1000 AS INTEGER) AS day, "
            "CAST(i % 7 AS VARCHAR) AS shift FROM range(0, 5000) t(i)", "panel",
            key_sample=2000)  # two days of 1,000 rows
        con = source.con
        asked.clear()
        assert composite_key(source, table) == ("region", "channel", "day")
        sampled = [q for q in asked if "LIMIT 2000" in q.upper()]
        exact = [q for q in asked if "DISTINCT" in q.upper() and "APPROX" not in q.upper()
                 and q not in sampled]
        estimated = [q for q in asked if "APPROX_COUNT_DISTINCT" in q.upper()]
        assert len(sampled) == 1 and len(estimated) == 1 and len(exact) == 1
        # region × channel repeats within the sample's two days: ruled out, never estimated
        assert '("region", "channel")' not in estimated[0]
        assert '("region", "channel", "day")' in estimated[0]
        con.execute("INSERT INTO panel SELECT * FROM panel LIMIT 3")
        table = profile(source, "panel", source.tables()["panel"])
        nearest: dict = {}
        assert composite_key(source, table, nearest) is None
        combo, duplicates = nearest["panel"]
        assert duplicates == 3 and combo[:2] == ("region", "channel")
        con.close()

    def test_none_unique_within_the_sample(self, monkeypatch) -> None:
        """When every combination repeats within the sample, none is estimated; the nearest
        there is counted exactly once for the warning."""
        from showwork.semantic_layer.draft.profile import composite_key

        # region × channel repeats every 200 rows, a day holds 500: no combination is unique
        source, table, asked = _big(
            monkeypatch, "CREATE TABLE visits AS SELECT 'r' || CAST(i % 40 AS VARCHAR) AS "
            "region, 'c' || CAST(i % 25 AS VARCHAR) AS channel, "
            "DATE '2020-01-01' + CAST(i // 500 AS INTEGER) AS day FROM range(0, 3000) t(i)",
            "visits", key_sample=500)
        con = source.con
        asked.clear()
        nearest: dict = {}
        assert composite_key(source, table, nearest) is None
        assert not any("APPROX_COUNT_DISTINCT" in q.upper() for q in asked)
        combo, duplicates = nearest["visits"]
        (n,) = con.execute(f"SELECT COUNT(*) FROM (SELECT DISTINCT {', '.join(combo)} "
                           "FROM visits)").fetchone()
        assert duplicates == 3000 - n > 0 and len(asked) == 2
        con.close()

    def test_spacing_of_a_big_table_ruled_out_on_a_sample(self, monkeypatch) -> None:
        """On a big table a date column whose sample has a day other than the 1st starts no
        period without a scan of the whole; quarter starts are still read on the whole."""
        source, table, asked = _big(
            monkeypatch, "CREATE TABLE sales AS SELECT DATE '2020-01-01' + CAST(i // 10 AS "
            "INTEGER) AS sold_on, make_date(2000 + CAST(i // 40 AS INTEGER), "
            "1 + 3 * CAST(i % 4 AS INTEGER), 1) AS quarter_start, i AS amount "
            "FROM range(0, 3000) t(i)", "sales")
        con = source.con
        assert table.column("sold_on").spacing is None
        assert table.column("quarter_start").spacing == "quarter"
        whole = [q for q in asked if "EXTRACT(day" in q and "LIMIT" not in q.upper()]
        assert len(whole) == 1 and "sold_on" not in whole[0]
        con.close()


class TestCommandLine:
    def test_a_draft_that_does_not_validate_still_prints_what_was_inferred(
            self, tmp_path: Path, monkeypatch) -> None:
        """Nothing is written, but the inference table is printed before the reason (exit 3)."""
        from typer.testing import CliRunner

        import showwork.harness.init as init
        from showwork.harness.cli import build_app

        db = init_traps.build(tmp_path / "w.duckdb")

        def fail(*_args) -> None:
            raise init.ProjectError("The draft did not validate, so nothing was written: boom")

        monkeypatch.setattr(init, "_validate", fail)
        result = CliRunner().invoke(build_app(), ["init", str(tmp_path / "p"), "--from",
                                                  str(db)])
        from showwork.harness.cli.errors import exit_code

        assert isinstance(result.exception, init.DraftInvalid)
        assert exit_code(result.exception) == 3  # the entry point's mapping: a bad project
        out = " ".join(result.output.split())
        assert "What init inferred" in out and "region_quarters.cpi" in out
        assert "boom" in str(result.exception)
        assert not (tmp_path / "p" / "showwork.yaml").exists()

    def test_review_lists_the_draft_decisions(self, traps) -> None:
        """`showwork init --review DIR` prints each drafted metric and dimension with what it
        rests on, and how to sign one off."""
        from typer.testing import CliRunner

        from showwork.harness.cli import build_app

        result = CliRunner().invoke(build_app(), ["init", "--review", str(traps["root"])],
                                    env={"COLUMNS": "250"})
        assert result.exit_code == 0, result.output
        out = " ".join(result.output.split())
        assert "Draft decisions to review" in out and "cpi" in out and "read as index" in out
        assert "deleting its config.meta.showwork.draft mark" in out


class TestWeighted:
    def test_a_per_head_value_is_weighted_by_the_population(self, tmp_path: Path) -> None:
        """GDP per capita over a continent's countries is averaged weighted by their population
        (the evident denominator), not as a plain mean of countries; a rate with no population
        beside it stays a plain mean."""
        folder = tmp_path / "data"
        folder.mkdir()
        rows = [f"{c},{k},{y},{p * (1 + (y - 2000) // 5)},{g + y - 2000},{40 + len(c)}.5"
                for c, k, p, g in (("Aland", "North", 1000, 50.0), ("Borduria", "North", 9000,
                                   10.0), ("Cyrenia", "South", 500, 30.0))
                for y in (2000, 2005, 2010)]
        (folder / "countries.csv").write_text("country,continent,year,pop,gdpPercap,lifeExp\n"
                                              + "\n".join(rows) + "\n", encoding="utf-8")
        result = init_project(tmp_path / "draft", folder)
        roles = {f"{r.table}.{r.column}": r.role for r in result.roles}
        assert roles["countries.pop"] == "stock" and roles["countries.gdpPercap"] == "average"
        layer = Project.open(tmp_path / "draft").layer()
        try:
            answer, _ = _ask(layer, "w1", "What was the average gdp per capita in North in 2010?")
            gold = layer.run_sql("SELECT sum(gdpPercap * pop) / sum(pop) FROM countries "
                                 "WHERE continent = 'North' AND year = 2010")[0][0]
            assert answer["value"] == pytest.approx(gold)
            answer, _ = _ask(layer, "w2", "What was the average life expectancy in North in "
                             "2010?")
            plain = layer.run_sql("SELECT avg(lifeExp) FROM countries WHERE continent = "
                                  "'North' AND year = 2010")[0][0]
            assert answer["value"] == pytest.approx(plain)
        finally:
            layer.close()


class TestSpacing:
    def test_text_dates_on_month_starts_get_month_grain(self, tmp_path: Path) -> None:
        """Text timestamps all on the first of a month get month grain, like DATE columns; text
        dates on any day keep day grain."""
        con = duckdb.connect(str(tmp_path / "w.duckdb"))
        con.execute("CREATE TABLE prices AS SELECT strftime(DATE '2020-01-01' + INTERVAL (m) "
                    "MONTH, '%Y-%m-%d') AS month_start, 10.0 + m AS price FROM range(0, 24) t(m)")
        con.execute("CREATE TABLE visits AS SELECT strftime(DATE '2020-01-01' + CAST(d AS "
                    "INTEGER), '%Y-%m-%d') AS visited_on, 'web' || CAST(d % 3 AS VARCHAR) AS "
                    "channel, d % 5 AS pages FROM range(0, 60) t(d)")
        con.close()
        init_project(tmp_path / "draft", tmp_path / "w.duckdb")
        models = _models(tmp_path / "draft")
        grains = {sm: [d["type_params"]["time_granularity"] for d in models[sm]["dimensions"]
                       if d["type"] == "time"] for sm in ("prices", "visits")}
        assert grains == {"prices": ["month"], "visits": ["day"]}
        gov = yaml.safe_load((tmp_path / "draft" / "governance.yaml").read_text("utf-8"))
        assert gov["coverage"]["prices"]["through"] == dt.date(2021, 12, 31)


class TestCounts:
    def test_a_count_column_in_events_takes_the_words(self, tmp_path: Path) -> None:
        """A table of grouped events with a column n (how many arrests each row stands for):
        'number of arrests' is the sum of n and the row count is rows; a table without such a
        column keeps 'number of …' on its rows."""
        folder = tmp_path / "data"
        folder.mkdir()
        (folder / "arrests.csv").write_text("arrested_on,precinct,n\n" + "\n".join(
            f"2020-01-{d:02d},p{(d * k) % 4},{1 + (d + k) % 3}" for d in range(1, 32)
            for k in (1, 2, 3)) + "\n", encoding="utf-8")
        (folder / "calls.csv").write_text("called_on,precinct,minutes\n" + "\n".join(
            f"2020-01-{d:02d},p{(d * k) % 4},{(d * k) % 17}" for d in range(1, 29)
            for k in (1, 2)) + "\n", encoding="utf-8")
        init_project(tmp_path / "draft", folder)
        gov = yaml.safe_load((tmp_path / "draft" / "governance.yaml").read_text("utf-8"))
        assert "number of arrests" in gov["metrics"]["c_n"]["synonyms"]
        assert "arrest_rows" in gov["metrics"] and "arrest_count" not in gov["metrics"]
        assert "number of calls" in gov["metrics"]["call_count"]["synonyms"]
        layer = Project.open(tmp_path / "draft").layer()
        try:
            answer, _ = _ask(layer, "c1", "What was the number of arrests in January 2020?")
            gold = layer.run_sql("SELECT sum(n) FROM arrests")[0][0]
        finally:
            layer.close()
        assert answer["value"] == pytest.approx(gold)


class TestTimeNumbers:
    def test_a_decimal_year_named_date_is_the_time_not_an_index(self, tmp_path: Path) -> None:
        """In a city x month panel a number named date, one per month (2000.0417…), is the
        period written as a number, not an index; a price level the same in every city each
        month (named neither date nor time) is an index."""
        folder = tmp_path / "data"
        folder.mkdir()
        (folder / "housing.csv").write_text("city,year,month,sales,date,price_level\n" + "\n".join(
            f"{c},{y},{m},{10 * m + len(c)},{y + (m - 1) / 12:.4f},{100 + 0.5 * m + y - 2000}"
            for c in ("Austin", "Dallas", "El Paso") for y in (2000, 2001) for m in range(1, 13))
            + "\n", encoding="utf-8")
        result = init_project(tmp_path / "draft", folder)
        roles = {f"{r.table}.{r.column}": r.role for r in result.roles}
        assert {k: roles[k] for k in ("housing.date", "housing.price_level", "housing.sales")} \
            == {"housing.date": "time part", "housing.price_level": "index",
                "housing.sales": "amount"}


class TestIntegerKeys:
    def test_a_unique_integer_is_a_key_unless_named_an_amount(self, tmp_path: Path) -> None:
        """o_orderkey, unique over 1,500 rows, is the key whatever its name says; amount_cents,
        unique by chance over the same rows, is still summed."""
        con = duckdb.connect(str(tmp_path / "w.duckdb"))
        con.execute("CREATE TABLE orders AS SELECT i * 4 + 1 AS o_orderkey, "
                    "DATE '2024-01-01' + CAST(i % 90 AS INTEGER) AS o_orderdate, "
                    "['F', 'O', 'P'][1 + i % 3] AS o_orderstatus, 1000 + i * 7 AS amount_cents "
                    "FROM range(0, 1500) t(i)")
        con.close()
        result = init_project(tmp_path / "draft", tmp_path / "w.duckdb")
        roles = {f"{r.table}.{r.column}": r.role for r in result.roles}
        assert roles["orders.o_orderkey"] == "key" and roles["orders.amount_cents"] == "amount"


STORE_MONTHS = """
    SELECT 'S' || CAST(s AS VARCHAR) AS store, make_date(2022 + m // 12, 1 + m % 12, 1) AS month,
           v AS visits, 3 + (s * 7 + m) % 18 AS staff, CAST(c AS DOUBLE) / v AS conversion_rate,
           round(100.0 * r / v, 1) AS return_pct, 100 * (1 + (s + m) % 9) AS leaflets,
           round(CAST((s * 13 + m) % 90 AS DOUBLE) / 100, 2) AS reply_rate
    FROM (SELECT s, m, 100 + (s * 977 + m * 131) % 4900 AS v, (s * 37 + m * 11) % 97 AS c,
                 (s * 5 + m * 3) % 41 AS r FROM range(1, 41) a(s), range(0, 24) b(m))"""
"""A store x month panel: a conversion rate (conversions / visits, a fraction), a return
percentage rounded to one decimal, a reply rate in hundredths beside leaflets counted in
hundreds, and staff (a count that divides nothing)."""


def _weights(path: Path) -> dict[str, str]:
    """rate → the count init weights its average by, from the roles' reasons."""
    from showwork.harness.init import DuckSource, draft_warehouse

    source = DuckSource(duckdb.connect(str(path), read_only=True))
    drafted = draft_warehouse(source, source.tables())
    source.close()
    found = {}
    for r in drafted.roles:
        if "weighted by" in r.reason:
            found[r.column] = r.reason.split("weighted by ")[1].split(",")[0]
    return found


class TestDenominators:
    def test_a_rate_is_weighted_by_the_count_it_is_a_share_of(self, tmp_path: Path) -> None:
        """conversion_rate × visits is a whole number in every row (and not with another row's
        visits): the rate's average over stores and months is weighted by visits, as SQL's
        sum(conversions) / sum(visits); staff, leaflets and the rounded rates weigh nothing."""
        db = tmp_path / "stores.duckdb"
        con = duckdb.connect(str(db))
        con.execute(f"CREATE TABLE store_months AS {STORE_MONTHS}")
        con.close()
        assert _weights(db) == {"conversion_rate": "visits"}
        result = init_project(tmp_path / "draft", db)
        reason = next(r.reason for r in result.roles if r.column == "conversion_rate")
        assert "a whole number in 100% of rows" in reason
        layer = Project.open(tmp_path / "draft").layer()
        try:
            answer, _ = _ask(layer, "d1", "What was the average conversion rate in 2023?")
            gold = layer.run_sql("SELECT sum(conversion_rate * visits) / sum(visits) FROM "
                                 "store_months WHERE year(month) = 2023")[0][0]
            plain = layer.run_sql("SELECT avg(conversion_rate) FROM store_months "
                                  "WHERE year(month) = 2023")[0][0]
            assert answer["value"] == pytest.approx(gold) and gold != pytest.approx(plain)
        finally:
            layer.close()

    def test_a_big_table_is_tried_on_a_sample_and_confirmed_once(self, monkeypatch) -> None:
        """Read as big, every rate × count pair is tried on the first rows; only the pair that
        fits there is counted once more on the whole table, whose figures the reason prints
        (7 % by chance there, 4 % in the first 300 rows)."""
        import showwork.semantic_layer.draft.models as models_module
        import showwork.semantic_layer.draft.profile as profile_module
        from showwork.harness.init import DuckSource

        con = duckdb.connect()
        con.execute(f"CREATE TABLE store_months AS {STORE_MONTHS}")
        source = DuckSource(con)
        table = profile_module.profile(source, "store_months", source.tables()["store_months"])
        for module in (models_module, profile_module):
            monkeypatch.setattr(module, "BIG_TABLE", 100)
        monkeypatch.setattr(profile_module, "TEXT_SAMPLE", 300)
        d = models_module.TableDraft(table, "store_month", None, [])
        models_module.read_roles(source, d, {"store_months": "store_month"},
                                 models_module.Names())
        asked = recorded(monkeypatch, source)
        assert models_module.denominators(source, d) == {"conversion_rate": (
            "visits", "conversion_rate × visits is a whole number in 100% of rows, in 7% "
            "with another row's visits")}
        tried, confirmed = asked
        assert "LIMIT 300" in tried and "LAG" in tried
        assert "LIMIT" not in confirmed and '"conversion_rate"' in confirmed
        assert '"leaflets"' not in confirmed
        con.close()

    def test_a_percentage_in_csv_files_and_a_described_one(self, tmp_path: Path) -> None:
        """In a folder of CSV files, a pass percentage (0–100) times pupils / 100 is whole: it
        is weighted by pupils; a percentage rounded to one decimal is weighted only once its
        description names the count ('of pupils'), and one whose description names none is
        not."""
        folder = tmp_path / "data"
        folder.mkdir()
        rows = [f"sch{s},{2015 + y},{p},{100.0 * k / p!r},{round(100.0 * a / p, 1)},"
                f"{round(100.0 * a / p, 1)}"
                for s in range(1, 31) for y in range(6)
                for p, k, a in [(40 + (s * 17 + y * 5) % 160, (s * 7 + y) % 39, (s + 3 * y) % 37)]]
        (folder / "schools.csv").write_text(
            "school,year,pupils,pass_pct,absent_pct,dropout_pct\n" + "\n".join(rows) + "\n",
            encoding="utf-8")
        roles = {r.column: r.reason for r in init_project(tmp_path / "files", folder).roles}
        assert "weighted by pupils" in roles["pass_pct"]
        assert "weighted" not in roles["absent_pct"] and "weighted" not in roles["dropout_pct"]
        db = tmp_path / "schools.duckdb"
        con = duckdb.connect(str(db))
        con.execute(f"CREATE TABLE schools AS SELECT * FROM read_csv('{folder}/schools.csv')")
        con.execute("COMMENT ON COLUMN schools.absent_pct IS 'Percentage of pupils absent'")
        con.execute("COMMENT ON COLUMN schools.dropout_pct IS 'Percentage dropping out, a "
                    "school average'")
        con.close()
        assert _weights(db) == {"pass_pct": "pupils", "absent_pct": "pupils"}

    def test_where_it_must_not_fire(self, tmp_path: Path) -> None:
        """The trap warehouse's occupancy percentage beside takings, and a rate whose every
        product with a count is whole by construction (hundredths times hundreds), weigh by
        nothing."""
        assert _weights(init_traps.build(tmp_path / "traps.duckdb")) == {}
        db = tmp_path / "mail.duckdb"
        con = duckdb.connect(str(db))
        con.execute(f"CREATE TABLE mail AS SELECT store, month, leaflets, reply_rate "
                    f"FROM ({STORE_MONTHS})")
        con.close()
        assert _weights(db) == {}


class TestPanelsOfSeveralCategories:
    def test_a_year_with_two_categories_is_the_time_and_a_documented_total_a_flow(
            self, tmp_path: Path) -> None:
        """A disease x state x year table (unique on the three, no one text column with the
        year) is a panel: the year is its time. Its count documented 'Total number of reported
        cases' adds up over the years; a count documented 'Number of prisoners' in a state x
        sex x year panel stays a stock (its last year). A table of things with a model year,
        its text columns not unique with it or unique but sparse, keeps the year an
        attribute."""
        folder = tmp_path / "data"
        folder.mkdir()
        diseases, states, years = ("Measles", "Mumps", "Polio"), ("Ohio", "Utah", "Iowa"), \
            range(2001, 2007)
        (folder / "cases.csv").write_text("disease,state,year,count,population\n" + "\n".join(
            f"{d},{s},{y},{(i * 7 + j * 3 + y) % 50},{1000 * (j + 1) + y}"
            for i, d in enumerate(diseases) for j, s in enumerate(states) for y in years)
            + "\n", encoding="utf-8")
        (folder / "cases.md").write_text("### Details\n\n  * disease. Disease names.\n\n"
                                         "  * count. Total number of reported cases.\n",
                                         encoding="utf-8")
        (folder / "prisoners.csv").write_text("state,sex,year,count\n" + "\n".join(
            f"{s},{x},{y},{100 + j * 10 + y % 7 + k * 50}" for j, s in enumerate(states)
            for k, x in enumerate(("Female", "Male")) for y in years) + "\n", encoding="utf-8")
        (folder / "prisoners.md").write_text("* count. Number of prisoners.\n", encoding="utf-8")
        (folder / "cars.csv").write_text("make,colour,year,price\n" + "\n".join(
            f"{m},{c},{2000 + (k % 3)},{1000 + k}" for k, (m, c) in enumerate(
                (m, c) for m in ("Audi", "Fiat") for c in ("red", "blue") for _ in range(4)))
            + "\n", encoding="utf-8")
        # unique on maker x body x year but sparse (20 of 100 combinations): things, no panel
        (folder / "models.csv").write_text("maker,body,year,price\n" + "\n".join(
            f"m{k % 10},b{k // 10},{2000 + k % 5},{100 + k}" for k in range(20)) + "\n",
            encoding="utf-8")
        result = init_project(tmp_path / "draft", folder)
        roles = {f"{r.table}.{r.column}": r.role for r in result.roles}
        assert roles["models.year"] != "time part"
        assert (roles["cases.year"], roles["cases.count"]) == ("time part", "amount")
        assert (roles["prisoners.year"], roles["prisoners.count"]) == ("time part", "stock")
        assert roles["cars.year"] != "time part"
        layer = Project.open(tmp_path / "draft").layer()
        try:
            answer, _ = _ask(layer, "p1", "How many cases were reported between 2002 and 2004?")
            gold = layer.run_sql("SELECT sum(count) FROM cases WHERE year BETWEEN 2002 AND 2004")
            assert answer["value"] == pytest.approx(gold[0][0])
            # a state's population on each disease's row is counted once per disease
            assert "the same on each disease's row" in result_reason(result, "cases.population")
            for question, sql in (
                    ("What was the population of Ohio in 2003?",
                     "SELECT max(population) FROM cases WHERE state = 'Ohio' AND year = 2003"),
                    ("What was the population in 2003?", "SELECT sum(p) FROM (SELECT DISTINCT "
                     "state, population AS p FROM cases WHERE year = 2003)")):
                answer, _ = _ask(layer, "p2", question)
                assert answer["value"] == pytest.approx(layer.run_sql(sql)[0][0]), question
        finally:
            layer.close()
        # a count that differs by sex repeats across nothing: a plain stock
        assert "(one row each)" in result_reason(result, "prisoners.count")

    def test_a_level_repeated_across_an_unbalanced_member_stays_a_plain_stock(
            self, tmp_path: Path) -> None:
        """When one state lacks a disease in a year, counting the population once per disease
        would be off for the total: the draft keeps it a plain stock."""
        folder = tmp_path / "data"
        folder.mkdir()
        rows = [f"{d},{s},{y},{j + y},{1000 * (j + 1) + y}" for d in ("Measles", "Mumps")
                for j, s in enumerate(("Ohio", "Utah", "Iowa")) for y in range(2001, 2007)
                if not (d == "Mumps" and s == "Utah" and y == 2003)]
        (folder / "cases.csv").write_text("disease,state,year,count,population\n"
                                          + "\n".join(rows) + "\n", encoding="utf-8")
        result = init_project(tmp_path / "draft", folder)
        assert "(one row each)" in result_reason(result, "cases.population")


class TestMemberNumbers:
    def test_a_number_each_member_carries_is_not_summed(self, tmp_path: Path) -> None:
        """In a state x year panel a state's FIPS code and its census region (whole numbers the
        state alone gives, the same every year) are the state's own numbers, not amounts; a
        whole-number count that changes over the years stays a measure; so does an integer
        level that differs between members in the same way each year but moves over time."""
        folder = tmp_path / "data"
        folder.mkdir()
        states = ("Ohio", "Utah", "Iowa", "Maine")
        (folder / "prod.csv").write_text("state,year,fips,region,emp,jobs\n" + "\n".join(
            f"{s},{y},{10 + 3 * j},{1 + j % 2},{500 + 7 * j + (y * j) % 13},{40 * (j + 1) + y}"
            for j, s in enumerate(states) for y in range(1990, 1998)) + "\n", encoding="utf-8")
        result = init_project(tmp_path / "draft", folder)
        roles = {f"{r.table}.{r.column}": r.role for r in result.roles}
        assert (roles["prod.fips"], roles["prod.region"]) == ("attribute", "attribute")
        assert roles["prod.emp"] != "attribute" and roles["prod.jobs"] != "attribute"
        assert "one value per state" in result_reason(result, "prod.fips")


def result_reason(result: Any, column: str) -> str:
    """The reason init printed for a table.column's role."""
    return next(r.reason for r in result.roles if f"{r.table}.{r.column}" == column)
