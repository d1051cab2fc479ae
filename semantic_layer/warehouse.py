"""The demo warehouse: generated deterministically from a seed into a DuckDB file.

The data carries DESIGN.md's four stories:
1. week of 2026-03-09: plus price 9.99 → 12.99 and a paid_search campaign (to 2026-03-22) of
   low-engagement users: active users rise, days per user falls more, weekly value moments fall;
2. week of 2026-04-13: android reminders stop being opened; android days per user dips;
3. week of 2026-05-04: test accounts flood value_moment events (legacy value_moments only);
4. data ends on Wednesday 2026-06-17, so the week of 2026-06-15 is partial.
"""

from __future__ import annotations

import csv
import datetime as dt
import os
import random
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import duckdb

D = dt.date
EVENTS_FROM, DATA_THROUGH = D(2026, 1, 5), D(2026, 6, 17)
REMINDERS_FROM = D(2026, 2, 2)
PRICE_RISE, CAMPAIGN_END = D(2026, 3, 9), D(2026, 3, 22)
ANDROID_OUTAGE = (D(2026, 4, 13), D(2026, 4, 19))
TEST_FLOOD = (D(2026, 5, 4), D(2026, 5, 10))
GENERATOR_VERSION = 5

PLATFORMS = (("ios", 0.4), ("android", 0.4), ("web", 0.2))
COUNTRIES = (("US", 0.35), ("GB", 0.15), ("DE", 0.15), ("IN", 0.2), ("BR", 0.15))
CHANNELS = (("organic", 0.55), ("paid_search", 0.15), ("referral", 0.15), ("social", 0.15))
MOMENT_COUNTS, MOMENT_WEIGHTS = (0, 1, 2, 3, 4), (0.2, 0.4, 0.25, 0.1, 0.05)


@dataclass(frozen=True)
class User:
    user_id: int
    signup: dt.date
    platform: str
    plan: str
    country: str
    channel: str
    is_test: bool
    engagement: float
    """Base probability of an active day."""
    campaign: bool


def _pick(rng: random.Random, table: tuple) -> str:
    return rng.choices([v for v, _ in table], weights=[w for _, w in table])[0]


def _days(start: dt.date, end: dt.date) -> list[dt.date]:
    return [start + dt.timedelta(days=i) for i in range((end - start).days + 1)]


def make_users(rng: random.Random, scale: float) -> list[User]:
    users: list[User] = []

    def add(signup: dt.date, *, channel: str | None = None, test: bool = False,
            campaign: bool = False) -> None:
        engagement = 0.12 if campaign else rng.betavariate(2.2, 4.5)
        users.append(User(
            user_id=len(users) + 1, signup=signup, platform=_pick(rng, PLATFORMS),
            plan="plus" if rng.random() < (0.08 if campaign else 0.25) else "free",
            country=_pick(rng, COUNTRIES), channel=channel or _pick(rng, CHANNELS),
            is_test=test, engagement=engagement, campaign=campaign))

    history = _days(D(2025, 1, 1), EVENTS_FROM - dt.timedelta(days=1))
    for _ in range(round(12000 * scale)):
        add(rng.choice(history))
    for _ in range(round(160 * scale)):
        add(rng.choice(history), test=True)
    for day in _days(EVENTS_FROM, DATA_THROUGH):
        for _ in range(_count(rng, 22 * scale)):
            add(day)
        if PRICE_RISE <= day <= CAMPAIGN_END:
            for _ in range(_count(rng, 260 * scale)):
                add(day, channel="paid_search", campaign=True)
    return users


def _count(rng: random.Random, mean: float) -> int:
    """A count with the given mean (whole part plus a Bernoulli remainder)."""
    whole = int(mean)
    return whole + (1 if rng.random() < mean - whole else 0)


def activity_factor(user: User, day: dt.date) -> float:
    """Story 1: the price rise lowers plus users' engagement most, everyone's a little."""
    if day < PRICE_RISE:
        return 1.0
    weeks = (day - PRICE_RISE).days // 7
    if user.plan == "plus":
        return (0.55, 0.75, 0.9)[min(weeks, 2)]
    return (0.92, 0.97, 1.0)[min(weeks, 2)]


class Writer:
    """CSV files for each raw table, loaded into DuckDB at the end."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.files: dict[str, object] = {}
        self.writers: dict[str, Callable] = {}

    def row(self, table: str, *values: object) -> None:
        if table not in self.writers:
            fh = open(self.folder / f"{table}.csv", "w", newline="", encoding="utf-8")  # noqa: SIM115
            self.files[table] = fh
            self.writers[table] = csv.writer(fh).writerow
        self.writers[table](values)

    def close(self) -> None:
        for fh in self.files.values():
            fh.close()  # type: ignore[attr-defined]


def _epoch(day: dt.date) -> int:
    return (day - D(1970, 1, 1)).days * 86400


def simulate(rng: random.Random, users: list[User], out: Writer) -> None:
    event_id = reminder_id = 0
    write = out.row
    for u in users:
        out.row("users", u.user_id, u.signup, u.platform, u.plan, u.country, u.channel, u.is_test)
        _subscription(rng, u, out)
        for day in _days(max(u.signup, EVENTS_FROM), DATA_THROUGH):
            p = 0.9 if day == u.signup else u.engagement * activity_factor(u, day)
            p *= 0.85 if day.weekday() >= 5 else 1.0
            flood = u.is_test and TEST_FLOOD[0] <= day <= TEST_FLOOD[1]
            # Reminders go to engaged users (a lifecycle programme), so when android opens stop
            # (story 2) those users come back on fewer days rather than not at all.
            if day >= REMINDERS_FROM and u.engagement >= 0.3 and rng.random() < 0.3:
                reminder_id += 1
                opened = _reminder(rng, u, day, reminder_id, out)
                if opened:
                    p += (1 - p) * 0.7
            if flood:
                p = 0.95
            if rng.random() >= p:
                continue
            # Timestamps are written as epoch seconds; DuckDB turns them into TIMESTAMPs.
            base = _epoch(day) + rng.randrange(6 * 3600, 23 * 3600)
            for _ in range(1 + (rng.random() < 0.1)):
                event_id += 1
                write("events", event_id, u.user_id, base, "app_open")
                base += rng.randrange(10, 600)
            moments = 40 if flood else rng.choices(MOMENT_COUNTS, MOMENT_WEIGHTS)[0]
            if u.campaign and rng.random() < 0.8:
                moments = 0
            for _ in range(moments):
                event_id += 1
                base += rng.randrange(1, 90)
                write("events", event_id, u.user_id, base, "value_moment")


def _reminder(rng: random.Random, u: User, day: dt.date, rid: int, out: Writer) -> bool:
    rate = 0.02 if u.platform == "android" and ANDROID_OUTAGE[0] <= day <= ANDROID_OUTAGE[1] else 0.4
    sent = _epoch(day) + 9 * 3600 + rng.randrange(0, 180) * 60
    opened = rng.random() < rate
    opened_at = sent + rng.randrange(1, 240) * 60 if opened else None
    out.row("reminders", rid, u.user_id, sent, "" if opened_at is None else opened_at)
    return opened


def _subscription(rng: random.Random, u: User, out: Writer) -> None:
    start = u.signup + dt.timedelta(days=rng.randrange(0, 21))
    if start > DATA_THROUGH:
        return
    if u.plan == "plus":
        out.row("subscriptions", u.user_id, "plus", start, "")
    elif rng.random() < 0.12:
        # A churned plus subscriber; the price rise pulls some endings into March.
        if rng.random() < 0.3 and start < PRICE_RISE:
            end = PRICE_RISE + dt.timedelta(days=rng.randrange(0, 14))
        else:
            end = start + dt.timedelta(days=rng.randrange(30, 300))
        if end <= DATA_THROUGH:
            out.row("subscriptions", u.user_id, "plus", start, end)
        else:
            out.row("subscriptions", u.user_id, "plus", start, "")


SCHEMAS = {
    "users": {"user_id": "BIGINT", "signup_date": "DATE", "platform": "VARCHAR",
              "plan": "VARCHAR", "country": "VARCHAR", "channel": "VARCHAR", "is_test": "BOOLEAN"},
    "events": {"event_id": "BIGINT", "user_id": "BIGINT", "event_ts": "TIMESTAMP",
               "event_type": "VARCHAR"},
    "reminders": {"reminder_id": "BIGINT", "user_id": "BIGINT", "sent_at": "TIMESTAMP",
                  "opened_at": "TIMESTAMP"},
    "subscriptions": {"user_id": "BIGINT", "plan": "VARCHAR", "started_on": "DATE",
                      "ended_on": "DATE"},
}
EPOCH_COLUMNS = {"event_ts", "sent_at", "opened_at"}


def build(path: Path, scale: float = 1.0, seed: int = 7,
          progress: Callable[[str], None] | None = None) -> Path:
    """Write the demo warehouse to `path` atomically (a crash never leaves a half-built file)."""
    if scale <= 0:
        raise ValueError(f"scale must be positive, got {scale}")
    say = progress or (lambda _msg: None)
    path.parent.mkdir(parents=True, exist_ok=True)
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory(prefix="showwork-build-") as tmp:
        folder = Path(tmp)
        say("generating users")
        users = make_users(rng, scale)
        say(f"simulating {len(users):,} users")
        writer = Writer(folder)
        simulate(rng, users, writer)
        writer.close()
        say("loading into DuckDB")
        partial = path.with_name(f"{path.name}.{os.getpid()}.partial")  # one per builder running at once
        partial.unlink(missing_ok=True)
        _load(partial, folder, scale, seed)
        os.replace(partial, path)
    return path


def _load(db: Path, folder: Path, scale: float, seed: int) -> None:
    con = duckdb.connect(str(db))
    try:
        for table, columns in SCHEMAS.items():
            cols = ", ".join(f"{c} {t}" for c, t in columns.items())
            con.execute(f"CREATE TABLE {table} ({cols})")
            csv_path = folder / f"{table}.csv"
            if csv_path.exists():
                raw = {c: ("BIGINT" if c in EPOCH_COLUMNS else t) for c, t in columns.items()}
                select = ", ".join(f"make_timestamp({c} * 1000000::BIGINT)" if c in EPOCH_COLUMNS
                                   else c for c in columns)
                con.execute(f"INSERT INTO {table} SELECT {select} FROM read_csv(?, header=false, "
                            f"columns={_struct(raw)}, nullstr='')", [str(csv_path)])
        con.execute("CREATE TABLE prices (plan VARCHAR, effective_from DATE, "
                    "monthly_price_usd DECIMAL(10,2))")
        con.execute("INSERT INTO prices VALUES ('free', DATE '2025-01-01', 0.00), "
                    "('plus', DATE '2025-01-01', 9.99), ('plus', ?, 12.99)", [PRICE_RISE])
        con.execute("CREATE TABLE source_coverage (source VARCHAR, covered_from DATE, "
                    "covered_through DATE)")
        con.executemany("INSERT INTO source_coverage VALUES (?, ?, ?)", [
            ("users", D(2025, 1, 1), DATA_THROUGH), ("events", EVENTS_FROM, DATA_THROUGH),
            ("reminders", REMINDERS_FROM, DATA_THROUGH),
            ("subscriptions", D(2025, 1, 1), DATA_THROUGH), ("prices", D(2025, 1, 1), DATA_THROUGH)])
        con.execute("CREATE TABLE showwork_build (generator_version INTEGER, scale DOUBLE, "
                    "seed BIGINT)")
        con.execute("INSERT INTO showwork_build VALUES (?, ?, ?)", [GENERATOR_VERSION, scale, seed])
        con.execute("CHECKPOINT")
    finally:
        con.close()


def _struct(columns: dict[str, str]) -> str:
    return "{" + ", ".join(f"'{c}': '{t}'" for c, t in columns.items()) + "}"
