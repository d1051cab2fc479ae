"""Screenshots of the pages under test, kept in test-artifacts/ for a person to look at."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=False)


@contextmanager
def served(runs: Path, asks: Path) -> Iterator[str]:
    """`showwork serve` of `runs` on a free loopback port, its base URL; the form asks
    nothing (these pages are read, not asked through)."""
    from showwork.harness.present.web import App, serve

    def no_layer() -> None:
        raise AssertionError("nothing is asked here")

    server = serve(App(runs, asks, no_layer), port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
