"""Readings the fresh ACME Insurance questions of session 17 found refused (issue 42:
conformance/questions/acme_s17.yaml, written from the catalog and the data before reading the
reader; tests/analyst/test_rules_s17.py lists the misses). Each on two domains (a catalog of no
project where only ACME has the thing), each with a question that says more left unread."""

from __future__ import annotations

import copy
from typing import Any

from calls import STORES as _STORES

from showwork.protocol.reading import read_text


def _catalog(**metrics: dict[str, Any]) -> dict[str, Any]:
    """The stores catalog of no project, with more metrics (each a simple sum by store)."""
    catalog: dict[str, Any] = copy.deepcopy(_STORES)
    for name, info in metrics.items():
        catalog["metrics"][name] = {"synonyms": [], "previous_names": [], "grains": ["month"],
                                    "type": "simple", "dimensions": ["store_code"], **info}
    return catalog


def _detail(reading, words: str) -> str:
    return next(s.detail for s in reading.spans if s.words == words)


class TestANumberSaidShort:
    """'Whats the loss reserve on claim no. 12312702' was refused: 'no.', 'num', 'nbr' between a
    thing and its number are the short forms of 'number', read as the dimension's own word
    (the number beside it is the member); with no thing before it they stay unread."""

    def test_acme(self, acme_layer) -> None:
        catalog = acme_layer.catalog()
        for text in ("whats the loss reserve on claim no. 12312702",
                     "loss reserve on claim num 12312702", "loss reserve for claim no 12312702"):
            reading = read_text(text, catalog)
            assert reading.member_keys() == [("claim_identifier__company_claim_number",
                                              "12312702")] and reading.unread == [], text
        assert read_text("loss reserve on no. 12312702", catalog).unread == ["no. 12312702"]

    def test_a_catalog_of_no_project(self) -> None:
        catalog = _catalog()
        catalog["dimensions"]["order__order_number"] = {
            "label": "order number", "pattern": None, "members": ["1001", "1002"]}
        catalog["metrics"]["sales"]["dimensions"].append("order__order_number")
        reading = read_text("sales on order no. 1002 in may 2024", catalog)
        assert reading.member_keys() == [("order__order_number", "1002")]
        assert reading.unread == []


class TestAFlagKeptAsOne:
    """'What fraction of the total policy amount is premium', 'total policy amount excluding
    premiums' were refused: a flag the data keeps as 1 ('has premium', 1 where a policy amount
    is a premium, nothing where not) is read by its state, as a true-or-false one ('is large')
    already was: the member 1, kept or kept out."""

    def test_acme(self, acme_layer) -> None:
        catalog = acme_layer.catalog()
        reading = read_text("what fraction of the total policy amount is premium?", catalog)
        assert reading.member_keys() == [("policy_amount__has_premium", "1")]
        assert reading.unread == [] and reading.asks.share is not None
        reading = read_text("total policy amount excluding premiums", catalog)
        assert [(m.name, m.member) for m in reading.excluded] == [
            ("policy_amount__has_premium", "1")] and reading.unread == []
        assert "surcharges" in read_text("total policy amount excluding surcharges",
                                         catalog).unread[0]

    def test_a_catalog_of_no_project(self) -> None:
        catalog = _catalog()
        catalog["dimensions"]["sale__is_refunded"] = {
            "label": "is refunded", "pattern": None, "members": ["0", "1"]}
        catalog["metrics"]["sales"]["dimensions"].append("sale__is_refunded")
        reading = read_text("refunded sales in may 2024", catalog)
        assert reading.member_keys() == [("sale__is_refunded", "1")] and reading.unread == []
        assert read_text("1 sales in may 2024", catalog).member_keys() == []

    def test_the_tutorial_true_or_false(self, tutorial_layer) -> None:
        reading = read_text("large transactions in 2022", tutorial_layer.catalog())
        assert ("transaction__is_large", "true") in reading.member_keys()


class TestHowMuchOfAFlag:
    """'How much premium has policy number 31003000336 carried overall?' was refused: no metric
    named. A flag's state right after 'how much' names the one summed amount of the flag's own
    rows (the policy amounts: total_policy_amount), with the flag kept."""

    def test_acme(self, acme_layer) -> None:
        catalog = acme_layer.catalog()
        reading = read_text("how much premium for policy number 31003000336?", catalog)
        assert reading.metric_names() == ["total_policy_amount"] and reading.unread == []
        assert ("policy_amount__has_premium", "1") in reading.member_keys()
        assert read_text("premium for policy number 31003000336", catalog).metric_names() == []

    def test_a_catalog_of_no_project(self) -> None:
        catalog = _catalog(refund_count={"label": "refunds", "unit": "count", "counts": True},
                           sale_amount={"label": "sale amount", "unit": "usd"})
        catalog["dimensions"]["sale__is_online"] = {
            "label": "is online", "pattern": None, "members": ["1"]}
        for name in ("sale_amount", "refund_count"):
            catalog["metrics"][name]["dimensions"].append("sale__is_online")
        reading = read_text("how much online in may 2024", catalog)
        assert reading.metric_names() == ["sale_amount"] and reading.unread == []
        catalog = copy.deepcopy(catalog)  # a catalog read is never changed in place
        del catalog["metrics"]["sale_amount"]
        assert read_text("how much online in may 2024", catalog).metric_names() == []


class TestUSStateNames:
    """'How many claims came from insured objects in texas' was refused: where a state
    dimension keeps its members as the two-letter codes of ISO 3166-2:US, a state's name is
    that code (as countries.py reads ISO 3166); a state no member is stays unread."""

    def test_acme(self, acme_layer) -> None:
        catalog = acme_layer.catalog()
        reading = read_text("how many claims came from insured objects in texas", catalog)
        assert reading.metric_names() == ["claims"] and reading.unread == []
        assert ("insurable_object_identifier__geographic_location__state_code",
                "TX") in reading.member_keys()
        assert read_text("number of policies in california", catalog).unread == ["california"]

    def test_a_catalog_of_no_project(self) -> None:
        catalog = _catalog()
        catalog["dimensions"]["store__state"] = {"label": "state", "pattern": None,
                                                 "members": ["NY", "NJ"]}
        catalog["metrics"]["sales"]["dimensions"].append("store__state")
        reading = read_text("sales in new jersey in may 2024", catalog)
        assert reading.member_keys() == [("store__state", "NJ")] and reading.unread == []
        catalog = copy.deepcopy(catalog)  # a catalog read is never changed in place
        catalog["dimensions"]["store__state"]["members"] = ["NY", "ON"]  # not every one a state
        assert "jersey" in " ".join(read_text("sales in new york in may 2024", catalog).unread
                                    + read_text("sales in new jersey", catalog).unread)

    def test_the_shop_has_no_state(self, shop_layer) -> None:
        assert "texas" in read_text("how many orders in texas in 2019",
                                    shop_layer.catalog()).unread


class TestTheVerbOfTheMetricsNoun:
    """'Total loss payments paid out so far?' was refused over 'paid': a metric named by a
    noun made of a verb with '-ment' ('payment' of 'pay') says its own event with that verb,
    as 'cancelled' is read of cancellations; an adjective of an entity made with '-able'
    ('insurable' objects) is said by its verb ('insured'). Another verb stays unread."""

    def test_acme(self, acme_layer) -> None:
        catalog = acme_layer.catalog()
        assert read_text("total loss payments paid out so far?", catalog).unread == []
        assert read_text("total loss reserves paid out so far?", catalog).unread == ["paid"]

    def test_a_catalog_of_no_project(self) -> None:
        catalog = _catalog(shipments={"label": "shipments", "unit": "count", "counts": True})
        assert read_text("shipments shipped in may 2024", catalog).unread == []
        assert read_text("sales shipped in may 2024", catalog).unread == ["shipped"]

    def test_the_shop(self, shop_layer) -> None:
        assert read_text("revenue paid out in 2019", shop_layer.catalog()).unread == ["paid"]


class TestADefinitionSaid:
    """'What is the total loss amount (payments plus reserves)?' was refused over 'plus': an
    operator word between the words of two parts of a metric the catalog defines as their sum
    or difference, in the formula's order, is read as its definition; another order, or
    another operator, stays unread."""

    def test_acme(self, acme_layer) -> None:
        catalog = acme_layer.catalog()
        reading = read_text("what is the total loss amount (payments plus reserves)?", catalog)
        assert reading.metric_names() == ["total_loss_amount"] and reading.unread == []
        assert _detail(reading, "plus") == \
            "total_loss_amount = loss_payment_amount + loss_reserve_amount"
        assert read_text("what is the total loss amount (payments minus reserves)?",
                         catalog).unread == ["minus"]

    def test_the_tutorial(self, tutorial_layer) -> None:
        catalog = tutorial_layer.catalog()
        reading = read_text("revenue (transaction amount minus cancellations plus alterations) "
                            "in 2022", catalog)
        assert reading.metric_names()[0] == "revenue_usd" and reading.unread == []
        assert read_text("revenue (cancellations minus transaction amount) in 2022",
                         catalog).unread == ["minus"]


class TestTheWholeAmountByItsWord:
    """'What share of total losses is reserves' read no metric: 'Loss Amount' beside 'Loss
    Payment Amount' and 'Loss Reserve Amount' is the amount of losses as a whole, its kinds the
    others; a metric named by the word alone ('Transactions' beside 'Transaction Amount')
    keeps it."""

    def test_acme(self, acme_layer) -> None:
        reading = read_text("total losses in 2019", acme_layer.catalog())
        assert reading.metric_names() == ["total_loss_amount"] and reading.unread == []

    def test_a_catalog_of_no_project(self) -> None:
        catalog = _catalog(refund_amount={"label": "Refund Amount", "unit": "usd"},
                           card_refund_amount={"label": "Card Refund Amount", "unit": "usd"})
        reading = read_text("refunds in may 2024", catalog)
        assert reading.metric_names() == ["refund_amount"] and reading.unread == []
        catalog = copy.deepcopy(catalog)  # a catalog read is never changed in place
        catalog["metrics"]["refunds"] = {**catalog["metrics"]["sales"], "label": "refunds",
                                         "unit": "count"}
        assert read_text("refunds in may 2024", catalog).metric_names() == ["refunds"]

    def test_the_tutorial(self, tutorial_layer) -> None:
        reading = read_text("transactions in 2022", tutorial_layer.catalog())
        assert reading.metric_names() == ["transactions"]


class TestVerbsOfHaving:
    """'How much are we holding in loss reserves' was refused over 'holding': in a question of
    how much over amounts, 'hold' and 'carry' ask what 'have' asks; of a count ('how many
    orders were held') or outside a question of how much they stay unread."""

    def test_acme(self, acme_layer) -> None:
        catalog = acme_layer.catalog()
        reading = read_text("how much are we holding in loss reserves", catalog)
        assert reading.metric_names() == ["loss_reserve_amount"] and reading.unread == []
        assert read_text("how many claims are we holding", catalog).unread == ["holding"]

    def test_the_shop(self, shop_layer) -> None:
        catalog = shop_layer.catalog()
        reading = read_text("how much revenue was the online store holding in march 2019",
                            catalog)
        assert reading.metric_names() == ["revenue"] and reading.unread == []
        assert read_text("how many orders were held in march 2019", catalog).unread == ["held"]
        assert read_text("revenue held in march 2019", catalog).unread == ["held"]


class TestCurrencySaidInSlang:
    """'By how many bucks did revenue grow' reads 'bucks' as dollars where the metric's unit is
    USD (as 'dollars' already was); where the catalog gives no unit or currency (ACME's
    amounts) neither is read: s17a-018 'by how many dollars did the total policy amount grow'
    stays refused, a unit the catalog does not give."""

    def test_the_shop(self, shop_layer) -> None:
        reading = read_text("by how many bucks did revenue grow from 2018 to 2019?",
                            shop_layer.catalog())
        assert reading.metric_names() == ["revenue"] and reading.unread == []

    def test_the_tutorial(self, tutorial_layer) -> None:
        assert read_text("how many bucks of revenue in 2022?", tutorial_layer.catalog()).unread == []

    def test_acme(self, acme_layer) -> None:
        catalog = acme_layer.catalog()
        for unit in ("dollars", "bucks"):
            assert read_text(f"by how many {unit} did the total policy amount grow from 2016 to "
                             "2017?", catalog).unread == [unit]
