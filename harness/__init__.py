"""Audit, findings, repair, scoring, experiments, reports and the CLI."""
