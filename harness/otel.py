"""OpenTelemetry spans of attempts (DESIGN.md, "Command line": `--otel`).

On when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is set, or when a
command's `--otel` called `enable()`; off otherwise, and then nothing of OpenTelemetry is
imported: `attempt_spans` hands back `OFF`, whose methods do nothing. The SDK and its OTLP/HTTP
exporter are the optional extra `showwork[otel]`.

Every attempt is one span tree:

    showwork.attempt                      question, config, model, project; stop, served round,
    ├── showwork.round (0)                grounded, decision (a withheld answer is an error)
    │   ├── chat MODEL                    gen_ai.* (operation, provider, model, token usage)
    │   ├── execute_tool query            metric, dimensions, window, handle or block reason, rows
    │   └── showwork.audit                grounded, decision, defect and finding codes, claims
    └── showwork.repair (1, 2)            the same, for each repair round

Model and tool spans are written when the step ends, with its measured start and end, under the
round then open. No credential is ever an attribute: spans carry names, arguments the model sent,
codes and counts, never a connection's settings.
"""

from __future__ import annotations

import os
import threading
import time
from collections import Counter
from typing import Any

ENDPOINT_VARS = ("OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")
DEFAULT_ENDPOINT = "http://localhost:4318"
"""Where `--otel` sends without an endpoint variable (an OTLP/HTTP collector's default)."""
SCOPE = "showwork"

_enabled = False
_provider: Any = None
_lock = threading.Lock()


def enable() -> None:
    """Turn spans on for this process (`--otel`)."""
    global _enabled
    _enabled = True


OPTION_HELP = ("Send OpenTelemetry spans of every attempt over OTLP/HTTP "
               "(OTEL_EXPORTER_OTLP_ENDPOINT, default localhost:4318; setting that variable turns "
               "them on too).")
"""The `--otel` option's help (the option itself: harness/cli/params.py's OTEL)."""


def enabled() -> bool:
    return _enabled or any(os.environ.get(v) for v in ENDPOINT_VARS)


def _tracer() -> Any:
    """The process's tracer, its provider made on first use (the SDK imported only here)."""
    global _provider
    with _lock:
        if _provider is None:
            try:
                from opentelemetry.exporter.otlp.proto.http.trace_exporter import (
                    OTLPSpanExporter,
                )
                from opentelemetry.sdk.resources import Resource
                from opentelemetry.sdk.trace import TracerProvider
                from opentelemetry.sdk.trace.export import BatchSpanProcessor
            except ImportError as exc:
                from showwork.harness.errors import HarnessError

                raise HarnessError("OpenTelemetry spans need the SDK and its OTLP exporter: "
                                   "pip install 'showwork[otel]'.") from exc
            if not any(os.environ.get(v) for v in ENDPOINT_VARS):
                os.environ["OTEL_EXPORTER_OTLP_ENDPOINT"] = DEFAULT_ENDPOINT
            provider = TracerProvider(resource=Resource.create({"service.name": "showwork"}))
            provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
            _provider = provider
        return _provider.get_tracer(SCOPE)


def flush() -> None:
    """Send every finished span now (a command calls this before it exits)."""
    if _provider is not None:
        _provider.force_flush()


class Off:
    """Spans switched off: every method does nothing."""

    def model_call(self, model: str, turn: Any, elapsed_s: float) -> None:
        pass

    def tool_call(self, record: Any) -> None:
        pass

    def begin_round(self, round_no: int) -> None:
        pass

    def audit(self, report: Any, elapsed_s: float) -> None:
        pass

    def finish(self, record: Any) -> None:
        pass

    def fail(self, exc: BaseException) -> None:
        pass


OFF = Off()


def attempt_spans(attempt_id: str, question: Any, config: str, model: str,
                  project: dict[str, str] | None) -> Off | AttemptSpans:
    """The span tree of one attempt, or OFF."""
    if not enabled():
        return OFF
    return AttemptSpans(_tracer(), attempt_id, question, config, model, project)


class AttemptSpans(Off):
    """One attempt's span tree: the attempt and round spans are open while they run; steps are
    written as they end."""

    def __init__(self, tracer: Any, attempt_id: str, question: Any, config: str, model: str,
                 project: dict[str, str] | None) -> None:
        from opentelemetry import trace

        self._trace = trace
        self.tracer = tracer
        self.model = model
        attrs = {"showwork.attempt_id": attempt_id, "showwork.config": config,
                 "showwork.model": model, "showwork.question.id": getattr(question, "id", "")
                 or "", "showwork.question.text": getattr(question, "text", None) or ""}
        if project:
            attrs |= {"showwork.project.name": project.get("name", ""),
                      "showwork.project.digest": project.get("digest", "")}
        self.root = tracer.start_span("showwork.attempt", attributes=attrs)
        self.round: Any = None
        self.calls = 0

    def _under(self, span: Any) -> Any:
        return self._trace.set_span_in_context(span)

    def begin_round(self, round_no: int) -> None:
        """Close the running round and open the next (0: the first answer; 1, 2: repairs)."""
        if self.round is not None:
            self.round.end()
        name = "showwork.round" if round_no == 0 else "showwork.repair"
        self.round = self.tracer.start_span(name, context=self._under(self.root),
                                            attributes={"showwork.round": round_no})

    def _step(self, name: str, elapsed_s: float, attrs: dict[str, Any], kind: Any = None,
              error: str | None = None) -> None:
        end = time.time_ns()
        start = end - int(max(elapsed_s, 0.0) * 1e9)
        span = self.tracer.start_span(name, context=self._under(self.round or self.root),
                                      kind=kind or self._trace.SpanKind.INTERNAL,
                                      attributes=_clean(attrs), start_time=start)
        if error:
            span.set_status(self._trace.Status(self._trace.StatusCode.ERROR, error))
        span.end(end_time=end)

    def model_call(self, model: str, turn: Any, elapsed_s: float) -> None:
        provider, _, name = model.partition(":") if ":" in model else ("showwork", "", model)
        usage = turn.usage
        self._step(f"chat {name}", elapsed_s, {
            "gen_ai.operation.name": "chat", "gen_ai.provider.name": provider,
            "gen_ai.request.model": name, "gen_ai.response.finish_reasons": [turn.finish_reason],
            "gen_ai.usage.input_tokens": usage.input_tokens,
            "gen_ai.usage.output_tokens": usage.output_tokens,
            "gen_ai.usage.cache_read.input_tokens": usage.cached_tokens,
            "showwork.tool_calls": len(turn.tool_calls)}, kind=self._trace.SpanKind.CLIENT)

    def tool_call(self, record: Any) -> None:
        self.calls += 1
        args = record.arguments if isinstance(record.arguments, dict) else {}
        attrs: dict[str, Any] = {"gen_ai.operation.name": "execute_tool",
                                 "gen_ai.tool.name": record.tool, "showwork.call.index":
                                 record.index, **_call_args(args),
                                 "showwork.duration_s": record.elapsed_s}
        error = None
        if record.handle is not None:
            attrs["showwork.handle"] = f"r{record.handle}"
            attrs["showwork.rows"] = len((record.result or {}).get("rows") or [])
        else:
            err = record.error or {}
            attrs["showwork.blocked.code"] = err.get("code", "")
            attrs["showwork.blocked.reason"] = err.get("message", "")
            error = err.get("code") or "blocked"
        self._step(f"execute_tool {record.tool}", record.elapsed_s, attrs, error=error)

    def audit(self, report: Any, elapsed_s: float) -> None:
        if report is None:
            return
        states = Counter(c.state for c in report.claims)
        attrs = {"showwork.audit.status": report.status,
                 "showwork.audit.grounded": report.grounded,
                 "showwork.audit.decision": report.decision,
                 "showwork.audit.defect_codes": [d.code for d in report.defects],
                 "showwork.audit.finding_codes": [f.code for f in report.findings],
                 "showwork.audit.claims": len(report.claims),
                 **{f"showwork.audit.claims.{s.lower()}": n for s, n in sorted(states.items())}}
        self._step("showwork.audit", elapsed_s, attrs)

    def finish(self, record: Any) -> None:
        """End the attempt with its outcome; an answer withheld is an error, as a failed
        request is."""
        served = record.served_round
        audit = (record.rounds[served].audit or {}) if served is not None else {}
        decision = audit.get("decision") or "none"
        self.root.set_attributes(_clean({
            "showwork.question.text": record.question.text,
            "showwork.stop_reason": record.stop_reason,
            "showwork.served_round": -1 if served is None else served,
            "showwork.rounds": len(record.rounds), "showwork.calls": len(record.calls),
            "showwork.grounded": audit.get("grounded"), "showwork.decision": decision,
            "gen_ai.usage.input_tokens": record.usage.input_tokens if record.usage else 0,
            "gen_ai.usage.output_tokens": record.usage.output_tokens if record.usage else 0}))
        if decision != "serve":
            why = record.error or f"answer not served (decision {decision})"
            self.root.set_status(self._trace.Status(self._trace.StatusCode.ERROR, why[:200]))
        self._end()

    def fail(self, exc: BaseException) -> None:
        """End the attempt that raised (an engine error, an interrupt): an error span with the
        exception, so a crash is as visible as a withheld answer."""
        self.root.record_exception(exc)
        self.root.set_status(self._trace.Status(self._trace.StatusCode.ERROR,
                                                f"{type(exc).__name__}: {exc}"[:200]))
        self._end()

    def _end(self) -> None:
        if self.round is not None:
            self.round.end()
            self.round = None
        self.root.end()


def _call_args(args: dict[str, Any]) -> dict[str, Any]:
    """What a governed call asked: metrics, dimensions, window(s), filters' dimensions."""
    out: dict[str, Any] = {"showwork.metrics": [str(m) for m in args.get("metrics") or []]}
    dims = list(args.get("group_by") or []) + ([args["by"]] if args.get("by") else [])
    out["showwork.dimensions"] = [str(d) for d in dims]
    for key in ("window", "current_window", "previous_window"):
        w = args.get(key)
        if isinstance(w, dict):
            out[f"showwork.{key}"] = f"{w.get('start')}..{w.get('end')}"
    if args.get("grain"):
        out["showwork.grain"] = str(args["grain"])
    return out


def _clean(attrs: dict[str, Any]) -> dict[str, Any]:
    """OpenTelemetry attributes: no None; lists of one scalar type."""
    return {k: v for k, v in attrs.items() if v is not None}
