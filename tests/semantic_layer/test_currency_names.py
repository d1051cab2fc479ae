"""A metric's currency read from the names its data team gave its columns (the catalog's
`currency`, where no governed `unit` says one), and the audit holding a number written in
another currency to it (issue 43: '€831.6' of a sum of 'cancellations_usd' was served clean)."""

from __future__ import annotations

from showwork.harness.audit.numbers import money_fits
from showwork.protocol.numbers import read_numbers
from showwork.semantic_layer import SemanticLayer


def test_sums_of_columns_named_in_a_currency_carry_it(tutorial_layer: SemanticLayer) -> None:
    metrics = tutorial_layer.catalog()["metrics"]
    assert metrics["transaction_amount"]["currency"] == "usd"  # sum of transaction_amount_usd
    assert metrics["cancellations"]["currency"] == "usd"
    # a derived metric that adds and subtracts amounts in one currency is in that currency
    assert metrics["revenue_usd"]["currency"] == "usd"
    # a count, and a ratio of amounts (a rate of dollars is no amount of dollars), carry none
    assert "currency" not in metrics["transactions"]
    assert "currency" not in metrics["cancellation_rate"]


def test_a_governed_unit_says_it_and_no_currency_is_added(shop_layer: SemanticLayer,
                                                          layer: SemanticLayer) -> None:
    """Where the governance gives a unit, the catalog is unchanged (and so is its digest)."""
    for catalog in (shop_layer.catalog(), layer.catalog()):
        governed = [m for m in catalog["metrics"].values() if m.get("unit")]
        assert governed
        assert not any("currency" in m for m in governed)


def test_a_yen_or_yuan_amount_is_read_in_its_currency() -> None:
    yen, = read_numbers("Revenue was ¥2,800.3 in March.")
    assert (yen.value, yen.money) == (2800.3, "jpy")
    yuan, = read_numbers("Revenue was 2,800 yuan in March.")
    assert yuan.money == "cny"
    assert not money_fits(yen, "usd") and money_fits(yen, "jpy")
    assert money_fits(yen, "cny")  # '¥' is the yuan's sign too
    assert not money_fits(yuan, "jpy")


def test_the_reader_reads_in_usd_of_a_metric_in_usd(tutorial_layer: SemanticLayer,
                                                    shop_layer: SemanticLayer) -> None:
    """'in usd' is the metric's own unit where the catalog says it (a governed unit, or the
    currency its columns' names say), and unread of a count."""
    from showwork.protocol.reading import read_text

    tutorial = tutorial_layer.catalog()
    assert read_text("cancellations in the week of 14 March 2022, in usd", tutorial).unread == []
    assert "in usd" in read_text("transactions in the week of 14 March 2022, in usd",
                                 tutorial).unread
    shop = shop_layer.catalog()
    assert read_text("revenue in March 2019 in dollars", shop).unread == []
    assert "in dollars" in read_text("orders in March 2019 in dollars", shop).unread
