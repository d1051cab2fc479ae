"""A scripted OpenAI-compatible chat-completions server on loopback, for tests and benchmarks.

Each POST takes the next step of the script. A step is a dict:
  {"content": "..."}                          an assistant message
  {"tool_calls": [(name, arguments_json)]}    a tool-call turn
  {"refusal": "..."}, {"finish_reason": "length", "content": "..."}
  {"status": 429 | 500 | 503, "retry_after": s}   an error response
  {"raw_body": "..."}                         a 200 with this exact body (e.g. invalid JSON)
  {"sleep": s, ...}                           wait before answering (latency)
  {"hang": True}                              answer nothing until the client hangs up (a read
                                              timeout that does not depend on machine speed)
  {"reset": True}                             close the connection without answering
  {"reject": "response_format"}               400 if the request carries that parameter,
                                              then the next step answers the retried request
                                              ("reject_status": 422 to answer 422 instead)
Usage defaults to prompt 100 / cached 20 / completion 10 per turn unless a step says "usage".
"""

from __future__ import annotations

import json
import select
import socket
import struct
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class _QuietServer(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        return  # a client that hung up mid-response is part of the tests, not an error


class FakeOpenAI:
    def __init__(self, script: list[dict[str, Any]] | None = None,
                 responder: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
                 latency_s: float = 0.0) -> None:
        self.script = list(script or [])
        self.responder = responder
        self.latency_s = latency_s
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self.server = _QuietServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __enter__(self) -> FakeOpenAI:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()

    def next_step(self, body: dict[str, Any]) -> dict[str, Any]:
        with self.lock:
            self.requests.append(body)
            if self.responder is not None:
                return self.responder(body)
            if not self.script:
                return {"status": 500, "message": "script exhausted"}
            step = self.script[0]
            if "reject" in step:
                if step["reject"] in body:
                    return {"status": step.get("reject_status", 400),
                            "message": f"unsupported parameter: {step['reject']}"}
                self.script.pop(0)
                return self.script.pop(0) if self.script else {"status": 500}
            return self.script.pop(0)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:  # keep test output quiet
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                step = fake.next_step(body)
                if fake.latency_s:
                    time.sleep(fake.latency_s)
                if step.get("sleep"):
                    time.sleep(step["sleep"])
                if step.get("hang"):
                    self._wait_for_hangup()
                    self.close_connection = True
                    return
                if step.get("reset"):
                    self._reset()
                    return
                if step.get("reset_mid"):
                    # headers and half a body, then a RST: a response cut off mid-way
                    full = json.dumps(completion(body, {"content": "x" * 4000}))
                    self.send_response(200)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(full)))
                    self.end_headers()
                    self.wfile.write(full[: len(full) // 2].encode())
                    self.wfile.flush()
                    self._reset()
                    return
                if "status" in step:
                    payload = json.dumps({"error": {"message": step.get("message", "error"),
                                                    "type": "server_error"}}).encode()
                    self.send_response(step["status"])
                    if "retry_after" in step:
                        self.send_header("retry-after", str(step["retry_after"]))
                    self._send(payload)
                    return
                payload = (step["raw_body"].encode() if "raw_body" in step
                           else json.dumps(completion(body, step)).encode())
                self.send_response(200)
                self._send(payload)

            def _wait_for_hangup(self, cap_s: float = 120.0) -> None:
                """Block until the client closes the connection (its timeout fired), or cap_s."""
                deadline = time.monotonic() + cap_s
                while time.monotonic() < deadline:
                    readable, _, _ = select.select([self.connection], [], [], 0.05)
                    if readable and not self.connection.recv(1, socket.MSG_PEEK):
                        return

            def _reset(self) -> None:
                """Linger 0, then drop every reference to the socket: the peer gets a RST."""
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                           struct.pack("ii", 1, 0))
                self.rfile.close()
                self.wfile.close()
                self.connection.close()
                self.close_connection = True

            def _send(self, payload: bytes) -> None:
                try:
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(payload)))
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True  # the client gave up (a timeout under test)

        return Handler


def completion(request: dict[str, Any], step: dict[str, Any]) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": step.get("content")}
    if step.get("tool_calls"):
        message["tool_calls"] = [
            {"id": f"call_{i}", "type": "function", "function": {"name": n, "arguments": a}}
            for i, (n, a) in enumerate(step["tool_calls"])]
    if step.get("refusal"):
        message["refusal"] = step["refusal"]
    usage = step.get("usage", {"prompt": 100, "cached": 20, "completion": 10})
    finish = step.get("finish_reason", "tool_calls" if step.get("tool_calls") else "stop")
    return {
        "id": "chatcmpl-test", "object": "chat.completion", "created": 0,
        "model": request.get("model", "test"),
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
        "usage": {"prompt_tokens": usage["prompt"], "completion_tokens": usage["completion"],
                  "total_tokens": usage["prompt"] + usage["completion"],
                  "prompt_tokens_details": {"cached_tokens": usage["cached"]}},
    }
