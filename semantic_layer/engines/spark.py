"""Spark as the warehouse, for data that outgrows one machine: a local master or a Spark Connect
server, tables registered from Parquet paths or read from the session catalog.

The same limits as DuckDB: one governed SELECT per call (sqlglot parses it first), a timeout that
cancels the Spark jobs (a job tag cancelled from a timer; `interruptTag` over Connect), a row cap
read by fetching cap + 1 rows. SQL cannot read files by path (`spark.sql.runSQLOnFiles` off), and
a local Spark binds to 127.0.0.1 only, with no UI.

pyspark is the optional extra `showwork[spark]` and is imported only when a Spark engine opens.
A Spark that cannot start (no Java) or a Connect URL that does not answer is an EngineUnavailable
within a bounded time, never a hang.
"""

from __future__ import annotations

import logging
import os
import shutil
import socket
import tempfile
import threading
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urlsplit

import sqlglot
from sqlglot import exp

from showwork.semantic_layer.errors import (
    EngineUnavailable,
    ExecutionError,
    FileLoadError,
    QueryTimeout,
    WarehouseSpecError,
)
from showwork.semantic_layer.execute import Limits, within_cap

T = TypeVar("T")
LOCAL_CONF = {
    "spark.ui.enabled": "false",
    "spark.ui.showConsoleProgress": "false",
    "spark.driver.host": "127.0.0.1",
    "spark.driver.bindAddress": "127.0.0.1",
    "spark.driver.memory": "2g",
    # 200 shuffle partitions (the default) is pure overhead on a local master's few cores
    "spark.sql.shuffle.partitions": "4",
    "spark.sql.session.timeZone": "UTC",
    # governed SQL never writes a table; without this Spark leaves spark-warehouse/ in the cwd
    "spark.sql.warehouse.dir": str(Path(tempfile.gettempdir()) / "showwork-spark-warehouse"),
}
"""A local Spark's configuration; the spec's `conf:` overrides it."""
SESSION_CONF = {"spark.sql.runSQLOnFiles": "false"}
"""Every engine's session: no `SELECT … FROM parquet.`/any/path`` (DuckDB's external access off)."""
SPEC_KEYS = ("master", "remote", "tables", "conf")
CONNECT_PORT = 15002
START_TIMEOUT_S = 180.0
"""A local Spark not up after this is reported, not waited for."""
PROBE_TIMEOUT_S = 3.0
"""The TCP probe of a Connect URL."""
CANCEL_EVERY_S = 0.5
"""Past the timeout, how often the call's jobs are cancelled again until it returns."""
ANSWER_TIMEOUT_S = 30.0
"""A Connect server that accepts the connection but does not answer Spark's first call."""


@dataclass(frozen=True)
class SparkSpec:
    """showwork.yaml's `warehouse: {spark: …}`."""

    master: str | None = None
    """A local master, e.g. local[2]."""
    remote: str | None = None
    """A Spark Connect URL, sc://host:port."""
    tables: dict[str, Path] = field(default_factory=dict)
    """Table → Parquet path (file or folder); empty: the session catalog's tables."""
    conf: dict[str, str] = field(default_factory=dict)
    """Extra Spark configuration."""

    @classmethod
    def parse(cls, value: Any, base: Path) -> SparkSpec:
        if not isinstance(value, Mapping):
            raise WarehouseSpecError("warehouse.spark: expected a mapping with master: (e.g. "
                                     f"\"local[2]\") or remote: (sc://host:port); got {value!r}.")
        unknown = sorted(set(value) - set(SPEC_KEYS))
        if unknown:
            raise WarehouseSpecError(f"warehouse.spark: unknown key {unknown[0]!r}; supported: "
                                     f"{', '.join(SPEC_KEYS)}.")
        if ("master" in value) == ("remote" in value):
            raise WarehouseSpecError("warehouse.spark: give exactly one of master: (a local Spark, "
                                     "e.g. \"local[2]\") and remote: (sc://host:port).")
        tables, conf = value.get("tables") or {}, value.get("conf") or {}
        if not isinstance(tables, Mapping) or not isinstance(conf, Mapping):
            raise WarehouseSpecError("warehouse.spark: tables: and conf: are mappings "
                                     "(table: path, key: value).")
        from showwork.semantic_layer.engines import resolve

        return cls(master=_text(value.get("master")), remote=_text(value.get("remote")),
                   tables={str(t): resolve(base, p, f"warehouse.spark.tables.{t}")
                           for t, p in tables.items()},
                   conf={str(k): str(v).lower() if isinstance(v, bool) else str(v)
                         for k, v in conf.items()})

    @property
    def where(self) -> str:
        return f"Spark Connect at {self.remote}" if self.remote else f"Spark (master {self.master})"


class SparkEngine:
    """Governed SQL on one Spark session of its own (its temp views are its tables)."""

    name = "spark"
    dialect = "spark"

    def __init__(self, session: Any, spec: SparkSpec, release: Callable[[Any], None]) -> None:
        self.session = session
        self.spec = spec
        self._release: Callable[[Any], None] | None = release

    @classmethod
    def open(cls, value: Any, base: Path) -> SparkEngine:
        spec = SparkSpec.parse(value, base)
        if spec.remote:
            session, release = _connect(spec), _stop
        else:
            session, release = LOCAL.acquire(spec), LOCAL.release
        engine = cls(session, spec, release)
        try:
            engine._prepare()
        except BaseException:
            engine.close()
            raise
        return engine

    def _prepare(self) -> None:
        for key, value in SESSION_CONF.items():
            self.session.conf.set(key, value)
        for table, path in self.spec.tables.items():
            if not self.spec.remote and not path.exists():
                raise FileLoadError(f"warehouse.spark.tables.{table}: no Parquet file or folder "
                                    f"at {path}.")
            try:
                self.session.read.parquet(str(path)).createOrReplaceTempView(table)
            except _errors() as exc:
                raise FileLoadError(f"warehouse.spark.tables.{table}: {path} could not be read "
                                    f"as Parquet: {_first_line(exc)}") from exc

    # -- the Engine interface -------------------------------------------------------------------
    def run(self, sql: str, limits: Limits) -> list[tuple[Any, ...]]:
        """Rows of one SELECT; its jobs are cancelled past the timeout."""
        _one_query(sql)
        timed_out, finished = threading.Event(), threading.Event()
        tag = f"showwork-{uuid.uuid4().hex}"
        cancel = self._tagged(tag)

        def interrupt() -> None:
            timed_out.set()
            # again until the call returns: a job still being planned at the first cancel
            # starts after it, and cancelling only reaches running jobs
            while not finished.is_set():
                cancel()
                finished.wait(CANCEL_EVERY_S)

        timer = threading.Timer(limits.timeout_s, interrupt)
        timer.start()
        try:
            rows = self.session.sql(sql).take(limits.row_cap + 1)
        except _errors() as exc:
            if timed_out.is_set():
                raise QueryTimeout(f"Query cancelled after {limits.timeout_s:g} s.") from exc
            raise ExecutionError(f"Spark could not run the query: {_first_line(exc)}") from exc
        finally:
            finished.set()
            timer.cancel()
            self._untag(tag)
        return [tuple(r) for r in within_cap(rows, limits)]

    def tables(self) -> dict[str, list[tuple[str, str]]]:
        out: dict[str, list[tuple[str, str]]] = {}
        current = self.session.catalog.currentDatabase()
        for t in self.session.catalog.listTables():
            name = t.name if t.isTemporary or t.namespace in (None, [], [current]) else (
                ".".join([*(t.namespace or []), t.name]))
            schema = self.session.table(name).schema
            out[name] = [(f.name, f.dataType.simpleString()) for f in schema.fields]
        return out

    def close(self) -> None:
        release, self._release = self._release, None
        if release is None:
            return
        if not self.spec.remote:
            for table in self.spec.tables:
                self.session.catalog.dropTempView(table)
        release(self.session)

    def __repr__(self) -> str:
        return f"SparkEngine({self.spec.where})"

    # -- cancelling one call's jobs -------------------------------------------------------------
    def _tagged(self, tag: str) -> Callable[[], None]:
        """Tag what this thread runs next; the returned function cancels it from any thread."""
        if self.spec.remote:
            self.session.addTag(tag)
            return lambda: self.session.interruptTag(tag)
        # a local session's interruptTag finds no operation to cancel; the context's job tags do
        sc = self.session.sparkContext
        sc.setInterruptOnCancel(True)
        sc.addJobTag(tag)
        return lambda: sc.cancelJobsWithTag(tag)

    def _untag(self, tag: str) -> None:
        if self.spec.remote:
            self.session.removeTag(tag)
        else:
            self.session.sparkContext.removeJobTag(tag)


class _Local:
    """The process's one local SparkContext (Spark allows one per process), shared by the local
    engines, each on a session of its own so their temp views never meet; stopped with the
    last engine unless it was running before the first."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.root: Any = None
        self.master: str | None = None
        self.users = 0
        self.owned = False

    def acquire(self, spec: SparkSpec) -> Any:
        _require_java(spec)
        _require_pyspark(spec)
        with self.lock:
            if self.root is None:
                self.root, self.owned = _start(spec)
                self.master = spec.master
            elif spec.master != self.master:
                raise EngineUnavailable(f"{spec.where}: this process already runs a local Spark "
                                        f"with master {self.master} (one per process); use the "
                                        "same master.")
            self.users += 1
            return self.root.newSession()

    def release(self, session: Any) -> None:
        with self.lock:
            self.users -= 1
            if self.users == 0 and self.root is not None:
                if self.owned:
                    self.root.stop()
                self.root, self.master = None, None


LOCAL = _Local()


CONNECT_MODE = "SPARK_CONNECT_MODE_ENABLED"


def _start(spec: SparkSpec) -> tuple[Any, bool]:
    """(the root session, whether showwork started it)."""
    from pyspark.sql import SparkSession

    running = SparkSession.getActiveSession()
    if running is not None:
        return running, False
    builder = SparkSession.builder.master(spec.master or "local[2]").appName("showwork")
    for key, value in {**LOCAL_CONF, **spec.conf}.items():
        builder = builder.config(key, value)

    def start() -> Any:
        # pyspark marks the whole process as Spark Connect once a remote session was made
        # (SPARK_CONNECT_MODE_ENABLED); a local master must start a classic session anyway
        marked = os.environ.pop(CONNECT_MODE, None)
        try:
            session = builder.getOrCreate()
        finally:
            if marked is not None:
                os.environ[CONNECT_MODE] = marked
        session.sparkContext.setLogLevel("ERROR")
        return session

    session = _bounded(start, START_TIMEOUT_S, spec, lambda s: s.stop())
    return session, True


def _connect(spec: SparkSpec) -> Any:
    url = spec.remote or ""
    host, port = _address(spec)
    try:
        socket.create_connection((host, port), timeout=PROBE_TIMEOUT_S).close()
    except OSError as exc:
        raise EngineUnavailable(f"{spec.where} does not answer ({exc.strerror or exc}); start "
                                "the server or fix warehouse.spark.remote.") from exc
    _require_pyspark(spec)
    from pyspark.sql import SparkSession

    def connect() -> Any:
        builder = SparkSession.builder.remote(url)
        for key, value in spec.conf.items():
            builder = builder.config(key, value)
        session = builder.create()
        _ = session.version  # one round trip: the port answers as Spark Connect
        return session

    return _bounded(connect, ANSWER_TIMEOUT_S, spec, _stop)


def _stop(session: Any) -> None:
    session.stop()


def _address(spec: SparkSpec) -> tuple[str, int]:
    url = urlsplit(spec.remote or "")
    try:
        port = url.port or CONNECT_PORT
    except ValueError as exc:
        raise WarehouseSpecError(f"warehouse.spark.remote: {spec.remote!r} has no valid port.") from exc
    if url.scheme != "sc" or not url.hostname:
        raise WarehouseSpecError(f"warehouse.spark.remote: {spec.remote!r} is not a Spark Connect "
                                 "URL (sc://host:port).")
    return url.hostname, port


def _bounded(fn: Callable[[], T], timeout_s: float, spec: SparkSpec,
             discard: Callable[[T], None]) -> T:
    """fn() on a worker thread, waited for at most timeout_s; EngineUnavailable if it fails or
    is late (what it returns late is discarded)."""
    box: dict[str, Any] = {}
    done = threading.Event()
    late = threading.Event()

    def work() -> None:
        try:
            box["value"] = fn()
        except BaseException as exc:  # reported to the caller below, with its reason
            box["error"] = exc
        done.set()
        if late.is_set() and "value" in box:
            discard(box["value"])

    threading.Thread(target=work, name="showwork-spark-start", daemon=True).start()
    if not done.wait(timeout_s):
        late.set()
        raise EngineUnavailable(f"{spec.where} did not start or answer within {timeout_s:g} s.")
    error = box.get("error")
    if error is not None:
        raise EngineUnavailable(f"{spec.where} could not start: {_first_line(error)}") from error
    return box["value"]


def _require_pyspark(spec: SparkSpec) -> None:
    try:
        import pyspark  # noqa: F401
    except ImportError as exc:
        raise EngineUnavailable(f"{spec.where} needs pyspark: pip install 'showwork[spark]'.") from exc
    from pyspark.logger import PySparkLogger

    # pyspark logs every failed query's JVM stack trace; the ExecutionError carries its reason
    for name in ("SQLQueryContextLogger", "DataFrameQueryContextLogger"):
        PySparkLogger.getLogger(name).setLevel(logging.CRITICAL)


def _require_java(spec: SparkSpec) -> None:
    """EngineUnavailable unless pyspark's launcher can find Java (JAVA_HOME, else PATH)."""
    home = os.environ.get("JAVA_HOME")
    if home:
        if not os.access(Path(home) / "bin" / "java", os.X_OK):
            raise EngineUnavailable(f"{spec.where} needs Java 17 or later: JAVA_HOME={home} has no "
                                    "bin/java; fix JAVA_HOME or unset it.")
        return
    if shutil.which("java") is None:
        raise EngineUnavailable(f"{spec.where} needs Java 17 or later and none was found (JAVA_HOME "
                                "is unset and `java` is not on PATH); install it (Debian: apt-get "
                                "install openjdk-17-jre-headless) or set JAVA_HOME.")


def _one_query(sql: str) -> None:
    try:
        statements = sqlglot.parse(sql, read="spark")
    except sqlglot.errors.SqlglotError as exc:
        raise ExecutionError(f"The governed connection runs exactly one SELECT; this did not "
                             f"parse: {_first_line(exc)}") from exc
    kinds = [type(s).__name__ for s in statements if s is not None]
    if len(kinds) != 1 or not isinstance(statements[0], exp.Query):
        raise ExecutionError(f"The governed connection runs exactly one SELECT; got "
                             f"{', '.join(kinds) or 'no statement'}.")


def _errors() -> tuple[type[BaseException], ...]:
    """What pyspark raises for a failed call, classic (py4j) or Connect (gRPC)."""
    from py4j.protocol import Py4JError
    from pyspark.errors import PySparkException

    return (PySparkException, Py4JError)


def _first_line(exc: BaseException) -> str:
    """The reason in a pyspark error: its first line, or for a py4j error (whose first line
    names the Java call) the Java exception's message."""
    lines = [line.strip() for line in str(exc).strip().splitlines() if line.strip()]
    if len(lines) > 1 and lines[0].startswith("An error occurred while calling"):
        lines = lines[1:]
    return (lines[0].lstrip(": ") if lines else type(exc).__name__)[:500]


def _text(value: Any) -> str | None:
    return None if value is None else str(value)
