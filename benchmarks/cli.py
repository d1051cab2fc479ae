"""`showwork bench semantic|audit|concurrency`: benchmarks printing ratios measured in one run.

The bench commands live with the benchmarks; showwork/cli.py adds them to the app."""

from __future__ import annotations

import json

import typer
from rich.console import Console
from rich.table import Table

from harness.home import home

bench_app = typer.Typer(help="Benchmarks; each prints ratios measured side by side in one run.",
                        no_args_is_help=True)
err = Console(stderr=True)


@bench_app.command("semantic")
def semantic(scale: float = typer.Option(10.0, help="Warehouse scale to measure on."),
             repeats: int = typer.Option(7, help="Timed runs per query."),
             as_json: bool = typer.Option(False, "--json")) -> None:
    """Compile p50, and governed-query time over hand-written SQL on one connection."""
    from benchmarks import semantic as bench

    with err.status("benchmarking the semantic layer") as status:
        report = bench.run(home(), scale, repeats, progress=lambda m: status.update(m))
    if as_json:
        print(json.dumps(report, indent=2))
        return
    table = Table(title=f"semantic layer at scale {scale:g} (median of {repeats})")
    for col in ("case", "governed s", "hand SQL s", "ratio"):
        table.add_column(col, justify="right" if col != "case" else "left")
    for c in report["cases"]:
        table.add_row(c["case"], f"{c['governed_s']:.4f}", f"{c['hand_sql_s']:.4f}",
                      f"{c['ratio']:.2f}")
    Console().print(table)
    Console().print(f"compile p50 {report['compile_p50_ms']:.2f} ms (target ≤ 5), "
                    f"median ratio {report['median_ratio']:.2f} (target ≤ 1.2)")


@bench_app.command("audit")
def audit(claims: int = typer.Option(100_000, help="Claims to audit (at least)."),
          repeats: int = typer.Option(3, help="Timed passes."),
          as_json: bool = typer.Option(False, "--json")) -> None:
    """Audit throughput (claims/s) and re-audit time over JSON parse time of the same traces."""
    from benchmarks import audit as bench

    with err.status("benchmarking the audit") as status:
        report = bench.run(home(), claims, repeats, progress=lambda m: status.update(m))
    if as_json:
        print(json.dumps(report, indent=2))
        return
    Console().print(
        f"{report['claims']:,} claims in {report['traces']:,} traces "
        f"({report['distinct_traces']} distinct recorded traces, "
        f"{report['distinct_simulated']} of them SIMULATED by the noisy analyst; "
        f"{report['megabytes']:.0f} MB): "
        f"parse {report['parse_s']:.2f} s, audit {report['audit_s']:.2f} s, "
        f"{report['claims_per_s']:,.0f} claims/s, ratio {report['ratio']:.2f} (target ≤ 2)")


@bench_app.command("concurrency")
def concurrency(latency: float = typer.Option(0.2, help="Server latency per request (s)."),
                attempts: int = typer.Option(160, help="Attempts per concurrency limit."),
                as_json: bool = typer.Option(False, "--json")) -> None:
    """Experiment throughput against a fixed-latency loopback server at limits 1–16."""
    from benchmarks import concurrency as bench

    with err.status("benchmarking concurrency") as status:
        report = bench.run(home(), latency_s=latency, attempts=attempts,
                           progress=lambda m: status.update(m))
    if as_json:
        print(json.dumps(report, indent=2))
        return
    table = Table(title=f"throughput at {latency:g} s server latency")
    for col in ("concurrency", "attempts", "seconds", "attempts/s", "speedup", "efficiency"):
        table.add_column(col, justify="right")
    for r in report["rows"]:
        table.add_row(str(r["concurrency"]), str(r["attempts"]), f"{r['seconds']:.1f}",
                      f"{r['attempts_per_s']:.2f}", f"{r['speedup']:.1f}×",
                      f"{r['efficiency']:.0%}")
    Console().print(table)
