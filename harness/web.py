"""`showwork serve`: a local page (127.0.0.1 only) to ask, browse runs and read findings.

The standard library's HTTP server with the report's templates: every page is rendered on the
server and autoescaped, carries no script at all, and is sent with a strict CSP.
"""

from __future__ import annotations

import html
import threading
import urllib.parse
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from analyst.errors import AnalystError
from analyst.registry import make_client
from harness.attempt import Question, run_attempt
from harness.backlog import backlog, headline
from harness.display import TICK_NOTE
from harness.report import _env, attempt_view, csp, render
from protocol.errors import ProtocolError
from protocol.switches import Protocol
from semantic_layer import SemanticLayer
from traces import TraceWriter, read

MODELS = ("rules", "noisy:rules?fault_rate=0.3&fix_rate=0.7&seed=1")
CONFIGS = ("claims+repair", "claims", "claims+repair+purpose+rendered", "baseline")
MAX_FORM = 10_000


@dataclass
class App:
    runs: Path
    """Folder holding run folders (searched two levels deep for results.json)."""
    asks: Path
    """traces.jsonl of questions asked here."""
    layer_factory: Any

    def __post_init__(self) -> None:
        self.lock = threading.Lock()
        self.env = _env()

    def run_dirs(self) -> list[Path]:
        if not self.runs.exists():
            return []
        found = [p.parent for p in self.runs.glob("*/results.json")]
        found += [p.parent for p in self.runs.glob("*/*/results.json")]
        return sorted(found, key=lambda p: p.stat().st_mtime, reverse=True)

    def resolve_run(self, name: str) -> Path | None:
        """A run folder by its name under `runs`, never outside it."""
        candidate = (self.runs / name).resolve()
        root = self.runs.resolve()
        if root not in candidate.parents or not (candidate / "results.json").is_file():
            return None
        return candidate

    def page(self, title: str, body: str) -> str:
        return self.env.get_template("page.html.j2").render(
            title=title, body=body, csp=csp("'self'"), tick_note=TICK_NOTE)

    def index(self) -> str:
        runs = self.run_dirs()
        asked = read(self.asks, repair=False)[-20:] if self.asks.exists() else []
        return self.env.get_template("index.html.j2").render(
            models=MODELS, configs=CONFIGS,
            runs=[{"name": str(p.relative_to(self.runs)), "path": p} for p in runs],
            asked=list(reversed(asked)), csp=csp("'self'"), tick_note=TICK_NOTE)

    def ask(self, question: str, model: str, config: str) -> str:
        protocol = Protocol.parse(config)
        client = make_client(model)
        layer: SemanticLayer = self.layer_factory()
        try:
            trace = run_attempt(Question("ask", question), client, layer, protocol)
        finally:
            layer.close()
        with self.lock:
            return TraceWriter(self.asks).append(trace).attempt_id

    def asked(self, attempt_id: str) -> str | None:
        if not self.asks.exists():
            return None
        record = next((r for r in read(self.asks) if r.attempt_id == attempt_id), None)
        if record is None:
            return None
        return self.env.get_template("attempt.html.j2").render(
            a=attempt_view(record), csp=csp("'self'"), tick_note=TICK_NOTE)

    def findings(self, run: Path) -> str:
        groups = backlog(run)
        items = "".join(f"<li><strong>{html.escape(headline(g))}</strong> — fix: "
                        f"{html.escape(g['suggestion'])}</li>" for g in groups)
        return self.page(f"Findings — {run.name}",
                         f"<ul id='findings'>{items}</ul>" if items else "<p>No findings.</p>")


def make_handler(app: App) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "showwork"

        def log_message(self, *args: object) -> None:
            return

        def _send(self, status: int, text: str, content_type: str = "text/html") -> None:
            data = text.encode("utf-8")
            self.send_response(status)
            self.send_header("content-type", f"{content_type}; charset=utf-8")
            self.send_header("content-length", str(len(data)))
            self.send_header("content-security-policy", csp("'self'"))
            self.send_header("x-content-type-options", "nosniff")
            self.send_header("referrer-policy", "no-referrer")
            self.end_headers()
            self.wfile.write(data)

        def _error(self, status: int, message: str) -> None:
            self._send(status, app.page("Error", f"<p class='bad'>{html.escape(message)}</p>"))

        def do_GET(self) -> None:
            path = urllib.parse.urlsplit(self.path).path
            if path == "/":
                return self._send(200, app.index())
            if path.startswith("/asks/"):
                page = app.asked(path.removeprefix("/asks/"))
                return self._send(200, page) if page else self._error(404, "No such answer.")
            for prefix, view in (("/runs/", render), ("/findings/", app.findings)):
                if path.startswith(prefix):
                    run = app.resolve_run(urllib.parse.unquote(path.removeprefix(prefix)))
                    if run is None:
                        return self._error(404, "No such run folder.")
                    return self._send(200, view(run))
            return self._error(404, "Not found.")

        def do_POST(self) -> None:
            if urllib.parse.urlsplit(self.path).path != "/ask":
                return self._error(404, "Not found.")
            length = int(self.headers.get("content-length", 0))
            if length > MAX_FORM:
                return self._error(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "The form is too large.")
            form = urllib.parse.parse_qs(self.rfile.read(length).decode("utf-8", "replace"))
            question = (form.get("question") or [""])[0].strip()
            model = (form.get("model") or ["rules"])[0]
            config = (form.get("config") or ["claims+repair"])[0]
            if not question:
                return self._error(400, "Ask a question.")
            try:
                attempt_id = app.ask(question, model, config)
            except (AnalystError, ProtocolError) as exc:
                return self._error(400, exc.message)
            self.send_response(HTTPStatus.SEE_OTHER)
            self.send_header("location", f"/asks/{attempt_id}")
            self.send_header("content-length", "0")
            self.end_headers()

    return Handler


def serve(app: App, port: int = 8765) -> ThreadingHTTPServer:
    """A server on 127.0.0.1 only; the caller runs serve_forever()."""
    server = ThreadingHTTPServer(("127.0.0.1", port), make_handler(app))
    server.daemon_threads = True
    return server
