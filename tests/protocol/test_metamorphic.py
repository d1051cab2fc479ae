"""A question that says more never gets the same reading with nothing unread (issue 42, item 2).

For every answerable question of every domain's question files, a meaning-bearing phrase is
inserted (a ranking over a time grain: month, week, day, quarter, hour, 'the best month';
'at each X', 'for every X', year-to-date, 'as of DATE', 'through the end of MONTH', 'by the
end of Q3', another period to compare with (the same period a year earlier, a month named),
'only <member>', 'excluding <member>', 'per <dimension>', a running total, a share of the
year's total, a ranking's size in words: 'the eleven stores with the most', 'top twenty',
'the dozen largest'; several periods ranked, 'the top 3 months'; a country by its name where
the data keeps ISO codes). The phrases are generated from each catalog (its
dimensions, members and coverage), not picked per question. The mutant's reading must differ
from the original's in what is acted on, or leave a span unread: else the original's answer
would be served clean for a question it does not answer. A sample runs in `make test`, every
mutant under `slow`.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from pathlib import Path
from typing import Any

import pytest
from flights_data import FLIGHTS
from test_paraphrases import reading_of

from showwork.harness.experiments.questions import bundled_path, load_questions
from showwork.protocol.reading.countries import country_names

ROOT = Path(__file__).resolve().parents[2]
DOMAINS = {  # name: (the fixture of its governed layer, its question files); one line a domain
    "demo": ("layer", [bundled_path(), *(ROOT / "harness" / "questions" / f"demo_{n}.yaml"
                                         for n in ("new", "s7"))]),
    "shop": ("shop_layer", [ROOT / "examples" / "shop" / f"questions{n}.yaml"
                            for n in ("", "_new", "_s7", "_s8", "_s10", "_s11", "_s13")]),
    "flights": ("flights_layer", [FLIGHTS / f"questions{n}.yaml"
                                  for n in ("", "_new", "_s8", "_s10", "_s11", "_s13")]),
    "mf-tutorial": ("tutorial_layer", [ROOT / "conformance" / "questions" / f"mf_tutorial{n}.yaml"
                                       for n in ("", "_s11")]),
    "metricflow-intro": ("intro_layer", [ROOT / "conformance" / "questions" / "intro_s12.yaml"]),
    "acme-insurance": ("acme_layer", [ROOT / "conformance" / "questions" / "acme_s14.yaml"]),
}
FILES = {name: files for name, (_fixture, files) in DOMAINS.items()}
SAMPLE = 400
"""Mutants per domain in the quick run (every mutant under `slow`)."""


def texts(name: str) -> list[str]:
    """Every answerable question's text and paraphrases, once."""
    out: dict[str, None] = {}
    for path in FILES[name]:
        for q in load_questions(path).questions:
            if q.answerable:
                out.update(dict.fromkeys([q.text, *q.paraphrases]))
    return list(out)


def phrases(catalog: dict[str, Any]) -> list[str]:
    """Meaning-bearing phrases from the catalog: its dimensions with members, a member of
    each, and a day inside the metrics' coverage."""
    listed = [(d, info) for d, info in catalog["dimensions"].items()
              if len(info.get("members") or []) >= 2]
    # a dimension of the metrics' own rows, else (a project whose every dimension is reached
    # through an entity: customer__first_name, order__status) those
    own = [(d, info) for d, info in listed if "__" not in d] or listed
    dims = [(info.get("label") or d, info["members"]) for d, info in own][:4]
    ends = [str((m.get("coverage") or {}).get("end")) for m in catalog["metrics"].values()
            if (m.get("coverage") or {}).get("end")]
    last = dt.date.fromisoformat(min(ends)) if ends else dt.date(2020, 12, 31)
    as_of = (last.replace(day=1) - dt.timedelta(days=40)).replace(day=15)
    out = [", and which month had the most", ", in the single worst week", ", year-to-date",
           f", as of {as_of:%B} {as_of.day}, {as_of.year}", ", as a running total",
           ", compared with the same period a year earlier", ", as a share of the year's total",
           ", and which day had the least", ", and which quarter had the most",
           ", and which hour had the most", ", and the best month",
           f", compared with {as_of:%B %Y}", f", through the end of {as_of:%B}",
           ", by the end of Q3",
           # several periods ranked, their size said: 'top 3 months', 'the two busiest weeks'
           ", and the top 3 months", ", and the two worst weeks", ", and which 2 quarters had the most"]
    for d, info in catalog["dimensions"].items():  # a country named as people say it
        said = country_names(d, info.get("label"), tuple(info.get("members") or ()))
        if said:
            out += [f", only in {said[-1][0]}", f", excluding {said[0][0]}"]
    if any("hour" in f"{d} {info.get('label') or ''}".lower()
           and all(str(v).isdigit() for v in info.get("members") or ["x"])
           for d, info in catalog["dimensions"].items()):
        out += [", after 9pm", ", before 6am"]  # a range of an hour dimension
    for label, members in dims:
        out += [f" at each of the {len(members)} {label}s", f" at each {label}",
                f" for every {label}",
                f" per {label}", f", only {members[-1]}", f", excluding {members[0]}",
                f", without {members[-1]}", f", not counting {members[0]}",
                f", other than {members[1]}",
                # a ranking's size in words (one…twenty, a dozen): read as its size
                f", and the eleven {label}s with the most", f", top twenty {label}s",
                f", the dozen largest {label}s"]
    return out


def mutants(text: str, catalog: dict[str, Any]) -> list[str]:
    """The text with each phrase inserted before its final punctuation."""
    body = re.sub(r"[?.!\s]+$", "", text)
    end = text[len(body):].strip() or "?"
    return [f"{body}{p}{end}" for p in phrases(catalog)]


def violations(name: str, catalog: dict[str, Any], sample: int | None
               ) -> tuple[int, list[str]]:
    """(mutants read, those read as the original with nothing unread)."""
    pairs = [(t, m) for t in texts(name) for m in mutants(t, catalog)]
    if sample is not None and len(pairs) > sample:
        pairs = random.Random(42).sample(pairs, sample)
    wrong, seen = [], {}
    for text, mutant in pairs:
        if text not in seen:
            seen[text] = reading_of(text, catalog)
        original, changed = seen[text], reading_of(mutant, catalog)
        if _repeats(text, mutant, catalog):
            continue
        if not changed["unread"] and changed == original:
            wrong.append(f"{mutant!r} read as {text!r}")
    return len(pairs), wrong


def _repeats(text: str, mutant: str, catalog: dict[str, Any]) -> bool:
    """'Revenue by store … per store', 'revenue year to date, year-to-date': the phrase is
    already in the question, or names the dimension it already breaks down or ranks by, or
    asks for the running total the question already asks for ('by the end of Q3, year-to-date':
    both read by the one running total, issue 42 session 8), or the year to date of a year the
    data covers to its end ('in 2013, year-to-date' is 2013, session 17), so it says nothing
    more (the only mutants the invariant spares)."""
    from showwork.protocol.reading import read_text

    added = mutant[len(re.sub(r"[?.!\s]+$", "", text)):]
    # a clock time is one word with or without its space ('after 9 pm …, after 9pm')
    plain = lambda t: " ".join(re.findall(  # noqa: E731
        r"[a-z0-9]+", re.sub(r"(\d)\s+([ap]m)\b", r"\1\2", t.lower())))
    if plain(added) and plain(added) in plain(text):
        return True  # 'revenue year to date, year-to-date': the question already says it
    reading = read_text(text, catalog)
    # the members the phrase names, as the mutant's reading finds them ('only in United
    # States' names US, as 'only US' does)
    start = len(mutant) - len(added)
    mutated = read_text(mutant, catalog)
    named = {(m.name, m.member) for m in mutated.members if m.span[0] >= start}
    kept = {(m.name, m.member) for m in mutated.excluded if m.span[0] >= start}
    only = re.fullmatch(r", only (.+?)[?.!]?", added)
    if only is not None and (any(m.member == only.group(1) for m in reading.members) or named
                             and named <= {(m.name, m.member) for m in reading.members}):
        return True  # 'at LaGuardia …, only LGA': the question already keeps that member alone
    out = re.fullmatch(r", (?:excluding|without|not counting|other than) (.+?)[?.!]?", added)
    if out is not None and (any(m.member == out.group(1) for m in reading.excluded) or kept
                            and kept <= {(m.name, m.member) for m in reading.excluded}):
        return True  # 'excluding web, without web': the question already keeps it out
    against = re.fullmatch(r", compared with (.+?)[?.!]?", added)
    if against is not None and len(reading.periods) >= 2 and {p.period for p in reading.periods} \
            == {p.period for p in read_text(mutant, catalog).periods}:
        return True  # 'from April to May 2026, compared with April 2026': already compared
    asks = reading.asks
    if asks.cumulative and re.fullmatch(r", (?:year-to-date|as a running total)[?.!]?", added):
        return True  # 'by the end of Q3 2013, year-to-date': the running total already asked
    said = [(p.period.start, p.period.end, p.period.grain) for p in reading.periods]
    if re.fullmatch(r", year-to-date[?.!]?", added) and len(said) == 1 and said[0][2] == "year" \
            and [(p.period.start, p.period.end) for p in mutated.periods] == [said[0][:2]]:
        return True  # 'in 2013, year-to-date' of a year the data covers to its end: the year
    asked = set(asks.breakdown) | ({asks.ranking.dimension} if asks.ranking else set())
    said = re.match(r"\s+(?:per|for every|at each(?: of the \d+)?)\s+(.+?)s?[?.!]?$", added)
    # the words less a plural's 's' ('statu' of 'status?'): the name with it or without it
    words = {said.group(1), said.group(1) + "s"} if said is not None else set()
    return any(words & {(catalog["dimensions"].get(d) or {}).get("label") or d, d}
               for d in asked if d)


def _catalog(request: pytest.FixtureRequest, name: str) -> dict[str, Any]:
    return request.getfixturevalue(DOMAINS[name][0]).catalog()


@pytest.mark.parametrize("name", sorted(FILES))
def test_a_sample_of_mutants_is_read_differently_or_flagged(request, name: str) -> None:
    """A sample of the generated mutants: each changes the reading or leaves a span unread."""
    count, wrong = violations(name, _catalog(request, name), SAMPLE)
    assert count >= min(SAMPLE, 100)
    assert wrong == [], f"{name}: {len(wrong)} of {count} mutants read as the original:\n" + \
        "\n".join(wrong[:40])


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(FILES))
def test_every_mutant_is_read_differently_or_flagged(request, name: str) -> None:
    """Every generated mutant of every answerable question and paraphrase."""
    count, wrong = violations(name, _catalog(request, name), None)
    assert count > (100 if name == "mf-tutorial" else 1000)  # its 20 questions, few members
    assert wrong == [], f"{name}: {len(wrong)} of {count} mutants read as the original:\n" + \
        "\n".join(wrong[:40])
