"""`showwork experiment`, `showwork demo`, `showwork report`, `showwork findings`."""

from __future__ import annotations

import datetime as dt
import json
import time
from pathlib import Path

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from showwork.analyst.registry import make_client
from showwork.harness import otel as otel_spans
from showwork.harness.audit.types import SCOPE_CODES
from showwork.harness.cli.common import (
    ProjectOpt,
    RunProjectOpt,
    check_run_project,
    err,
    open_layer,
    open_project,
    run_folder,
)
from showwork.harness.cli.params import OTEL
from showwork.harness.experiments import experiment as exp_mod
from showwork.harness.experiments.questions import QuestionFile, load_questions
from showwork.harness.home import home
from showwork.harness.present.backlog import (
    MISLABELLED,
    backlog,
    draft_metrics,
    headline,
    per_metric,
    refusal_groups,
    refused_attempts,
    wrong_answers,
)
from showwork.harness.present.report import write_report
from showwork.harness.present.table import print_table
from showwork.harness.project import Project, ProjectError
from showwork.protocol.periods import window_words

DEMO_CONFIGS = ["baseline", "claims", "claims+repair"]
DEMO_NOISY = "noisy:rules?fault_rate=0.25&fix_rate=0.7&seed=7"


def _questions(project: Project, questions: QuestionFile | None) -> QuestionFile:
    """The question file given, else the project's `questions:` (the demo's bundled file)."""
    if questions is not None:
        return questions
    if project.questions_path is None:
        raise ProjectError(f"{project.file.path}: project {project.name!r} has no question file; "
                           "pass --questions FILE or add `questions: FILE` to showwork.yaml.")
    return load_questions(project.questions_path)


def _stamp() -> str:
    return dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")


def _default_folder(project: Project, prefix: str = "") -> Path:
    """$SHOWWORK_HOME/runs/[prefix-]<timestamp> for the demo, runs/<project>-… otherwise."""
    name = "-".join(p for p in (prefix, "" if project.demo else project.name, _stamp()) if p)
    return home() / "runs" / name


def _run(project: Project, qfile: QuestionFile, configs: list[str], model: str, repeats: int,
         concurrency: int, out: Path, resume: bool, prices: Path | None) -> dict:
    experiment = exp_mod.Experiment(qfile, configs, model, out, repeats, concurrency,
                                    prices_path=prices, project=project.stamp)
    client = make_client(model)
    layer = open_layer(project)
    try:
        with Progress(TextColumn(f"[bold]{model}[/bold]"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), console=err, transient=False) as progress:
            task = progress.add_task("attempts", total=None)
            results = exp_mod.run(experiment, client, layer, resume,
                                  lambda done, total: progress.update(task, completed=done,
                                                                      total=total))
    finally:
        layer.close()
    write_report(out)
    return results


def experiment(questions: Path | None = typer.Option(None, help="Question file (default: the "
                                                     "project's `questions:`; the demo's "
                                                     "bundled questions)."),
               configs: str = typer.Option("baseline,claims,claims+repair",
                                           help="Comma-separated configurations."),
               repeats: int = typer.Option(1, min=1), model: str = typer.Option("rules"),
               concurrency: int = typer.Option(4, min=1, max=64),
               resume: bool = typer.Option(False, help="Finish a killed run in --out."),
               out: Path | None = typer.Option(None, help="Run folder (default: "
                                               "$SHOWWORK_HOME/runs/[<project>-]<timestamp>)."),
               prices: Path | None = typer.Option(None, help="Price table YAML."),
               as_json: bool = typer.Option(False, "--json"),
               project: str | None = ProjectOpt, otel: bool = OTEL.typer()) -> None:
    """Run configurations × questions × repeats; write traces, results and the report."""
    if otel:
        otel_spans.enable()
    qfile = load_questions(questions) if questions else None
    chosen = open_project(project, qfile)
    qfile = _questions(chosen, qfile)
    folder = out or _default_folder(chosen)
    results = _run(chosen, qfile, [c for c in configs.split(",") if c.strip()], model, repeats,
                   concurrency, folder, resume, prices)
    if as_json:
        print(json.dumps(results, default=str))
        return
    print_table(Console(), results, f"{model} on {folder}")
    err.print(f"run folder: {folder} (traces.jsonl, results.json, report.html)")


def demo(concurrency: int = typer.Option(4, min=1, max=64),
         project: str | None = ProjectOpt) -> None:
    """The main job on the embedded default: build the warehouse if missing, run the protocol
    experiment with the built-in analyst and with the noisy simulator, print both tables."""
    started = time.monotonic()
    chosen = open_project(project)
    qfile = _questions(chosen, None)
    root = _default_folder(chosen, "demo")
    console = Console()
    for label, model in (("rules", "rules"), ("noisy", DEMO_NOISY)):
        results = _run(chosen, qfile, DEMO_CONFIGS, model, 1, concurrency, root / label, False,
                       None)
        title = ("built-in rules analyst" if label == "rules"
                 else "noisy simulator (SIMULATED faults on top of rules)")
        print_table(console, results, title)
        console.print(f"report: {root / label / 'report.html'}")
    console.print(f"run folders: {root} · {time.monotonic() - started:.0f} s · "
                  "A tick means the support link resolves; it does not mean the conclusion is true.")


def report(run_dir: Path = typer.Argument(..., help="A run folder."),
           project: str | None = RunProjectOpt) -> None:
    """Write (or rewrite) report.html for a run folder."""
    check_run_project(run_dir, project)
    path = write_report(run_folder(run_dir, "traces.jsonl", "results.json"))
    print(path)


def findings(run_dir: Path = typer.Argument(..., help="A run folder."),
             as_json: bool = typer.Option(False, "--json"),
             project: str | None = RunProjectOpt) -> None:
    """The data team's backlog: wrong answers against gold, refusals grouped by the words that
    caused them (with a suggested catalog change), findings grouped by kind and metric with
    suggested fixes, and counts per metric and per dimension."""
    check_run_project(run_dir, project)
    run = run_folder(run_dir, "traces.jsonl")
    wrong, refusals, groups = wrong_answers(run), refusal_groups(run), backlog(run)
    if as_json:
        print(json.dumps([*wrong, *refusals, *groups], indent=2, default=str))
        return
    print(f"Wrong answers against gold: {sum(g['answers'] for g in wrong)} "
          f"({sum(g['served'] for g in wrong)} served by the audit)")
    for g in wrong:
        print(f"- {g['question']} ({g['question_id']}): {g['answers']} wrong, {g['served']} "
              f"served; gave {', '.join(g['given'])} in {', '.join(g['configs'])}")
    print(f"Refusals: {len(refused_attempts(refusals))}, by the words that caused them")
    for g in refusals:
        answerable = f", {g['answerable']} of answerable questions" if g["answerable"] else ""
        print(f"- \"{g['words']}\" ({g['cause']}) × {g['answers']}{answerable}\n"
              f"  fix: {window_words(g['suggestion'])}")
    drafts = draft_metrics(run)
    print(f"Draft metrics answers cited: {len(drafts)}")
    for d in drafts:
        print(f"- {d['metric']} × {d['answers']}: {d['inference']}")
    if drafts:
        print("  fix: review each definition, then remove its draft mark "
              "(showwork init --review lists them)")
    sections = (("Mislabelled words", MISLABELLED), ("Off the question's scope", SCOPE_CODES),
                ("Other findings", tuple(g["kind"] for g in groups
                                         if g["kind"] not in (*MISLABELLED, *SCOPE_CODES))))
    for title, codes in sections:
        mine = [g for g in groups if g["kind"] in codes]
        print(f"{title}: {sum(g['answers'] for g in mine)} answer(s)" if mine else
              f"{title}: none on the served answers.")
        for g in mine:
            print(f"- {headline(g)}\n  fix: {window_words(g['suggestion'])}")
            for ex in g["examples"][:2]:
                print(f"  e.g. {ex['question']!r} {ex['claim'] or ''}: "
                      f"{window_words(ex['message'])}")
    for kind, rows in per_metric(run).items():
        if rows:
            print(f"Per {kind} (wrong / refused / findings): " + "; ".join(
                f"{r['name']} {r['wrong']}/{r['refused']}/{r['findings']}" for r in rows))


def serve(runs: Path | None = typer.Argument(None, help="Folder of run folders (default "
                                             "$SHOWWORK_HOME/runs)."),
          port: int = typer.Option(8765, help="Port on 127.0.0.1."),
          model: list[str] = typer.Option([], "--model", help="A model the page may use "
                                          "(repeat for several; default: rules and the noisy "
                                          "simulator). openai: models only when named here."),
          project: str | None = ProjectOpt) -> None:
    """A local page (127.0.0.1 only): ask with a chosen model and configuration and see the
    evidence graph; browse runs and attempts; read the findings backlog. Requests from other
    sites, other Host names, and models not named here are refused."""
    from showwork.harness.present.web import MODELS, App, suggestions
    from showwork.harness.present.web import serve as make_server

    for name in model:
        make_client(name)  # a typo fails now, not at the first ask
    chosen = open_project(project)
    file = chosen.questions_path
    asked = suggestions(load_questions(file).questions) if file and file.is_file() else ()
    web = App(runs or home() / "runs", home() / "asks" / "traces.jsonl",
              lambda: open_layer(chosen), models=tuple(model) or MODELS, questions=asked,
              project=chosen.name)
    server = make_server(web, port)
    err.print(f"showwork serving project {chosen.name} on "
              f"http://127.0.0.1:{server.server_address[1]}/ "
              f"(models: {', '.join(web.models)}; Ctrl-C stops)")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
