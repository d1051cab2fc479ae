"""What a claim's text says (shared with the rules analyst: see protocol/catalog_text.py)."""

from protocol.catalog_text import (
    MetricNames,
    direction,
    mentioned_metrics,
    says_period_total,
)

__all__ = ["MetricNames", "direction", "mentioned_metrics", "says_period_total"]
