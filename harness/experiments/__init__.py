"""Experiments: one attempt (question → analyst → audit → trace), the question files and their
gold, the experiment over configurations and repeats, scores, statistics, the results file and
the re-audit of stored traces.

May import `showwork.harness.audit` and the harness's top-level modules (errors, home, cache,
project, otel), the analyst, protocol, semantic layer and traces; never the presentation, the
CLI or MCP (they build on this).
"""
