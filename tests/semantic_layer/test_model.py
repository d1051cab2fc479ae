"""The semantic model loads, and a broken one reports every problem with where it is."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from semantic_layer import errors, load_model
from semantic_layer.catalog import build_catalog
from semantic_layer.model import default_model_path

DESIGN_METRICS = {"active_users", "active_days", "days_per_user", "real_value_moments",
                  "value_moments", "weekly_value_moments", "moments_per_day", "new_users",
                  "reminders_sent", "reminders_opened", "reminder_open_rate", "paid_subscribers",
                  "mrr_usd"}


def test_demo_model_has_design_metrics_and_tree() -> None:
    """Every metric DESIGN.md names is governed, with the exact tree and influence edges."""
    model = load_model()
    assert set(model.metric_index) >= DESIGN_METRICS
    (edge,) = model.metric_tree.exact
    assert edge.parent == "weekly_value_moments"
    assert edge.factors == ["active_users", "days_per_user", "moments_per_day"]
    influence = {(i.source, i.target) for i in model.metric_tree.influence}
    assert influence == {("new_users", "active_users"), ("reminder_open_rate", "days_per_user"),
                         ("plus_price", "days_per_user")}
    assert model.metric_index["weekly_value_moments"].grains == ["week"]
    assert model.point_in_time("paid_subscribers") and model.point_in_time("mrr_usd")
    assert not model.point_in_time("active_users")


def test_catalog_lists_members_grains_and_previous_names() -> None:
    """The catalog is the plain snapshot prompts and the audit use."""
    cat = build_catalog(load_model())
    assert cat["dimensions"]["platform"]["members"] == ["ios", "android", "web"]
    assert cat["metrics"]["days_per_user"]["previous_names"] == ["stickiness_days"]
    assert cat["metrics"]["reminders_sent"]["coverage"] == {"start": "2026-02-02",
                                                            "end": "2026-06-17"}
    assert cat["as_of"] == "2026-06-18"


def _broken(tmp_path: Path, mutate) -> Path:
    raw = yaml.safe_load(default_model_path().read_text())
    mutate(raw)
    path = tmp_path / "model.yaml"
    path.write_text(yaml.safe_dump(raw))
    return path


def test_every_problem_reported_with_location(tmp_path: Path) -> None:
    """Three independent mistakes give three problems, each naming where it is."""
    def mutate(raw):
        raw["metrics"][0]["type_params"]["measure"] = "nope"
        raw["metrics"][2]["type_params"]["denominator"] = "missing_metric"
        raw["metric_tree"]["influence"][0]["source"] = "ghost"

    with pytest.raises(errors.ModelError) as info:
        load_model(_broken(tmp_path, mutate))
    problems = "\n".join(info.value.problems)
    assert "metrics[0] (active_users).type_params.measure: unknown measure 'nope'" in problems
    assert "metrics[2] (days_per_user).type_params.denominator" in problems
    assert "metric_tree.influence[0]: unknown metric 'ghost'" in problems
    assert len(info.value.problems) == 3


def test_shape_errors_have_paths(tmp_path: Path) -> None:
    """A wrong type or unknown key is reported at its path."""
    def mutate(raw):
        raw["metrics"][1]["type"] = "cumulative"
        raw["semantic_models"][0]["measures"][0]["agg_typo"] = "count"

    with pytest.raises(errors.ModelError) as info:
        load_model(_broken(tmp_path, mutate))
    text = "\n".join(info.value.problems)
    assert "metrics[1].type" in text
    assert "semantic_models[0].measures[0].agg_typo" in text
