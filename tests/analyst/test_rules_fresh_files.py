"""The rules analyst on new-user question files of issue 42, each written from its domain's
catalog and data before reading the reader: a public dbt project nobody here tuned for
(conformance/projects/dbt-metricflow-intro, conformance/questions/intro_s12.yaml, session 12),
dbt-metricflow's tutorial (conformance/questions/mf_tutorial_s11.yaml), the shop and the flights
(examples/*/questions_s11.yaml, session 11), another team's ACME insurance project
(conformance/projects/acme-insurance, conformance/questions/acme_s14.yaml, session 14). The
figures measured on them under claims+repair are held."""

from __future__ import annotations

from pathlib import Path

import pytest
from rules_runs import rules_attempts, wrong_served_clean

from showwork.harness.experiments.scores import Attempt, score

ROOT = Path(__file__).resolve().parents[2]
FILES = {
    # file, its layer's fixture, how many questions, the balanced accuracy held
    "intro": (ROOT / "conformance" / "questions" / "intro_s12.yaml", "intro_layer", 61, 0.909),
    # 0.61 before session 12 (the metrics are named total_revenue and total_orders, and
    # 'revenue' and 'orders' named neither); 0.88 before session 13 ('pending return',
    # 'returned or pending return', the share of a year the data ends inside)
    "tutorial": (ROOT / "conformance" / "questions" / "mf_tutorial_s11.yaml", "tutorial_layer",
                 45, 0.842),
    # 0.814 before session 13 (1 wrong served clean: 'the last 7 days' left out 4 April, the
    # as-of day the data covers; 'of all alterations' refused)
    "shop": (ROOT / "examples" / "shop" / "questions_s11.yaml", "shop_layer", 40, 0.953),
    # 0.937 before session 16 ('what percentage of orders got cancelled in Toronto': the rate
    # whose numerator the count read from 'orders got cancelled' is)
    "flights": (ROOT / "examples" / "flights" / "questions_s11.yaml", "flights_layer", 45, 0.972),
    # 0.957 before session 16 ('cancelation rate': not a slip toward its own plural)
    "acme": (ROOT / "conformance" / "questions" / "acme_s14.yaml", "acme_layer", 49, 0.925),
    # 0.613 before session 14 (1 wrong served clean: 'by year' read as the amount type member
    # Year; no window named taken as the last week on metrics whose time column holds no
    # dates; 'by claim number', 'which policy'; a time-to-settle metric by what takes the time;
    # 'caused by fire' read as a why question)
}


def _attempts(request: pytest.FixtureRequest, name: str) -> list[Attempt]:
    path, fixture, _n, _held = FILES[name]
    return rules_attempts(request.getfixturevalue(fixture), path)


@pytest.mark.parametrize("name", list(FILES))
def test_the_figures_are_held(request: pytest.FixtureRequest, name: str) -> None:
    """Balanced accuracy at least the figure held, and no answer that is wrong, or that should
    have been a refusal, served clean."""
    attempts = _attempts(request, name)
    _path, _fixture, n, held = FILES[name]
    assert len(attempts) == n
    assert score(attempts)["balanced_accuracy"] >= held
    assert wrong_served_clean(attempts) == set()
