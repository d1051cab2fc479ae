"""`showwork semantic …` and `showwork warehouse …`."""

from __future__ import annotations

import datetime as dt
import json
import time
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from showwork.harness.cli.common import ProjectOpt, open_layer, open_project
from showwork.harness.home import warehouse_path
from showwork.semantic_layer.windows import DIALECTS, UNKNOWN_DAY, iso_week

if TYPE_CHECKING:  # the layer's modules load where a command uses them: a warm query compiles
    from rich.console import Console  # nothing, so loads no sqlglot (nor rich, nor the reader)

    from showwork.semantic_layer import SemanticModelFile

semantic_app = typer.Typer(help="Inspect the governed semantic model; compile and run queries.",
                           no_args_is_help=True)
warehouse_app = typer.Typer(help="Build the demo warehouse.", no_args_is_help=True)


@cache
def _console(stderr: bool = False) -> Console:
    """rich, loaded by the commands that print with it: `semantic query --json` loads none."""
    from rich.console import Console

    return Console(stderr=stderr)



@semantic_app.command("validate")
def validate(file: Path | None = typer.Argument(None, help="Model YAML or project (default: "
                                                "the project's model)."),
             project: str | None = ProjectOpt) -> None:
    """Check a semantic model; report every problem with where it is. A project's model is
    also checked against its warehouse: every table and column it reads must exist."""
    if file is not None:
        from showwork.semantic_layer import load_model

        model = load_model(file)  # a ModelError lists every problem, exit 3 (cli/errors.py)
        _console().print(f"✓ {file}: {_summary(model)}")
        return
    chosen = open_project(project)
    if chosen.demo:
        _console().print(f"✓ demo model: {_summary(chosen.model)}")
        return
    open_layer(chosen).close()  # the warehouse check: tables and columns the model reads
    _console().print(f"✓ project {chosen.name} ({chosen.file.path}): {_summary(chosen.model)}; "
              "every table and column it reads is in the warehouse")


def _summary(model: SemanticModelFile) -> str:
    return (f"{len(model.metrics)} metrics, {len(model.semantic_models)} semantic models, "
            f"version {model.version}")


@semantic_app.command("catalog")
def catalog(as_json: bool = typer.Option(False, "--json", help="Print JSON on stdout."),
            project: str | None = ProjectOpt) -> None:
    """Print what can be asked: metrics, labels, dimensions, members, grains, tree."""
    with open_project(project) as chosen:
        cat = chosen.catalog
    if as_json:
        print(json.dumps(cat, indent=2))
        return
    from showwork.harness.present.table import print_rows
    from showwork.protocol.prompts import edge_formula

    table = []
    for name, m in cat["metrics"].items():
        notes = []
        if m["point_in_time"]:
            notes.append("point in time")
        if m["previous_names"]:
            notes.append("was " + ", ".join(m["previous_names"]))
        table.append([name, m["label"], m["type"], ", ".join(m["grains"]),
                      ", ".join(m["dimensions"]) or "-",
                      f"{m['coverage']['start']}..{m['coverage']['end']}", "; ".join(notes)])
    print_rows(_console(), f"Governed metrics (model {cat['model_version']}, as of {cat['as_of']})",
               ("metric", "label", "type", "grains", "dimensions", "coverage", "notes"), table)
    for name, d in cat["dimensions"].items():
        members = ", ".join(d["members"]) if d["members"] else f"pattern {d['pattern']}"
        _console().print(f"dimension [bold]{name}[/bold]: {members}", highlight=False)
    for e in cat["tree"]["exact"]:
        _console().print(f"tree (exact): {e['parent']} = {edge_formula(e)}")
    for i in cat["tree"]["influence"]:
        _console().print(f"tree (influence, correlational): {i['source']} → {i['target']} "
                  f"(strength {i['strength']})")


def _args(metric: list[str], by: list[str], grain: str | None, start: str | None,
          end: str | None, prev_start: str | None, prev_end: str | None,
          as_of: dt.date) -> tuple[str, dict]:
    if not metric:
        raise typer.BadParameter("give at least one --metric", param_hint="--metric")
    if (start is None) != (end is None):
        raise typer.BadParameter("give --start and --end together", param_hint="--start/--end")
    if prev_start or prev_end:
        if not (prev_start and prev_end):
            raise typer.BadParameter("give --previous-start and --previous-end together")
        args: dict[str, Any] = {"metrics": metric, "current_window": _window(start, end, as_of),
                                "previous_window": {"start": prev_start, "end": prev_end}}
        if by:
            args["by"] = by[0]
        return "compare", args
    # a query without --start/--end has no time constraint, as `mf query` adds none
    args = {"metrics": metric, "group_by": by}
    if start and end:
        args["window"] = {"start": start, "end": end}
    if grain:
        args["grain"] = grain
        if start and end:
            args["whole_periods"] = True  # MetricFlow widens --start/--end to whole periods
    return "query", args


def _where(kind: str, args: dict[str, Any], where: str | None,
           model: SemanticModelFile, refuse_empty: bool = True) -> dict[str, Any]:
    """The call's arguments with MetricFlow's `--where` applied (one MetricFlow reads otherwise
    for the metrics asked is refused; bounds leaving no day too, unless refuse_empty=False)."""
    if where is None:
        return args
    from showwork.semantic_layer import parse_where

    parsed = parse_where(where)
    if kind == "query":
        return parsed.apply(args, model, refuse_empty)
    if parsed.start or parsed.end:
        raise typer.BadParameter("metric_time bounds in --where apply to a query; give a "
                                 "comparison's windows with --start/--end and --previous-*",
                                 param_hint="--where")
    return {**args, "where": parsed.where}


def _window(start: str | None, end: str | None, as_of: dt.date) -> dict[str, str]:
    if start and end:
        return {"start": start, "end": end}
    if as_of == UNKNOWN_DAY:
        raise typer.BadParameter("the project has no as_of date to count back from; give "
                                 "--start and --end", param_hint="--start/--end")
    week = iso_week(as_of - dt.timedelta(days=7))
    _console(stderr=True).print(f"no --start/--end: using the last whole week before the as-of date, {week}")
    return week.to_json()


MetricOpt = typer.Option([], "--metric", "-m", help="Metric name (repeat for more).")
ByOpt = typer.Option([], "--by", help="Dimension to group by (repeat for two).")
GrainOpt = typer.Option(None, "--grain", help="day, week or month.")
StartOpt = typer.Option(None, "--start", help="First day, ISO date (inclusive).")
EndOpt = typer.Option(None, "--end", help="Last day, ISO date (inclusive).")
PrevStartOpt = typer.Option(None, "--previous-start", help="Compare: previous window start.")
PrevEndOpt = typer.Option(None, "--previous-end", help="Compare: previous window end.")
WhereOpt = typer.Option(None, "--where", help="A MetricFlow filter, e.g. "
                        "\"{{ Dimension('customer__country') }} = 'MX'\".")
ShareOpt = typer.Option(False, "--share", help="A query grouped --by: each row's share of the "
                        "total too (share_of_total, a fraction of the same metric, filters and "
                        "window not grouped).")


def _share(kind: str, args: dict[str, Any], share: bool) -> dict[str, Any]:
    """The call's arguments asking each row's share of the total (a grouped query only)."""
    if not share:
        return args
    if kind != "query":
        raise typer.BadParameter("--share applies to a query, not a comparison",
                                 param_hint="--share")
    if not args.get("group_by"):
        raise typer.BadParameter("--share needs --by: a share is of a member's row in the "
                                 "total", param_hint="--share")
    return {**args, "share": True}


@semantic_app.command("compile")
def compile_cmd(metric: list[str] = MetricOpt, by: list[str] = ByOpt, grain: str | None = GrainOpt,
                start: str | None = StartOpt, end: str | None = EndOpt,
                previous_start: str | None = PrevStartOpt, previous_end: str | None = PrevEndOpt,
                dialect: str = typer.Option("duckdb", help="One of: " + ", ".join(DIALECTS)),
                where: str | None = WhereOpt, share: bool = ShareOpt,
                project: str | None = ProjectOpt) -> None:
    """Print the SQL a governed call compiles to (nothing runs, no warehouse is read)."""
    model = open_project(project).model
    kind, args = _args(metric, by, grain, start, end, previous_start, previous_end, model.as_of)
    args = _share(kind, _where(kind, args, where, model, False), share)
    from showwork.semantic_layer import SemanticLayer

    # as `semantic query` answers (and `mf query --explain`): SQL for a window no day of which
    # is read too, which gives no rows
    compiled = SemanticLayer(model).compile(kind, args, dialect, refuse_empty=False)
    print(compiled.sql)


@semantic_app.command("query")
def query_cmd(metric: list[str] = MetricOpt, by: list[str] = ByOpt, grain: str | None = GrainOpt,
              start: str | None = StartOpt, end: str | None = EndOpt,
              previous_start: str | None = PrevStartOpt, previous_end: str | None = PrevEndOpt,
              where: str | None = WhereOpt, share: bool = ShareOpt,
              limit: int | None = typer.Option(None, "--limit", min=1, help="A query: at most N "
                                               "rows, in key order."),
              as_json: bool = typer.Option(False, "--json", help="Print the typed result as JSON."),
              project: str | None = ProjectOpt) -> None:
    """Run a governed call on the project's warehouse and print its typed result."""
    layer = open_layer(open_project(project))
    try:
        kind, args = _args(metric, by, grain, start, end, previous_start, previous_end,
                           layer.model.as_of)
        if limit is not None:
            if kind != "query":
                raise typer.BadParameter("--limit applies to a query, not a comparison")
            args["limit"] = limit
        # answered as MetricFlow answers: no day read, or a member the dimension lacks, gives
        # no rows and a note (the analyst's tool refuses those)
        result = layer.call(kind, _share(kind, _where(kind, args, where, layer.model, False),
                                         share), refuse_empty=False)
    finally:
        layer.close()
    if result.widened:
        _console(stderr=True).print(
            f"note: {result.widened['note']}: asked {_span(result.widened['requested'])}, "
            f"measured {_span(result.widened['window'])}")
    if as_json:
        print(json.dumps(result.to_json(), indent=2))
        return
    from rich.table import Table

    table = Table(title=f"{kind}: {', '.join(result.metrics)}")
    for k in result.keys:
        table.add_column(k)
    for m in result.metrics:
        for f in result.fields:
            table.add_column(f"{m}.{f}", justify="right")
    for row in result.rows:
        cells = [row.key.get(k, "") for k in result.keys]
        cells += [_fmt(row.values[m][f]) for m in result.metrics for f in result.fields]
        table.add_row(*cells)
    _console().print(table)
    err = _console(stderr=True)
    for cov in result.coverage:
        if cov["partial"]:
            covered = cov["covered"]
            err.print(f"[yellow]partial:[/yellow] asked {cov['requested']['start']}.."
                      f"{cov['requested']['end']}, data covers "
                      f"{covered['start']}..{covered['end']}" if covered else "nothing")
    for old, new in result.renamed.items():
        err.print(f"note: {old!r} is a previous name of {new!r}; showing {new}")
    for note in result.notes:
        err.print(f"note: {note}", markup=False)


def _span(window: dict[str, str]) -> str:
    return f"{window['start']}..{window['end']}"


def _fmt(v: object) -> str:
    if v is None:
        return "-"
    return f"{v:,.4f}" if isinstance(v, float) else f"{v:,}"


@warehouse_app.command("build")
def build(scale: float = typer.Option(1.0, help="Size factor (1 ≈ 20k users, ~2M events)."),
          seed: int = typer.Option(7, help="Same seed, same numbers."),
          path: Path | None = typer.Option(None, help="Output file (default $SHOWWORK_HOME).")
          ) -> None:
    """Generate the demo warehouse (deterministic; written atomically)."""
    target = path or warehouse_path()
    started = time.perf_counter()
    with _console(stderr=True).status("building the demo warehouse") as status:
        from showwork.semantic_layer import warehouse as demo_warehouse

        demo_warehouse.build(target, scale=scale, seed=seed,
                             progress=lambda msg: status.update(msg))
    _console(stderr=True).print(f"built {target} (scale {scale:g}, seed {seed}) in "
                                f"{time.perf_counter() - started:.1f} s")
