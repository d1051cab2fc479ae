"""Commands loaded on first use: a group lists them without importing their modules.

A command's short help is its function's docstring (or its Typer group's `help=`), read from the
module's source with `ast`, so the list in `showwork --help` cannot drift from the command and
costs no import of DuckDB, sqlglot or the benchmarks.

The group's own help is click's plain layout, not typer's rich one: rich's help formatter imports
rich's Markdown, traceback and syntax modules (about half of `showwork --help`'s time). Each
command's line is its help's whole first paragraph, wrapped, where click would cut it at 45
characters; a command's own `--help` keeps typer's rich layout.
"""

from __future__ import annotations

import ast
import gc
import importlib
import importlib.util
import inspect
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # typer loads where the app is built (after the CLI's code cache is in place)
    from typer.core import TyperCommand, TyperGroup


@dataclass(frozen=True)
class Lazy:
    """One command of the app, named by where it lives."""

    name: str
    """The command's name on the command line."""
    module: str
    """The module that defines it (imported when the command runs)."""
    attr: str
    """A function (a command) or a `typer.Typer` (a group of commands) in that module."""

    def load(self) -> TyperCommand | TyperGroup:
        """The real command (imports the module).

        The import runs with the cyclic garbage collector paused, and what it built is then
        frozen (kept out of the collector's later passes): classes, functions and compiled
        patterns live as long as the process, so collecting them, as they pile up and in
        every full pass after, is work for nothing."""
        import typer
        from typer.core import TyperCommand

        target = getattr(import_paused(self.module), self.attr)
        if isinstance(target, typer.Typer):
            command: TyperCommand | TyperGroup = typer.main.get_group(target)
        else:
            single = typer.Typer()
            single.command(self.name)(target)
            built = typer.main.get_command(single)
            assert isinstance(built, TyperCommand)
            command = built
        command.name = self.name
        return command


def import_paused(module: str) -> ModuleType:
    """Import a command's module with the cyclic garbage collector paused, then freeze what it
    built (see `Lazy.load`)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return importlib.import_module(module)
    finally:
        if enabled:
            gc.freeze()
            gc.enable()


@cache
def source_help(module: str, attr: str) -> str:
    """The docstring of function `attr`, or the `help=` of Typer `attr`, from the module's source."""
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        return ""
    with open(spec.origin, encoding="utf-8") as handle:
        tree = ast.parse(handle.read())
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == attr:
            return ast.get_docstring(node) or ""
        if (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                and any(isinstance(t, ast.Name) and t.id == attr for t in node.targets)):
            for keyword in node.value.keywords:
                if keyword.arg == "help" and isinstance(keyword.value, ast.Constant):
                    return str(keyword.value.value)
    return ""


def summary(help_text: str) -> str:
    r"""A command's line in the group's list: its help's first paragraph, on one line.

    >>> summary("Ask one question;\n    print the answer.\n\n    Details follow.")
    'Ask one question; print the answer.'
    """
    first = inspect.cleandoc(help_text).partition("\f")[0].split("\n\n", 1)[0]
    return " ".join(first.split())


def lazy_group(commands: tuple[Lazy, ...]) -> type[TyperGroup]:
    """A TyperGroup class that knows `commands` without importing them."""
    import typer
    from typer.core import TyperCommand, TyperGroup

    by_name = {c.name: c for c in commands}

    class Stub(TyperCommand):
        """Stands for a lazy command in a listing; running it runs the real one."""

        def __init__(self, lazy: Lazy) -> None:
            super().__init__(lazy.name, help=source_help(lazy.module, lazy.attr))
            self.lazy = lazy

        def make_context(self, info_name: str | None, args: list[str],
                         parent: Any = None, **extra: Any) -> Any:
            return self.lazy.load().make_context(info_name, args, parent=parent, **extra)

    class LazyGroup(TyperGroup):
        def format_help(self, ctx: Any, formatter: Any) -> None:
            # click's layout, skipping TyperGroup's switch to rich_utils (see the module's doc)
            super(TyperGroup, self).format_help(ctx, formatter)

        def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
            if not args and self.no_args_is_help and not ctx.resilient_parsing:
                # typer's rich formatter printed the help itself; click's returns it as text
                typer.echo(ctx.get_help(), color=ctx.color)
                ctx.exit(2)
            return super().parse_args(ctx, args)

        def format_commands(self, ctx: Any, formatter: Any) -> None:
            rows = []
            for name in self.list_commands(ctx):
                command = self.get_command(ctx, name)
                if command is not None and not command.hidden:
                    rows.append((name, summary(command.short_help or command.help or "")))
            if rows:
                with formatter.section("Commands"):
                    formatter.write_dl(rows)

        def list_commands(self, ctx: Any) -> list[str]:
            return [*super().list_commands(ctx), *(n for n in by_name if n not in self.commands)]

        def get_command(self, ctx: Any, cmd_name: str) -> Any:
            if cmd_name in self.commands or cmd_name not in by_name:
                return super().get_command(ctx, cmd_name)
            return Stub(by_name[cmd_name])

    return LazyGroup
