"""What the commands share: the stderr console, the project and its layer, run folders."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from showwork.harness.cli.params import PROJECT, Param
from showwork.harness.errors import QuestionError, RunFolderError
from showwork.harness.project import ENV_VAR, Project, is_demo, locate, read_project_file

if TYPE_CHECKING:
    from rich.console import Console

    from showwork.harness.experiments.questions import QuestionFile
    from showwork.semantic_layer import SemanticLayer

    err: Console
    """The stderr console (made on first use: `ask --json` prints no rich output)."""
    ProjectOpt: Any
    """typer's `--project` option (PROJECT)."""
    RunProjectOpt: Any
    """typer's `--project` option of a command that reads a run folder (RUN_PROJECT)."""

RUN_PROJECT = Param(
    "project", ("--project",), None, envvar=ENV_VAR, metavar="DIR",
    help="Refuse a run recorded under another project (the run folder records its own, and "
         "reading it needs no warehouse).")

_MADE_ON_USE = {"ProjectOpt": PROJECT.typer, "RunProjectOpt": RUN_PROJECT.typer}
"""typer's options, made when a command module imports them: the lean `ask` imports this
module and no typer."""


def __getattr__(name: str) -> Any:
    if name == "err":
        from rich.console import Console

        console = globals()["err"] = Console(stderr=True)
        return console
    if name in _MADE_ON_USE:
        value = globals()[name] = _MADE_ON_USE[name]()
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def open_project(ref: str | None = None, questions: QuestionFile | None = None) -> Project:
    """The project a command runs on: --project (or SHOWWORK_PROJECT), else the question file's
    `project:`, else ./showwork.yaml, else the demo. A question file for another project than
    --project names is refused: its gold SQL is written against its own warehouse."""
    named = questions.project_file() if questions else None
    if ref is None:
        return Project.load(named or locate(None))
    chosen = locate(ref)
    if named is not None and named.resolve() != chosen.resolve():
        source = (questions.path if questions else None) or "The question file"
        raise QuestionError(f"{source}: its questions are for the "
                           f"project at {named} (its `project:`), but --project names {chosen}; "
                           "drop --project or pass a question file for that project.")
    return Project.load(chosen)


def open_layer(project: Project | None = None) -> SemanticLayer:
    """The governed layer on the project's warehouse (the demo's is built first if missing)."""
    project = project or open_project()
    if project.build_needed:
        from showwork.harness.cli.common import err

        with err.status("building the demo warehouse in $SHOWWORK_HOME (once)") as status:
            project.build(progress=lambda m: status.update(m))
    return project.layer()


def project_name(ref: str) -> str:
    """The name of the project a reference names, read from showwork.yaml alone."""
    file = locate(ref)
    if is_demo(file):
        return "demo"
    project = read_project_file(file)
    return project.settings.name or project.root.resolve().name


def check_run_project(folder: Path, ref: str | None) -> None:
    """With --project, refuse a run folder recorded under another project (run.json)."""
    run_file = folder / "run.json"
    if ref is None or not run_file.is_file():
        return
    recorded = (json.loads(run_file.read_text(encoding="utf-8")).get("identity") or {}).get(
        "project")
    if recorded and recorded.get("name") != project_name(ref):
        raise RunFolderError(f"{folder} is a run of project {recorded.get('name')!r}, not "
                             f"{project_name(ref)!r} (--project); drop --project or pick "
                             "another run folder.")


def run_folder(path: Path, *needs: str) -> Path:
    """The folder, if it is a run folder holding the files named; else a RunFolderError."""
    missing = [n for n in needs if not (path / n).is_file()]
    if not path.is_dir() or missing:
        raise RunFolderError(f"{path} is not a run folder (it needs {' and '.join(needs)}); "
                             "run `showwork experiment` to make one.")
    return path
