"""`showwork cache clear`: empty the project cache under SHOWWORK_HOME (harness/cache.py)."""

from __future__ import annotations

import typer

cache_app = typer.Typer(help="The project cache (validated models, member indexes) under "
                             "SHOWWORK_HOME/cache; it never changes an audit.",
                        no_args_is_help=True)


@cache_app.command("clear")
def clear() -> None:
    """Remove every cache entry; the next command rebuilds what it needs."""
    from showwork.harness import cache

    removed = cache.clear()
    print(f"removed {removed} cache entr{'y' if removed == 1 else 'ies'} from {cache.folder()}")
