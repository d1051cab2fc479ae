"""Write the conformance project's seed CSVs (deterministic: same seed, same files).

Run once when the data design changes: `python conformance/make_seeds.py`. The CSVs are kept in
the repository so dbt, MetricFlow and showwork all read the very same rows.
"""

from __future__ import annotations

import csv
import datetime as dt
import random
from pathlib import Path

SEEDS = Path(__file__).resolve().parent / "project" / "seeds"
START, DAYS = dt.date(2024, 1, 1), 182  # 2024-01-01 .. 2024-06-30

COUNTRIES = [("US", "United States", "North America"), ("MX", "Mexico", "North America"),
             ("CA", "Canada", "North America"), ("GB", "United Kingdom", "Europe"),
             ("DE", "Germany", "Europe"), ("FR", "France", "Europe"),
             ("BR", "Brazil", "South America"), ("JP", "Japan", "Asia"),
             ("CI", "Côte d'Ivoire", "Africa")]
SEGMENTS = ["consumer", "small business", "enterprise"]
CHANNELS = ["web", "store", "phone"]


def _write(name: str, header: list[str], rows: list[list[object]]) -> None:
    with (SEEDS / f"{name}.csv").open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)


def main() -> None:
    rng = random.Random(13)
    SEEDS.mkdir(parents=True, exist_ok=True)
    _write("raw_countries", ["country_code", "country_name", "region"], [list(c) for c in COUNTRIES])
    customers = []
    for cid in range(1, 61):
        # customer 60 lives in a country the countries table does not know (an orphan 2nd hop)
        country = "ZZ" if cid == 60 else rng.choice(COUNTRIES)[0]
        signup = START - dt.timedelta(days=200) + dt.timedelta(days=rng.randrange(360))
        customers.append([cid, country, signup.isoformat(), rng.choice(SEGMENTS),
                          str(rng.random() < 0.2).lower()])
    _write("raw_customers", ["customer_id", "country_code", "signup_date", "segment", "is_vip"],
           customers)
    transactions = []
    for tid in range(1, 1501):
        # 20 transactions of customer 9999, who is in no table (an orphan foreign key)
        cid = 9999 if tid % 75 == 0 else rng.randrange(1, 61)
        day = START + dt.timedelta(days=rng.randrange(DAYS))
        at = dt.datetime.combine(day, dt.time(rng.randrange(24), rng.randrange(60)))
        amount = round(rng.lognormvariate(3.8, 0.7), 2)
        transactions.append([tid, cid, at.isoformat(sep=" "), rng.choice(CHANNELS), amount,
                             rng.randrange(1, 6), str(rng.random() < 0.15).lower(),
                             "returned" if rng.random() < 0.08 else "completed"])
    _write("raw_transactions", ["transaction_id", "customer_id", "ordered_at", "channel", "amount",
                                "quantity", "is_gift", "status"], transactions)
    visits = []
    for vid in range(1, 3001):
        day = START + dt.timedelta(days=rng.randrange(DAYS))
        visits.append([vid, rng.randrange(1, 61), day.isoformat(), rng.randrange(1, 12)])
    _write("raw_visits", ["visit_id", "customer_id", "visited_on", "pages"], visits)
    refunds = []
    for rid, t in enumerate(x for x in transactions if x[7] == "returned"):
        day = dt.date.fromisoformat(str(t[2])[:10]) + dt.timedelta(days=rng.randrange(1, 10))
        refunds.append([rid + 1, t[0], day.isoformat(), round(float(t[4]) * rng.choice([1, 0.5]), 2)])
    _write("raw_refunds", ["refund_id", "transaction_id", "refunded_on", "refund_amount"], refunds)
    balances = []
    for account in range(1, 31):
        # snapshots on some days only: the last day of a month differs between accounts
        level = rng.uniform(100, 5000)
        for offset in range(DAYS):
            if rng.random() < 0.35:
                level = max(0.0, level + rng.gauss(0, 200))
                balances.append([account, rng.randrange(1, 61),
                                 (START + dt.timedelta(days=offset)).isoformat(), round(level, 2)])
    _write("raw_balances", ["account_id", "customer_id", "balance_date", "balance"], balances)


if __name__ == "__main__":
    main()
