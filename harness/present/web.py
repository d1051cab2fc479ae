"""`showwork serve`: a local page (127.0.0.1 only) to ask, browse runs and read findings.

The standard library's HTTP server with the report's templates: every page is rendered on the
server and autoescaped, carries no script at all, and is sent with a strict CSP.

Binding 127.0.0.1 does not keep other sites out: any page the user visits can post a form here
(CSRF) or point its own name at 127.0.0.1 (DNS rebinding). So every request must name this
server in Host, and every POST must come from this server's own page (Origin, or Referer where
Origin is absent) and carry the form's per-process token. Requests are checked by a tuple of
small checks before the body is read; a refusal is logged and runs nothing.
"""

from __future__ import annotations

import datetime as dt
import hmac
import html
import json
import secrets
import threading
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from email.message import Message
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, cast

import structlog

from showwork.analyst.errors import AnalystError
from showwork.analyst.registry import make_client
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.harness.present.backlog import backlog, backlog_view, finding_counts, headline
from showwork.harness.present.decisions import DECISIONS, decision_key, shown
from showwork.harness.present.display import TICK_NOTE
from showwork.harness.present.headline import headline as headline_value
from showwork.harness.present.report import _env, attempt_view, csp, render
from showwork.harness.present.table import pct
from showwork.protocol.errors import ProtocolError
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer
from showwork.traces import TraceWriter, read

log = structlog.get_logger("showwork.web")

MODELS = ("rules", "noisy:rules?fault_rate=0.3&fix_rate=0.7&seed=1")
CONFIGS = ("claims+repair", "claims", "claims+repair+purpose+rendered", "baseline")
MAX_QUESTION = 2_000
"""The ask form's maxlength and the server's limit: one number for both."""
MAX_FIELD = 256
"""Every other form field (model, config, token) is at most this many characters."""
MAX_FIELDS = 8
"""The form sends four fields; a few spare for a browser's additions."""
MAX_BODY = 12 * MAX_QUESTION + 4 * MAX_FIELD
"""A full question of four-byte characters, each percent-encoded to 12 bytes, plus the rest."""
MAX_ASKS = 500
"""The latest asks the queue reads."""
MAX_SUGGESTED = 6
"""Questions the ask box lists under it (all of them are offered as you type)."""
LOOPBACK = ("127.0.0.1", "localhost", "[::1]")
FORM_TYPE = "application/x-www-form-urlencoded"
TOKEN_FIELD = "csrf_token"
IDLE_TIMEOUT_S = 60
"""A client that stops sending mid-request gives up its thread after this long."""


@dataclass
class App:
    runs: Path
    """Folder holding run folders (searched two levels deep for results.json)."""
    asks: Path
    """traces.jsonl of questions asked here."""
    layer_factory: Any
    models: tuple[str, ...] = MODELS
    """The models this page offers and accepts: the ones `serve` was started with."""
    questions: tuple[str, ...] = ()
    """Questions the ask box suggests: the project's own (see `suggestions`)."""
    project: str | None = None
    """The project served: the queue shows its asks and runs first (None: every project)."""

    def __post_init__(self) -> None:
        if isinstance(self.models, str) or not self.models:
            raise ValueError(f"App needs a tuple of model specs, got {self.models!r}; "
                             f"e.g. models=('rules', 'openai:gpt-5').")
        self.lock = threading.Lock()
        self.env = _env()
        # A forged form cannot know this, so a post carrying it came from our own page.
        self.token = secrets.token_urlsafe(32)

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

    def index(self, query: str = "") -> str:
        """The review queue: every ask (a question asked again grouped with its earlier asks)
        and every run, each with its project, decision or scores, and time; filtered by
        project (default: the project served) and by the latest ask's decision."""
        asked = read(self.asks, repair=False)[-MAX_ASKS:] if self.asks.exists() else []
        groups = ask_groups([ask_row(r) for r in asked])
        runs = [run_row(p, self.runs) for p in self.run_dirs()]
        chosen = filters(query, self.project, {g["project"] for g in groups}
                         | {r["project"] for r in runs})
        shown_groups = [g for g in groups if chosen.keeps(g["project"], g["decision"].key)]
        return self.env.get_template("index.html.j2").render(
            models=self.models, configs=CONFIGS, token=self.token, token_field=TOKEN_FIELD,
            max_question=MAX_QUESTION, questions=self.questions[:MAX_SUGGESTED],
            groups=shown_groups, runs=[r for r in runs if chosen.keeps(r["project"], None)],
            filters=chosen, decisions=decision_counts(groups, chosen),
            projects=project_counts(groups, runs, chosen),
            csp=csp("'self'"), tick_note=TICK_NOTE)

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
        """What findings are, their counts by code (zeros included), and the claims behind them."""
        counts, _ = finding_counts(run)
        groups = [{**g, "headline": headline(g)} for g in backlog(run)]
        body = self.env.get_template("findings.html.j2").render(
            counts=counts, groups=groups, **backlog_view(run),
            run=str(run.relative_to(self.runs.resolve()))
            if self.runs.resolve() in run.parents else run.name)
        return self.page(f"Findings — {run.name}", body)


def ask_row(record: Any) -> dict[str, Any]:
    """One ask as the queue lists it: its question, project, decision, headline value, when."""
    served = record.served()
    audit = served.audit if served else None
    return {"id": record.attempt_id, "question": record.question.text, "model": record.model,
            "config": record.config, "simulated": record.simulated, "decision": shown(audit),
            "headline": headline_value(audit, record.catalog) if audit else "–",
            "project": project_of(record.project, record.catalog),
            "when": when(record.started_at)}


def project_of(stamp: dict[str, Any] | None, catalog: dict[str, Any] | None) -> str:
    """The project's name as the trace records it; for a trace written without one, its
    semantic model's version ('shop-2019.08')."""
    return str((stamp or {}).get("name") or (catalog or {}).get("model_version") or "unknown")


def when(started_at: str | None) -> str:
    """'5 December 2026 12:47 UTC' from a trace's ISO time; as stored when it is not one."""
    try:
        at = dt.datetime.fromisoformat(str(started_at))
    except ValueError:
        return str(started_at or "–")
    at = at.astimezone(dt.UTC) if at.tzinfo else at
    return f"{at.day} {at:%B %Y %H:%M}" + (" UTC" if at.tzinfo else "")


def ask_groups(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Asks of one question (same project, same words up to case and spacing) in one group,
    latest first; groups by their latest ask, latest first."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for row in rows:
        key = (row["project"], " ".join(row["question"].lower().split()).rstrip("?. "))
        groups.setdefault(key, []).append(row)
    out = [{**asks[-1], "earlier": list(reversed(asks[:-1])), "times": len(asks)}
           for asks in groups.values()]
    return list(reversed(out))


def run_row(path: Path, root: Path) -> dict[str, Any]:
    """One run as the queue lists it: project, model, when, and per configuration its
    answers against gold (right, wrong, refused) and balanced accuracy."""
    results = json.loads((path / "results.json").read_text(encoding="utf-8"))
    first = _first_trace(path / "traces.jsonl")
    attempts = results.get("attempts") or []
    configs = []
    for name, s in (results.get("configs") or {}).items():
        mine = [a for a in attempts if a.get("config") == name]
        configs.append({"name": name, "balanced": pct(s.get("balanced_accuracy"),
                                                     with_interval=False),
                        "right": sum(a.get("correct") is True for a in mine),
                        "wrong": sum(a.get("correct") is False and a.get("status") != "refused"
                                     for a in mine),
                        "refused": sum(a.get("status") == "refused" for a in mine),
                        "attempts": len(mine), "decisions": [
                            {"shown": d, "count": n} for d in DECISIONS.values()
                            if (n := sum(decision_key(a) == d.key for a in mine))]})
    return {"name": str(path.relative_to(root)), "project": project_of(
                first.get("project"), first.get("catalog")),
            "model": results.get("model") or "–", "simulated": bool(results.get("simulated")),
            "when": when(first.get("started_at")), "configs": configs}


def _first_trace(path: Path) -> dict[str, Any]:
    """The first record of a run's traces (its project and start), without reading the rest."""
    try:
        with path.open(encoding="utf-8") as f:
            line = f.readline()
        record = json.loads(line) if line.strip() else {}
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}


@dataclass(frozen=True)
class Filters:
    """What the queue shows: one project (None: all) and one decision (None: all)."""

    project: str | None
    decision: str | None

    def keeps(self, project: str, decision: str | None) -> bool:
        return (self.project is None or project == self.project) and (
            self.decision is None or decision is None or decision == self.decision)

    def link(self, project: str | None = "", decision: str | None = "") -> str:
        """The queue's address with one filter changed ('' keeps the current one)."""
        p = self.project if project == "" else project
        d = self.decision if decision == "" else decision
        query = {"project": p or ALL, **({"decision": d} if d else {})}
        return "/?" + urllib.parse.urlencode(query)


ALL = "all"


def filters(query: str, default_project: str | None, known: set[str]) -> Filters:
    """The filters a query string names; a project or decision not known is no filter."""
    try:
        fields = urllib.parse.parse_qs(query, max_num_fields=MAX_FIELDS)
    except ValueError:  # too many fields: the queue unfiltered
        fields = {}
    known = known | ({default_project} if default_project else set())
    project = (fields.get("project") or [default_project or ALL])[0]
    decision = (fields.get("decision") or [""])[0]
    return Filters(project if project in known else None,
                   decision if decision in DECISIONS else None)


def decision_counts(groups: list[dict[str, Any]], chosen: Filters) -> list[dict[str, Any]]:
    """Each decision with how many questions of the chosen project have it as their latest."""
    mine = [g for g in groups if chosen.project is None or g["project"] == chosen.project]
    return [{"shown": d, "count": sum(g["decision"].key == key for g in mine),
             "link": chosen.link(decision=key), "on": chosen.decision == key}
            for key, d in DECISIONS.items() if key != "none" or
            any(g["decision"].key == "none" for g in mine)]


def project_counts(groups: list[dict[str, Any]], runs: list[dict[str, Any]],
                   chosen: Filters) -> list[dict[str, Any]]:
    """Each project with its questions and runs."""
    names = sorted({g["project"] for g in groups} | {r["project"] for r in runs})
    return [{"name": n, "questions": sum(g["project"] == n for g in groups),
             "runs": sum(r["project"] == n for r in runs), "link": chosen.link(project=n),
             "on": chosen.project == n} for n in names]


def suggestions(questions: Any) -> tuple[str, ...]:
    """The project's answerable questions to suggest, one per category first, then the rest."""
    answerable = [q for q in questions if q.answerable]
    first = list({q.category: q.text for q in reversed(answerable)}.values())[::-1]
    return tuple(dict.fromkeys([*first, *(q.text for q in answerable)]))


@dataclass(frozen=True)
class Refusal:
    status: int
    reason: str
    """A few words for the log event: 'foreign origin', 'wrong token'."""
    message: str
    """For the person: what is wrong and how to fix it."""
    page: bool = True
    """Wrap the message in our error page; False for a foreign Host, which gets none of ours."""


@dataclass(frozen=True)
class Incoming:
    """What a check may look at: the request line and headers, never the body."""

    target: str
    """The request target as sent, e.g. '/ask' or '/runs/x'."""
    headers: Message
    port: int
    """The port this server is bound to."""

    def header(self, name: str) -> str | None:
        value = self.headers.get(name)
        return None if value is None else value.strip()

    @property
    def host(self) -> str:
        return (self.header("host") or "").lower()


@dataclass(frozen=True)
class AskForm:
    question: str
    model: str
    config: str


def _authorities(port: int) -> frozenset[str]:
    """The host[:port] values that name this server (browsers drop ':80')."""
    names = {f"{name}:{port}" for name in LOOPBACK}
    return frozenset(names | set(LOOPBACK) if port == 80 else names)


def _own_host(req: Incoming) -> Refusal | None:
    """DNS rebinding: a page at evil.example resolved to 127.0.0.1 still sends its own Host."""
    if len(req.headers.get_all("host") or []) == 1 and req.host in _authorities(req.port):
        return None
    return Refusal(HTTPStatus.MISDIRECTED_REQUEST, "foreign host",
                   f"This server answers only at http://127.0.0.1:{req.port}/ or "
                   f"http://localhost:{req.port}/; open one of those.", page=False)


def _path_target(req: Incoming) -> Refusal | None:
    """Only '/path' targets: an absolute URL or '//x' would name a host other than Host."""
    if req.target.startswith("/") and not req.target.startswith("//"):
        return None
    return Refusal(HTTPStatus.BAD_REQUEST, "absolute request target",
                   "Request a path on this server, such as '/'.")


def _ask_target(req: Incoming) -> Refusal | None:
    if urllib.parse.urlsplit(req.target).path == "/ask":
        return None
    return Refusal(HTTPStatus.NOT_FOUND, "post to unknown path", "Not found; the form posts to /ask.")


def _same_origin(req: Incoming) -> Refusal | None:
    """CSRF: browsers send Origin with every POST; Referer stands in only where Origin is absent."""
    own = f"http://{req.host}"
    origin, referer = req.header("origin"), req.header("referer")
    if origin is not None:
        reason = None if origin.lower() == own else "foreign origin"
    elif referer is not None:
        parts = urllib.parse.urlsplit(referer)
        reason = None if f"{parts.scheme}://{parts.netloc}".lower() == own else "foreign referer"
    else:
        reason = "missing origin and referer"
    if reason is None:
        return None
    return Refusal(HTTPStatus.FORBIDDEN, reason,
                   f"Forms are accepted only from this server's own page ({own}/); "
                   f"ask from there.")


def _form_type(req: Incoming) -> Refusal | None:
    # get_content_type() reads a missing header as text/plain, which is refused too.
    if req.headers.get_content_type() == FORM_TYPE:
        return None
    return Refusal(HTTPStatus.UNSUPPORTED_MEDIA_TYPE, "not a form",
                   f"Send the ask form as {FORM_TYPE}, as the page's form does.")


def _body_length(req: Incoming) -> Refusal | None:
    """A sane Content-Length within MAX_BODY, judged before a byte of the body is read."""
    lengths = req.headers.get_all("content-length") or []
    if req.header("transfer-encoding") is not None or not lengths:
        return Refusal(HTTPStatus.LENGTH_REQUIRED, "no content-length",
                       "Send the form with a Content-Length (chunked bodies are not read).")
    value = lengths[0].strip()
    if len(lengths) > 1 or not (value.isascii() and value.isdigit()):
        return Refusal(HTTPStatus.BAD_REQUEST, "invalid content-length",
                       "Send one Content-Length that is a whole number of bytes.")
    if int(value) > MAX_BODY:
        return Refusal(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, "body too large",
                       f"The form is larger than {MAX_BODY:,} bytes; ask a shorter question "
                       f"(at most {MAX_QUESTION:,} characters).")
    return None


Check = Callable[[Incoming], Refusal | None]
GET_CHECKS: tuple[Check, ...] = (_own_host, _path_target)
POST_CHECKS: tuple[Check, ...] = (_own_host, _path_target, _ask_target, _same_origin, _form_type,
                                  _body_length)


def first_refusal(checks: tuple[Check, ...], req: Incoming) -> Refusal | None:
    """The first check that refuses, in order; later checks may rely on earlier ones passing."""
    return next((r for check in checks if (r := check(req)) is not None), None)


def parse_form(body: bytes) -> dict[str, list[str]] | Refusal:
    try:
        return urllib.parse.parse_qs(body.decode("utf-8"), keep_blank_values=True,
                                     errors="strict", max_num_fields=MAX_FIELDS)
    except ValueError:  # UnicodeDecodeError is one, and so is too many fields
        return Refusal(HTTPStatus.BAD_REQUEST, "unreadable form",
                       "The form is not UTF-8 url-encoded fields; send it from the page.")


def token_refusal(fields: dict[str, list[str]], token: str) -> Refusal | None:
    """The page's token, compared in constant time; its value is never logged or echoed."""
    sent = fields.get(TOKEN_FIELD)
    if sent is None:
        reason = "missing token"
    elif len(sent) == 1 and hmac.compare_digest(sent[0].encode(), token.encode()):
        return None
    else:
        reason = "wrong token"
    return Refusal(HTTPStatus.FORBIDDEN, reason,
                   "The form's token is missing or stale; reload the page and ask again.")


def size_refusal(fields: dict[str, list[str]]) -> Refusal | None:
    """One value per field, each within the form's limits."""
    for name, values in fields.items():
        limit = MAX_QUESTION if name == "question" else MAX_FIELD
        if len(values) > 1:
            return Refusal(HTTPStatus.BAD_REQUEST, "repeated field",
                           f"Field {name[:40]!r} was sent {len(values)} times; send it once.")
        if len(values[0]) > limit:
            return Refusal(HTTPStatus.BAD_REQUEST, "field too long",
                           f"Field {name[:40]!r} has {len(values[0]):,} characters; "
                           f"the limit is {limit:,}.")
    return None


def ask_form(fields: dict[str, list[str]], models: tuple[str, ...]) -> AskForm | Refusal:
    """The question and the model and configuration chosen, each from the offered lists."""
    form = AskForm(question=(fields.get("question") or [""])[0].strip(),
                   model=(fields.get("model") or [models[0]])[0],
                   config=(fields.get("config") or [CONFIGS[0]])[0])
    if not form.question:
        return Refusal(HTTPStatus.BAD_REQUEST, "empty question", "Ask a question.")
    if form.model not in models:
        return Refusal(HTTPStatus.BAD_REQUEST, "model not offered",
                       f"Model {form.model!r} is not offered here; choose one of: "
                       f"{', '.join(models)} (start `showwork serve --model SPEC` to offer "
                       f"another).")
    if form.config not in CONFIGS:
        return Refusal(HTTPStatus.BAD_REQUEST, "config not offered",
                       f"Configuration {form.config!r} is not offered here; choose one of: "
                       f"{', '.join(CONFIGS)}.")
    return form


def read_ask(body: bytes, app: App) -> AskForm | Refusal:
    """Token first: a forged form is refused as forged (403), whatever else is wrong with it."""
    fields = parse_form(body)
    if isinstance(fields, Refusal):
        return fields
    refusal = token_refusal(fields, app.token) or size_refusal(fields)
    return refusal or ask_form(fields, app.models)


def _clip(value: str | None) -> str | None:
    return None if value is None else value[:200]


def make_handler(app: App) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        server_version = "showwork"
        timeout = IDLE_TIMEOUT_S

        def log_message(self, *args: object) -> None:
            return

        def _incoming(self) -> Incoming:
            _, port = cast("tuple[str, int]", self.server.server_address)  # serve() binds IPv4
            return Incoming(self.path, self.headers, port)

        def _common_headers(self) -> None:
            self.send_header("content-security-policy", csp("'self'"))
            self.send_header("x-content-type-options", "nosniff")
            self.send_header("x-frame-options", "DENY")
            self.send_header("cross-origin-resource-policy", "same-origin")
            # Not no-referrer: under it a browser sends `Origin: null` even on our own form's
            # POST, and the same-origin check needs the real Origin. Other sites get nothing.
            self.send_header("referrer-policy", "same-origin")

        def _send(self, status: int, text: str, content_type: str = "text/html",
                  close: bool = False) -> None:
            data = text.encode("utf-8")
            self.send_response(status)
            self.send_header("content-type", f"{content_type}; charset=utf-8")
            self.send_header("content-length", str(len(data)))
            self._common_headers()
            if close:  # also sets self.close_connection
                self.send_header("connection", "close")
            self.end_headers()
            self.wfile.write(data)

        def _error(self, status: int, message: str, close: bool = False) -> None:
            self._send(status, app.page("Error", f"<p class='bad'>{html.escape(message)}</p>"),
                       close=close)

        def _refuse(self, refusal: Refusal) -> None:
            """Log and answer, then close: a refusal before the body leaves it unread."""
            log.warning(f"request refused: {refusal.reason}", status=int(refusal.status),
                        method=self.command, path=_clip(self.path),
                        host=_clip(self.headers.get("host")),
                        origin=_clip(self.headers.get("origin")),
                        referer=_clip(self.headers.get("referer")))
            if refusal.page:
                return self._error(refusal.status, refusal.message, close=True)
            return self._send(refusal.status, refusal.message, "text/plain", close=True)

        def _admitted(self, checks: tuple[Check, ...]) -> bool:
            refusal = first_refusal(checks, self._incoming())
            if refusal is not None:
                self._refuse(refusal)
            return refusal is None

        def do_GET(self) -> None:
            if not self._admitted(GET_CHECKS):
                return
            path = urllib.parse.urlsplit(self.path).path
            if path == "/":
                return self._send(200, app.index(urllib.parse.urlsplit(self.path).query))
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
            if not self._admitted(POST_CHECKS):
                return
            form = read_ask(self.rfile.read(int(self.headers["content-length"])), app)
            if isinstance(form, Refusal):
                return self._refuse(form)
            try:
                attempt_id = app.ask(form.question, form.model, form.config)
            except (AnalystError, ProtocolError) as exc:
                return self._error(400, exc.message)
            self.send_response(HTTPStatus.SEE_OTHER)
            self.send_header("location", f"/asks/{attempt_id}")
            self.send_header("content-length", "0")
            self._common_headers()
            self.end_headers()

    return Handler


def serve(app: App, port: int = 8765) -> ThreadingHTTPServer:
    """A server on 127.0.0.1 only (port 0 picks a free one); the caller runs serve_forever()."""
    server = ThreadingHTTPServer(("127.0.0.1", port), make_handler(app))
    server.daemon_threads = True
    return server
