"""Countries named as people say them where the data keeps ISO 3166 codes (issue 42 item 4:
'what share of transactions came from customers in mexico', 'excluding customers in france' and
'customers in canada' of the mf tutorial's `customer_country` were refused, its members being
`MX`, `FR`, `CA`): the reader matches the standard's names of a country dimension's codes, on
the tutorial and ACME (`USA`, three letters; the shop's governance names its own), and the
audit reads a country's name in an answer as the member it names."""

from __future__ import annotations

import json

import pytest

from showwork.analyst.rules import RulesClient
from showwork.harness.audit import Evidence, audit
from showwork.harness.experiments.attempt import Question, run_attempt
from showwork.protocol.reading import read_text
from showwork.protocol.reading.countries import country_names
from showwork.protocol.switches import Protocol


def _names(members: tuple[str, ...], dimension: str = "store__country",
           label: str | None = "country") -> dict[str, str]:
    return dict(country_names(dimension, label, members))


def test_the_standards_names_and_their_unshared_short_forms() -> None:
    said = _names(("US", "GB", "IR", "KR", "FK"))
    assert said["United States"] == said["United States of America"] == "US"
    assert said["United Kingdom"] == "GB"
    assert said["Iran"] == "IR" and said["Falkland Islands"] == "FK"
    assert "Korea" not in said  # two countries' short name: names neither
    assert said["Korea, Republic of"] == "KR"
    assert _names(("USA", "MEX"))["Mexico"] == "MEX"  # three-letter codes too


def test_only_a_country_dimension_of_codes() -> None:
    """A state's 'CA' is no Canada, and a country dimension holding anything but codes is left
    to its own names."""
    assert _names(("CA", "NY"), "store__state", "state") == {}
    assert _names(("CA", "US"), "customer__region", None) == {}
    assert _names(("CA", "Elsewhere")) == {}
    assert _names(("CA",), "customer__customer_country", None)["Canada"] == "CA"


@pytest.mark.parametrize(("question", "member"), [
    ("what share of transactions came from customers in mexico", "MX"),
    ("how many transactions did customers in canada make", "CA"),
    ("transaction amount for United States customers", "US"),
])
def test_the_tutorial_reads_a_country_by_name(tutorial_layer, question: str, member: str) -> None:
    reading = read_text(question, tutorial_layer.catalog())
    assert reading.unread == []
    assert reading.member_keys() == [("customer__customer_country", member)]


def test_a_country_kept_out_by_its_customers(tutorial_layer) -> None:
    """'excluding customers in france': the things the country belongs to, between the cue
    and the member, keep it out as the cue before the member does."""
    catalog = tutorial_layer.catalog()
    for question in ("transaction amount excluding customers in france",
                     "transaction amount excluding france"):
        reading = read_text(question, catalog)
        assert reading.unread == [] and reading.member_keys() == []
        assert [(m.name, m.member) for m in reading.excluded] == \
            [("customer__customer_country", "FR")]
    # a noun that is no owner of the country stays a phrase of its own: 'excluding' unread
    reading = read_text("transaction amount excluding weekends in france", catalog)
    assert "excluding weekends" in reading.unread and reading.excluded == ()


def test_acme_reads_the_united_states_as_usa(acme_layer) -> None:
    reading = read_text("how many policies in the united states", acme_layer.catalog())
    assert reading.unread == []
    assert [m for _d, m in reading.member_keys()] == ["USA"]


def test_the_catalogs_own_names_come_first(shop_layer) -> None:
    """The shop's governance names its customers' countries ('canada', 'united states'); the
    stores' `region__country` holds the same codes and gets none of the standard's names for
    them, so 'orders in canada' stays the customers' country, as before, and 'United States of
    America' (a name the governance did not write) does not turn it into the stores'."""
    catalog = shop_layer.catalog()
    assert not catalog["dimensions"]["region__country"].get("member_synonyms")
    for question in ("orders in canada in March 2019",
                     "orders in the United States of America in March 2019"):
        assert all(d == "country" for d, _m in read_text(question, catalog).member_keys())
    assert read_text("orders in canada in March 2019", catalog).member_keys() == \
        [("country", "CA")]


@pytest.mark.parametrize(("question", "code", "said", "other"), [
    ("how many transactions did customers in mexico make", "MX", "Mexico", "France"),
    ("how many transactions did customers in canada make", "CA", "Canada", "Mexico"),
])
def test_the_audit_reads_the_country_an_answer_names(tutorial_layer, question: str, code: str,
                                                     said: str, other: str) -> None:
    """The rules answer is served clean; its claim naming the country instead of the code is
    served clean too, and naming another country of the data is not."""
    record = run_attempt(Question("ask", question), RulesClient(), tutorial_layer,
                         Protocol.parse("claims"))
    served = record.served()
    assert served is not None and served.answer_raw and served.audit["decision"] == "serve"
    answer = json.loads(served.answer_raw)
    calls = [c.model_dump(mode="json") for c in record.calls if c.round <= served.round]
    evidence = Evidence.from_json(calls)
    coded = [i for i, c in enumerate(answer["claims"]) if f"country {code})" in c["text"]]
    assert coded, [c["text"] for c in answer["claims"]]

    def named(name: str) -> str:
        edited = json.loads(json.dumps(answer))
        for i in coded:
            text = edited["claims"][i]["text"]
            edited["claims"][i]["text"] = text.replace(f"(customer country {code})",
                                                       f"of customers in {name}")
        return audit(edited, evidence, record.catalog, None, question=question).decision

    assert named(said) == "serve"
    assert named(other) != "serve"


def test_the_things_a_member_belongs_to_are_read_before_it(layer) -> None:
    """'users on android' (the demo's `user__platform`), as 'customers in Mexico' above: the
    entity of the member's dimension, said with its role before the member, is read; another
    noun there is not, and another member is held to the cited rows."""
    question = "how many reminders were sent to android users in march 2026"
    record = run_attempt(Question("ask", question), RulesClient(), layer, Protocol.parse("claims"))
    served = record.served()
    assert served is not None and served.answer_raw and served.audit["decision"] == "serve"
    answer = json.loads(served.answer_raw)
    evidence = Evidence.from_json([c.model_dump(mode="json") for c in record.calls
                                   if c.round <= served.round])

    def said(words: str) -> tuple[str, set[str]]:
        edited = json.loads(json.dumps(answer))
        for claim in edited["claims"]:
            claim["text"] = claim["text"].replace("(platform android)", words)
        edited["answer"] = edited["answer"].replace("(platform android)", words)
        report = audit(edited, evidence, record.catalog, None, question=question)
        return report.decision, {f.code for f in report.findings}

    assert said("to users on android") == ("serve", set())
    assert said("to stores on android") == ("serve_with_caveats", {"unread_answer"})
    decision, codes = said("to users on ios")
    assert decision == "withhold" and "mislabelled_member" in codes
