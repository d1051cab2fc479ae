"""Audit, findings, repair, scoring, experiments, reports and the CLI."""

from protocol.compiled import guard

guard()  # before any compiled module loads: a stale build is never used
