"""The demo model is a dbt project with governance; a broken one reports every problem with
where it is (file, object, what is wrong)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from showwork.semantic_layer import errors, load_model
from showwork.semantic_layer.catalog import build_catalog
from showwork.semantic_layer.model import default_model_path

DESIGN_METRICS = {"active_users", "active_days", "days_per_user", "real_value_moments",
                  "value_moments", "weekly_value_moments", "moments_per_day", "new_users",
                  "reminders_sent", "reminders_opened", "reminder_open_rate", "paid_subscribers",
                  "mrr_usd"}


def test_demo_model_has_design_metrics_and_tree() -> None:
    """Every metric DESIGN.md names is governed, with the exact tree and influence edges."""
    model = load_model()
    assert set(model.metric_index) >= DESIGN_METRICS
    edge = model.metric_tree.exact[0]  # the hand-written edge; the ratio metrics' follow
    assert edge.parent == "weekly_value_moments"
    assert edge.factors == ["active_users", "days_per_user", "moments_per_day"]
    influence = {(i.source, i.target) for i in model.metric_tree.influence}
    assert influence == {("new_users", "active_users"), ("reminder_open_rate", "days_per_user"),
                         ("plus_price", "days_per_user")}
    assert model.allowed_grains("weekly_value_moments") == ("week",)
    assert model.allowed_grains("active_users") == ("day", "week", "month")
    assert model.point_in_time("paid_subscribers") and model.point_in_time("mrr_usd")
    assert not model.point_in_time("active_users")


def test_demo_is_dbt_yaml_with_governance() -> None:
    """The demo is a project folder: dbt YAML under models/, governance.yaml beside it."""
    root = default_model_path().parent
    assert (root / "models" / "metrics.yml").is_file() and (root / "governance.yaml").is_file()
    model = load_model()
    assert model.semantic_model("events").table == "events"
    assert model.metric_index["active_users"].filters == (
        "{{ Dimension('event__event_type') }} = 'app_open' AND NOT {{ Dimension('user__is_test') }}",)
    assert model.qualified_name("platform") == "user__platform"


def test_catalog_lists_members_grains_and_previous_names() -> None:
    """The catalog is the plain snapshot prompts and the audit use."""
    cat = build_catalog(load_model())
    assert cat["dimensions"]["platform"]["members"] == ["ios", "android", "web"]
    assert cat["dimensions"]["platform"]["qualified"] == "user__platform"
    assert list(cat["dimensions"]) == ["platform", "plan", "country", "channel", "signup_month"]
    assert cat["metrics"]["days_per_user"]["previous_names"] == ["stickiness_days"]
    assert cat["metrics"]["reminders_sent"]["coverage"] == {"start": "2026-02-02",
                                                            "end": "2026-06-17"}
    assert cat["metrics"]["reminder_open_rate"]["unit"] == "fraction"
    assert cat["metrics"]["plus_price"]["dimensions"] == []
    assert cat["grains"] == ["day", "week", "month"]
    assert cat["as_of"] == "2026-06-18"


@pytest.fixture
def demo_copy(tmp_path: Path) -> Path:
    """A writable copy of the demo project."""
    return Path(shutil.copytree(default_model_path().parent, tmp_path / "demo"))


def _line(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def test_every_problem_reported_with_location(demo_copy: Path) -> None:
    """A metric naming a missing measure and a tree edge naming a missing metric are each
    reported, with the file and the object."""
    _edit(demo_copy / "models" / "metrics.yml", "measure: event_users", "measure: nope")
    _edit(demo_copy / "governance.yaml", "{source: new_users,", "{source: ghost,")
    with pytest.raises(errors.ModelError) as info:
        load_model(demo_copy)
    metrics = demo_copy / "models" / "metrics.yml"
    (problem,) = info.value.problems
    assert problem.startswith(f"{metrics}:{_line(metrics, '- name: active_users')}: metric "
                              "'active_users': ") and "'nope'" in problem
    _edit(demo_copy / "models" / "metrics.yml", "measure: nope", "measure: event_users")
    with pytest.raises(errors.ModelError) as info:
        load_model(demo_copy)
    assert info.value.problems == [
        f"{demo_copy / 'governance.yaml'}: metric_tree.influence[0]: unknown metric 'ghost'"]


def test_shape_errors_have_paths(demo_copy: Path) -> None:
    """A wrong type or an unknown key is reported at its file, object and path."""
    _edit(demo_copy / "models" / "metrics.yml", "type: ratio", "type: fraction")
    _edit(demo_copy / "models" / "events.yml", "agg: count_distinct", "agg_typo: count_distinct")
    with pytest.raises(errors.ModelError) as info:
        load_model(demo_copy)
    metrics, events = demo_copy / "models" / "metrics.yml", demo_copy / "models" / "events.yml"
    first, second = sorted(info.value.problems)
    assert first.startswith(f"{events}:{_line(events, '- name: events')}: semantic model "
                            "'events': measures[0]: Additional properties are not allowed ('agg_typo'")
    assert second.startswith(f"{metrics}:{_line(metrics, '- name: days_per_user')}: metric "
                             "'days_per_user': type: 'fraction' is not one of")
