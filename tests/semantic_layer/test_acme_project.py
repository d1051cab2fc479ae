"""Another team's dbt project loaded as its authors keep it (conformance/projects/acme-insurance,
dbt Labs' semantic-layer benchmark over ACME insurance data, three edits named in its README):
every metric loads, and the governed numbers over all the data equal SQL over its seed CSVs."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest

from showwork.semantic_layer import load_model

ROOT = Path(__file__).resolve().parents[2]
ACME = ROOT / "conformance" / "projects" / "acme-insurance"
SEEDS = ACME / "ACME_Insurance" / "data"


def _seed_sql(sql: str) -> float:
    """One number by SQL over the project's seed CSVs, independently of the semantic layer."""
    con = duckdb.connect()
    for csv in SEEDS.glob("*.csv"):
        con.execute(f"CREATE VIEW {csv.stem} AS SELECT * FROM read_csv_auto('{csv}')")
    (value,) = con.execute(sql).fetchone()
    return float(value)


class TestLoading:
    """The semantic YAML loads unchanged: its seven metrics, none refused."""

    def test_its_metrics(self) -> None:
        """The five of its own YAML and the two its measures create (create_metric: true)."""
        model = load_model(ACME)
        assert {m.name for m in model.metrics} == {
            "claims", "avg_time_to_settle_claim", "loss_payment_amount", "loss_reserve_amount",
            "total_loss_amount", "number_of_policies", "total_policy_amount"}
        assert model.unsupported == ()


@pytest.mark.parametrize(("metric", "sql"), [
    ("claims", "SELECT count(Company_Claim_Number) FROM Claim"),
    ("avg_time_to_settle_claim",
     "SELECT avg(datediff('day', Claim_Open_Date, Claim_Close_Date)) FROM Claim"),
    ("loss_payment_amount", "SELECT sum(Claim_Amount) FROM Claim_Amount WHERE "
     "Claim_Amount_Identifier IN (SELECT Claim_Amount_Identifier FROM Loss_Payment)"),
    ("total_loss_amount", "SELECT sum(Claim_Amount) FROM Claim_Amount WHERE "
     "Claim_Amount_Identifier IN (SELECT Claim_Amount_Identifier FROM Loss_Payment UNION "
     "SELECT Claim_Amount_Identifier FROM Loss_Reserve)"),
    ("number_of_policies", "SELECT count(*) FROM Policy"),
    ("total_policy_amount", "SELECT sum(Policy_Amount) FROM Policy_Amount"),
])
def test_governed_numbers_over_all_data(acme_layer, metric: str, sql: str) -> None:
    """Each metric with no window and no grain (all the data, as `mf query` reads it) is the
    number SQL over the seeds gives."""
    (row,) = acme_layer.query(metrics=[metric]).rows
    assert row.values[metric]["value"] == pytest.approx(_seed_sql(sql))


def test_by_policy_number(acme_layer) -> None:
    """A breakdown by the policy entity's number column: one row per policy number."""
    result = acme_layer.query(metrics=["total_policy_amount"], group_by=["policy__policy_number"])
    got = {r.key["policy__policy_number"]: r.values["total_policy_amount"]["value"]
           for r in result.rows}
    assert got == {"31003000336": 5_086_000, "31003000337": 612_000}
