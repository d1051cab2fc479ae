"""Snowflake, BigQuery and Databricks SQL, which cannot be reached from here: the settings each
driver is given, the compiled SQL per dialect against the golden files, and what a user sees with
no network (a closed loopback port, through the real drivers; for BigQuery, whose driver has no
endpoint override, every proxy variable pointing at one), a bad credential (loopback Snowflake
and Databricks login endpoints that refuse it, the latter over TLS with a self-signed
certificate; the BigQuery driver refusing malformed credentials before any request) and a missing table or a timeout (a connection object standing in at the
driver's DB-API interface). No test reaches beyond 127.0.0.1; every secret is planted and
looked for in what the user sees."""

from __future__ import annotations

import json
import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from showwork.semantic_layer import SemanticLayer, errors, load_model
from showwork.semantic_layer.engines import open_engine
from showwork.semantic_layer.engines.cloud import (
    PROBE,
    CloudEngine,
    bigquery_kwargs,
    databricks_kwargs,
    parse,
    snowflake_kwargs,
)
from showwork.semantic_layer.execute import Limits

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "sql"
SECRET = "planted-cloud-secret-4e2a"
CASES = {  # two of the golden queries (tests/semantic_layer/test_golden_sql.py)
    "weekly_active_users_by_platform": ("query", {
        "metrics": ["active_users"], "grain": "week", "group_by": ["platform"],
        "window": {"start": "2026-03-02", "end": "2026-03-29"}}),
    "mrr_by_month": ("query", {
        "metrics": ["mrr_usd"], "grain": "month",
        "window": {"start": "2026-01-01", "end": "2026-03-31"}}),
}
GOLDEN_DIALECT = {"snowflake": "snowflake", "bigquery": "bigquery", "databricks": "spark"}


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class FakeCursor:
    """A DB-API cursor standing in for a driver's: records what it ran, answers from `script`."""

    def __init__(self, con: FakeConnection) -> None:
        self.con = con
        self.description: list[Any] | None = None
        self.rows: list[tuple[Any, ...]] = []
        self.cancelled = threading.Event()

    def execute(self, sql: str) -> None:
        self.con.executed.append(sql)
        answer = self.con.answer(sql, self)
        if isinstance(answer, BaseException):
            raise answer
        self.description, self.rows = [("c",)], answer

    def fetchmany(self, n: int) -> list[tuple[Any, ...]]:
        return self.rows[:n]

    def fetchall(self) -> list[tuple[Any, ...]]:
        return self.rows

    def cancel(self) -> None:
        self.cancelled.set()

    def close(self) -> None:
        pass


class FakeConnection:
    def __init__(self, answer: Any = None) -> None:
        self.executed: list[str] = []
        self.answer = answer or (lambda sql, cursor: [])

    def cursor(self) -> FakeCursor:
        return FakeCursor(self)

    def close(self) -> None:
        pass


class DriverError(Exception):
    """What a driver raises (its DB-API Error)."""


SETTINGS = {
    "snowflake": {"account": "acme-eu1", "user": "analyst", "warehouse": "WH", "database": "SHOP",
                  "schema": "PUBLIC", "role": "READER", "password_env": "SF_PW"},
    "bigquery": {"project": "acme-data", "dataset": "shop", "location": "EU",
                 "credentials_env": "BQ_KEY"},
    "databricks": {"host": "dbc-1.cloud.databricks.com", "http_path": "/sql/1.0/warehouses/ab",
                   "catalog": "main", "schema": "shop", "token_env": "DB_TOKEN"},
}


@pytest.fixture
def secrets(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("SF_PW", "BQ_KEY", "DB_TOKEN"):
        monkeypatch.setenv(name, SECRET)


class TestSettings:
    def test_snowflake(self, secrets: None) -> None:
        """The ADBC Snowflake options, the password from the environment."""
        assert snowflake_kwargs(parse("snowflake", SETTINGS["snowflake"])) == {
            "adbc.snowflake.sql.account": "acme-eu1", "username": "analyst",
            "adbc.snowflake.sql.warehouse": "WH", "adbc.snowflake.sql.db": "SHOP",
            "adbc.snowflake.sql.schema": "PUBLIC", "adbc.snowflake.sql.role": "READER",
            "adbc.snowflake.sql.client_option.login_timeout": "10s",
            "adbc.snowflake.sql.client_option.app_name": "showwork", "password": SECRET}

    def test_bigquery(self, secrets: None) -> None:
        """The ADBC BigQuery options, service-account JSON from the environment."""
        assert bigquery_kwargs(parse("bigquery", SETTINGS["bigquery"])) == {
            "adbc.bigquery.sql.project_id": "acme-data", "adbc.bigquery.sql.dataset_id": "shop",
            "adbc.bigquery.sql.location": "EU",
            "adbc.bigquery.sql.auth_type": "adbc.bigquery.sql.auth_type.json_credential_string",
            "adbc.bigquery.sql.auth_credentials": SECRET}

    def test_databricks(self, secrets: None) -> None:
        """databricks.sql.connect's arguments, retries bounded, the token from the environment."""
        assert databricks_kwargs(parse("databricks", SETTINGS["databricks"])) == {
            "server_hostname": "dbc-1.cloud.databricks.com",
            "http_path": "/sql/1.0/warehouses/ab", "catalog": "main", "schema": "shop",
            "access_token": SECRET, "_retry_stop_after_attempts_count": 1,
            "_socket_timeout": 10, "_retry_stop_after_attempts_duration": 10}

    def test_databricks_ca_file_resolves_against_the_project(self, secrets: None) -> None:
        """tls_ca_file (a host behind a TLS proxy) is the connector's trusted CA bundle, a
        relative path read from showwork.yaml's folder."""
        spec = parse("databricks", {**SETTINGS["databricks"], "tls_ca_file": "certs/ca.pem"},
                     base=Path("/srv/shop"))
        assert databricks_kwargs(spec)["_tls_trusted_ca_file"] == "/srv/shop/certs/ca.pem"

    @pytest.mark.parametrize("kind", sorted(SETTINGS))
    def test_a_secret_is_never_written_in_showwork_yaml(self, kind: str) -> None:
        """A literal password/token/credentials key is refused, pointing at its *_env key."""
        secret_key = {"snowflake": "password", "bigquery": "credentials",
                      "databricks": "token"}[kind]
        with pytest.raises(errors.WarehouseSpecError, match="never written in showwork.yaml"):
            parse(kind, {**SETTINGS[kind], secret_key: SECRET})

    @pytest.mark.parametrize("kind", sorted(SETTINGS))
    def test_an_unset_variable_is_named(self, kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
        for name in ("SF_PW", "BQ_KEY", "DB_TOKEN"):
            monkeypatch.delenv(name, raising=False)
        with pytest.raises(errors.WarehouseSpecError, match="is not set"):
            parse(kind, SETTINGS[kind])

    @pytest.mark.parametrize("kind", sorted(SETTINGS))
    def test_where_names_the_project_and_engine_not_the_secret(self, kind: str,
                                                               secrets: None) -> None:
        spec = parse(kind, SETTINGS[kind], project="shop")
        assert spec.where.startswith("project shop, ")
        assert SECRET not in spec.where + repr(spec)


class TestCompiledSql:
    @pytest.mark.parametrize("kind", sorted(GOLDEN_DIALECT))
    @pytest.mark.parametrize("name", sorted(CASES))
    def test_engine_sends_the_golden_sql(self, kind: str, name: str, secrets: None) -> None:
        """What the engine sends its driver is the compiled SQL of its dialect, exactly the
        golden file's text (the one-SELECT gate passes it unchanged)."""
        con = FakeConnection()
        engine = CloudEngine(parse(kind, SETTINGS[kind]), Limits(), lambda spec: con,
                             (DriverError,))
        call, args = CASES[name]
        sql = SemanticLayer(load_model()).compile(call, args, engine.dialect).sql
        golden = (GOLDEN / f"{name}.{GOLDEN_DIALECT[kind]}.sql").read_text(encoding="utf-8")
        assert sql + "\n" == golden
        engine.run(sql, Limits())
        assert con.executed[-1] == sql


def _setup(sql: str) -> bool:
    """The engine's own statements at open: Snowflake's session timeout, BigQuery's probe."""
    return "ALTER SESSION" in sql or sql == PROBE


def _engine(kind: str, answer: Any) -> CloudEngine:
    return CloudEngine(parse(kind, SETTINGS[kind], project="shop"), Limits(),
                       lambda spec: FakeConnection(answer), (DriverError,))


class TestRunning:
    @pytest.mark.parametrize("kind", sorted(SETTINGS))
    def test_missing_table(self, kind: str, secrets: None) -> None:
        """The driver's error for a missing table is one ExecutionError naming project and engine."""
        def answer(sql: str, cursor: FakeCursor) -> Any:
            if "information_schema" in sql or _setup(sql):
                return []
            return DriverError(f"SQL compilation error: Object 'ORDERS' does not exist "
                               f"(auth {SECRET})")

        with pytest.raises(errors.ExecutionError) as caught:
            _engine(kind, answer).run("SELECT count(*) FROM orders", Limits())
        msg = caught.value.message
        assert msg.startswith("project shop, ") and "'ORDERS' does not exist" in msg
        assert SECRET not in msg

    @pytest.mark.parametrize("kind", sorted(SETTINGS))
    def test_model_naming_a_missing_table_is_refused_at_open(self, kind: str,
                                                             secrets: None) -> None:
        """A warehouse whose catalog lacks the model's tables is refused when the layer opens."""
        engine = _engine(kind, lambda sql, cursor: [("orders", "order_id", "NUMBER")]
                         if "information_schema" in sql else [])
        with pytest.raises(errors.WarehouseMismatch, match="reads table 'events'"):
            SemanticLayer(load_model(), engine=engine)

    @pytest.mark.parametrize("kind", sorted(SETTINGS))
    def test_timeout_cancels(self, kind: str, secrets: None) -> None:
        """Past the timeout the driver's cancel is called; the call is a QueryTimeout."""
        def answer(sql: str, cursor: FakeCursor) -> Any:
            if _setup(sql):
                return []
            assert cursor.cancelled.wait(60)  # the engine's timer cancels it
            return DriverError("query cancelled")

        with pytest.raises(errors.QueryTimeout, match="cancelled after 0.1 s"):
            _engine(kind, answer).run("SELECT 1", Limits(timeout_s=0.1))

    def test_snowflake_statement_timeout_is_set_for_the_session(self, secrets: None) -> None:
        con = FakeConnection()
        CloudEngine(parse("snowflake", SETTINGS["snowflake"]), Limits(timeout_s=42),
                    lambda spec: con, (DriverError,))
        assert con.executed == ["ALTER SESSION SET STATEMENT_TIMEOUT_IN_SECONDS = 42"]

    @pytest.mark.parametrize("kind", sorted(SETTINGS))
    @pytest.mark.parametrize("sql", ["DELETE FROM orders", "SELECT 1; DROP TABLE orders",
                                     "INSERT INTO orders SELECT * FROM orders"])
    def test_only_one_select_reaches_the_driver(self, kind: str, sql: str,
                                                secrets: None) -> None:
        engine = _engine(kind, None)
        con = engine.connection
        with pytest.raises(errors.ExecutionError, match="exactly one SELECT"):
            engine.run(sql, Limits())
        assert not [s for s in con.executed if "orders" in s]

    @pytest.mark.parametrize("kind", sorted(SETTINGS))
    def test_row_cap(self, kind: str, secrets: None) -> None:
        engine = _engine(kind, lambda sql, cursor: [(i,) for i in range(20)])
        with pytest.raises(errors.RowCapExceeded):
            engine.run("SELECT 1", Limits(row_cap=10))


# -- the real drivers, on loopback only ----------------------------------------------------------
class SnowflakeLogin:
    """A loopback endpoint answering Snowflake's login request with 'incorrect password'."""

    def __init__(self) -> None:
        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 — http.server's name
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                body = json.dumps({"data": None, "code": "390100", "success": False,
                                   "message": "Incorrect username or password was specified."}
                                  ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def login() -> Iterator[SnowflakeLogin]:
    server = SnowflakeLogin()
    yield server
    server.close()


def _open(kind: str, settings: dict[str, Any]) -> BaseException:
    with pytest.raises(errors.EngineUnavailable) as caught:
        open_engine({kind: settings}, ROOT, Limits(), project="shop")
    return caught.value


class TestRealDrivers:
    def test_snowflake_no_network(self, secrets: None) -> None:
        """Nothing listening: the driver's refusal, named, within its login timeout."""
        pytest.importorskip("adbc_driver_snowflake")
        exc = _open("snowflake", {**SETTINGS["snowflake"], "host": "127.0.0.1",
                                        "port": closed_port(), "protocol": "http"})
        assert str(exc).startswith("project shop, Snowflake (account acme-eu1, warehouse WH): "
                                   "could not connect:")
        assert "connection refused" in str(exc) and SECRET not in str(exc)

    def test_snowflake_bad_credential(self, secrets: None, login: SnowflakeLogin) -> None:
        """The login refused: the server's reason, named, the password nowhere."""
        pytest.importorskip("adbc_driver_snowflake")
        exc = _open("snowflake", {**SETTINGS["snowflake"], "host": "127.0.0.1",
                                     "port": login.port, "protocol": "http"})
        assert "Incorrect username or password was specified" in str(exc)
        assert str(exc).startswith("project shop, Snowflake") and SECRET not in str(exc)

    def test_bigquery_bad_credential(self, monkeypatch: pytest.MonkeyPatch) -> None:
        """Credentials that are no service-account key are refused before any request."""
        pytest.importorskip("adbc_driver_bigquery")
        monkeypatch.setenv("BQ_KEY", json.dumps({"type": "service_account",
                                                 "private_key_id": SECRET}))
        exc = _open("bigquery", SETTINGS["bigquery"])
        assert str(exc).startswith("project shop, BigQuery (project acme-data, dataset shop): ")
        assert SECRET not in str(exc)

    def test_databricks_no_network(self, secrets: None) -> None:
        """Nothing listening: one bounded attempt, named, the token nowhere."""
        pytest.importorskip("databricks.sql")
        exc = _open("databricks", {**SETTINGS["databricks"], "host": "127.0.0.1",
                                         "port": closed_port()})
        assert str(exc).startswith("project shop, Databricks SQL (127.0.0.1/sql/1.0/warehouses"
                                   "/ab): could not connect:")
        assert "Connection refused" in str(exc) and SECRET not in str(exc)


def _self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1, its own CA, and its key (cert.pem, key.pem in `folder`)."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName(
                [x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                           serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_file, key_file


class DatabricksLogin:
    """A loopback HTTPS endpoint answering the connector's OpenSession as Databricks answers a
    bad token: HTTP `status` (403 for an invalid token, 401 for a malformed one) with the body
    "Invalid access token."; it records the Authorization headers it was sent."""

    def __init__(self, folder: Path, status: int) -> None:
        import ssl

        seen: list[str] = []
        self.seen = seen

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 — http.server's name
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                seen.append(self.headers.get("Authorization", ""))
                body = b"Invalid access token."
                self.send_response(status)
                self.send_header("Content-Type", "text/plain")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.ca_file, key_file = _self_signed(folder)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(self.ca_file, key_file)
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


class TestNoNetworkAndRefusedLogins:
    @pytest.mark.parametrize("status", [403, 401])
    def test_databricks_bad_token(self, status: int, secrets: None, tmp_path: Path) -> None:
        """The token reaches the (TLS, self-signed, trusted through tls_ca_file) login and is
        refused: the message says the credentials were refused with the HTTP status, names
        project and engine, and the token is nowhere in it."""
        pytest.importorskip("databricks.sql")
        pytest.importorskip("cryptography")
        login = DatabricksLogin(tmp_path, status)
        try:
            exc = _open("databricks", {**SETTINGS["databricks"], "host": "127.0.0.1",
                                             "port": login.port,
                                             "tls_ca_file": str(login.ca_file)})
        finally:
            login.close()
        assert login.seen and login.seen[0] == f"Bearer {SECRET}"  # the token was sent
        assert str(exc) == (
            f"project shop, Databricks SQL (127.0.0.1/sql/1.0/warehouses/ab): the server refused "
            f"the credentials (HTTP {status}); check the access token and its access to the "
            "warehouse.")

    def test_bigquery_no_network(self, tmp_path: Path) -> None:
        """No network, from the command line: the BigQuery driver has no endpoint override, so
        every proxy variable points at a closed loopback port (Go's HTTP client, inside the
        driver, reads them once per process: hence a fresh process). A well-formed service-account
        key gets as far as fetching its token; the refused request is reported at open, within
        the login timeout, naming project and engine, with neither the key nor its id shown."""
        pytest.importorskip("adbc_driver_bigquery")
        pytest.importorskip("cryptography")
        import os
        import subprocess
        import sys

        import yaml
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric import rsa

        pem = rsa.generate_private_key(public_exponent=65537, key_size=2048).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption()).decode()
        key = json.dumps({"type": "service_account", "project_id": "acme-data",
                          "private_key_id": SECRET, "private_key": pem,
                          "client_email": "reader@acme-data.iam.gserviceaccount.com",
                          "client_id": "1", "token_uri": "https://oauth2.googleapis.com/token"})
        shop = ROOT / "examples" / "shop"
        (tmp_path / "showwork.yaml").write_text(yaml.safe_dump({
            "name": "shop", "semantic_models": str(shop / "models"),
            "governance": str(shop / "governance.yaml"),
            "warehouse": {"bigquery": SETTINGS["bigquery"]}}), encoding="utf-8")
        proxy = f"http://127.0.0.1:{closed_port()}"
        env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
        env.update({"BQ_KEY": key, "HTTPS_PROXY": proxy, "HTTP_PROXY": proxy,
                    "ALL_PROXY": proxy, "SHOWWORK_HOME": str(tmp_path / "home")})
        proc = subprocess.run([sys.executable, "-m", "showwork", "semantic", "query",
                               "--project", str(tmp_path), "--metric", "revenue"],
                              capture_output=True, text=True, env=env, timeout=120, check=False)
        out = proc.stdout + proc.stderr
        assert proc.returncode == 3, out
        assert proc.stderr.startswith(
            "bad project: project shop, BigQuery (project acme-data, dataset shop): could not "
            "connect: no answer within 10 s: "), out
        assert "cannot fetch token" in out and "connection refused" in out
        assert "Traceback" not in out and SECRET not in out and "PRIVATE KEY" not in out
        assert pem.splitlines()[1] not in out
