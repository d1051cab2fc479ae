"""What a person reads: the run report, the local web page, charts, the experiment table, the
one-line headline and marks of an answer, its evidence graph and the data team's backlog.

May import `showwork.harness.audit`, `showwork.harness.experiments` (the page asks questions),
the harness's top-level modules, and the packages below the harness; never the CLI or MCP.
"""
