"""A corpus of edits of the rules analyst's clean answers (tests/harness/data/held_out_s14b.yaml,
held_out_s15.yaml): each entry edits one question's answer (claim texts, the headline, the
listed values, the prose) and says whether the edit is a lie or an honest rewrite; re-audited
as the harness does (`showwork.benchmarks.audit.case_report`).

Entry edits, applied in order (an edit whose words the answer lacks is an error):
  {claim: N, old: ..., new: ...}    replace in the text of the N-th claim (1-based)
  {prose: ..., new: ...}            replace in the answer's prose
  {append: ...}                     a sentence added to the prose
  {headline: ...}                   the answer's `value`
  {value: N, key: ..., number: ...} the N-th listed value (1-based): its key and/or value
"""

from __future__ import annotations

import copy
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from showwork.analyst.rules import RulesClient
from showwork.benchmarks.audit import Case, case_report, cases_of
from showwork.harness.experiments.attempt import run_attempt
from showwork.harness.experiments.questions import load_questions
from showwork.protocol.switches import Protocol

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = {
    # domain: its bundled questions file, its layer's fixture
    "demo": (ROOT / "harness" / "questions" / "demo.yaml", "layer"),
    "shop": (ROOT / "examples" / "shop" / "questions.yaml", "shop_layer"),
    "flights": (ROOT / "examples" / "flights" / "questions.yaml", "flights_layer"),
}
"""The three domains whose bundled question files every corpus edits the answers of."""
FIVE = {
    **BUNDLED,  # and the mf tutorial and ACME projects: their questions, their layers' fixtures
    "tutorial": (ROOT / "conformance" / "questions" / "mf_tutorial.yaml", "tutorial_layer"),
    "acme": (ROOT / "conformance" / "questions" / "acme_s14.yaml", "acme_layer"),
}
"""The bundled domains and two projects nobody here wrote (sessions 15 and 16 edit all five)."""


class EditCorpus:
    """The entries of one corpus file over `domains` (domain: its questions file, its layer's
    fixture), each answer and each audit made once. The goals are no lie served clean and no
    honest rewrite withheld: what misses them is listed with the decision observed as a strict
    xfail (a fix elsewhere shows as an unexpected pass, to be moved off the list); counts of
    lies withheld and honest rewrites served clean are held as floors."""

    def __init__(self, data: Path, domains: dict[str, tuple[Path, str]]) -> None:
        self.domains = domains
        self.entries: list[dict[str, Any]] = yaml.safe_load(
            data.read_text(encoding="utf-8"))["entries"]
        seen: Counter[str] = Counter()
        for entry in self.entries:
            name = f"{entry['domain']}/{entry['id']}:{entry['kind']}:{entry['truth']}"
            seen[name] += 1
            entry["name"] = name if seen[name] == 1 else f"{name}#{seen[name]}"
        self._cases: dict[str, dict[str, Case]] = {}
        self._reports: dict[str, Any] = {}

    def params(self, misses: dict[str, str]) -> list[Any]:
        """Each entry as a test parameter, today's misses strict xfails."""
        out = []
        for entry in self.entries:
            missed = misses.get(entry["name"])
            marks = [pytest.mark.xfail(strict=True, reason=f"today: {missed}")] if missed else []
            out.append(pytest.param(entry, id=entry["name"], marks=marks))
        return out

    def layer(self, request: pytest.FixtureRequest, domain: str) -> Any:
        return request.getfixturevalue(self.domains[domain][1])

    def cases(self, domain: str, layer: Any) -> dict[str, Case]:
        """The rules analyst's clean answers (claims+repair) to the questions the entries edit,
        once per domain."""
        if domain in self._cases:
            return self._cases[domain]
        path, _fixture = self.domains[domain]
        wanted = {e["id"] for e in self.entries if e["domain"] == domain}
        out = {}
        for spec in load_questions(path).questions:
            q = spec.question()
            if q.id in wanted:
                line = run_attempt(q, RulesClient(), layer, Protocol.parse("claims+repair")
                                   ).model_dump_json()
                for case in cases_of([line]):
                    out[q.id] = case
        self._cases[domain] = out
        return out

    def report(self, name: str, layer: Any) -> Any:
        """The audit of one entry's edited answer, once."""
        if name not in self._reports:
            entry = next(e for e in self.entries if e["name"] == name)
            case = self.cases(entry["domain"], layer)[entry["id"]]
            self._reports[name] = case_report(case, edited(case.answer, entry))
        return self._reports[name]

    def check_briefed(self, misses: dict[str, str], lies: int, honest: int) -> None:
        """At least `lies` lies and `honest` honest rewrites, 15 lies per domain, each entry with
        its arithmetic, every miss an entry."""
        counts = Counter((e["domain"], e["truth"]) for e in self.entries)
        assert sum(n for (_d, t), n in counts.items() if t == "lie") >= lies
        assert sum(n for (_d, t), n in counts.items() if t == "honest") >= honest
        assert all(counts[(d, "lie")] >= 15 for d in self.domains)
        assert all(e["why"] and e["place"] in {"claim_text", "headline", "values", "prose"}
                   for e in self.entries)
        assert set(misses) <= {e["name"] for e in self.entries}

    def check_clean_answers(self, request: pytest.FixtureRequest, domain: str) -> None:
        """Each edited question has a clean rules answer, each edit finds its words, and the
        unedited answer is served clean (so a decision is the edit's)."""
        layer = self.layer(request, domain)
        cases = self.cases(domain, layer)
        for entry in (e for e in self.entries if e["domain"] == domain):
            case = cases[entry["id"]]
            assert edited(case.answer, entry) != case.answer, entry["name"]
            assert case_report(case, case.answer).decision == "serve", entry["name"]

    def check_goal(self, request: pytest.FixtureRequest, entry: dict[str, Any]) -> None:
        """A lie is withheld or served with caveats; an honest rewrite is served, with caveats
        at most."""
        report = self.report(entry["name"], self.layer(request, entry["domain"]))
        codes = sorted({d.code for d in report.defects} | {f.code for f in report.findings})
        goal = report.decision != ("serve" if entry["truth"] == "lie" else "withhold")
        assert goal, f"{report.decision} {codes}"

    def check_floors(self, request: pytest.FixtureRequest, domain: str,
                     floors: tuple[int, int]) -> None:
        """Lies withheld and honest rewrites served clean: at least `floors`."""
        layer = self.layer(request, domain)
        decisions = [(e["truth"], self.report(e["name"], layer).decision)
                     for e in self.entries if e["domain"] == domain]
        withheld = sum(t == "lie" and d == "withhold" for t, d in decisions)
        clean = sum(t == "honest" and d == "serve" for t, d in decisions)
        assert withheld >= floors[0] and clean >= floors[1], (withheld, clean)


def corpus_tests(corpus: EditCorpus, misses: dict[str, str], floors: dict[str, tuple[int, int]],
                 lies: int, honest: int) -> dict[str, Any]:
    """The four tests of a corpus, by name, for its module's namespace (pytest collects them
    there): the corpus is as briefed, every edit applies to a clean answer, no lie served clean
    and no honest rewrite withheld (today's misses strict xfails), the floors held."""

    def test_the_corpus_is_as_briefed() -> None:
        corpus.check_briefed(misses, lies=lies, honest=honest)

    @pytest.mark.parametrize("domain", list(corpus.domains))
    def test_every_edit_applies_to_a_clean_answer(request: pytest.FixtureRequest,
                                                  domain: str) -> None:
        corpus.check_clean_answers(request, domain)

    @pytest.mark.parametrize("entry", corpus.params(misses))
    def test_no_lie_served_clean_and_no_honest_rewrite_withheld(
            request: pytest.FixtureRequest, entry: dict[str, Any]) -> None:
        corpus.check_goal(request, entry)

    @pytest.mark.parametrize("domain", list(corpus.domains))
    def test_the_floors_are_held(request: pytest.FixtureRequest, domain: str) -> None:
        corpus.check_floors(request, domain, floors[domain])

    return {f.__name__: f for f in (
        test_the_corpus_is_as_briefed, test_every_edit_applies_to_a_clean_answer,
        test_no_lie_served_clean_and_no_honest_rewrite_withheld, test_the_floors_are_held)}


def edited(answer: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    """The answer with the entry's edits; an edit whose words the answer lacks is an error."""
    out = copy.deepcopy(answer)
    for edit in entry["edits"]:
        if "claim" in edit:
            claim = out["claims"][edit["claim"] - 1]
            _must_hold(claim["text"], edit["old"], entry)
            claim["text"] = claim["text"].replace(edit["old"], edit["new"])
        elif "prose" in edit:
            _must_hold(out["answer"], edit["prose"], entry)
            out["answer"] = out["answer"].replace(edit["prose"], edit["new"])
        elif "append" in edit:
            out["answer"] = f"{out['answer'].rstrip()} {edit['append']}"
        elif "headline" in edit:
            out["value"] = edit["headline"]
        else:
            listed = out["values"][edit["value"] - 1]
            listed["key"] = edit.get("key", listed["key"])
            listed["value"] = edit.get("number", listed["value"])
    return out


def _must_hold(text: str, old: str, entry: dict[str, Any]) -> None:
    if old not in text:
        raise ValueError(f"{entry['name']}: {old!r} is not in {text!r}")
