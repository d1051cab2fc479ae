"""`showwork serve` refuses other sites: Host, Origin/Referer, token, offered models, limits.

Plain http.client and sockets against a real server on 127.0.0.1 (no browser needed).
"""

from __future__ import annotations

import html
import http.client
import json
import re
import socket
import threading
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest
from fake_openai import FakeOpenAI
from structlog.testing import capture_logs

from showwork.harness.present.web import (
    CONFIGS,
    FORM_TYPE,
    MAX_QUESTION,
    MODELS,
    TOKEN_FIELD,
    App,
    serve,
    size_refusal,
)
from showwork.semantic_layer import SemanticLayer, load_model

ASKED = "Why did weekly value moments drop in the week of 2026-03-09?"
EVIL = "http://evil.example"


@dataclass
class Site:
    """A running server and what it did: the layers it opened and the asks file it writes."""

    app: App
    port: int
    opened: list[str]

    @property
    def host(self) -> str:
        return f"127.0.0.1:{self.port}"

    @property
    def origin(self) -> str:
        return f"http://{self.host}"

    def fill(self, value: str) -> str:
        """Test values name the bound port as {port}, and a port it is not bound to as {wrong}."""
        return value.format(port=self.port, wrong=self.port + 1)


@dataclass(frozen=True)
class Reply:
    status: int
    headers: dict[str, str]
    body: str


@pytest.fixture
def start(tmp_path: Path, demo_db: Path) -> Iterator[Callable[..., Site]]:
    """Starts `serve(App(...), 0)` in a thread; every server is shut down after the test."""
    servers: list[ThreadingHTTPServer] = []

    def _start(models: tuple[str, ...] = MODELS) -> Site:
        opened: list[str] = []

        def layer() -> SemanticLayer:
            opened.append("layer")
            return SemanticLayer(load_model(), demo_db)

        root = tmp_path / f"site{len(servers)}"
        app = App(root / "runs", root / "asks" / "traces.jsonl", layer, models=models)
        server = serve(app, 0)
        # a short poll so shutdown() at teardown returns at once, not after the 0.5 s default
        threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True).start()
        servers.append(server)
        return Site(app, server.server_address[1], opened)

    yield _start
    for server in servers:
        server.shutdown()
        server.server_close()


@pytest.fixture
def site(start: Callable[..., Site]) -> Site:
    return start()


def send(site: Site, method: str, path: str, headers: dict[str, str | None],
         body: bytes = b"") -> Reply:
    """One request with exactly these headers (None leaves one out; no Host is added)."""
    conn = http.client.HTTPConnection("127.0.0.1", site.port, timeout=30)
    try:
        conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
        for name, value in headers.items():
            if value is not None:
                conn.putheader(name, site.fill(value))
        conn.endheaders(body or None)
        response = conn.getresponse()
        return Reply(response.status, {k.lower(): v for k, v in response.getheaders()},
                     response.read().decode("utf-8"))
    finally:
        conn.close()


def get(site: Site, path: str = "/") -> Reply:
    return send(site, "GET", path, {"Host": site.host})


def fields(site: Site, **changes: str | None) -> dict[str, str]:
    """The form as the page submits it, with some fields changed (None leaves one out)."""
    form = {"question": ASKED, "model": "rules", "config": "claims",
            TOKEN_FIELD: site.app.token, **changes}
    return {k: v for k, v in form.items() if v is not None}


def post(site: Site, form: dict[str, str] | str,
         headers: dict[str, str | None] | None = None) -> Reply:
    """POST /ask as our own page would, with some headers changed (None leaves one out)."""
    body = (form if isinstance(form, str) else urllib.parse.urlencode(form)).encode()
    sent: dict[str, str | None] = {"Host": site.host, "Origin": site.origin,
                                   "Content-Type": FORM_TYPE, "Content-Length": str(len(body))}
    return send(site, "POST", "/ask", {**sent, **(headers or {})}, body)


def ran_nothing(site: Site) -> bool:
    return site.opened == [] and not site.app.asks.exists()


def text(reply: Reply) -> str:
    return html.unescape(reply.body)


class TestHost:
    @pytest.mark.parametrize("host", [
        "evil.example", None, "127.0.0.1:{wrong}", "evil.example:{port}", "localhost",
        "127.0.0.1:{port}, evil.example",
    ])
    def test_foreign_host_gets_no_page(self, site: Site, host: str | None) -> None:
        """A Host that is not this server's address and port (DNS rebinding) gets a 421 in
        plain text, with none of the page's content."""
        reply = send(site, "GET", "/", {"Host": host})
        assert reply.status == 421
        assert reply.headers["content-type"] == "text/plain; charset=utf-8"
        assert reply.body == (f"This server answers only at http://127.0.0.1:{site.port}/ or "
                              f"http://localhost:{site.port}/; open one of those.")

    def test_two_host_headers_are_refused(self, site: Site) -> None:
        """A second Host header cannot smuggle a foreign name past the first."""
        conn = http.client.HTTPConnection("127.0.0.1", site.port, timeout=30)
        try:
            conn.putrequest("GET", "/", skip_host=True)
            conn.putheader("Host", site.host)
            conn.putheader("Host", "evil.example")
            conn.endheaders()
            assert conn.getresponse().status == 421
        finally:
            conn.close()

    @pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}",
                                      "LOCALHOST:{port}", "[::1]:{port}"])
    def test_own_names_are_served(self, site: Site, host: str) -> None:
        """Each loopback name with the bound port gets the page."""
        reply = send(site, "GET", "/", {"Host": host})
        assert reply.status == 200 and '<form class="ask" method="post"' in reply.body

    def test_absolute_request_target_is_refused(self, site: Site) -> None:
        """A request line naming another authority is refused even with our Host."""
        reply = send(site, "GET", "http://evil.example/", {"Host": site.host})
        assert reply.status == 400 and "<form" not in reply.body


class TestCrossSitePost:
    @pytest.mark.parametrize(("headers", "form", "status", "reason"), [
        ({"Origin": EVIL}, {}, 403, "foreign origin"),
        ({"Origin": "null"}, {}, 403, "foreign origin"),
        ({"Origin": "http://localhost:{port}"}, {}, 403, "foreign origin"),
        ({"Origin": "https://127.0.0.1:{port}"}, {}, 403, "foreign origin"),
        ({"Origin": None}, {}, 403, "missing origin and referer"),
        ({"Origin": None, "Referer": EVIL + "/page"}, {}, 403, "foreign referer"),
        ({"Origin": None, "Referer": "http://127.0.0.1:{port}@evil.example/"}, {}, 403,
         "foreign referer"),
        ({"Origin": EVIL, "Referer": "http://127.0.0.1:{port}/"}, {}, 403, "foreign origin"),
        ({}, {TOKEN_FIELD: None}, 403, "missing token"),
        ({}, {TOKEN_FIELD: "A" * 43}, 403, "wrong token"),
        ({}, {TOKEN_FIELD: ""}, 403, "wrong token"),
        ({"Content-Type": "text/plain"}, {}, 415, "not a form"),
        ({"Host": "evil.example", "Origin": EVIL}, {}, 421, "foreign host"),
    ])
    def test_forged_post_runs_nothing(self, site: Site, headers: dict[str, str | None],
                                      form: dict[str, str | None], status: int,
                                      reason: str) -> None:
        """A POST from another site, or without the page's token, is refused and logged by
        reason and origin, opens no layer and writes no trace line."""
        with capture_logs() as logs:
            reply = post(site, fields(site, **form), headers)
        sent: dict[str, str | None] = {"Host": site.host, "Origin": site.origin, **headers}
        origin, host = sent["Origin"], sent["Host"]
        assert reply.status == status
        assert ran_nothing(site)
        (event,) = logs
        assert event["event"] == f"request refused: {reason}"
        assert event["log_level"] == "warning" and event["status"] == status
        assert event["origin"] == (site.fill(origin) if origin else None)
        assert event["host"] == (site.fill(host) if host else None)
        assert site.app.token not in repr(logs) and site.app.token not in reply.body


class TestSameOriginPost:
    @pytest.mark.parametrize("header", ["Origin", "Referer"])
    def test_page_form_asks(self, site: Site, header: str) -> None:
        """The page's own form (token from the page, same-origin Origin, or Referer where
        Origin is absent) runs one attempt, writes one trace line and shows the answer."""
        page = get(site)
        (token,) = re.findall(rf'name="{TOKEN_FIELD}" value="([^"]+)"', page.body)
        assert token == site.app.token
        own = {"Origin": None, "Referer": site.origin + "/"} if header == "Referer" else {}
        reply = post(site, fields(site, **{TOKEN_FIELD: token}), own)
        assert reply.status == 303 and reply.headers["x-frame-options"] == "DENY"
        (line,) = site.app.asks.read_text().splitlines()
        assert reply.headers["location"] == f"/asks/{json.loads(line)['attempt_id']}"
        assert site.opened == ["layer"]
        answer = get(site, reply.headers["location"])
        assert answer.status == 200 and ASKED in answer.body

    def test_security_headers(self, site: Site) -> None:
        """Pages and redirects forbid framing and cross-origin reads, and keep the referrer
        same-origin so the browser's Origin on our own POST is real, not 'null'."""
        for reply in (get(site), get(site, "/nowhere"), post(site, fields(site, model="x"))):
            assert reply.headers["x-frame-options"] == "DENY"
            assert reply.headers["cross-origin-resource-policy"] == "same-origin"
            assert reply.headers["referrer-policy"] == "same-origin"
            assert reply.headers["x-content-type-options"] == "nosniff"
            assert "frame-ancestors 'none'" in reply.headers["content-security-policy"]


class TestOfferedChoices:
    def test_form_lists_exactly_the_started_models(self, start: Callable[..., Site]) -> None:
        """The model select offers the App's models and nothing else, the configs are
        CONFIGS, and the question's maxlength is the server's limit."""
        for models in (MODELS, ("rules", "openai:x")):
            body = get(start(models)).body
            options = re.findall(r'<select name="model".*?</select>', body)[0]
            assert [html.unescape(v) for v in re.findall(r'value="([^"]+)"', options)] == \
                list(models)
            configs = re.findall(r'<select name="config".*?</select>', body)[0]
            assert re.findall(r'value="([^"]+)"', configs) == list(CONFIGS)
            assert re.findall(r'maxlength="(\d+)"', body) == [str(MAX_QUESTION)] == ["2000"]

    @pytest.mark.parametrize("model", ["openai:gpt-5", "openai:x", "replay:/etc/passwd",
                                       "noisy:rules?fault_rate=1", "rules "])
    def test_unlisted_model_is_refused(self, site: Site, model: str) -> None:
        """A model the server was not started with is refused with the allowed list."""
        reply = post(site, fields(site, model=model))
        assert reply.status == 400 and ran_nothing(site)
        assert (f"Model {model!r} is not offered here; choose one of: {', '.join(MODELS)} "
                f"(start `showwork serve --model SPEC` to offer another).") in text(reply)

    def test_unlisted_config_is_refused(self, site: Site) -> None:
        """A configuration outside CONFIGS is refused with the allowed list."""
        reply = post(site, fields(site, config="claims+purpose"))
        assert reply.status == 400 and ran_nothing(site)
        assert f"choose one of: {', '.join(CONFIGS)}." in text(reply)

    def test_openai_only_when_started_with_it(self, start: Callable[..., Site],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
        """`openai:x` reaches the model server only from an App started with it; the
        default App refuses it before any request."""
        refusal: dict[str, object] = {"status": "refused", "answer": "No.", "value": None,
                                      "driver": None, "refusal_reason": "test", "claims": []}
        with FakeOpenAI(responder=lambda _: {"content": json.dumps(refusal)}) as fake:
            monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
            monkeypatch.setenv("OPENAI_API_KEY", "sk-test-secret")
            default, named = start(), start(("rules", "openai:x"))
            refused = post(default, fields(default, model="openai:x"))
            assert refused.status == 400 and fake.requests == [] and ran_nothing(default)
            reply = post(named, fields(named, model="openai:x"))
        assert reply.status == 303 and len(fake.requests) >= 1
        (line,) = named.app.asks.read_text().splitlines()
        assert json.loads(line)["model"] == "openai:x"


class TestLimits:
    def test_long_question_is_refused(self, site: Site) -> None:
        """A 5,000-character question is refused, naming its length and the limit."""
        reply = post(site, fields(site, question="x" * 5_000))
        assert reply.status == 400 and ran_nothing(site)
        assert "Field 'question' has 5,000 characters; the limit is 2,000." in text(reply)

    def test_limit_is_inclusive(self) -> None:
        """A question exactly as long as the form allows passes the size check; one more does not."""
        assert size_refusal({"question": ["x" * MAX_QUESTION]}) is None
        refusal = size_refusal({"question": ["x" * (MAX_QUESTION + 1)]})
        assert refusal is not None and refusal.status == 400

    def test_long_small_field_is_refused(self, site: Site) -> None:
        """Fields other than the question are capped small, even unknown ones."""
        reply = post(site, fields(site, extra="y" * 300))
        assert reply.status == 400 and ran_nothing(site)
        assert "Field 'extra' has 300 characters; the limit is 256." in text(reply)

    def test_repeated_field_is_refused(self, site: Site) -> None:
        """A field sent twice is refused rather than one copy silently chosen."""
        reply = post(site, urllib.parse.urlencode(fields(site)) + "&model=rules")
        assert reply.status == 400 and ran_nothing(site)
        assert "Field 'model' was sent 2 times; send it once." in text(reply)

    @pytest.mark.parametrize(("headers", "status"), [
        ({"Content-Length": None}, 411),
        ({"Content-Length": None, "Transfer-Encoding": "chunked"}, 411),
        ({"Content-Length": "abc"}, 400),
        ({"Content-Length": "-1"}, 400),
        ({"Content-Length": "²"}, 400),
        ({"Content-Type": "multipart/form-data; boundary=x"}, 415),
        ({"Content-Type": None}, 415),
    ])
    def test_bad_length_or_type_is_refused(self, site: Site, headers: dict[str, str | None],
                                           status: int) -> None:
        """A POST without a usable Content-Length, or not url-encoded, is refused unread."""
        reply = post(site, fields(site), headers)
        assert reply.status == status and ran_nothing(site)
        assert reply.headers["connection"] == "close"

    def test_oversize_body_refused_before_it_is_sent(self, site: Site) -> None:
        """A 10 MB Content-Length gets 413 and a closed connection while no body byte has been
        sent: the server does not wait for the body."""
        head = (f"POST /ask HTTP/1.1\r\nHost: {site.host}\r\nOrigin: {site.origin}\r\n"
                f"Content-Type: {FORM_TYPE}\r\nContent-Length: {10 * 1024 * 1024}\r\n\r\n")
        with socket.create_connection(("127.0.0.1", site.port), timeout=30) as sock:
            sock.sendall(head.encode("ascii"))
            received = b""
            while chunk := sock.recv(65536):  # b"" only once the server closes
                received += chunk
        status_line, _, rest = received.partition(b"\r\n")
        assert status_line == b"HTTP/1.0 413 Request Entity Too Large"
        assert b"\r\nconnection: close\r\n" in rest
        assert ran_nothing(site)
