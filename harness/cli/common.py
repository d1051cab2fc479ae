"""What the commands share: the stderr console, the governed layer, run folders."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console

from harness.errors import RunFolderError
from harness.home import warehouse_path
from semantic_layer import SemanticLayer, load_model
from semantic_layer import warehouse as demo_warehouse

err = Console(stderr=True)


def open_layer() -> SemanticLayer:
    """The governed layer on the demo warehouse, built first if it is missing."""
    path = warehouse_path()
    if not path.exists():
        with err.status(f"building the demo warehouse at {path} (once)") as status:
            demo_warehouse.build(path, progress=lambda m: status.update(m))
    return SemanticLayer(load_model(), path)


def run_folder(path: Path, *needs: str) -> Path:
    """The folder, if it is a run folder holding the files named; else a RunFolderError."""
    missing = [n for n in needs if not (path / n).is_file()]
    if not path.is_dir() or missing:
        raise RunFolderError(f"{path} is not a run folder (it needs {' and '.join(needs)}); "
                             "run `showwork experiment` to make one.")
    return path
