"""The shop example's warehouse: a seeded, deterministic generator writing one DuckDB file.

A coffee-and-jaffle shop with five street stores, an airport store and an online store, selling
from 2018-02-01 through Wednesday 2019-08-14. The data carries four stories (README.md has the
numbers the default seed gives):

1. May 2019: a 30 %-off sale at the Online store. Orders rise (online orders jump, some street
   customers switch to online), average order value falls more, revenue falls: in
   revenue = order_count x average_order_value the driver is average_order_value.
2. October 2018: a referral campaign triples sign-ups; the new customers' orders lift
   order_count (the influence edge new_customers -> order_count) and revenue with it.
3. Week of 2019-06-10: a load test floods the Online store with test orders; the legacy
   total_orders jumps, the governed order_count (test orders excluded) does not.
4. The data ends on Wednesday 2019-08-14, so August 2019 and the week of 2019-08-12 are partial.

Also: December gift baskets (average order value up), and 40 customers deleted under a
retention policy whose orders remain (an orphan foreign key MetricFlow's left joins keep).

    python examples/shop/generate.py [--seed N] [--out PATH]
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import os
import random
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import duckdb

T = TypeVar("T")

D = dt.date
ORDERS_FROM, DATA_THROUGH = D(2018, 2, 1), D(2019, 8, 14)
CUSTOMERS_FROM = D(2017, 1, 1)
REFERRAL = (D(2018, 10, 1), D(2018, 10, 31))
GIFT_SEASON = (D(2018, 12, 1), D(2018, 12, 24))
ONLINE_SALE = (D(2019, 5, 1), D(2019, 5, 31))
TEST_FLOOD = (D(2019, 6, 10), D(2019, 6, 16))
DELETED_BEFORE = D(2018, 11, 1)
"""Customers whose last order is before this day may be deleted (retention policy)."""
DEFAULT_SEED = 42
GENERATOR_VERSION = 1
HERE = Path(__file__).resolve().parent

ONLINE = 5
STORES = ((1, "Brooklyn"), (2, "New York 5th Ave"), (3, "O'Hare Airport"), (4, "Philadelphia"),
          (ONLINE, "Online"), (6, "Toronto (Queen St. W)"))
# (region_id, region_name, country, share of customers, home stores with weights)
REGIONS = (
    (1, "Northeast", "US", 0.40, ((1, 0.3), (2, 0.3), (4, 0.2), (ONLINE, 0.2))),
    (2, "Midwest", "US", 0.18, ((3, 0.75), (ONLINE, 0.25))),
    (3, "South", "US", 0.15, ((ONLINE, 1.0),)),
    (4, "West", "US", 0.12, ((ONLINE, 1.0),)),
    (5, "Ontario", "CA", 0.07, ((6, 0.7), (ONLINE, 0.3))),
    (6, "Québec", "CA", 0.03, ((6, 0.4), (ONLINE, 0.6))),
    (7, "England", "GB", 0.04, ((ONLINE, 1.0),)),
    (8, "Scotland", "GB", 0.01, ((ONLINE, 1.0),)),
)
# (product_id, product_name, product_type, list price in cents, popularity)
PRODUCTS = (
    (1, "nutellaphone who dis?", "jaffle", 1100, 8), (2, "doctor stew", "jaffle", 1100, 6),
    (3, "the krautback", "jaffle", 1200, 5), (4, "flame impala", "jaffle", 1400, 4),
    (5, "mel-bun", "jaffle", 1200, 4), (6, "tangaroo", "jaffle", 600, 7),
    (7, "Chai", "beverage", 450, 9), (8, "Chai Latte", "beverage", 550, 8),
    (9, "chai and mighty", "beverage", 500, 6), (10, "vanilla ice", "beverage", 600, 5),
    (11, "for richer or pourover", "beverage", 700, 6), (12, "adele-ade", "beverage", 400, 4),
    (13, 'Mel\'s "mocha"', "beverage", 650, 5),
    (14, "Mug, 12 oz", "merch", 1500, 1), (15, "T-Shirt (XL)", "merch", 2500, 1),
    (16, "Tote bag & co.", "merch", 1800, 1),
)
MERCH = tuple(p for p in PRODUCTS if p[2] == "merch")
SEGMENTS = (("consumer", 0.8), ("business", 0.2))


@dataclass(frozen=True)
class Customer:
    customer_id: int
    signup: dt.date
    region_id: int
    segment: str
    home_store: int
    rate: float
    """Orders per day while active."""
    leaves: dt.date
    """The day after the customer's last possible order."""


@dataclass(frozen=True)
class Order:
    ordered_at: dt.datetime
    customer_id: int | None
    store_id: int
    status: str
    is_test: bool
    lines: list[tuple[int, int, int]]
    """(product_id, quantity, unit price in cents)."""


def _days(start: dt.date, end: dt.date) -> list[dt.date]:
    return [start + dt.timedelta(days=i) for i in range((end - start).days + 1)]


def _count(rng: random.Random, mean: float) -> int:
    """A count with the given mean (whole part plus a Bernoulli remainder)."""
    whole = int(mean)
    return whole + (1 if rng.random() < mean - whole else 0)


def _pick(rng: random.Random, table: tuple[tuple[T, float], ...]) -> T:
    return rng.choices([v for v, _ in table], weights=[w for _, w in table])[0]


# -- customers ----------------------------------------------------------------------------------
def make_customers(rng: random.Random) -> list[Customer]:
    customers: list[Customer] = []
    history = _days(CUSTOMERS_FROM, ORDERS_FROM - dt.timedelta(days=1))
    for _ in range(1500):
        customers.append(_customer(rng, len(customers) + 1, rng.choice(history)))
    for day in _days(ORDERS_FROM, DATA_THROUGH):
        mean = 6.5 * (3.5 if REFERRAL[0] <= day <= REFERRAL[1] else 1.0)
        for _ in range(_count(rng, mean)):
            customers.append(_customer(rng, len(customers) + 1, day))
    return customers


def _customer(rng: random.Random, customer_id: int, signup: dt.date) -> Customer:
    region = rng.choices(REGIONS, weights=[r[3] for r in REGIONS])[0]
    lifetime = dt.timedelta(days=int(rng.expovariate(1 / 260)) + 1)
    return Customer(
        customer_id=customer_id, signup=signup, region_id=region[0],
        segment=_pick(rng, SEGMENTS), home_store=_pick(rng, region[4]),
        rate=rng.gammavariate(2.0, 1 / 44), leaves=signup + lifetime)


# -- orders -------------------------------------------------------------------------------------
PEAK = 1.2 * 1.1 * 1.3
"""The largest day factor (weekend x gift season x online sale), for thinning."""


def day_factor(day: dt.date, store: int) -> float:
    """How much busier than usual a store is on a day (weekends, gift season, the sale)."""
    f = 1.2 if day.weekday() >= 5 and store != ONLINE else 1.0
    if GIFT_SEASON[0] <= day <= GIFT_SEASON[1]:
        f *= 1.1
    if store == ONLINE and ONLINE_SALE[0] <= day <= ONLINE_SALE[1]:
        f *= 1.3
    return f


def choose_store(rng: random.Random, c: Customer, day: dt.date) -> int:
    if c.home_store == ONLINE:
        return ONLINE
    online = 0.35 if ONLINE_SALE[0] <= day <= ONLINE_SALE[1] else 0.12
    return ONLINE if rng.random() < online else c.home_store


def customer_orders(rng: random.Random, c: Customer) -> list[Order]:
    """A thinned Poisson process of orders from signup until the customer leaves."""
    out: list[Order] = []
    start = max(c.signup, ORDERS_FROM)
    end = min(c.leaves, DATA_THROUGH + dt.timedelta(days=1))
    if c.signup >= ORDERS_FROM and rng.random() < 0.85:
        out.append(_order(rng, c, c.signup))
    t = 0.0
    span = (end - start).days
    while True:
        t += rng.expovariate(c.rate * PEAK)
        if t >= span:
            return out
        day = start + dt.timedelta(days=int(t))
        store = choose_store(rng, c, day)
        if rng.random() < day_factor(day, store) / PEAK:
            out.append(_order(rng, c, day, store))


def _order(rng: random.Random, c: Customer, day: dt.date, store: int | None = None) -> Order:
    store = store or choose_store(rng, c, day)
    opens = 0 if store == ONLINE else 7 * 3600
    at = dt.datetime.combine(day, dt.time()) + dt.timedelta(seconds=rng.randrange(opens, 22 * 3600))
    return Order(at, c.customer_id, store, _status(rng, day, store), False, basket(rng, day, store))


def _status(rng: random.Random, day: dt.date, store: int) -> str:
    if rng.random() < 0.04:
        return "cancelled"
    recent = (DATA_THROUGH - day).days < 3
    return "placed" if store == ONLINE and recent else "shipped"


def basket(rng: random.Random, day: dt.date, store: int) -> list[tuple[int, int, int]]:
    n = rng.choices((1, 2, 3, 4), weights=(0.35, 0.35, 0.2, 0.1))[0]
    chosen: list[tuple] = []
    while len(chosen) < n:
        p = rng.choices(PRODUCTS, weights=[p[4] for p in PRODUCTS])[0]
        if p not in chosen:
            chosen.append(p)
    if GIFT_SEASON[0] <= day <= GIFT_SEASON[1] and rng.random() < 0.3:
        gift = rng.choice(MERCH)
        if gift not in chosen:
            chosen.append(gift)
    sale = store == ONLINE and ONLINE_SALE[0] <= day <= ONLINE_SALE[1]
    return [(p[0], rng.choices((1, 2, 3), weights=(0.7, 0.22, 0.08))[0],
             p[3] * 7 // 10 if sale else p[3]) for p in chosen]


def make_test_orders(rng: random.Random) -> list[Order]:
    """A few test orders every week, and a load test's flood in one week (guest checkout)."""
    out = []
    for day in _days(ORDERS_FROM, DATA_THROUGH):
        flood = TEST_FLOOD[0] <= day <= TEST_FLOOD[1]
        for _ in range(_count(rng, 420 if flood else 0.4)):
            at = dt.datetime.combine(day, dt.time()) + dt.timedelta(seconds=rng.randrange(86400))
            status = "cancelled" if rng.random() < 0.5 else "placed"
            out.append(Order(at, None, ONLINE, status, True, [(7, 1, 450)]))
    return out


def deleted_customers(rng: random.Random, orders: list[Order], customers: list[Customer]) -> set[int]:
    """40 customers whose last order is old enough to be deleted; their orders stay."""
    last: dict[int, dt.date] = {}
    for o in orders:
        if o.customer_id is not None:
            last[o.customer_id] = max(last.get(o.customer_id, o.ordered_at.date()), o.ordered_at.date())
    old = sorted(cid for cid, day in last.items() if day < DELETED_BEFORE)
    return set(rng.sample(old, 40))


# -- writing ------------------------------------------------------------------------------------
SCHEMAS = {
    "regions": {"region_id": "INTEGER", "region_name": "VARCHAR", "country": "VARCHAR"},
    "stores": {"store_id": "INTEGER", "store_name": "VARCHAR"},
    "products": {"product_id": "INTEGER", "product_name": "VARCHAR", "product_type": "VARCHAR",
                 "list_price": "DECIMAL(10,2)"},
    "customers": {"customer_id": "BIGINT", "signup_date": "DATE", "region_id": "INTEGER",
                  "segment": "VARCHAR"},
    "orders": {"order_id": "BIGINT", "customer_id": "BIGINT", "store_id": "INTEGER",
               "ordered_at": "TIMESTAMP", "status": "VARCHAR", "is_test": "BOOLEAN",
               "order_total": "DECIMAL(10,2)"},
    "order_items": {"order_item_id": "BIGINT", "order_id": "BIGINT", "product_id": "INTEGER",
                    "ordered_at": "TIMESTAMP", "quantity": "INTEGER", "unit_price": "DECIMAL(10,2)"},
}


def _cents(c: int) -> str:
    return f"{c // 100}.{c % 100:02d}"


def write_csvs(folder: Path, customers: list[Customer], orders: list[Order], deleted: set[int]) -> None:
    rows: dict[str, list[tuple]] = {t: [] for t in SCHEMAS}
    rows["regions"] = [(r[0], r[1], r[2]) for r in REGIONS]
    rows["stores"] = list(STORES)
    rows["products"] = [(p[0], p[1], p[2], _cents(p[3])) for p in PRODUCTS]
    rows["customers"] = [(c.customer_id, c.signup, c.region_id, c.segment)
                         for c in customers if c.customer_id not in deleted]
    item_id = 0
    for order_id, o in enumerate(orders, start=1):
        total = sum(q * price for _, q, price in o.lines)
        customer = "" if o.customer_id is None else o.customer_id
        rows["orders"].append((order_id, customer, o.store_id, o.ordered_at, o.status, o.is_test,
                               _cents(total)))
        for product_id, quantity, price in o.lines:
            item_id += 1
            rows["order_items"].append((item_id, order_id, product_id, o.ordered_at, quantity,
                                        _cents(price)))
    for table, data in rows.items():
        with open(folder / f"{table}.csv", "w", newline="", encoding="utf-8") as fh:
            csv.writer(fh).writerows(data)


def _load(db: Path, folder: Path, seed: int) -> None:
    con = duckdb.connect(str(db))
    try:
        for table, columns in SCHEMAS.items():
            struct = "{" + ", ".join(f"'{c}': '{t}'" for c, t in columns.items()) + "}"
            con.execute(f"CREATE TABLE {table} AS SELECT * FROM read_csv(?, header=false, "
                        f"columns={struct}, nullstr='', quote='\"', escape='\"')",
                        [str(folder / f"{table}.csv")])
        con.execute("CREATE TABLE showwork_build (generator VARCHAR, generator_version INTEGER, "
                    "seed BIGINT, data_through DATE)")
        con.execute("INSERT INTO showwork_build VALUES ('examples/shop', ?, ?, ?)",
                    [GENERATOR_VERSION, seed, DATA_THROUGH])
        con.execute("CHECKPOINT")
    finally:
        con.close()


def build(path: Path | str = HERE / "warehouse.duckdb", seed: int = DEFAULT_SEED) -> Path:
    """Write the shop warehouse to `path` atomically (a crash never leaves a half-built file)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    customers = make_customers(rng)
    orders = [o for c in customers for o in customer_orders(rng, c)] + make_test_orders(rng)
    orders.sort(key=lambda o: (o.ordered_at, o.store_id, o.customer_id or 0))
    deleted = deleted_customers(rng, orders, customers)
    partial = path.with_name(f"{path.name}.{os.getpid()}.partial")  # one per builder running at once
    partial.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory(prefix="shop-build-") as tmp:
        write_csvs(Path(tmp), customers, orders, deleted)
        _load(partial, Path(tmp), seed)
    os.replace(partial, path)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build the shop example's DuckDB warehouse.")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    parser.add_argument("--out", type=Path, default=HERE / "warehouse.duckdb")
    args = parser.parse_args(argv)
    path = build(args.out, seed=args.seed)
    print(f"wrote {path} (seed {args.seed}, data through {DATA_THROUGH})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
