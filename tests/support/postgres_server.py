"""The temporary PostgreSQL cluster the tests start (benchmarks/pg_cluster.py, which the
semantic benchmark shares), and whether this machine can run it."""

from showwork.benchmarks.pg_cluster import (  # noqa: F401 — re-exported for the tests
    ADMIN,
    READER,
    READER_PASSWORD,
    PostgresServer,
    free_port,
    pg_bin,
    postgres_missing,
    skip_without_postgres,
)
