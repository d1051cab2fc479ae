"""Several periods of a grain ranked by the value (issue 42 item 3: 'top 3 years by policy amount'
on ACME was refused, 'top 3' and 'years' unread; 'which month had the most' was read, a ranking of
one period): 'top 3 months by …', 'the three worst days for …', 'which 2 months had the most …',
'bottom 2 quarters' read as the series ranked, its size kept; the rules analyst answers from the
series with the ranked periods cited, and the audit's scope check holds a total given instead."""

from __future__ import annotations

import calendar
import json

import pytest

from showwork.analyst.rules import RulesClient
from showwork.harness.audit import Evidence, audit
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.reading import read_text
from showwork.protocol.switches import Protocol

READINGS = [
    ("flights_layer", "top 3 months by cancellations", "most", 3, "month"),
    ("flights_layer", "the three worst days for cancellations at jfk", "most", 3, "day"),
    ("flights_layer", "which 2 weeks had the fewest flights from newark", "least", 2, "week"),
    ("acme_layer", "top 3 years by policy amount", "most", 3, "year"),
    ("shop_layer", "the two best months for revenue in 2019", "most", 2, "month"),
    ("shop_layer", "bottom 2 quarters by orders in 2018", "least", 2, "quarter"),
    ("layer", "the 2 worst weeks for reminder open rate", "least", 2, "week"),
]


@pytest.mark.parametrize(("fixture", "question", "order", "n", "grain"), READINGS)
def test_several_periods_ranked_are_read(request, fixture: str, question: str, order: str,
                                         n: int, grain: str) -> None:
    reading = read_text(question, request.getfixturevalue(fixture).catalog())
    ranking = reading.asks.ranking
    assert reading.unread == []
    assert ranking is not None and ranking.dimension is None
    assert (ranking.order, ranking.n, ranking.grain) == (order, n, grain)


def test_a_judging_word_without_polarity_stays_unread(tutorial_layer) -> None:
    """'the three worst weeks' of a metric with no polarity: which way is worst is not known."""
    reading = read_text("the three worst weeks for transactions", tutorial_layer.catalog())
    assert "worst" in reading.unread


@pytest.mark.parametrize(("fixture", "question", "total"), [
    ("flights_layer", "top 3 months by cancellations", "how many cancellations in 2013"),
    ("shop_layer", "which 2 months had the most orders from March to June 2019",
     "how many orders from March to June 2019"),
])
def test_the_answer_ranks_the_series_and_a_total_is_off_shape(request, fixture: str,
                                                               question: str, total: str) -> None:
    layer = request.getfixturevalue(fixture)
    record = run_attempt(Question("ask", question), RulesClient(), layer, Protocol.parse("claims"))
    served = record.served()
    assert served is not None and served.answer_raw and served.audit["decision"] == "serve"
    answer = json.loads(served.answer_raw)
    calls = [c.model_dump(mode="json") for c in record.calls if c.round <= served.round]
    series = next(c for c in calls if c["tool"] == "query")["result"]
    values = sorted((next(iter(r["values"].values()))["value"] for r in series["rows"]),
                    reverse=True)
    listed = [c["value"] for c in answer["claims"] if c.get("value") is not None]
    n = 3 if "3" in question else 2
    assert listed[:n] == values[:n]  # the n largest, largest first
    # the year's total, given to the same question, is not its shape
    other = run_attempt(Question("ask", total), RulesClient(), layer, Protocol.parse("claims"))
    given = other.served()
    assert given is not None and given.answer_raw
    report = audit(json.loads(given.answer_raw),
                   Evidence.from_json([c.model_dump(mode="json") for c in other.calls
                                       if c.round <= given.round]),
                   other.catalog, None, question=question)
    assert "off_question_shape" in {f.code for f in report.findings}
    assert report.decision != "serve"


@pytest.mark.parametrize(("fixture", "question"), [
    ("flights_layer", "which month had the most cancellations"),
    ("shop_layer", "which month had the most orders from March to June 2019"),
])
def test_an_extreme_is_held_to_the_whole_cited_series(request, fixture: str,
                                                      question: str) -> None:
    """A dishonest answer cites only periods below the true top and names the first of them
    the most: the series its citations come from holds a larger period, so the answer is
    withheld (it was held only to the rows cited: a caveat at most)."""
    layer = request.getfixturevalue(fixture)
    record = run_attempt(Question("ask", question), RulesClient(), layer, Protocol.parse("claims"))
    served = record.served()
    assert served is not None and served.answer_raw and served.audit["decision"] == "serve"
    answer = json.loads(served.answer_raw)
    measured = [c for c in answer["claims"] if c["kind"] == "measurement"]
    conclusion = next(c for c in answer["claims"] if c["kind"] == "conclusion")
    top, rest = measured[0], measured[1:4]  # the analyst lists the most first
    assert len(rest) >= 2 and all(c["value"] < top["value"] for c in rest)
    start = rest[0]["sources"][0].split("=")[1].split("]")[0]  # r1[month=2013-12-01]:…
    said = conclusion["text"].replace(str(answer["value"]), start)
    assert said != conclusion["text"]
    answer["claims"] = [*rest, {**conclusion, "text": said,
                                "premises": [f"c{i}" for i in range(1, len(rest) + 1)]}]
    answer["answer"], answer["value"] = f"{said}.", start
    answer["values"] = [{"key": c["sources"][0].split("=")[1].split("]")[0], "value": c["value"]}
                        for c in rest]
    calls = [c.model_dump(mode="json") for c in record.calls if c.round <= served.round]
    report = audit(answer, Evidence.from_json(calls), record.catalog, None, question=question)
    assert report.decision == "withhold"
    assert "mislabelled_window" in {f.code for f in report.findings}


@pytest.mark.parametrize(("fixture", "question"), [
    ("flights_layer", "flights by month in 2013"),
    ("shop_layer", "orders by month from January to June 2019"),
])
def test_a_peak_after_the_series_window_is_read(request, fixture: str, question: str) -> None:
    """'Flights by month in 2013: flights peaked in July': the year before the extreme is the
    window it is said over (it holds every cited month), not the period it names; the peak is
    held to the series (another month is withheld)."""
    layer = request.getfixturevalue(fixture)
    record = run_attempt(Question("ask", question), RulesClient(), layer, Protocol.parse("claims"))
    served = record.served()
    assert served is not None and served.answer_raw
    answer = json.loads(served.answer_raw)
    evidence = Evidence.from_json([c.model_dump(mode="json") for c in record.calls
                                   if c.round <= served.round])
    values = {c["sources"][0].split("=")[1][:7]: c["value"] for c in answer["claims"]
              if c["kind"] == "measurement"}
    top = max(values, key=lambda k: values[k])
    other = min(values, key=lambda k: values[k])
    head = answer["answer"].split(":")[0]
    label = answer["claims"][0]["text"].split(" in ")[0]

    def said(month: str) -> str:
        name = calendar.month_name[int(month[5:7])]
        edited = {**answer, "answer": f"{head}: {label.lower()} peaked in {name}."}
        return audit(edited, evidence, record.catalog, None, question=question).decision

    assert said(top) == served.audit["decision"]
    assert said(other) == "withhold"
